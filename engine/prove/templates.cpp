#include "engine/prove/templates.hpp"

#include <algorithm>
#include <cstdio>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <unordered_set>

namespace volta::prove {

using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ull;
}

bool renamable(Op op) {
  return op == Op::Input || op == Op::Param;
}

} // namespace

std::string template_key(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                         launch::ElemType ref_type, launch::ElemType opt_type) {
  // Two independent 64-bit hashes of the same canonical serialization (128 bits in all): the
  // serialization numbers nodes in DFS pre-order, so sharing and leaf identity are part of it.
  uint64_t h1 = 0x76'6f'6c'74'61'2d'65'67ull; // "volta-eg"
  uint64_t h2 = 0x9E3779B97F4A7C15ull ^ 2;    // bump the salt when the prover's meaning changes
  auto feed = [&](uint64_t v) {
    h1 = mix(h1, v);
    h2 = mix(h2 ^ 0x5bd1e995u, v * 0xff51afd7ed558ccdull + 7);
  };
  // The exact text of a constant, 8 bytes at a time, then its length.
  auto feed_text = [&](const std::string& text) {
    for (size_t i = 0; i < text.size(); i += 8) {
      uint64_t chunk = 0;
      for (size_t k = i; k < text.size() && k < i + 8; ++k)
        chunk = chunk << 8 | static_cast<uint8_t>(text[k]);
      feed(chunk);
    }
    feed(text.size());
  };
  feed(static_cast<uint64_t>(ref_type) << 8 | static_cast<uint64_t>(opt_type));
  std::unordered_map<ExprId, uint64_t> number; // node -> DFS number
  std::unordered_map<ExprId, uint64_t> leaf_number;
  uint64_t next = 0, next_leaf = 0;
  for (ExprId root : {ref, opt}) {
    std::vector<ExprId> stack{root};
    feed(0xABCDEF); // root separator
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (auto it = number.find(id); it != number.end()) {
        feed(1);
        feed(it->second);
        continue;
      }
      number.emplace(id, next++);
      const Node& n = store.node(id);
      feed(2);
      feed(static_cast<uint64_t>(n.op) << 8 | n.aux);
      if (renamable(n.op)) {
        auto [it, fresh] = leaf_number.emplace(id, next_leaf);
        if (fresh)
          ++next_leaf;
        feed(it->second);
        continue;
      }
      if (n.op == Op::Const) {
        feed_text(store.rational(id).get_str());
        continue;
      }
      const int count = symbolic::child_count(n.op);
      const ExprId kids[3] = {n.a, n.b, n.c};
      // The fields that are not children (a leaf's payload, Extract's width): data.
      for (int i = count; i < 3; ++i)
        feed(kids[i]);
      if (count == 0)
        continue;
      for (int i = count - 1; i >= 0; --i) {
        if (kids[i] == symbolic::kNoExpr) {
          feed(3);
        } else {
          stack.push_back(kids[i]);
        }
      }
    }
  }
  char buffer[33];
  std::snprintf(buffer, sizeof(buffer), "%016llx%016llx", static_cast<unsigned long long>(h1),
                static_cast<unsigned long long>(h2));
  return buffer;
}

TemplateMatcher::TemplateMatcher(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                                 bool skip_ranges)
    : store_(store) {
  // Number the nodes of the representative's DAG, parents first (a DFS pre-order is enough:
  // every child gets its index when first reached; matching fills images top-down).
  std::unordered_map<ExprId, uint32_t> index;
  std::vector<ExprId> order;
  auto visit = [&](ExprId r) {
    std::vector<ExprId> stack{r};
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (index.count(id))
        continue;
      index.emplace(id, static_cast<uint32_t>(order.size()));
      order.push_back(id);
      const Node& n = store_.node(id);
      if (renamable(n.op))
        continue;
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = symbolic::child_count(n.op) - 1; i >= 0; --i) {
        if (kids[i] != symbolic::kNoExpr)
          stack.push_back(kids[i]);
      }
    }
  };
  visit(ref);
  visit(opt);
  entries_.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const Node& n = store_.node(order[i]);
    Entry& e = entries_[i];
    e.node = n;
    e.renamable = renamable(n.op);
    if (e.renamable)
      continue;
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int k = 0; k < symbolic::child_count(n.op); ++k) {
      if (kids[k] != symbolic::kNoExpr)
        e.kids[k] = index.at(kids[k]);
    }
  }
  ref_root_ = index.at(ref);
  opt_root_ = index.at(opt);
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].renamable)
      leaf_entries_.push_back(i);
  }
  skippable_.assign(entries_.size(), 0);
  if (skip_ranges)
    number_ranges();
  static std::atomic<uint64_t> next_serial{1};
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
  prepare(own_);
}

