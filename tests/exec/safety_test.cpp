// Safety classes: every race_check entry of examples/safety/manifest.json with the details of its
// report, and small kernels of our own for each class (races between warps and CTAs, races a warp
// collective orders, deadlocks, barrier divergence, out-of-bounds and misaligned accesses,
// uninitialized values, and kernels outside the structured-CTA class).
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "engine/exec/race_shadow.hpp"
#include "engine/symbolic/bit_equality.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

// Line `line` (1-based) of a file.
std::string file_line(const std::string& path, uint32_t line) {
  std::ifstream in(path);
  std::string text;
  for (uint32_t i = 0; i < line && std::getline(in, text); ++i) {
  }
  return text;
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

class SafetyManifest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    manifest_ = new launch::Manifest(load_manifest(source_path("examples/safety/manifest.json")));
  }
  static void TearDownTestSuite() {
    delete manifest_;
    manifest_ = nullptr;
  }

  // Runs the race check of the named entry.
  entry::EntryResult check(std::string_view name) {
    const auto* e = find_entry(*manifest_, name);
    EXPECT_NE(e, nullptr) << name;
    if (e == nullptr)
      return {};
    exec::KernelCache cache;
    return entry::check_race_entry(*e, cache, {});
  }
  std::string ptx_of(std::string_view name) {
    const auto* e = find_entry(*manifest_, name);
    return e ? e->kernel.ptx_path : std::string();
  }

  static launch::Manifest* manifest_;
};

launch::Manifest* SafetyManifest::manifest_ = nullptr;

TEST_F(SafetyManifest, EveryRaceCheckGivesItsExpectedVerdict) {
  size_t checked = 0;
  for (const auto& e : manifest_->entries) {
    if (e.kind != launch::EntryKind::RaceCheck)
      continue;
    SCOPED_TRACE(e.name);
    ASSERT_TRUE(e.error.empty()) << e.error;
    ASSERT_TRUE(e.expected.has_value());
    exec::KernelCache cache;
    const auto r = entry::check_race_entry(e, cache, {});
    EXPECT_EQ(r.verdict, *e.expected) << r.detail;
    EXPECT_TRUE(r.matches());
    if (is_safety_failure(r.verdict) || r.verdict == Verdict::Unsupported) {
      ASSERT_TRUE(r.failure.has_value());
      EXPECT_FALSE(r.detail.empty());
    }
    ++checked;
  }
  EXPECT_EQ(checked, 14u);
}

TEST_F(SafetyManifest, RacyReductionReportsBothAccesses) {
  const auto r = check("reduce_racy");
  ASSERT_EQ(r.verdict, Verdict::DataRace) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first && r.failure->second);
  const auto& f = *r.failure;
  EXPECT_EQ(f.space, "shared");
  EXPECT_EQ(f.kind, "write-read race");
  // Thread 0 reads s[16] (stride 16) that thread 16 wrote (stride 32) without a barrier.
  EXPECT_EQ(f.first->thread, 0u);
  EXPECT_EQ(f.second->thread, 16u);
  EXPECT_NE(f.first->ptx_line, f.second->ptx_line);
  EXPECT_TRUE(contains(file_line(ptx_of("reduce_racy"), f.first->ptx_line), "ld.shared"));
  EXPECT_TRUE(contains(file_line(ptx_of("reduce_racy"), f.second->ptx_line), "st.shared"));
  // Both sides carry their CUDA position (.loc).
  EXPECT_TRUE(contains(f.first->cuda_file, "reduce_racy.cu")) << f.first->cuda_file;
  EXPECT_GT(f.first->cuda_line, 0u);
  EXPECT_TRUE(contains(f.second->cuda_file, "reduce_racy.cu"));
  EXPECT_GT(f.second->cuda_line, 0u);
  EXPECT_TRUE(contains(f.message, "thread 0") && contains(f.message, "thread 16")) << f.message;
}

TEST_F(SafetyManifest, RaceBetweenCtasNeedsEveryCta) {
  const auto all = check("cta_race (all CTAs)");
  ASSERT_EQ(all.verdict, Verdict::DataRace) << all.detail;
  ASSERT_TRUE(all.failure && all.failure->first && all.failure->second);
  EXPECT_EQ(all.failure->space, "global");
  EXPECT_EQ(all.failure->kind, "write-write race");
  EXPECT_NE(all.failure->first->cta, all.failure->second->cta);
  EXPECT_EQ(all.failure->first->thread, all.failure->second->thread);
  EXPECT_TRUE(contains(all.failure->location, "out[")) << all.failure->location;
  EXPECT_TRUE(contains(all.failure->message, "of CTA")) << all.failure->message;
  EXPECT_EQ(check("cta_race (CTA 0 only)").verdict, Verdict::RaceFree);
}

TEST_F(SafetyManifest, OutOfBoundsGlobalReadNamesTheElement) {
  const auto r = check("oob_read");
  ASSERT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first);
  EXPECT_EQ(r.failure->kind, "out-of-bounds read");
  EXPECT_EQ(r.failure->space, "global");
  EXPECT_TRUE(contains(r.failure->location, "in[64]")) << r.failure->location;
  EXPECT_TRUE(contains(r.failure->message, "past the end of in")) << r.failure->message;
  EXPECT_EQ(r.failure->first->thread, 63u);
  EXPECT_TRUE(contains(file_line(ptx_of("oob_read"), r.failure->first->ptx_line), "ld.global"));
}

TEST_F(SafetyManifest, OutOfBoundsSharedRead) {
  const auto r = check("oob_shared");
  ASSERT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first);
  EXPECT_EQ(r.failure->space, "shared");
  EXPECT_EQ(r.failure->first->thread, 63u);
  EXPECT_TRUE(contains(file_line(ptx_of("oob_shared"), r.failure->first->ptx_line), "ld.shared"));
}

