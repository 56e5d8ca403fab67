// Hopper launches (issue 33, first step): tensor maps in the manifest by their
// cuTensorMapEncodeTiled arguments, checked against cuda.h's documented limits with located
// errors; thread-block clusters (the manifest's "cluster", --cluster), checked against the grid
// and the kernel's cluster directives, and refused as UNSUPPORTED until clusters are modelled;
// and the production Hopper kernels of ../shared/production/hopper (CUTLASS 3.x, FlashAttention-3)
// reading and either decided (the cluster-1 CUTLASS GEMM: EQUIVALENT, its mutant NOT_EQUIVALENT,
// both kernels RACE_FREE) or ending UNSUPPORTED at the first instruction the engine does not
// model, never with a parse error, a crash or another verdict.
#include <fmt/format.h>
#include <functional>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/launch/tensor_map_reader.hpp"
#include "ptx/parser.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// A kernel whose parameter is {CUtensorMap map; float* out; int n;} (192 bytes, .align 64): it
// stores n to out and never touches the map.
constexpr const char* kMapPtx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 k_param_0[192])
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_param_0+128];
  ld.param.u32 %r1, [k_param_0+136];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

json good_map() {
  return {{"encode", "cuTensorMapEncodeTiled"},
          {"dataType", "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"},
          {"rank", 2},
          {"globalAddress", "ptr:A"},
          {"globalDim", {128, 64}},
          {"globalStrides", {256}},
          {"boxDim", {64, 32}},
          {"elementStrides", {1, 1}},
          {"interleave", "CU_TENSOR_MAP_INTERLEAVE_NONE"},
          {"swizzle", "CU_TENSOR_MAP_SWIZZLE_128B"},
          {"l2Promotion", "CU_TENSOR_MAP_L2_PROMOTION_L2_128B"},
          {"oobFill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE"}};
}

json map_kernel(const json& map) {
  json param = {{"struct", 192},
                {"fields", json::array({{{"offset", 0}, {"type", "tensormap"}, {"value", map}},
                                        {{"offset", 128}, {"type", "u64"}, {"value", "ptr:out"}},
                                        {{"offset", 136}, {"type", "s32"}, {"value", "int:7"}}})}};
  return {{"ptx", "k.ptx"},
          {"entry", "k"},
          {"block", {1}},
          {"arrays", json::array({{{"name", "A"},
                                   {"base", "0x100000000"},
                                   {"elem_width", 2},
                                   {"len", 128 * 64},
                                   {"kind", "in"}},
                                  {{"name", "out"},
                                   {"base", "0x200000000"},
                                   {"elem_width", 4},
                                   {"len", 1},
                                   {"kind", "out"}}})},
          {"params", json::array({param})}};
}

json pair_manifest(const json& ref, const json& opt) {
  json entry = {{"name", "m"},
                {"kind", "equivalence"},
                {"expected", "EQUIVALENT"},
                {"reference", ref},
                {"optimized", opt}};
  return {{"benchmarks", json::array({entry})}};
}

struct EntryRead {
  std::string error;
  uint32_t line = 0; // where the error lies in the manifest text
  std::optional<launch::ManifestEntry> entry;
};

EntryRead read_entry(const std::filesystem::path& dir, const json& manifest) {
  EntryRead r;
  const std::string text = manifest.dump(1);
  auto m = launch::parse_manifest(text, (dir / "m.json").string());
  if (!m.manifest) {
    r.error = m.diagnostics.empty() ? "no manifest" : m.diagnostics[0].message;
    return r;
  }
  r.entry = m.manifest->entries.at(0);
  r.error = r.entry->error;
  r.line = r.entry->error_where.line;
  return r;
}

std::filesystem::path map_dir(const std::string& name) {
  const auto dir = scratch_dir(name);
  write_file(dir / "k.ptx", kMapPtx);
  return dir;
}

