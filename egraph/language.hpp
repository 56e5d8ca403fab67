#pragma once
// Language: the operator table of an e-graph, built at run time so that rule files loaded at run
// time can name operators. An operator has a name, a fixed arity or kVariadic, an AC flag (n-ary
// associative-commutative: children form a sorted multiset, see docs/egraph.md) and a payload
// kind (leaf operators such as symbols and constants carry a 64-bit payload, an interned id).
//
// The Language also owns the interners for symbol names and exact rationals, so terms, patterns
// and e-graphs built over one Language agree on payload ids. It is a value type: copy it to give
// another thread its own (interning is not thread-safe).

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "egraph/id.hpp"
#include "egraph/interner.hpp"

namespace volta::egraph {

enum class PayloadKind : std::uint8_t {
  None,     // no payload (ordinary operators)
  Symbol,   // an interned name (SymbolTable id), e.g. the input element A[17]
  Rational, // an interned exact rational (RationalTable id), e.g. 3/4
  Raw,      // an uninterpreted 64-bit value, printed as an integer
};

inline constexpr int kVariadic = -1;

struct OpInfo {
  std::string name;
  int arity = 0;   // number of children, or kVariadic
  bool ac = false; // n-ary associative-commutative (requires kVariadic, no payload)
  PayloadKind payload = PayloadKind::None; // operators with a payload are leaves (arity 0)
};

class Language {
public:
  // Adds an operator; throws std::invalid_argument on a duplicate name or an inconsistent
  // declaration (AC but not variadic, payload with children).
  OpId add_op(OpInfo info);
  OpId add_op(std::string name, int arity, bool ac = false,
              PayloadKind payload = PayloadKind::None) {
    return add_op(OpInfo{std::move(name), arity, ac, payload});
  }

  std::optional<OpId> find_op(std::string_view name) const;
  // Like find_op but throws std::invalid_argument when the operator is unknown.
  OpId op_id(std::string_view name) const;
  const OpInfo& op(OpId id) const { return ops_[id]; }
  bool is_ac(OpId id) const { return ops_[id].ac; }
  std::size_t num_ops() const { return ops_.size(); }

  // The operators written as bare tokens in s-expressions: an identifier that is not an
  // operator name becomes a leaf of the symbol operator, a number a leaf of the constant one.
  void set_symbol_op(OpId id);
  void set_constant_op(OpId id);
  std::optional<OpId> symbol_op() const { return symbol_op_; }
  std::optional<OpId> constant_op() const { return constant_op_; }

  SymbolTable& symbols() { return symbols_; }
  const SymbolTable& symbols() const { return symbols_; }
  RationalTable& rationals() { return rationals_; }
  const RationalTable& rationals() const { return rationals_; }
  Payload intern_symbol(std::string_view name) { return symbols_.intern(name); }
  Payload intern_rational(const mpq_class& q) { return rationals_.intern(q); }
  const std::string& symbol_name(Payload p) const { return symbols_.name(p); }
  const mpq_class& rational(Payload p) const { return rationals_.value(p); }

  // The payload printed as it appears in an s-expression.
  std::string payload_text(OpId op, Payload p) const;

private:
  std::vector<OpInfo> ops_;
  std::unordered_map<std::string, OpId> by_name_;
  std::optional<OpId> symbol_op_;
  std::optional<OpId> constant_op_;
  SymbolTable symbols_;
  RationalTable rationals_;
};

} // namespace volta::egraph