TEST_F(SafetyManifest, DivergentBarrier) {
  const auto r = check("divergent_barrier");
  ASSERT_EQ(r.verdict, Verdict::BarrierDivergence) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first && r.failure->second);
  EXPECT_TRUE(
      contains(file_line(ptx_of("divergent_barrier"), r.failure->first->ptx_line), "bar.sync"));
  // The other side is a thread of the second half, which exited.
  EXPECT_GE(r.failure->second->thread, 16u);
}

TEST_F(SafetyManifest, DeadlockOnNamedBarriers) {
  const auto r = check("deadlock_named");
  ASSERT_EQ(r.verdict, Verdict::Deadlock) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first && r.failure->second);
  EXPECT_EQ(r.failure->first->thread / 32, 0u);
  EXPECT_EQ(r.failure->second->thread / 32, 1u);
  EXPECT_NE(r.failure->first->ptx_line, r.failure->second->ptx_line);
  EXPECT_TRUE(
      contains(file_line(ptx_of("deadlock_named"), r.failure->first->ptx_line), "bar.sync"));
  EXPECT_TRUE(
      contains(file_line(ptx_of("deadlock_named"), r.failure->second->ptx_line), "bar.sync"));
}

TEST_F(SafetyManifest, UninitializedOutput) {
  const auto r = check("uninitialized");
  ASSERT_EQ(r.verdict, Verdict::Uninitialized) << r.detail;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->location, "out[32]");
}

TEST_F(SafetyManifest, DataDependentBranchIsRefusedWithItsLine) {
  const auto r = check("data_dependent_branch");
  ASSERT_EQ(r.verdict, Verdict::Unsupported) << r.detail;
  ASSERT_TRUE(r.failure && r.failure->first);
  const uint32_t line = r.failure->first->ptx_line;
  EXPECT_TRUE(contains(file_line(ptx_of("data_dependent_branch"), line), "bra")) << line;
  EXPECT_TRUE(contains(r.detail, ":" + std::to_string(line) + ":")) << r.detail;
  EXPECT_TRUE(contains(r.detail, "branches on data")) << r.detail;
}

TEST_F(SafetyManifest, MisalignedVectorLoad) {
  const auto r = check("misaligned");
  ASSERT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->kind, "misaligned address");
  EXPECT_TRUE(contains(r.detail, "aligned")) << r.detail;
  EXPECT_TRUE(contains(r.failure->location, "in[1]")) << r.failure->location;
}

// ---------------------------------------------------------------------------------------------
// Our own kernels
// ---------------------------------------------------------------------------------------------

constexpr const char* kSharedWord = ".shared .align 4 .u32 s_word;\n";

// The shadow keeps one record per whole word; these check that splitting a word on a byte
// access and merging it back on a whole-word write is exact against the byte-by-byte history.
TEST(Races, ShadowWordsSplitOnByteAccessesAndMergeOnWholeWrites) {
  using exec::AccessKind;
  exec::ShadowPage page(64);
  auto at = [](uint32_t thread, uint32_t stamp) {
    return exec::Accessor{0, thread, thread / 32, thread % 32, stamp, 0, thread};
  };
  exec::Conflict c;
  uint32_t byte = 0;
  // Epoch 1: thread 0 writes word 0 whole; thread 40 (another warp) writes byte 2 only.
  EXPECT_FALSE(page.check_and_record(0, 4, at(0, 1), AccessKind::Write, c, byte));
  EXPECT_TRUE(page.check_and_record(2, 1, at(40, 1), AccessKind::Write, c, byte));
  EXPECT_EQ(byte, 2u);
  EXPECT_EQ(c.thread, 0u);
  // Epoch 2: thread 40 writes byte 1 (splits word 4..7); thread 0 then reads bytes 4..5: byte 5
  // has no history in this epoch, byte 4 neither; reading all of word 1 by thread 0 is fine too.
  exec::ShadowPage fresh(64);
  EXPECT_FALSE(fresh.check_and_record(5, 1, at(40, 2), AccessKind::Write, c, byte));
  EXPECT_FALSE(fresh.check_and_record(4, 1, at(0, 2), AccessKind::Read, c, byte));
  // A whole-word read by another warp now races on byte 5 only, and says so.
  EXPECT_TRUE(fresh.check_and_record(4, 4, at(64, 2), AccessKind::Read, c, byte));
  EXPECT_EQ(byte, 5u);
  EXPECT_EQ(c.thread, 40u);
  // In a later epoch a whole-word write merges the word; a byte read by the writer is fine, a
  // byte read by another warp races with the write on exactly that byte.
  EXPECT_FALSE(fresh.check_and_record(4, 4, at(1, 3), AccessKind::Write, c, byte));
  EXPECT_EQ(fresh.byte(5).w_thread, 1u);
  EXPECT_EQ(fresh.byte(7).w_thread, 1u);
  EXPECT_FALSE(fresh.check_and_record(7, 1, at(1, 3), AccessKind::Read, c, byte));
  EXPECT_TRUE(fresh.check_and_record(6, 2, at(96, 3), AccessKind::Read, c, byte));
  EXPECT_EQ(byte, 6u);
  EXPECT_EQ(c.thread, 1u);
  // 16-byte accesses cover four words: a conflict in the third is located there.
  exec::ShadowPage wide(64);
  EXPECT_FALSE(wide.check_and_record(40, 4, at(0, 4), AccessKind::Write, c, byte));
  EXPECT_TRUE(wide.check_and_record(32, 16, at(33, 4), AccessKind::Write, c, byte));
  EXPECT_EQ(byte, 40u);
}

