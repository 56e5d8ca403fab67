#include "engine/entry/element_explanation.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

#include "engine/entry/pair_preparation.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/prove/explanation_text.hpp"
#include "engine/symbolic/post_order.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

using symbolic::ExprId;

namespace {

// The size of a DAG node written out as a tree (saturating): explanations work on trees.
uint64_t tree_size(const symbolic::ExprStore& store, ExprId root, uint64_t cap) {
  std::unordered_map<ExprId, uint64_t> size;
  symbolic::post_order(
      store, root, [&](ExprId id) { return size.count(id) != 0; },
      [](ExprId, const symbolic::Node&) { return true; },
      [&](ExprId id) {
        const symbolic::Node& n = store.node(id);
        const ExprId kids[3] = {n.a, n.b, n.c};
        uint64_t total = 1;
        for (int i = 0; i < symbolic::child_count(n.op); ++i) {
          if (kids[i] != symbolic::kNoExpr)
            total = std::min(cap, total + size[kids[i]]);
        }
        size[id] = total;
      });
  return size[root];
}

} // namespace

ElementExplanation explain_element(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                                   const ProveOptions& options, const std::string& element,
                                   size_t max_steps) {
  ElementExplanation out;
  out.element = element;
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  PreparedPair pair;
  if (!prepare_pair(entry, kernels, options.run, options.runs, pair, result)) {
    out.stopped = std::move(result);
    return out;
  }
  const symbolic::ExprStore& store = *pair.store;
  const prove::ElementJob* job = nullptr;
  for (const auto& j : pair.jobs) {
    if (j.name() == element)
      job = &j;
  }
  if (job == nullptr) {
    out.note = fmt::format("no element {} is written by both kernels", element);
    return out;
  }
  // Printed far enough for `volta-eg explain` to show where two long values part.
  constexpr size_t kPrintedChars = 200'000;
  out.reference_expr = symbolic::to_sexpr(store, job->ref, kPrintedChars);
  out.optimized_expr = symbolic::to_sexpr(store, job->opt, kPrintedChars);
  constexpr uint64_t kMaxTree = 20'000;
  const bool small =
      tree_size(store, job->ref, kMaxTree + 1) + tree_size(store, job->opt, kMaxTree + 1) <=
      kMaxTree;
  ProveOptions o = options;
  o.explanations = small;
  prove::ElementProver prover(store, o);
  prover.prepare({job->ref, job->opt});
  out.outcome = prover.prove(job->ref, job->opt, element, job->ref_type, job->opt_type);
  if (out.outcome.kind != prove::ElementOutcome::Kind::Equivalent || !out.outcome.in_egraph) {
    if (out.outcome.kind == prove::ElementOutcome::Kind::Equivalent)
      out.note = "decided without the e-graph";
    return out;
  }
  if (!small) {
    out.note = fmt::format(
        "the two values are too large to write out as trees (more than {} nodes), so no rewrite "
        "chain is recorded",
        kMaxTree);
    return out;
  }
  auto chain = prover.egraph().explain(out.outcome.roots[0], out.outcome.roots[1]);
  if (!chain) {
    out.note = "the e-graph recorded no chain";
    return out;
  }
  if (chain->steps.empty()) {
    // Nothing was rewritten: the e-graph keeps its associative-commutative operators (+ * max
    // min) flattened and ordered, so two values that differ only in how those are grouped and
    // ordered (or not at all) are one term as soon as they are added.
    out.note = "the two values are one e-graph term as soon as they are added: the same tree, up "
               "to the grouping and order of sums, products, maxima and minima (no rewrite step "
               "to show)";
    return out;
  }
  const egraph::Language& lang = prover.egraph().ml().lang;
  out.total_steps = chain->steps.size();
  const egraph::TreeTerm* before = &chain->start;
  for (size_t i = 0; i < chain->steps.size() && i < max_steps; ++i) {
    const auto& step = chain->steps[i];
    out.steps.push_back(prove::describe_rewrite_step(i + 1, step, *before, lang));
    before = &step.term;
  }
  out.check = prover.egraph().check_explanation(*chain);
  return out;
}

} // namespace volta::entry
