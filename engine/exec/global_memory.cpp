#include "engine/exec/global_memory.hpp"

#include <algorithm>

#include "engine/exec/region_map.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

namespace {
// The format of a float array's elements, for counterexamples (ExprStore::element_format).
void mark_element_format(symbolic::ExprStore& store, uint32_t array_id, launch::ElemType t) {
  switch (t) {
  case launch::ElemType::F16:
    return store.set_element_format(array_id, symbolic::kFormatF16);
  case launch::ElemType::BF16:
    return store.set_element_format(array_id, symbolic::kFormatBF16);
  case launch::ElemType::F32:
    return store.set_element_format(array_id, symbolic::kFormatF32);
  case launch::ElemType::F64:
    return store.set_element_format(array_id, symbolic::kFormatF64);
  default:
    return;
  }
}
// An array's declared type in the store's marks (the one place GlobalMemory and
// mark_declared_types set them).
uint32_t mark_declared_type(symbolic::ExprStore& store, const launch::ArraySpec& a) {
  const uint32_t id = store.add_array_name(a.name);
  if (!launch::is_float(a.type) && a.type != launch::ElemType::Unknown)
    store.mark_integer_array(id);
  mark_element_format(store, id, a.type);
  return id;
}
} // namespace

void mark_declared_types(symbolic::ExprStore& store, const launch::KernelConfig& config) {
  for (const auto& a : config.arrays)
    mark_declared_type(store, a);
}

GlobalMemory::GlobalMemory(const Program& program, const launch::KernelConfig& config,
                           symbolic::ExprStore& store, ExprId undef)
    : store_(&store), undef_(undef), inputs_(store) {
  for (size_t i = 0; i < config.arrays.size(); ++i) {
    const auto& a = config.arrays[i];
    Region r;
    r.name = a.name;
    r.base = a.base;
    r.size = a.size_bytes();
    r.elem_width = a.elem_width;
    r.kind = a.kind;
    r.is_array = true;
    r.array_id = mark_declared_type(store, a);
    r.integer_bits =
        launch::is_float(a.type) || a.type == launch::ElemType::Unknown ? 0 : 8 * a.elem_width;
    VOLTA_ASSERT(a.elem_width != 0 && (a.elem_width & (a.elem_width - 1)) == 0,
                 "an array's element width is a power of two (the cells' pos field)");
    r.config_index = i;
    r.declared = a.type;
    regions_.push_back(r);
  }
  // Module .global variables: initializer bytes, overridden by the launch's `globals`.
  globals_bytes_.reserve(program.variables.size());
  for (const auto& v : program.variables) {
    if (v.space != Space::Global)
      continue;
    std::vector<uint8_t> bytes(v.size, 0);
    for (const auto& [address, data] : program.initial_data) {
      if (address == v.address)
        std::copy(data.begin(), data.end(), bytes.begin());
    }
    if (auto it = config.globals.find(v.name); it != config.globals.end()) {
      for (size_t b = 0; b < bytes.size() && b < 8; ++b)
        bytes[b] = static_cast<uint8_t>(static_cast<uint64_t>(it->second) >> (8 * b));
    }
    globals_bytes_.push_back(std::move(bytes));
    Region r;
    r.name = v.name;
    r.base = v.address;
    r.size = v.size;
    r.elem_width = 1;
    r.kind = launch::ArrayKind::Zero;
    r.initial = &globals_bytes_.back();
    regions_.push_back(r);
  }
  sort_by_base(regions_.begin(), regions_.end());
  disjoint_ =
      first_overlap(regions_.begin(), regions_.end(), [](const Region& r) { return r.size; }) == 0;
  for (size_t i = 0; i < regions_.size(); ++i) {
    Region& r = regions_[i];
    r.slot = i;
    if (r.is_array && (r.kind == launch::ArrayKind::In || r.kind == launch::ArrayKind::InOut))
      inputs_.add_array(i, r.array_id, (r.size + r.elem_width - 1) / r.elem_width, r.integer_bits);
  }
  index_inputs();
}

void GlobalMemory::index_inputs() {
  input_by_id_.clear();
  for (const Region& r : regions_) {
    if (!r.is_array || (r.kind != launch::ArrayKind::In && r.kind != launch::ArrayKind::InOut))
      continue;
    if (input_by_id_.size() <= r.array_id)
      input_by_id_.resize(r.array_id + 1, nullptr);
    input_by_id_[r.array_id] = &r;
  }
}

const Region* GlobalMemory::find(uint64_t address, uint64_t size) const {
  const Region* r = region_holding(regions_.data(), regions_.data() + regions_.size(), address,
                                   size, [](const Region& x) { return x.size; });
  VOLTA_ASSERT(r == nullptr || (r->base <= address && address + size <= r->base + r->size),
               "a found region holds the whole access");
  return r;
}

