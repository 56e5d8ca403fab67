// The operator table (engine/symbolic/ops.def): the printed names reports and tests depend on,
// the columns the engine reads instead of a switch, and the ML words the e-graph bridge and the
// rule printer take from it, which must be words of the rules' ML language.
#include <gtest/gtest.h>
#include <set>
#include <string>

#include "egraph/egraph.hpp"
#include "engine/prove/egraph_bridge.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::etest {
namespace {

using symbolic::kOpCount;
using symbolic::kOps;
using symbolic::Op;
using symbolic::OpInfo;
using symbolic::OpNumber;
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
  std::set<std::string> printed, ml;
  for (size_t i = 0; i < kOpCount; ++i) {
    EXPECT_NE(std::string(kOps[i].printed), "") << i;
    EXPECT_TRUE(printed.insert(kOps[i].printed).second) << kOps[i].printed;
    if (*kOps[i].ml != '\0') {
      EXPECT_TRUE(ml.insert(kOps[i].ml).second) << kOps[i].ml;
    }
  }
}

// The columns that replaced switches and operator ranges: what the engine decided before.
TEST(OpsTable, ColumnsAgreeWithWhatTheEngineDecided) {
  for (size_t i = 0; i < kOpCount; ++i) {
    const Op op = op_at(i);
    const bool float_op = op >= Op::Add && op <= Op::Narrow; // the range the code used
    EXPECT_EQ(symbolic::has_float_mods(op), float_op) << symbolic::op_name(op);
    if (float_op) {
      EXPECT_EQ(symbolic::sort_of(op), OpSort::Real) << symbolic::op_name(op);
    }
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

// Each ML word of the table is an operator of the ML language with room for the node's
// children: the bridge reads the word here, so a rename on either side fails here first.
TEST(OpsTable, MlWordsAreWordsOfTheMlLanguage) {
  const algebra::MlLanguage ml = algebra::make_ml_language();
  size_t words = 0;
  for (size_t i = 0; i < kOpCount; ++i) {
    const char* word = kOps[i].ml;
    if (*word == '\0')
      continue;
    ++words;
    const auto id = ml.lang.find_op(word);
    ASSERT_TRUE(id.has_value()) << word;
    const int arity = ml.lang.op(*id).arity;
    EXPECT_TRUE(arity == egraph::kVariadic || arity == kOps[i].children) << word;
  }
  EXPECT_GE(words, 20u);
  // One name for the base-2 logarithm in the rules: the ML language's (docs/rules.md).
  EXPECT_STREQ(symbolic::ml_name(Op::Lg2), "log2");
  EXPECT_STREQ(symbolic::op_name(Op::Lg2), "lg2");
}

// The `number` column: a float instruction reads a register holding the node as its value only
// when the node is a number. Bit-level views (opaque taint) and integer results never are, a
// constant only when it came out of float data.
TEST(OpsTable, OnlyNumbersAreReadAsFloatsWithoutAConversion) {
  for (size_t i = 0; i < symbolic::kOpCount; ++i) {
    const OpInfo& row = kOps[i];
    if ((row.own_taint & symbolic::kTaintOpaque) != 0 || row.sort == OpSort::Int) {
      EXPECT_EQ(row.number, OpNumber::Never) << row.printed;
    }
  }
  EXPECT_EQ(kOps[static_cast<size_t>(Op::Const)].number, OpNumber::FromFloat);
  EXPECT_EQ(kOps[static_cast<size_t>(Op::RawBits)].number, OpNumber::Never);
  EXPECT_EQ(kOps[static_cast<size_t>(Op::Add)].number, OpNumber::Always);
  EXPECT_EQ(kOps[static_cast<size_t>(Op::Input)].number, OpNumber::Always);
}

// The bridge gives lg2(x) the ML language's log2, and the leaves ln2, inf their ML leaves.
TEST(OpsTable, TheBridgeReadsTheMlWordsFromTheTable) {
  symbolic::ExprStore store;
  symbolic::Builder b(store);
  store.add_array_name("A");
  const symbolic::ExprId x = store.input(0, 0);
  const symbolic::ExprId log = b.unary(Op::Lg2, x);
  const symbolic::ExprId sqrt = b.unary(Op::Sqrt, store.intern(symbolic::Node{Op::Ln2}));
  algebra::MlLanguage ml = algebra::make_ml_language();
  egraph::EGraph g(ml.lang);
  prove::EgraphBridge bridge(store, ml, g);
  bridge.count_parents({log, sqrt});
  const egraph::Id got = bridge.add(log);
  EXPECT_TRUE(g.is_equal(got, g.add(ml.log2, {g.add_symbol("A[0]")})));
  const egraph::Id root = bridge.add(sqrt);
  EXPECT_TRUE(g.is_equal(root, g.add(ml.sqrt, {g.add_leaf(ml.ln2, 0)})));
}

} // namespace
} // namespace volta::etest