TEST(TensorMapManifest, MapByItsEncodeArgumentsReadsAndRuns) {
  const auto dir = map_dir("tensormap-ok");
  const EntryRead r =
      read_entry(dir, pair_manifest(map_kernel(good_map()), map_kernel(good_map())));
  ASSERT_EQ(r.error, "");
  const auto& field = r.entry->optimized.params.at(0).struct_fields.at(0);
  ASSERT_TRUE(field.tensor_map.has_value());
  const launch::TensorMap& m = *field.tensor_map;
  EXPECT_EQ(m.data_type, 6u); // FLOAT16
  EXPECT_EQ(m.rank, 2u);
  EXPECT_EQ(m.array, "A");
  EXPECT_EQ(m.global_dim[0], 128u);
  EXPECT_EQ(m.global_dim[1], 64u);
  EXPECT_EQ(m.global_strides[0], 256u);
  EXPECT_EQ(m.box_dim[1], 32u);
  EXPECT_EQ(m.swizzle, 3u); // 128B
  EXPECT_EQ(m.l2_promotion, 2u);
  // Enumerators by number, as cuda.h's values, read the same.
  json numeric = good_map();
  numeric["dataType"] = 6;
  numeric["interleave"] = 0;
  numeric["swizzle"] = 3;
  numeric["l2Promotion"] = 2;
  numeric["oobFill"] = 0;
  numeric.erase("encode");
  const EntryRead n = read_entry(dir, pair_manifest(map_kernel(numeric), map_kernel(numeric)));
  ASSERT_EQ(n.error, "");
  EXPECT_EQ(*n.entry->optimized.params.at(0).struct_fields.at(0).tensor_map, m);
  // The kernel never reads the map: the entry runs and proves.
  write_file(dir / "m.json", pair_manifest(map_kernel(good_map()), map_kernel(good_map())).dump(1));
  const ToolRun run =
      run_tool({"prove", "--batch", "m.json", "--no-z3", "--report", "r.json"}, dir);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(read_json(dir / "r.json")["results"][0]["verdict"], "EQUIVALENT");
}

