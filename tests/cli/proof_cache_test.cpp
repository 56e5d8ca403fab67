// --cache DIR, its proof-cache part: a second run of the same batch proves from the cache, with
// the same verdicts; a damaged cache file is ignored with a warning and proved again, never
// trusted. The whole-entry and execution caches in the same folder would answer the second run
// without proving anything (execution_cache_test.cpp), so these tests remove them in between.
#include <algorithm>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> prove_args(const std::string& report) {
  return {"prove",    "--batch",  source_dir() + "/examples/manifest.json",
          "--filter", "gemm",     "--cache",
          "cache",    "--report", report};
}

std::vector<std::string> verdicts(const json& report) {
  std::vector<std::string> v;
  for (const auto& e : report["results"])
    v.push_back(e["verdict"]);
  return v;
}

// The proof-cache files (not those of DIR/runs and DIR/entries).
std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& f : fs::recursive_directory_iterator(dir)) {
    const std::string top = fs::relative(f.path(), dir).begin()->string();
    if (f.is_regular_file() && top != "runs" && top != "entries")
      files.push_back(f.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Keeps only the proof cache of DIR: the next run proves every entry again.
void forget_entries_and_runs(const fs::path& dir) {
  fs::remove_all(dir / "entries");
  fs::remove_all(dir / "runs");
}

TEST(ProofCache, SecondRunHitsWithTheSameVerdicts) {
  const auto dir = scratch_dir("cache-hit");
  ToolRun first = run_tool(prove_args("r1.json"), dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json r1 = read_json(dir / "r1.json");
  EXPECT_GT(r1["cache"]["stored"].get<uint64_t>(), 0u);
  EXPECT_FALSE(cache_files(dir / "cache").empty());

  forget_entries_and_runs(dir / "cache");
  ToolRun second = run_tool(prove_args("r2.json"), dir);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err, "");
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(verdicts(r1), verdicts(r2));
  EXPECT_EQ(r2["cache"]["stored"], 0);
  EXPECT_GT(r2["summary"]["cache_hits"].get<uint64_t>(), 0u);
  const json& tiled = r2["results"][0];
  EXPECT_EQ(tiled["name"], "(gemm_naive, gemm_tiled)");
  EXPECT_GT(tiled["cache_hits"].get<uint64_t>(), 0u);
  EXPECT_GT(tiled["elements"]["cached"].get<uint64_t>(), 0u);
  EXPECT_EQ(tiled["elements"]["direct"], 0) << "every template was proved by the first run";
  EXPECT_NE(second.out.find("from the proof cache"), std::string::npos);
  EXPECT_NE(second.out.find("proof cache: "), std::string::npos) << second.out;
  // The wrong GEMM stays NOT_EQUIVALENT: the cache only ever holds EQUIVALENT templates.
  EXPECT_EQ(r2["results"][1]["verdict"], "NOT_EQUIVALENT");
}

TEST(ProofCache, DamagedFilesAreIgnoredWithAWarning) {
  const auto dir = scratch_dir("cache-damaged");
  ASSERT_EQ(run_tool(prove_args("r1.json"), dir).exit_code, 0);
  const auto files = cache_files(dir / "cache");
  ASSERT_FALSE(files.empty());
  // Three kinds of damage: a flipped checksum digit, a truncated file, garbage.
  std::string text = read_file(files[0]);
  text[text.size() - 2] = text[text.size() - 2] == '0' ? '1' : '0';
  write_file(files[0], text);
  if (files.size() > 1)
    write_file(files[1], read_file(files[1]).substr(0, 20));
  if (files.size() > 2)
    write_file(files[2], "EQUIVALENT\n");
  forget_entries_and_runs(dir / "cache");

  ToolRun r = run_tool(prove_args("r2.json"), dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: ignoring damaged proof-cache file '" +
                       fs::relative(files[0], dir).string() + "'"),
            std::string::npos)
      << r.err;
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(verdicts(r2), verdicts(read_json(dir / "r1.json")));
  EXPECT_EQ(r2["cache"]["ignored"].get<uint64_t>(), std::min<size_t>(files.size(), 3));
  EXPECT_EQ(r2["cache"]["stored"], r2["cache"]["ignored"])
      << "the damaged templates are proved and stored again";
  EXPECT_NE(r.out.find("damaged file"), std::string::npos) << r.out;

  // Repaired: a third run has no warning.
  forget_entries_and_runs(dir / "cache");
  ToolRun third = run_tool(prove_args("r3.json"), dir);
  EXPECT_EQ(third.exit_code, 0);
  EXPECT_EQ(third.err, "");
}

TEST(ProofCache, UnusableCacheFolderIsBadInput) {
  const auto dir = scratch_dir("cache-bad");
  write_file(dir / "file", "not a folder");
  ToolRun r = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json", "--filter",
                        "gemm_tiled", "--cache", "file"},
                       dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cache: cannot create the folder 'file'"), std::string::npos) << r.err;
}