// A thread that exits takes part in no later barrier: its accesses of its last epoch are ordered
// with nothing after it (ExitLog), exactly for a write or one warp's reads, approximately for the
// reads of several warps; threads that exited without accessing in that epoch change nothing.
TEST(Races, AnExitedThreadsLastEpochIsOrderedWithNothingLater) {
  using exec::AccessKind;
  exec::ExitLog exits;
  exits.stamp_of.assign(96, 0);
  auto at = [&](uint32_t thread, uint32_t stamp) {
    exec::Accessor a{0, thread, thread / 32, thread % 32, stamp, 0, thread};
    a.exits = exits.stamps.empty() ? nullptr : &exits;
    return a;
  };
  exec::Conflict c;
  uint32_t byte = 0;
  exec::ShadowPage page(64);
  // Epoch 1: thread 0 writes word 0, thread 1 reads word 4, threads 2 and 40 read word 8.
  EXPECT_FALSE(page.check_and_record(0, 4, at(0, 1), AccessKind::Write, c, byte));
  EXPECT_FALSE(page.check_and_record(4, 4, at(1, 1), AccessKind::Read, c, byte));
  EXPECT_FALSE(page.check_and_record(8, 4, at(2, 1), AccessKind::Read, c, byte));
  EXPECT_FALSE(page.check_and_record(8, 4, at(40, 1), AccessKind::Read, c, byte));
  exec::ShadowPage copy = page;
  // Without exits, the barrier that starts epoch 2 orders everything.
  EXPECT_FALSE(copy.check_and_record(0, 4, at(64, 2), AccessKind::Read, c, byte));
  EXPECT_FALSE(copy.check_and_record(4, 4, at(64, 2), AccessKind::Write, c, byte));
  // Warp 0 exited in epoch 1 after its accesses (threads 0, 1, 2).
  for (uint32_t t : {0u, 1u, 2u})
    exits.stamp_of[t] = 1;
  exits.stamps = {1};
  EXPECT_TRUE(page.check_and_record(0, 4, at(64, 2), AccessKind::Read, c, byte));
  EXPECT_EQ(c.thread, 0u);
  EXPECT_FALSE(c.approximate);
  EXPECT_TRUE(page.check_and_record(4, 4, at(64, 2), AccessKind::Write, c, byte));
  EXPECT_EQ(c.thread, 1u);
  EXPECT_FALSE(c.approximate);
  // Reads of two warps, one exited: which one is not kept.
  EXPECT_TRUE(page.check_and_record(8, 4, at(65, 3), AccessKind::Write, c, byte));
  EXPECT_TRUE(c.approximate);
}

// Partial-mask syncs order their members only, and transitively: lane 0's write reaches lane 2
// through syncs {0,1} then {1,2}, not through {1,2} then {0,1}.
TEST(Races, PartialMaskSyncsOrderChainsOfMembers) {
  using exec::AccessKind;
  auto at = [](uint32_t lane, uint32_t phase, const exec::WarpSyncLog* log) {
    exec::Accessor a{0, lane, 0, lane, 1, phase, lane};
    a.syncs = log;
    return a;
  };
  exec::Conflict c;
  uint32_t byte = 0;
  exec::WarpSyncLog forward{0, {0b011u, 0b110u}};
  exec::ShadowPage page(16);
  EXPECT_FALSE(page.check_and_record(0, 4, at(0, 0, nullptr), AccessKind::Write, c, byte));
  EXPECT_FALSE(page.check_and_record(0, 4, at(2, 2, &forward), AccessKind::Read, c, byte));
  EXPECT_TRUE(page.check_and_record(0, 4, at(3, 2, &forward), AccessKind::Read, c, byte));
  EXPECT_EQ(c.thread, 0u);
  EXPECT_FALSE(c.approximate);

  exec::WarpSyncLog backward{0, {0b110u, 0b011u}};
  exec::ShadowPage other(16);
  EXPECT_FALSE(other.check_and_record(0, 4, at(0, 0, nullptr), AccessKind::Write, c, byte));
  EXPECT_TRUE(other.check_and_record(0, 4, at(2, 2, &backward), AccessKind::Read, c, byte));
  EXPECT_FALSE(c.approximate);
  // A full-warp sync after the write (the log starts at phase 1) orders it for every lane.
  exec::WarpSyncLog after_full{1, {0b110u}};
  EXPECT_FALSE(other.check_and_record(0, 4, at(7, 2, &after_full), AccessKind::Read, c, byte));

  // Reads of one warp merged across a partial sync: a conflict found through them is marked
  // approximate (the earlier read may be ordered).
  exec::WarpSyncLog one{0, {0b011u}};
  exec::ShadowPage merged(16);
  EXPECT_FALSE(merged.check_and_record(0, 4, at(0, 0, nullptr), AccessKind::Read, c, byte));
  EXPECT_FALSE(merged.check_and_record(0, 4, at(5, 1, &one), AccessKind::Read, c, byte));
  EXPECT_TRUE(merged.check_and_record(0, 4, at(1, 1, &one), AccessKind::Write, c, byte));
  EXPECT_TRUE(c.approximate);
}

TEST(Races, HalfWarpSyncwarpOrdersItsHalfOnly) {
  // Every lane writes s[lane]; lanes 0..15 __syncwarp(0xffff), then read s[lane ^ r] for
  // r = 1 (a lane of the same half: ordered) or 16 (a lane that did not take part: a race).
  auto text = [](int other) {
    return kernel(".param .u64 p_out",
                  fmt::format(R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  mov.u64 %rd3, s_words;
  add.s64 %rd4, %rd3, %rd2;
  st.shared.u32 [%rd4], %r1;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_end;
  bar.warp.sync 65535;
  xor.b32 %r5, %r1, {};
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.shared.u32 %r8, [%rd6];
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra $L_end;
  st.global.u32 [%rd0], %r8;
$L_end:
  ret;)",
                              other),
                  ".shared .align 4 .b8 s_words[128];\n");
  };
  const auto ok = run_ptx(text(1), one_out(1, {32, 1, 1}));
  EXPECT_EQ(ok.failure(), nullptr) << ok.describe();
  const auto racy = run_ptx(text(16), one_out(1, {32, 1, 1}));
  ASSERT_NE(racy.failure(), nullptr) << racy.describe();
  EXPECT_EQ(racy.failure()->verdict, Verdict::DataRace) << racy.failure()->message;
}

