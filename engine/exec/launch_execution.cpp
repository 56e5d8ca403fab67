#include "engine/exec/launch_execution.hpp"

#include <algorithm>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include "engine/exec/address_map.hpp"
#include "engine/exec/cta_runner.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

namespace {

// Fills the kernel parameter buffer.
std::vector<ByteCell> parameter_cells(const Program& program, const launch::KernelConfig& config,
                                      symbolic::ExprStore& store) {
  std::vector<ByteCell> cells(program.param_bytes + 16, ByteCell{});
  for (size_t i = 0; i < config.params.size(); ++i) {
    const auto& p = config.params[i];
    const uint64_t offset = program.param_offsets[i];
    const uint32_t width = std::max<uint32_t>(1, width_of(program.param_types[i]) / 8);
    if (p.kind == launch::ParamSpec::Kind::Struct) {
      // Concrete bytes (symbolic fields are refused by the manifest reader); check_config made
      // sure the struct has the declared size.
      const std::vector<uint8_t> bytes = launch::aggregate_bytes(p, config);
      for (size_t k = 0; k < bytes.size() && offset + k < cells.size(); ++k)
        store_value(&cells[offset + k], Value{bytes[k], 0}, 1);
      continue;
    }
    Value v;
    switch (p.kind) {
    case launch::ParamSpec::Kind::Struct:
      break;
    case launch::ParamSpec::Kind::Ptr:
      v.bits = config.find_array(p.name)->base;
      break;
    case launch::ParamSpec::Kind::Int:
      v.bits = static_cast<uint64_t>(p.int_value);
      break;
    case launch::ParamSpec::Kind::Float:
      v.bits = width == 8 ? symbolic::nearest_f64_bits(p.float_value)
                          : symbolic::nearest_f32_bits(p.float_value);
      break;
    case launch::ParamSpec::Kind::Sym:
      v.node = store.param(store.add_param_name(p.name));
      break;
    }
    if (width < 8 && !v.symbolic())
      v.bits &= (uint64_t{1} << (8 * width)) - 1;
    if (offset + width <= cells.size())
      store_value(&cells[offset], v, width);
  }
  return cells;
}

std::vector<ByteCell> constant_cells(const Program& program) {
  uint64_t size = 0;
  for (const auto& v : program.variables) {
    if (v.space == Space::Const)
      size = std::max(size, v.address - kConstWindow + v.size);
  }
  std::vector<ByteCell> cells(size, ByteCell{});
  for (const auto& [address, bytes] : program.initial_data) {
    if (!in_window(address, kConstWindow))
      continue;
    for (size_t i = 0; i < bytes.size(); ++i)
      cells[address - kConstWindow + i].byte = bytes[i];
  }
  return cells;
}

// The type of the last store to an output element, from how its bytes were stored: Unknown when
// they were stored with different types (two halves of different stores). A 16-bit float is the
// format its store knew (a bf16 in an array declared f16 is a bf16), and one of unknown format
// is f16 unless the array is declared bf16 (PTX stores bf16 data through .b16).
launch::ElemType store_type(const ByteCell* cells, uint32_t width, launch::ElemType declared) {
  using launch::ElemType;
  VOLTA_ASSERT(width == 1 || width == 2 || width == 4 || width == 8,
               "an output element is 1, 2, 4 or 8 bytes (the manifest reader's check)");
  for (uint32_t i = 1; i < width; ++i) {
    if (cells[i].stored_as != cells[0].stored_as)
      return ElemType::Unknown;
  }
  switch (cells[0].stored_as) {
  case kStoredF16:
  case kStoredBF16:
    if (width == 2)
      return cells[0].stored_as == kStoredBF16 ? ElemType::BF16 : ElemType::F16;
    [[fallthrough]]; // a wider element holding packed halves: float data of its width
  case kStoredFloat:
    return width == 2   ? (declared == ElemType::BF16 ? ElemType::BF16 : ElemType::F16)
           : width == 4 ? ElemType::F32
           : width == 8 ? ElemType::F64
                        : ElemType::Unknown;
  case kStoredSigned:
    return width == 1   ? ElemType::S8
           : width == 2 ? ElemType::S16
           : width == 4 ? ElemType::S32
                        : ElemType::S64;
  default:
    return width == 1   ? ElemType::U8
           : width == 2 ? ElemType::U16
           : width == 4 ? ElemType::U32
                        : ElemType::U64;
  }
}

// The input array declared with a float type of `width`-byte elements whose element `value` is
// (an Input node), or nullptr.
const Region* whole_float_input(const GlobalMemory& global, const symbolic::ExprStore& store,
                                ExprId value, uint32_t width) {
  const symbolic::Node& n = store.node(value);
  if (n.op != symbolic::Op::Input)
    return nullptr;
  const Region* r = global.input_array(n.a);
  return r != nullptr && r->elem_width == width && launch::is_float(r->declared) ? r : nullptr;
}

// The real value of an output element from its cells.
ExprId element_value(const ByteCell* cells, uint32_t width, symbolic::ExprStore& store,
                     symbolic::Builder& b, ExprId undef, bool bf16) {
  Value v = load_value(cells, width, undef, b);
  if (v.symbolic()) {
    const auto& n = store.node(v.node);
    const bool integer_store =
        cells[0].stored_as == kStoredSigned || cells[0].stored_as == kStoredUnsigned;
    if (n.op == symbolic::Op::Const && integer_store && width <= 8 &&
        store.rational(v.node).get_den() == 1) {
      // Integer data that folded to a constant ((a + c) - a) is concrete bits, like a constant
      // stored as such: read the same way below (else bits read as a float on one side meet the
      // integer on the other).
      mpz_class z = store.rational(v.node).get_num() % (mpz_class(1) << (8 * width));
      if (z < 0)
        z += mpz_class(1) << (8 * width);
      uint64_t bits = 0;
      mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, z.get_mpz_t());
      v = Value{bits, 0};
    } else if (n.op != symbolic::Op::RawBits) {
      return v.node;
    } else {
      v = Value{uint64_t{n.b} << 32 | n.a, 0};
    }
  }
  switch (cells[0].stored_as) {
  case kStoredF16:
  case kStoredBF16:
  case kStoredFloat: {
    // 16-bit float bits in their store's format, else f16 unless the manifest says the array
    // holds bf16 (as store_type).
    const bool as_bf16 =
        cells[0].stored_as == kStoredBF16 || (cells[0].stored_as == kStoredFloat && bf16);
    auto id = as_bf16 && width == 2 ? store.bf16_bits(static_cast<uint16_t>(v.bits))
                                    : store.float_bits(v.bits, static_cast<int>(8 * width));
    // A NaN has no real value: its bits are kept (defined bytes, never uninitialized), which the
    // prover compares as bits and reads as no number (element_prover.cpp).
    return id ? *id : store.raw_bits(v.bits, static_cast<int>(8 * width));
  }
  case kStoredSigned: {
    const int shift = 64 - 8 * static_cast<int>(width);
    const int64_t x = static_cast<int64_t>(v.bits << shift) >> shift;
    return store.constant(symbolic::Rational(std::to_string(x)));
  }
  default:
    // Concrete bits stored through an untyped or unsigned register with no float provenance:
    // an integer, or a half constant (nvcc writes `mov.b16 %rs, 0x3C00; st.global.u16`).
    // Kept as bits; the prover reads them in the type of the element they are compared with.
    return store.raw_bits(v.bits, static_cast<int>(8 * width));
  }
}

} // namespace

