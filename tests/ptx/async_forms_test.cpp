// The Hopper instruction forms (ptx/async_forms.cpp and the mbarrier / elect / setmaxnreg /
// griddepcontrol rows): every form the four production Hopper kernels use (census.md of
// ../shared/production/hopper) parses, the tensor operand `[map, {c0, ..., cN}]` round-trips
// through the printer, and each malformed form ptxas 13 -arch=sm_90a rejects is a located error
// here too (each rejected line below was checked with ptxas).
#include <gtest/gtest.h>

#include "ptx/printer.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

constexpr std::string_view kRegisters =
    ".reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".reg .f32 %f<80>;\n";

std::string hopper_kernel(std::string_view line) {
  std::string text = testing::kernel(std::string(kRegisters) + "\t" + std::string(line));
  text.replace(text.find("sm_80"), 5, "sm_90a");
  return text;
}

Diagnostic rejected(std::string_view line) {
  std::vector<Diagnostic> d = testing::parse_bad(hopper_kernel(line));
  EXPECT_EQ(d.size(), 1u) << line << "\n" << render_all(d);
  return d.empty() ? Diagnostic{} : d.front();
}

void accepted(std::string_view line) {
  ParseResult r = parse(hopper_kernel(line), "t.ptx");
  EXPECT_TRUE(r.ok()) << line << "\n" << render_all(r.diagnostics);
}

// The line under test follows the header (3 lines), the entry (4) and the registers (5).
constexpr uint32_t kLine = 13;

// {%f0, ..., %f(n-1)}
std::string accumulator(int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i)
    s += (i ? ", %f" : "%f") + std::to_string(i);
  return s + "}";
}

TEST(AsyncForms, EveryFormOfTheProductionKernelsParses) {
  for (const std::string line : {
           "mbarrier.init.shared::cta.b64 [%r1], %r2;",
           "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2, %r3;",
           "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;",
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], %r2;",
           "mbarrier.arrive.shared::cluster.b64 _, [%r1];",
           "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%r1];",
           "elect.sync %r1|%p1, %r2;",
           "elect.sync _|%p1, -1;",
           "cvta.param.u64 %rd1, %rd2;",
           "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes."
           "L2::cache_hint [%r1], [%rd1, {%r2, %r3, %r4}], [%r5], %rd2;",
           "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes."
           "multicast::cluster.L2::cache_hint [%r1], [%rd1, {%r2, %r3, %r4, %r5}], [%r6], %rs1, "
           "%rd2;",
           "cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%rd1, {%r1, %r2, %r3, %r4, "
           "%r5}], [%r6];",
           "cp.async.bulk.prefetch.tensor.4d.L2.global [%rd1, {%r1, %r2, %r3, %r4}];",
           "cp.async.bulk.commit_group;",
           "cp.async.bulk.wait_group.read 0;",
           "fence.mbarrier_init.release.cluster;",
           "fence.proxy.async.shared::cta;",
           "mapa.shared::cluster.u32 %r1, %r2, %r3;",
           "prefetch.tensormap [%rd1];",
           "barrier.cluster.arrive.relaxed.aligned;",
           "barrier.cluster.wait.aligned;",
           "setmaxnreg.inc.sync.aligned.u32 240;",
           "setmaxnreg.dec.sync.aligned.u32 24;",
           "griddepcontrol.wait;",
           "griddepcontrol.launch_dependents;",
           "stmatrix.sync.aligned.x4.m8n8.shared.b16 [%r1], {%r2, %r3, %r4, %r5};",
           "wgmma.fence.sync.aligned;",
           "wgmma.commit_group.sync.aligned;",
           "wgmma.wait_group.sync.aligned 0;",
           "mov.u32 %r1, %cluster_ctarank;",
           "mov.u32 %r1, %cluster_nctarank;",
           "mov.u32 %r1, %cluster_ctaid.x;",
           "mov.u32 %r1, %cluster_nctaid.y;",
           "mov.u32 %r1, %clusterid.z;",
           "mov.u32 %r1, %nclusterid.x;",
           "mov.pred %p1, %is_explicit_cluster;",
       }) {
    SCOPED_TRACE(line);
    accepted(line);
  }
  // wgmma with A and B from descriptors (the GEMM, FA3's QK^T), and A from registers (FA3's PV).
  accepted("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " + accumulator(64) +
           ", %rd1, %rd2, %p1, 1, 1, 0, 0;");
  accepted("wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 " + accumulator(88) +
           ", %rd1, %rd2, %p1, -1, 1, 0, 0;");
  accepted("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " + accumulator(64) +
           ", {%r1, %r2, %r3, %r4}, %rd2, %p1, 1, 1, 1;");
  accepted("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " + accumulator(32) +
           ", %rd1, %rd2, %p1, 1, 1;");
  accepted("wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.u8 " + accumulator(16) +
           ", %rd1, %rd2, %p1;");
}