TEST(Races, WriteWriteRaceBetweenTwoWarps) {
  // Threads 0 and 32 (lane 0 of each warp) store to the same shared word.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $L_end;
  st.shared.u32 [s_word], %r1;
$L_end:
  ret;)";
  const auto text = kernel(".param .u64 p_out", body, kSharedWord);
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  const auto& f = *r.failure();
  EXPECT_EQ(f.verdict, Verdict::DataRace);
  EXPECT_EQ(f.kind, "write-write race");
  EXPECT_EQ(f.space, "shared");
  EXPECT_TRUE(contains(f.location, "s_word")) << f.location;
  ASSERT_TRUE(f.first && f.second);
  EXPECT_EQ(f.first->thread, 32u);
  EXPECT_EQ(f.second->thread, 0u);
  EXPECT_EQ(f.first->ptx_line, line_of(text, "st.shared"));
  EXPECT_EQ(f.second->ptx_line, line_of(text, "st.shared"));
}

TEST(Races, ReadWriteRaceOnGlobalMemoryAndItsBarrier) {
  // Warp 0 writes out[1]; thread 32 reads it (and copies it to out[0]).
  auto text = [](const std::string& sync) {
    return kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 st.global.u32 [%rd0+4], 7;
)" + sync + R"(
  setp.ne.u32 %p2, %r1, 32;
  @%p2 bra $L_end;
  ld.global.u32 %r2, [%rd0+4];
  st.global.u32 [%rd0], %r2;
$L_end:
  ret;)");
  };
  {
    const auto racy = text("");
    const auto r = run_ptx(racy, one_out(2, {64, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
    EXPECT_EQ(r.failure()->kind, "write-read race");
    EXPECT_TRUE(contains(r.failure()->location, "out[1]")) << r.failure()->location;
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(racy, "ld.global.u32"));
    EXPECT_EQ(r.failure()->second->ptx_line, line_of(racy, "st.global.u32 [%rd0+4]"));
  }
  {
    const auto r = run_ptx(text("  bar.sync 0;"), one_out(2, {64, 1, 1}));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "7");
  }
}

TEST(Races, FullWarpShuffleOrdersAReadAfterAWrite) {
  // Lane 0 writes s_word, lane 1 reads it: racy on its own (warp-synchronous code without a
  // sync), race-free when a full-warp shfl.sync sits in between.
  auto text = [](const std::string& between) {
    return kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 st.shared.u32 [s_word], 5;
)" + between + R"(
  setp.ne.u32 %p2, %r1, 1;
  @%p2 bra $L_end;
  ld.shared.u32 %r3, [s_word];
  st.global.u32 [%rd0], %r3;
$L_end:
  ret;)",
                  kSharedWord);
  };
  const auto with_shfl =
      run_ptx(text("  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xFFFFFFFF;"), one_out(1, {32, 1, 1}));
  ASSERT_EQ(with_shfl.failure(), nullptr) << with_shfl.describe();
  EXPECT_EQ(with_shfl.verdict(), Verdict::RaceFree);
  EXPECT_EQ(with_shfl.expr("out", 0), "5");
  const auto without = run_ptx(text(""), one_out(1, {32, 1, 1}));
  EXPECT_EQ(without.verdict(), Verdict::DataRace) << without.describe();
}

TEST(Races, RaceBetweenCtas) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %ctaid.x;
  st.global.u32 [%rd0], %r1;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  Launch l = one_out(1);
  l.grid = {3, 1, 1};
  l.all_ctas = true;
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_NE(r.failure()->first->cta, r.failure()->second->cta);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.global"));
  // With CTA 0 alone there is nothing to race with.
  l.all_ctas = false;
  EXPECT_EQ(run_ptx(text, l).verdict(), Verdict::RaceFree);
}

TEST(Races, AtomicsDoNotRaceWithAtomics) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  red.global.add.u32 [%rd0], 1;
  ret;)";
  Launch l;
  l.block = {64, 1, 1};
  l.grid = {4, 1, 1};
  l.all_ctas = true;
  l.arrays = {"out:0x100000:4:1:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "256");
}

// Thread 0 adds to s_word with an atomic while thread 32 reads it with a plain load and no
// barrier: the value read is 0 or 1 depending on the schedule, a read-atomic race, as is the
// reverse order. (A regression test: the race shadow once checked reads against the last plain
// write only, and the kernel passed as RACE_FREE with out[0] = 1.)
TEST(Races, PlainReadAfterAnUnorderedAtomicRaces) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 st.shared.u32 [s_word], 0;
  bar.sync 0;
  @!%p1 atom.shared.add.u32 %r2, [s_word], 1;
  setp.ne.u32 %p2, %r1, 32;
  @%p2 bra $L_end;
  ld.shared.u32 %r3, [s_word];
  st.global.u32 [%rd0], %r3;
$L_end:
  ret;)";
  const auto text = kernel(".param .u64 p_out", body, kSharedWord);
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.shared.u32"));
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "atom.shared"));
}

TEST(Races, AtomicAfterAnUnorderedReadRaces) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 st.shared.u32 [s_word], 0;
  bar.sync 0;
  @!%p1 ld.shared.u32 %r3, [s_word];
  @!%p1 st.global.u32 [%rd0], %r3;
  setp.ne.u32 %p2, %r1, 32;
  @!%p2 atom.shared.add.u32 %r2, [s_word], 1;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body, kSharedWord);
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->kind, "read-atomic race");
}

