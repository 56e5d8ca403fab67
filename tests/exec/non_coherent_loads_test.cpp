// Loads through the non-coherent path (ld.global.nc, __ldg, ldu) of data the kernel writes: a
// race of its own kind (race_shadow.hpp), whatever orders the write and the read, the write
// before or after the read, by any thread (the reader too). Data no thread writes stays fine.
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

using exec::AccessKind;

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

exec::Accessor at(uint32_t cta, uint32_t thread, uint32_t stamp, uint32_t pc = 7) {
  return exec::Accessor{cta, thread, thread / 32, thread % 32, stamp, 0, pc};
}

TEST(NonCoherentShadow, AReadThenAnyWriteConflictsWhateverOrdersThem) {
  exec::Conflict c;
  uint32_t byte = 0;
  {
    // The reader itself writes the byte later, in a later epoch: a plain read would be ordered.
    exec::ShadowPage page(16);
    EXPECT_FALSE(
        page.check_and_record(0, 4, at(0, 3, 1, 10), AccessKind::NonCoherentRead, c, byte));
    EXPECT_TRUE(page.check_and_record(0, 4, at(0, 3, 2, 20), AccessKind::Write, c, byte));
    EXPECT_EQ(c.previous, AccessKind::NonCoherentRead);
    EXPECT_EQ(c.thread, 3u);
    EXPECT_EQ(c.pc, 10u);
    // Still remembered after the write: another write of a later epoch conflicts too.
    EXPECT_TRUE(page.check_and_record(0, 4, at(0, 5, 3, 30), AccessKind::Write, c, byte));
    EXPECT_EQ(c.previous, AccessKind::NonCoherentRead);
  }
  {
    // A write, then a barrier (a later epoch), then the non-coherent read of another thread.
    exec::ShadowPage page(16);
    EXPECT_FALSE(page.check_and_record(4, 4, at(0, 1, 1, 11), AccessKind::Write, c, byte));
    EXPECT_TRUE(page.check_and_record(4, 4, at(0, 2, 2, 12), AccessKind::NonCoherentRead, c, byte));
    EXPECT_EQ(c.previous, AccessKind::Write);
    EXPECT_EQ(c.thread, 1u);
    EXPECT_EQ(byte, 4u);
  }
  {
    // An atomic on either side.
    exec::ShadowPage page(16);
    EXPECT_FALSE(page.check_and_record(0, 4, at(0, 1, 1), AccessKind::Atomic, c, byte));
    EXPECT_TRUE(page.check_and_record(0, 4, at(1, 1, 2), AccessKind::NonCoherentRead, c, byte));
    EXPECT_EQ(c.previous, AccessKind::Atomic);
    exec::ShadowPage other(16);
    EXPECT_FALSE(other.check_and_record(0, 4, at(0, 1, 1), AccessKind::NonCoherentRead, c, byte));
    EXPECT_TRUE(other.check_and_record(0, 4, at(0, 1, 2), AccessKind::Atomic, c, byte));
    EXPECT_EQ(c.previous, AccessKind::NonCoherentRead);
  }
  {
    // Reads of every kind do not conflict with one another.
    exec::ShadowPage page(16);
    EXPECT_FALSE(page.check_and_record(0, 4, at(0, 1, 1), AccessKind::NonCoherentRead, c, byte));
    EXPECT_FALSE(page.check_and_record(0, 4, at(1, 2, 2), AccessKind::NonCoherentRead, c, byte));
    EXPECT_FALSE(page.check_and_record(0, 4, at(0, 40, 1), AccessKind::Read, c, byte));
  }
}

// A word merged by a whole-word write keeps a non-coherent read only if its four bytes had the
// same one: byte 0's read must not be taken as a read of byte 2.
TEST(NonCoherentShadow, AMergedWordInventsNoReadOfAnotherByte) {
  exec::Conflict c;
  uint32_t byte = 0;
  exec::ShadowPage page(16);
  EXPECT_FALSE(page.check_and_record(0, 1, at(0, 1, 1), AccessKind::NonCoherentRead, c, byte));
  // The whole-word write conflicts with byte 0's read (reported) and merges the word.
  EXPECT_TRUE(page.check_and_record(0, 4, at(0, 1, 2), AccessKind::Write, c, byte));
  EXPECT_EQ(byte, 0u);
  // Byte 2 was never read through the non-coherent path: a later write of it alone is fine.
  EXPECT_FALSE(page.check_and_record(2, 1, at(0, 2, 3), AccessKind::Write, c, byte));
  // A word read whole keeps its read through the merge.
  exec::ShadowPage whole(16);
  EXPECT_FALSE(whole.check_and_record(8, 4, at(0, 1, 1), AccessKind::NonCoherentRead, c, byte));
  EXPECT_TRUE(whole.check_and_record(8, 4, at(0, 1, 2), AccessKind::Write, c, byte));
  EXPECT_TRUE(whole.check_and_record(10, 1, at(0, 2, 3), AccessKind::Write, c, byte));
  EXPECT_EQ(c.previous, AccessKind::NonCoherentRead);
}

