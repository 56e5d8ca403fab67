// Unit tests of the building blocks: union-find, the flat hashcons table, IdVec, interners.

#include <gtest/gtest.h>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "egraph/hashcons.hpp"
#include "egraph/id_vec.hpp"
#include "egraph/interner.hpp"
#include "egraph/union_find.hpp"

namespace volta::egraph {
namespace {

TEST(UnionFind, LinkAndFindWithCompression) {
  UnionFind uf;
  for (int i = 0; i < 10; ++i)
    uf.make_set();
  for (Id i = 0; i + 1 < 10; ++i)
    uf.link(i, i + 1); // a chain 0 -> 1 -> ... -> 9
  EXPECT_EQ(uf.find(0), 9u);
  EXPECT_EQ(uf.find_compress(0), 9u);
  EXPECT_EQ(uf.find(0), 9u);
  EXPECT_TRUE(uf.is_root(9));
  EXPECT_FALSE(uf.is_root(0));
}

TEST(Hashcons, MatchesUnorderedSetUnderRandomInsertAndErase) {
  // Keys are the entries themselves; the hash is deliberately weak (many collisions) so that
  // probe runs are long and backward-shift deletion is exercised.
  Hashcons table;
  std::unordered_set<std::uint32_t> ref;
  std::mt19937 rng(7);
  auto hash = [](std::uint32_t k) { return std::uint64_t{k % 97}; };
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t k = rng() % 3000;
    const auto found = table.find(hash(k), [&](std::uint32_t e) { return e == k; });
    ASSERT_EQ(found.has_value(), ref.count(k) == 1);
    if (rng() % 3 == 0) {
      if (found) {
        EXPECT_TRUE(table.erase(hash(k), k));
        ref.erase(k);
      }
    } else if (!found) {
      table.insert(hash(k), k);
      ref.insert(k);
    }
    ASSERT_EQ(table.size(), ref.size());
  }
  for (std::uint32_t k = 0; k < 3000; ++k)
    EXPECT_EQ(table.find(hash(k), [&](std::uint32_t e) { return e == k; }).has_value(),
              ref.count(k) == 1);
}

TEST(IdVec, InlineThenHeapCopyMove) {
  IdVec v;
  v.push_back(1);
  v.push_back(2);
  EXPECT_EQ(v.heap_bytes(), 0u);
  v.push_back(3);
  EXPECT_GT(v.heap_bytes(), 0u);
  IdVec w = v;
  IdVec x = std::move(v);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(x.size(), 3u);
  EXPECT_EQ(x[2], 3u);
  w.append(x.span());
  EXPECT_EQ(w.size(), 6u);
  w.truncate(1);
  EXPECT_EQ(w.span().size(), 1u);
}

TEST(Interners, SymbolsAndRationalsAreCanonical) {
  SymbolTable syms;
  EXPECT_EQ(syms.intern("A[17]"), syms.intern("A[17]"));
  EXPECT_NE(syms.intern("A[17]"), syms.intern("A[18]"));
  EXPECT_EQ(syms.name(syms.intern("x")), "x");
  RationalTable q;
  EXPECT_EQ(q.intern(mpq_class(2, 4)), q.intern(mpq_class(1, 2)));
  EXPECT_NE(q.intern(mpq_class(1, 2)), q.intern(mpq_class(-1, 2)));
  mpq_class big("123456789012345678901234567891/7");
  EXPECT_EQ(q.value(q.intern(big)), big);
  EXPECT_FALSE(q.find(mpq_class(5)).has_value());
}

} // namespace
} // namespace volta::egraph
