// The bit-vector translation of the bit-permuting integer operations (popc, clz, brev, bfe, bfi,
// prmt, lop3, shf): at many concrete points the Z3 term, simplified, must give exactly what
// eval_bitop gives (the semantics the constant folder, the evaluator and the counterexample runs
// share; tests/emulate's differential test ties it to the emulator), and the prover must decide
// identities built from them.
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <random>
#include <z3++.h>

#include "engine/smt/translate.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

using symbolic::BitOpKind;
using symbolic::IntType;

constexpr IntType kU32{2, false}, kS32{2, true}, kU64{3, false}, kS64{3, true};

class BitPermutationTest : public SmtTest {
protected:
  // The integer view of input element A[i], `width_code` wide: a bit-vector leaf.
  ExprId word(uint32_t i, uint8_t width_code = 2) { return b.float_bits(A(i), width_code); }

  // Checks `node` (an operation on the leaves `operands`, each standing for the value at the
  // same index of a point) against `expected` at `points` points drawn by `draw`.
  template <typename Draw, typename Expect>
  void check_points(ExprId node, const std::vector<ExprId>& operands, Draw draw, Expect expected,
                    int points = 300) {
    auto r = translate_pair(ctx, store, node, node);
    ASSERT_TRUE(std::holds_alternative<Translation>(r))
        << std::get<std::string>(r) << " in " << symbolic::to_sexpr(store, node);
    const Translation& t = std::get<Translation>(r);
    ASSERT_TRUE(t.ref.is_bv());
    const uint32_t w = t.ref.get_sort().bv_size();
    std::mt19937_64 rng(12345);
    for (int k = 0; k < points; ++k) {
      const std::vector<uint64_t> values = draw(rng);
      z3::expr_vector from(ctx), to(ctx);
      for (const auto& [leaf, constant] : t.leaves) {
        for (size_t i = 0; i < operands.size(); ++i) {
          if (operands[i] != leaf)
            continue;
          from.push_back(constant);
          const uint32_t lw = constant.get_sort().bv_size();
          to.push_back(ctx.bv_val(static_cast<uint64_t>(values[i] & symbolic::width_mask(lw)), lw));
        }
      }
      z3::expr root = t.ref; // substitute() is not const
      z3::expr value = root.substitute(from, to).simplify();
      uint64_t got = 0;
      ASSERT_TRUE(value.is_numeral_u64(got)) << value.to_string();
      const std::optional<uint64_t> want = expected(values);
      ASSERT_TRUE(want.has_value());
      ASSERT_EQ(got, *want & symbolic::width_mask(w))
          << symbolic::to_sexpr(store, node) << " at "
          << fmt::format("{:#x}", fmt::join(values, ", "));
    }
  }

  z3::context ctx;
};

// Operand values: full-width random bits, or small numbers (positions, lengths, shift amounts)
// around the interesting edges.
uint64_t any(std::mt19937_64& rng) {
  switch (rng() % 4) {
  case 0:
    return 0;
  case 1:
    return ~uint64_t{0} << (rng() % 64);
  default:
    return rng();
  }
}
uint64_t small(std::mt19937_64& rng) {
  return rng() % 3 == 0 ? rng() : rng() % 72;
}

TEST_F(BitPermutationTest, PopcClzBrevOfEveryWidth) {
  for (IntType type : {kU32, kU64}) {
    const ExprId a = word(0, type.width_code);
    for (BitOpKind kind : {BitOpKind::Popc, BitOpKind::Clz, BitOpKind::Brev}) {
      SCOPED_TRACE(symbolic::bitop_name(kind));
      check_points(
          b.intop(kind, type, a), {a}, [](auto& rng) { return std::vector<uint64_t>{any(rng)}; },
          [&](const std::vector<uint64_t>& v) {
            return symbolic::eval_bitop(kind, type, type.width(),
                                        v[0] & symbolic::width_mask(type.width()), 0, 0, 0);
          });
    }
  }
}

