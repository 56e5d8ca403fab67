// The differential soundness net of docs/semantics.md: every kernel of the example manifests and
// the soundness suite runs twice on the same random inputs — symbolically (engine/exec), with
// its output expressions then evaluated at those inputs (engine/prove/evaluate), and concretely
// on the bit-exact emulator (engine/emulate). Integer outputs must agree exactly; float outputs
// within a tolerance (the symbolic model reads float arithmetic over the reals, the emulator
// rounds every operation). A disagreement is a bug of the symbolic model (or of the emulator).
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <iostream>
#include <set>

#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/input_views.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::emutest {
namespace {

// Is there a float operation on constants only below `root` (left unfolded because its result
// needs a rounding)? Each node is visited once.
bool has_rounded_constant_operation(const symbolic::ExprStore& store, symbolic::ExprId root) {
  std::vector<symbolic::ExprId> stack{root};
  std::set<symbolic::ExprId> seen;
  while (!stack.empty()) {
    const symbolic::ExprId id = stack.back();
    stack.pop_back();
    if (id == symbolic::kNoExpr || !seen.insert(id).second)
      continue;
    const symbolic::Node& n = store.node(id);
    const symbolic::ExprId kids[3] = {n.a, n.b, n.c};
    const int count = symbolic::child_count(n.op);
    bool constant_operands = count > 0 && n.op >= symbolic::Op::Add && n.op <= symbolic::Op::Narrow;
    for (int i = 0; i < count; ++i) {
      if (kids[i] == symbolic::kNoExpr)
        continue;
      constant_operands = constant_operands && store.op(kids[i]) == symbolic::Op::Const;
      stack.push_back(kids[i]);
    }
    if (constant_operands)
      return true;
  }
  return false;
}

using symbolic::ExprId;
using symbolic::Rational;

struct Tally {
  size_t kernels = 0;        // kernels whose outputs were compared
  size_t skipped = 0;        // kernels that one side refused (race, unsupported, emulator error)
  size_t integer_values = 0; // integer outputs compared exactly
  size_t float_values = 0;   // float outputs compared within the tolerance
  size_t undecided = 0;      // outputs the evaluator cannot value (opaque bits, atomics)
  std::vector<std::string> mismatches;
};

uint64_t element_bits(const emulate::ArrayContents& a, uint64_t i) {
  const size_t w = emulate::byte_width(a.type);
  uint64_t bits = 0;
  std::memcpy(&bits, a.bytes.data() + i * w, w);
  return bits;
}

// The exact real value of an input element's bytes read as a float of its width, if finite.
std::optional<Rational> float_value(uint64_t bits, uint32_t width, bool bf16) {
  switch (width) {
  case 2:
    return bf16 ? symbolic::rational_from_bf16_bits(static_cast<uint16_t>(bits))
                : symbolic::rational_from_f16_bits(static_cast<uint16_t>(bits));
  case 4:
    return symbolic::rational_from_f32_bits(static_cast<uint32_t>(bits));
  case 8:
    return symbolic::rational_from_f64_bits(bits);
  default:
    return std::nullopt;
  }
}

// The emulator's inputs as a point of the symbolic model: each input element's real view (its
// bytes as a float) and its integer view (its bytes as an integer of the element's width).
symbolic::Assignment point_of(const launch::KernelConfig& config, const emulate::Inputs& inputs,
                              symbolic::ExprStore& store) {
  symbolic::Assignment point;
  for (const auto& a : config.arrays) {
    auto it = inputs.arrays.find(a.name);
    if (it == inputs.arrays.end())
      continue;
    const uint32_t id = store.add_array_name(a.name);
    const uint32_t w = a.elem_width;
    const bool bf16 = a.type == launch::ElemType::BF16;
    for (uint64_t i = 0; i * w + w <= it->second.size(); ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, it->second.data() + i * w, w);
      if (auto q = float_value(bits, w, bf16))
        point.values[symbolic::Assignment::input_key(id, static_cast<uint32_t>(i))] = *q;
      point.values[symbolic::Assignment::int_input_key(id, static_cast<uint32_t>(i),
                                                       symbolic::width_code(8 * w))] =
          Rational(std::to_string(bits));
      // The bits of a bf16 element as the engine names them (FloatBits of the bf16 format).
      if (bf16 && w == 2)
        point.values[symbolic::Assignment::int_input_key(
            id, static_cast<uint32_t>(i), symbolic::kFormatBF16)] = Rational(std::to_string(bits));
      // The bits of a float element's value in a wider format (an f16 widened by cvt.f32.f16 and
      // moved as bits is FloatBits(a[i], f32)): its encoding there.
      const auto value = float_value(bits, w, bf16);
      for (uint8_t wider = symbolic::kFormatF32;
           value && launch::is_float(a.type) && wider <= symbolic::kFormatF64 &&
           (4u << (wider - 2)) > w;
           ++wider) {
        if (const auto encoded = prove::float_encoding(*value, wider))
          point.values[symbolic::Assignment::int_input_key(id, static_cast<uint32_t>(i), wider)] =
              Rational(std::to_string(*encoded));
      }
    }
  }
  for (const auto& [name, value] : inputs.symbols)
    point.values[symbolic::Assignment::param_key(store.add_param_name(name))] = Rational(value);
  return point;
}

