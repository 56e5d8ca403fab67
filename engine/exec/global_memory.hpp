// Global memory of one kernel launch: the arrays of the launch configuration and the module's
// .global variables, stored sparsely in 4 KiB pages that are created and filled with their
// initial contents (input symbols, index values, zeros, "uninitialized") on first touch. Shared
// by every CTA; each page has a lock for the race shadow and the cells.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/exec/byte_cells.hpp"
#include "engine/exec/input_symbols.hpp"
#include "engine/exec/program.hpp"
#include "engine/exec/race_shadow.hpp"
#include "engine/launch/launch_config.hpp"

namespace volta::exec {

// A block of global memory with a name: an array of the launch or a module variable.
struct Region {
  std::string name;
  uint64_t base = 0;
  uint64_t size = 0;
  uint32_t elem_width = 1;
  launch::ArrayKind kind = launch::ArrayKind::Zero;
  bool is_array = false;     // an array of the launch configuration (else a module variable)
  uint32_t array_id = 0;     // symbol id in the ExprStore (inputs)
  uint32_t integer_bits = 0; // element width of an array declared with an integer type
  size_t slot = 0;           // index in GlobalMemory::regions()
  size_t config_index = 0;   // index in KernelConfig::arrays
  launch::ElemType declared = launch::ElemType::Unknown; // the manifest's "type"
  const std::vector<uint8_t>* initial = nullptr;         // module variables
};

// Marks in `store` what the configuration's arrays declare (integer arrays, float formats), as
// a GlobalMemory for it does. Two kernels of a pair executing into one store call it for both
// configurations first: a kernel reads the marks while it runs (an integer array's element read
// as a float is any IEEE value), so a mark the other kernel's memory set later would make the
// run depend on timing.
void mark_declared_types(symbolic::ExprStore& store, const launch::KernelConfig& config);

class GlobalMemory {
public:
  // Small pages: a CTA often reads a thin column slice of a big matrix (64 floats of each of 4096
  // rows), and every touched page is created whole.
  static constexpr uint64_t kPageBits = 9;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  struct Page {
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    ByteCell cells[kPageSize];
    std::unique_ptr<ShadowPage> shadow; // created on first checked access
    // The group of CTAs (restart) whose contents the cells hold; a page kept from an earlier
    // group (for its race shadow) gets its initial contents again when next touched.
    uint32_t generation = 0;
  };

  GlobalMemory(const Program& program, const launch::KernelConfig& config,
               symbolic::ExprStore& store, ExprId undef);

  // The region holding all of [address, address + size), or nullptr.
  const Region* find(uint64_t address, uint64_t size) const;
  // The region whose extent is nearest to `address` (for out-of-bounds messages).
  const Region* nearest(uint64_t address) const;

  // The page holding `address`, created on first touch. Thread-safe.
  Page& page(uint64_t address);
  // The symbol of element `element` of `r`, an input array (kind `in` or `inout`), without its
  // cells. Thread-safe. The same node materialize_inputs puts in the cells.
  ExprId input_symbol(const Region& r, uint64_t element) {
    return inputs_.element(r.slot, element);
  }
  // Creates the input symbols of the bytes [address, address + size) of `page` that have not
  // been touched yet (input arrays are filled lazily: a CTA reads a thin slice of them).
  // Thread-safe: it looks at the cells without a lock (awaits_input) and makes the missing ones
  // under the page lock, released on every way out.
  void materialize_inputs(Page& page, uint64_t address, uint32_t size);

  // Calls f(region, offset, cell) for every byte of every page touched so far that lies in an
  // output array (single-threaded use after execution).
  template <class F>
  void for_each_touched_page(F&& f) const {
    for (const auto& [number, page] : pages_) {
      if (page->generation == generation_) // not a page kept from an earlier group, untouched
        f(number << kPageBits, *page);
    }
  }

  const std::vector<Region>& regions() const { return regions_; }
  // The array of this launch whose input symbols have id `array_id` in the store (kind `in` or
  // `inout`), or nullptr: what an Input node's bytes are (its width, its declared type).
  const Region* input_array(uint32_t array_id) const {
    return array_id < input_by_id_.size() ? input_by_id_[array_id] : nullptr;
  }
  // No two regions share a byte (the manifest refuses overlapping arrays): then the region
  // holding an access is the only one, and a cache of recently found regions is exact.
  bool disjoint() const { return disjoint_; }

  // Starts over in another expression store (a run of the grid a group of CTAs at a time,
  // grouped_launch.hpp): every cell goes back to its initial contents, built anew in `store`
  // (lazily: a page the new group touches is filled again then), and the race shadow stays. A CTA
  // of a later group that touches a location an earlier group wrote (or writes one it read) is a
  // race between CTAs that the shadow still reports; without one, no value crosses from one group
  // to the next. Only while no CTA runs.
  void restart(symbolic::ExprStore& store, ExprId undef);

private:
  // Is any of the `size` cells an input byte whose symbol is still to be created? Lock-free
  // (an acquire load of each `stored_as`, which materialize_inputs writes last with a release
  // store): a cell found complete is complete, with all its fields visible. Reading the cells
  // the load reads anyway costs no extra cache line, where a per-page count of lazy bytes cost
  // a miss on the page header and a locked exchange on every load of a page not yet read whole
  // (a quarter of the naive GEMM's access()).
  static bool awaits_input(ByteCell* cells, uint32_t size) {
    bool lazy = false;
    for (uint32_t i = 0; i < size; ++i)
      lazy |= std::atomic_ref<uint8_t>(cells[i].stored_as).load(std::memory_order_acquire) ==
              kLazyInput;
    return lazy;
  }
  void initialize(uint64_t page_base, Page& page);

  std::vector<Region> regions_;            // sorted by base
  std::vector<const Region*> input_by_id_; // input arrays by their store id (input_array)
  void index_inputs();
  bool disjoint_ = true;
  symbolic::ExprStore* store_;
  ExprId undef_;
  uint32_t generation_ = 0; // restarts so far
  InputSymbols inputs_;
  std::vector<std::vector<uint8_t>> globals_bytes_;
  std::mutex pages_mutex_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

} // namespace volta::exec
