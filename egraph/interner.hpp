#pragma once
// Interners give leaf payloads a 64-bit identity: equal symbols (equal exact rationals) get equal
// ids, so e-nodes compare and hash payloads as plain integers. Not thread-safe for concurrent
// interning; lookups by id never move (values are stored in stable chunks).

#include <deque>
#include <gmpxx.h>
#include <string>
#include <string_view>

#include "egraph/hashcons.hpp"
#include "egraph/id.hpp"

namespace volta::egraph {

class SymbolTable {
public:
  Payload intern(std::string_view name);
  std::optional<Payload> find(std::string_view name) const;
  const std::string& name(Payload id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

private:
  std::deque<std::string> names_;
  Hashcons index_;
};

class RationalTable {
public:
  // Interns the canonical form of `q` (the value is canonicalized first).
  Payload intern(const mpq_class& q);
  std::optional<Payload> find(const mpq_class& q) const;
  const mpq_class& value(Payload id) const { return values_[id]; }
  std::size_t size() const { return values_.size(); }

private:
  std::deque<mpq_class> values_;
  Hashcons index_;
};

std::uint64_t hash_rational(const mpq_class& q);

} // namespace volta::egraph