TEST(AsyncForms, TensorOperandRoundTripsThroughThePrinter) {
  const std::string text = hopper_kernel(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], "
      "[%rd1, {%r2, %r3}], [%r4];");
  const Module m = testing::parse_ok(text);
  const std::string printed = print(m);
  EXPECT_NE(printed.find("[%rd1, {%r2, %r3}]"), std::string::npos) << printed;
  const Module again = testing::parse_ok(printed);
  EXPECT_EQ(m, again);
  const std::vector<Instruction> all = testing::instructions(m);
  ASSERT_EQ(all.size(), 1u);
  const Instruction& ins = all.front();
  EXPECT_EQ(ins.opcode, Opcode::CpAsyncBulk);
  ASSERT_EQ(ins.operands.size(), 3u);
  const auto& tensor = ins.operands[1].as<AddressOperand>();
  EXPECT_EQ(tensor.base, "%rd1");
  ASSERT_EQ(tensor.coordinates.size(), 1u);
  EXPECT_EQ(tensor.coordinates[0].as<VectorOperand>().elements.size(), 2u);
}

TEST(AsyncForms, BulkGroupsAreNotTheSm80CpAsyncGroups) {
  // cp.async.bulk.commit_group must never be read as cp.async.commit_group (sm_80's groups).
  auto opcode_of = [](std::string_view line) {
    const std::vector<Instruction> all =
        testing::instructions(testing::parse_ok(hopper_kernel(line)));
    return all.size() == 1 ? all.front().opcode : Opcode::Other;
  };
  EXPECT_EQ(opcode_of("cp.async.bulk.commit_group;"), Opcode::CpAsyncBulk);
  EXPECT_EQ(opcode_of("cp.async.bulk.wait_group.read 0;"), Opcode::CpAsyncBulk);
  EXPECT_EQ(opcode_of("cp.async.commit_group;"), Opcode::CpAsync);
}

TEST(AsyncForms, MalformedTensorCopiesAreLocated) {
  const std::string load =
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], ";
  Diagnostic d = rejected(load + "[%rd1, {%r2, %r3}], [%r5];");
  EXPECT_EQ(d.message, "a .3d tensor access takes 3 coordinates, found 2");
  EXPECT_EQ(d.where.line, kLine);
  EXPECT_EQ(rejected("cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%r1], [%rd1, {%r2}], [%r5];")
                .message,
            "'cp.async.bulk.tensor' needs a dimension (.1d to .5d)");
  EXPECT_EQ(rejected(load + "[%rd1, {%r2, %r3, %r4}];").message,
            "'cp.async.bulk.tensor' takes 3 operands, found 2");
  // .L2::cache_hint needs its cache-policy operand; .multicast::cluster its ctaMask.
  EXPECT_EQ(rejected("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes."
                     "L2::cache_hint [%r1], [%rd1, {%r2}], [%r5];")
                .message,
            "'cp.async.bulk.tensor' takes 4 operands, found 3");
  EXPECT_EQ(rejected("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes."
                     "multicast::cluster [%r1], [%rd1, {%r2}], [%r5];")
                .message,
            "'cp.async.bulk.tensor' takes 4 operands, found 3");
  EXPECT_EQ(rejected("cp.async.bulk.tensor.1d.shared::cluster.global [%r1], [%rd1, {%r2}], [%r5];")
                .message,
            "a tensor load 'cp.async.bulk.tensor' needs its completion mechanism "
            ".mbarrier::complete_tx::bytes");
  EXPECT_EQ(
      rejected("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%r1], [%rd1];").message,
      "expected the tensor operand [tensorMap, {coordinates}]");
  EXPECT_EQ(rejected("cp.async.bulk.wait_group.read %r1;").message,
            "the group count of 'cp.async.bulk.wait_group' is an integer constant");
  EXPECT_EQ(rejected("cp.async.bulk.commit_group.read;").message,
            "modifier '.read' is not allowed for 'cp.async.bulk.commit_group'");
}

