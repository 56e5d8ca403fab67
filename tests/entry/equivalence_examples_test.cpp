// The example manifests end to end: every entry of the demo (examples/manifest.json), the
// mutation suite, the advanced kernels and the sums of the safety manifest gives its expected
// verdict; EQUIVALENT decides every element, NOT_EQUIVALENT carries a confirmed counterexample.
#include <cctype>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

struct ExampleEntry {
  std::string manifest; // relative to the repository root
  std::string tag;      // short manifest name for test names
  size_t index = 0;
  std::string name;
  launch::EntryKind kind = launch::EntryKind::Equivalence;
};

std::vector<ExampleEntry> entries() {
  std::vector<ExampleEntry> out;
  const std::pair<const char*, const char*> manifests[] = {
      {"examples/manifest.json", "demo"},
      {"examples/mutations/manifest.json", "mutations"},
      {"examples/advanced/manifest.json", "advanced"},
      {"examples/safety/manifest.json", "safety"},
  };
  for (const auto& [path, tag] : manifests) {
    auto m = launch::read_manifest(source_path(path));
    if (!m.manifest)
      continue;
    for (const auto& e : m.manifest->entries) {
      // The safety manifest's race checks have their own tests (safety_test.cpp).
      if (std::string(tag) == "safety" && e.kind == launch::EntryKind::RaceCheck)
        continue;
      out.push_back(ExampleEntry{path, tag, e.index, e.name, e.kind});
    }
  }
  return out;
}

// Test names and ctest names show the entry, not the bytes of the parameter.
void PrintTo(const ExampleEntry& e, std::ostream* os) {
  *os << e.tag << ": " << e.name;
}

class ExampleManifests : public ::testing::TestWithParam<ExampleEntry> {};

TEST_P(ExampleManifests, ExpectedVerdict) {
  const auto& want = GetParam();
  const auto m = load_manifest(source_path(want.manifest));
  ASSERT_LT(want.index, m.entries.size());
  const auto& e = m.entries[want.index];
  ASSERT_EQ(e.name, want.name);
  ASSERT_TRUE(e.error.empty()) << e.error;
  ASSERT_TRUE(e.expected.has_value()) << "no expected verdict";
  exec::KernelCache cache;
  if (e.kind == launch::EntryKind::RaceCheck) {
    const auto r = entry::check_race_entry(e, cache, {});
    EXPECT_EQ(r.verdict, *e.expected) << r.detail;
    if (r.verdict == Verdict::DataRace) {
      ASSERT_TRUE(r.failure && r.failure->first && r.failure->second);
    }
    return;
  }
  const auto r = entry::prove_equivalence_entry(e, cache, {});
  ASSERT_EQ(r.verdict, *e.expected) << r.detail;
  EXPECT_TRUE(r.matches());
  EXPECT_EQ(r.kind, launch::EntryKind::Equivalence);
  ASSERT_EQ(r.kernels.size(), 2u);
  if (r.verdict == Verdict::Equivalent) {
    EXPECT_GT(r.elements.total, 0u);
    EXPECT_EQ(r.elements.unknown, 0u);
    EXPECT_EQ(r.elements.not_equivalent, 0u);
    EXPECT_EQ(r.elements.direct + r.elements.reused + r.elements.z3 + r.elements.cached,
              r.elements.total);
    EXPECT_FALSE(r.counterexample.has_value());
  }
  if (r.verdict == Verdict::NotEquivalent) {
    ASSERT_TRUE(r.counterexample.has_value()) << r.detail;
    const auto& c = *r.counterexample;
    EXPECT_TRUE(c.confirmed) << r.detail;
    EXPECT_FALSE(c.element.empty());
    EXPECT_NE(c.reference_value, c.optimized_value) << c.element;
    EXPECT_FALSE(c.reference_expr.empty());
    EXPECT_FALSE(c.optimized_expr.empty());
    EXPECT_NE(r.detail.find(c.element), std::string::npos) << r.detail;
  }
}

std::string entry_test_name(const ::testing::TestParamInfo<ExampleEntry>& info) {
  std::string s = info.param.tag + "_" + std::to_string(info.param.index) + "_";
  for (char ch : info.param.name) {
    if (std::isalnum(static_cast<unsigned char>(ch)))
      s += ch;
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleManifests, ::testing::ValuesIn(entries()),
                         entry_test_name);

TEST(ExampleManifestList, AllManifestsReadAndCovered) {
  // 5 demo + 19 mutations + 7 advanced + 3 sums of the safety manifest.
  EXPECT_EQ(entries().size(), 34u);
  size_t not_equivalent = 0;
  for (const auto& e : entries()) {
    const auto m = load_manifest(source_path(e.manifest));
    not_equivalent += m.entries[e.index].expected == Verdict::NotEquivalent ? 1 : 0;
  }
  EXPECT_EQ(not_equivalent, 11u);
}

} // namespace
} // namespace volta::etest