void prepare_context(LaunchContext& ctx) {
  ctx.params = parameter_cells(ctx.program, ctx.config, ctx.store);
  ctx.constants = constant_cells(ctx.program);
  ctx.pending_marker = ctx.store.intern(symbolic::Node{symbolic::Op::AtomicResult, 1, 0, 0, 0, 0});
}

KernelStats run_ctas(LaunchContext& ctx, uint32_t first, uint32_t last, bool sequential) {
  // Statistics add up per worker thread, not per CTA: a vector of one KernelStats per CTA is
  // 88 bytes each, 1.7 GB for a 2*10^7-CTA grid, allocated and summed where no guard polls
  // (the memory and time overshoot of large `ctas: "all"` grids).
  tbb::combinable<KernelStats> stats;
  auto run_cta = [&](uint32_t c) {
    if (ctx.should_stop(c))
      return;
    CtaRunner runner(ctx, c);
    runner.run();
    stats.local() += runner.stats();
  };
  if (last - first == 1) {
    run_cta(first);
  } else if (sequential) {
    for (uint32_t c = first; c < last && !ctx.should_stop(c); ++c)
      run_cta(c);
  } else {
    tbb::parallel_for(first, last, [&](uint32_t c) { run_cta(c); });
  }
  KernelStats total;
  stats.combine_each([&](const KernelStats& s) { total += s; });
  return total;
}

