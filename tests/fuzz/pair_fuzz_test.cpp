// Tests of the pair fuzzer's parts: generated kernels are well formed, assemble with ptxas
// (when CUDA is installed), load in the engine, run on the emulator; the instrumentation does
// not change what a kernel stores and flags exactly the operations it should; the mutations
// keep their invariants; the oracle flags a planted disagreement.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>

#include "emulator_inputs.hpp"
#include "emulator_oracle.hpp"
#include "engine/exec/run_kernel.hpp"
#include "kernel_generator.hpp"
#include "mutator.hpp"
#include "pair_check.hpp"
#include "ptx_writer.hpp"
#include "value_taint.hpp"

namespace volta::pair_fuzz {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / fmt::format("pair-fuzz-test-{}-{}", getpid(), name);
  fs::create_directories(p);
  return p;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream f(p);
  f << text;
}

TEST(PairFuzzGenerator, KernelsAndMutantsAreWellFormed) {
  std::map<std::string, int> applied;
  for (uint64_t i = 0; i < 4000; ++i) {
    const PairCase c = make_case(7, i);
    ASSERT_EQ(validate(c.ref), "") << "pair " << i;
    ASSERT_EQ(validate(c.opt), "") << "pair " << i;
    for (const auto& m : c.applied)
      ++applied[m.name];
  }
  // Most mutations apply somewhere in 4000 pairs.
  std::string unused;
  for (const auto& name : mutation_names()) {
    if (!applied.count(name))
      unused += " " + name;
  }
  EXPECT_LE(std::count(unused.begin(), unused.end(), ' '), 3) << "never applied:" << unused;
}

TEST(PairFuzzGenerator, PairsAreReproducible) {
  for (uint64_t i = 0; i < 20; ++i) {
    const PairCase a = make_case(3, i), b = make_case(3, i);
    EXPECT_EQ(write_ptx(a.ref, "k"), write_ptx(b.ref, "k"));
    EXPECT_EQ(write_ptx(a.opt, "k"), write_ptx(b.opt, "k"));
  }
}

TEST(PairFuzzGenerator, PtxasAssemblesGeneratedKernels) {
  const std::string ptxas = VOLTA_PTXAS;
  if (ptxas.empty() || !fs::exists(ptxas))
    GTEST_SKIP() << "ptxas not found (CUDA is not installed)";
  const fs::path dir = scratch("ptxas");
  int failures = 0;
  for (uint64_t i = 0; i < 50 && failures < 5; ++i) {
    const PairCase c = make_case(11, i);
    WriteOptions inst;
    inst.instrument = true;
    const std::pair<std::string, std::string> files[] = {{"ref", write_ptx(c.ref, "k")},
                                                         {"opt", write_ptx(c.opt, "k")},
                                                         {"ref.inst", write_ptx(c.ref, "k", inst)},
                                                         {"opt.inst", write_ptx(c.opt, "k", inst)}};
    for (const auto& [name, text] : files) {
      const fs::path p = dir / fmt::format("{}-{}.ptx", i, name);
      write(p, text);
      const std::string cmd = fmt::format("{} -arch=sm_80 {} -o {} 2>{}", ptxas, p.string(),
                                          (dir / "out.cubin").string(), (dir / "err.txt").string());
      if (std::system(cmd.c_str()) != 0) {
        std::ifstream e(dir / "err.txt");
        std::string err((std::istreambuf_iterator<char>(e)), {});
        ADD_FAILURE() << "pair 11:" << i << " " << name << ": ptxas refuses it:\n"
                      << err << "\n"
                      << text;
        ++failures;
      }
    }
  }
  fs::remove_all(dir);
}

TEST(PairFuzzGenerator, EngineLoadsGeneratedKernels) {
  const fs::path dir = scratch("load");
  for (uint64_t i = 0; i < 200; ++i) {
    const PairCase c = make_case(13, i);
    WriteOptions inst;
    inst.instrument = true;
    for (const auto& [k, o] : {std::pair{&c.ref, WriteOptions{}}, std::pair{&c.opt, inst}}) {
      const fs::path p = dir / "k.ptx";
      write(p, write_ptx(*k, "k", o));
      const auto l = exec::load_kernel(p.string(), "k");
      ASSERT_TRUE(l.kernel) << "pair 13:" << i << ": " << l.failure_headline() << "\n"
                            << write_ptx(*k, "k", o);
    }
  }
  fs::remove_all(dir);
}

