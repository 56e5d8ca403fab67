// Element templates: the elements of one output tensor are usually the same expression up to
// a renaming of the input elements. An identity proved over distinct symbols holds under any
// substitution, so a proof of one element carries over to every element that is the same
// template (the same DAG structure with a one-to-one renaming of its input leaves).
//
// Reuse is granted only after an exact match of the element against a proved representative:
// the same structure, the same sharing, and a one-to-one renaming of the input leaves.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/launch/launch_config.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/id_map.hpp"

namespace volta::prove {

// A content hash of an element pair up to renaming of its input leaves (numbered in order of
// first occurrence in a depth-first walk of ref, then opt), as 32 hex digits: equal keys mean
// the same template, so a proof recorded under the key holds for the pair. It covers
// everything that decides equality: every node's operator, aux (types, widths, rounding,
// kinds) and non-child fields, every constant exactly, the sharing, and the types the two
// kernels stored the element with (the same bytes are not the same value under another type).
// Includes a version salt of the prover, so that a changed prover never trusts old entries.
std::string template_key(const symbolic::ExprStore& store, symbolic::ExprId ref,
                         symbolic::ExprId opt, launch::ElemType ref_type = launch::ElemType::F32,
                         launch::ElemType opt_type = launch::ElemType::F32);

// A representative pair (ref root, opt root) compiled for matching other elements against it.
// The compiled template is immutable; the state of a match lives in a Scratch, so that several
// threads can match elements against one template at once, each with its own scratch.
class TemplateMatcher {
public:
  // What one matcher thread keeps between matches against one template: the images of the
  // current match and of the last successful one (elements matched one after the other often
  // share most of their DAG, which is then not read again).
  class Scratch {
    friend class TemplateMatcher;
    // The template it was prepared for (TemplateMatcher::serial_, never reused): a scratch
    // holds images of that template's entries only.
    uint64_t template_serial_ = 0;
    std::vector<symbolic::ExprId> image_; // per entry, during a match
    // Per entry, its image in the last successful match (valid when has_previous_).
    std::vector<symbolic::ExprId> previous_;
    bool has_previous_ = false;
    // The leaf entries whose image differs from the last match's (all of them in a first
    // match) and those whose image is the same, and, per element leaf of the last successful
    // match, the entry it was the image of (maintained only while matches keep most leaves).
    std::vector<uint32_t> fresh_leaves_;
    std::vector<uint32_t> kept_leaves_; // the others
    symbolic::IdMap leaf_owner_;
    bool owners_valid_ = false; // leaf_owner_ describes the last successful match
    std::vector<uint32_t> stamp_;
    uint32_t epoch_ = 0;
    // Element leaves already used by the renaming (open addressing, cleared by epoch).
    std::vector<std::pair<uint32_t, symbolic::ExprId>> used_;
  };

  // `skip_ranges`: walk past the part of the DAG an unchanged node leads to (below); off only
  // in the test that checks it changes nothing.
  TemplateMatcher(const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
                  bool skip_ranges = true);
  // True when (ref, opt) is the representative under a one-to-one renaming of input leaves.
  bool matches(symbolic::ExprId ref, symbolic::ExprId opt, Scratch& scratch) const;
  // The same with the matcher's own scratch (one thread).
  bool matches(symbolic::ExprId ref, symbolic::ExprId opt) { return matches(ref, opt, own_); }
  size_t size() const { return entries_.size(); }

private:
  struct Entry {
    symbolic::Node node;    // children replaced by local indices (or kept for leaves)
    bool renamable = false; // an input or parameter leaf
    uint32_t kids[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  };
  const symbolic::ExprStore& store_;
  std::vector<Entry> entries_; // parents before children
  uint32_t ref_root_ = 0, opt_root_ = 0;
  std::vector<uint32_t> leaf_entries_; // the renamable entries
  // The entries first reached from entry i in the numbering DFS are [i, range_end_[i]) (a DFS
  // numbers what it reaches from i before it leaves i), and each child of an entry of that range
  // lies in it or before i. So when an element's node at i is its node of the last match, the
  // whole range's images are the last match's (nodes never change): the match takes them
  // without reading a node, after checking the range's edges to entries before i
  // (range_exits_[i], at most kMaxExits of them; an entry with more is walked entry by entry).
  static constexpr uint32_t kMaxExits = 24;
  std::vector<uint32_t> range_end_;                // one past the range of entry i
  std::vector<std::vector<uint32_t>> range_exits_; // edges leaving the range to entries < i
  std::vector<uint8_t> skippable_;
  void number_ranges();
  uint64_t serial_ = 0;
  Scratch own_;
  void prepare(Scratch& scratch) const; // sizes a scratch for this template on first use
  static bool use_leaf(Scratch& scratch, symbolic::ExprId leaf);
};

// Matches windows of elements against a fixed list of templates on all cores, each thread with
// its own scratches (kept from window to window, so that consecutive elements still share the
// last match's images), in contiguous chunks. What the prover's element loop consults before
// it tries templates itself, one element at a time.
class ParallelTemplateMatch {
public:
  ParallelTemplateMatch();
  ~ParallelTemplateMatch();
  // For each element (ref, opt), the index in `templates` of the first one it matches among
  // those `eligible(element, template)` allows, or -1 (also for every element left when
  // `cancel` is set).
  std::vector<int> match(const std::vector<const TemplateMatcher*>& templates,
                         std::span<const std::pair<symbolic::ExprId, symbolic::ExprId>> elements,
                         const std::function<bool(size_t, size_t)>& eligible,
                         const std::atomic<bool>* cancel);

private:
  struct PerThread;
  std::unique_ptr<PerThread> per_thread_;
};

} // namespace volta::prove
