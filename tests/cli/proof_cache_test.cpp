// --cache DIR: a second run of the same batch proves from the cache, with the same verdicts; a
// damaged cache file is ignored with a warning and proved again, never trusted.
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

std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& f : fs::recursive_directory_iterator(dir)) {
    if (f.is_regular_file())
      files.push_back(f.path());
  }
  return files;
}

TEST(ProofCache, SecondRunHitsWithTheSameVerdicts) {
  const auto dir = scratch_dir("cache-hit");
  ToolRun first = run_tool(prove_args("r1.json"), dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json r1 = read_json(dir / "r1.json");
  EXPECT_GT(r1["cache"]["stored"].get<uint64_t>(), 0u);
  EXPECT_FALSE(cache_files(dir / "cache").empty());

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

} // namespace
} // namespace volta::cli_test
