#include "emulator_oracle.hpp"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "ptx_writer.hpp"

namespace volta::pair_fuzz {

SideRun run_side(const exec::Program& program, const launch::KernelConfig& config,
                 const emulate::Inputs& inputs, bool instrumented) {
  SideRun s;
  s.has_flags = instrumented;
  emulate::EmulateOptions options;
  options.max_instructions = 50'000'000;
  const auto r = emulate::emulate(program, config, inputs, options);
  if (!r.ok()) {
    s.error_kind = r.error->kind;
    s.error = r.error->text();
    return s;
  }
  s.ok = true;
  for (const auto& a : r.outputs) {
    if (instrumented && a.name == kFlagsArray) {
      for (uint64_t t = 0; t + 1 < a.len; t += 2) {
        uint32_t flags = 0, first = 0;
        std::memcpy(&flags, a.bytes.data() + t * 4, 4);
        std::memcpy(&first, a.bytes.data() + (t + 1) * 4, 4);
        s.flags |= flags;
        s.first_undefined = std::min(s.first_undefined, first);
      }
      continue;
    }
    s.outputs.push_back(a);
  }
  return s;
}

std::string element_text(const emulate::ArrayContents& a, uint64_t i) {
  const uint32_t w = emulate::byte_width(a.type);
  uint64_t bits = 0;
  std::memcpy(&bits, a.bytes.data() + i * w, w);
  const double v = a.value(i);
  if (emulate::is_float(a.type))
    return fmt::format("{:.9g} (0x{:0{}X})", v, bits, 2 * w);
  if (emulate::is_signed_int(a.type))
    return fmt::format("{} (0x{:0{}X})", static_cast<long long>(v), bits, 2 * w);
  return fmt::format("{} (0x{:0{}X})", bits, bits, 2 * w);
}

std::vector<ElementDiff> compare_outputs(const SideRun& ref, const SideRun& opt,
                                         const std::vector<bool>& by_value,
                                         const std::vector<bool>& signless_zero) {
  std::vector<ElementDiff> diffs;
  for (size_t k = 0; k < ref.outputs.size() && k < opt.outputs.size(); ++k) {
    const auto& a = ref.outputs[k];
    const auto& b = opt.outputs[k];
    const uint32_t w = emulate::byte_width(a.type);
    for (uint64_t i = 0; i < a.len && i < b.len; ++i) {
      bool equal;
      if (k < by_value.size() && by_value[k] && emulate::is_float(a.type)) {
        const double x = a.value(i), y = b.value(i);
        equal = x == y || (std::isnan(x) && std::isnan(y));
      } else {
        equal = std::memcmp(a.bytes.data() + i * w, b.bytes.data() + i * w, w) == 0;
        if (!equal && k < signless_zero.size() && signless_zero[k] && emulate::is_float(a.type))
          equal = a.value(i) == 0 && b.value(i) == 0;
      }
      if (!equal)
        diffs.push_back({a.name, i, k, element_text(a, i), element_text(b, i)});
    }
  }
  return diffs;
}

} // namespace volta::pair_fuzz
