// Provable equality of the bits two stores write (docs/semantics.md, "Synchronization": stores
// of provably equal values). A race between two stores of one location is decided by which of
// them lands, and the outcome may be observed as bits, so "equal" here is equality of the bits
// the GPU stores, never equality over the reals:
//   * the same node (hash-consing: one term, every modifier in its key), or
//   * the same term modulo the commutativity of operations that are commutative bit for bit:
//     f32 add, mul and the product of an fma (IEEE 754 operations are commutative up to the
//     payload of a NaN operand, and a single-precision result with a NaN operand is the one
//     quiet NaN 0x7fffffff, CUDA Programming Guide, "Floating-Point Standard"); integer add,
//     mul, and, or, xor, min, max, mul.hi; predicate and, or, xor; (in)equality tests.
// Excluded, because two such terms may store different bits: f64/f16/bf16 arithmetic commuted
// (a NaN operand's payload is not specified there); min/max commuted (which zero min(-0, +0)
// gives is not the same on every GPU operation); an add without a rounding mode commuted when an
// operand is a product without one (ptxas may contract the product it computed itself into an
// fma, so a+b and b+a may round differently); and every value whose bits the model does not
// know: lifted idioms and tensor-core products (taint idealized), undefined values, atomics'
// results and schedule-dependent values (no class at all, not even equal to themselves).
// Associativity is never used: (a+b)+c and a+(b+c) differ in their bits.
//
// The classes are computed once per node (a post-order walk with a memo, each shared node once)
// and hash-consed: two nodes have one class iff their canonical terms are identical. Safe to use
// from several threads (one lock; it is asked only when two stores meet).
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/id_map.hpp"

namespace volta::symbolic {

class BitEquality {
public:
  explicit BitEquality(const ExprStore& store) : s_(store) {}
  BitEquality(const BitEquality&) = delete;
  BitEquality& operator=(const BitEquality&) = delete;

  // Whether the two nodes are provably the same bits (above).
  bool same_bits(ExprId a, ExprId b);
  // The class of a node's bits: equal classes are equal bits; 0 when the bits of the node are not
  // known to be a function of its term (above).
  uint32_t class_of(ExprId id);

private:
  struct Key {
    uint8_t op = 0;
    uint8_t aux = 0;
    uint32_t a = 0, b = 0, c = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = (uint64_t{k.op} << 8 | k.aux) * 0x9E3779B97F4A7C15ull;
      h ^= (uint64_t{k.a} << 32 | k.b) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
      h ^= uint64_t{k.c} * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
      return static_cast<size_t>(h);
    }
  };
  uint32_t class_locked(ExprId id);
  // The class of one node whose children have theirs (the visit of the walk).
  uint32_t compute(ExprId id);
  bool commutes(const Node& n) const;

  const ExprStore& s_;
  std::mutex mutex_;
  IdMap memo_; // node -> class (0: none)
  std::unordered_map<Key, uint32_t, KeyHash> classes_;
};

} // namespace volta::symbolic
