// `volta-eg parse`: the real binary on a good and on a malformed file.
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path scratch_dir() {
  auto dir =
      std::filesystem::temp_directory_path() / ("volta-ptx-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

ToolRun run_parse(const std::vector<std::string>& files) {
  auto dir = scratch_dir();
  std::string cmd = std::string("'") + VOLTA_EG_BINARY + "' parse";
  for (const std::string& f : files) {
    cmd += " '" + f + "'";
  }
  cmd += " >'" + (dir / "out").string() + "' 2>'" + (dir / "err").string() + "'";
  int status = std::system(cmd.c_str());
  ToolRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  return r;
}

std::string write_file(const std::string& name, std::string_view text) {
  auto path = scratch_dir() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

TEST(Cli, ParsesAGoodFile) {
  std::string good = write_file("good.ptx", testing::kernel("\tld.global.nc.f32 %f1, [%rd1];\n"
                                                            "\tld.global.nc.f32 %f2, [%rd1+4];\n"
                                                            "\tret;"));
  ToolRun r = run_parse({good});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("PTX 8.0, target sm_80"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel k (1 parameter, 3 instructions)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("k_param_0  .u64"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ld.global.nc.f32       2"), std::string::npos) << r.out;
}

TEST(Cli, ParsesACorpusFile) {
  auto corpus = std::filesystem::path(VOLTA_CORPUS_DIR) / "kernels";
  auto files = testing::files_under(corpus, ".ptx");
  if (files.empty()) {
    GTEST_SKIP() << "corpus not found at " << corpus;
  }
  ToolRun r = run_parse({files.front().string(), files.back().string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kernel "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(files.back().string()), std::string::npos);
}

TEST(Cli, MalformedFileExitsTwoWithLocatedDiagnostics) {
  std::string good = write_file("ok.ptx", testing::kernel("\tret;"));
  std::string bad = write_file("bad.ptx", testing::kernel("\tadd.s32 %r1, %r2 %r3;\n\tret;"));
  ToolRun r = run_parse({good, bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind(bad + ":8:19: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("kernel k"), std::string::npos) << "the good file is still reported";
}

TEST(Cli, MissingFileExitsTwo) {
  ToolRun r = run_parse({"/nonexistent/file.ptx"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("/nonexistent/file.ptx: error: cannot read file", 0), 0u) << r.err;
}

// Issue 16: PTX the tool does not know is refused where it is written, not at run time.
TEST(Cli, UnknownOpcodeIsALocatedError) {
  std::string bad =
      write_file("unknown-op.ptx", testing::kernel("\tfrobnicate.u32 %r1, 1;\n\tret;"));
  ToolRun r = run_parse({bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind(bad + ":8:2: error: unknown instruction 'frobnicate' (not an opcode of "
                              "PTX ISA 9.3 or older that this tool knows)",
                        0),
            0u)
      << r.err;
}

TEST(Cli, NewerVersionAndTargetAreLocatedWarnings) {
  std::string text = testing::kernel("\tret;");
  const size_t version = text.find(".version");
  ASSERT_NE(version, std::string::npos);
  text.replace(version, text.find('\n', version) - version, ".version 9.9");
  const size_t target = text.find(".target");
  text.replace(target, text.find('\n', target) - target, ".target sm_200");
  std::string newer = write_file("newer.ptx", text);
  ToolRun r = run_parse({newer});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(": warning: PTX ISA 9.9 is newer than the newest this tool knows (9.3)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(": warning: target 'sm_200' is newer than the newest this tool knows "
                       "(sm_121)"),
            std::string::npos)
      << r.err;
}

TEST(Cli, DirectoryAndQuiet) {
  ToolRun r = run_parse({scratch_dir().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: cannot read file: Is a directory"), std::string::npos) << r.err;
  std::string good = write_file("quiet.ptx", testing::kernel("\tret;"));
  r = run_parse({"-q", good});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

TEST(Cli, NoFileIsAUsageError) {
  ToolRun r = run_parse({});
  EXPECT_EQ(r.exit_code, 2);
}

} // namespace
} // namespace volta::ptx