std::map<std::string, emulate::ElemType> declared_types(const launch::KernelConfig& config) {
  std::map<std::string, emulate::ElemType> types;
  for (const auto& a : config.arrays) {
    if (a.type == launch::ElemType::Unknown)
      continue;
    if (auto t = launch::elem_type_from(launch::to_string(a.type)))
      types[a.name] = *t;
  }
  return types;
}

void compare_kernel(const std::string& label, const launch::KernelConfig& config, Tally& tally) {
  const auto loaded = exec::load_kernel(config.ptx_path, config.entry);
  if (!loaded.kernel) {
    ++tally.skipped;
    return;
  }
  symbolic::ExprStore store;
  const exec::KernelRun run = exec::run_kernel(loaded.kernel->program, config, store);
  const emulate::Inputs inputs = emulate::random_inputs(config, 20261203, declared_types(config));
  emulate::reset_real_arithmetic_events();
  const emulate::EmulationResult concrete =
      emulate::emulate(loaded.kernel->program, config, inputs);
  // The kernel left its domain on these inputs (a NaN or an infinity from numbers, rsqrt of a
  // negative): a symbolic value may rest on the domain (isnan(rsqrt(x)) decided false), so a
  // mismatch there is no claim (like the cross-check, emulate/output_comparison.hpp).
  const emulate::RealArithmeticEvents events = emulate::real_arithmetic_events();
  const bool left_domain = events.invalid + events.division_by_zero != 0;
  if (run.failure || !concrete.ok()) {
    ++tally.skipped;
    return;
  }
  // f16 / bf16 data rounds at every step of the emulator: a wider tolerance for such kernels,
  // and for kernels that narrow f32 data to 16 bits inside (an idealized cvt: bf16 keeps 8
  // significant bits).
  bool half = run.stats.idioms.count("float narrowing cvt read as exact") != 0;
  for (const auto& a : config.arrays)
    half |= a.elem_width == 2;
  const double tolerance = half ? 6e-2 : 2e-3;
  const symbolic::Assignment point = point_of(config, inputs, store);
  symbolic::Evaluator evaluator(store, point);
  ++tally.kernels;
  for (const auto& out : run.outputs) {
    const emulate::ArrayContents* c = concrete.find(out.name);
    if (!c)
      continue;
    for (size_t k = 0; k < out.elements.size(); ++k) {
      const auto [index, node] = out.elements[k];
      if (index >= c->len || !c->written[index])
        continue;
      const launch::ElemType stored = out.store_types[k];
      const std::string where = fmt::format("{}: {}[{}]", label, out.name, index);
      const uint64_t bits = element_bits(*c, index);
      const uint32_t width = 8 * out.elem_width;
      if (store.op(node) == symbolic::Op::RawBits) { // concrete bits: compared as bits
        const auto& n = store.node(node);
        const uint64_t sym = (uint64_t{n.b} << 32 | n.a) & symbolic::width_mask(width);
        ++tally.integer_values;
        if (sym != (bits & symbolic::width_mask(width)))
          tally.mismatches.push_back(
              fmt::format("{}: bits {:#x} (symbolic) vs {:#x} (emulator)", where, sym, bits));
        continue;
      }
      const symbolic::ValueKind kind = symbolic::kind_of(store, node);
      const symbolic::EvalValue v = evaluator.eval(node);
      if (launch::is_float(stored)) {
        if (kind == symbolic::ValueKind::Int || v.kind == symbolic::EvalValue::Kind::Unknown) {
          ++tally.undecided;
          continue;
        }
        // The emulator's bytes read in the store's float format (the array may be declared
        // with another type: float data stored through an integer store).
        const auto q = float_value(bits, out.elem_width, stored == launch::ElemType::BF16);
        const double emu = q ? symbolic::to_double(*q) : NAN;
        if (!std::isfinite(emu) || v.kind == symbolic::EvalValue::Kind::PosInf ||
            v.kind == symbolic::EvalValue::Kind::NegInf) {
          ++tally.undecided;
          continue;
        }
        const symbolic::Interval iv = v.interval();
        const double slack = tolerance * (1.0 + std::fabs(emu));
        const bool far =
            emu < static_cast<double>(iv.lo) - slack || emu > static_cast<double>(iv.hi) + slack;
        // An operation on constants that needs a rounding keeps its exact value over the reals
        // (docs/semantics.md, "Floats observed as bits"): (1e8f + 1) - 1e8f is 1 there and 0
        // on the device, a cancellation no tolerance covers.
        if (far && (has_rounded_constant_operation(store, node) || left_domain)) {
          ++tally.undecided;
          continue;
        }
        ++tally.float_values;
        if (far)
          tally.mismatches.push_back(fmt::format("{}: {} (symbolic, {}) vs {} (emulator)", where,
                                                 v.to_string(),
                                                 symbolic::to_sexpr(store, node, 160), emu));
        continue;
      }
      // Integer data: exact, modulo 2^width.
      if (kind == symbolic::ValueKind::Real || v.kind != symbolic::EvalValue::Kind::Exact ||
          v.exact.get_den() != 1) {
        ++tally.undecided;
        continue;
      }
      mpz_class u = v.exact.get_num() % (mpz_class(1) << width);
      if (u < 0)
        u += mpz_class(1) << width;
      ++tally.integer_values;
      if (u != mpz_class(std::to_string(bits & symbolic::width_mask(width))))
        tally.mismatches.push_back(fmt::format("{}: {} (symbolic, {}) vs {} (emulator)", where,
                                               u.get_str(), symbolic::to_sexpr(store, node, 160),
                                               bits & symbolic::width_mask(width)));
    }
  }
}