// The instrumented kernel stores what the plain one stores.
TEST(PairFuzzInstrumentation, DoesNotChangeOutputs) {
  const fs::path dir = scratch("transparent");
  int compared = 0;
  for (uint64_t i = 0; i < 150; ++i) {
    const PairCase c = make_case(17, i);
    write(dir / "p.ptx", write_ptx(c.ref, "k"));
    WriteOptions inst;
    inst.instrument = true;
    write(dir / "i.ptx", write_ptx(c.ref, "k", inst));
    const auto p = exec::load_kernel((dir / "p.ptx").string(), "k");
    const auto q = exec::load_kernel((dir / "i.ptx").string(), "k");
    ASSERT_TRUE(p.kernel && q.kernel);
    const auto pc = kernel_config(c.ref, (dir / "p.ptx").string(), "k", false);
    const auto qc = kernel_config(c.ref, (dir / "i.ptx").string(), "k", true);
    Rng rng(i);
    for (InputClass cls : {InputClass::Exact, InputClass::Moderate, InputClass::Special}) {
      const auto in = make_inputs(qc, cls, rng);
      const SideRun a = run_side(p.kernel->program, pc, in, false);
      const SideRun b = run_side(q.kernel->program, qc, in, true);
      ASSERT_TRUE(b.ok) << "pair 17:" << i << " " << b.error;
      if (!a.ok) {
        // Only an integer division by zero, which the instrumented kernel flags and steps over
        // (or does not print: a dead one).
        EXPECT_EQ(a.error_kind, "undefined") << a.error;
        continue;
      }
      ++compared;
      EXPECT_TRUE(compare_outputs(a, b, std::vector<bool>(a.outputs.size(), false)).empty())
          << "pair 17:" << i;
    }
  }
  EXPECT_GT(compared, 200);
  fs::remove_all(dir);
}

// Pair 10:26580: `cvt.rn.f16x2.f32 d, a, a * b / a` whose low half (the quotient) no output
// sees. The instrumentation must not flag the division (a zero `a` is no domain condition of the
// kernel: the engine's domain walk follows what reaches an output, docs/semantics.md), while
// the high half's conversion is checked.
TEST(PairFuzzInstrumentation, LivenessFollowsTheHalvesOfAPackedConversion) {
  Kernel k;
  k.inputs = {{"a0", PT::F32, 32, ArrayKind::In}, {"a1", PT::F32, 32, ArrayKind::In}};
  k.outputs = {{"o0", PT::F16, 32, ArrayKind::Out}};
  auto load = [&](int array) {
    Node n;
    n.op = Op::Load;
    n.ty = Ty::F32;
    n.t1 = PT::F32;
    n.array = array;
    return k.add(n);
  };
  const int a = load(0), b = load(1);
  Node mul;
  mul.op = Op::Mul;
  mul.ty = Ty::F32;
  mul.t1 = PT::F32;
  mul.rnd = Rnd::Rn;
  mul.args = {a, b};
  const int m = k.add(mul);
  Node div = mul;
  div.op = Op::Div;
  div.args = {m, a};
  const int q = k.add(div);
  Node pack;
  pack.op = Op::Cvt;
  pack.ty = Ty::F16x2;
  pack.t1 = PT::F16x2;
  pack.t2 = PT::F32;
  pack.rnd = Rnd::Rn;
  pack.args = {a, q}; // d.hi = a, d.lo = q
  const int p = k.add(pack);
  auto unpack_and_store = [&](uint64_t half) {
    Node u;
    u.op = Op::Unpack;
    u.ty = Ty::F16;
    u.args = {p};
    u.bits = half;
    k.stores = {{0, k.add(u), PT::B16}};
  };
  unpack_and_store(1);
  ASSERT_EQ(validate(k), "");
  auto kinds = instrument_kinds(k);
  EXPECT_EQ(any_half(kinds[q]), 0u) << "the quotient reaches no output";
  EXPECT_EQ(any_half(kinds[m]), 0u);
  EXPECT_EQ(kinds[p][1], static_cast<uint32_t>(kUndefined)) << "the high half is stored";
  EXPECT_EQ(kinds[p][0], 0u);

  // Unpacking the low half instead makes the quotient live, and the high half dead.
  k.nodes.pop_back();
  unpack_and_store(0);
  ASSERT_EQ(validate(k), "");
  kinds = instrument_kinds(k);
  EXPECT_EQ(any_half(kinds[q]), static_cast<uint32_t>(kUndefined));
  EXPECT_EQ(kinds[p][0], static_cast<uint32_t>(kUndefined));
  EXPECT_EQ(kinds[p][1], 0u);
}

