// Every distinct data race of a run, not only the first: the run goes on after a race (and stops
// at any other failure), races are distinct by kind, the two PTX lines, space and array, at most
// exec::kMaxReportedRaces are kept, the list is the same on every run and thread count, and an
// access ordered after a racy one is not reported because of the state the race left.
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <tbb/task_arena.h>

#include "engine/batch/run_cache_dir.hpp"
#include "engine/exec/race_log.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

// One line per race: what a report shows of it (kind, both sites, location, message).
std::string describe_races(const std::vector<exec::Failure>& races) {
  std::string text;
  for (const auto& r : races) {
    text +=
        fmt::format("{} | {} | {} | {}:{}:{} | {}:{}:{} | {}\n", r.kind, r.space, r.location,
                    r.first ? r.first->cta : 0, r.first ? r.first->thread : 0,
                    r.first ? r.first->ptx_line : 0, r.second ? r.second->cta : 0,
                    r.second ? r.second->thread : 0, r.second ? r.second->ptx_line : 0, r.message);
  }
  return text;
}

bool has_race(const std::vector<exec::Failure>& races, std::string_view kind, uint32_t line,
              uint32_t other_line) {
  for (const auto& r : races) {
    if (r.kind == kind && r.first && r.second && r.first->ptx_line == line &&
        r.second->ptx_line == other_line)
      return true;
  }
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// CTAs running in parallel report in any order: the log keeps, per distinct race, the occurrence
// a run in CTA order meets first, and lists the races in that order.
TEST(RaceLog, TheLogIsInCtaOrderWhateverTheOrderOfTheReports) {
  auto race = [](std::string kind, uint32_t line, uint32_t thread) {
    exec::Failure f;
    f.verdict = Verdict::DataRace;
    f.kind = std::move(kind);
    f.space = "shared";
    f.location = fmt::format("s[{}] (shared offset 0x{:x})", thread, 4 * thread);
    f.first = exec::Site{};
    f.first->ptx_line = line;
    f.first->thread = thread;
    f.second = f.first;
    return f;
  };
  exec::RaceLog log;
  // (cta, seq): CTA 3 reports before CTA 1, and the same race twice.
  EXPECT_TRUE(log.add(3, 0, race("write-write race", 20, 7)));
  EXPECT_TRUE(log.add(1, 1, race("write-write race", 20, 5)));
  EXPECT_TRUE(log.add(1, 0, race("read-write race", 10, 2)));
  EXPECT_TRUE(log.add(1, 2, race("write-write race", 20, 9))); // the same as (1, 1): later
  bool truncated = true;
  auto races = log.take(truncated);
  EXPECT_FALSE(truncated);
  ASSERT_EQ(races.size(), 2u);
  EXPECT_EQ(races[0].kind, "read-write race");
  EXPECT_EQ(races[1].first->thread, 5u) << "the occurrence of CTA 1, seq 1";

  // Full: a distinct race past the limit says so, and an earlier one takes the latest's place.
  exec::RaceLog full;
  for (uint32_t k = 0; k < exec::kMaxReportedRaces; ++k)
    EXPECT_TRUE(full.add(2, k, race("write-write race", 100 + k, 0)));
  EXPECT_FALSE(full.add(2, 99, race("write-write race", 999, 0)));
  EXPECT_FALSE(full.add(0, 0, race("write-write race", 1, 0)));
  races = full.take(truncated);
  EXPECT_TRUE(truncated);
  ASSERT_EQ(races.size(), exec::kMaxReportedRaces);
  EXPECT_EQ(races.front().first->ptx_line, 1u);
  EXPECT_EQ(races.back().first->ptx_line, 100u + exec::kMaxReportedRaces - 2);
}

// The soundness entry: two warps store one constant to `flag` (the race found first under the
// strict rule; under the default benign rule two equal stores are none, and the reads of flag
// race with them instead), then each warp reads the other warp's half of s[] with no barrier (the
// real races). The report lists them all, the first being `failure`: under the strict rule the
// lanes of warp 0 store flag one by one, so a lane's read of flag races with another lane's store
// as well (four races).
TEST(RaceLog, AFirstRaceDoesNotHideTheRealOnesAfterIt) {
  const auto manifest = load_manifest(source_path("examples/soundness/manifest.json"));
  const auto* e = find_entry(manifest, "c8_two_distinct_races");
  ASSERT_NE(e, nullptr);
  const std::string ptx = read_text(e->kernel.ptx_path);
  const uint32_t flag_store = line_of(ptx, "st.volatile.shared.u32");
  const uint32_t s_store = line_of(ptx, "st.volatile.shared.f32");
  const uint32_t s_load = line_of(ptx, "ld.volatile.shared.f32 \t%f2");
  ASSERT_TRUE(flag_store != 0 && s_store != 0 && s_load != 0);

  exec::KernelCache cache;
  entry::CheckOptions strict;
  strict.run.benign_races = false;
  const auto r = entry::check_race_entry(*e, cache, strict);
  EXPECT_EQ(r.verdict, Verdict::DataRace) << r.detail;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->kind, "write-write race");
  ASSERT_EQ(r.races.size(), 4u) << describe_races(r.races);
  EXPECT_FALSE(r.races_truncated);
  EXPECT_EQ(r.races[0].message, r.failure->message) << "failure is the first race";
  EXPECT_TRUE(has_race(r.races, "write-write race", flag_store, flag_store));
  EXPECT_TRUE(has_race(r.races, "read-write race", s_store, s_load)) << describe_races(r.races);
  EXPECT_TRUE(has_race(r.races, "write-read race", s_load, s_store)) << describe_races(r.races);
  const uint32_t flag_load = line_of(ptx, "ld.volatile.shared.f32 \t%f3");
  EXPECT_TRUE(has_race(r.races, "write-read race", flag_load, flag_store))
      << describe_races(r.races);
  EXPECT_NE(r.detail.find("(and 3 more distinct races)"), std::string::npos) << r.detail;
  // The default rule: the equal stores to flag are no race, the reads of flag and s[] are.
  const auto benign = entry::check_race_entry(*e, cache, {});
  EXPECT_EQ(benign.verdict, Verdict::DataRace) << benign.detail;
  EXPECT_FALSE(has_race(benign.races, "write-write race", flag_store, flag_store))
      << describe_races(benign.races);
  EXPECT_TRUE(has_race(benign.races, "read-write race", s_store, s_load))
      << describe_races(benign.races);
}

