// Linked into the test programs of the e-graph, the rules and the prover: every rebuild() of
// every e-graph they build checks all of the e-graph's invariants (congruence closure, canonical
// hashcons, parent lists, ...) in every build, NDEBUG or not, and throws on a violation.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"

namespace {

class InvariantChecks : public ::testing::Environment {
public:
  void SetUp() override { volta::egraph::EGraph::set_invariant_checks(true); }
};

[[maybe_unused]] ::testing::Environment* const invariant_checks =
    ::testing::AddGlobalTestEnvironment(new InvariantChecks);

} // namespace
