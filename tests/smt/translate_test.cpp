// The translation: exact constants, names, refusals, domain conditions, deep chains.
#include <algorithm>
#include <z3++.h>

#include "engine/smt/translate.hpp"
#include "engine/symbolic/printer.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

class TranslateTest : public SmtTest {
protected:
  std::variant<Translation, std::string> run(ExprId ref, ExprId opt) {
    return translate_pair(ctx, store, ref, opt);
  }
  z3::context ctx;
};

TEST_F(TranslateTest, ConstantsAreExactRationalNumerals) {
  // 0f3DCCCCCD is the f32 nearest to 0.1: a dyadic rational, not 1/10.
  const ExprId tenth = *store.float_bits(0x3DCCCCCD, 32);
  auto r = run(q(1, 3), tenth);
  ASSERT_TRUE(std::holds_alternative<Translation>(r));
  auto& t = std::get<Translation>(r);
  EXPECT_EQ(Z3_get_numeral_string(ctx, t.ref), std::string("1/3"));
  EXPECT_EQ(Z3_get_numeral_string(ctx, t.opt), std::string("13421773/134217728"));
}

TEST_F(TranslateTest, LeavesAreNamedLikeThePrinter) {
  auto r = run(b.add(A(17), alpha()), B(2));
  ASSERT_TRUE(std::holds_alternative<Translation>(r));
  auto& t = std::get<Translation>(r);
  std::vector<std::string> names;
  for (auto& [leaf, e] : t.leaves)
    names.push_back(e.decl().name().str());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"A[17]", "B[2]", "alpha"}));
}

TEST_F(TranslateTest, ClashingNamesStayDistinctConstants) {
  // A parameter spelled like an input element, and one spelled like a function.
  const ExprId fake = store.param(store.add_param_name("A[0]"));
  const ExprId exp_param = store.param(store.add_param_name("exp"));
  auto out = decide(A(0), fake);
  EXPECT_EQ(out.kind, Kind::NotEquivalent) << out.reason;
  out = decide(exp(c(1)), exp_param);
  EXPECT_NE(out.kind, Kind::Equivalent);
}

TEST_F(TranslateTest, RefusesValuesThatAreNotReals) {
  const std::vector<ExprId> refused = {
      b.add(A(0), store.pos_inf()),
      b.sub(A(0), store.neg_inf()),
      b.mul(A(0), store.undef(12)),
      b.add(A(0), store.raw_bits(0x3f800000, 32)),
      b.bits_float(b.intop(symbolic::BitOpKind::Shl, symbolic::IntType{2, false},
                           b.float_bits(b.add(A(0), A(1)), 2), b.int_const(23, 2)),
                   2),
      b.extract(A(0), 0, 16),
      b.pack(A(0), A(1), 16),
      b.add(A(0), store.intern(symbolic::Node{Op::AtomicResult, 0, 0, 7, 0, 0})),
  };
  for (ExprId e : refused) {
    auto r = run(e, A(0));
    ASSERT_TRUE(std::holds_alternative<std::string>(r)) << symbolic::to_sexpr(store, e);
    EXPECT_NE(std::get<std::string>(r).find("unsupported by the Z3 translation"),
              std::string::npos);
    const auto out = decide(e, A(0));
    EXPECT_EQ(out.kind, Kind::Unknown);
    EXPECT_NE(out.reason.find("unsupported by the Z3 translation"), std::string::npos)
        << out.reason;
  }
}

TEST_F(TranslateTest, DomainConditionsFollowTheTakenBranch) {
  const ExprId quotient = b.div(A(0), A(1));
  auto r = run(quotient, A(0));
  auto& t = std::get<Translation>(r);
  ASSERT_TRUE(t.ref_defined.has_value());
  EXPECT_FALSE(t.opt_defined.has_value());
  EXPECT_EQ(t.divisions, 1u);

  // select(A1 > 0, A0/A1, 0): the condition mentions the branch.
  const ExprId guarded = b.select(b.cmp(symbolic::CmpKind::Gt, A(1), c(0)), quotient, c(0));
  auto r2 = run(guarded, A(0));
  auto& t2 = std::get<Translation>(r2);
  ASSERT_TRUE(t2.ref_defined.has_value());
  EXPECT_TRUE(t2.ref_defined->is_app() && t2.ref_defined->decl().decl_kind() == Z3_OP_ITE);
}

TEST_F(TranslateTest, Ex2IsExpOfXTimesLn2) {
  auto r = run(b.unary(Op::Ex2, A(0)), store.intern(symbolic::Node{Op::Ln2}));
  auto& t = std::get<Translation>(r);
  ASSERT_TRUE(t.ln2.has_value());
  ASSERT_EQ(t.uses.size(), 1u);
  EXPECT_EQ(t.uses[0].fn, Fn::Exp);
  EXPECT_TRUE(z3::eq(t.opt, *t.ln2));
  EXPECT_TRUE(z3::eq(t.uses[0].arg, t.leaves[0].second * *t.ln2));
}

TEST_F(TranslateTest, LongReductionChainsBecomeOneSum) {
  // A 3000-step fma chain (the shape of a dot product) in two orders.
  constexpr int kSteps = 3000;
  ExprId forward = c(0), backward = c(0);
  for (int i = 0; i < kSteps; ++i)
    forward = b.fma(A(i), B(i), forward);
  for (int i = kSteps - 1; i >= 0; --i)
    backward = b.fma(B(i), A(i), backward);
  auto r = run(forward, backward);
  auto& t = std::get<Translation>(r);
  ASSERT_TRUE(t.ref.is_app());
  EXPECT_EQ(t.ref.decl().decl_kind(), Z3_OP_ADD);
  EXPECT_EQ(t.ref.num_args(), static_cast<unsigned>(kSteps + 1)); // + the initial 0
  const auto out = decide(forward, backward, 60'000);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
}

TEST_F(TranslateTest, SharedSubtermsAreTranslatedOnce) {
  // A diamond DAG of depth 40 has 2^40 paths but 80 nodes.
  ExprId x = A(0);
  for (int i = 0; i < 40; ++i)
    x = b.mul(b.add(x, c(1)), b.sub(x, c(1)));
  auto r = run(x, A(1));
  auto& t = std::get<Translation>(r);
  EXPECT_LE(t.dag_nodes, 200u);
}

TEST_F(TranslateTest, RefusesElementsOverTheNodeLimit) {
  ExprId x = A(0);
  for (int i = 1; i < 100; ++i)
    x = b.mul(x, A(i));
  auto r = translate_pair(ctx, store, x, A(0), TranslateOptions{50});
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("more than 50"), std::string::npos);
}

} // namespace
} // namespace volta::smt::testing
