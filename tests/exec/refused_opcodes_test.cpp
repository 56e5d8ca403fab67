// The opcodes lowering refuses (engine/exec/lower.cpp, the refusal cases of its exhaustive
// switch over ptx::Opcode): each one, in a valid form, parses and loads, and running it ends the
// kernel UNSUPPORTED at its own PTX line, never with a value (docs/architecture.md, "Adding a
// PTX instruction"). When an opcode gets semantics, its line moves from here to a test of them.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

TEST(RefusedOpcodes, EachIsUnsupportedAtItsLine) {
  for (const std::string ins : {
           "addc.u32 %r3, %r1, %r2;",
           "subc.u32 %r3, %r1, %r2;",
           "madc.lo.u32 %r3, %r1, %r2, %r1;",
           "fns.b32 %r3, %r1, %r2, 1;",
           "bmsk.clamp.b32 %r3, %r1, %r2;",
           "dp4a.u32.u32 %r3, %r1, %r2, %r1;",
           "dp2a.lo.u32.u32 %r3, %r1, %r2, %r1;",
           "slct.u32.s32 %r3, %r1, %r2, %r1;",
           "isspacep.global %p2, %rd1;",
           "brkpt;",
           "nanosleep.u32 %r1;",
           "getctarank.shared::cluster.u32 %r3, %rd1;", // Opcode::Other: no enumerator
           // Hopper (issue 33): TMA, an mbarrier wait not in the spin-loop form (the engine runs
           // the others: warp_specialization_test.cpp), the tensor-map proxy fence, clusters
           // (wgmma, stmatrix, fence.proxy.async: warpgroup_mma_test.cpp; elect.sync, setmaxnreg,
           // griddepcontrol: warp_specialization_test.cpp).
           // (The tile load, the tensor prefetch, the tile store and the bulk async-groups run:
           // tensor_load_test.cpp, tensor_store_test.cpp.)
           "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes."
           "multicast::cluster [%rd1], [%rd2, {%r1, %r2}], [%rd1], %h1;",
           "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], "
           "16, [%rd1];",
           "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%rd1], %r1;",
           "barrier.cluster.arrive.relaxed.aligned;",
           "barrier.cluster.wait.aligned;",
           "fence.proxy.tensormap::generic.release.gpu;",
       }) {
    SCOPED_TRACE(ins);
    const std::string body =
        "  mov.u32 %r1, 7;\n  mov.u32 %r2, 3;\n  mov.u64 %rd1, 0;\n  mov.u16 %h1, 1;\n  " + ins +
        "\n  ret;";
    std::string text = kernel(".param .u64 p_out", body);
    // The Hopper instructions are sm_90 ones.
    text.replace(text.find("sm_80"), 5, "sm_90a");
    const auto r = run_ptx(text, one_out(1));
    ASSERT_TRUE(r.loaded()) << r.describe();
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
    ASSERT_TRUE(r.failure()->first.has_value()) << r.describe();
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, ins)) << r.describe();
  }
}

} // namespace
} // namespace volta::etest
