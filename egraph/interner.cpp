#include "egraph/interner.hpp"

#include "egraph/hash.hpp"

namespace volta::egraph {

namespace {
std::uint64_t hash_string(std::string_view s) {
  return hash_finish(hash_bytes(0x5bd1e995, s.data(), s.size()));
}
std::uint64_t hash_mpz(std::uint64_t h, mpz_srcptr z) {
  const auto n = mpz_size(z);
  h = hash_combine(h, static_cast<std::uint64_t>(mpz_sgn(z)) + n);
  for (std::size_t i = 0; i < n; ++i)
    h = hash_combine(h, mpz_getlimbn(z, static_cast<mp_size_t>(i)));
  return h;
}
} // namespace

std::uint64_t hash_rational(const mpq_class& q) {
  return hash_finish(hash_mpz(hash_mpz(0x2545f491, q.get_num_mpz_t()), q.get_den_mpz_t()));
}

Payload SymbolTable::intern(std::string_view name) {
  const auto h = hash_string(name);
  if (auto hit = index_.find(h, [&](std::uint32_t e) { return names_[e] == name; }))
    return *hit;
  const auto id = static_cast<std::uint32_t>(names_.size());
  names_.emplace_back(name);
  index_.insert(h, id);
  return id;
}

std::optional<Payload> SymbolTable::find(std::string_view name) const {
  const auto h = hash_string(name);
  if (auto hit = index_.find(h, [&](std::uint32_t e) { return names_[e] == name; }))
    return Payload{*hit};
  return std::nullopt;
}

Payload RationalTable::intern(const mpq_class& q_in) {
  mpq_class q = q_in;
  q.canonicalize();
  const auto h = hash_rational(q);
  if (auto hit = index_.find(h, [&](std::uint32_t e) { return values_[e] == q; }))
    return *hit;
  const auto id = static_cast<std::uint32_t>(values_.size());
  values_.push_back(std::move(q));
  index_.insert(h, id);
  return id;
}

std::optional<Payload> RationalTable::find(const mpq_class& q_in) const {
  mpq_class q = q_in;
  q.canonicalize();
  const auto h = hash_rational(q);
  if (auto hit = index_.find(h, [&](std::uint32_t e) { return values_[e] == q; }))
    return Payload{*hit};
  return std::nullopt;
}

} // namespace volta::egraph