// Kernels of the soundness suite whose symbolic model is known wrong (open engine bugs, found by
// the pair fuzzer: examples/soundness, category 23-fuzzer). Their mismatches print; remove an
// entry when its bug is fixed (the test says when it no longer mismatches).
const std::set<std::string> kKnownMismatches = {};

// The kernels an entry runs: the reference and the optimized kernel, or the one kernel.
std::vector<const launch::KernelConfig*> kernels_of(const launch::ManifestEntry& e) {
  if (e.kind == launch::EntryKind::Equivalence)
    return {&e.reference, &e.optimized};
  return {&e.kernel};
}

TEST(Differential, SymbolicOutputsAgreeWithTheEmulator) {
  Tally tally;
  std::set<std::pair<std::string, std::string>> seen; // (ptx, entry): one run per kernel
  for (const char* m :
       {"examples/manifest.json", "examples/safety/manifest.json", "examples/idioms/manifest.json",
        "examples/mutations/manifest.json", "examples/advanced/manifest.json",
        "examples/soundness/manifest.json", "examples/packed/manifest.json"}) {
    const auto manifest = launch::read_manifest(std::string(VOLTA_SOURCE_DIR) + "/" + m);
    ASSERT_TRUE(manifest.manifest.has_value()) << m;
    for (const auto& e : manifest.manifest->entries) {
      if (!e.error.empty())
        continue;
      for (const auto* c : kernels_of(e)) {
        if (!seen.insert({c->ptx_path, c->entry}).second)
          continue;
        if (kKnownMismatches.count(c->entry)) {
          Tally known;
          compare_kernel(fmt::format("{} {}", e.name, c->entry), *c, known);
          std::cout << fmt::format(
              "differential test: {} is a known mismatch ({} values differ){}\n", c->entry,
              known.mismatches.size(),
              known.mismatches.empty() ? ": it now agrees, remove it from "
                                         "kKnownMismatches"
                                       : "");
          EXPECT_FALSE(known.mismatches.empty())
              << c->entry << " agrees with the emulator now: remove it from kKnownMismatches";
          continue;
        }
        compare_kernel(fmt::format("{} {}", e.name, c->entry), *c, tally);
      }
    }
  }
  // The Volta corpus when it is present (it is not shipped with volta-eg): its integer
  // reductions (the GEMM and attention kernels run 10^7..10^8 thread-instructions and the race
  // checks launch large grids: too slow for a unit test on two cores).
  const std::string corpus = std::string(VOLTA_CORPUS_DIR) + "/benchmarks.json";
  if (std::filesystem::exists(corpus)) {
    const auto manifest = launch::read_manifest(corpus);
    ASSERT_TRUE(manifest.manifest.has_value()) << corpus;
    for (const auto& e : manifest.manifest->entries) {
      const bool small = e.name.rfind("(Red-", 0) == 0;
      if (!small)
        continue;
      for (const auto* c : kernels_of(e)) {
        if (e.error.empty() && seen.insert({c->ptx_path, c->entry}).second)
          compare_kernel(fmt::format("{} {}", e.name, c->entry), *c, tally);
      }
    }
  } else {
    std::cout << "differential test: " << corpus << " is absent, its kernels are not compared\n";
  }
  std::cout << fmt::format("differential test: {} kernels compared ({} skipped: a race, a refusal "
                           "or an emulator error), {} integer values exactly, {} float values "
                           "within the tolerance, {} values not evaluable symbolically\n",
                           tally.kernels, tally.skipped, tally.integer_values, tally.float_values,
                           tally.undecided);
  EXPECT_GE(tally.kernels, 200u);
  for (const auto& m : tally.mismatches)
    ADD_FAILURE() << m;
}

