// emulate(): lays out global memory, parameters and constants for a launch, runs the CTAs in
// index order and collects the output arrays.
#include "engine/emulate/emulator.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <random>

#include "engine/emulate/machine.hpp"
#include "engine/exec/address_map.hpp"
#include "engine/exec/region_map.hpp"
#include "support/invariant.hpp"

namespace volta::emulate {

std::string EmulationError::text() const {
  std::string s = ptx_line ? fmt::format("PTX line {}: ", ptx_line) : std::string();
  s += message;
  if (!instruction.empty())
    s += fmt::format(" [{}] (CTA {}, thread {})", instruction, cta, thread);
  return s;
}

const ArrayContents* EmulationResult::find(const std::string& name) const {
  for (const auto& o : outputs) {
    if (o.name == name)
      return &o;
  }
  return nullptr;
}

uint64_t ArrayContents::bits(uint64_t i) const {
  const uint32_t w = byte_width(type);
  uint64_t v = 0;
  if (paged) {
    for (uint32_t b = 0; b < w; ++b)
      v |= uint64_t{paged->byte(i * w + b)} << (8 * b);
  } else {
    std::memcpy(&v, bytes.data() + i * w, w); // little-endian host
  }
  return v;
}

double ArrayContents::value(uint64_t i) const {
  if (!paged)
    return read_element(type, bytes.data() + i * byte_width(type));
  const uint64_t v = bits(i);
  uint8_t raw[8];
  std::memcpy(raw, &v, sizeof raw);
  return read_element(type, raw);
}

bool ArrayContents::is_written(uint64_t i) const {
  if (!paged)
    return written[i] != 0;
  const uint32_t w = byte_width(type);
  for (uint32_t b = 0; b < w; ++b) {
    if (!paged->written(i * w + b))
      return false;
  }
  return true;
}

std::vector<std::pair<uint64_t, uint64_t>> ArrayContents::written_ranges() const {
  if (!paged)
    return {{0, len}};
  const uint32_t w = byte_width(type);
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (uint64_t page : paged->written_pages()) {
    const uint64_t first = page * kPageBytes / w;
    const uint64_t end = std::min(len, ((page + 1) * kPageBytes + w - 1) / w);
    if (!ranges.empty() && ranges.back().second >= first)
      ranges.back().second = std::max(ranges.back().second, end);
    else
      ranges.emplace_back(first, end);
  }
  return ranges;
}

namespace {

ElemType type_of(const launch::ArraySpec& a, const Inputs& inputs) {
  auto it = inputs.types.find(a.name);
  return it != inputs.types.end() ? it->second : default_elem_type(a);
}

// Modifiers that the lowered form does not keep, read from the instruction's text.
std::vector<uint32_t> text_flags(const exec::Program& prog) {
  std::vector<uint32_t> flags;
  for (const auto& in : prog.insts) {
    uint32_t f = 0;
    auto has = [&](std::string_view s) { return in.text.find(s) != std::string::npos; };
    if (in.op == exec::XOp::ShfL || in.op == exec::XOp::ShfR)
      f |= has(".wrap") ? kFlagWrap : 0;
    if (in.op == exec::XOp::FMin || in.op == exec::XOp::FMax) {
      f |= has(".NaN") ? kFlagNaN : 0;
      f |= has(".xorsign") ? kFlagXorSign : 0;
    }
    if (in.op == exec::XOp::Cvt && has(".rna"))
      f |= kFlagRna;
    if (in.op == exec::XOp::Prmt) {
      for (const char* mode : {".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"})
        f |= has(mode) ? kFlagPrmtMode : 0;
    }
    flags.push_back(f);
  }
  return flags;
}

void put(std::vector<uint8_t>& bytes, uint64_t offset, uint64_t value, uint32_t width) {
  for (uint32_t i = 0; i < width && offset + i < bytes.size(); ++i)
    bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

// Fills the launch's memory; returns an error message for bad inputs. `movable` (may be null) is
// `inputs` itself when its arrays may move into memory instead of being copied.
std::string set_up(LaunchState& s, const Inputs& inputs, Inputs* movable) {
  const auto& prog = s.prog;
  const auto& config = s.config;
  if (config.params.size() != prog.param_offsets.size())
    return fmt::format("kernel '{}' has {} parameters but the configuration gives {}", prog.entry,
                       prog.param_offsets.size(), config.params.size());
  if (config.threads_per_cta() == 0)
    return "the block has no threads";
  for (const auto& a : config.arrays) {
    GlobalRegion r;
    r.name = a.name;
    r.base = a.base;
    r.is_array = true;
    r.kind = a.kind;
    const bool input = a.kind == launch::ArrayKind::In || a.kind == launch::ArrayKind::InOut;
    const ElemType type = type_of(a, inputs);
    if (byte_width(type) != a.elem_width)
      return fmt::format("array {}: type {} does not have its element width {}", a.name,
                         to_string(type), a.elem_width);
    // Only a kernel's stores mark `written`, which `in` and `index` arrays never take (locate()
    // refuses the store first).
    const bool track = a.kind != launch::ArrayKind::In && a.kind != launch::ArrayKind::Index;
    PageFill fill;
    if (input) {
      auto it = inputs.arrays.find(a.name);
      auto generated = inputs.generated.find(a.name);
      if (it != inputs.arrays.end()) {
        if (it->second.size() != a.size_bytes())
          return fmt::format("array {} needs {} bytes of input, got {}", a.name, a.size_bytes(),
                             it->second.size());
        // The input's bytes, moved or copied once, are the pages' source.
        auto source = std::make_shared<const std::vector<uint8_t>>(
            movable ? std::move(movable->arrays.at(a.name)) : it->second);
        fill = [source](uint64_t offset, uint8_t* out, uint64_t n) {
          std::memcpy(out, source->data() + offset, n);
        };
      } else if (generated != inputs.generated.end()) {
        fill = generated->second;
      } else {
        return fmt::format("no input values for array {}", a.name);
      }
    } else if (a.kind == launch::ArrayKind::Index) {
      const uint32_t w = a.elem_width;
      fill = [w](uint64_t offset, uint8_t* out, uint64_t n) {
        for (uint64_t k = 0; k < n; ++k) { // a[i] = i, little-endian
          const uint64_t byte = offset + k;
          const uint64_t i = byte / w, shift = 8 * (byte % w);
          out[k] = shift >= 64 ? 0 : static_cast<uint8_t>(i >> shift);
        }
      };
    }
    r.memory = std::make_shared<PagedBytes>(a.size_bytes(), std::move(fill), track);
    s.regions.push_back(std::move(r));
  }
  for (const auto& v : prog.variables) {
    if (v.space != exec::Space::Global)
      continue;
    GlobalRegion r;
    r.name = v.name;
    r.base = v.address;
    std::vector<uint8_t> bytes(v.size, 0);
    for (const auto& [address, data] : prog.initial_data) {
      if (address == v.address)
        std::copy_n(data.begin(), std::min(data.size(), bytes.size()), bytes.begin());
    }
    if (auto it = config.globals.find(v.name); it != config.globals.end())
      put(bytes, 0, static_cast<uint64_t>(it->second),
          static_cast<uint32_t>(std::min<uint64_t>(8, v.size)));
    auto source = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    r.memory = std::make_shared<PagedBytes>(
        v.size,
        [source](uint64_t offset, uint8_t* out, uint64_t n) {
          std::memcpy(out, source->data() + offset, n);
        },
        true);
    s.regions.push_back(std::move(r));
  }
  exec::sort_by_base(s.regions.begin(), s.regions.end());
  if (const size_t i = exec::first_overlap(s.regions.begin(), s.regions.end(),
                                           [](const GlobalRegion& r) { return r.size(); });
      i != 0)
    return fmt::format("arrays {} and {} overlap", s.regions[i - 1].name, s.regions[i].name);
  // Parameters.
  s.params.assign(prog.param_bytes + 16, 0);
  for (size_t i = 0; i < config.params.size(); ++i) {
    const auto& p = config.params[i];
    const uint32_t width = std::max<uint32_t>(1, exec::width_of(prog.param_types[i]) / 8);
    if (p.kind == launch::ParamSpec::Kind::Struct) {
      const std::vector<uint8_t> bytes = launch::aggregate_bytes(p, config);
      for (size_t k = 0; k < bytes.size(); ++k)
        put(s.params, prog.param_offsets[i] + k, bytes[k], 1);
      continue;
    }
    uint64_t v = 0;
    switch (p.kind) {
    case launch::ParamSpec::Kind::Struct:
      break;
    case launch::ParamSpec::Kind::Ptr: {
      const auto* a = config.find_array(p.name);
      if (a == nullptr)
        return fmt::format("parameter {} points to the unknown array {}", i, p.name);
      v = a->base;
      break;
    }
    case launch::ParamSpec::Kind::Int:
      v = static_cast<uint64_t>(p.int_value);
      break;
    case launch::ParamSpec::Kind::Float:
    case launch::ParamSpec::Kind::Sym: {
      double x = 0;
      if (p.kind == launch::ParamSpec::Kind::Float) {
        x = width == 8 ? std::bit_cast<double>(symbolic::nearest_f64_bits(p.float_value))
                       : double{std::bit_cast<float>(symbolic::nearest_f32_bits(p.float_value))};
      } else {
        auto it = inputs.symbols.find(p.name);
        if (it == inputs.symbols.end())
          return fmt::format("no value for the symbolic parameter {}", p.name);
        x = it->second;
      }
      const FloatFormat f = width == 8   ? FloatFormat::F64
                            : width == 2 ? FloatFormat::F16
                                         : FloatFormat::F32;
      v = encode(f, x, RoundMode::NearestEven);
      break;
    }
    }
    put(s.params, prog.param_offsets[i], v, width);
  }
  // Constants.
  uint64_t size = 0;
  for (const auto& v : prog.variables) {
    if (v.space == exec::Space::Const)
      size = std::max(size, v.address - exec::kConstWindow + v.size);
  }
  s.constants.assign(size, 0);
  for (const auto& [address, bytes] : prog.initial_data) {
    if (exec::in_window(address, exec::kConstWindow)) {
      for (size_t i = 0; i < bytes.size() && address - exec::kConstWindow + i < size; ++i)
        s.constants[address - exec::kConstWindow + i] = bytes[i];
    }
  }
  s.flags = text_flags(prog);
  return {};
}

} // namespace

namespace {

EmulationResult run_launch(const exec::Program& program, const launch::KernelConfig& config,
                           const Inputs& inputs, Inputs* movable, const EmulateOptions& options) {
  EmulationResult result;
  LaunchState s{program, config, options, {}, {}, {}, {}, 0, 0, 0, {}};
  if (auto e = set_up(s, inputs, movable); !e.empty()) {
    EmulationError error;
    error.kind = "bad input";
    error.bad_input = true;
    error.message = e;
    result.error = std::move(error);
    return result;
  }
  std::vector<uint32_t> run;
  if (!options.ctas.empty()) {
    run = options.ctas;
    VOLTA_ASSERT(std::is_sorted(run.begin(), run.end()), "a run's offsets are sorted");
    if (run.back() >= config.cta_count()) {
      EmulationError error;
      error.kind = "bad input";
      error.bad_input = true;
      error.message =
          fmt::format("CTA {} is outside the grid of {} CTAs", run.back(), config.cta_count());
      result.error = std::move(error);
      return result;
    }
  } else {
    const uint32_t ctas =
        config.ctas == launch::CtaMode::All ? static_cast<uint32_t>(config.cta_count()) : 1;
    for (uint32_t c = 0; c < ctas; ++c)
      run.push_back(c);
  }
  for (uint32_t c : run) {
    if (result.error)
      break;
    Cta cta(s, c);
    try {
      cta.run();
    } catch (const Trouble& t) {
      EmulationError e;
      e.kind = t.kind;
      e.cta = c;
      e.thread = cta.current_thread();
      if (cta.current_pc() < program.insts.size()) {
        const auto& in = program.insts[cta.current_pc()];
        e.ptx_line = in.line;
        e.cuda_line = in.debug_line;
        e.instruction = in.text;
      }
      e.message = t.what();
      result.error = std::move(e);
    }
  }
  result.instructions = s.instructions;
  result.uninitialized_reads = s.uninitialized_reads;
  result.foreign_reads = s.foreign_reads;
  result.first_uninitialized_read = s.first_uninitialized_read;
  if (result.error)
    return result;
  for (const auto& a : config.arrays) {
    if (!launch::is_output(a.kind))
      continue;
    GlobalRegion* r = s.find(a.base, a.size_bytes());
    VOLTA_ASSERT(r != nullptr && r->memory->tracks_written(),
                 "an output array is allocated with write tracking");
    ArrayContents out;
    out.name = a.name;
    out.kind = a.kind;
    out.type = type_of(a, inputs);
    out.len = a.len;
    if (options.sparse_outputs) {
      out.paged = std::move(r->memory); // the launch is over: its memory is not read again
    } else {
      out.bytes = r->memory->dense_bytes();
      out.written.assign(a.len, 0);
      for (uint64_t page : r->memory->written_pages()) {
        const uint64_t first = page * kPageBytes / a.elem_width;
        const uint64_t end =
            std::min(a.len, ((page + 1) * kPageBytes + a.elem_width - 1) / a.elem_width);
        for (uint64_t i = first; i < end; ++i) {
          bool all = true;
          for (uint32_t b = 0; b < a.elem_width; ++b)
            all = all && r->memory->written(i * a.elem_width + b);
          out.written[i] = all ? 1 : 0;
        }
      }
    }
    result.outputs.push_back(std::move(out));
  }
  return result;
}

} // namespace

EmulationResult emulate(const exec::Program& program, const launch::KernelConfig& config,
                        const Inputs& inputs, const EmulateOptions& options) {
  return run_launch(program, config, inputs, nullptr, options);
}

EmulationResult emulate(const exec::Program& program, const launch::KernelConfig& config,
                        Inputs&& inputs, const EmulateOptions& options) {
  return run_launch(program, config, inputs, &inputs, options);
}

Inputs random_inputs(const launch::KernelConfig& config, uint64_t seed,
                     const std::map<std::string, ElemType>& types) {
  Inputs in;
  in.types = types;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  for (const auto& a : config.arrays) {
    if (a.kind != launch::ArrayKind::In && a.kind != launch::ArrayKind::InOut)
      continue;
    auto it = types.find(a.name);
    const ElemType type = it != types.end() ? it->second : default_elem_type(a);
    std::vector<uint8_t> bytes(a.size_bytes(), 0);
    const uint32_t width = byte_width(type);
    for (uint64_t i = 0; i + 1 <= a.len && (i + 1) * width <= bytes.size(); ++i) {
      double v = 0;
      if (is_float(type))
        v = real(rng);
      else if (is_signed_int(type))
        v = static_cast<double>(static_cast<int64_t>(rng() % 17) - 8);
      else
        v = static_cast<double>(rng() % 17);
      write_element(type, v, bytes.data() + i * width);
    }
    in.arrays[a.name] = std::move(bytes);
  }
  for (const auto& p : config.params) {
    if (p.kind == launch::ParamSpec::Kind::Sym)
      in.symbols[p.name] = real(rng);
  }
  return in;
}

} // namespace volta::emulate
