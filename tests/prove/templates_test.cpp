// Template matching (engine/prove/templates.hpp): an element matches a proved representative
// only under a one-to-one renaming of its input leaves, including when most of its DAG is the
// very DAG of the previous match (the matcher then reads those nodes from its memory of that
// match instead of the store).
#include <array>
#include <gtest/gtest.h>
#include <random>
#include <vector>

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

namespace volta::prove {
namespace {

// Random DAG families: terms built bottom-up from leaves, each term an operator of two earlier
// terms (so subterms are shared and reached from several parents, as the exponentials of an
// attention row are). Element after element renames a few leaves (sometimes onto another
// leaf of the element: not one-to-one), keeps the terms that depend on no renamed leaf (the
// same nodes as in the previous element), and now and then changes one operator. The matcher
// that skips the ranges of unchanged nodes must answer exactly as the one that walks every
// entry.
struct Family {
  uint32_t leaves = 0;
  std::vector<std::array<uint32_t, 3>> shape; // per term: operator, left, right (term indices)
};

Family random_family(std::mt19937& random, uint32_t leaves, uint32_t terms) {
  Family f;
  f.leaves = leaves;
  for (uint32_t t = leaves; t < leaves + terms; ++t) {
    // Mostly recent terms, sometimes far ones: long chains with edges back into them.
    auto pick = [&] {
      return random() % 3 == 0 ? random() % t : t - 1 - random() % std::min(t, 4u);
    };
    f.shape.push_back({static_cast<uint32_t>(random() % 4), static_cast<uint32_t>(pick()),
                       static_cast<uint32_t>(pick())});
  }
  return f;
}

class RangeSkip : public ::testing::Test {
protected:
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  // The terms of an element: leaf i is input(i % 2, map[i]); a term none of whose leaves
  // changed since `previous` (same map entries, same operators) is the previous element's node.
  // `unshared` (parent term, child term), when set: that parent's operand is a copy of the
  // child's node (same operator, same children, another node), so that the element has two
  // nodes where the representative has one.
  std::vector<ExprId> build(const Family& f, const std::vector<uint32_t>& map,
                            const std::vector<uint32_t>& ops, const std::vector<ExprId>& previous,
                            const std::vector<uint8_t>& changed_leaf,
                            std::pair<size_t, size_t> unshared = {SIZE_MAX, SIZE_MAX}) {
    std::vector<ExprId> terms(f.leaves + f.shape.size());
    std::vector<uint8_t> changed(terms.size(), 0);
    for (uint32_t i = 0; i < f.leaves; ++i) {
      terms[i] = store.input(i % 2, map[i]);
      changed[i] = previous.empty() || changed_leaf[i];
    }
    for (size_t k = 0; k < f.shape.size(); ++k) {
      const size_t t = f.leaves + k;
      const auto [op_seed, l, r] = f.shape[k];
      changed[t] =
          changed[l] || changed[r] || previous.empty() || ops[k] != op_seed || t == unshared.first;
      if (!changed[t]) {
        terms[t] = previous[t];
        continue;
      }
      ExprId x = terms[l], y = terms[r];
      if (t == unshared.first) {
        const ExprId copy = store.append(store.node(terms[unshared.second]));
        x = l == unshared.second ? copy : x;
        y = r == unshared.second ? copy : y;
      }
      switch (ops[k]) {
      case 0:
        terms[t] = b.add(x, y);
        break;
      case 1:
        terms[t] = b.mul(x, y);
        break;
      case 2:
        terms[t] = b.max(x, y);
        break;
      default:
        terms[t] = b.sub(x, y);
        break;
      }
    }
    return terms;
  }
};

TEST_F(RangeSkip, SkippingUnchangedRangesAnswersAsWalkingEveryEntry) {
  std::mt19937 random(11);
  size_t matched = 0, refused = 0;
  for (int family = 0; family < 30; ++family) {
    const uint32_t leaves = 6 + random() % 10;
    const Family f = random_family(random, leaves, 10 + random() % 60);
    std::vector<uint32_t> map(leaves);
    for (uint32_t i = 0; i < leaves; ++i)
      map[i] = 1000 * static_cast<uint32_t>(family) + i;
    std::vector<uint32_t> ops;
    for (const auto& s : f.shape)
      ops.push_back(s[0]);
    std::vector<uint8_t> changed(leaves, 1);
    std::vector<ExprId> terms = build(f, map, ops, {}, changed);
    const size_t n = terms.size();
    // The representative: the last term against a sum of two others (an "optimized" side).
    const ExprId ref = terms[n - 1];
    const ExprId opt = b.add(terms[n - 2], terms[leaves + (n - leaves) / 2]);
    TemplateMatcher skipping(store, ref, opt, true);
    TemplateMatcher walking(store, ref, opt, false);
    uint32_t next_leaf = 1000 * static_cast<uint32_t>(family) + 500;
    for (int element = 0; element < 60; ++element) {
      std::fill(changed.begin(), changed.end(), 0);
      std::vector<uint32_t> new_ops = ops;
      const uint32_t renames = random() % 3;
      for (uint32_t r = 0; r < renames; ++r) {
        const uint32_t i = random() % leaves;
        changed[i] = 1;
        // One time in six onto a leaf the element already uses for the same array.
        const uint32_t same_array = (i + 2 * (1 + random() % (leaves / 2))) % leaves;
        map[i] = random() % 6 == 0 && same_array != i ? map[same_array] : next_leaf++;
      }
      if (random() % 8 == 0)
        new_ops[random() % new_ops.size()] = random() % 4;
      // One time in three, one parent of a shared term gets a copy of its node.
      std::pair<size_t, size_t> unshared{SIZE_MAX, SIZE_MAX};
      if (random() % 3 == 0) {
        const size_t child = leaves + random() % (n - leaves - 1);
        std::vector<size_t> parents;
        for (size_t k = 0; k < f.shape.size(); ++k) {
          if (f.shape[k][1] == child || f.shape[k][2] == child)
            parents.push_back(leaves + k);
        }
        if (parents.size() >= 2)
          unshared = {parents[random() % parents.size()], child};
      }
      std::vector<ExprId> now = build(f, map, new_ops, terms, changed, unshared);
      const ExprId r = now[n - 1];
      const ExprId o = b.add(now[n - 2], now[leaves + (n - leaves) / 2]);
      const bool a = skipping.matches(r, o);
      const bool w = walking.matches(r, o);
      ASSERT_EQ(a, w) << "family " << family << " element " << element;
      (a ? matched : refused) += 1;
      if (unshared.first != SIZE_MAX)
        continue; // the next element starts again from this one's terms without the copy
      terms = std::move(now);
      ops = std::move(new_ops);
    }
  }
  // Both outcomes happened, many times.
  EXPECT_GT(matched, 300u);
  EXPECT_GT(refused, 100u);
}

} // namespace
} // namespace volta::prove