KernelRun collect_run(LaunchContext& ctx) {
  const Program& program = ctx.program;
  const launch::KernelConfig& config = ctx.config;
  const RunOptions& options = ctx.options;
  symbolic::ExprStore& store = ctx.store;
  GlobalMemory& global = ctx.global;
  const ExprId undef = ctx.undef;
  KernelRun run;
  for (const auto& [id, pc] : ctx.partial_pcs) {
    PartialSite site;
    if (pc < program.insts.size()) {
      const Inst& in = program.insts[pc];
      site.ptx_line = in.line;
      if (in.debug_file >= 0 && static_cast<size_t>(in.debug_file) < program.cuda_files.size()) {
        site.cuda_file = program.cuda_files[in.debug_file];
        site.cuda_line = in.debug_line;
      }
    }
    run.partial_sites.emplace(id, std::move(site));
  }
  std::sort(ctx.control_roots.begin(), ctx.control_roots.end());
  ctx.control_roots.erase(std::unique(ctx.control_roots.begin(), ctx.control_roots.end()),
                          ctx.control_roots.end());
  run.control_roots = std::move(ctx.control_roots);
  run.races = ctx.races.take(run.races_truncated);
  run.races_cut_short =
      !run.races.empty() &&
      ((options.cancel != nullptr && options.cancel->load()) ||
       (options.max_instructions != 0 && ctx.instructions.load() > options.max_instructions));
  if (ctx.failure) {
    run.failure = std::move(ctx.failure->second);
    return run;
  }
  if (options.cancel && options.cancel->load()) {
    Failure f;
    f.verdict = Verdict::Unknown;
    f.category = FailureCategory::Cancelled;
    f.kind = "timeout";
    f.message = "execution was cancelled (time limit)";
    run.failure = std::move(f);
    return run;
  }

  // Settle the atomics still pending, then read every written element of every output array.
  symbolic::Builder b(store);
  for (auto& [address, pending] : ctx.atomics) {
    GlobalMemory::Page& page = global.page(address);
    const Value v = materialize(pending, b, undef);
    ByteCell* cells = &page.cells[address & (GlobalMemory::kPageSize - 1)];
    store_value(cells, v, pending.width);
    for (uint32_t i = 0; i < pending.width; ++i) {
      cells[i].written |= kWrittenByStore;
      cells[i].stored_as = pending.type == ValType::BF16  ? kStoredBF16
                           : pending.type == ValType::F16 ? kStoredF16
                           : is_float(pending.type)       ? kStoredFloat
                           : is_signed(pending.type)      ? kStoredSigned
                                                          : kStoredUnsigned;
    }
  }
  for (const auto& region : global.regions()) {
    if (!region.is_array || !launch::is_output(region.kind))
      continue;
    OutputArray out;
    out.name = region.name;
    out.elem_width = region.elem_width;
    out.kind = region.kind;
    if (region.config_index < config.arrays.size())
      out.declared = config.arrays[region.config_index].type;
    global.for_each_touched_page([&](uint64_t page_base, const GlobalMemory::Page& page) {
      const uint64_t lo = std::max(page_base, region.base);
      const uint64_t hi = std::min(page_base + GlobalMemory::kPageSize, region.base + region.size);
      for (uint64_t a = lo; a < hi; ++a) {
        if ((a - region.base) % region.elem_width != 0)
          continue;
        const ByteCell* cells = &page.cells[a - page_base];
        const uint32_t in_page = static_cast<uint32_t>(
            std::min<uint64_t>(region.elem_width, page_base + GlobalMemory::kPageSize - a));
        uint32_t bytes_written = 0;
        for (uint32_t i = 0; i < in_page; ++i)
          bytes_written += cells[i].written != 0 ? 1 : 0;
        if (bytes_written != region.elem_width) {
          // A store narrower than the element (or an element across pages): not an element's
          // value. Ignoring it compared nothing, a vacuous EQUIVALENT of two kernels that store
          // different low halves.
          if (bytes_written != 0 && !out.partly_written) {
            out.partly_written = (a - region.base) / region.elem_width;
            out.partly_written_bytes = bytes_written;
          }
          continue;
        }
        launch::ElemType type = store_type(cells, region.elem_width, out.declared);
        const ExprId value = element_value(cells, region.elem_width, store, b, undef,
                                           out.declared == launch::ElemType::BF16);
        // The raw bytes of a whole element of an input array declared with a float type are
        // that float, however integer instructions moved them (u32 loads, shuffles, a cp.async,
        // integer stores), in an array of floats or of no declared type. Raw: no float store
        // wrote them (a cvt's result keeps its element's node in another format; a float store
        // says which). (In an array declared integer a store's type says how it is compared: a
        // float stored as float data is compared by its bits, which the idealized float
        // arithmetic of the other kernel does not determine. Raw bytes of a float input there
        // are that input's bits in its own format: a bf16 element moved by ld.u16 and st.u16
        // is its bf16 bits, not the f16 encoding of its value; fuzzer 21:13501.)
        const bool integer_array =
            out.declared != launch::ElemType::Unknown && !launch::is_float(out.declared);
        bool raw = true;
        for (uint32_t i = 0; i < region.elem_width; ++i)
          raw &= !stored_float(cells[i].stored_as);
        ExprId element = value;
        if (const Region* input = whole_float_input(global, store, value, region.elem_width);
            input != nullptr && raw) {
          if (!integer_array)
            type = input->declared;
          else
            element = b.float_bits(value, input->declared == launch::ElemType::BF16
                                              ? symbolic::kFormatBF16
                                              : symbolic::width_code(8 * region.elem_width));
        }
        out.store_types.push_back(type);
        out.elements.emplace_back((a - region.base) / region.elem_width, element);
      }
    });
    std::vector<size_t> order(out.elements.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return out.elements[x].first < out.elements[y].first; });
    std::vector<std::pair<uint64_t, symbolic::ExprId>> sorted;
    std::vector<launch::ElemType> types;
    for (size_t i : order) {
      sorted.push_back(out.elements[i]);
      types.push_back(out.store_types[i]);
    }
    out.elements = std::move(sorted);
    out.store_types = std::move(types);
    run.outputs.push_back(std::move(out));
  }
  return run;
}

} // namespace volta::exec
