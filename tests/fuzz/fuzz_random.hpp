// The fuzzer's source of randomness: one 64-bit generator per pair, seeded from (seed, pair
// index), so that any pair of a run can be regenerated alone.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace volta::pair_fuzz {

class Rng {
public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  // The generator of pair `index` of a run with `seed`.
  static Rng for_pair(uint64_t seed, uint64_t index) {
    return Rng(mix(seed * 0x9E3779B97F4A7C15ull + index + 1));
  }
  static uint64_t mix(uint64_t x) { // splitmix64
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }

  uint64_t next() { return g_(); }
  // Uniform in [0, n) (n > 0).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(g_() % n); }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(g_() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(g_) < p; }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g_); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
  // An index drawn with the given weights.
  size_t weighted(const std::vector<double>& w) {
    double total = 0;
    for (double x : w)
      total += x;
    double r = real(0, total);
    for (size_t i = 0; i < w.size(); ++i) {
      if (r < w[i])
        return i;
      r -= w[i];
    }
    return w.size() - 1;
  }

private:
  std::mt19937_64 g_;
};

} // namespace volta::pair_fuzz