TEST(TensorMapManifest, EveryViolationOfTheDocumentedLimitsIsALocatedError) {
  const auto dir = map_dir("tensormap-errors");
  const std::string p = "$.benchmarks[0].optimized.params[0].fields[0]";
  const std::string v = p + ".value";
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& m) { m["rnk"] = 2; }, v + ".rnk: unknown key \"rnk\"; did you mean \"rank\"?"},
      {[](json& m) { m.erase("swizzle"); }, v + ": missing required member 'swizzle'"},
      {[](json& m) { m["encode"] = "cuTensorMapEncodeIm2col"; },
       v + ".encode: only \"cuTensorMapEncodeTiled\" (tiled tensor maps) is supported; im2col "
           "maps are not"},
      {[](json& m) { m["dataType"] = "CU_TENSOR_MAP_DATA_TYPE_HALF"; }, ""}, // prefix checked
      {[](json& m) { m["dataType"] = 16; },
       v + ".dataType: 16 is not a value of CU_TENSOR_MAP_DATA_TYPE_* (0 to 15)"},
      {[](json& m) { m["rank"] = 6; }, v + ".rank: the rank is 1 to 5, got 6"},
      {[](json& m) { m["globalDim"] = {128}; },
       v + ".globalDim: expected 2 values (one per dimension), found 1"},
      {[](json& m) {
         m["globalStrides"] = {256, 512};
       },
       v + ".globalStrides: expected 1 value (one per dimension but the first), found 2"},
      {[](json& m) { m["globalDim"][1] = 0; },
       v + ".globalDim[1]: a global dimension is 1 to 2^32, got 0"},
      {[](json& m) { m["globalDim"][1] = (uint64_t{1} << 32) + 1; },
       v + ".globalDim[1]: a global dimension is 1 to 2^32, got 4294967297"},
      {[](json& m) { m["globalStrides"][0] = 200; },
       v + ".globalStrides[0]: a global stride is a multiple of 16 bytes below 2^40, got 200"},
      {[](json& m) { m["globalStrides"][0] = uint64_t{1} << 40; },
       v + ".globalStrides[0]: a global stride is a multiple of 16 bytes below 2^40, got "
           "1099511627776"},
      {[](json& m) { m["boxDim"][1] = 257; },
       v + ".boxDim[1]: a box dimension is 1 to 256, got 257"},
      {[](json& m) {
         m["boxDim"][0] = 4;
         m["swizzle"] = "CU_TENSOR_MAP_SWIZZLE_NONE";
       },
       v + ".boxDim[0]: without interleave the box's inner dimension is a multiple of 16 bytes; 4 "
           "elements of 2 bytes are 8"},
      {[](json& m) { m["boxDim"][0] = 128; },
       v + ".boxDim[0]: the box's inner dimension is 256 bytes, more than the 128-byte span of "
           "CU_TENSOR_MAP_SWIZZLE_128B"},
      {[](json& m) { m["swizzle"] = "CU_TENSOR_MAP_SWIZZLE_64B"; },
       v + ".boxDim[0]: the box's inner dimension is 128 bytes, more than the 64-byte span of "
           "CU_TENSOR_MAP_SWIZZLE_64B"},
      {[](json& m) { m["elementStrides"][1] = 9; },
       v + ".elementStrides[1]: an element stride is 1 to 8, got 9"},
      {[](json& m) { m["elementStrides"][0] = 0; },
       v + ".elementStrides[0]: an element stride is 1 to 8, got 0"},
      {[](json& m) { m["interleave"] = "CU_TENSOR_MAP_INTERLEAVE_16B"; },
       v + ".rank: an interleaved map has rank 3 to 5, got 2"},
      {[](json& m) {
         m["oobFill"] = "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA";
         m["dataType"] = "CU_TENSOR_MAP_DATA_TYPE_UINT16";
       },
       v + ".oobFill: NAN_REQUEST_ZERO_FMA needs a floating-point data type, not UINT16"},
      {[](json& m) { m["globalAddress"] = "ptr:B"; },
       v + ".globalAddress: no array named \"B\" in the kernel's arrays"},
      {[](json& m) { m["globalAddress"] = "ptr:A+8"; },
       v + ".globalAddress: the global address 0x100000008 is not 16-byte aligned"},
      {[](json& m) { m["globalAddress"] = "A"; },
       v + ".globalAddress: expected \"ptr:ARRAY\" or \"ptr:ARRAY+BYTES\" (an array of the "
           "kernel)"},
      {[](json& m) { m["globalDim"][1] = 65; },
       v + ".globalDim: the map spans 16640 bytes from offset 0 of array \"A\", which holds "
           "16384 bytes"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    json m = good_map();
    cases[i].edit(m);
    const EntryRead r = read_entry(dir, pair_manifest(map_kernel(good_map()), map_kernel(m)));
    if (i == 3) {
      EXPECT_EQ(r.error.rfind(v + ".dataType: unknown value \"CU_TENSOR_MAP_DATA_TYPE_HALF\" "
                                  "(expected one of CU_TENSOR_MAP_DATA_TYPE_UINT8, ",
                              0),
                0u)
          << r.error;
    } else {
      EXPECT_EQ(r.error, cases[i].expected) << "case " << i;
    }
    EXPECT_GT(r.line, 0u) << "case " << i << ": the error is located in the manifest";
  }
  // A tensor map lies at a multiple of 64 bytes (cuda.h: the CUtensorMap is 64-byte aligned).
  json kernel = map_kernel(good_map());
  kernel["params"][0]["fields"][0]["offset"] = 32;
  kernel["params"][0]["fields"][1]["offset"] = 160;
  kernel["params"][0]["fields"][2]["offset"] = 168;
  EXPECT_EQ(read_entry(dir, pair_manifest(map_kernel(good_map()), kernel)).error,
            p + ".offset: a tensor map lies at a multiple of 64 bytes (cuda.h: \"tensorMap address "
                "must be aligned to 64 bytes\"), not at offset 32");
  // The command line reports the manifest position: file:line:col and exit status 2.
  json bad = good_map();
  bad["boxDim"][1] = 300;
  write_file(dir / "bad.json", pair_manifest(map_kernel(good_map()), map_kernel(bad)).dump(1));
  const ToolRun run = run_tool({"prove", "--batch", "bad.json", "--no-z3"}, dir);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("bad.json:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("boxDim[1]: a box dimension is 1 to 256, got 300"), std::string::npos)
      << run.err;
}

// ---- clusters ----------------------------------------------------------------------------

// Each CTA writes its index: a kernel whose answer is the same with or without clusters.
std::string cluster_ptx(const std::string& directives) {
  return fmt::format(R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry c(.param .u64 c_param_0)
{}
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [c_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}}
)",
                     directives);
}

