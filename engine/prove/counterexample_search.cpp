#include "engine/prove/counterexample_search.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>

#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/input_views.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"
#include "support/invariant.hpp"

namespace volta::prove {

using symbolic::ExprId;

namespace {

// Zeroes inputs, in chunks, while the values still certainly differ, so that the reported
// assignment shows the inputs that matter.
void minimize(const symbolic::ExprStore& store, symbolic::Assignment& point,
              const std::vector<ExprId>& leaves, ExprId ref, ExprId opt,
              const SpecificationDomain* specification) {
  size_t chunk = leaves.size() / 2;
  const size_t smallest = std::max<size_t>(1, leaves.size() / 256);
  int evaluations = 0;
  // Each trial evaluates every assumption of the reference too: fewer trials where they are many
  // (a point stays a counterexample; it only lists more inputs).
  const size_t assumed = specification != nullptr ? specification->assumptions() : 0;
  const int limit =
      static_cast<int>(std::max<size_t>(16, 300 * 1024 / std::max<size_t>(1024, assumed)));
  while (chunk >= smallest && evaluations < limit) {
    for (size_t start = 0; start < leaves.size() && evaluations < limit; start += chunk) {
      symbolic::Assignment trial = point;
      bool changed = false;
      for (size_t i = start; i < std::min(leaves.size(), start + chunk); ++i) {
        auto& v = trial.values[symbolic::Assignment::key_of(store, leaves[i])];
        changed |= v != 0;
        v = 0;
      }
      if (!changed)
        continue;
      ++evaluations;
      symbolic::Evaluator ev(store, trial);
      if (symbolic::certainly_different(ev.eval(ref), ev.eval(opt)) &&
          (specification == nullptr || specification->defined_at(ev)))
        point = std::move(trial);
    }
    if (chunk == 1)
      break;
    chunk /= 2;
  }
}

// Gives `leaf` the value numerator / 2^denominator_log in its kind: a real input that value; the
// bits of a float element's value in another format (an f16 widened to f32) the encoding of it
// (small values of few bits are exact in every format); an integer input the integer, or, with
// `near_the_end`, the integer past the middle of its range, so that wrap-around shows.
void assign(const symbolic::ExprStore& store, ExprId leaf, int numerator, int denominator_log,
            bool near_the_end, symbolic::Assignment& point) {
  const uint64_t key = symbolic::Assignment::key_of(store, leaf);
  if (auto wc = value_view_format(store, leaf)) {
    symbolic::Rational v(numerator, 1 << denominator_log);
    v.canonicalize();
    const auto bits = float_encoding(v, *wc);
    VOLTA_ASSERT(bits.has_value(), "a small dyadic value is exact in every float format");
    point.values[key] = symbolic::Rational(std::to_string(*bits));
    return;
  }
  if (auto w = symbolic::integer_leaf_width(store, leaf)) {
    const uint64_t m = symbolic::width_mask(*w);
    const auto small = static_cast<uint64_t>(static_cast<int64_t>(numerator));
    const uint64_t bits = near_the_end ? ((m >> 1) + small) & m : small & m;
    point.values[key] = symbolic::Rational(std::to_string(bits));
    return;
  }
  symbolic::Rational v(numerator, 1 << denominator_log);
  v.canonicalize();
  point.values[key] = v;
}

} // namespace

std::optional<Counterexample> find_counterexample(const symbolic::ExprStore& store, ExprId ref,
                                                  ExprId opt, const std::string& element,
                                                  int random_points,
                                                  const SpecificationDomain* specification) {
  const std::vector<ExprId> own_leaves = symbolic::leaves_below(store, {ref, opt});
  // The assumptions' leaves too, after the element's.
  const std::vector<ExprId> leaves =
      specification != nullptr ? specification->with_leaves(own_leaves) : own_leaves;
  // Is the point in the reference's domain (and the two values certainly different there)?
  auto counts = [&](const symbolic::Assignment& p) {
    symbolic::Evaluator ev(store, p);
    return symbolic::certainly_different(ev.eval(ref), ev.eval(opt)) &&
           (specification == nullptr || specification->defined_at(ev));
  };
  std::mt19937_64 rng(std::hash<std::string>{}(element) ^ 0x5eedULL);
  // Small rationals keep exponentials of long dot products finite and exact sums cheap.
  std::uniform_int_distribution<int> numerator(-8, 8);
  std::uniform_int_distribution<int> denominator_log(0, 2);
  // Where the reference's assumptions read inputs, half the points take positive values only:
  // a divisor, a logarithm's or a square root's operand is then most often defined (a point
  // with many such inputs is rarely defined by chance).
  const bool assumptions = specification != nullptr && !specification->leaves().empty();
  const int attempts = assumptions ? 2 * random_points : random_points;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    const bool positive = assumptions && attempt % 2 == 1;
    auto draw = [&] {
      const int x = numerator(rng);
      return positive ? std::abs(x) + 1 : x;
    };
    symbolic::Assignment point;
    for (ExprId leaf : leaves) {
      // The denominator first (where one is used), then the numerator: the order in which GCC
      // evaluated the constructor arguments of `Rational(numerator, 2^denominator)` here
      // before, so the points (and the README's counterexamples) stay what they were.
      const bool integer =
          !value_view_format(store, leaf) && symbolic::integer_leaf_width(store, leaf);
      const int d = integer ? 0 : denominator_log(rng);
      const int n = draw();
      assign(store, leaf, n, d, attempt % 3 == 2, point);
    }
    // A point that gives an element's real and integer views independent values is not an
    // input a GPU can be given (docs/semantics.md, "Inputs have two views"): make them agree
    // before evaluating, and again after minimizing (which zeroes views one by one).
    if (!reconcile_views(store, leaves, point))
      continue;
    if (!counts(point))
      continue;
    const symbolic::Assignment found = point;
    minimize(store, point, own_leaves, ref, opt, specification); // the assumptions' stay
    if (!reconcile_views(store, leaves, point) || !counts(point))
      point = found;
    symbolic::Evaluator final_ev(store, point);
    const symbolic::EvalValue a = final_ev.eval(ref), b = final_ev.eval(opt);
    Counterexample c;
    c.element = element;
    c.confirmed = symbolic::certainly_different(a, b) &&
                  (specification == nullptr || specification->defined_at(final_ev));
    c.reference_value = a.to_string();
    c.optimized_value = b.to_string();
    c.reference_expr = symbolic::to_sexpr(store, ref, 600);
    c.optimized_expr = symbolic::to_sexpr(store, opt, 600);
    for (ExprId leaf : leaves) {
      auto it = point.values.find(symbolic::Assignment::key_of(store, leaf));
      if (it != point.values.end() && it->second != 0)
        c.inputs.emplace_back(symbolic::leaf_name(store, leaf), it->second.get_str());
    }
    if (c.confirmed)
      return c;
  }
  return std::nullopt;
}