TEST_F(BitPermutationTest, BfeWithSymbolicPositionAndLength) {
  for (IntType type : {kU32, kS32, kU64, kS64}) {
    SCOPED_TRACE(fmt::format("width {} signed {}", type.width(), type.is_signed));
    const ExprId a = word(0, type.width_code), pos = word(1), len = word(2);
    check_points(
        b.intop(BitOpKind::Bfe, type, a, pos, len), {a, pos, len},
        [](auto& rng) {
          return std::vector<uint64_t>{any(rng), small(rng), small(rng)};
        },
        [&](const std::vector<uint64_t>& v) {
          return symbolic::eval_bitop(BitOpKind::Bfe, type, type.width(),
                                      v[0] & symbolic::width_mask(type.width()), v[1] & 0xffffffffu,
                                      v[2] & 0xffffffffu, 0);
        });
  }
}

TEST_F(BitPermutationTest, BfiWithSymbolicPositionAndLength) {
  for (IntType type : {kU32, kU64}) {
    SCOPED_TRACE(fmt::format("width {}", type.width()));
    const ExprId insert = word(0, type.width_code), base = word(1, type.width_code), pos = word(2),
                 len = word(3);
    check_points(
        b.intop(BitOpKind::Bfi, type, insert, base, pos, len), {insert, base, pos, len},
        [](auto& rng) {
          return std::vector<uint64_t>{any(rng), any(rng), small(rng), small(rng)};
        },
        [&](const std::vector<uint64_t>& v) {
          const uint64_t m = symbolic::width_mask(type.width());
          return symbolic::eval_bitop(BitOpKind::Bfi, type, type.width(), v[0] & m, v[1] & m,
                                      v[2] & 0xffffffffu, v[3] & 0xffffffffu);
        });
  }
}

TEST_F(BitPermutationTest, PrmtWithSymbolicSelector) {
  const ExprId a = word(0), x = word(1), sel = word(2);
  check_points(
      b.intop(BitOpKind::Prmt, kU32, a, x, sel), {a, x, sel},
      [](auto& rng) {
        return std::vector<uint64_t>{any(rng), any(rng), rng() & 0xffffffffu};
      },
      [&](const std::vector<uint64_t>& v) {
        return symbolic::eval_bitop(BitOpKind::Prmt, kU32, 32, v[0] & 0xffffffffu,
                                    v[1] & 0xffffffffu, v[2] & 0xffffffffu, 0);
      });
}

TEST_F(BitPermutationTest, Lop3WithEveryTable) {
  const ExprId x = word(0), y = word(1), z = word(2);
  for (uint32_t table : {0x00u, 0xffu, 0x96u, 0xe8u, 0x3cu, 0xf0u, 0x80u, 0x1u, 0x6au}) {
    SCOPED_TRACE(fmt::format("table {:#x}", table));
    check_points(
        b.intop(BitOpKind::Lop3, kU32, x, y, z, b.int_const(table, 2)), {x, y, z},
        [](auto& rng) {
          return std::vector<uint64_t>{any(rng), any(rng), any(rng)};
        },
        [&](const std::vector<uint64_t>& v) {
          return symbolic::eval_bitop(BitOpKind::Lop3, kU32, 32, v[0] & 0xffffffffu,
                                      v[1] & 0xffffffffu, v[2] & 0xffffffffu, table);
        },
        40);
  }
  // A table that is itself data.
  const ExprId table = word(3);
  check_points(
      b.intop(BitOpKind::Lop3, kU32, x, y, z, table), {x, y, z, table},
      [](auto& rng) {
        return std::vector<uint64_t>{any(rng), any(rng), any(rng), rng() & 0xffffffffu};
      },
      [&](const std::vector<uint64_t>& v) {
        return symbolic::eval_bitop(BitOpKind::Lop3, kU32, 32, v[0] & 0xffffffffu,
                                    v[1] & 0xffffffffu, v[2] & 0xffffffffu, v[3] & 0xffffffffu);
      });
}

