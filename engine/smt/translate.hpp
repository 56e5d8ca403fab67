// Translation of an element pair (two roots of the expression DAG) into Z3 terms over the reals.
// Exact where the reals allow it (rational numerals, + - * /, ite for max/min/abs/select and
// predicates); uninterpreted functions for exp, sqrt, lg2, sin, cos and tanh, with only the
// ground facts of engine/smt/ground_laws.hpp added later. Alongside each root goes the condition
// under which it is defined over the reals; Z3's own division is total (a/0 is an unspecified
// value), so the decision procedure uses these conditions (docs/smt.md). Values that are not real
// numbers (infinities, undefined values, bit patterns, atomics) are refused, never approximated.
// See docs/smt.md.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>
#include <z3++.h>

#include "engine/smt/solve_once.hpp"
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
  symbolic::ExprId node; // the DAG node it translates (Exp, Ex2, Sqrt, Rsqrt, ...)
};

struct Translation {
  explicit Translation(z3::context& ctx) : ref(ctx), opt(ctx) {}

  z3::expr ref;
  z3::expr opt;
  // Where each root is defined over the reals: every division on the path that is taken has a
  // nonzero divisor, every sqrt a nonnegative argument, every rsqrt and lg2 a positive one
  // (a select only needs its taken branch defined). nullopt: defined everywhere.
  std::optional<z3::expr> ref_defined;
  std::optional<z3::expr> opt_defined;
  size_t divisions = 0; // distinct divisions, reciprocals and rsqrts
  // Every application of an uninterpreted function, once each, in translation order. Ex2(x)
  // appears as an Exp use with argument x*ln2.
  std::vector<FnUse> uses;
  // The input elements and parameters below the roots with their Z3 constants.
  std::vector<std::pair<symbolic::ExprId, z3::expr>> leaves;
  // The constant standing for ln 2 (Ln2 leaves and Ex2), when used.
  std::optional<z3::expr> ln2;
  size_t dag_nodes = 0; // distinct DAG nodes below the roots
  // Roundings to an integer of values the device rounds (cvt.rni of a sum): each such value is a
  // real of its own per IEEE computation (docs/semantics.md, "Floats observed as bits").
  size_t device_values = 0;
  // The two roots round different such values: a model would set them apart freely, and is
  // never a counterexample the inputs confirm (z3_fallback answers UNKNOWN without asking).
  bool device_values_differ = false;
  bool bit_vectors = false; // integer data: bit-vector terms (the smt core decides them)
};

struct TranslateOptions {
  // Larger elements are refused before any Z3 term is built.
  size_t max_nodes = 2'000'000;
  // The entry's cancel flag, read every 256 translated nodes: a large element (each node's
  // translation may read its operands' kinds down a select chain) stops with the entry, refused
  // as "cancelled".
  const std::atomic<bool>* cancel = nullptr;
};

// nlsat (complete) when the translation has no uninterpreted function, else the smt core.
inline Procedure procedure_for(const Translation& t) {
  return t.uses.empty() && !t.bit_vectors ? Procedure::NonlinearReals : Procedure::WithFunctions;
}

// Why the pair cannot be translated (an unsupported node, too many nodes), found without building
// anything: callers refuse before paying for a Z3 context. nullopt when it can be translated.
struct TranslationRefusal {
  std::string reason;
  bool too_large = false; // more DAG nodes than TranslateOptions::max_nodes
};
std::optional<TranslationRefusal> translation_refusal(const symbolic::ExprStore& store,
                                                      symbolic::ExprId ref, symbolic::ExprId opt,
                                                      const TranslateOptions& options = {});

// The translation, or why the pair is refused ("unsupported by the Z3 translation: ...").
// Z3 exceptions (an interrupt, out of memory) propagate to the caller.
std::variant<Translation, std::string> translate_pair(z3::context& ctx,
                                                      const symbolic::ExprStore& store,
                                                      symbolic::ExprId ref, symbolic::ExprId opt,
                                                      const TranslateOptions& options = {});

} // namespace volta::smt
