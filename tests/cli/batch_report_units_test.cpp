// Unit tests of the batch and report pieces behind the tool: shard parsing and selection, the
// watchdog, the proof-cache folder (validation, damage, threads), XML escaping, URIs, summaries.
#include <atomic>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <thread>

#include "cli_test_util.hpp"
#include "engine/batch/batch.hpp"
#include "engine/batch/proof_cache_dir.hpp"
#include "engine/batch/watchdog.hpp"
#include "engine/report/junit_report.hpp"
#include "engine/report/report_json.hpp"
#include "engine/report/sarif_report.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

TEST(BatchReportUnits, ParseShard) {
  EXPECT_EQ(*batch::parse_shard("0/1"), std::make_pair(0, 1));
  EXPECT_EQ(*batch::parse_shard("15/16"), std::make_pair(15, 16));
  for (const char* bad :
       {"", "1", "/", "1/", "/2", "2/2", "-1/2", "1/-2", "a/b", "1/2/3", "+1/2", "1 /2", "0/0"}) {
    const auto shard = batch::parse_shard(bad);
    ASSERT_FALSE(shard) << bad;
    EXPECT_NE(shard.error().find("--shard"), std::string::npos) << bad;
  }
}

TEST(BatchReportUnits, ShardsPartitionTheFilteredEntries) {
  launch::Manifest m;
  for (int i = 0; i < 10; ++i) {
    launch::ManifestEntry e;
    e.index = i;
    e.name = fmt::format("{}{}", i % 2 ? "odd" : "even", i);
    m.entries.push_back(e);
  }
  batch::BatchOptions options;
  options.filter = std::regex("even");
  std::vector<size_t> seen;
  for (int s = 0; s < 3; ++s) {
    options.shard = std::make_pair(s, 3);
    for (const auto* e : batch::select_entries(m, options))
      seen.push_back(e->index);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<size_t>{0, 2, 4, 6, 8}));
}