TEST_F(BitPermutationTest, FunnelShiftsWrapAndClamp) {
  const ExprId lo = word(0), hi = word(1), amount = word(2);
  for (BitOpKind kind : {BitOpKind::ShfL, BitOpKind::ShfR}) {
    for (uint64_t wrap : {0u, 1u}) {
      SCOPED_TRACE(fmt::format("{} wrap {}", symbolic::bitop_name(kind), wrap));
      check_points(
          b.intop(kind, kU32, lo, hi, amount, b.int_const(wrap, 3)), {lo, hi, amount},
          [](auto& rng) {
            return std::vector<uint64_t>{any(rng), any(rng), small(rng)};
          },
          [&](const std::vector<uint64_t>& v) {
            return symbolic::eval_bitop(kind, kU32, 32, v[0] & 0xffffffffu, v[1] & 0xffffffffu,
                                        v[2] & 0xffffffffu, wrap);
          });
    }
  }
}

ExprId u32(symbolic::Builder& b, uint64_t v) {
  return b.int_const(v, 2);
}

TEST_F(BitPermutationTest, PopcOfTheComplementIsDecided) {
  const ExprId a = word(0);
  // popc(a) = 32 - popc(~a)
  const ExprId popc = b.intop(BitOpKind::Popc, kU32, a);
  const ExprId complement = b.iadd(
      u32(b, 32), b.ineg(b.intop(BitOpKind::Popc, kU32, b.intop(BitOpKind::Not, kU32, a)), 2), 2);
  auto out = decide(popc, complement);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  out = decide(popc, b.intop(BitOpKind::Clz, kU32, a));
  EXPECT_EQ(out.kind, Kind::NotEquivalent) << out.reason;
}

TEST_F(BitPermutationTest, PermutationIdentitiesAreDecided) {
  const ExprId a = word(0), x = word(1), z = word(2);
  // prmt(a, x, 0x3210) = a; brev(brev(a)) = a; bfe.u32(a, 0, 8) = a & 0xff;
  // lop3 with table 0x96 = a ^ x ^ z.
  auto out = decide(b.intop(BitOpKind::Prmt, kU32, a, x, u32(b, 0x3210)), a);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  out = decide(b.intop(BitOpKind::Brev, kU32, b.intop(BitOpKind::Brev, kU32, a)), a);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  out = decide(b.intop(BitOpKind::Bfe, kU32, a, u32(b, 0), u32(b, 8)),
               b.intop(BitOpKind::And, kU32, a, u32(b, 0xff)));
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  out = decide(b.intop(BitOpKind::Lop3, kU32, a, x, z, u32(b, 0x96)),
               b.intop(BitOpKind::Xor, kU32, b.intop(BitOpKind::Xor, kU32, a, x), z));
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
}

TEST_F(BitPermutationTest, DifferentPermutationsAreRefuted) {
  const ExprId a = word(0), x = word(1);
  // a bfe.s32 vs its unsigned form; prmt 0x3210 vs 0x0123.
  auto out = decide(b.intop(BitOpKind::Bfe, kS32, a, u32(b, 4), u32(b, 8)),
                    b.intop(BitOpKind::Bfe, kU32, a, u32(b, 4), u32(b, 8)));
  EXPECT_EQ(out.kind, Kind::NotEquivalent) << out.reason;
  out = decide(b.intop(BitOpKind::Prmt, kU32, a, x, u32(b, 0x3210)),
               b.intop(BitOpKind::Prmt, kU32, a, x, u32(b, 0x0123)));
  EXPECT_EQ(out.kind, Kind::NotEquivalent) << out.reason;
}

TEST_F(BitPermutationTest, DomainOfTheThirdOperandIsKept) {
  // bfe(a, 0, x / y): the length is an integer division, undefined for y = 0.
  const ExprId a = word(0), x = word(1), y = word(2);
  const ExprId len = b.intop(BitOpKind::Div, kU32, x, y);
  auto r = translate_pair(ctx, store, b.intop(BitOpKind::Bfe, kU32, a, b.int_const(0, 2), len), a);
  ASSERT_TRUE(std::holds_alternative<Translation>(r)) << std::get<std::string>(r);
  EXPECT_TRUE(std::get<Translation>(r).ref_defined.has_value());
}

} // namespace
} // namespace volta::smt::testing
