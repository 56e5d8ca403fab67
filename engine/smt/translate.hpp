// Translation of an element pair (two roots of the expression DAG) into Z3 terms over the reals.
// Exact where the reals allow it (rational numerals, + - * /, ite for max/min/abs/select and
// predicates); uninterpreted functions for exp, sqrt, lg2, sin, cos and tanh, with only the
// ground facts of engine/smt/ground_laws.hpp added later. Values that are not real numbers
// (infinities, undefined values, bit patterns, atomics) are refused, never approximated.
// See docs/smt.md.
#pragma once

#include <z3++.h>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::smt {

// The uninterpreted functions Real -> Real of the translation.
enum class Fn : uint8_t { Exp, Sqrt, Lg2, Sin, Cos, Tanh };
const char* fn_name(Fn fn);

// One application f(arg) occurring in the translated terms.
struct FnUse {
  Fn fn;
  z3::expr arg;
  z3::expr app;
};

struct Translation {
  explicit Translation(z3::context& ctx) : ref(ctx), opt(ctx) {}

  z3::expr ref;
  z3::expr opt;
  // Every divisor (b of a/b, x of rcp(x), sqrt(x) of rsqrt(x)), once each.
  std::vector<z3::expr> divisors;
  // Every application of an uninterpreted function, once each, in translation order. Ex2(x)
  // appears as an Exp use with argument x*ln2.
  std::vector<FnUse> uses;
  // The input elements and parameters below the roots with their Z3 constants.
  std::vector<std::pair<symbolic::ExprId, z3::expr>> leaves;
  // The constant standing for ln 2 (Ln2 leaves and Ex2), when used.
  std::optional<z3::expr> ln2;
  size_t dag_nodes = 0;  // distinct DAG nodes below the roots
};

struct TranslateOptions {
  // Larger elements are refused before any Z3 term is built.
  size_t max_nodes = 2'000'000;
};

// The translation, or why the pair is refused ("unsupported by the Z3 translation: ...").
// Z3 exceptions (an interrupt, out of memory) propagate to the caller.
std::variant<Translation, std::string> translate_pair(z3::context& ctx,
                                                      const symbolic::ExprStore& store,
                                                      symbolic::ExprId ref, symbolic::ExprId opt,
                                                      const TranslateOptions& options = {});

}  // namespace volta::smt
