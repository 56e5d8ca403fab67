// Aggregate (by-value struct) parameters in manifests: every malformed aggregate is
// an error with its JSON path, a scalar given for an aggregate PTX parameter (or the reverse) is
// an ERROR of the entry, never a kernel that reads zeros and passes; and the production entries
// (../shared/production: FlashAttention-2 and CUTLASS through their real entry points) read
// without an error and, those that run today, give their expected verdicts.
#include <fmt/format.h>
#include <functional>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// A kernel whose only parameter is a 24-byte struct {float* out; int n; float scale;}.
constexpr const char* kStructPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .align 8 .b8 k_param_0[24])
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.b64 %rd1, k_param_0;
  ld.param.u64 %rd2, [%rd1];
  ld.param.u32 %r1, [%rd1+8];
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

json struct_kernel(const json& param) {
  return {{"ptx", "k.ptx"},
          {"entry", "k"},
          {"block", {1}},
          {"arrays", json::array({{{"name", "out"},
                                   {"base", "0x100000000"},
                                   {"elem_width", 4},
                                   {"len", 1},
                                   {"kind", "out"}}})},
          {"params", json::array({param})}};
}

json good_struct() {
  return {{"struct", 24},
          {"bytes", "k.params.bin"},
          {"fields", json::array({{{"offset", 0}, {"type", "u64"}, {"value", "ptr:out"}},
                                  {{"offset", 8}, {"type", "s32"}, {"value", "int:7"}}})}};
}

json manifest_with(const json& ref_param, const json& opt_param) {
  json entry = {{"name", "s"},
                {"kind", "equivalence"},
                {"expected", "EQUIVALENT"},
                {"reference", struct_kernel(ref_param)},
                {"optimized", struct_kernel(opt_param)}};
  return {{"benchmarks", json::array({entry})}};
}

// A scratch folder with k.ptx and a 24-byte k.params.bin (out's base, then 7).
std::filesystem::path struct_dir(const std::string& name) {
  const auto dir = scratch_dir(name);
  write_file(dir / "k.ptx", kStructPtx);
  std::string bytes(24, '\0');
  bytes[4] = 1; // 0x100000000
  bytes[8] = 7;
  write_file(dir / "k.params.bin", bytes);
  write_file(dir / "short.bin", std::string(16, '\0'));
  return dir;
}

std::string error_of(const std::filesystem::path& dir, const json& opt_param) {
  const auto path = (dir / "m.json").string();
  auto r = launch::parse_manifest(manifest_with(good_struct(), opt_param).dump(), path);
  if (!r.manifest)
    return r.diagnostics.empty() ? "no manifest" : r.diagnostics[0].message;
  return r.manifest->entries.at(0).error;
}

TEST(AggregateManifest, WellFormedStructReads) {
  const auto dir = struct_dir("aggregate-ok");
  EXPECT_EQ(error_of(dir, good_struct()), "");
  json only_bytes = {{"struct", 24}, {"bytes", "k.params.bin"}};
  EXPECT_EQ(error_of(dir, only_bytes), "");
  json only_fields = good_struct();
  only_fields.erase("bytes");
  EXPECT_EQ(error_of(dir, only_fields), "");
  EXPECT_EQ(error_of(dir, json{{"struct", 24}}), ""); // all zero
}

