#include "egraph/interner.hpp"

#include "egraph/hash.hpp"

namespace volta::egraph {

namespace {
// Not finished: InternTable finishes every hash it indexes.
std::uint64_t hash_string(std::string_view s) {
  return hash_bytes(0x5bd1e995, s.data(), s.size());
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
  if (auto hit = names_.find(h, [&](const std::string& stored) { return stored == name; }))
    return *hit;
  return names_.insert(h, std::string(name));
}

std::optional<Payload> SymbolTable::find(std::string_view name) const {
  if (auto hit =
          names_.find(hash_string(name), [&](const std::string& stored) { return stored == name; }))
    return Payload{*hit};
  return std::nullopt;
}

Payload RationalTable::intern(const mpq_class& q_in) {
  mpq_class q = q_in;
  q.canonicalize();
  const auto h = hash_rational(q);
  if (auto hit = values_.find(h, [&](const mpq_class& stored) { return stored == q; }))
    return *hit;
  return values_.insert(h, std::move(q));
}

std::optional<Payload> RationalTable::find(const mpq_class& q_in) const {
  mpq_class q = q_in;
  q.canonicalize();
  if (auto hit =
          values_.find(hash_rational(q), [&](const mpq_class& stored) { return stored == q; }))
    return Payload{*hit};
  return std::nullopt;
}

} // namespace volta::egraph
