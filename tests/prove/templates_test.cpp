// Template matching (engine/prove/templates.hpp): an element matches a proved representative
// only under a one-to-one renaming of its input leaves, including when most of its DAG is the
// very DAG of the previous match (the matcher then reads those nodes from its memory of that
// match instead of the store).
#include <gtest/gtest.h>

#include "engine/prove/templates.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::prove {
namespace {

using symbolic::ExprId;

class Templates : public ::testing::Test {
protected:
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  ExprId a(uint32_t i) { return store.input(0, i); }
  ExprId v(uint32_t i) { return store.input(1, i); }
  // Shared by every element of a "row": a0*a1 + a2*a3.
  ExprId row_sum(uint32_t i0, uint32_t i1, uint32_t i2, uint32_t i3) {
    return b.add(b.mul(a(i0), a(i1)), b.mul(a(i2), a(i3)));
  }
  // Element d of a row: ref (v_d * s) / s, opt v_d * (s / s).
  std::pair<ExprId, ExprId> element(ExprId vd, ExprId s) {
    return {b.div(b.mul(vd, s), s), b.mul(vd, b.div(s, s))};
  }
};

TEST_F(Templates, ElementsOfOneRowMatchAndRenamingStaysOneToOne) {
  const ExprId s = row_sum(0, 1, 2, 3);
  const auto [r0, o0] = element(v(0), s);
  TemplateMatcher m(store, r0, o0);
  for (uint32_t d = 1; d < 4; ++d) {
    const auto [r, o] = element(v(d), s);
    EXPECT_TRUE(m.matches(r, o)) << d;
  }
  // The same shared sum, but the element's own leaf is a0, a leaf of the sum: it is from the
  // wrong array, and the renaming would map two leaves of the representative to it.
  {
    const auto [r, o] = element(a(0), s);
    EXPECT_FALSE(m.matches(r, o));
  }
  // A new row: other leaves, same structure.
  const ExprId s2 = row_sum(4, 5, 6, 7);
  {
    const auto [r, o] = element(v(9), s2);
    EXPECT_TRUE(m.matches(r, o));
  }
  // A row whose sum repeats a leaf (a4*a4): the renaming is not one-to-one.
  {
    const ExprId s3 = row_sum(4, 4, 6, 7);
    const auto [r, o] = element(v(9), s3);
    EXPECT_FALSE(m.matches(r, o));
  }
  // Right after the failures the row of the last success matches again, and a structural
  // change inside the shared part (a product became a sum) does not.
  {
    const auto [r, o] = element(v(10), s2);
    EXPECT_TRUE(m.matches(r, o));
  }
  {
    const ExprId changed = b.add(b.mul(a(4), a(5)), b.add(a(6), a(7)));
    const auto [r, o] = element(v(11), changed);
    EXPECT_FALSE(m.matches(r, o));
  }
  // ref and opt must use the same renaming: opt's leaf differs from ref's.
  {
    const ExprId r = b.div(b.mul(v(12), s2), s2);
    const ExprId o = b.mul(v(13), b.div(s2, s2));
    EXPECT_FALSE(m.matches(r, o));
  }
  // Rebuilding the last success's sum gives its very node (hash-consing): the memorized path.
  {
    const ExprId s4 = b.add(b.mul(a(4), a(5)), b.mul(a(6), a(7)));
    ASSERT_EQ(s4, s2); // hash-consed: the very node of the last success
    const auto [r, o] = element(v(14), s4);
    EXPECT_TRUE(m.matches(r, o));
  }
}

TEST_F(Templates, ParallelWindowsAgreeWithOneMatchAtATime) {
  // Rows of elements, every fifth element broken (a repeated leaf), matched against two
  // templates on all cores and one at a time: the same answers, window after window.
  const ExprId s0 = row_sum(0, 1, 2, 3);
  const auto [r0, o0] = element(v(0), s0);
  TemplateMatcher first(store, r0, o0);
  const ExprId r1 = b.mul(v(1), v(2));
  TemplateMatcher second(store, r1, b.mul(v(2), v(1)));
  std::vector<std::pair<ExprId, ExprId>> elements;
  for (uint32_t row = 0; row < 40; ++row) {
    const uint32_t base = 8 + 4 * row;
    const ExprId s = row_sum(base, base + 1, base + 2, row % 5 == 4 ? base + 2 : base + 3);
    for (uint32_t d = 0; d < 8; ++d)
      elements.push_back(element(v(100 + 8 * row + d), s));
    elements.emplace_back(b.mul(v(900 + row), v(950 + row)), b.mul(v(950 + row), v(900 + row)));
  }
  ParallelTemplateMatch parallel;
  const std::vector<const TemplateMatcher*> both = {&first, &second};
  size_t unmatched = 0;
  for (size_t start = 0; start < elements.size(); start += 100) {
    const size_t end = std::min(elements.size(), start + 100);
    const std::span window(elements.data() + start, end - start);
    const auto found = parallel.match(
        both, window, [](size_t, size_t) { return true; }, nullptr);
    for (size_t e = 0; e < window.size(); ++e) {
      int expected = -1;
      if (first.matches(window[e].first, window[e].second))
        expected = 0;
      else if (second.matches(window[e].first, window[e].second))
        expected = 1;
      EXPECT_EQ(found[e], expected) << start + e;
      unmatched += found[e] == -1;
    }
  }
  EXPECT_EQ(unmatched, 8u * 8u); // the eight elements of each of the eight broken rows
  // Eligibility is honoured: nothing may match the first template.
  const auto none = parallel.match(
      both, std::span(elements.data(), 9), [](size_t, size_t t) { return t == 1; }, nullptr);
  EXPECT_EQ(none[0], -1);
  EXPECT_EQ(none[8], 1);
}

} // namespace
} // namespace volta::prove
