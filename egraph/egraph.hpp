#pragma once
// EGraph: a hashconsed set of e-nodes partitioned into e-classes, closed under congruence by
// deferred rebuilding (egg, Willis et al. POPL 2021), over a Language described at run time.
//
// Storage. Every id is created for one e-node, stored at the same index of a flat node arena
// (operator, payload, slice of one shared child array). The hashcons is a flat open-addressing
// table of node ids. Each e-class keeps its node ids and its parents' node ids. Nodes are
// canonicalized in place during rebuild (children mapped to canonical ids; children of AC
// operators re-sorted); a node found congruent to another is marked dead and dropped.
//
// AC operators. A node of an AC operator stores its children as a sorted multiset (repeats for
// multiplicities). A one-child AC node is its child: add((+ x)) returns x. add_term() flattens
// nested same-operator AC nodes of the term (term_flatten.hpp); add() of a single node never
// splices classes. See docs/egraph.md for the exact policy and the matching semantics.
//
// Deferred rebuilding. merge() only links the union-find and queues work; rebuild() restores the
// invariants (congruence closure, canonical hashcons, sorted AC children, analysis data) in
// batches. Queries that rely on canonical nodes (lookup, search, extraction, check_invariants)
// expect a rebuilt e-graph.

#include <gmpxx.h>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "egraph/analysis.hpp"
#include "egraph/eclass.hpp"
#include "egraph/enode.hpp"
#include "egraph/hashcons.hpp"
#include "egraph/id.hpp"
#include "egraph/language.hpp"
#include "egraph/proof_forest.hpp"
#include "egraph/term.hpp"
#include "egraph/union_find.hpp"

namespace volta::egraph {

struct EGraphOptions {
  // Record a proof forest so that explain_equivalence() can justify equalities. Costs an extra
  // copy of every added node and one id per distinct uncanonical node; off by default.
  bool explanations = false;
  // add_term() does not splice a same-operator AC child whose flattened size exceeds this
  // (term_flatten.hpp): a DAG of shared partial sums would otherwise blow up exponentially.
  std::size_t max_flat_children = std::size_t{1} << 20;
};

class EGraph {
public:
  explicit EGraph(Language& lang, EGraphOptions options = {});
  ~EGraph();
  EGraph(EGraph&&) noexcept;
  EGraph& operator=(EGraph&&) noexcept;
  EGraph(const EGraph&) = delete;
  EGraph& operator=(const EGraph&) = delete;

  Language& language() { return *lang_; }
  const Language& language() const { return *lang_; }
  const EGraphOptions& options() const { return options_; }

  // ---- Analyses. Register before adding nodes (throws std::logic_error otherwise).
  template <class A, class... Args>
  A& add_analysis(Args&&... args) {
    auto owned = std::make_unique<A>(std::forward<Args>(args)...);
    A& ref = *owned;
    attach_analysis(std::move(owned));
    return ref;
  }
  template <class A>
  A* find_analysis() const {
    for (const auto& a : analyses_)
      if (auto* p = dynamic_cast<A*>(a.get()))
        return p;
    return nullptr;
  }
  const std::vector<std::unique_ptr<Analysis>>& analyses() const { return analyses_; }

  // ---- Adding. Children may be any ids (they are canonicalized). Returns the node's id: the
  // canonical class id without explanations; with explanations, the id of exactly this
  // (uncanonical) node, so compare ids with find().
  Id add(NodeView node);
  Id add(OpId op, std::span<const Id> children, Payload payload = 0) {
    return add(NodeView{op, payload, children});
  }
  Id add(OpId op, std::initializer_list<Id> children) {
    return add(NodeView{op, 0, std::span<const Id>(children.begin(), children.size())});
  }
  Id add_leaf(OpId op, Payload payload) { return add(NodeView{op, payload, {}}); }
  // Leaves of the language's symbol / constant operator.
  Id add_symbol(std::string_view name);
  Id add_constant(const mpq_class& value);
  // Adds a whole term with AC flattening; returns its root's id.
  Id add_term(const Term& t);
  std::vector<Id> add_term(const Term& t, std::span<const Term::Index> roots);
  // Parses an s-expression and adds it (throws std::invalid_argument with a located message).
  Id add_expr(std::string_view sexpr);

  // Removes every node and class (and the proof forest), keeping the analyses (their data
  // cleared), the reason names and the allocated memory: for reusing one e-graph.
  void clear();
  // Pre-allocates room for `nodes` more e-nodes with `children` child slots in total.
  void reserve(std::size_t nodes, std::size_t children);

  // The canonical class of a node / term if present (exact only on a rebuilt e-graph).
  std::optional<Id> lookup(NodeView node) const;
  std::optional<Id> lookup_term(const Term& t) const;

  // ---- Equality.
  Id find(Id id) const { return uf_.find(id); }
  bool is_equal(Id a, Id b) const { return uf_.find(a) == uf_.find(b); }
  // Merges the classes of a and b; `reason` names the step in explanations. True iff they were
  // different classes.
  bool merge(Id a, Id b, std::string_view reason = "merge");
  bool merge(Id a, Id b, Justification why);
  void rebuild();
  bool is_clean() const {
    return pending_.empty() && analysis_pending_.empty() && modify_pending_.empty() &&
           dirty_.empty();
  }

