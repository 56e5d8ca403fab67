// Lexical scopes of `{ }` blocks (engine/exec/lexical_scopes.hpp): a label, register or variable
// declared in a block resolves as ptxas resolves it. Before, names were resolved by spelling
// alone: two inline-asm blocks that each define `L` both branched to the last `L`, and a block's
// `.reg .b32 %r1` wrote the enclosing %r1 — wrong values in both machines (the lowering is
// theirs in common), and a kernel ptxas refuses (a label used outside its block) was run.
// What ptxas 13 answers for each kernel is given beside it (`ptxas -arch=sm_80`, run by hand on
// the same text; the soundness entries c25_* check pairs of such kernels end to end).
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

// Stores %r1 to out[0] after `body`, which starts with %r1 = 1.
Result run_body(const std::string& body) {
  const std::string text = kernel(".param .u64 p_out", "  ld.param.u64 %rd0, [p_out];\n"
                                                       "  mov.u32 %r1, 1;\n" +
                                                           body +
                                                           "\n  st.global.u32 [%rd0], %r1;\n"
                                                           "  ret;");
  return run_ptx(text, one_out(1));
}

std::string diagnostics(const Result& r) {
  std::string s;
  for (const auto& d : r.diagnostics)
    s += d.render() + "\n";
  return s;
}

TEST(LexicalScopes, SiblingBlocksEachBranchToTheirOwnLabel) {
  // ptxas: accepted. The first loop counts %r1 up to 5, the second by 2 up to 9.
  const Result r = run_body("  { L: add.u32 %r1, %r1, 1; setp.lt.u32 %p1, %r1, 5; @%p1 bra L; }\n"
                            "  { L: add.u32 %r1, %r1, 2; setp.lt.u32 %p1, %r1, 9; @%p1 bra L; }");
  ASSERT_TRUE(r.loaded()) << diagnostics(r);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "9") << r.describe();
}

TEST(LexicalScopes, ABlockRegisterShadowsTheEnclosingOne) {
  // ptxas: accepted; the block's %r1 is another register, so the outer one stays 1.
  const Result r = run_body("  { .reg .b32 %r1; mov.u32 %r1, 7; }\n  add.u32 %r1, %r1, 1;");
  ASSERT_TRUE(r.loaded()) << diagnostics(r);
  EXPECT_EQ(r.expr("out", 0), "2") << r.describe();
}

TEST(LexicalScopes, ABlockLabelShadowsTheEnclosingOne) {
  // ptxas: accepted. The inner `bra L` goes to the inner L (+2), then falls into the outer L (+1).
  const Result r = run_body("  { bra L; L: add.u32 %r1, %r1, 2; }\n  L: add.u32 %r1, %r1, 1;");
  ASSERT_TRUE(r.loaded()) << diagnostics(r);
  EXPECT_EQ(r.expr("out", 0), "4") << r.describe();
}

TEST(LexicalScopes, ABlockMayBranchToAnEnclosingLabelFurtherDown) {
  // ptxas: accepted. The outer `bra L` skips the block's L.
  const Result r =
      run_body("  bra L;\n  { L: add.u32 %r1, %r1, 5; bra L; }\n  L: add.u32 %r1, %r1, 1;");
  ASSERT_TRUE(r.loaded()) << diagnostics(r);
  EXPECT_EQ(r.expr("out", 0), "2") << r.describe();
}

TEST(LexicalScopes, ABlockVariableShadowsTheEnclosingOne) {
  // ptxas: accepted. The block's `.local` v is other memory, so the outer v keeps 10.
  const Result r = run_body("  .reg .b32 %t;\n  .local .b32 v;\n"
                            "  mov.u32 %t, 10;\n  st.local.u32 [v], %t;\n"
                            "  { .local .b32 v; mov.u32 %t, 20; st.local.u32 [v], %t; }\n"
                            "  ld.local.u32 %t, [v];\n  add.u32 %r1, %r1, %t;");
  ASSERT_TRUE(r.loaded()) << diagnostics(r);
  EXPECT_EQ(r.expr("out", 0), "11") << r.describe();
}

struct Refused {
  const char* body;
  const char* message; // part of the located error
};

TEST(LexicalScopes, WhatPtxasRefusesIsALocatedError) {
  for (const Refused& c : {
           // ptxas: "Duplicate definition of label 'L'"
           Refused{"  L: add.u32 %r1, %r1, 1;\n  L: add.u32 %r1, %r1, 1;",
                   "duplicate definition of label 'L'"},
           Refused{"  { L: add.u32 %r1, %r1, 1; L: add.u32 %r1, %r1, 1; }",
                   "duplicate definition of label 'L'"},
           // ptxas: "Unknown symbol 'L'"
           Refused{"  bra L;\n  { L: add.u32 %r1, %r1, 1; }", "undefined label 'L'"},
           // ptxas: "Unknown symbol 'q'"
           Refused{"  { .reg .b32 q; mov.u32 q, 7; }\n  add.u32 %r1, q, 1;", "'q'"},
           // ptxas: "Duplicate definition of variable '%r1'" (the kernel declares %r<64>)
           Refused{"  .reg .b32 %r1;", "duplicate definition of register '%r1'"},
           Refused{"  { .reg .b32 q; .reg .b32 q; }", "duplicate definition of register 'q'"},
           // ptxas: "Label expected for forward reference of 'q'"
           Refused{"  mov.u32 q, 1;\n  .reg .b32 q;", "'q'"},
       }) {
    SCOPED_TRACE(c.body);
    const Result r = run_body(c.body);
    EXPECT_FALSE(r.loaded());
    const std::string d = diagnostics(r);
    EXPECT_NE(d.find(c.message), std::string::npos) << d;
    EXPECT_NE(d.find(": error: "), std::string::npos) << d;
  }
}

} // namespace
} // namespace volta::etest