json cluster_check(const std::string& ptx, uint32_t grid, const json& cluster,
                   const std::string& expected) {
  json kernel = {{"ptx", ptx},
                 {"entry", "c"},
                 {"block", {32}},
                 {"grid", {grid}},
                 {"arrays", json::array({{{"name", "out"},
                                          {"base", "0x100000000"},
                                          {"elem_width", 4},
                                          {"len", 32},
                                          {"kind", "out"}}})},
                 {"params", {"ptr:out"}}};
  if (!cluster.is_null())
    kernel["cluster"] = cluster;
  json entry = {{"name", "c"}, {"kind", "race_check"}, {"expected", expected}, {"kernel", kernel}};
  return {{"benchmarks", json::array({entry})}};
}

TEST(ClusterLaunch, ManifestClusterIsCheckedAgainstTheGrid) {
  const auto dir = scratch_dir("cluster-manifest");
  write_file(dir / "c.ptx", cluster_ptx(""));
  const std::string p = "$.benchmarks[0].kernel.cluster";
  EXPECT_EQ(read_entry(dir, cluster_check("c.ptx", 4, {2, 1, 1}, "UNSUPPORTED")).error, "");
  const EntryRead not_dividing = read_entry(dir, cluster_check("c.ptx", 4, {3}, "UNSUPPORTED"));
  EXPECT_EQ(not_dividing.error, p + ": the cluster's x dimension (3) does not divide the grid's "
                                    "(4): a grid is a whole number of clusters");
  EXPECT_GT(not_dividing.line, 0u);
  EXPECT_EQ(read_entry(dir, cluster_check("c.ptx", 32, {32}, "UNSUPPORTED")).error,
            p + ": a cluster of 32x1x1 has 32 CTAs; at most 16 (8 portable, 16 non-portable)");
  EXPECT_EQ(read_entry(dir, cluster_check("c.ptx", 4, {0}, "UNSUPPORTED")).error,
            p + "[0]: expected a positive integer below 2^31");
  EXPECT_EQ(read_entry(dir, cluster_check("c.ptx", 4, "2", "UNSUPPORTED")).error,
            p + ": expected an array of 1 to 3 positive integers");
}