std::optional<std::vector<std::pair<std::string, std::string>>>
inputs_in_domain(const symbolic::ExprStore& store, const SpecificationDomain* specification) {
  std::vector<std::pair<std::string, std::string>> inputs;
  if (specification == nullptr || specification->leaves().empty())
    return inputs;
  const std::vector<ExprId>& leaves = specification->leaves();
  std::mt19937_64 rng(0xd0a1a1);
  std::uniform_int_distribution<int> numerator(-8, 8);
  for (int attempt = 0; attempt < 16; ++attempt) {
    // All ones first (a divisor, a logarithm of a lone input), then random values, positive on
    // every other try.
    symbolic::Assignment point;
    for (ExprId leaf : leaves) {
      const int x = numerator(rng);
      assign(store, leaf,
             attempt == 0       ? 1
             : attempt % 2 == 1 ? std::abs(x) + 1
                                : x,
             0, false, point);
    }
    if (!reconcile_views(store, leaves, point))
      continue;
    symbolic::Evaluator ev(store, point);
    if (!specification->defined_at(ev))
      continue;
    for (ExprId leaf : leaves) {
      auto it = point.values.find(symbolic::Assignment::key_of(store, leaf));
      if (it != point.values.end() && it->second != 0)
        inputs.emplace_back(symbolic::leaf_name(store, leaf), it->second.get_str());
    }
    return inputs;
  }
  return std::nullopt;
}

} // namespace volta::prove