TEST(AggregateManifest, EveryMalformedAggregateIsAnErrorWithItsPath) {
  const auto dir = struct_dir("aggregate-errors");
  const std::string p = "$.benchmarks[0].optimized.params[0]";
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& s) {
         s["byte"] = s["bytes"];
         s.erase("bytes");
       },
       p + ".byte: unknown key \"byte\"; did you mean \"bytes\"?"},
      {[](json& s) {
         s["fields"][1]["ofset"] = 8;
         s["fields"][1].erase("offset");
       },
       p + ".fields[1].ofset: unknown key \"ofset\"; did you mean \"offset\"?"},
      {[](json& s) { s["struct"] = 0; }, p + ".struct: expected the struct's size in bytes (1 "
                                             "to 65536)"},
      {[](json& s) { s["struct"] = "24"; },
       p + ".struct: expected a non-negative integer, got the string \"24\" (write it without "
           "quotes)"},
      {[](json& s) { s["bytes"] = "short.bin"; }, ""}, // filled in below: the size differs
      {[](json& s) { s["bytes"] = "none.bin"; }, ""},
      {[](json& s) {
         s["fields"][1]["offset"] = 20;
         s["fields"][1]["type"] = "u64";
       },
       p + ".fields[1].offset: a 8-byte u64 at offset 20 lies outside the 24-byte struct"},
      {[](json& s) { s["fields"][1]["offset"] = 4; },
       p + ".fields[1].offset: bytes 4..7 overlap " + p + ".fields[0] (bytes 0..7)"},
      {[](json& s) { s["fields"][1]["type"] = "i32"; },
       p + ".fields[1].type: unknown field type \"i32\" (expected u64, s64, u32, s32, u8, bool, "
           "f32 or tensormap)"},
      {[](json& s) { s["fields"][0]["type"] = "u32"; },
       p + ".fields[0].value: a pointer field is u64, not u32"},
      {[](json& s) { s["fields"][1]["value"] = "float:0.5"; },
       p + ".fields[1].value: a float value needs type f32, not s32"},
      {[](json& s) { s["fields"][1]["type"] = "f32"; },
       p + ".fields[1].value: a field of type f32 takes float:VALUE"},
      {[](json& s) {
         s["fields"][1]["type"] = "u8";
         s["fields"][1]["value"] = "int:256";
       },
       p + ".fields[1].value: 256 does not fit in a field of type u8"},
      {[](json& s) {
         s["fields"][1]["type"] = "bool";
         s["fields"][1]["value"] = "int:2";
       },
       p + ".fields[1].value: 2 does not fit in a field of type bool"},
      {[](json& s) { s["fields"][1]["value"] = "sym:n"; },
       p + ".fields[1].value: symbolic values inside a struct are not supported yet (give a "
           "concrete int: or float:)"},
      {[](json& s) { s["fields"][0]["value"] = "ptr:Q"; },
       p + ".fields[0].value: no array named \"Q\" in $.benchmarks[0].optimized.arrays"},
      {[](json& s) { s["fields"] = json::object(); },
       p + ".fields: expected an array of {offset, type, value} objects"},
      {[](json& s) { s = 24; },
       p + ": expected a string (ptr:, sym:, float:, int:) or a struct object {\"struct\": "
           "SIZE, \"bytes\": FILE, \"fields\": [...]}"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    json s = good_struct();
    cases[i].edit(s);
    const std::string error = error_of(dir, s);
    if (i == 4) {
      EXPECT_EQ(error, fmt::format("{}.bytes: \"{}\" holds 16 bytes, but the struct is 24 bytes", p,
                                   (dir / "short.bin").lexically_normal().string()));
    } else if (i == 5) {
      EXPECT_EQ(error.rfind(p + ".bytes: cannot read \"", 0), 0u) << error;
      EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
    } else {
      EXPECT_EQ(error, cases[i].expected) << "case " << i;
    }
  }
}

// A scalar for the aggregate: the kernel would read a null `out` and zero `n` and pass.
TEST(AggregateManifest, ScalarForAnAggregateIsAnErrorNotAPass) {
  const auto dir = struct_dir("aggregate-scalar");
  write_file(dir / "m.json", manifest_with(good_struct(), "int:0").dump(1));
  ToolRun r = run_tool({"prove", "--batch", "m.json", "--no-z3", "--report", "r.json"}, dir);
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["results"][0]["verdict"], "ERROR");
  const std::string detail = report["results"][0].value("detail", "");
  EXPECT_NE(detail.find("optimized kernel: params[0]: parameter 0 (k_param_0) is a 24-byte "
                        "aggregate (.b8 [24]), but the configuration gives the scalar \"int:0\""),
            std::string::npos)
      << detail;
  // And the race check of the same kernel.
  json check = {
      {"benchmarks",
       json::array({{{"name", "c"}, {"kind", "race_check"}, {"kernel", struct_kernel("int:0")}}})}};
  write_file(dir / "c.json", check.dump(1));
  r = run_tool({"check", "--batch", "c.json", "--report", "c-r.json"}, dir);
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(read_json(dir / "c-r.json")["results"][0]["verdict"], "ERROR");
}

TEST(AggregateManifest, StructRunsAndWrongSizeIsAnError) {
  const auto dir = struct_dir("aggregate-run");
  write_file(dir / "m.json", manifest_with(good_struct(), good_struct()).dump(1));
  ToolRun r = run_tool({"prove", "--batch", "m.json", "--no-z3", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(read_json(dir / "r.json")["results"][0]["verdict"], "EQUIVALENT") << r.out;
  json wrong = good_struct();
  wrong["struct"] = 32;
  wrong.erase("bytes");
  write_file(dir / "w.json", manifest_with(good_struct(), wrong).dump(1));
  r = run_tool({"prove", "--batch", "w.json", "--no-z3", "--report", "w-r.json"}, dir);
  const json report = read_json(dir / "w-r.json");
  EXPECT_EQ(report["results"][0]["verdict"], "ERROR");
  EXPECT_NE(report["results"][0]
                .value("detail", "")
                .find("params[0]: the struct is 32 bytes, but parameter 0 (k_param_0) is declared "
                      "with 24 bytes"),
            std::string::npos)
      << report.dump(1);
}

TEST(AggregateManifest, CommandLineStruct) {
  const auto dir = struct_dir("aggregate-flags");
  ToolRun r = run_tool({"check", "--ptx", "k.ptx", "--kernel", "k", "--array",
                        "out:0x100000000:4:1:out", "--param", "struct:24:bytes=k.params.bin"},
                       dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_tool({"check", "--ptx", "k.ptx", "--kernel", "k", "--array", "out:0x100000000:4:1:out",
                "--param", "struct:24:bytes=short.bin"},
               dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--param: struct.bytes: \"short.bin\" holds 16 bytes, but the struct is "
                       "24 bytes"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace volta::cli_test
