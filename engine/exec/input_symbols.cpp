#include "engine/exec/input_symbols.hpp"

#include <thread>

namespace volta::exec {

InputSymbols::~InputSymbols() {
  for (auto& a : arrays_)
    clear(a);
}

void InputSymbols::clear(Array& a) {
  for (size_t c = 0; c < a.chunk_count; ++c) {
    delete a.chunks[c].load(std::memory_order_relaxed);
    a.chunks[c].store(nullptr, std::memory_order_relaxed);
  }
}

void InputSymbols::reset(symbolic::ExprStore& store) {
  store_ = &store;
  for (auto& a : arrays_)
    clear(a);
}

void InputSymbols::add_array(size_t slot, uint32_t array_id, uint64_t elements,
                             uint32_t integer_bits) {
  if (arrays_.size() <= slot)
    arrays_.resize(slot + 1);
  Array& a = arrays_[slot];
  clear(a);
  a.array_id = array_id;
  a.integer_bits = integer_bits;
  a.elements = elements;
  a.chunk_count = static_cast<size_t>((elements + kChunkMask) >> kChunkBits);
  a.chunks = std::make_unique<std::atomic<Chunk*>[]>(a.chunk_count);
  for (size_t c = 0; c < a.chunk_count; ++c)
    a.chunks[c].store(nullptr, std::memory_order_relaxed);
}

void InputSymbols::rename(size_t slot, uint32_t array_id) {
  arrays_[slot].array_id = array_id;
}

ExprId InputSymbols::create(Array& a, uint64_t index) {
  std::atomic<Chunk*>& chunk_slot = a.chunks[index >> kChunkBits];
  Chunk* chunk = chunk_slot.load(std::memory_order_acquire);
  if (chunk == nullptr) {
    auto fresh = std::make_unique<Chunk>();
    if (chunk_slot.compare_exchange_strong(chunk, fresh.get(), std::memory_order_acq_rel))
      chunk = fresh.release();
    // else `chunk` is the one another thread installed first
  }
  std::atomic<ExprId>& id = chunk->ids[index & kChunkMask];
  ExprId seen = 0;
  if (id.compare_exchange_strong(seen, kClaimed, std::memory_order_acquire)) {
    // This thread makes the element: its block's first id (the store's lock, once per block),
    // then its node, published by the release store of its id.
    // If the store throws (out of memory, the DAG full), the claim is given back: a thread
    // waiting for this element below must not wait for ever.
    try {
      std::atomic<ExprId>& start =
          chunk->block_start[(index & kChunkMask) / symbolic::ExprStore::kInputBlock];
      ExprId first = start.load(std::memory_order_acquire);
      if (first == 0) {
        first = store_->input_block(
            a.array_id, static_cast<uint32_t>(index / symbolic::ExprStore::kInputBlock));
        start.store(first, std::memory_order_release);
      }
      ExprId made = store_->input_at(first, a.array_id, static_cast<uint32_t>(index));
      if (a.integer_bits != 0) // integer data: the element is its integer view
        made = store_->intern(symbolic::Node{symbolic::Op::FloatBits,
                                             symbolic::width_code(a.integer_bits), 0, made, 0, 0});
      id.store(made, std::memory_order_release);
      return made;
    } catch (...) {
      id.store(0, std::memory_order_release);
      throw;
    }
  }
  while (seen == kClaimed) { // another thread is making it
    std::this_thread::yield();
    seen = id.load(std::memory_order_acquire);
  }
  return seen != 0 ? seen : create(a, index); // 0: the maker failed; try again here
}

} // namespace volta::exec