TEST(BatchReportUnits, WatchdogTimeLimit) {
  batch::Watchdog::Limits limits;
  limits.seconds = 0.03;
  batch::Watchdog dog(limits);
  batch::Watchdog::Entry entry;
  {
    batch::Watchdog::Scope scope(&dog, entry);
    const auto start = std::chrono::steady_clock::now();
    while (!entry.cancel_flag().load() &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  EXPECT_TRUE(entry.cancel_flag().load());
  EXPECT_EQ(entry.reason(), batch::Watchdog::Reason::TimeLimit);
  batch::Watchdog::Entry quick;
  { batch::Watchdog::Scope scope(&dog, quick); }
  EXPECT_FALSE(quick.cancel_flag().load());
}

TEST(BatchReportUnits, WatchdogMemoryLimitStopsEveryRunningEntry) {
  std::atomic<uint64_t> resident{100};
  batch::Watchdog::Limits limits;
  limits.memory_bytes = 1000;
  limits.resident_bytes = [&] { return resident.load(); };
  batch::Watchdog dog(limits);
  batch::Watchdog::Entry a, b;
  batch::Watchdog::Scope sa(&dog, a), sb(&dog, b);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(a.cancel_flag().load());
  resident = 5000;
  const auto start = std::chrono::steady_clock::now();
  while (!(a.cancel_flag().load() && b.cancel_flag().load()) &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(a.reason(), batch::Watchdog::Reason::MemoryLimit);
  EXPECT_EQ(b.reason(), batch::Watchdog::Reason::MemoryLimit);
  EXPECT_GE(dog.memory_trips(), 1u);
}

// --max-memory is per entry: two entries that each grow the process by less than the
// limit run side by side; one that grows it by more than the limit alone is stopped.
TEST(BatchReportUnits, WatchdogMemoryLimitIsPerEntry) {
  std::atomic<uint64_t> resident{100};
  batch::Watchdog::Limits limits;
  limits.memory_bytes = 1000;
  limits.resident_bytes = [&] { return resident.load(); };
  batch::Watchdog dog(limits);
  {
    batch::Watchdog::Entry a, b;
    batch::Watchdog::Scope sa(&dog, a), sb(&dog, b);
    resident = 100 + 2 * 900; // each entry 900 of its 1000
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(a.cancel_flag().load());
    EXPECT_FALSE(b.cancel_flag().load());
  }
  resident = 1900; // left over by the previous entries: the next one's base
  batch::Watchdog::Entry c;
  batch::Watchdog::Scope sc(&dog, c);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(c.cancel_flag().load());
  resident = 1900 + 1001;
  const auto start = std::chrono::steady_clock::now();
  while (!c.cancel_flag().load() &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(c.reason(), batch::Watchdog::Reason::MemoryLimit);
}

// A manifest of `n` entries named e0, e1, ... (what run_batch needs of them: index and name).
launch::Manifest numbered_manifest(size_t n) {
  launch::Manifest m;
  for (size_t i = 0; i < n; ++i) {
    launch::ManifestEntry e;
    e.index = i;
    e.name = fmt::format("e{}", i); // not "e" + std::to_string(i): GCC 12 -Wrestrict
    m.entries.push_back(e);
  }
  return m;
}

TEST(BatchReportUnits, RunBatchTurnsExceptionsIntoResults) {
  const launch::Manifest m = numbered_manifest(4);
  batch::BatchOptions options;
  options.jobs = 2;
  auto results = batch::run_batch(
      batch::select_entries(m, options),
      [](const launch::ManifestEntry& e, std::atomic<bool>&) -> entry::EntryResult {
        if (e.index == 1)
          throw std::runtime_error("boom");
        if (e.index == 2)
          throw std::bad_alloc();
        entry::EntryResult r;
        r.name = e.name;
        r.kind = launch::EntryKind::Equivalence;
        r.verdict = Verdict::Equivalent;
        return r;
      },
      options);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].verdict, Verdict::Equivalent);
  EXPECT_EQ(results[1].verdict, Verdict::Error);
  EXPECT_EQ(results[1].detail, "internal error: boom");
  EXPECT_EQ(results[2].verdict, Verdict::Unknown);
  EXPECT_EQ(results[2].guard, entry::Guard::MemoryLimit);
  EXPECT_EQ(results[3].index, 3u);
  EXPECT_EQ(entry::exit_status(results), 1);
}

TEST(BatchReportUnits, GuardsAreNamedOnceAndReadBack) {
  // The reports' words for the guards: distinct, and read back by the result archive.
  std::set<std::string> words;
  for (auto g : entry::kAllGuards) {
    if (g == entry::Guard::None)
      continue;
    const std::string word(entry::guard_name(g));
    EXPECT_FALSE(word.empty());
    EXPECT_TRUE(words.insert(word).second) << word;
    EXPECT_EQ(entry::guard_from(word), g);
  }
  EXPECT_EQ(entry::guard_from(""), entry::Guard::None);
  EXPECT_FALSE(entry::guard_from("term-budget").has_value());
}

TEST(BatchReportUnits, TheGuardAnEngineNamesSurvivesTheBatch) {
  // A guard the prover sets itself (its term budget) stays on an UNKNOWN entry; on an entry
  // that reached a verdict, no guard is shown.
  const launch::Manifest m = numbered_manifest(2);
  batch::BatchOptions options;
  auto results = batch::run_batch(
      batch::select_entries(m, options),
      [](const launch::ManifestEntry& e, std::atomic<bool>&) {
        entry::EntryResult r;
        r.name = e.name;
        r.verdict = e.index == 0 ? Verdict::Unknown : Verdict::Equivalent;
        r.guard = entry::Guard::TermBudget;
        return r;
      },
      options);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].guard, entry::Guard::TermBudget);
  EXPECT_EQ(results[1].guard, entry::Guard::None);
}