// Calls fn(entry, config) once per kernel (file and entry) of the entries of `manifest_path`
// (under the source tree) whose names start with `prefix`.
template <class Fn>
void for_each_kernel(const std::string& manifest_path, std::string_view prefix, Fn&& fn) {
  const auto manifest = launch::read_manifest(std::string(VOLTA_SOURCE_DIR) + manifest_path);
  ASSERT_TRUE(manifest.manifest.has_value());
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& e : manifest.manifest->entries) {
    if (e.name.rfind(prefix, 0) != 0)
      continue;
    ASSERT_TRUE(e.error.empty()) << e.name << ": " << e.error;
    for (const auto* c : kernels_of(e)) {
      if (seen.insert({c->ptx_path, c->entry}).second)
        fn(e, *c);
    }
  }
}

// Compares every kernel of those entries on both sides; none may be skipped.
void compare_none_skipped(const std::string& manifest_path, std::string_view prefix, Tally& tally) {
  for_each_kernel(manifest_path, prefix,
                  [&](const launch::ManifestEntry& e, const launch::KernelConfig& c) {
                    const size_t before = tally.skipped;
                    compare_kernel(fmt::format("{} {}", e.name, c.entry), c, tally);
                    EXPECT_EQ(tally.skipped, before) << c.entry << " was skipped";
                  });
}

// The packed and narrow float kernels run on both sides: none may be skipped, so that
// the symbolic model of every new instruction (cvt.rn.{f16x2,bf16x2}.f32, cvt.f32.bf16, the bf16
// widening mov, packed f16x2 / bf16x2 arithmetic, bf16 mma.sync, copysign and the lifted tanhf)
// is checked against the emulator.
TEST(Differential, PackedKernelsAreComparedNotSkipped) {
  Tally tally;
  compare_none_skipped("/examples/packed/manifest.json", "", tally);
  EXPECT_GE(tally.kernels, 12u);
  EXPECT_GT(tally.float_values, 500u);
  for (const auto& m : tally.mismatches)
    ADD_FAILURE() << m;
}

// The bfind kernels of the soundness suite (c32_*, examples/kernels/soundness/c32_bfind.cu: the
// worked example of docs/architecture.md, "Adding a PTX instruction") run on both sides: none
// may be skipped, so that the engine's bfind (concrete, and on data) is checked against the
// emulator's on random inputs, the masked edges (no bit found, -1) among them.
TEST(Differential, BitFindKernelsAreComparedNotSkipped) {
  Tally tally;
  compare_none_skipped("/examples/soundness/manifest.json", "c32_", tally);
  EXPECT_EQ(tally.kernels, 4u); // c32_ffs_one, c32_ffs_pairs, c32_highest_bit, c32_bfind_forms
  EXPECT_GE(tally.integer_values, 64u * 3 + 256u);
  for (const auto& m : tally.mismatches)
    ADD_FAILURE() << m;
}