// ---------------------------------------------------------------------------------------------
// Barriers
// ---------------------------------------------------------------------------------------------

TEST(Barriers, NamedBarrierDeadlock) {
  // Warp 0 waits at named barrier 1 for all 64 threads, warp 1 at barrier 0: neither fires.
  const std::string body = R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_warp1;
  bar.sync 1, 64;
  ret;
$L_warp1:
  bar.sync 0;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Deadlock);
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "bar.sync 1, 64"));
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "bar.sync 0"));
  EXPECT_TRUE(contains(r.failure()->message, "thread 0") &&
              contains(r.failure()->message, "thread 32"))
      << r.failure()->message;
}

TEST(Barriers, WarpCollectiveAgainstABarrierDeadlocks) {
  // Lanes 0..15 wait in a full-mask shfl for lanes 16..31, which wait at bar.sync for them.
  const std::string body = R"(
  mov.u32 %r1, %laneid;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_bar;
  shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xFFFFFFFF;
$L_bar:
  bar.sync 0;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Deadlock);
  EXPECT_TRUE(contains(r.failure()->message, "warp collective")) << r.failure()->message;
}

TEST(Barriers, DifferentBarrierInstructionsDiverge) {
  const std::string body = R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_second;
  bar.sync 0;
  ret;
$L_second:
  bar.sync 0;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence);
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_NE(r.failure()->first->ptx_line, r.failure()->second->ptx_line);
}

TEST(Barriers, ExitedWarpsCountAsArrived) {
  // Warp 1 exits before the barrier; warp 0's barrier still fires.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 exit;
  setp.eq.u32 %p3, %r1, 0;
  @%p3 st.shared.u32 [s_word], 3;
  bar.sync 0;
  ld.shared.u32 %r2, [s_word];
  setp.eq.u32 %p2, %r1, 5;
  @%p2 st.global.u32 [%rd0], %r2;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body, kSharedWord), one_out(1, {64, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "3");
  EXPECT_EQ(r.run->stats.barriers, 1u);
}

// bar.sync 1, 32 in a 64-thread CTA synchronizes one warp with the barrier: a named barrier
// over part of the CTA (tests/exec/named_barriers_test.cpp), complete with that warp's arrival.
TEST(Barriers, NamedBarrierOverPartOfTheCtaCompletesWithItsCount) {
  const auto text =
      kernel(".param .u64 p_out",
             "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bar.sync 1, 32;\n  ret;");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.run->stats.barriers, 1u);
}

// Failures found while firing barriers (more arrivals than the thread count, different thread
// counts) name the barrier in their message and must point at the barrier's PTX line. (A
// regression test: their Site was once built from the last instruction the CTA executed, `ret`,
// one line below.)
TEST(Barriers, FailureSiteOfABarrierIsTheBarrier) {
  const auto text = kernel(".param .u64 p_out", "  bar.sync 1, 64;\n  ret;");
  const auto r = run_ptx(text, one_out(1, {96, 1, 1})); // three warps at a barrier of two
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  ASSERT_TRUE(r.failure()->first.has_value());
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "bar.sync 1, 64"));
}

TEST(Barriers, ThreadCountMustBeAMultipleOfTheWarpSize) {
  const auto text = kernel(".param .u64 p_out", "  bar.sync 1, 48;\n  ret;");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence);
}

// bar.sync with a thread count above the CTA's threads never completes (it is not a CTA-wide
// barrier); a count equal to the CTA's threads is one.
TEST(Barriers, ThreadCountAboveTheCtaDeadlocks) {
  const auto text = kernel(".param .u64 p_out", "  bar.sync 1, 128;\n  ret;");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Deadlock);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "bar.sync 1, 128"));
  const auto whole =
      run_ptx(kernel(".param .u64 p_out", "  bar.sync 1, 64;\n  ret;"), one_out(1, {64, 1, 1}));
  EXPECT_EQ(whole.failure(), nullptr) << whole.describe();
  EXPECT_EQ(whole.run->stats.barriers, 1u);
}

// ---------------------------------------------------------------------------------------------
// Every lane of one warp storing to one location in one instruction
// ---------------------------------------------------------------------------------------------

// `s = v` on a volatile __shared__ by every lane: CUDA guarantees that one lane's store lands.
// Provably equal values are no race (and each lane may then read its own store back); values
// that may differ are a write conflict naming two lanes and their values.
std::string all_lanes_store(const std::string& value_code) {
  return kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %laneid;
)" + value_code + R"(
  st.volatile.shared.u32 [s_word], %r2;
  ld.volatile.shared.u32 %r3, [s_word];
  setp.ne.u32 %p1, %r1, 5;
  @%p1 bra $L_end;
  st.global.u32 [%rd0], %r3;
$L_end:
  ret;)",
                kSharedWord);
}

Launch all_lanes_launch(Dim3 block = {32, 1, 1}) {
  Launch l = one_out(1, block);
  l.arrays.push_back("in:0x200000:4:32:in");
  l.params.push_back("ptr:in");
  return l;
}

TEST(SameLocationStores, EqualConcreteValuesAreNoRace) {
  const auto r = run_ptx(all_lanes_store("  mov.u32 %r2, 7;"), all_lanes_launch());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(r.expr("out", 0), "7");
}

TEST(SameLocationStores, TheSameSymbolicValueIsNoRace) {
  const auto r = run_ptx(all_lanes_store("  ld.global.u32 %r2, [%rd1];"), all_lanes_launch());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_TRUE(contains(r.expr("out", 0), "in[0]")) << r.expr("out", 0);
}