void TemplateMatcher::number_ranges() {
  const auto n = static_cast<uint32_t>(entries_.size());
  range_end_.assign(n, 0);
  range_exits_.assign(n, {});
  std::vector<uint8_t> overflow(n, 0);
  // Children after i are in i's range (the DFS reached them from i first), so ranges and exits
  // follow from the children's, from the last entry back.
  for (uint32_t i = n; i-- > 0;) {
    const Entry& e = entries_[i];
    uint32_t end = i + 1;
    std::vector<uint32_t> exits;
    bool too_many = false;
    auto add_exit = [&](uint32_t k) {
      if (std::find(exits.begin(), exits.end(), k) != exits.end())
        return;
      if (exits.size() == kMaxExits)
        too_many = true;
      else
        exits.push_back(k);
    };
    for (uint32_t c : e.kids) {
      if (c == UINT32_MAX)
        continue;
      if (c < i) {
        add_exit(c);
        continue;
      }
      end = std::max(end, range_end_[c]);
      too_many |= overflow[c] != 0;
      for (uint32_t k : range_exits_[c]) {
        if (k < i) // the others lie in i's range
          add_exit(k);
      }
    }
    range_end_[i] = end;
    overflow[i] = too_many ? 1 : 0;
    if (!too_many)
      range_exits_[i] = std::move(exits);
    // Worth a skip: an internal entry with more than itself in its range.
    skippable_[i] = !too_many && !e.renamable && end > i + 1 ? 1 : 0;
  }
  // Only the skippable entries' exits are read.
  for (uint32_t i = 0; i < n; ++i) {
    if (!skippable_[i])
      std::vector<uint32_t>().swap(range_exits_[i]);
  }
}

void TemplateMatcher::prepare(Scratch& scratch) const {
  if (scratch.template_serial_ == serial_)
    return;
  scratch = Scratch{};
  scratch.template_serial_ = serial_;
  scratch.image_.assign(entries_.size(), 0);
  scratch.previous_.assign(entries_.size(), 0);
  scratch.stamp_.assign(entries_.size(), 0);
  size_t slots = 16;
  while (slots < 2 * leaf_entries_.size() + 2)
    slots *= 2;
  scratch.used_.assign(slots, {0, 0});
}

bool TemplateMatcher::use_leaf(Scratch& scratch, ExprId leaf) {
  auto& used = scratch.used_;
  const size_t mask = used.size() - 1;
  size_t i = (uint64_t{leaf} * 0x9E3779B97F4A7C15ull >> 20) & mask;
  while (used[i].first == scratch.epoch_) {
    if (used[i].second == leaf)
      return false; // two representative leaves map to it
    i = (i + 1) & mask;
  }
  used[i] = {scratch.epoch_, leaf};
  return true;
}

