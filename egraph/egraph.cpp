#include "egraph/egraph.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "egraph/hash.hpp"
#include "egraph/sexpr.hpp"
#include "egraph/term_flatten.hpp"
#include "support/invariant.hpp"

namespace volta::egraph {

namespace {
void sort_unique(std::vector<Id>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}
} // namespace

EGraph::EGraph(Language& lang, EGraphOptions options) : lang_(&lang), options_(options) {
  if (options.explanations)
    explain_ = std::make_unique<ProofForest>();
  reason_id("congruence");
}

EGraph::~EGraph() = default;
EGraph::EGraph(EGraph&&) noexcept = default;
EGraph& EGraph::operator=(EGraph&&) noexcept = default;

void EGraph::attach_analysis(std::unique_ptr<Analysis> a) {
  if (num_ids() != 0)
    throw std::logic_error("EGraph: add analyses before adding nodes");
  analyses_.push_back(std::move(a));
}

std::uint32_t EGraph::reason_id(std::string_view name) {
  auto it = reason_ids_.find(name);
  if (it != reason_ids_.end())
    return it->second;
  const auto id = static_cast<std::uint32_t>(reasons_.size());
  reasons_.emplace_back(name);
  reason_ids_.emplace(std::string(name), id);
  return id;
}

std::uint64_t EGraph::hash_node(OpId op, Payload payload, std::span<const Id> kids) {
  return hash_finish(hash_ids(hash_combine(hash_combine(0x243f6a88, op), payload), kids));
}

void EGraph::check_node(NodeView n, bool check_children) const {
  if (n.op >= lang_->num_ops())
    throw std::invalid_argument("EGraph::add: unknown operator id " + std::to_string(n.op));
  const OpInfo& info = lang_->op(n.op);
  if (info.arity != kVariadic && n.children.size() != static_cast<std::size_t>(info.arity))
    throw std::invalid_argument("EGraph::add: operator '" + info.name + "' takes " +
                                std::to_string(info.arity) + " children, got " +
                                std::to_string(n.children.size()));
  if (check_children)
    for (Id c : n.children)
      if (c >= uf_.size())
        throw std::invalid_argument("EGraph::add: child id " + std::to_string(c) + " is unknown");
}

std::uint64_t EGraph::canonicalize_into_scratch(NodeView n) {
  scratch_.assign(n.children.begin(), n.children.end());
  for (Id& c : scratch_)
    c = find_mut(c);
  if (lang_->is_ac(n.op))
    std::sort(scratch_.begin(), scratch_.end());
  VOLTA_ASSERT(std::all_of(scratch_.begin(), scratch_.end(), [&](Id c) { return uf_.is_root(c); }),
               "a canonicalized node's children are class roots");
  return hash_node(n.op, n.payload, scratch_);
}

std::optional<Id> EGraph::memo_find(OpId op, Payload payload, std::span<const Id> kids,
                                    std::uint64_t hash) const {
  return memo_.find(hash, [&](std::uint32_t e) {
    const NodeRec& r = nodes_[e];
    return r.op == op && r.payload == payload && r.len == kids.size() &&
           std::equal(kids.begin(), kids.end(), kids_of(r));
  });
}

Id EGraph::add(NodeView n) {
  check_node(n, true);
  return add_valid(n);
}

Id EGraph::add_valid(NodeView n) {
  if (lang_->is_ac(n.op) && n.children.size() == 1)
    return explain_ ? n.children[0] : find_mut(n.children[0]); // (f x) is x
  if (explain_)
    return add_explained(n);
  const auto hash = canonicalize_into_scratch(n);
  if (auto hit = memo_find(n.op, n.payload, scratch_, hash))
    return find_mut(*hit);
  return create_from_scratch(n.op, n.payload, hash, {});
}

Id EGraph::add_explained(NodeView n) {
  const auto exact_hash = ProofForest::hash_node(n);
  if (auto hit = explain_->find_exact(n, exact_hash))
    return *hit;
  // `n` may point into our own arenas, which the calls below can reallocate.
  const std::vector<Id> original(n.children.begin(), n.children.end());
  const NodeView orig{n.op, n.payload, original};
  const auto hash = canonicalize_into_scratch(orig);
  if (auto hit = memo_find(n.op, n.payload, scratch_, hash)) {
    // A new id for this exact node, congruent to the existing one.
    const Id k = uf_.make_set();
    nodes_.push_back(NodeRec{});
    classes_.emplace_back();
    explain_->register_node(k, orig, exact_hash);
    explain_->add_edge(k, *hit, Justification::congruence());
    uf_.link(k, find_mut(*hit));
    return k;
  }
  return create_from_scratch(n.op, n.payload, hash, orig);
}

Id EGraph::create_from_scratch(OpId op, Payload payload, std::uint64_t hash, NodeView original) {
  VOLTA_ASSERT(!memo_find(op, payload, scratch_, hash),
               "a created node is new: the hashcons holds no congruent one");
  VOLTA_ASSERT(!lang_->is_ac(op) || scratch_.size() != 1, "no one-child AC node is created");
  const Id k = uf_.make_set();
  const auto len = static_cast<std::uint32_t>(scratch_.size());
  NodeRec rec;
  rec.payload = payload;
  rec.len = len;
  rec.hash = static_cast<std::uint32_t>(hash);
  rec.op = op;
  rec.flags = kLive;
  if (len <= kInlineKids) {
    std::copy(scratch_.begin(), scratch_.end(), rec.inline_kids);
  } else {
    rec.first = static_cast<std::uint32_t>(kids_.size());
    kids_.insert(kids_.end(), scratch_.begin(), scratch_.end());
  }
  nodes_.push_back(rec);
  classes_.emplace_back();
  classes_[k].nodes.push_back(k);
  // Parent entries, one per distinct child class (AC children are sorted; other nodes are short,
  // and a duplicate entry is harmless: compaction drops it).
  const Id* kid = kids_of(nodes_[k]);
  for (std::uint32_t i = 0; i < len; ++i) {
    if (i > 0 && kid[i] == kid[i - 1])
      continue;
    classes_[kid[i]].parents.push_back(k);
  }
  memo_.insert(hash, k);
  child_slots_ += len;
  ++live_nodes_;
  ++num_classes_;
  ++version_;
  if (explain_)
    explain_->register_node(k, original, ProofForest::hash_node(original));
  for (auto& a : analyses_)
    a->make(*this, k, node(k));
  for (std::size_t i = 0; i < analyses_.size(); ++i)
    analyses_[i]->modify(*this, find_mut(k)); // may add nodes: no references held across
  return k;
}

void EGraph::clear() {
  uf_.clear();
  nodes_.clear();
  kids_.clear();
  classes_.clear();
  memo_.clear();
  for (auto& a : analyses_)
    a->clear();
  if (explain_)
    explain_ = std::make_unique<ProofForest>();
  pending_.clear();
  analysis_pending_.clear();
  modify_pending_.clear();
  dirty_.clear();
  live_nodes_ = 0;
  child_slots_ = 0;
  num_classes_ = 0;
  num_merges_ = 0;
  ++version_;
  by_op_.clear();
}

void EGraph::reserve(std::size_t nodes, std::size_t children) {
  // Geometric: reserving a little more many times must not reallocate every time.
  auto grow = [](auto& v, std::size_t need) {
    if (v.capacity() < need)
      v.reserve(std::max(need, 2 * v.capacity()));
  };
  uf_.reserve(uf_.size() + nodes);
  grow(nodes_, nodes_.size() + nodes);
  grow(classes_, classes_.size() + nodes);
  grow(kids_, kids_.size() + children);
  memo_.reserve(memo_.size() + nodes);
}

Id EGraph::add_symbol(std::string_view name) {
  if (!lang_->symbol_op())
    throw std::logic_error("EGraph::add_symbol: the language has no symbol operator");
  return add_leaf(*lang_->symbol_op(), lang_->intern_symbol(name));
}

Id EGraph::add_constant(const mpq_class& value) {
  if (!lang_->constant_op())
    throw std::logic_error("EGraph::add_constant: the language has no constant operator");
  return add_leaf(*lang_->constant_op(), lang_->intern_rational(value));
}

std::vector<Id> EGraph::add_term(const Term& t, std::span<const Term::Index> roots) {
  FlatTermPlan plan(t, *lang_, roots, options_.max_flat_children);
  std::size_t fresh = 0;
  for (Term::Index i = 0; i < t.size(); ++i)
    fresh += plan.needs_class(i);
  reserve(fresh, t.size()); // at most this many new nodes; avoids growing tables step by step
  std::vector<Id> ids(t.size(), kNoId);
  std::vector<Term::Index> flat;
  std::vector<Id> kids;
  for (Term::Index i = 0; i < t.size(); ++i) {
    if (!plan.needs_class(i))
      continue;
    flat.clear();
    plan.flat_children(i, flat);
    kids.clear();
    for (auto c : flat)
      kids.push_back(ids[c]);
    const NodeView n{t.op(i), t.payload(i), kids};
    check_node(n, false); // the children are ids just made: only the operator needs checking
    ids[i] = add_valid(n);
  }
  std::vector<Id> out;
  out.reserve(roots.size());
  for (auto r : roots)
    out.push_back(ids[r]);
  return out;
}

Id EGraph::add_term(const Term& t) {
  if (t.empty())
    throw std::invalid_argument("EGraph::add_term: empty term");
  const Term::Index root = t.root();
  return add_term(t, std::span<const Term::Index>(&root, 1)).front();
}

Id EGraph::add_expr(std::string_view sexpr) {
  return add_term(parse_term_or_throw(sexpr, *lang_));
}

std::optional<Id> EGraph::lookup(NodeView n) const {
  if (n.op >= lang_->num_ops())
    return std::nullopt;
  for (Id c : n.children)
    if (c >= uf_.size())
      return std::nullopt;
  if (lang_->is_ac(n.op) && n.children.size() == 1)
    return find(n.children[0]);
  std::vector<Id> kids(n.children.begin(), n.children.end());
  for (Id& c : kids)
    c = find(c);
  if (lang_->is_ac(n.op))
    std::sort(kids.begin(), kids.end());
  if (auto hit = memo_find(n.op, n.payload, kids, hash_node(n.op, n.payload, kids)))
    return find(*hit);
  return std::nullopt;
}

template <class Lookup>
std::optional<Id> EGraph::lookup_term_with(const Term& t, Lookup&& lookup_node) const {
  if (t.empty())
    return std::nullopt;
  const Term::Index root = t.root();
  FlatTermPlan plan(t, *lang_, std::span<const Term::Index>(&root, 1), options_.max_flat_children);
  std::vector<Id> ids(t.size(), kNoId);
  std::vector<Term::Index> flat;
  std::vector<Id> kids;
  for (Term::Index i = 0; i < t.size(); ++i) {
    if (!plan.needs_class(i))
      continue;
    flat.clear();
    plan.flat_children(i, flat);
    kids.clear();
    for (auto c : flat)
      kids.push_back(ids[c]);
    auto id = lookup_node(NodeView{t.op(i), t.payload(i), kids});
    if (!id)
      return std::nullopt;
    ids[i] = *id;
  }
  return ids[root];
}

std::optional<Id> EGraph::lookup_term(const Term& t) const {
  return lookup_term_with(t, [&](NodeView n) { return lookup(n); });
}

std::optional<Id> EGraph::lookup_term_exact(const Term& t) const {
  if (!explain_)
    return std::nullopt;
  return lookup_term_with(t, [&](NodeView n) -> std::optional<Id> {
    if (lang_->is_ac(n.op) && n.children.size() == 1)
      return n.children[0];
    return explain_->find_exact(n, ProofForest::hash_node(n));
  });
}

bool EGraph::merge(Id a, Id b, std::string_view reason) {
  return merge(a, b, Justification::named(reason_id(reason)));
}

bool EGraph::merge(Id a, Id b, Justification why) {
  if (a >= uf_.size() || b >= uf_.size())
    throw std::invalid_argument("EGraph::merge: unknown id");
  return merge_roots(a, b, why);
}

bool EGraph::merge_roots(Id a, Id b, Justification why) {
  Id ra = find_mut(a), rb = find_mut(b);
  if (ra == rb)
    return false;
  if (explain_)
    explain_->add_edge(a, b, why);
  // The class with more nodes+parents survives (ties: the smaller id), so the smaller lists move.
  const auto size_a = classes_[ra].nodes.size() + classes_[ra].parents.size();
  const auto size_b = classes_[rb].nodes.size() + classes_[rb].parents.size();
  if (size_a < size_b || (size_a == size_b && ra > rb))
    std::swap(ra, rb);
  const Id winner = ra, loser = rb;
  VOLTA_ASSERT(!classes_[loser].nodes.empty() && !classes_[winner].nodes.empty(),
               "merged classes are live classes");
  uf_.link(loser, winner);
  EClass& w = classes_[winner];
  EClass& l = classes_[loser];
  pending_.insert(pending_.end(), l.parents.begin(), l.parents.end());
  for (auto& an : analyses_) {
    const MergeResult r = an->merge(winner, loser);
    if (r.into_changed)
      analysis_pending_.insert(analysis_pending_.end(), w.parents.begin(), w.parents.end());
    if (r.from_changed)
      analysis_pending_.insert(analysis_pending_.end(), l.parents.begin(), l.parents.end());
  }
  if (!analyses_.empty())
    modify_pending_.push_back(winner);
  w.nodes.append(l.nodes.span());
  w.parents.append(l.parents.span());
  l.nodes.release();
  l.parents.release();
  dirty_.push_back(winner);
  --num_classes_;
  ++num_merges_;
  ++version_;
  return true;
}

void EGraph::repair(Id n) {
  NodeRec& r = nodes_[n];
  if ((r.flags & kLive) == 0)
    return;
  memo_.erase(r.hash, n);
  Id* kid = kids_of(r);
  for (std::uint32_t i = 0; i < r.len; ++i)
    kid[i] = find_mut(kid[i]);
  if (lang_->is_ac(r.op))
    std::sort(kid, kid + r.len);
  const std::span<const Id> kids(kid, r.len);
  VOLTA_ASSERT(!lang_->is_ac(r.op) || r.len != 1, "a repaired AC node keeps two children or more");
  const auto hash = hash_node(r.op, r.payload, kids);
  r.hash = static_cast<std::uint32_t>(hash);
  if (auto other = memo_find(r.op, r.payload, kids, hash)) {
    // Congruent to a live node: this one is a duplicate.
    r.flags = kDead;
    --live_nodes_;
    dirty_.push_back(find_mut(n));
    merge_roots(*other, n, Justification::congruence());
  } else {
    memo_.insert(hash, n);
  }
}

void EGraph::take_unique_live(std::vector<Id>& queue, std::vector<Id>& batch) {
  // First occurrence of each live node, in queue order: deterministic, O(n) (a mark bit in the
  // node record, which the liveness test reads anyway, instead of sorting).
  batch.clear();
  for (Id n : queue) {
    NodeRec& r = nodes_[n];
    if ((r.flags & kLive) == 0 || (r.flags & kMark) != 0)
      continue;
    r.flags |= kMark;
    batch.push_back(n);
  }
  queue.clear();
  for (Id n : batch)
    nodes_[n].flags &= static_cast<std::uint16_t>(~kMark);
}

namespace {
// Checked builds run check_invariants() after every rebuild of an e-graph of at most this many
// ids (test e-graphs, small proofs); tests turn it on for every size (set_invariant_checks).
constexpr std::size_t kCheckedBuildFullCheckIds = 2048;
} // namespace

void EGraph::rebuild() {
  std::vector<Id> batch;
  batch.swap(batch_); // reuse the buffer's capacity across calls (rebuild is not reentrant)
  for (;;) {
    while (!pending_.empty() || !analysis_pending_.empty()) {
      // Congruence first: when pending_ is empty every live node is canonical, which remake
      // and modify rely on. Batches are deduplicated so that a node with many merged children
      // (a long sum) is re-canonicalized once per round, not once per merged child.
      while (!pending_.empty()) {
        take_unique_live(pending_, batch);
        for (Id n : batch)
          repair(n);
      }
      if (!analysis_pending_.empty()) {
        take_unique_live(analysis_pending_, batch);
        for (Id n : batch) {
          if (!is_live_node(n))
            continue;
          const Id cls = find_mut(n);
          bool changed = false;
          for (auto& a : analyses_)
            changed |= a->remake(*this, cls, node(n));
          if (changed) {
            const EClass& c = classes_[cls];
            analysis_pending_.insert(analysis_pending_.end(), c.parents.begin(), c.parents.end());
            modify_pending_.push_back(cls);
          }
        }
      }
    }
    if (modify_pending_.empty())
      break;
    std::vector<Id> classes;
    classes.swap(modify_pending_);
    for (Id& c : classes)
      c = find_mut(c);
    sort_unique(classes);
    for (Id c : classes)
      for (std::size_t i = 0; i < analyses_.size(); ++i)
        analyses_[i]->modify(*this, find_mut(c));
  }
  batch.swap(batch_);
  compact_dirty();
  // Rebuilt: congruence closed, every live node canonical and in the hashcons once.
  VOLTA_ASSERT(pending_.empty() && analysis_pending_.empty() && modify_pending_.empty() &&
                   dirty_.empty(),
               "rebuild leaves no pending work");
  VOLTA_ASSERT(memo_.size() == live_nodes_, "the hashcons holds each live node once");
  VOLTA_ASSERT(num_classes_ <= live_nodes_, "every class holds a live node");
  if (invariant_checks()) {
    if (auto err = check_invariants())
      throw std::logic_error("EGraph invariant violated after rebuild: " + *err);
  } else if (support::kCheckInvariants && uf_.size() <= kCheckedBuildFullCheckIds) {
    // Checked builds (Debug, asan, fuzz) run the full check too, as egg's debug builds do, on
    // e-graphs small enough that it stays cheap: it walks the whole e-graph, and after every
    // rebuild of a large proof that would be quadratic.
    if (auto err = check_invariants()) {
      const std::string message = "e-graph invariant after rebuild: " + *err;
      VOLTA_ASSERT(false, message.c_str());
    }
  }
}

namespace {
// Off unless asked: a full check after every rebuild is quadratic in a large proof, and the
// tool's own runs must not pay for it in builds with asserts (the sanitizer run of CI).
std::atomic<bool> g_invariant_checks{false};
} // namespace

void EGraph::set_invariant_checks(bool on) {
  g_invariant_checks.store(on, std::memory_order_relaxed);
}

bool EGraph::invariant_checks() {
  return g_invariant_checks.load(std::memory_order_relaxed);
}

void EGraph::compact_dirty() {
  // Each dirty class once (first occurrence; a mark bit on the class id's node record).
  std::vector<Id> classes;
  classes.swap(batch_);
  classes.clear();
  for (Id c : dirty_) {
    c = find_mut(c);
    if ((nodes_[c].flags & kClassMark) != 0)
      continue;
    nodes_[c].flags |= kClassMark;
    classes.push_back(c);
  }
  dirty_.clear();
  struct Key {
    OpId op;
    Payload payload;
    Id id;
    bool operator<(const Key& o) const {
      return op != o.op ? op < o.op : payload != o.payload ? payload < o.payload : id < o.id;
    }
  };
  std::vector<Key> keys;
  for (Id c : classes) {
    nodes_[c].flags &= static_cast<std::uint16_t>(~kClassMark);
    EClass& e = classes_[c];
    // Nodes: live ones, sorted by (operator, payload, id) for matching and the operator index.
    // Keys are read once per node, not once per comparison.
    keys.clear();
    for (Id n : e.nodes)
      if (is_live_node(n))
        keys.push_back({nodes_[n].op, nodes_[n].payload, n});
    if (!std::is_sorted(keys.begin(), keys.end()))
      std::sort(keys.begin(), keys.end());
    e.nodes.truncate(static_cast<std::uint32_t>(keys.size()));
    for (std::uint32_t i = 0; i < keys.size(); ++i)
      e.nodes[i] = keys[i].id;
    // Parents: live ones, first occurrence kept, order otherwise unchanged.
    std::uint32_t keep = 0;
    for (Id p : e.parents) {
      NodeRec& r = nodes_[p];
      if ((r.flags & kLive) == 0 || (r.flags & kMark) != 0)
        continue;
      r.flags |= kMark;
      e.parents[keep++] = p;
    }
    e.parents.truncate(keep);
    for (Id p : e.parents)
      nodes_[p].flags &= static_cast<std::uint16_t>(~kMark);
  }
  classes.swap(batch_);
}

std::vector<Id> EGraph::class_ids() const {
  std::vector<Id> out;
  out.reserve(num_classes_);
  for (Id id = 0; id < uf_.size(); ++id)
    if (uf_.is_root(id) && !classes_[id].nodes.empty())
      out.push_back(id);
  return out;
}

void EGraph::build_op_index() const {
  if (by_op_version_ == version_ && by_op_.size() == lang_->num_ops())
    return;
  by_op_.assign(lang_->num_ops(), {});
  for (Id id = 0; id < uf_.size(); ++id) {
    if (!uf_.is_root(id))
      continue;
    OpId last = 0;
    bool first = true;
    for (Id n : classes_[id].nodes) {
      if (!is_live_node(n))
        continue;
      const OpId op = nodes_[n].op;
      if (first || op != last) {
        // nodes are sorted by operator after rebuild; guard against a duplicate anyway
        if (by_op_[op].empty() || by_op_[op].back() != id)
          by_op_[op].push_back(id);
      }
      first = false;
      last = op;
    }
  }
  by_op_version_ = version_;
}

const std::vector<Id>& EGraph::classes_with_op(OpId op) const {
  build_op_index();
  return by_op_[op];
}

std::size_t EGraph::approx_bytes() const {
  // O(1): capacities of the arenas and tables, plus an estimate of the per-class lists beyond
  // their inline slots (about one node entry per node and one parent entry per child slot).
  std::size_t n = sizeof(*this) + uf_.capacity_bytes() + nodes_.capacity() * sizeof(NodeRec) +
                  kids_.capacity() * sizeof(Id) + classes_.capacity() * sizeof(EClass) +
                  memo_.capacity_bytes() + (child_slots_ + nodes_.size()) * sizeof(Id);
  n += (pending_.capacity() + analysis_pending_.capacity() + modify_pending_.capacity() +
        dirty_.capacity() + scratch_.capacity()) *
       sizeof(Id);
  for (const auto& a : analyses_)
    n += a->approx_bytes();
  if (explain_)
    n += explain_->approx_bytes();
  return n;
}

std::optional<std::string> EGraph::check_invariants() const {
  if (!pending_.empty() || !analysis_pending_.empty() || !modify_pending_.empty() ||
      !dirty_.empty())
    return "the e-graph is not rebuilt (pending work)";
  // Parent lists are unordered: index them once.
  std::vector<std::vector<Id>> parents_of(uf_.size());
  for (Id c = 0; c < uf_.size(); ++c) {
    parents_of[c].assign(classes_[c].parents.begin(), classes_[c].parents.end());
    std::sort(parents_of[c].begin(), parents_of[c].end());
  }
  auto has_parent = [&](Id cls, Id node) {
    return std::binary_search(parents_of[cls].begin(), parents_of[cls].end(), node);
  };
  std::size_t live = 0;
  std::size_t classes = 0;
  for (Id n = 0; n < uf_.size(); ++n) {
    const std::string at = "node " + std::to_string(n);
    if (uf_.is_root(n) && !classes_[n].nodes.empty()) {
      ++classes;
      const EClass& c = classes_[n];
      if (std::adjacent_find(parents_of[n].begin(), parents_of[n].end()) != parents_of[n].end())
        return "class " + std::to_string(n) + ": parent list holds a node twice";
      for (std::uint32_t i = 0; i < c.nodes.size(); ++i) {
        const Id m = c.nodes[i];
        if (!is_live_node(m))
          return "class " + std::to_string(n) + " holds dead node " + std::to_string(m);
        if (find(m) != n)
          return "class " + std::to_string(n) + " holds node " + std::to_string(m) + " of class " +
                 std::to_string(find(m));
        if (i > 0) {
          const NodeRec &a = nodes_[c.nodes[i - 1]], &b = nodes_[m];
          if (a.op > b.op || (a.op == b.op && a.payload > b.payload))
            return "class " + std::to_string(n) + ": nodes not sorted by operator";
        }
      }
    }
    if (!is_live_node(n))
      continue;
    ++live;
    const NodeRec& r = nodes_[n];
    const Id cls = find(n);
    if (std::find(classes_[cls].nodes.begin(), classes_[cls].nodes.end(), n) ==
        classes_[cls].nodes.end())
      return at + " is missing from its class " + std::to_string(cls);
    const std::span<const Id> kids(kids_of(r), r.len);
    for (Id k : kids)
      if (!uf_.is_root(k))
        return at + " has a non-canonical child " + std::to_string(k);
    if (lang_->is_ac(r.op) && !std::is_sorted(kids.begin(), kids.end()))
      return at + ": AC children not sorted";
    if (lang_->is_ac(r.op) && kids.size() == 1)
      return at + ": one-child AC node";
    const auto hash = hash_node(r.op, r.payload, kids);
    if (static_cast<std::uint32_t>(hash) != r.hash)
      return at + ": stored hash is stale";
    auto hit = memo_find(r.op, r.payload, kids, hash);
    if (!hit)
      return at + " is missing from the hashcons";
    if (*hit != n)
      return at + " is congruent to node " + std::to_string(*hit) + " (not closed)";
    for (Id k : kids)
      if (!has_parent(k, n))
        return at + " is missing from the parent list of class " + std::to_string(k);
  }
  if (live != live_nodes_)
    return "live node count " + std::to_string(live_nodes_) + " != " + std::to_string(live);
  if (memo_.size() != live)
    return "hashcons holds " + std::to_string(memo_.size()) + " entries for " +
           std::to_string(live) + " live nodes";
  if (classes != num_classes_)
    return "class count " + std::to_string(num_classes_) + " != " + std::to_string(classes);
  return std::nullopt;
}

std::string EGraph::dump() const {
  std::string out;
  for (Id c : class_ids()) {
    out += std::to_string(c);
    out += ':';
    for (Id n : classes_[c].nodes) {
      const NodeRec& r = nodes_[n];
      out += " (";
      out += lang_->op(r.op).name;
      if (lang_->op(r.op).payload != PayloadKind::None) {
        out += ':';
        out += lang_->payload_text(r.op, r.payload);
      }
      for (std::uint32_t i = 0; i < r.len; ++i) {
        out += ' ';
        out += std::to_string(find(kids_of(r)[i]));
      }
      out += ')';
    }
    out += '\n';
  }
  return out;
}

} // namespace volta::egraph