TEST(AsyncForms, MalformedMbarriersAreLocated) {
  EXPECT_EQ(rejected("mbarrier.init.shared::cta.b64 [%r1];").message,
            "'mbarrier.init' takes 2 operands, found 1");
  EXPECT_EQ(rejected("mbarrier.init.shared::cta [%r1], 1;").message,
            "'mbarrier' needs 1 type suffix, found 0");
  EXPECT_EQ(rejected("mbarrier.init.shared::cluster.b64 [%r1], 1;").message,
            "modifier '.shared::cluster' is not allowed for 'mbarrier.init'");
  EXPECT_EQ(rejected("mbarrier.shared::cta.b64 [%r1], 1;").message,
            "'mbarrier' is written mbarrier.operation... (.init, .arrive, .try_wait, ...), not "
            "'.shared::cta' first");
  EXPECT_EQ(rejected("mbarrier.release.arrive.shared::cta.b64 %rd1, [%r1];").message,
            "'mbarrier' is written mbarrier.operation... (.init, .arrive, .try_wait, ...), not "
            "'.release' first");
  EXPECT_EQ(rejected("mbarrier.arrive.shared::cluster.b64 %rd1, [%r1];").message,
            "an arrive on a .shared::cluster mbarrier returns no state: its destination is '_'");
  EXPECT_EQ(rejected("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1];").message,
            "'mbarrier.arrive' takes 3 operands, found 2");
  EXPECT_EQ(rejected("mbarrier.try_wait.parity.release.shared::cta.b64 %p1, [%r1], %r2;").message,
            "modifier '.release' is not allowed for 'mbarrier.try_wait'");
  EXPECT_EQ(rejected("mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], %r2, %r3;").message,
            "'mbarrier.test_wait' takes 3 operands, found 4");
  EXPECT_EQ(rejected("mbarrier.try_wait.parity.shared::cta.b64 %p1, %r1, %r2;").message,
            "expected the mbarrier address [addr]");
}

TEST(AsyncForms, MalformedWarpgroupMmasAreLocated) {
  const std::string acc = accumulator(64);
  EXPECT_EQ(rejected("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " + accumulator(32) +
                     ", %rd1, %rd2, %p1, 1, 1, 0, 0;")
                .message,
            "the accumulator of m64n128 .f32 holds 64 registers, found 32");
  EXPECT_EQ(rejected("wgmma.mma_async.sync.aligned.m64n128k8.f32.f16.f16 " + acc +
                     ", %rd1, %rd2, %p1, 1, 1, 0, 0;")
                .message,
            "shape '.m64n128k8' is not a shape of wgmma.f32.f16.f16 (m64nNk16, N a multiple of 8 "
            "up to 256)");
  EXPECT_EQ(rejected("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " + acc +
                     ", %rd1, %rd2, %p1, 2, 1, 0, 0;")
                .message,
            "imm-scale must be 1 or -1, found 2");
  EXPECT_EQ(rejected("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " + acc +
                     ", {%r1, %r2, %r3, %r4}, %rd2, %p1, 1, 1, 0, 0;")
                .message,
            "this 'wgmma.mma_async' form takes 7 operands, found 8");
  EXPECT_EQ(rejected("wgmma.mma_async.aligned.m64n128k16.f32.f16.f16 " + acc +
                     ", %rd1, %rd2, %p1, 1, 1, 0, 0;")
                .message,
            "'wgmma.mma_async' needs .sync");
  // ptxas 13 takes the forms without .aligned.
  accepted("wgmma.mma_async.sync.m64n128k16.f32.f16.f16 " + acc + ", %rd1, %rd2, %p1, 1, 1, 0, 0;");
  accepted("wgmma.commit_group.sync;");
  EXPECT_EQ(rejected("wgmma.mma_async.sync.aligned.m64n128k16.f16.bf16.bf16 " + accumulator(32) +
                     ", %rd1, %rd2, %p1, 1, 1, 0, 0;")
                .message,
            "'wgmma.mma_async' has no form .f16.bf16.bf16");
  EXPECT_EQ(rejected("wgmma.wait_group.sync.aligned %r1;").message,
            "the group count of 'wgmma.wait_group' is an integer constant");
}