const Region* GlobalMemory::nearest(uint64_t address) const {
  const Region* best = nullptr;
  uint64_t best_distance = ~uint64_t{0};
  for (const auto& r : regions_) {
    uint64_t d = address < r.base             ? r.base - address
                 : address >= r.base + r.size ? address - (r.base + r.size) + 1
                                              : 0;
    if (d < best_distance) {
      best_distance = d;
      best = &r;
    }
  }
  return best;
}

GlobalMemory::Page& GlobalMemory::page(uint64_t address) {
  const uint64_t number = address >> kPageBits;
  std::lock_guard guard(pages_mutex_);
  auto& slot = pages_[number];
  if (!slot) {
    slot = std::make_unique<Page>();
    slot->generation = generation_;
    initialize(number << kPageBits, *slot);
  } else if (slot->generation != generation_) {
    // Kept from an earlier group for its race shadow: the cells start over.
    std::fill(std::begin(slot->cells), std::end(slot->cells), ByteCell{});
    slot->generation = generation_;
    initialize(number << kPageBits, *slot);
  }
  return *slot;
}

void GlobalMemory::materialize_inputs(Page& page, uint64_t address, uint32_t size) {
  const uint64_t page_base = address & ~(kPageSize - 1);
  if (!awaits_input(&page.cells[address - page_base], size))
    return;
  struct PageLock { // held until return or a throw (out of memory)
    std::atomic_flag& flag;
    explicit PageLock(std::atomic_flag& f) : flag(f) {
      while (flag.test_and_set(std::memory_order_acquire)) {
      }
    }
    ~PageLock() { flag.clear(std::memory_order_release); }
    PageLock(const PageLock&) = delete;
    PageLock& operator=(const PageLock&) = delete;
  } hold(page.lock);
  for (uint32_t i = 0; i < size; ++i) {
    ByteCell& c = page.cells[address + i - page_base];
    if (std::atomic_ref<uint8_t>(c.stored_as).load(std::memory_order_relaxed) != kLazyInput)
      continue;
    const Region* r = find(address + i, 1);
    VOLTA_ASSERT(r != nullptr && r->is_array, "a lazy input byte lies in an input array");
    const uint64_t offset = address + i - r->base;
    const uint64_t element = offset / r->elem_width;
    const ExprId leaf = inputs_.element(r->slot, element);
    // Fill every byte of the element that lies in this page.
    const uint64_t first = r->base + element * r->elem_width;
    for (uint32_t b = 0; b < r->elem_width; ++b) {
      const uint64_t at = first + b;
      if (at < page_base || at >= page_base + kPageSize)
        continue;
      ByteCell& cell = page.cells[at - page_base];
      cell.node = leaf;
      cell.byte = 0;
      cell.pos = static_cast<uint8_t>((__builtin_ctz(r->elem_width) << 4) | b);
      cell.written = 0;
      std::atomic_ref<uint8_t>(cell.stored_as).store(kStoredUnsigned, std::memory_order_release);
    }
  }
}

void GlobalMemory::restart(symbolic::ExprStore& store, ExprId undef) {
  store_ = &store;
  undef_ = undef;
  inputs_.reset(store);
  for (auto& r : regions_) {
    if (!r.is_array)
      continue;
    r.array_id = store.add_array_name(r.name);
    if (r.integer_bits != 0)
      store.mark_integer_array(r.array_id);
    mark_element_format(store, r.array_id, r.declared);
    if (r.kind == launch::ArrayKind::In || r.kind == launch::ArrayKind::InOut)
      inputs_.rename(r.slot, r.array_id);
  }
  index_inputs();
  // A page without a shadow holds nothing the next group needs (its cells are made again on
  // first touch); a page with one keeps it, and its cells are made again on its first touch
  // in the new generation (page()): a group touches a few of the pages all groups wrote.
  std::erase_if(pages_, [](const auto& entry) { return !entry.second->shadow; });
  ++generation_;
}

void GlobalMemory::initialize(uint64_t page_base, Page& page) {
  const uint64_t page_end = page_base + kPageSize;
  for (const auto& r : regions_) {
    const uint64_t lo = std::max(page_base, r.base);
    const uint64_t hi = std::min(page_end, r.base + r.size);
    if (lo >= hi)
      continue;
    for (uint64_t a = lo; a < hi; ++a) {
      ByteCell& c = page.cells[a - page_base];
      const uint64_t offset = a - r.base;
      if (!r.is_array) {
        c = ByteCell{0, (*r.initial)[offset], 0};
        continue;
      }
      const uint64_t element = offset / r.elem_width;
      const uint32_t within = static_cast<uint32_t>(offset % r.elem_width);
      switch (r.kind) {
      case launch::ArrayKind::In:
      case launch::ArrayKind::InOut:
        c = ByteCell{0, 0, 0, 0, kLazyInput};
        break;
      case launch::ArrayKind::Index:
        c = ByteCell{0, static_cast<uint8_t>(element >> (8 * within)), 0};
        break;
      case launch::ArrayKind::Zero:
        c = ByteCell{0, 0, 0};
        break;
      case launch::ArrayKind::Out:
        c = ByteCell{undef_, 0, 0};
        break;
      }
    }
  }
}

} // namespace volta::exec
