// The 13 race_check entries of the Volta corpus (../shared/volta-corpus/benchmarks.json): the
// racy kernels of the Harris reduction tutorial and the pre-/post-fix kernels of OpenMM and
// Megatron-LM. 8 are DATA_RACE, with both accesses reported; 5 are RACE_FREE.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

const std::string kCorpusManifest = std::string(VOLTA_CORPUS_DIR) + "/benchmarks.json";

struct CorpusRace {
  const char* name;
  Verdict expected;
};

const CorpusRace kRaces[] = {
    {"Red-5 (racy)", Verdict::DataRace},
    {"Red-6 (racy)", Verdict::DataRace},
    {"Red-7 (racy)", Verdict::DataRace},
    {"BucketPositions (pre-fix)", Verdict::DataRace},
    {"BucketPositions (post-fix)", Verdict::RaceFree},
    {"ComputeRange (pre-fix)", Verdict::DataRace},
    {"ComputeRange (post-fix)", Verdict::RaceFree},
    {"ReduceValue (pre-fix)", Verdict::DataRace},
    {"ReduceValue (post-fix)", Verdict::RaceFree},
    {"LayerNorm (pre-fix)", Verdict::DataRace},
    {"LayerNorm (post-fix)", Verdict::RaceFree},
    {"GradInput (pre-fix)", Verdict::DataRace},
    {"GradInput (post-fix)", Verdict::RaceFree},
};

void PrintTo(const CorpusRace& r, std::ostream* os) {
  *os << r.name;
}

std::string file_line(const std::string& path, uint32_t line) {
  std::ifstream in(path);
  std::string text;
  for (uint32_t i = 0; i < line && std::getline(in, text); ++i) {
  }
  return text;
}

bool is_memory_access(const std::string& line) {
  for (const char* op : {"ld.", "st.", "atom.", "red.", "cp.async"}) {
    if (line.find(op) != std::string::npos)
      return true;
  }
  return false;
}

class CorpusRaces : public ::testing::TestWithParam<CorpusRace> {
protected:
  static void SetUpTestSuite() {
    if (!std::filesystem::exists(kCorpusManifest))
      return;
    manifest_ = new launch::Manifest(load_manifest(kCorpusManifest));
  }
  static void TearDownTestSuite() {
    delete manifest_;
    manifest_ = nullptr;
  }
  void SetUp() override {
    if (manifest_ == nullptr)
      GTEST_SKIP() << "corpus not found at " << kCorpusManifest;
  }
  static launch::Manifest* manifest_;
};

launch::Manifest* CorpusRaces::manifest_ = nullptr;

TEST_P(CorpusRaces, ExpectedVerdictAndBothAccesses) {
  const auto& want = GetParam();
  const auto* e = find_entry(*manifest_, want.name);
  ASSERT_NE(e, nullptr) << want.name;
  ASSERT_EQ(e->kind, launch::EntryKind::RaceCheck);
  ASSERT_TRUE(e->error.empty()) << e->error;
  ASSERT_EQ(e->expected, want.expected);
  exec::KernelCache cache;
  const auto r = entry::check_race_entry(*e, cache, {});
  ASSERT_EQ(r.verdict, want.expected) << r.detail;
  EXPECT_TRUE(r.matches());
  if (want.expected != Verdict::DataRace) {
    EXPECT_FALSE(r.failure.has_value());
    return;
  }
  ASSERT_TRUE(r.failure.has_value());
  const auto& f = *r.failure;
  ASSERT_TRUE(f.first.has_value() && f.second.has_value()) << f.message;
  // Two different threads (or CTAs) at two memory accesses of the kernel's PTX.
  EXPECT_TRUE(f.first->thread != f.second->thread || f.first->cta != f.second->cta) << f.message;
  const std::string& ptx = e->kernel.ptx_path;
  EXPECT_GT(f.first->ptx_line, 0u);
  EXPECT_GT(f.second->ptx_line, 0u);
  EXPECT_TRUE(is_memory_access(file_line(ptx, f.first->ptx_line)))
      << file_line(ptx, f.first->ptx_line);
  EXPECT_TRUE(is_memory_access(file_line(ptx, f.second->ptx_line)))
      << file_line(ptx, f.second->ptx_line);
  EXPECT_FALSE(f.first->instruction.empty());
  EXPECT_FALSE(f.second->instruction.empty());
  EXPECT_FALSE(f.location.empty());
  EXPECT_TRUE(f.space == "shared" || f.space == "global") << f.space;
  EXPECT_NE(f.message.find("PTX line " + std::to_string(f.first->ptx_line)), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("PTX line " + std::to_string(f.second->ptx_line)), std::string::npos)
      << f.message;
}

std::string race_name(const ::testing::TestParamInfo<CorpusRace>& info) {
  std::string s;
  for (const char* p = info.param.name; *p; ++p) {
    if (std::isalnum(static_cast<unsigned char>(*p)))
      s += *p;
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRaces, ::testing::ValuesIn(kRaces), race_name);

TEST(CorpusRaceList, ThirteenEntriesEightRacy) {
  if (!std::filesystem::exists(kCorpusManifest))
    GTEST_SKIP() << "corpus not found at " << kCorpusManifest;
  const auto m = load_manifest(kCorpusManifest);
  size_t racy = 0, free = 0;
  for (const auto& e : m.entries) {
    if (e.kind != launch::EntryKind::RaceCheck)
      continue;
    bool listed = false;
    for (const auto& k : kRaces)
      listed |= e.name == k.name;
    EXPECT_TRUE(listed) << e.name;
    racy += e.expected == Verdict::DataRace ? 1 : 0;
    free += e.expected == Verdict::RaceFree ? 1 : 0;
  }
  EXPECT_EQ(racy, 8u);
  EXPECT_EQ(free, 5u);
}

} // namespace
} // namespace volta::etest