TEST(AsyncForms, MemoryOrdersScopesFencesAndPrefetches) {
  EXPECT_EQ(rejected("mbarrier.try_wait.parity.cta.shared::cta.b64 %p1, [%r1], %r2;").message,
            "a scope (.cta, .cluster) on 'mbarrier' needs a memory order (.release, .acquire or "
            ".relaxed)");
  EXPECT_EQ(
      rejected("mbarrier.arrive.release.relaxed.cluster.shared::cluster.b64 _, [%r1];").message,
      "'mbarrier' takes at most one memory order");
  EXPECT_EQ(rejected("mbarrier.try_wait.parity.acquire.cta.cluster.shared::cta.b64 %p1, [%r1], "
                     "%r2;")
                .message,
            "'mbarrier' takes at most one scope");
  EXPECT_EQ(rejected("mbarrier.arrive.shared::cta.b64 %rd1, [%r1], [%r1];").message,
            "expected a register or constant");
  accepted("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r1], %r2, 1000;");
  for (const std::string line :
       {"prefetch.param.tensormap [%rd1];", "prefetch.global.L2 [%rd1];", "prefetch.L1 [%rd1];",
        "prefetch.global.L2::evict_last [%rd1];", "fence.sc.cluster;", "fence.acq_rel.gpu;",
        "fence.proxy.alias;", "fence.proxy.async;", "fence.proxy.async.global;"}) {
    SCOPED_TRACE(line);
    accepted(line);
  }
  accepted("prefetch.tensormap.param [%rd1];");
  EXPECT_EQ(rejected("prefetch.tensormap.global [%rd1];").message,
            "state space '.global' does not go with '.tensormap' of 'prefetch'");
  EXPECT_EQ(rejected("barrier.cluster.acquire.arrive.aligned;").message,
            "'barrier.cluster' is written barrier.cluster.arrive... or barrier.cluster.wait...");
  EXPECT_EQ(rejected("barrier.cluster.wait.release.aligned;").message,
            "modifier '.release' is not allowed for 'barrier.cluster.wait'");
  EXPECT_EQ(rejected("prefetch.global.tensormap [%rd1];").message,
            "state space '.global' does not go with '.tensormap' of 'prefetch'");
  EXPECT_EQ(rejected("prefetch.tensormap;").message, "'prefetch' takes 1 operand, found 0");
  EXPECT_EQ(rejected("prefetch.v2.tensormap [%rd1];").message,
            "modifier '.v2' is not allowed for 'prefetch'");
  EXPECT_EQ(rejected("fence.v8.proxy.async.shared::cta;").message,
            "modifier '.v8' is not allowed for 'fence'");
  EXPECT_EQ(rejected("fence.async.shared::cta;").message,
            "modifier '.async' is not allowed for 'fence'");
  EXPECT_EQ(rejected("cvt.f16x2.f32 %r1, %f1, %f2;").message,
            "'cvt.f16x2.f32' needs a rounding modifier (.rn .rz)");
  EXPECT_EQ(rejected("cvt.rn.ftz.f16x2.f32 %r1, %f1, %f2;").message,
            "'cvt.f16x2.f32' takes no .ftz");
}

TEST(AsyncForms, WarpSpecializationFormsAreChecked) {
  accepted("setmaxnreg.inc.sync.aligned.s32 240;"); // ptxas 13 takes .s32 too
  EXPECT_EQ(rejected("setmaxnreg.inc.sync.aligned.u32 250;").message,
            "the register count of 'setmaxnreg' is a multiple of 8 from 24 to 256, found 250");
  EXPECT_EQ(rejected("setmaxnreg.inc.u32 240;").message, "'setmaxnreg' '.u32' needs one of .sync");
  EXPECT_EQ(rejected("griddepcontrol;").message,
            "'griddepcontrol' needs one of .launch_dependents, .wait");
  EXPECT_EQ(rejected("elect %r1|%p1, -1;").message, "'elect' needs one of .sync");
  EXPECT_EQ(rejected("fence.mbarrier_init.release;").message,
            "'fence.mbarrier_init' is written fence.mbarrier_init.release.cluster");
  EXPECT_EQ(rejected("fence.proxy.async.local;").message,
            "modifier '.local' is not allowed for 'fence.proxy.async'");
  EXPECT_EQ(rejected("fence.proxy.trans.async.shared::cta;").message,
            "modifier '.trans' is not a proxy kind of 'fence.proxy' (.alias, .async, "
            ".tensormap::generic)");
}

} // namespace
} // namespace volta::ptx