// The control-flow shapes of the soundness suite (the c24_* entries: barriers reached from
// different instructions, by part of a warp or after exits; branches on data in nvcc's layouts)
// on both sides: the engine and the emulator must agree on how the kernel ends — a barrier
// divergence or a deadlock on one is the same on the other — and where the engine runs a kernel
// to the end the emulator does too, with the same outputs (compared, not skipped). The engine's
// other failures (a race, a refused branch on data) the emulator does not look for.
// How the engine and the emulator end the kernels of entries whose names start with `prefix`,
// counted, with the outputs compared where both run to the end.
struct Endings {
  Tally tally;
  size_t configs = 0, divergences = 0, deadlocks = 0, races = 0;
};
Endings compare_endings(std::string_view prefix) {
  Endings n;
  Tally& tally = n.tally;
  for_each_kernel(
      "/examples/soundness/manifest.json", prefix,
      [&](const launch::ManifestEntry& e, const launch::KernelConfig& k) {
        const launch::KernelConfig* c = &k;
        ++n.configs;
        const auto loaded = exec::load_kernel(c->ptx_path, c->entry);
        ASSERT_TRUE(loaded.kernel) << c->entry;
        symbolic::ExprStore store;
        const exec::KernelRun run = exec::run_kernel(loaded.kernel->program, *c, store);
        const auto concrete = emulate::emulate(loaded.kernel->program, *c,
                                               emulate::random_inputs(*c, 7, declared_types(*c)));
        const std::string emulator = concrete.ok() ? "ok" : concrete.error->kind;
        const Verdict engine = run.failure ? run.failure->verdict : Verdict::Equivalent;
        if (engine == Verdict::DataRace) {
          // The emulator does not look for races; after one the run's ending is the schedule's.
          ++n.races;
        } else if (engine == Verdict::BarrierDivergence || emulator == "barrier divergence") {
          ++n.divergences;
          EXPECT_TRUE(engine == Verdict::BarrierDivergence && emulator == "barrier divergence")
              << c->entry << ": engine " << to_string(engine) << ", emulator " << emulator;
        } else if (engine == Verdict::Deadlock || emulator == "deadlock") {
          ++n.deadlocks;
          EXPECT_TRUE(engine == Verdict::Deadlock && emulator == "deadlock")
              << c->entry << ": engine " << to_string(engine) << ", emulator " << emulator;
        } else if (!run.failure) {
          EXPECT_TRUE(concrete.ok()) << c->entry << ": " << concrete.error->text();
          const size_t skipped = tally.skipped;
          compare_kernel(fmt::format("{} {}", e.name, c->entry), *c, tally);
          EXPECT_EQ(tally.skipped, skipped) << c->entry << " was not compared";
        }
      });
  return n;
}

// The control-flow shapes of the soundness suite (the c24_* entries: barriers reached from
// different instructions, by part of a warp or after exits; branches on data in nvcc's layouts)
// on both sides: the engine and the emulator must agree on how the kernel ends — a barrier
// divergence or a deadlock on one is the same on the other — and where the engine runs a kernel
// to the end the emulator does too, with the same outputs (compared, not skipped). The engine's
// other failures (a race, a refused branch on data) the emulator does not look for.
TEST(Differential, ControlShapesAgreeWithTheEmulator) {
  const Endings n = compare_endings("c24_");
  EXPECT_GE(n.configs, 20u);
  EXPECT_GE(n.divergences, 3u);
  EXPECT_GE(n.deadlocks, 2u);
  EXPECT_GE(n.tally.kernels, 10u);
  for (const auto& m : n.tally.mismatches)
    ADD_FAILURE() << m;
}

// The named-barrier kernels (c36_*: bar.arrive and bar.sync with thread counts, producer and
// consumer warps, phases reused in a loop): the two machines share the CTA schedule and the
// barrier bookkeeping, and must agree on a count mismatch, a phase that never completes, and
// the outputs of the kernels that run to the end.
TEST(Differential, NamedBarriersAgreeWithTheEmulator) {
  const Endings n = compare_endings("c36_");
  EXPECT_GE(n.configs, 10u);
  EXPECT_EQ(n.divergences, 1u); // c36_count_mismatch
  EXPECT_EQ(n.deadlocks, 1u);   // c36_count_never_completes
  EXPECT_GE(n.races, 4u);
  EXPECT_GE(n.tally.kernels, 4u); // producer/consumer, two producers, ping-pong, the plain one
  for (const auto& m : n.tally.mismatches)
    ADD_FAILURE() << m;
}

} // namespace
} // namespace volta::emutest
