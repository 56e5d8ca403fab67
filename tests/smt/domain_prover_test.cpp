// Z3 for domain obligations (engine/smt/z3_fallback.hpp, make_z3_domain_prover): an obligation
// that follows from the reference's assumptions only by arithmetic is discharged by the solver,
// and one that does not follow is not.
#include <gtest/gtest.h>

#include "engine/prove/domain_conditions.hpp"
#include "engine/smt/z3_fallback.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::smt {
namespace {

using symbolic::ExprId;
using symbolic::Op;

TEST(DomainProver, DischargesWhatTheAssumptionsImplyByArithmetic) {
  symbolic::ExprStore store;
  symbolic::Builder b(store);
  const uint32_t x = store.add_array_name("x");
  const ExprId y = store.input(x, 0), v = store.input(x, 1);
  // The reference takes sqrt(y) (assumes y >= 0); the optimized kernel divides by y + 1.
  const ExprId root = b.unary(Op::Sqrt, y);
  const ExprId quotient = b.div(v, b.add(y, store.constant(1)));
  exec::KernelRun ref_run, opt_run;
  ref_run.partial_sites[root] = {};
  opt_run.partial_sites[quotient] = {};
  const prove::DomainSide spec{"reference", {{"out[0]", root}}, &ref_run};
  const prove::DomainSide checked{"optimized", {{"out[0]", quotient}}, &opt_run};
  const prove::DomainProver z3 = make_z3_domain_prover(10'000);
  const prove::DomainOutcome o =
      prove::check_refinement(store, spec, checked, nullptr, &store, &z3);
  EXPECT_EQ(o.summary.by_z3, 1u);
  EXPECT_EQ(o.summary.undecided, 0u);
  EXPECT_EQ(o.solver_queries, 1u);

  // Without the reference's sqrt, nothing implies y + 1 != 0: not discharged (and the random
  // search finds y = -1).
  exec::KernelRun plain_run;
  const prove::DomainSide plain{"reference", {{"out[0]", v}}, &plain_run};
  const prove::DomainOutcome p =
      prove::check_refinement(store, plain, checked, nullptr, &store, &z3);
  EXPECT_EQ(p.summary.by_z3, 0u);
  EXPECT_EQ(p.summary.failed, 1u);
}

} // namespace
} // namespace volta::smt