Launch x_and_out(Dim3 block, const std::string& x_kind = "inout") {
  Launch l;
  l.block = block;
  l.arrays = {"x:0x100000:4:64:" + x_kind, "out:0x200000:4:64:out"};
  l.params = {"ptr:x", "ptr:out"};
  return l;
}

// Thread t reads x[t ^ 1] with `load` and copies it to out[t]; then, after a barrier, writes x[t]
// when `write` (the non-coherent load comes first in every schedule).
std::string read_then_write(const std::string& load, bool write) {
  return kernel(".param .u64 p_x, .param .u64 p_out", R"(
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_out];
  mov.u32 %r1, %tid.x;
  xor.b32 %r2, %r1, 1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  )" + load + R"( %f1, [%rd4];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
  bar.sync 0;
  add.s64 %rd7, %rd1, %rd5;
  )" + (write ? "st.global.f32 [%rd7], 0f3F800000;" : "") +
                                                          "\n  ret;");
}

TEST(NonCoherentLoads, EveryNonCoherentFormOfWrittenDataIsADataRace) {
  for (const std::string load : {"ld.global.nc.f32", "ld.global.nc.L1::no_allocate.f32",
                                 "ld.global.nc.L2::128B.f32", "ldu.global.f32"}) {
    SCOPED_TRACE(load);
    const std::string text = read_then_write(load, true);
    const auto r = run_ptx(text, x_and_out({32, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
    EXPECT_EQ(r.failure()->kind, "non-coherent read of written data");
    EXPECT_TRUE(contains(r.failure()->message, "non-coherent load of bytes the kernel writes"))
        << r.failure()->message;
    // Both lines: the write (the access that found it) and the read.
    ASSERT_TRUE(r.failure()->first && r.failure()->second);
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.global.f32 [%rd7]"));
    EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, load));
    // A plain load is ordered by the barrier: no race.
    EXPECT_EQ(run_ptx(read_then_write("ld.global.f32", true), x_and_out({32, 1, 1})).verdict(),
              Verdict::RaceFree);
  }
}

TEST(NonCoherentLoads, DataNoThreadWritesIsFine) {
  // An inout array never written, an input array: RACE_FREE.
  EXPECT_EQ(run_ptx(read_then_write("ld.global.nc.f32", false), x_and_out({32, 1, 1})).verdict(),
            Verdict::RaceFree);
  EXPECT_EQ(
      run_ptx(read_then_write("ld.global.nc.f32", false), x_and_out({32, 1, 1}, "in")).verdict(),
      Verdict::RaceFree);
}

TEST(NonCoherentLoads, ACachePolicyOperandIsAcceptedWithItsQualifier) {
  const std::string text = kernel(".param .u64 p_x, .param .u64 p_out", R"(
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_out];
  mov.u64 %rd3, 0;
  ld.global.nc.L2::cache_hint.f32 %f1, [%rd1], %rd3;
  st.global.f32 [%rd2], %f1;
  ret;)");
  const auto r = run_ptx(text, x_and_out({1, 1, 1}, "in"));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "x[0]");
}

// Another CTA's write, later in the schedule of a run of every CTA: the read is remembered.
TEST(NonCoherentLoads, AWriteByALaterCtaIsFound) {
  const std::string text = kernel(".param .u64 p_x, .param .u64 p_out", R"(
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_out];
  mov.u32 %r1, %ctaid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_write;
  ld.global.nc.f32 %f1, [%rd1];
  st.global.f32 [%rd2], %f1;
  ret;
$L_write:
  st.global.f32 [%rd1], 0f3F800000;
  ret;)");
  Launch l = x_and_out({1, 1, 1});
  l.grid = {2, 1, 1};
  l.all_ctas = true;
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_NE(r.failure()->first->cta, r.failure()->second->cta);
}

} // namespace
} // namespace volta::etest