// Every lane of warps 1..3 stores to the word warp 0's lane stored to: 96 racy stores of one
// instruction are one race.
TEST(RaceLog, OneRacyLineInEveryThreadIsOneRace) {
  const auto text = kernel(".param .u64 p_out", R"(
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s_words;
  add.s32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r1;
  ret;)",
                           ".shared .align 4 .b8 s_words[128];\n");
  const auto r = run_ptx(text, one_out(1, {128, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  ASSERT_EQ(r.run->races.size(), 1u) << describe_races(r.run->races);
  EXPECT_EQ(r.run->races[0].kind, "write-write race");
  EXPECT_FALSE(r.run->races_truncated);
}

// 20 racy instructions: the first kMaxReportedRaces in run order are kept, and the report says
// there are more.
TEST(RaceLog, TheLimitKeepsTheFirstRacesAndSaysThereAreMore) {
  std::string body = "  mov.u32 %r1, %tid.x;\n";
  for (int k = 0; k < 20; ++k) // every lane stores its own index to one word: a write conflict
    body += fmt::format("  st.shared.u32 [s_words+{}], %r1;\n", 4 * k);
  body += "  ret;";
  const auto text = kernel(".param .u64 p_out", body, ".shared .align 4 .b8 s_words[128];\n");
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  const auto& races = r.run->races;
  ASSERT_EQ(races.size(), exec::kMaxReportedRaces) << describe_races(races);
  EXPECT_TRUE(r.run->races_truncated);
  const uint32_t first_line = line_of(text, "st.shared.u32 [s_words+0]");
  for (size_t k = 0; k < races.size(); ++k) {
    ASSERT_TRUE(races[k].first.has_value());
    EXPECT_EQ(races[k].first->ptx_line, first_line + k) << "in program order";
  }
}

// The state the race check is in after a race: the racy accesses are recorded like any other,
// so that accesses a barrier orders after them are no race, and the same conflict met again is
// the same race.
TEST(RaceLog, AccessesOrderedAfterARaceAreNotReported) {
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  st.shared.u32 [s_word], %r1;
  ld.shared.u32 %r2, [s_word];
  bar.sync 0;
  ld.shared.u32 %r3, [s_word];
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_skip;
  add.u32 %r3, %r3, 1;
  st.shared.u32 [s_word], %r3;
$L_skip:
  bar.sync 0;
  ld.shared.u32 %r4, [s_word];
  mul.wide.u32 %rd1, %r1, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r4;
  ret;)",
                           ".shared .align 4 .u32 s_word;\n");
  // Two warps: the first store is a write conflict inside each warp and a race between the two
  // warps, the first load races with the other lanes' stores; everything after the first
  // barrier is ordered (thread 0's store between two barriers too).
  const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  const uint32_t store = line_of(text, "st.shared.u32 [s_word], %r1");
  const uint32_t load = line_of(text, "ld.shared.u32 %r2");
  for (const auto& race : r.run->races) {
    ASSERT_TRUE(race.first.has_value());
    EXPECT_TRUE(race.first->ptx_line == store || race.first->ptx_line == load)
        << "a race after the barrier: " << describe_races(r.run->races);
  }
  EXPECT_TRUE(has_race(r.run->races, "write-write race", store, store))
      << describe_races(r.run->races);
  EXPECT_TRUE(has_race(r.run->races, "write-read race", load, store))
      << describe_races(r.run->races);
}

