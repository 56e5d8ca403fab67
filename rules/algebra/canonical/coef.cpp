#include "rules/algebra/canonical/coef.hpp"

#include <numeric>

namespace volta::canonical {

namespace {

__int128 gcd128(__int128 a, __int128 b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b != 0) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

mpq_class to_mpq_i128(__int128 n, __int128 d) {
  auto to_mpz = [](__int128 v) {
    const bool neg = v < 0;
    unsigned __int128 u =
        neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
    mpz_class hi(static_cast<unsigned long>(static_cast<uint64_t>(u >> 64)));
    mpz_class lo(static_cast<unsigned long>(static_cast<uint64_t>(u)));
    mpz_class z = (hi << 64) + lo;
    return neg ? mpz_class(-z) : z;
  };
  mpq_class q(to_mpz(n), to_mpz(d));
  q.canonicalize();
  return q;
}

} // namespace

Coef::Coef(const mpq_class& q) {
  if (mpz_fits_slong_p(q.get_num_mpz_t()) && mpz_fits_slong_p(q.get_den_mpz_t())) {
    num_ = mpz_get_si(q.get_num_mpz_t());
    den_ = mpz_get_si(q.get_den_mpz_t());
    if (num_ != INT64_MIN && den_ != INT64_MIN)
      return;
  }
  big_ = std::make_shared<const mpq_class>(q);
}

Coef Coef::ratio(int64_t n, int64_t d) {
  return from_i128(n, d);
}

Coef Coef::from_i128(__int128 n, __int128 d) {
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const __int128 g = gcd128(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  Coef c;
  if (n > INT64_MIN && n <= INT64_MAX && d <= INT64_MAX) {
    c.num_ = static_cast<int64_t>(n);
    c.den_ = static_cast<int64_t>(d);
    return c;
  }
  c.big_ = std::make_shared<const mpq_class>(to_mpq_i128(n, d));
  return c;
}

int Coef::sign() const {
  if (big_)
    return sgn(*big_);
  return num_ > 0 ? 1 : (num_ < 0 ? -1 : 0);
}

mpq_class Coef::to_mpq() const {
  if (big_)
    return *big_;
  mpq_class q{mpz_class(static_cast<long>(num_)), mpz_class(static_cast<long>(den_))};
  q.canonicalize();
  return q;
}

std::string Coef::to_string() const {
  if (big_)
    return big_->get_str();
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

uint64_t Coef::hash() const {
  if (!big_)
    return static_cast<uint64_t>(num_) * 0x9E3779B97F4A7C15ull ^
           static_cast<uint64_t>(den_) * 0xC2B2AE3D27D4EB4Full;
  // Big values never equal small ones (the representation is canonical), so any hash works.
  return std::hash<std::string>{}(big_->get_str());
}

Coef operator+(const Coef& a, const Coef& b) {
  if (!a.big_ && !b.big_) {
    if (a.den_ == b.den_)
      return Coef::from_i128(static_cast<__int128>(a.num_) + b.num_, a.den_);
    return Coef::from_i128(static_cast<__int128>(a.num_) * b.den_ +
                               static_cast<__int128>(b.num_) * a.den_,
                           static_cast<__int128>(a.den_) * b.den_);
  }
  return Coef(a.to_mpq() + b.to_mpq());
}

Coef operator-(const Coef& a, const Coef& b) {
  return a + (-b);
}

Coef operator*(const Coef& a, const Coef& b) {
  if (!a.big_ && !b.big_) {
    return Coef::from_i128(static_cast<__int128>(a.num_) * b.num_,
                           static_cast<__int128>(a.den_) * b.den_);
  }
  return Coef(a.to_mpq() * b.to_mpq());
}

Coef operator/(const Coef& a, const Coef& b) {
  if (!a.big_ && !b.big_) {
    return Coef::from_i128(static_cast<__int128>(a.num_) * b.den_,
                           static_cast<__int128>(a.den_) * b.num_);
  }
  return Coef(a.to_mpq() / b.to_mpq());
}

Coef Coef::operator-() const {
  if (!big_ && num_ != INT64_MIN) {
    Coef c;
    c.num_ = -num_;
    c.den_ = den_;
    return c;
  }
  return Coef(mpq_class(-to_mpq()));
}

bool operator==(const Coef& a, const Coef& b) {
  if (!a.big_ && !b.big_)
    return a.num_ == b.num_ && a.den_ == b.den_;
  if (a.big_ && b.big_)
    return *a.big_ == *b.big_;
  return false; // canonical: a value has one representation
}

bool operator<(const Coef& a, const Coef& b) {
  if (!a.big_ && !b.big_)
    return static_cast<__int128>(a.num_) * b.den_ < static_cast<__int128>(b.num_) * a.den_;
  return a.to_mpq() < b.to_mpq();
}

} // namespace volta::canonical
