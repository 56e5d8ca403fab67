// atom.inc / atom.dec with one limit on a counter that holds data: every
// contribution applies the same function f, so the final value is f^n(x) whatever the order.
// The engine builds it as one term (engine/exec/pending_atomics.cpp); here that term, evaluated
// exactly, must equal n applications of the PTX definition for every small start value,
// including starts above the limit and the wrap-around at 2^32.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

uint32_t apply(bool inc, uint32_t v, uint32_t limit, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (inc)
      v = v >= limit ? 0 : v + 1; // PTX atom.inc
    else
      v = v == 0 || v > limit ? limit : v - 1; // PTX atom.dec
  }
  return v;
}

std::string kernel_text(bool inc, uint32_t limit) {
  return kernel(".param .u64 p_c", "  ld.param.u64 %rd0, [p_c];\n  atom.global." +
                                       std::string(inc ? "inc" : "dec") + ".u32 %r1, [%rd0], " +
                                       std::to_string(limit) + ";\n  ret;");
}

TEST(AtomicWrap, ClosedFormIsRepeatedApplication) {
  for (const bool inc : {true, false}) {
    for (const uint32_t limit : {0u, 1u, 5u, 100u, 0xfffffffeu, 0xffffffffu}) {
      for (const uint32_t threads : {1u, 3u, 32u}) {
        Launch l;
        l.block = {threads, 1, 1};
        l.arrays = {"c:0x100000:4:1:inout:u32"};
        l.params = {"ptr:c"};
        const auto r = run_ptx(kernel_text(inc, limit), l);
        ASSERT_EQ(r.failure(), nullptr) << r.describe();
        const auto e = r.element("c", 0);
        ASSERT_TRUE(e.has_value());
        const auto& s = *r.store;
        for (const uint64_t start : {0ull, 1ull, 4ull, 5ull, 6ull, 31ull, 99ull, 100ull, 101ull,
                                     0xfffffff0ull, 0xfffffffeull, 0xffffffffull}) {
          SCOPED_TRACE(fmt::format("{} limit {} threads {} start {}", inc ? "inc" : "dec", limit,
                                   threads, start));
          symbolic::Assignment a;
          for (ExprId leaf : symbolic::leaves_below(s, {*e}))
            a.values[symbolic::Assignment::key_of(s, leaf)] = Rational(std::to_string(start));
          symbolic::Evaluator ev(s, a);
          const auto v = ev.eval(*e);
          ASSERT_EQ(v.kind, symbolic::EvalValue::Kind::Exact) << symbolic::to_sexpr(s, *e, 400);
          mpz_class u = v.exact.get_num() % (mpz_class(1) << 32);
          if (u < 0)
            u += mpz_class(1) << 32;
          EXPECT_EQ(u.get_str(),
                    std::to_string(apply(inc, static_cast<uint32_t>(start), limit, threads)));
        }
      }
    }
  }
}

// Different limits on one location are different functions, which do not commute: refused.
TEST(AtomicWrap, DifferentLimitsOnOneLocationAreRefused) {
  Launch l;
  l.block = {2, 1, 1};
  l.arrays = {"c:0x100000:4:1:inout:u32"};
  l.params = {"ptr:c"};
  const std::string text = kernel(".param .u64 p_c", R"(
  ld.param.u64 %rd0, [p_c];
  mov.u32 %r2, %tid.x;
  add.u32 %r3, %r2, 4;
  atom.global.inc.u32 %r1, [%rd0], %r3;
  ret;)");
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("different limits"), std::string::npos)
      << r.failure()->message;
}

} // namespace
} // namespace volta::etest
