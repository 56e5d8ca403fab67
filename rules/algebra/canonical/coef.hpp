// An exact rational coefficient with a fast path: small numerators and denominators live in two
// 64-bit integers; anything larger moves to GMP. Canonical forms create millions of
// coefficients (a 4096-term reduction per element), almost all small.
#pragma once

#include <cstdint>
#include <gmpxx.h>
#include <memory>
#include <string>

namespace volta::canonical {

class Coef {
public:
  Coef() = default;
  Coef(int64_t n) : num_(n) {} // NOLINT(google-explicit-constructor): integers are coefficients
  explicit Coef(const mpq_class& q);

  static Coef ratio(int64_t n, int64_t d);

  bool is_zero() const { return !big_ && num_ == 0; }
  bool is_one() const { return !big_ && num_ == 1 && den_ == 1; }
  int sign() const;
  mpq_class to_mpq() const;
  std::string to_string() const;
  uint64_t hash() const;

  friend Coef operator+(const Coef& a, const Coef& b);
  friend Coef operator-(const Coef& a, const Coef& b);
  friend Coef operator*(const Coef& a, const Coef& b);
  friend Coef operator/(const Coef& a, const Coef& b); // b must be nonzero
  Coef operator-() const;
  Coef& operator+=(const Coef& b) { return *this = *this + b; }
  friend bool operator==(const Coef& a, const Coef& b);
  friend bool operator<(const Coef& a, const Coef& b);

private:
  static Coef from_i128(__int128 n, __int128 d);
  void normalize_big();

  int64_t num_ = 0;
  int64_t den_ = 1;
  std::shared_ptr<const mpq_class> big_; // set when the value does not fit the fast path
};

} // namespace volta::canonical
