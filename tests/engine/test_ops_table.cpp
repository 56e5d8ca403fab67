// The operator table (engine/symbolic/ops.def): the printed names reports and tests depend on,
// and the columns the engine reads instead of a switch.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/symbolic/expr.hpp"

namespace volta::etest {
namespace {

using symbolic::kOpCount;
using symbolic::kOps;
using symbolic::Op;
using symbolic::OpSort;

Op op_at(size_t i) {
  return static_cast<Op>(i);
}

// The names op_name printed before the table existed, in the operators' order (which is also
// the operator code of DAG archives): a change here changes reports and archives.
TEST(OpsTable, PrintedNamesAndOrderAreUnchanged) {
  const char* const before[] = {
      "const",  "input", "param",   "undef", "inf",        "-inf",       "bits", "ln2",
      "add",    "sub",   "mul",     "div",   "fma",        "neg",        "abs",  "min",
      "max",    "rcp",   "sqrt",    "rsqrt", "exp",        "ex2",        "lg2",  "sin",
      "cos",    "tanh",  "narrow",  "cmp",   "and",        "or",         "xor",  "not",
      "select", "pack",  "extract", "bitop", "atomic-old", "iadd",       "imul", "ineg",
      "icmp",   "i2r",   "r2i",     "round", "float-bits", "bits-float", "fresh"};
  ASSERT_GE(kOpCount, std::size(before));
  for (size_t i = 0; i < std::size(before); ++i)
    EXPECT_STREQ(symbolic::op_name(op_at(i)), before[i]) << "operator code " << i;
  EXPECT_EQ(static_cast<size_t>(Op::Lg2), 22u);
  EXPECT_EQ(static_cast<size_t>(Op::Fresh), 46u);
  // DAG archives keep the operator in 7 bits.
  EXPECT_LE(kOpCount, 128u);
}

TEST(OpsTable, NamesAreUniqueAndEveryOperatorHasOne) {
  std::set<std::string> printed;
  for (size_t i = 0; i < kOpCount; ++i) {
    EXPECT_NE(std::string(kOps[i].printed), "") << i;
    EXPECT_TRUE(printed.insert(kOps[i].printed).second) << kOps[i].printed;
  }
}

// The columns that replaced switches and operator ranges: what the engine decided before.
TEST(OpsTable, ColumnsAgreeWithWhatTheEngineDecided) {
  for (size_t i = 0; i < kOpCount; ++i) {
    const Op op = op_at(i);
    const bool float_op = op >= Op::Add && op <= Op::Narrow; // the range the code used
    EXPECT_EQ(symbolic::has_float_mods(op), float_op) << symbolic::op_name(op);
    if (float_op)
      EXPECT_EQ(symbolic::sort_of(op), OpSort::Real) << symbolic::op_name(op);
    EXPECT_EQ(symbolic::is_leaf(op), symbolic::arity(op) == 0);
    EXPECT_EQ(symbolic::child_count(op), symbolic::arity(op));
    EXPECT_LE(symbolic::arity(op), 3);
  }
  const std::set<Op> partial = {Op::Div, Op::Rcp, Op::Sqrt, Op::Rsqrt, Op::Lg2, Op::BitOp};
  const std::set<Op> liftable = {Op::Exp, Op::Ex2, Op::Lg2, Op::Tanh, Op::Select};
  for (size_t i = 0; i < kOpCount; ++i) {
    EXPECT_EQ(symbolic::is_partial(op_at(i)), partial.count(op_at(i)) == 1) << i;
    EXPECT_EQ(symbolic::liftable(op_at(i)), liftable.count(op_at(i)) == 1) << i;
  }
  EXPECT_EQ(symbolic::arity(Op::Pack), 2);    // both halves are nodes
  EXPECT_EQ(symbolic::arity(Op::Extract), 1); // b is a width
  EXPECT_EQ(symbolic::arity(Op::BitOp), 3);
  EXPECT_EQ(symbolic::sort_of(Op::ICmp), OpSort::Pred);
  EXPECT_EQ(symbolic::sort_of(Op::FloatBits), OpSort::Int);
  EXPECT_EQ(symbolic::sort_of(Op::Select), OpSort::Neutral);
}

} // namespace
} // namespace volta::etest