bool TemplateMatcher::matches(ExprId ref, ExprId opt, Scratch& scratch) const {
  prepare(scratch);
  auto& image = scratch.image_;
  auto& previous = scratch.previous_;
  auto& stamp = scratch.stamp_;
  auto& fresh_leaves = scratch.fresh_leaves_;
  auto& leaf_owner = scratch.leaf_owner_;
  bool& has_previous = scratch.has_previous_;
  const uint32_t epoch = ++scratch.epoch_;
  auto& kept_leaves = scratch.kept_leaves_;
  fresh_leaves.clear();
  kept_leaves.clear();
  auto assign = [&](uint32_t entry, ExprId id) {
    if (stamp[entry] == epoch)
      return image[entry] == id;
    stamp[entry] = epoch;
    image[entry] = id;
    return true;
  };
  if (!assign(ref_root_, ref) || !assign(opt_root_, opt))
    return false;
  // Entries are in DFS pre-order from the roots, so every entry's image is assigned (by a
  // parent or as a root) before the entry is visited.
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    if (stamp[i] != epoch)
      return false; // unreachable in the element: structure differs
    const Entry& e = entries_[i];
    if (e.renamable) {
      if (has_previous && image[i] == previous[i]) {
        kept_leaves.push_back(i); // its kind was checked then (distinctness below)
        continue;
      }
      if (e.node.op == Op::Input) {
        // Input symbols tell their array by id: no node read (the hot loop of reuse).
        if (store_.input_array_of(image[i]) != static_cast<int>(e.node.a))
          return false;
      } else if (store_.node(image[i]).op != e.node.op) {
        return false;
      }
      if (!use_leaf(scratch, image[i]))
        return false; // the renaming must be one-to-one
      fresh_leaves.push_back(i);
      continue;
    }
    if (has_previous && image[i] == previous[i]) {
      // The same element node as in the last match, which passed: its operator, fields and
      // children were checked then, and nodes never change. Its children's images are theirs
      // from that match, taken from memory read in order instead of the node's random read.
      // (The elements of one GPU thread share most of their DAG: attention's sixteen outputs
      // of a query row share the row's exponentials and their sum.)
      if (skippable_[i]) {
        // So is every image of its range (number_ranges): what visiting the range entry by
        // entry would give, in one pass. Each edge leaving the range must reach an entry that
        // kept its image too; an entry of the range given another image already (by a parent
        // before i) fails the match as it would have when visited.
        for (uint32_t k : range_exits_[i]) {
          if (image[k] != previous[k]) // k < i: stamped this epoch
            return false;
        }
        const uint32_t end = range_end_[i];
        for (uint32_t j = i + 1; j < end; ++j) {
          if (stamp[j] == epoch) {
            if (image[j] != previous[j])
              return false;
          } else {
            stamp[j] = epoch;
            image[j] = previous[j];
          }
        }
        auto leaf = std::lower_bound(leaf_entries_.begin(), leaf_entries_.end(), i + 1);
        for (; leaf != leaf_entries_.end() && *leaf < end; ++leaf)
          kept_leaves.push_back(*leaf);
        i = end - 1;
        continue;
      }
      for (int k = 0; k < 3; ++k) {
        if (e.kids[k] != UINT32_MAX && !assign(e.kids[k], previous[e.kids[k]]))
          return false;
      }
      continue;
    }
    const Node& m = store_.node(image[i]);
    if (m.op != e.node.op || m.aux != e.node.aux)
      return false;
    const int count = symbolic::child_count(m.op);
    const ExprId kids[3] = {m.a, m.b, m.c};
    const ExprId own[3] = {e.node.a, e.node.b, e.node.c};
    for (int k = count; k < 3; ++k) {
      if (kids[k] != own[k]) // a leaf's payload, Extract's width: data, not children
        return false;
    }
    if (count == 0)
      continue;
    for (int k = 0; k < count; ++k) {
      if (e.kids[k] == UINT32_MAX) {
        if (kids[k] != symbolic::kNoExpr)
          return false;
        continue;
      }
      if (kids[k] == symbolic::kNoExpr || !assign(e.kids[k], kids[k]))
        return false;
    }
  }
  // One-to-one: the leaves kept from the last match are distinct (they were then), the fresh
  // ones are distinct among themselves (use_leaf); no fresh leaf may be a kept leaf's image.
  // Checked from the smaller side: with few kept leaves, they join the fresh ones in the
  // epoch table; with few fresh ones (the common case of a shared DAG), each is looked up in
  // the last match's leaf owners, a table kept up to date only while it is used.
  const bool few_kept = kept_leaves.size() <= fresh_leaves.size();
  if (few_kept) {
    for (uint32_t j : kept_leaves) {
      if (!use_leaf(scratch, image[j]))
        return false;
    }
  } else {
    if (!scratch.owners_valid_) {
      leaf_owner.clear();
      for (uint32_t j : leaf_entries_)
        leaf_owner.insert(previous[j], j);
      scratch.owners_valid_ = true;
    }
    for (uint32_t j : fresh_leaves) {
      const uint32_t* owner = leaf_owner.find(image[j]);
      if (owner != nullptr && *owner != j && image[*owner] == image[j])
        return false;
    }
  }
  // Every entry has its image now (each was stamped, or the loop returned): the next match
  // compares against these, and leaf_owner follows the fresh leaves (or is dropped, to be
  // rebuilt when next needed, when most leaves changed).
  if (few_kept) {
    scratch.owners_valid_ = false;
  } else {
    for (uint32_t j : fresh_leaves) {
      const uint32_t* owner = leaf_owner.find(previous[j]);
      if (owner != nullptr && *owner == j)
        leaf_owner.erase(previous[j]);
    }
    for (uint32_t j : fresh_leaves)
      leaf_owner.set(image[j], j);
  }
  std::swap(previous, image);
  has_previous = true;
  return true;
}

struct ParallelTemplateMatch::PerThread {
  tbb::enumerable_thread_specific<
      std::unordered_map<const TemplateMatcher*, TemplateMatcher::Scratch>>
      scratches;
};

ParallelTemplateMatch::ParallelTemplateMatch() : per_thread_(std::make_unique<PerThread>()) {}
ParallelTemplateMatch::~ParallelTemplateMatch() = default;

std::vector<int> ParallelTemplateMatch::match(const std::vector<const TemplateMatcher*>& templates,
                                              std::span<const std::pair<ExprId, ExprId>> elements,
                                              const std::function<bool(size_t, size_t)>& eligible,
                                              const std::atomic<bool>* cancel) {
  std::vector<int> found(elements.size(), -1);
  // One contiguous chunk per worker (static partitioning): consecutive elements of one GPU
  // thread share most of their DAG, which a scratch then remembers.
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, elements.size()),
      [&](const tbb::blocked_range<size_t>& range) {
        auto& scratches = per_thread_->scratches.local();
        for (size_t e = range.begin(); e != range.end(); ++e) {
          if (cancel != nullptr && cancel->load(std::memory_order_relaxed))
            return;
          for (size_t t = 0; t < templates.size(); ++t) {
            if (!eligible(e, t))
              continue;
            if (templates[t]->matches(elements[e].first, elements[e].second,
                                      scratches[templates[t]])) {
              found[e] = static_cast<int>(t);
              break;
            }
          }
        }
      },
      tbb::static_partitioner());
  return found;
}

} // namespace volta::prove
