// Issue 30 (c): the compiled-CUDA cache (launch/cuda_source.hpp) reuses a PTX only while
// everything nvcc's output depends on is unchanged. Each test compiles a one-line kernel that
// stores a constant V, changes one input of the compile — a header's bytes, NVCC_APPEND_FLAGS,
// the order of the include path, a header that now shadows another, a file a __has_include
// probes, CPATH — and checks that the next compile is not the cached one and stores the new V.
// Skipped where no nvcc is installed.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <thread>

#include "cli_test_util.hpp"
#include "engine/launch/cuda_compile_record.hpp"
#include "engine/launch/cuda_source.hpp"

namespace volta::cli_test {
namespace {

namespace fs = std::filesystem;

// Whether the PTX stores the float v: as a float literal (1.0f is 0f3F800000) or as the integer
// of its bits (nvcc moves a stored constant as a u32: 1065353216).
bool stores(const std::string& ptx, float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  char literal[16];
  std::snprintf(literal, sizeof literal, "0f%08X", bits);
  return ptx.find(literal) != std::string::npos ||
         ptx.find(" " + std::to_string(bits) + ";") != std::string::npos;
}

class CudaCache : public ::testing::Test {
protected:
  void SetUp() override {
    if (!launch::find_nvcc() && fs::exists("/usr/local/cuda/bin/nvcc"))
      setenv("CUDA_HOME", "/usr/local/cuda", 1);
    if (!launch::find_nvcc())
      GTEST_SKIP() << "no nvcc on PATH nor in $CUDA_HOME";
    dir_ =
        scratch_dir("cuda-cache-" +
                    std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    unsetenv("NVCC_APPEND_FLAGS");
    unsetenv("CPATH");
  }

  // "-I" with a folder of the test (flags are read in nvcc's working folder, the process's).
  std::string include(const std::string& name) const { return "-I" + (dir_ / name).string(); }

  // Writes a file of the test folder.
  void write(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    write_file(dir_ / name, text);
  }

  launch::CudaCompileResult compile(const std::vector<std::string>& flags = {}) {
    launch::CudaCompileRequest r;
    r.source = (dir_ / "k.cu").string();
    r.flags = flags;
    r.cache_dir = (dir_ / "cache").string();
    auto result = launch::compile_cuda(r);
    EXPECT_TRUE(result.ok()) << result.error;
    return result;
  }

  // The compile's PTX stores V = v.
  void expect_stores(const launch::CudaCompileResult& r, float v) {
    ASSERT_TRUE(r.ok()) << r.error;
    const std::string ptx = read_file(r.ptx_path);
    EXPECT_TRUE(stores(ptx, v)) << "expected V = " << v << " in\n" << ptx;
  }

  // Compiles twice: the first is kept (recorded), the second is that one, reused.
  launch::CudaCompileResult compile_and_reuse(const std::vector<std::string>& flags = {}) {
    const auto first = compile(flags);
    EXPECT_FALSE(first.cached);
    EXPECT_EQ(first.not_cached, "") << "the compile was not recorded";
    const auto second = compile(flags);
    EXPECT_TRUE(second.cached);
    EXPECT_EQ(second.ptx_path, first.ptx_path);
    return second;
  }

  fs::path dir_;
};

constexpr const char* kKernel =
    "#include \"my.h\"\nextern \"C\" __global__ void k(float* y) { y[0] = V; }\n";

TEST_F(CudaCache, AChangedHeaderIsCompiledAgain) {
  write("k.cu", kKernel);
  write("inc/my.h", "#define V 1.0f\n");
  expect_stores(compile_and_reuse({include("inc")}), 1.0f);
  write("inc/my.h", "#define V 2.0f\n");
  const auto changed = compile({include("inc")});
  EXPECT_FALSE(changed.cached);
  expect_stores(changed, 2.0f);
}

TEST_F(CudaCache, ChangedNvccAppendFlagsCompileAgain) {
  write("k.cu", "#ifndef V\n#define V 1.0f\n#endif\n"
                "extern \"C\" __global__ void k(float* y) { y[0] = V; }\n");
  expect_stores(compile_and_reuse(), 1.0f);
  setenv("NVCC_APPEND_FLAGS", "-DV=5.0f", 1);
  const auto changed = compile();
  EXPECT_FALSE(changed.cached);
  expect_stores(changed, 5.0f);
}

TEST_F(CudaCache, AnotherIncludeOrderCompilesAgain) {
  write("k.cu", kKernel);
  write("one/my.h", "#define V 1.0f\n");
  write("two/my.h", "#define V 2.0f\n");
  expect_stores(compile_and_reuse({include("one"), include("two")}), 1.0f);
  const auto swapped = compile({include("two"), include("one")});
  EXPECT_FALSE(swapped.cached);
  expect_stores(swapped, 2.0f);
}

TEST_F(CudaCache, AHeaderThatShadowsAnotherCompilesAgain) {
  write("k.cu", kKernel);
  write("two/my.h", "#define V 2.0f\n");
  fs::create_directories(dir_ / "one");
  expect_stores(compile_and_reuse({include("one"), include("two")}), 2.0f);
  // Nothing nvcc read changed: one/my.h is new, earlier in the search path.
  write("one/my.h", "#define V 7.0f\n");
  const auto shadowed = compile({include("one"), include("two")});
  EXPECT_FALSE(shadowed.cached);
  expect_stores(shadowed, 7.0f);
}

TEST_F(CudaCache, AFileAHasIncludeLooksForCompilesAgain) {
  // A quoted probe, looked for beside the source first, and an angle one, in the search path.
  write("k.cu", "#if __has_include(\"local.h\")\n#include \"local.h\"\n"
                "#elif __has_include(<deep/extra.h>)\n#include <deep/extra.h>\n"
                "#else\n#define V 1.0f\n#endif\n"
                "extern \"C\" __global__ void k(float* y) { y[0] = V; }\n");
  fs::create_directories(dir_ / "inc" / "deep");
  expect_stores(compile_and_reuse({include("inc")}), 1.0f);
  write("inc/deep/extra.h", "#define V 3.0f\n");
  const auto found = compile({include("inc")});
  EXPECT_FALSE(found.cached);
  expect_stores(found, 3.0f);
  compile({include("inc")});
  write("local.h", "#define V 4.0f\n");
  const auto local = compile({include("inc")});
  EXPECT_FALSE(local.cached);
  expect_stores(local, 4.0f);
}

TEST_F(CudaCache, AChangedCpathCompilesAgain) {
  write("k.cu", kKernel);
  write("one/my.h", "#define V 1.0f\n");
  write("two/my.h", "#define V 2.0f\n");
  setenv("CPATH", (dir_ / "one").c_str(), 1);
  expect_stores(compile_and_reuse(), 1.0f);
  setenv("CPATH", (dir_ / "two").c_str(), 1);
  const auto changed = compile();
  EXPECT_FALSE(changed.cached);
  expect_stores(changed, 2.0f);
}

TEST_F(CudaCache, APtxThatIsNotTheRecordedOneIsCompiledAgain) {
  // Two processes compiling one key while a header changes can rename their PTX and record into
  // place in either order: the record names the PTX's bytes, so a mixed pair is never used.
  write("k.cu", kKernel);
  write("inc/my.h", "#define V 1.0f\n");
  const auto kept = compile_and_reuse({include("inc")});
  std::string other = read_file(kept.ptx_path);
  other += "\n// another compile\n";
  write_file(kept.ptx_path, other);
  const auto again = compile({include("inc")});
  EXPECT_FALSE(again.cached);
  expect_stores(again, 1.0f);
}

TEST(CudaCompileRecord, DependencyListsAreRead) {
  const auto files = launch::dependency_files(
      "out.ptx : k.cu \\\n    /usr/include/stdio.h \\\n    my\\ dir/a.h\n", "/work");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], "/work/k.cu");
  EXPECT_EQ(files[1], "/usr/include/stdio.h");
  EXPECT_EQ(files[2], "/work/my dir/a.h");
}

TEST(CudaCompileRecord, ARecordWithoutItsEndIsNotTrusted) {
  EXPECT_FALSE(launch::record_holds(""));
  EXPECT_FALSE(launch::record_holds("volta-eg cuda-record 2\n"));
  EXPECT_TRUE(launch::record_holds("volta-eg cuda-record 2\nend\n"));
  EXPECT_FALSE(
      launch::record_holds("volta-eg cuda-record 2\nprobe\tpresent\t/nonexistent/x.h\nend\n"));
  EXPECT_FALSE(launch::record_holds("volta-eg cuda-record 2\nwhat\t-\t/\nend\n"));
}

TEST(CudaCompileRecord, NoSearchListNoRecord) {
  launch::CompileObservation seen;
  seen.make_deps = "k.ptx : k.cu\n";
  seen.cwd = "/";
  const auto record = launch::record_compile(seen);
  EXPECT_FALSE(record.text);
  EXPECT_NE(record.why_not.find("search list"), std::string::npos) << record.why_not;
}

} // namespace
} // namespace volta::cli_test