TEST(ClusterLaunch, ClusterOfSeveralCtasIsUnsupportedUntilModelled) {
  const auto dir = scratch_dir("cluster-run");
  write_file(dir / "c.ptx", cluster_ptx(""));
  // A cluster of 1 is an ordinary launch.
  write_file(dir / "one.json", cluster_check("c.ptx", 4, {1, 1, 1}, "RACE_FREE").dump(1));
  ToolRun r = run_tool({"check", "--batch", "one.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Two CTAs per cluster: UNSUPPORTED with the reason, never RACE_FREE.
  write_file(dir / "two.json", cluster_check("c.ptx", 4, {2, 1, 1}, "UNSUPPORTED").dump(1));
  r = run_tool({"check", "--batch", "two.json", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json result = read_json(dir / "r.json")["results"][0];
  EXPECT_EQ(result["verdict"], "UNSUPPORTED") << result.dump(1);
  EXPECT_NE(result.value("detail", "").find("clusters of 2x1x1 CTAs; thread-block clusters"),
            std::string::npos)
      << result.dump(1);
  // The same from the command line.
  r = run_tool({"check", "--ptx", "c.ptx", "--kernel", "c", "--block", "32", "--grid", "4",
                "--cluster", "2", "--array", "out:0x100000000:4:32:out", "--param", "ptr:out"},
               dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("UNSUPPORTED"), std::string::npos) << r.out;
  r = run_tool({"check", "--ptx", "c.ptx", "--kernel", "c", "--block", "32", "--grid", "4",
                "--cluster", "3", "--array", "out:0x100000000:4:32:out", "--param", "ptr:out"},
               dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--cluster: the cluster's x dimension (3) does not divide the grid's (4)"),
            std::string::npos)
      << r.err;
}

TEST(ClusterLaunch, KernelDirectivesMustAgreeWithTheCluster) {
  const auto dir = scratch_dir("cluster-directives");
  write_file(dir / "req.ptx", cluster_ptx(".reqnctapercluster 2, 1, 1"));
  write_file(dir / "explicit.ptx", cluster_ptx(".explicitcluster"));
  write_file(dir / "max4.ptx", cluster_ptx(".maxclusterrank 4"));
  write_file(dir / "max16.ptx", cluster_ptx(".maxclusterrank 16"));
  write_file(dir / "plain.ptx", cluster_ptx(""));
  struct Case {
    std::string ptx;
    json cluster;
    std::string verdict;
    std::string detail;
  };
  const std::vector<Case> cases = {
      {"req.ptx",
       {4, 1, 1},
       "ERROR",
       "declares .reqnctapercluster 2x1x1, but the launch gives "
       "the cluster 4x1x1"},
      {"req.ptx", nullptr, "ERROR", "declares .reqnctapercluster 2x1x1: give that \"cluster\""},
      {"req.ptx", {2, 1, 1}, "UNSUPPORTED", "clusters of 2x1x1 CTAs"},
      {"explicit.ptx", nullptr, "ERROR",
       "declares .explicitcluster: it must be launched with a "
       "\"cluster\""},
      {"explicit.ptx", {1, 1, 1}, "RACE_FREE", ""},
      {"max4.ptx", {8, 1, 1}, "ERROR", "has 8 CTAs, but kernel 'c' declares .maxclusterrank 4"},
      {"plain.ptx", {16, 1, 1}, "ERROR", "more than the portable 8"},
      {"max16.ptx", {16, 1, 1}, "UNSUPPORTED", "clusters of 16x1x1 CTAs"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    write_file(dir / "m.json", cluster_check(c.ptx, 16, c.cluster, c.verdict).dump(1));
    const ToolRun r = run_tool({"check", "--batch", "m.json", "--report", "r.json"}, dir);
    const json result = read_json(dir / "r.json")["results"][0];
    EXPECT_EQ(result["verdict"], c.verdict) << "case " << i << "\n" << result.dump(1);
    EXPECT_NE(result.value("detail", "").find(c.detail), std::string::npos) << "case " << i << "\n"
                                                                            << result.dump(1);
    EXPECT_EQ(r.exit_code, c.verdict == "ERROR" ? 2 : 0) << "case " << i << r.out << r.err;
  }
}

// ---- the production Hopper kernels --------------------------------------------------------

std::filesystem::path hopper_dir() {
  return std::filesystem::path(source_dir()) / ".." / "shared" / "production" / "hopper";
}

TEST(HopperProduction, EveryKernelParses) {
  const auto dir = hopper_dir();
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  for (const char* f :
       {"cutlass_gemm/hopper_gemm_ws_c1.ptx", "cutlass_gemm/hopper_gemm_ws_c2.ptx",
        "cutlass_gemm/hopper_gemm_ws_c1.mut-neg-a.ptx", "fa3/fa3_fwd_hdim128_fp16_c1.ptx",
        "fa3/fa3_fwd_hdim128_fp16_c2.ptx", "fa3/fa3_fwd_hdim128_fp16_c1.mut-neg-a.ptx"}) {
    SCOPED_TRACE(f);
    const std::string text = read_file(dir / f);
    const ptx::ParseResult r = ptx::parse(text, (dir / f).string());
    EXPECT_TRUE(r.ok()) << ptx::render_all(r.diagnostics);
  }
}

// The tensor maps of the library-built parameter blocks (*.params.json: what
// cuTensorMapEncodeTiled was called with) in the manifest's form: each reads, passes cuda.h's
// limits, and is the map the manifest gives at that offset.
TEST(HopperProduction, ParameterBlockTensorMapsReadInTheManifestForm) {
  const auto dir = hopper_dir();
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  const auto manifest = launch::read_manifest((dir / "manifest.json").string());
  ASSERT_TRUE(manifest.manifest.has_value());
  size_t maps = 0;
  for (const char* f : {"cutlass_gemm/hopper_gemm_ws_c1.128x128x128.params.json",
                        "cutlass_gemm/hopper_gemm_ws_c2.256x128x128.params.json",
                        "fa3/fa3_fwd_hdim128_fp16_c1.q128_k176.params.json",
                        "fa3/fa3_fwd_hdim128_fp16_c2.q256_k176.params.json"}) {
    SCOPED_TRACE(f);
    const json block = read_json(dir / f);
    const std::string ptx = (dir / block.at("ptx").get<std::string>()).lexically_normal().string();
    const launch::KernelConfig* config = nullptr;
    for (const auto& e : manifest.manifest->entries) {
      if (std::filesystem::path(e.optimized.ptx_path).lexically_normal().string() == ptx)
        config = &e.optimized;
    }
    ASSERT_NE(config, nullptr) << "no manifest entry runs " << ptx;
    for (const json& field : block.at("fields")) {
      if (field.at("type") != "tensormap")
        continue;
      const json& v = field.at("value");
      json form = {{"dataType", v.at("dataType")},
                   {"rank", v.at("rank")},
                   {"globalAddress", "ptr:" + v.at("array").get<std::string>()},
                   {"globalDim", v.at("globalDim")},
                   {"globalStrides", v.at("globalStrides")},
                   {"boxDim", v.at("boxDim")},
                   {"elementStrides", v.at("elementStrides")},
                   {"interleave", v.at("interleave")},
                   {"swizzle", v.at("swizzle")},
                   {"l2Promotion", v.at("l2Promotion")},
                   {"oobFill", v.at("oobFill")}};
      const launch::TensorMapRead read = launch::read_tensor_map(form, "$");
      ASSERT_FALSE(read.problem.has_value()) << read.problem->path << ": " << read.problem->message;
      EXPECT_FALSE(launch::tensor_map_array_problem(*read.map, *config, "$").has_value());
      const uint64_t offset = field.at("offset").get<uint64_t>();
      bool found = false;
      for (const auto& f2 : config->params.at(0).struct_fields) {
        if (f2.offset == offset && f2.tensor_map) {
          EXPECT_EQ(*f2.tensor_map, *read.map) << "offset " << offset;
          found = true;
        }
      }
      EXPECT_TRUE(found) << "the manifest has no tensor map at offset " << offset;
      ++maps;
    }
  }
  EXPECT_EQ(maps, 2u + 2u + 6u + 6u);
}

// One result of a report of the Hopper entries: UNSUPPORTED at an instruction of the optimized
// (Hopper) kernel, located (its PTX line and the instruction), never ERROR or another verdict.
// The reason is an instruction outside the model, or a race the check cannot confirm (a kernel
// that runs past its mbarrier waits reaches warp-specialized code whose partial-mask syncs the
// race check merges: UNSUPPORTED, "this may be a false alarm").
void expect_unsupported_at_an_instruction(const json& e, const std::string& kernel) {
  SCOPED_TRACE(e.value("name", ""));
  EXPECT_EQ(e["verdict"], "UNSUPPORTED") << e.dump(1);
  EXPECT_FALSE(e.value("bad_input", true));
  ASSERT_TRUE(e.contains("safety") && e["safety"].is_object()) << e.dump(1);
  const json& safety = e["safety"];
  EXPECT_EQ(safety.value("kernel", ""), kernel) << e.dump(1);
  const std::string kind = safety.value("kind", "");
  EXPECT_TRUE(kind == "unsupported" ||
              (kind.ends_with("race") &&
               safety.value("message", "").find("may be a false alarm") != std::string::npos))
      << e.dump(1);
  ASSERT_TRUE(safety["access"].is_object()) << e.dump(1);
  EXPECT_GT(safety["access"].value("ptx_line", 0), 0) << e.dump(1);
  EXPECT_FALSE(safety["access"].value("instruction", "").empty()) << e.dump(1);
}

// The cluster-1 CUTLASS GEMM (H01) and its mutant (H04) are decided since a lone lane's mbarrier
// wait orders that lane (its elected producer lane, engine/exec/mbarrier_order.hpp).
bool decided(const json& e) {
  const std::string name = e.value("name", "");
  return name.starts_with("H01 ") || name.starts_with("H04 ");
}

// The GEMM entries through `prove` (the FA3 ones run their naive reference for minutes: they
// are in production_tests, labelled slow, hopper_production_test.cpp): H01 EQUIVALENT, the
// mutant H04 NOT_EQUIVALENT with a counterexample the emulator confirms, H03 (cluster 2)
// UNSUPPORTED at an instruction. The exit status is 1: a verdict differs from the expected one
// (H03's), as docs/cli.md says.
TEST(HopperProduction, GemmEntriesAreDecidedOrUnsupportedAtAnInstruction) {
  const auto dir = hopper_dir();
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  const auto scratch = scratch_dir("hopper-gemm");
  const ToolRun r =
      run_tool({"prove", "--batch", (dir / "manifest.json").string(), "--filter", "^H0[134] ",
                "--no-z3", "--no-progress", "--report", (scratch / "r.json").string()},
               scratch, 600);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = read_json(scratch / "r.json");
  ASSERT_EQ(report["results"].size(), 3u) << report.dump(1);
  for (const json& e : report["results"]) {
    const std::string name = e.value("name", "");
    SCOPED_TRACE(name);
    if (name.starts_with("H01 ")) {
      EXPECT_EQ(e["verdict"], "EQUIVALENT") << e.dump(1);
    } else if (name.starts_with("H04 ")) {
      EXPECT_EQ(e["verdict"], "NOT_EQUIVALENT") << e.dump(1);
      ASSERT_TRUE(e["counterexample"].is_object()) << e.dump(1);
      EXPECT_EQ(e["counterexample"].value("confirmed", false), true) << e.dump(1);
    } else {
      expect_unsupported_at_an_instruction(e, "optimized");
    }
  }
}

// The cluster-1 FA3 kernel (H05) and its mutant (H07): their producer warp waits on barrier_O
// with every lane and one lane releases after it, so they are RACE_FREE under the
// converged-waits assumption only (docs/semantics.md, "Converged waits").
bool decided_assuming_converged_waits(const json& e) {
  const std::string name = e.value("name", "");
  return decided(e) || name.starts_with("H05 ") || name.starts_with("H07 ");
}

// Every Hopper kernel of the manifest (GEMM and FA3, clusters of 1 and 2), alone, as the
// manifest launches it: the cluster-1 GEMM and its mutant RACE_FREE, the others UNSUPPORTED at
// an instruction; under --assume-converged-waits the cluster-1 FA3 kernels RACE_FREE too.
TEST(HopperProduction, EveryKernelIsRaceFreeOrUnsupportedAtAnInstruction) {
  const auto dir = hopper_dir();
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  const auto scratch = scratch_dir("hopper-kernels");
  const json manifest = read_json(dir / "manifest.json");
  json checks = json::array();
  for (const json& e : manifest["benchmarks"]) {
    json kernel = e["optimized"];
    // The derived manifest lives elsewhere: its paths absolute.
    kernel["ptx"] = (dir / kernel["ptx"].get<std::string>()).string();
    for (json& p : kernel["params"]) {
      if (p.is_object() && p.contains("bytes"))
        p["bytes"] = (dir / p["bytes"].get<std::string>()).string();
    }
    checks.push_back({{"name", e["name"]},
                      {"kind", "race_check"},
                      {"expected", decided(e) ? "RACE_FREE" : "UNSUPPORTED"},
                      {"kernel", kernel}});
  }
  write_file(scratch / "m.json", json{{"benchmarks", checks}}.dump(1));
  const ToolRun r =
      run_tool({"check", "--batch", "m.json", "--no-progress", "--report", "r.json"}, scratch, 600);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(scratch / "r.json");
  ASSERT_EQ(report["results"].size(), 6u) << report.dump(1);
  for (const json& e : report["results"]) {
    if (decided(e)) {
      EXPECT_EQ(e["verdict"], "RACE_FREE") << e.dump(1);
    } else {
      expect_unsupported_at_an_instruction(e, "kernel");
      if (decided_assuming_converged_waits(e)) // the refusal names the flag that lifts it
        EXPECT_NE(e["detail"].get<std::string>().find("--assume-converged-waits"),
                  std::string::npos)
            << e.dump(1);
    }
  }
  const ToolRun assumed = run_tool({"check", "--batch", "m.json", "--no-progress",
                                    "--assume-converged-waits", "--report", "a.json"},
                                   scratch, 600);
  const json assumed_report = read_json(scratch / "a.json");
  ASSERT_EQ(assumed_report["results"].size(), 6u) << assumed_report.dump(1);
  for (const json& e : assumed_report["results"]) {
    EXPECT_EQ(e["assumptions"], json::array({"converged-waits"})) << e.dump(1);
    if (decided_assuming_converged_waits(e))
      EXPECT_EQ(e["verdict"], "RACE_FREE") << e.dump(1);
    else
      expect_unsupported_at_an_instruction(e, "kernel");
  }
}

} // namespace
} // namespace volta::cli_test