TEST(SameLocationStores, DifferentValuesAreAWriteConflict) {
  const auto text = all_lanes_store("  mov.u32 %r2, %r1;");
  const auto r = run_ptx(text, all_lanes_launch());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->kind, "write-write race");
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_EQ(r.failure()->second->thread, 0u);
  EXPECT_EQ(r.failure()->first->thread, 1u);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.volatile.shared"));
  EXPECT_TRUE(contains(r.failure()->message, "0x0 and 0x1")) << r.failure()->message;
}

TEST(SameLocationStores, DataThatMayDifferIsAWriteConflict) {
  // Each lane stores its own input element: in[0] and in[1] may differ.
  const auto r = run_ptx(all_lanes_store(R"(  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];)"),
                         all_lanes_launch());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_TRUE(contains(r.failure()->message, "in[0]") && contains(r.failure()->message, "in[1]"))
      << r.failure()->message;
}

// Stores of provably equal values by any two threads, one warp or several, are no race under
// the benign rule (the default); under the strict rule every unordered pair of writes is.
std::string every_thread_stores_then_reads(const std::string& value_code,
                                           const std::string& after_store = "") {
  return kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
)" + value_code + R"(
  st.shared.u32 [s_word], %r2;
)" + after_store + R"(
  bar.sync 0;
  ld.shared.u32 %r3, [s_word];
  setp.ne.u32 %p1, %r1, 5;
  @%p1 bra $L_end;
  st.global.u32 [%rd0], %r3;
$L_end:
  ret;)",
                kSharedWord);
}

exec::RunOptions strict_races() {
  exec::RunOptions o;
  o.benign_races = false;
  return o;
}

