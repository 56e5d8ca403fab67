// Scalar loads and stores of shared and global memory for a warp's lanes in one loop: what
// exec_ld and exec_st do lane by lane, without their per-lane decoding and searches.
//
// A lane takes the fast path only where nothing can go wrong and nothing is to be noted: the
// access is aligned, lies in the variable or array the exact lookup would find (cached from the
// previous lane and checked to be that lookup's answer), every byte a shared load reads was
// written, no mbarrier is in shared memory, and no foreign read is to be counted. Any other
// lane goes through exec_ld / exec_st itself, in lane order, so errors, notes and their thread
// are exactly theirs.
#include <bit>
#include <cstring>

#include "engine/emulate/machine.hpp"
#include "engine/exec/access_place.hpp"
#include "engine/exec/region_map.hpp"

namespace volta::emulate {

using exec::Inst;
using exec::Space;
using exec::ValType;

namespace {

// Remembers the shared variable the last lane accessed. found(a, size) answers what
// exec::extent_holding answers, without its binary search when the lane stays in that variable:
// the cached extent is the one the search would pick (the last extent starting at or below `a`)
// exactly when it starts at or below `a` and the next extent starts above `a`.
class ExtentCache {
public:
  explicit ExtentCache(const exec::Extents& extents) : extents_(extents) {}
  bool found(uint64_t a, uint64_t size) {
    if (!cached(a))
      at_ = exec::extent_holding(extents_, a, size);
    return at_ != exec::kNoExtent && exec::holds(extents_[at_], a, size);
  }

private:
  bool cached(uint64_t a) const {
    return at_ != exec::kNoExtent && extents_[at_].first <= a &&
           (at_ + 1 == extents_.size() || extents_[at_ + 1].first > a);
  }
  const exec::Extents& extents_;
  size_t at_ = exec::kNoExtent;
};

// The same for the launch's global regions (LaunchState::find's region_holding).
class RegionCache {
public:
  explicit RegionCache(std::vector<GlobalRegion>& regions) : regions_(regions) {}
  GlobalRegion* found(uint64_t a, uint64_t size) {
    if (at_ == nullptr || !cached(a)) {
      GlobalRegion* first = regions_.data();
      at_ = exec::region_holding(first, first + regions_.size(), a, size,
                                 [](const GlobalRegion& r) { return r.size(); });
      return at_;
    }
    return exec::holds_access(at_->base, at_->size(), a, size) ? at_ : nullptr;
  }

private:
  bool cached(uint64_t a) const {
    const GlobalRegion* end = regions_.data() + regions_.size();
    return at_->base <= a && (at_ + 1 == end || (at_ + 1)->base > a);
  }
  std::vector<GlobalRegion>& regions_;
  GlobalRegion* at_ = nullptr;
};

template <uint32_t Size>
bool all_set(const uint8_t* flags) {
  bool all = true;
  for (uint32_t i = 0; i < Size; ++i)
    all = all && flags[i] != 0;
  return all;
}

} // namespace

bool Cta::access_warp_applies(const Inst& in, size_t values) const {
  return values == 1 && !in.mem[1].present &&
         (in.space == Space::Shared || in.space == Space::Global) && exec::width_of(in.type) >= 8 &&
         exec::width_of(in.type) <= 64 && (in.space != Space::Shared || mbarriers_.empty());
}

bool Cta::load_warp(const Inst& in, uint32_t w, uint32_t mask) {
  if (!access_warp_applies(in, in.dsts.size()) || in.dsts[0].kind != exec::OpKind::Reg)
    return false;
  switch (exec::width_of(in.type) / 8) {
  case 1:
    load_lanes<1>(in, w, mask);
    break;
  case 2:
    load_lanes<2>(in, w, mask);
    break;
  case 4:
    load_lanes<4>(in, w, mask);
    break;
  case 8:
    load_lanes<8>(in, w, mask);
    break;
  default:
    return false;
  }
  return true;
}

template <uint32_t Size>
void Cta::load_lanes(const Inst& in, uint32_t w, uint32_t mask) {
  const bool sign = exec::is_signed(in.type);
  const uint32_t dst = in.dsts[0].reg;
  const uint32_t out_width = reg_width_[dst];
  const bool shared = in.space == Space::Shared;
  // A run of some CTAs counts loads of writable bytes it had not written (locate()).
  const bool count_foreign = !launch_.options.ctas.empty();
  ExtentCache variables(extents_.shared);
  RegionCache regions(launch_.regions);
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
    const uint64_t a = address(in.mem[0], t);
    const uint8_t* bytes = nullptr;
    if (a % Size == 0) {
      if (shared) {
        if (variables.found(a, Size) && a + Size <= shared_.size() &&
            all_set<Size>(&shared_written_[a]))
          bytes = &shared_[a];
      } else if (GlobalRegion* r = regions.found(a, Size);
                 r != nullptr && !(count_foreign && r->memory->tracks_written())) {
        bytes = r->memory->bytes_at(a - r->base);
      }
    }
    if (bytes == nullptr) {
      thread_now_ = t;
      exec_ld(in, t);
      continue;
    }
    uint64_t v = 0;
    std::memcpy(&v, bytes, Size); // little-endian, as the device
    if (sign)
      v = static_cast<uint64_t>(sign_extend(v, 8 * Size));
    reg(dst, t) = low_bits(v, out_width);
  }
}

bool Cta::store_warp(const Inst& in, uint32_t w, uint32_t mask) {
  if (!access_warp_applies(in, in.srcs.size()))
    return false;
  const uint32_t size = exec::width_of(in.type) / 8;
  const bool shared = in.space == Space::Shared;
  ExtentCache variables(extents_.shared);
  RegionCache regions(launch_.regions);
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
    const uint64_t a = address(in.mem[0], t);
    uint8_t* bytes = nullptr;
    uint8_t* written = nullptr;
    if (a % size == 0) {
      if (shared) {
        if (variables.found(a, size) && a + size <= shared_.size()) {
          bytes = &shared_[a];
          written = &shared_written_[a];
        }
      } else if (GlobalRegion* r = regions.found(a, size);
                 r != nullptr && !(r->is_array && (r->kind == launch::ArrayKind::In ||
                                                   r->kind == launch::ArrayKind::Index))) {
        bytes = r->memory->bytes_at(a - r->base);
        written = r->memory->tracks_written() ? r->memory->written_at(a - r->base) : nullptr;
      }
    }
    if (bytes == nullptr) {
      thread_now_ = t;
      exec_st(in, t);
      continue;
    }
    const uint64_t v = read(in.srcs[0], t, in.type);
    std::memcpy(bytes, &v, size); // the low bytes, little-endian
    if (written != nullptr)
      std::memset(written, 1, size);
  }
  return true;
}

} // namespace volta::emulate