TEST(BatchReportUnits, ProofCacheFolder) {
  const auto dir = scratch_dir("cache-unit");
  std::ostringstream warning_text;
  DiagnosticReporter warnings(warning_text, false);
  auto opened = batch::DirectoryProofCache::open((dir / "c").string(), &warnings);
  ASSERT_TRUE(opened) << opened.error();
  auto& cache = *opened;
  const std::string key = "0123456789abcdef0123456789abcdef";
  EXPECT_FALSE(cache->contains(key));
  cache->insert(key);
  EXPECT_TRUE(cache->contains(key));
  // A key that is not 32 hex digits never names a file.
  for (const char* bad : {"../../etc/passwd", "0123456789ABCDEF0123456789ABCDEF", "abc", ""}) {
    cache->insert(bad);
    EXPECT_FALSE(cache->contains(bad)) << bad;
  }
  // A fresh process sees the file; a damaged one is a miss with one warning.
  auto again = *batch::DirectoryProofCache::open((dir / "c").string(), &warnings);
  EXPECT_TRUE(again->contains(key));
  const std::string other = "fedcba9876543210fedcba9876543210";
  std::string text = again->file_text(other);
  text.replace(text.find("EQUIVALENT"), 10, "EQUIVALENt");
  write_file(again->path_of(other), text);
  EXPECT_FALSE(again->contains(other));
  EXPECT_FALSE(again->contains(other));
  EXPECT_EQ(again->ignored(), 1u);
  const std::string warned = warning_text.str();
  EXPECT_NE(warned.find("volta-eg: warning: ignoring damaged proof-cache file"), std::string::npos)
      << warned;
  EXPECT_EQ(std::count(warned.begin(), warned.end(), '\n'), 1) << "one warning per file";
  // A file under the wrong name (another key's content) is not trusted either.
  write_file(again->path_of(other), again->file_text(key));
  auto third = *batch::DirectoryProofCache::open((dir / "c").string(), nullptr);
  EXPECT_FALSE(third->contains(other));
}

TEST(BatchReportUnits, ProofCacheIsThreadSafe) {
  const auto dir = scratch_dir("cache-threads");
  auto opened = batch::DirectoryProofCache::open((dir / "c").string(), nullptr);
  ASSERT_TRUE(opened);
  auto& cache = *opened;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string key = fmt::format("{:032x}", (i * 7 + t) % 100);
        cache->insert(key);
        if (!cache->contains(key))
          ++wrong;
      }
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(cache->stored(), 100u);
  EXPECT_EQ(cache->ignored(), 0u);
}

TEST(BatchReportUnits, XmlEscape) {
  EXPECT_EQ(report::xml_escape("a<b>&\"c'\n\x01", true), "a&lt;b&gt;&amp;&quot;c&apos;&#10;");
  EXPECT_EQ(report::xml_escape("x\ty\n", false), "x\ty\n");
}

TEST(BatchReportUnits, PathToUri) {
  EXPECT_EQ(report::path_to_uri("examples/k.cu"), "examples/k.cu");
  EXPECT_EQ(report::path_to_uri("/tmp/a b/k#1.ptx"), "file:///tmp/a%20b/k%231.ptx");
  EXPECT_EQ(report::sarif_rule_id("DATA_RACE"), "data-race");
  EXPECT_FALSE(report::sarif_rule_id("EQUIVALENT"));
}

TEST(BatchReportUnits, SummaryAndExitStatusFromJson) {
  json results = json::array(
      {{{"verdict", "EQUIVALENT"}, {"match", true}, {"bad_input", false}, {"seconds", 1.0}},
       {{"verdict", "UNKNOWN"}, {"match", false}, {"bad_input", false}, {"guard", "time limit"}}});
  json s = report::summarize(results, 2.0);
  EXPECT_EQ(s["entries"], 2);
  EXPECT_EQ(s["matched"], 1);
  EXPECT_EQ(s["guards"]["time limit"], 1);
  EXPECT_EQ(s["exit_status"], 1);
  results.push_back({{"verdict", "ERROR"}, {"match", false}, {"bad_input", true}});
  EXPECT_EQ(report::exit_status(results), 2);
  EXPECT_EQ(report::exit_status(json::array()), 0);
}

} // namespace
} // namespace volta::cli_test