TEST(SameLocationStores, TwoWarpsStoringTheSameValueAreNoRaceUnlessStrict) {
  const auto text = every_thread_stores_then_reads("  mov.u32 %r2, 7;");
  const auto r = run_ptx(text, all_lanes_launch({64, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  const auto strict = run_ptx(text, all_lanes_launch({64, 1, 1}), strict_races());
  ASSERT_NE(strict.failure(), nullptr) << strict.describe();
  EXPECT_EQ(strict.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(strict.failure()->kind, "write-write race");
  // The same symbolic value (one node) from two warps, too.
  const auto symbolic = run_ptx(every_thread_stores_then_reads("  ld.global.u32 %r2, [%rd1];"),
                                all_lanes_launch({64, 1, 1}));
  ASSERT_EQ(symbolic.failure(), nullptr) << symbolic.describe();
}

TEST(SameLocationStores, OneWarpStoringOneValueRacesOnlyUnderTheStrictRule) {
  const auto text = every_thread_stores_then_reads("  mov.u32 %r2, 7;");
  EXPECT_EQ(run_ptx(text, all_lanes_launch()).failure(), nullptr);
  const auto strict = run_ptx(text, all_lanes_launch(), strict_races());
  ASSERT_NE(strict.failure(), nullptr) << strict.describe();
  EXPECT_EQ(strict.failure()->verdict, Verdict::DataRace);
  EXPECT_TRUE(contains(strict.failure()->message, "provably equal values"))
      << strict.failure()->message;
}

TEST(SameLocationStores, TwoWarpsStoringDifferentValuesRace) {
  // Warp 0 stores in[0], warp 1 in[1].
  const auto r = run_ptx(every_thread_stores_then_reads(R"(  shr.u32 %r4, %r1, 5;
  mul.wide.u32 %rd2, %r4, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];)"),
                         all_lanes_launch({64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->kind, "write-write race");
}

// The writes of one value kept together stay unordered with what comes after them: a thread
// that overwrites the value (or reads it) before a barrier races with the other warp's store.
TEST(SameLocationStores, EqualStoresStayUnorderedWithLaterAccesses) {
  const auto overwrite = every_thread_stores_then_reads("  mov.u32 %r2, 7;", R"(
  setp.ne.u32 %p2, %r1, 40;
  @!%p2 st.shared.u32 [s_word], 8;)");
  const auto r = run_ptx(overwrite, all_lanes_launch({64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  // Thread 40 is in warp 1: the race is with warp 0's store of 7, whichever warp ran first.
  const auto read = every_thread_stores_then_reads("  mov.u32 %r2, 7;", R"(
  ld.shared.u32 %r5, [s_word];
  st.global.u32 [%rd0+4], %r5;)");
  Launch two = all_lanes_launch({64, 1, 1});
  two.arrays[0] = "out:0x100000:4:2:out";
  const auto rr = run_ptx(read, two);
  ASSERT_NE(rr.failure(), nullptr) << rr.describe();
  EXPECT_EQ(rr.failure()->verdict, Verdict::DataRace);
  // After a barrier, a new value is no race.
  const auto ordered = every_thread_stores_then_reads("  mov.u32 %r2, 7;", R"(
  bar.sync 0;
  setp.ne.u32 %p2, %r1, 40;
  @!%p2 st.shared.u32 [s_word], 8;)");
  EXPECT_EQ(run_ptx(ordered, all_lanes_launch({64, 1, 1})).failure(), nullptr);
}

// The shadow itself: a write of the same bits joins the last write, one of other bits races with
// every write kept, byte records included.
TEST(Races, ShadowKeepsEveryUnorderedWriteOfOneValue) {
  using exec::AccessKind;
  symbolic::ExprStore store;
  symbolic::BitEquality equality(store);
  auto at = [&](uint32_t thread) {
    exec::Accessor a{0, thread, thread / 32, thread % 32, 1, 0, thread};
    a.equality = &equality;
    return a;
  };
  exec::StoredElement seven{7, 0, false, 0}, eight{8, 0, false, 0};
  const exec::StoredElements sevens{&seven, 1, 4}, eights{&eight, 1, 4};
  exec::Conflict c;
  uint32_t byte = 0;
  exec::ShadowPage page(64);
  EXPECT_FALSE(page.check_and_record(0, 4, at(0), AccessKind::Write, c, byte, sevens));
  EXPECT_FALSE(page.check_and_record(0, 4, at(32), AccessKind::Write, c, byte, sevens));
  EXPECT_FALSE(page.check_and_record(0, 4, at(64), AccessKind::Write, c, byte, sevens));
  // Thread 32 writes 8: it races with thread 0's or 64's 7 (its own is ordered).
  EXPECT_TRUE(page.check_and_record(0, 4, at(32), AccessKind::Write, c, byte, eights));
  EXPECT_NE(c.thread, 32u);
  // Without values (another kind of write) nothing is equal.
  exec::ShadowPage unknown(64);
  EXPECT_FALSE(unknown.check_and_record(0, 4, at(0), AccessKind::Write, c, byte));
  EXPECT_TRUE(unknown.check_and_record(0, 4, at(32), AccessKind::Write, c, byte));
  // Byte records: the writes kept with the last one go with each byte when the word splits.
  exec::ShadowPage bytes(64);
  const exec::StoredElement nine{9, 0, false, 0};
  const exec::StoredElements one_nine{&nine, 1, 1};
  EXPECT_FALSE(bytes.check_and_record(8, 4, at(0), AccessKind::Write, c, byte, sevens));
  EXPECT_FALSE(bytes.check_and_record(8, 4, at(32), AccessKind::Write, c, byte, sevens));
  // Thread 0 writes byte 9 with other bits: its own 7 is ordered before, thread 32's is not.
  EXPECT_TRUE(bytes.check_and_record(9, 1, at(0), AccessKind::Write, c, byte, one_nine));
  EXPECT_EQ(c.thread, 32u);
  EXPECT_EQ(byte, 9u);
  // Thread 0 writes the word's 7 again: equal to thread 32's in bytes 8, 10 and 11, ordered after
  // its own byte 9.
  EXPECT_FALSE(bytes.check_and_record(8, 4, at(0), AccessKind::Write, c, byte, sevens));
  // Thread 32 reads byte 10: unordered with thread 0's writes.
  EXPECT_TRUE(bytes.check_and_record(10, 1, at(32), AccessKind::Read, c, byte));
  EXPECT_EQ(c.thread, 0u);
  // Under the strict rule (no equality) equal values race.
  exec::ShadowPage strict(64);
  exec::Accessor s0{0, 0, 0, 0, 1, 0, 0}, s32{0, 32, 1, 0, 1, 0, 0};
  EXPECT_FALSE(strict.check_and_record(0, 4, s0, AccessKind::Write, c, byte, sevens));
  EXPECT_TRUE(strict.check_and_record(0, 4, s32, AccessKind::Write, c, byte, sevens));
}

TEST(SameLocationStores, ALaterStoreByOneLaneStillRacesWithTheOthersReads) {
  // All lanes store 7 together (fine), then lane 0 alone stores 8 while lane 5 reads.
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  st.shared.u32 [s_word], 7;
  setp.ne.u32 %p1, %r1, 0;
  @!%p1 st.shared.u32 [s_word], 8;
  setp.ne.u32 %p2, %r1, 5;
  @%p2 bra $L_end;
  ld.shared.u32 %r3, [s_word];
  st.global.u32 [%rd0], %r3;
$L_end:
  ret;)",
                           kSharedWord);
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.shared.u32"));
}

// ---------------------------------------------------------------------------------------------
// Bounds and alignment
// ---------------------------------------------------------------------------------------------

TEST(Bounds, GlobalWritePastTheEndAndBeforeTheStart) {
  {
    const auto text =
        kernel(".param .u64 p_out",
               "  ld.param.u64 %rd0, [p_out];\n  st.global.u32 [%rd0+16], 1;\n  ret;");
    const auto r = run_ptx(text, one_out(4));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
    EXPECT_EQ(r.failure()->kind, "out-of-bounds write");
    EXPECT_TRUE(contains(r.failure()->location, "out[4]")) << r.failure()->location;
    EXPECT_TRUE(contains(r.failure()->location, "past the end of out (4 elements)"))
        << r.failure()->location;
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.global"));
  }
  {
    const auto text =
        kernel(".param .u64 p_out",
               "  ld.param.u64 %rd0, [p_out];\n  st.global.u32 [%rd0+-4], 1;\n  ret;");
    const auto r = run_ptx(text, one_out(4));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
    EXPECT_TRUE(contains(r.failure()->location, "out[-1]")) << r.failure()->location;
    EXPECT_TRUE(contains(r.failure()->location, "before the start of out"))
        << r.failure()->location;
  }
}

TEST(Bounds, AnAccessStraddlingTheEndOfAnArray) {
  const auto text = kernel(".param .u64 p_out",
                           "  ld.param.u64 %rd0, [p_out];\n  st.global.u64 [%rd0+8], 1;\n  ret;");
  const auto r = run_ptx(text, one_out(3));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
}

TEST(Bounds, SharedAccessPastItsVariable) {
  const std::string decls = ".shared .align 4 .b8 s_a[64];\n.shared .align 4 .b8 s_b[64];\n";
  const auto text = kernel(".param .u64 p_out", "  st.shared.u32 [s_a+64], 1;\n  ret;", decls);
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  // One element past s_a is not s_b: the red zone between variables catches it.
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
  EXPECT_EQ(r.failure()->space, "shared");
}

TEST(Bounds, MisalignedScalarAccess) {
  const auto text = kernel(".param .u64 p_out",
                           "  ld.param.u64 %rd0, [p_out];\n  ld.global.u32 %r1, [%rd0+2];\n  ret;");
  const auto r = run_ptx(text, one_out(4));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
  EXPECT_EQ(r.failure()->kind, "misaligned address");
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.global"));
}

// ---------------------------------------------------------------------------------------------
// Uninitialized values and the structured-CTA class
// ---------------------------------------------------------------------------------------------

TEST(Uninitialized, RegisterUsedAsAnAddress) {
  const auto text = kernel(".param .u64 p_out", "  ld.global.u32 %r1, [%rd5];\n  ret;");
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Uninitialized);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.global"));
  EXPECT_TRUE(contains(r.failure()->message, "address")) << r.failure()->message;
}

TEST(Uninitialized, RegisterReachingABranch) {
  const auto text = kernel(".param .u64 p_out", R"(
  setp.eq.u32 %p1, %r7, 0;
  @%p1 bra $L_end;
$L_end:
  ret;)");
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Uninitialized);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "@%p1 bra"));
}

TEST(Uninitialized, SharedMemoryReachingAnOutputOnlyWhereItFlows) {
  // An uninitialized register that never reaches an output is no error (nvcc's selp idiom).
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  setp.eq.u32 %p1, 0, 0;
  selp.f32 %f2, 0f3F800000, %f9, %p1;
  st.global.f32 [%rd0], %f2;
  ld.shared.f32 %f3, [s_word];
  add.f32 %f4, %f3, 0f3F800000;
  st.global.f32 [%rd0+4], %f4;
  ret;)",
                           kSharedWord);
  const auto r = run_ptx(text, one_out(2));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "1");
  EXPECT_EQ(r.verdict(), Verdict::Uninitialized);
  auto f = entry::output_failure(*r.run, *r.store, false);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->location, "out[1]");
}

