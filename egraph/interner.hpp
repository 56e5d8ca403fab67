#pragma once
// Interners give leaf payloads a 64-bit identity: equal symbols (equal exact rationals) get equal
// ids, so e-nodes compare and hash payloads as plain integers. Not thread-safe for concurrent
// interning; lookups by id never move (values are stored in stable chunks).
//
// InternTable is the one interning mechanism of the project beside the e-graph's own node
// hashcons: the symbol and rational tables below and the canonical forms of rules/algebra
// (forms, atoms, monomials, sums) are InternTables.

#include <cstdint>
#include <deque>
#include <gmpxx.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "egraph/hash.hpp"
#include "egraph/hashcons.hpp"
#include "egraph/id.hpp"
#include "support/invariant.hpp"

namespace volta::egraph {

// Values stored once each, numbered 0, 1, ... in the order they were first interned. The caller
// gives each value's hash (of its normalized form: equal values must hash equally; the table
// finishes it, so a weak mix is fine) and the equality. `Store` is std::vector (fastest; a
// reference into it dies when the table grows) or std::deque (references stay valid).
template <class T, class Store = std::vector<T>>
class InternTable {
public:
  // The id of the stored value `same` to `value`, else of `value`, stored now.
  template <class Same>
  std::uint32_t intern(std::uint64_t hash, T&& value, Same&& same) {
    if (auto hit = find(hash, [&](const T& stored) { return same(stored, value); }))
      return *hit;
    return insert(hash, std::move(value));
  }
  // The id of the stored value for which `matches(stored)` holds (a probe of another type than
  // T: a string_view for strings), if any.
  template <class Matches>
  std::optional<std::uint32_t> find(std::uint64_t hash, Matches&& matches) const {
    return index_.find(hash_finish(hash), [&](std::uint32_t e) { return matches(values_[e]); });
  }
  // Stores a value known to be absent (find said so) under its hash; its id.
  std::uint32_t insert(std::uint64_t hash, T&& value) {
    VOLTA_ASSERT(values_.size() < Hashcons::kEmpty, "interned ids fit in 32 bits");
    const auto id = static_cast<std::uint32_t>(values_.size());
    values_.push_back(std::move(value));
    index_.insert(hash_finish(hash), id);
    VOLTA_ASSERT(index_.size() == values_.size(), "every stored value is indexed once");
    return id;
  }

  const T& operator[](std::uint32_t id) const {
    VOLTA_ASSERT(id < values_.size(), "an interned id names a stored value");
    return values_[id];
  }
  std::size_t size() const { return values_.size(); }

private:
  Store values_;
  Hashcons index_;
};

class SymbolTable {
public:
  Payload intern(std::string_view name);
  std::optional<Payload> find(std::string_view name) const;
  const std::string& name(Payload id) const { return names_[static_cast<std::uint32_t>(id)]; }
  std::size_t size() const { return names_.size(); }

private:
  InternTable<std::string, std::deque<std::string>> names_;
};

class RationalTable {
public:
  // Interns the canonical form of `q` (the value is canonicalized first).
  Payload intern(const mpq_class& q);
  std::optional<Payload> find(const mpq_class& q) const;
  const mpq_class& value(Payload id) const { return values_[static_cast<std::uint32_t>(id)]; }
  std::size_t size() const { return values_.size(); }

private:
  InternTable<mpq_class, std::deque<mpq_class>> values_;
};

std::uint64_t hash_rational(const mpq_class& q);

} // namespace volta::egraph