// Another failure stops the run as before: the races after it are not looked for, and the
// verdict stays the first race's.
TEST(RaceLog, AFailureThatIsNotARaceStopsTheRun) {
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $L_end;
  st.shared.u32 [s_word], %r1;
  setp.lt.u32 %p2, %r1, 32;
  @%p2 bra $L_after;
  st.global.u32 [%rd0+4096], %r1;
$L_after:
  st.shared.u32 [s_other], %r1;
$L_end:
  ret;)",
                           ".shared .align 4 .u32 s_word;\n.shared .align 4 .u32 s_other;\n");
  // Thread 0 runs through; thread 32 races on s_word, then writes out of bounds, and never
  // reaches its store to s_other (which would race with thread 0's).
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  ASSERT_EQ(r.run->races.size(), 1u) << describe_races(r.run->races);
  EXPECT_EQ(r.run->races[0].first->ptx_line, line_of(text, "st.shared.u32 [s_word]"));
}

// A guard that stops the run after its first race keeps the verdict and says that the list may
// be short (such a run is not cached).
TEST(RaceLog, AGuardAfterARaceKeepsTheRaceAndMarksTheListCutShort) {
  const auto text = kernel(".param .u64 p_out", R"(
  mov.u32 %r1, %tid.x;
  st.shared.u32 [s_word], %r1;
  mov.u32 %r2, 0;
$L_loop:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 100000;
  @%p1 bra $L_loop;
  ret;)",
                           ".shared .align 4 .u32 s_word;\n");
  exec::RunOptions options;
  options.max_instructions = 1000;
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}), options);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  EXPECT_EQ(r.run->races.size(), 1u);
  EXPECT_TRUE(r.run->races_cut_short);
  EXPECT_FALSE(batch::DirectoryRunCache::keepable(*r.run));
  const auto whole = run_ptx(text, one_out(1, {32, 1, 1}));
  EXPECT_FALSE(whole.run->races_cut_short);
  EXPECT_TRUE(batch::DirectoryRunCache::keepable(*whole.run));
}

// CTAs racing on global memory and inside themselves: the races are the same on every run and
// with one or several worker threads.
TEST(RaceLog, TheRacesAreTheSameOnEveryRunAndThreadCount) {
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
  and.b32 %r3, %r1, 31;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, s_words;
  add.s32 %r6, %r5, %r4;
  st.shared.u32 [%r6], %r1;
  ld.global.u32 %r7, [%rd0];
  st.shared.u32 [s_words], %r7;
  ret;)",
                           ".shared .align 4 .b8 s_words[128];\n");
  Launch launch = one_out(64, {64, 1, 1});
  launch.grid = {8, 1, 1};
  launch.all_ctas = true;
  const auto reference = run_ptx(text, launch);
  ASSERT_NE(reference.failure(), nullptr) << reference.describe();
  const std::string expected = describe_races(reference.run->races);
  EXPECT_GE(reference.run->races.size(), 3u) << expected;
  for (int threads : {1, 2, 4}) {
    tbb::task_arena arena(threads);
    for (int attempt = 0; attempt < 3; ++attempt) {
      Result again;
      arena.execute([&] { again = run_ptx(text, launch); });
      ASSERT_TRUE(again.run.has_value());
      EXPECT_EQ(describe_races(again.run->races), expected) << threads << " threads";
      EXPECT_EQ(again.failure()->message, reference.failure()->message);
    }
  }
}

} // namespace
} // namespace volta::etest
