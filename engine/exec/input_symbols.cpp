#include "engine/exec/input_symbols.hpp"

namespace volta::exec {

InputSymbols::~InputSymbols() {
  for (auto& a : arrays_)
    clear(a);
}

void InputSymbols::clear(Array& a) {
  for (size_t c = 0; c < a.chunk_count; ++c) {
    delete[] a.chunks[c].load(std::memory_order_relaxed);
    a.chunks[c].store(nullptr, std::memory_order_relaxed);
  }
}

void InputSymbols::reset(symbolic::ExprStore& store) {
  store_ = &store;
  for (auto& a : arrays_)
    clear(a);
}

void InputSymbols::add_array(size_t slot, uint32_t array_id, uint64_t elements) {
  if (arrays_.size() <= slot)
    arrays_.resize(slot + 1);
  Array& a = arrays_[slot];
  clear(a);
  a.array_id = array_id;
  a.elements = elements;
  a.chunk_count = static_cast<size_t>((elements + kChunkMask) >> kChunkBits);
  a.chunks = std::make_unique<std::atomic<std::atomic<ExprId>*>[]>(a.chunk_count);
  for (size_t c = 0; c < a.chunk_count; ++c)
    a.chunks[c].store(nullptr, std::memory_order_relaxed);
}

void InputSymbols::rename(size_t slot, uint32_t array_id) {
  arrays_[slot].array_id = array_id;
}

ExprId InputSymbols::create(Array& a, uint64_t index) {
  std::lock_guard guard(mutex_);
  std::atomic<ExprId>* chunk = a.chunks[index >> kChunkBits].load(std::memory_order_relaxed);
  if (chunk == nullptr) {
    chunk = new std::atomic<ExprId>[size_t{1} << kChunkBits];
    for (size_t i = 0; i < (size_t{1} << kChunkBits); ++i)
      chunk[i].store(0, std::memory_order_relaxed);
    a.chunks[index >> kChunkBits].store(chunk, std::memory_order_release);
  }
  ExprId id = chunk[index & kChunkMask].load(std::memory_order_relaxed);
  if (id == 0) {
    // The node is written by input() before the release below publishes its id.
    id = store_->input(a.array_id, static_cast<uint32_t>(index));
    chunk[index & kChunkMask].store(id, std::memory_order_release);
  }
  return id;
}

} // namespace volta::exec
