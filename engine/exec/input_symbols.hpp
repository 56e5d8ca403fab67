// The symbols of the elements of a launch's input arrays (kind `in` and `inout`): element i of
// an array is ExprStore::input(array, i), created on first use and found again without a lock.
//
// Loads from input arrays are the most frequent memory operation of the naive kernels that
// references are (a GEMM reads 2 N^3 input elements); the byte cells they would otherwise go
// through cost 32 bytes of memory traffic and a page lock per f32 element the first time, and a
// mutex in ExprStore::input. Here a known element costs one acquire load of a 4-byte id, and a
// new one a compare-and-swap (the store's lock is taken once per block of 1024 elements).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::exec {

using symbolic::ExprId;

class InputSymbols {
public:
  explicit InputSymbols(symbolic::ExprStore& store) : store_(&store) {}
  ~InputSymbols();
  InputSymbols(const InputSymbols&) = delete;
  InputSymbols& operator=(const InputSymbols&) = delete;

  // A new expression store (the next group of a grouped launch): every id is forgotten.
  void reset(symbolic::ExprStore& store);
  // Declares slot `slot` (the caller's index of the array) as input array `array_id` of the
  // store with `elements` elements. `integer_bits`: the element width of an array declared with
  // an integer type, whose elements are their integer views (FloatBits of the symbol), 0 else.
  void add_array(size_t slot, uint32_t array_id, uint64_t elements, uint32_t integer_bits = 0);
  // The array's id in the current store (after a reset the caller registers the names again).
  void rename(size_t slot, uint32_t array_id);

  // The symbol of element `index` of the array in `slot` (index < its element count).
  // Thread-safe; its node is complete and visible to the caller.
  ExprId element(size_t slot, uint64_t index) {
    Array& a = arrays_[slot];
    const Chunk* chunk = a.chunks[index >> kChunkBits].load(std::memory_order_acquire);
    if (chunk != nullptr) [[likely]] {
      const ExprId id = chunk->ids[index & kChunkMask].load(std::memory_order_acquire);
      if (id > kClaimed) [[likely]]
        return id;
    }
    return create(a, index);
  }

private:
  // Ids in chunks of 4096 elements allocated on first use: a kernel touching a corner of a
  // huge array pays for that corner.
  static constexpr unsigned kChunkBits = 12;
  static constexpr uint64_t kChunkMask = (uint64_t{1} << kChunkBits) - 1;
  static constexpr uint32_t kBlocksPerChunk =
      (uint32_t{1} << kChunkBits) / symbolic::ExprStore::kInputBlock;
  // An element's id while one thread creates its node (no input symbol has id 1: the store
  // never hands out its first block for inputs).
  static constexpr ExprId kClaimed = 1;
  struct Chunk {
    std::atomic<ExprId> block_start[kBlocksPerChunk] = {}; // 0: not asked for yet
    std::atomic<ExprId> ids[size_t{1} << kChunkBits] = {}; // 0: absent, kClaimed: being made
  };
  struct Array {
    uint32_t array_id = 0;
    uint32_t integer_bits = 0;
    uint64_t elements = 0;
    std::unique_ptr<std::atomic<Chunk*>[]> chunks; // nullptr: not allocated yet
    size_t chunk_count = 0;
  };
  [[gnu::noinline]] ExprId create(Array& a, uint64_t index);
  void clear(Array& a);

  symbolic::ExprStore* store_;
  std::vector<Array> arrays_;
};

} // namespace volta::exec