  // ---- Inspection.
  std::size_t num_ids() const { return uf_.size(); }
  std::size_t num_classes() const { return num_classes_; }
  std::size_t num_nodes() const { return live_nodes_; }
  std::uint64_t num_merges() const { return num_merges_; }
  // Changes whenever a node is created or two classes merge.
  std::uint64_t version() const { return version_; }
  // Canonical class ids, ascending.
  std::vector<Id> class_ids() const;
  const EClass& eclass(Id id) const { return classes_[uf_.find(id)]; }
  // Node ids of a class (after rebuild: live, sorted by operator, payload, id).
  std::span<const Id> class_nodes(Id id) const { return eclass(id).nodes.span(); }
  NodeView node(Id node_id) const {
    const NodeRec& r = nodes_[node_id];
    return {r.op, r.payload, {kids_of(r), r.len}};
  }
  bool is_live_node(Id node_id) const { return (nodes_[node_id].flags & kLive) != 0; }
  // Canonical classes holding a node with operator `op`, ascending. Built on demand after each
  // change; call build_op_index() before reading it from several threads.
  const std::vector<Id>& classes_with_op(OpId op) const;
  void build_op_index() const;

  // Approximate bytes held (arenas, tables, class lists, analyses, proof forest).
  std::size_t approx_bytes() const;
  // Checks congruence closure, canonical hashcons, sorted AC children, complete parent lists and
  // class membership; nullopt when all hold, else a description of the first violation. Needs a
  // rebuilt e-graph.
  std::optional<std::string> check_invariants() const;
  // Process-wide: run check_invariants() after every rebuild() and throw std::logic_error on a
  // violation. Off by default; the e-graph, rules and prover tests turn it on in every build
  // (tests/support/invariant_checks.cpp; it costs a walk of the whole e-graph per rebuild).
  static void set_invariant_checks(bool on);
  static bool invariant_checks();
  // A canonical text dump (classes in id order, nodes in class order) for comparisons.
  std::string dump() const;

  // ---- Explanations (see explain.hpp for explain_equivalence).
  bool explanations_enabled() const { return explain_ != nullptr; }
  const ProofForest* proof_forest() const { return explain_.get(); }
  // Ids of exactly the nodes of `t` as add_term added them (explanations only).
  std::optional<Id> lookup_term_exact(const Term& t) const;

  // ---- Named steps (rule names, "constant-fold", "merge", ...) used by justifications.
  std::uint32_t reason_id(std::string_view name);
  const std::string& reason_name(std::uint32_t id) const { return reasons_[id]; }

private:
  static constexpr std::uint16_t kLive = 1;
  static constexpr std::uint16_t kDead = 2;
  static constexpr std::uint16_t kMark = 4;      // transient: deduplicating a node worklist
  static constexpr std::uint16_t kClassMark = 8; // transient: deduplicating dirty classes
  static constexpr std::uint32_t kInlineKids = 2;
  // A node record. Nodes with at most two children (most of them) keep the children inline, so
  // reading a node costs one cache line; longer ones point into the shared child array.
  struct NodeRec {
    Payload payload = 0;
    std::uint32_t len = 0;
    std::uint32_t hash = 0;
    OpId op = 0;
    std::uint16_t flags = 0; // 0: an explanation-only id without a node of its own
    union {
      std::uint32_t first = 0; // into kids_ when len > kInlineKids
      Id inline_kids[kInlineKids];
    };
  };
  const Id* kids_of(const NodeRec& r) const {
    return r.len <= kInlineKids ? r.inline_kids : kids_.data() + r.first;
  }
  Id* kids_of(NodeRec& r) { return r.len <= kInlineKids ? r.inline_kids : kids_.data() + r.first; }

  void attach_analysis(std::unique_ptr<Analysis> a);
  Id find_mut(Id id) { return uf_.find_compress(id); }
  void check_node(NodeView node, bool check_children) const;
  Id add_valid(NodeView node); // add() after check_node
  // Canonicalizes `node` into scratch_ (children found, AC sorted); returns its hash.
  std::uint64_t canonicalize_into_scratch(NodeView node);
  std::optional<Id> memo_find(OpId op, Payload payload, std::span<const Id> kids,
                              std::uint64_t hash) const;
  Id create_from_scratch(OpId op, Payload payload, std::uint64_t hash, NodeView original);
  Id add_explained(NodeView node);
  bool merge_roots(Id a, Id b, Justification why);
  void repair(Id node_id);
  void take_unique_live(std::vector<Id>& queue, std::vector<Id>& batch);
  void compact_dirty();
  template <class Lookup>
  std::optional<Id> lookup_term_with(const Term& t, Lookup&& lookup) const;

  static std::uint64_t hash_node(OpId op, Payload payload, std::span<const Id> kids);

  Language* lang_;
  EGraphOptions options_;
  UnionFind uf_;
  std::vector<NodeRec> nodes_;
  std::vector<Id> kids_;
  std::vector<EClass> classes_;
  Hashcons memo_;
  std::vector<std::unique_ptr<Analysis>> analyses_;
  std::unique_ptr<ProofForest> explain_;

  std::vector<Id> pending_;          // nodes to re-canonicalize (parents of merged-away classes)
  std::vector<Id> analysis_pending_; // nodes whose children's analysis data changed
  std::vector<Id> modify_pending_;   // classes to run Analysis::modify on
  std::vector<Id> dirty_;            // classes whose lists need compaction
  std::vector<Id> scratch_;
  std::vector<Id> batch_; // rebuild's round buffer, kept for its capacity

  std::size_t live_nodes_ = 0;
  std::size_t child_slots_ = 0; // children of all nodes ever created (for approx_bytes)
  std::size_t num_classes_ = 0;
  std::uint64_t num_merges_ = 0;
  std::uint64_t version_ = 0;

  struct StringHash {
    using is_transparent = void; // look up by string_view without building a std::string
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> reasons_;
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> reason_ids_;

  mutable std::vector<std::vector<Id>> by_op_;
  mutable std::uint64_t by_op_version_ = ~std::uint64_t{0};
};

} // namespace volta::egraph