// A one-thread kernel storing `store` (e.g. "st.global.u32 [%rd0], 1065353216;") to out[0].
std::string store_kernel(const std::string& name, const std::string& store) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry " + name +
         "(.param .u64 p_out)\n{\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd0, [p_out];\n  " + store +
         "\n  ret;\n}\n";
}

json store_config(const std::string& ptx, const std::string& entry) {
  return {
      {"ptx", ptx},
      {"entry", entry},
      {"block", {1, 1, 1}},
      {"arrays",
       {{{"name", "out"}, {"base", "0x100000"}, {"elem_width", 4}, {"len", 1}, {"kind", "out"}}}},
      {"params", {"ptr:out"}}};
}

// Issue 13, item 9: the key of a cached proof covers the types the element was stored with.
// Run 1: `st.u32 0x3F800000` against `st.f32 1.0` is EQUIVALENT (the same bytes) and cached.
// Run 2: `st.u32 0x3F800000` against `st.s32 1` has the same two root nodes (the bits, and the
// rational 1) but different bytes: it must be NOT_EQUIVALENT, not a cache hit.
TEST(ProofCache, KeyIncludesTheStoreTypes) {
  const auto dir = scratch_dir("cache-store-types");
  write_file(dir / "bits.ptx", store_kernel("bits", "st.global.u32 [%rd0], 1065353216;"));
  write_file(dir / "float.ptx", store_kernel("flt", "st.global.f32 [%rd0], 0f3F800000;"));
  write_file(dir / "int.ptx", store_kernel("int", "st.global.s32 [%rd0], 1;"));
  auto manifest = [&](const std::string& opt_ptx, const std::string& opt_entry) {
    json entry = {{"name", "(bits, " + opt_entry + ")"},
                  {"kind", "equivalence"},
                  {"reference", store_config("bits.ptx", "bits")},
                  {"optimized", store_config(opt_ptx, opt_entry)},
                  {"check_arrays", {"out"}}};
    return json{{"benchmarks", {entry}}}.dump(1);
  };
  auto prove = [&](const std::string& report) {
    return run_tool({"prove", "--batch", "m.json", "--cache", "cache", "--report", report}, dir);
  };
  write_file(dir / "m.json", manifest("float.ptx", "flt"));
  ToolRun first = prove("r1.json");
  const json r1 = read_json(dir / "r1.json");
  ASSERT_EQ(r1["results"][0]["verdict"], "EQUIVALENT") << first.out << first.err;
  EXPECT_GT(r1["cache"]["stored"].get<uint64_t>(), 0u);

  write_file(dir / "m.json", manifest("int.ptx", "int"));
  forget_entries_and_runs(dir / "cache");
  ToolRun second = prove("r2.json");
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["results"][0]["verdict"], "NOT_EQUIVALENT") << second.out << second.err;
  EXPECT_EQ(r2["results"][0]["cache_hits"], 0);
  const json& types = r2["results"][0]["output_types"];
  ASSERT_EQ(types.size(), 1u) << r2.dump(1);
  EXPECT_EQ(types[0]["reference_stores"], "u32");
  EXPECT_EQ(types[0]["optimized_stores"], "s32");
  EXPECT_TRUE(types[0]["declared"].is_null());
}

} // namespace
} // namespace volta::cli_test