TEST(Structured, ClockReadIsUnsupportedWithItsLine) {
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %clock;
  st.global.u32 [%rd0], %r1;
  ret;)");
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  const uint32_t line = line_of(text, "%clock");
  EXPECT_EQ(r.failure()->first->ptx_line, line);
  EXPECT_TRUE(contains(r.failure()->message, ":" + std::to_string(line) + ":"))
      << r.failure()->message;
  EXPECT_TRUE(contains(r.failure()->message, "clock")) << r.failure()->message;
}

TEST(Structured, TimersCountersAndDriverRegistersAreUnsupportedWithTheirLine) {
  // Every special register the PTX ISA lists parses; those without a value in this model are
  // refused at the read, naming it (the instruction text is in the message).
  for (const std::string reg : {"%globaltimer_lo", "%globaltimer_hi", "%clock_hi", "%pm3", "%pm7",
                                "%envreg31", "%is_explicit_cluster", "%aggr_smem_size",
                                "%reserved_smem_offset_1", "%pm0_64", "%current_graph_exec"}) {
    SCOPED_TRACE(reg);
    const bool wide = reg == "%pm0_64" || reg == "%current_graph_exec";
    const std::string read =
        wide ? "mov.u64 %rd1, " + reg + ";\n  cvt.u32.u64 %r1, %rd1;" : "mov.u32 %r1, " + reg + ";";
    const auto text = kernel(".param .u64 p_out", "\n  ld.param.u64 %rd0, [p_out];\n  " + read +
                                                      "\n  st.global.u32 [%rd0], %r1;\n  ret;");
    const auto r = run_ptx(text, one_out(1));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
    const uint32_t line = line_of(text, reg);
    EXPECT_EQ(r.failure()->first->ptx_line, line);
    EXPECT_TRUE(contains(r.failure()->message, reg)) << r.failure()->message;
  }
}

TEST(Structured, DataDependentAddressIsUnsupported) {
  const auto text = kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.u32 %r1, [%rd1];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  st.global.f32 [%rd0], %f1;
  ret;)");
  Launch l = one_out(1);
  l.arrays.push_back("in:0x200000:4:8:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.global.f32"));
}

TEST(Structured, UnmodeledInstructionsAreRefusedWithTheirLine) {
  for (const std::string ins : {"testp.finite.f32 %p1, %f1;", "bar.red.popc.u32 %r1, 0, %p1;",
                                "call.uni (retval0), some_device_function, (param0);"}) {
    SCOPED_TRACE(ins);
    std::string decls;
    std::string body =
        "  mov.f32 %f1, 0f3F800000;\n  setp.eq.u32 %p1, 0, 0;\n  " + ins + "\n  ret;";
    if (ins.find("call") != std::string::npos) {
      decls = ".extern .func (.param .b32 func_retval0) some_device_function(.param .b32 a);\n";
      body = "  {\n  .param .b32 param0;\n  st.param.b32 [param0], 0;\n  .param .b32 retval0;\n  " +
             ins + "\n  }\n  ret;";
    }
    const auto text = kernel(".param .u64 p_out", body, decls);
    const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, ins.substr(0, 10)));
  }
}

TEST(Structured, ARaceCheckThroughTheDriverUsesTheSameVerdicts) {
  const auto text = kernel(".param .u64 p_out", "  mov.u32 %r1, %clock;\n  ret;");
  const auto r = check_ptx(text, one_out(1));
  EXPECT_EQ(r.verdict, Verdict::Unsupported);
  EXPECT_EQ(r.kind, launch::EntryKind::RaceCheck);
  EXPECT_FALSE(r.bad_input);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure_kernel, "kernel");
}

TEST(Structured, BadInputIsAnErrorNotACrash) {
  const auto r =
      check_ptx(std::string(kHeader) +
                    ".visible .entry k(.param .u64 p_out)\n{\n  bogus.instruction %r1;\n}\n",
                one_out(1));
  EXPECT_TRUE(r.verdict == Verdict::Error || r.verdict == Verdict::Unsupported) << r.detail;
  // A parameter count that does not match the kernel is bad input.
  Launch l = one_out(1);
  l.params.push_back("int:3");
  const auto bad = check_ptx(kernel(".param .u64 p_out", "  ret;"), l);
  EXPECT_EQ(bad.verdict, Verdict::Error);
  EXPECT_TRUE(bad.bad_input);
}

} // namespace
} // namespace volta::etest
