// `volta-eg run`: the inputs it used can be saved and given again (also to the other kernel of
// an entry, or to a GPU: scripts/hardware-check), and a prove report's counterexample can be run.
#include <fstream>
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.hpp"

namespace volta::cli_test {
namespace {

const char* kSoundness = "examples/soundness/manifest.json";

TEST(RunCommand, SavedInputsGiveTheSameOutputs) {
  const auto dir = scratch_dir("run_saved_inputs");
  const auto first =
      run_tool({"run", "--batch", kSoundness, "--filter", "c0_float_reassoc", "--seed", "5", "-q",
                "--save-inputs", (dir / "in").string(), "--out", (dir / "a").string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "in" / "a.npy"));
  EXPECT_TRUE(std::filesystem::exists(dir / "in" / "symbols.json"));
  // Another seed, but the saved inputs: the same bytes out.
  const auto again =
      run_tool({"run", "--batch", kSoundness, "--filter", "c0_float_reassoc", "--seed", "9", "-q",
                "--inputs", (dir / "in").string(), "--out", (dir / "b").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_file(dir / "a" / "out.npy"), read_file(dir / "b" / "out.npy"));
  const auto other = run_tool({"run", "--batch", kSoundness, "--filter", "c0_float_reassoc",
                               "--seed", "9", "-q", "--out", (dir / "c").string()});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(read_file(dir / "a" / "out.npy"), read_file(dir / "c" / "out.npy"));
}

TEST(RunCommand, SymbolsTravelWithTheSavedInputs) {
  const auto dir = scratch_dir("run_saved_symbols");
  write_file(dir / "scale.ptx", R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry scale(.param .f32 alpha, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<4>;
  ld.param.f32 %f1, [alpha];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}
)");
  const std::vector<std::string> kernel = {
      "run",     "--ptx",   (dir / "scale.ptx").string(), "--kernel", "scale",     "--block",
      "4",       "--array", "out:0x100000:4:4:out",       "--param",  "sym:alpha", "--param",
      "ptr:out", "-q"};
  auto with = [&](std::vector<std::string> extra) {
    auto args = kernel;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_tool(args);
  };
  const auto first = with(
      {"--seed", "3", "--save-inputs", (dir / "in").string(), "--out", (dir / "a.npy").string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto symbols = read_json(dir / "in" / "symbols.json");
  ASSERT_TRUE(symbols.contains("alpha")) << symbols.dump();
  const auto again =
      with({"--seed", "4", "--inputs", (dir / "in").string(), "--out", (dir / "b.npy").string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_file(dir / "a.npy"), read_file(dir / "b.npy"));
  const auto other = with({"--seed", "4", "--out", (dir / "c.npy").string()});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(read_file(dir / "a.npy"), read_file(dir / "c.npy"));
}

TEST(RunCommand, RunsTheCounterexampleOfAReport) {
  const auto dir = scratch_dir("run_counterexample");
  const auto prove = run_tool({"prove", "--batch", kSoundness, "--filter", "c2_wrap_max", "-q",
                               "--report", (dir / "report.json").string()});
  ASSERT_EQ(prove.exit_code, 0) << prove.err; // NOT_EQUIVALENT is the expected verdict
  const auto ref =
      run_tool({"run", "--batch", kSoundness, "--filter", "c2_wrap_max", "--side", "ref", "--show",
                "1", "--counterexample", (dir / "report.json").string()});
  const auto opt =
      run_tool({"run", "--batch", kSoundness, "--filter", "c2_wrap_max", "--side", "opt", "--show",
                "1", "--counterexample", (dir / "report.json").string()});
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  // max(a + 1u, a) at a = 0xffffffff: the reference keeps a, the rewrite wraps to 0.
  EXPECT_NE(ref.out.find("): 4294967295"), std::string::npos) << ref.out;
  EXPECT_NE(opt.out.find("): 0"), std::string::npos) << opt.out;
  const auto bad = run_tool({"run", "--batch", kSoundness, "--filter", "c0_float_reassoc",
                             "--counterexample", (dir / "report.json").string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no entry \"c0_float_reassoc\""), std::string::npos) << bad.err;
}

// A counterexample that reads an element both as a float and by its bits gives the bits view the
// encoding of the float: on an H200 the earlier one (a[0] = -1/2 with a[0]:b32 = 0) made both
// kernels store 1, as the emulator line of the report already said.
TEST(RunCommand, CounterexampleOfFloatBitsIsOneAGpuCanBeGiven) {
  const auto dir = scratch_dir("run_counterexample_views");
  const auto prove =
      run_tool({"prove", "--batch", kSoundness, "--filter", "c1_int_compare_float_bits", "-q",
                "--report", (dir / "report.json").string()});
  ASSERT_EQ(prove.exit_code, 0) << prove.err;
  const auto report = read_json(dir / "report.json");
  const auto& c = report["results"][0]["counterexample"];
  ASSERT_TRUE(c.is_object()) << report.dump();
  EXPECT_TRUE(c["confirmed"].get<bool>());
  EXPECT_NE(c["reference_device"], c["optimized_device"]) << c.dump();
}

// The report's emulator run prints an integer element from its bytes: a u64 near 2^64 went
// through a double and printed 0, so the report said both kernels store 0 where they differ
// (the pair fuzzer's cex-device-values-wrong, 2:1692).
TEST(RunCommand, CounterexampleDeviceValueOfALargeU64IsExact) {
  using nlohmann::json;
  const auto dir = scratch_dir("run_counterexample_u64");
  const std::string body = R"(
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.s32 %rd5, [%rd4];
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u64 [%rd7], %rd5;
  ret;
}
)";
  write_file(dir / "k.ptx",
             ".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k_ref(.param .u64 a, .param .u64 out)" +
                 body + ".visible .entry k_opt(.param .u64 a, .param .u64 out)" +
                 std::string(body).replace(body.find("ld.global.s32"), 13, "ld.global.u32"));
  const json side = {{"ptx", (dir / "k.ptx").string()},
                     {"block", {1, 1, 1}},
                     {"grid", {1, 1, 1}},
                     {"arrays",
                      {{{"name", "a"},
                        {"base", "0x100000"},
                        {"elem_width", 4},
                        {"len", 1},
                        {"kind", "in"},
                        {"type", "s32"}},
                       {{"name", "out"},
                        {"base", "0x200000"},
                        {"elem_width", 8},
                        {"len", 1},
                        {"kind", "out"},
                        {"type", "u64"}}}},
                     {"params", {"ptr:a", "ptr:out"}}};
  json ref = side, opt = side;
  ref["entry"] = "k_ref";
  opt["entry"] = "k_opt";
  const json manifest = {{"benchmarks",
                          {{{"name", "sext"},
                            {"kind", "equivalence"},
                            {"expected", "NOT_EQUIVALENT"},
                            {"reference", ref},
                            {"optimized", opt}}}}};
  write_file(dir / "m.json", manifest.dump());
  const auto prove = run_tool({"prove", "--batch", (dir / "m.json").string(), "-q", "--report",
                               (dir / "report.json").string()});
  ASSERT_EQ(prove.exit_code, 0) << prove.err;
  const auto report = read_json(dir / "report.json");
  const auto& c = report["results"][0]["counterexample"];
  ASSERT_TRUE(c.is_object()) << c.dump();
  // A negative a[0] sign-extends in the reference only: 2^64 + a[0] against 2^32 + a[0].
  const std::string r = c["reference_device"], o = c["optimized_device"];
  EXPECT_NE(r, o) << c.dump();
  EXPECT_EQ(r.substr(0, 4), "1844") << c.dump();
  EXPECT_NE(r, "0 (u64)") << c.dump();
}

// An f64 of the report's emulator run is printed with every digit: two doubles one ulp apart
// printed the same 9 digits, and the report said both kernels store the same (pair fuzzer 4:2409).
TEST(RunCommand, CounterexampleDeviceValuesOfF64OneUlpApartDiffer) {
  using nlohmann::json;
  const auto dir = scratch_dir("run_counterexample_f64");
  auto kernel = [](const std::string& name, const std::string& constant) {
    return ".visible .entry " + name + R"((.param .u64 a, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<8>;
  .reg .f64 %fd<3>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f64 %fd1, [%rd4];
  mov.f64 %fd2, )" +
           constant + R"(;
  add.s64 %rd7, %rd2, %rd3;
  st.global.f64 [%rd7], %fd2;
  ret;
}
)";
  };
  write_file(dir / "k.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n" +
                                kernel("k_ref", "0d3FB999999999999A") +
                                kernel("k_opt", "0d3FB999999999999B"));
  json side = {{"ptx", (dir / "k.ptx").string()},
               {"block", {1, 1, 1}},
               {"grid", {1, 1, 1}},
               {"arrays",
                {{{"name", "a"},
                  {"base", "0x100000"},
                  {"elem_width", 8},
                  {"len", 1},
                  {"kind", "in"},
                  {"type", "f64"}},
                 {{"name", "out"},
                  {"base", "0x200000"},
                  {"elem_width", 8},
                  {"len", 1},
                  {"kind", "out"},
                  {"type", "f64"}}}},
               {"params", {"ptr:a", "ptr:out"}}};
  json ref = side, opt = side;
  ref["entry"] = "k_ref";
  opt["entry"] = "k_opt";
  const json manifest = {{"benchmarks",
                          {{{"name", "ulp"},
                            {"kind", "equivalence"},
                            {"expected", "NOT_EQUIVALENT"},
                            {"reference", ref},
                            {"optimized", opt}}}}};
  write_file(dir / "m.json", manifest.dump());
  const auto prove = run_tool({"prove", "--batch", (dir / "m.json").string(), "-q", "--report",
                               (dir / "report.json").string()});
  ASSERT_EQ(prove.exit_code, 0) << prove.err;
  const auto report = read_json(dir / "report.json");
  const auto& c = report["results"][0]["counterexample"];
  ASSERT_TRUE(c.is_object()) << report.dump();
  // The kernels store the constants themselves: 0.1 and the next double.
  EXPECT_NE(c["reference_device"], c["optimized_device"]) << c.dump();
}

// A counterexample over the reals that rounding hides on the device (cvt.rpi of a + 2^-149 and
// of a, at a = 2) comes with a device witness, a nearby point where the emulator shows the
// difference, and `run --counterexample` runs the witness's point, not the counterexample's.
// (The prover's search now finds a point the device shows, every input 0, and the witness
// search itself is tested in tests/emulate/device_witness_test.cpp; here the report is edited
// to hold a witness whose run differs from the counterexample's.)
TEST(RunCommand, RunCounterexampleRunsTheDeviceWitness) {
  using nlohmann::json;
  const auto dir = scratch_dir("run_counterexample_witness");
  const std::string entry = "c19_rpi_of_tiny_addend_wrong";
  const auto prove = run_tool({"prove", "--batch", kSoundness, "--filter", entry, "-q", "--report",
                               (dir / "report.json").string()});
  ASSERT_EQ(prove.exit_code, 0) << prove.err;
  auto report = read_json(dir / "report.json");
  json& c = report["results"][0]["counterexample"];
  ASSERT_TRUE(c.is_object()) << report.dump();
  // A witness only where the counterexample needs one.
  if (c["reference_device"] != c["optimized_device"])
    EXPECT_TRUE(c["device_witness"].is_null()) << c.dump();
  else
    EXPECT_TRUE(c["device_witness"].is_object()) << c.dump();
  // Every input 0 at the counterexample (out[0]: 1 against 0); a[0] = 2 at the witness (2 and 2).
  c["inputs"] = json::object();
  c["device_witness"] = {{"inputs", {{"a[0]", "2"}}},
                         {"reference_device", "2 (s32)"},
                         {"optimized_device", "2 (s32)"}};
  {
    std::ofstream out(dir / "edited.json");
    out << report.dump();
  }
  const auto run_side = [&](const char* side) {
    return run_tool({"run", "--batch", kSoundness, "--filter", entry, "--side", side, "--show", "1",
                     "--counterexample", (dir / "edited.json").string()});
  };
  const auto ref = run_side("ref"), opt = run_side("opt");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  // The first element shown: "out (s32, ...): 2 ...".
  const auto first = [](const std::string& out) {
    const size_t at = out.find("): ") + 3;
    return out.substr(at, out.find_first_of(" \n", at) - at);
  };
  EXPECT_EQ(first(ref.out), "2") << ref.out;
  EXPECT_EQ(first(opt.out), "2") << opt.out;
}

} // namespace
} // namespace volta::cli_test
