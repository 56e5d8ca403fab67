// CtaMbarriers, the mbarrier bookkeeping both CTA machines share (engine/exec/cta_mbarriers.hpp):
// phases, pending arrivals, tx-count, state tokens, parity waits, and each undefined use.
#include <gtest/gtest.h>

#include "engine/exec/cta_mbarriers.hpp"

namespace volta::exec {
namespace {

bool has(const std::string& s, std::string_view needle) {
  return s.find(needle) != std::string::npos;
}

TEST(CtaMbarriers, APhaseCompletesAfterItsArrivals) {
  CtaMbarriers m;
  ASSERT_TRUE(m.init(0x10, 2).ok());
  EXPECT_FALSE(*m.parity_done(0x10, 0, nullptr));
  EXPECT_TRUE(*m.parity_done(0x10, 1, nullptr)); // the phase "before" phase 0 counts as done
  const auto a = m.arrive(0x10, 1);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a.completed);
  EXPECT_EQ(a.token, 0u);
  EXPECT_FALSE(*m.token_done(0x10, a.token, nullptr));
  const auto b = m.arrive(0x10, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b.completed);
  EXPECT_EQ(b.token, 0u);
  EXPECT_TRUE(*m.token_done(0x10, a.token, nullptr));
  EXPECT_TRUE(*m.parity_done(0x10, 0, nullptr));
  EXPECT_FALSE(*m.parity_done(0x10, 1, nullptr)); // phase 1 is the current one
  EXPECT_EQ(m.find(0x10)->pending, 2u);
  EXPECT_EQ(m.find(0x10)->phase, 1u);
  EXPECT_EQ(*m.phase_of_parity(0x10, 1), 1u);
  EXPECT_EQ(*m.phase_of_parity(0x10, 0), 0u);
}

TEST(CtaMbarriers, TransactionBytesHoldThePhase) {
  CtaMbarriers m;
  ASSERT_TRUE(m.init(0, 1).ok());
  const auto a = m.arrive(0, 1, 256); // arrive.expect_tx 256
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a.completed); // the bytes have not come
  auto c = m.complete_tx(0, 128);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c.completed);
  c = m.complete_tx(0, 128);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c.completed);
  EXPECT_EQ(m.find(0)->tx, 0);
  // Bytes that come before their expect_tx: tx-count goes negative, and the expect_tx brings
  // it back to zero.
  ASSERT_TRUE(m.complete_tx(0, 64).ok());
  EXPECT_EQ(m.find(0)->tx, -64);
  ASSERT_TRUE(m.expect_tx(0, 64).ok());
  const auto d = m.arrive(0, 1);
  EXPECT_TRUE(d.completed);
  EXPECT_EQ(d.token, 1u);
}

TEST(CtaMbarriers, TooFewBytesNeverComplete) {
  CtaMbarriers m;
  ASSERT_TRUE(m.init(8, 1).ok());
  ASSERT_TRUE(m.arrive(8, 1, 512).ok());
  const auto c = m.complete_tx(8, 256);
  EXPECT_FALSE(c.completed);
  EXPECT_FALSE(*m.parity_done(8, 0, nullptr));
  EXPECT_TRUE(has(m.describe(8), "tx-count 256")) << m.describe(8);
}

TEST(CtaMbarriers, ArriveDropLowersTheNextPhasesCount) {
  CtaMbarriers m;
  ASSERT_TRUE(m.init(0, 3).ok());
  ASSERT_TRUE(m.arrive(0, 1, 0, /*drop=*/true).ok());
  ASSERT_TRUE(m.arrive(0, 2).ok());
  EXPECT_EQ(m.find(0)->phase, 1u);
  EXPECT_EQ(m.find(0)->pending, 2u);
  EXPECT_TRUE(m.arrive(0, 2).completed);
}

TEST(CtaMbarriers, UndefinedUsesAreProblems) {
  CtaMbarriers m;
  EXPECT_TRUE(has(m.arrive(0x20, 1).problem, "no mbarrier"));
  std::string why;
  EXPECT_FALSE(m.parity_done(0x20, 0, &why).has_value());
  EXPECT_TRUE(has(why, "no mbarrier")) << why;
  EXPECT_TRUE(has(m.init(0x21, 1).problem, "aligned"));
  EXPECT_TRUE(has(m.init(0x20, 0).problem, "count 0"));
  EXPECT_TRUE(has(m.init(0x20, CtaMbarriers::kMaxCount + 1).problem, "count"));
  ASSERT_TRUE(m.init(0x20, 1).ok());
  EXPECT_TRUE(has(m.init(0x20, 1).problem, "in use"));
  EXPECT_TRUE(has(m.arrive(0x20, 2).problem, "over-arrival"));
  EXPECT_TRUE(has(m.arrive(0x24, 1).problem, "inside the mbarrier at 0x20"));
  EXPECT_TRUE(has(m.expect_tx(0x20, CtaMbarriers::kMaxTxCount + 1).problem, "bytes"));
  EXPECT_TRUE(has(m.complete_tx(0x20, CtaMbarriers::kMaxTxCount).problem, "")); // -max: in range
  EXPECT_TRUE(has(m.complete_tx(0x20, 1).problem, "range"));
  EXPECT_FALSE(m.token_done(0x20, 5, &why).has_value());
  EXPECT_TRUE(has(why, "has not begun")) << why;
}

TEST(CtaMbarriers, OverlapsAndInval) {
  CtaMbarriers m;
  ASSERT_TRUE(m.init(0x40, 1).ok());
  EXPECT_EQ(m.overlaps(0x44, 4), std::optional<uint64_t>(0x40));
  EXPECT_EQ(m.overlaps(0x3c, 8), std::optional<uint64_t>(0x40));
  EXPECT_EQ(m.overlaps(0x38, 8), std::nullopt);
  EXPECT_EQ(m.overlaps(0x48, 4), std::nullopt);
  ASSERT_TRUE(m.inval(0x40).ok());
  EXPECT_EQ(m.overlaps(0x40, 8), std::nullopt);
  EXPECT_FALSE(m.inval(0x40).ok());
  EXPECT_TRUE(m.init(0x40, 4).ok()); // reusable after inval
}

} // namespace
} // namespace volta::exec