// Pair 17:7635: an integer division whose quotient is multiplied by a factor the same on every
// input (cvt.rmi.u32 of a negative constant: 0). The engine folds the product to 0 and drops
// the quotient, as the device does; the oracle, which does not evaluate constants, must not
// hold the division's divisor against the kernel. A factor that depends on the input keeps it.
TEST(PairFuzzInstrumentation, AProductWithAConstantFactorDropsTheOtherFactorsDomain) {
  Kernel k;
  k.inputs = {{"a0", PT::S32, 32, ArrayKind::In}};
  k.outputs = {{"o0", PT::S32, 32, ArrayKind::Out}};
  Node load;
  load.op = Op::Load;
  load.ty = Ty::I32;
  load.t1 = PT::S32;
  load.array = 0;
  const int a = k.add(load);
  Node zero;
  zero.op = Op::Const;
  zero.ty = Ty::I32;
  zero.bits = 0;
  const int z = k.add(zero);
  Node div;
  div.op = Op::Div;
  div.ty = Ty::I32;
  div.t1 = PT::S32;
  div.args = {a, z};
  const int q = k.add(div);
  Node mul = div;
  mul.op = Op::Mul;
  mul.imode = IMode::Lo;
  mul.args = {q, z};
  k.stores = {{0, k.add(mul), PT::S32}};
  ASSERT_EQ(validate(k), "");
  EXPECT_EQ(any_half(instrument_kinds(k)[q]), 0u) << "times a constant: not checked";

  k.nodes.back().args = {q, a}; // times the input: the quotient reaches the output
  EXPECT_EQ(any_half(instrument_kinds(k)[q]), static_cast<uint32_t>(kUndefined));
}

// Pair 29:40686: an infinity in a float input read as a float is outside the contract (its float
// inputs are real numbers), an infinity in integer bits read as a float is not: the two get
// different flags, so that the oracle calls a difference only the second one explains a
// disagreement.
TEST(PairFuzzInstrumentation, AnInfinityFromAFloatInputIsNotOneFromBits) {
  const fs::path dir = scratch("special-input");
  for (const bool from_bits : {false, true}) {
    SCOPED_TRACE(from_bits ? "u32 bits read as f32" : "f32 input");
    Kernel k;
    k.inputs = {{"a0", from_bits ? PT::U32 : PT::F32, 32, ArrayKind::In}};
    k.outputs = {{"o0", PT::F32, 32, ArrayKind::Out}};
    Node load;
    load.op = Op::Load;
    load.ty = from_bits ? Ty::I32 : Ty::F32;
    load.t1 = from_bits ? PT::U32 : PT::F32;
    load.array = 0;
    int value = k.add(load);
    if (from_bits) {
      Node bits;
      bits.op = Op::Bits;
      bits.ty = Ty::F32;
      bits.args = {value};
      value = k.add(bits);
    }
    Node add;
    add.op = Op::Add;
    add.ty = Ty::F32;
    add.t1 = PT::F32;
    add.rnd = Rnd::Rn;
    add.args = {value, value};
    k.stores = {{0, k.add(add), PT::F32}};
    ASSERT_EQ(validate(k), "");
    WriteOptions inst;
    inst.instrument = true;
    write(dir / "i.ptx", write_ptx(k, "k", inst));
    const auto q = exec::load_kernel((dir / "i.ptx").string(), "k");
    ASSERT_TRUE(q.kernel);
    const auto qc = kernel_config(k, (dir / "i.ptx").string(), "k", true);
    Rng rng(1);
    emulate::Inputs in = make_inputs(qc, InputClass::Exact, rng);
    std::vector<uint8_t> inf(32 * 4);
    for (size_t i = 0; i < inf.size(); i += 4) {
      const uint32_t bits = 0x7f800000;
      std::memcpy(&inf[i], &bits, 4);
    }
    in.arrays["a0"] = inf;
    const SideRun r = run_side(q.kernel->program, qc, in, true);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ((r.flags & kSpecialRealInput) != 0, !from_bits) << r.flags;
    EXPECT_EQ((r.flags & kSpecial) != 0, from_bits) << r.flags;
  }
  fs::remove_all(dir);
}

} // namespace
} // namespace volta::pair_fuzz
