// The one reporter of the CLI (engine/diagnostic_reporter.hpp) and Expected, the return type
// that replaced `std::string& error` out-parameters.
#include <gtest/gtest.h>
#include <sstream>

#include "engine/diagnostic_reporter.hpp"
#include "engine/expected.hpp"
#include "engine/launch/manifest.hpp"

namespace volta {
namespace {

TEST(DiagnosticReporter, UnlocatedMessagesNameTheTool) {
  std::ostringstream out;
  DiagnosticReporter r(out, false);
  r.error("--shard: expected I/N");
  r.warning("merge: missing shard 3");
  r.note("--max-memory: not enforced");
  r.internal_error("boom");
  r.status("interrupted by SIGINT");
  EXPECT_EQ(out.str(), "volta-eg: error: --shard: expected I/N\n"
                       "volta-eg: warning: merge: missing shard 3\n"
                       "volta-eg: note: --max-memory: not enforced\n"
                       "volta-eg: internal error: boom\n"
                       "volta-eg: interrupted by SIGINT\n");
  EXPECT_EQ(r.errors(), 2u);
  EXPECT_EQ(r.warnings(), 1u);
}

TEST(DiagnosticReporter, TheCommandNamesItselfWhenSet) {
  std::ostringstream out;
  DiagnosticReporter r(out, false);
  r.set_command("prove");
  r.error("unknown flag \"--timout\"");
  r.set_command({});
  r.error("x");
  EXPECT_EQ(out.str(), "volta-eg prove: error: unknown flag \"--timout\"\nvolta-eg: error: x\n");
}

TEST(DiagnosticReporter, LocatedDiagnosticsKeepTheirLineAndCaret) {
  std::ostringstream out;
  DiagnosticReporter r(out, false);
  ptx::Diagnostic d;
  d.file = "k.ptx";
  d.where = {8, 8};
  d.message = "unknown type '.s33'";
  d.source_line = "\tmad.lo.s33 %r1, %r2, %r3, %r4;";
  r.report(d);
  r.error_in("m.json", "cannot use this manifest");
  r.report(ptx::Severity::Warning, "m.json", {3, 7}, "unused key");
  EXPECT_EQ(out.str(), d.render() + "m.json: error: cannot use this manifest\n" +
                           "m.json:3:7: warning: unused key\n");
  EXPECT_EQ(r.errors(), 2u);
}

TEST(DiagnosticReporter, ARenderedDiagnosticIsNotPrefixedTwice) {
  std::ostringstream out;
  DiagnosticReporter r(out, false);
  r.error("k.ptx:8:8: error: unknown type '.s33'");
  r.error("my kernels/k.ptx:8:8: error: a path with a space");
  r.warning("a.json: warning: ran with other options");
  // A sentence that merely contains ": error: " is a message, not a diagnostic.
  r.error("entry \"x\": error: y");
  EXPECT_EQ(out.str(), "k.ptx:8:8: error: unknown type '.s33'\n"
                       "my kernels/k.ptx:8:8: error: a path with a space\n"
                       "a.json: warning: ran with other options\n"
                       "volta-eg: error: entry \"x\": error: y\n");
  EXPECT_TRUE(is_rendered_diagnostic("a.ptx: error: x"));
  EXPECT_FALSE(is_rendered_diagnostic("volta-eg: error: x"));
  EXPECT_FALSE(is_rendered_diagnostic("error: x"));
}

TEST(DiagnosticReporter, ColourMarksOnlyTheSeverity) {
  std::ostringstream out;
  DiagnosticReporter r(out, true);
  r.error("x");
  ptx::Diagnostic d;
  d.file = "k.ptx";
  d.where = {2, 3};
  d.severity = ptx::Severity::Warning;
  d.message = "y";
  r.report(d);
  EXPECT_EQ(out.str(), "volta-eg: \033[1;31merror:\033[0m x\n"
                       "k.ptx:2:3: \033[1;35mwarning:\033[0m y\n");
}

TEST(Expected, HoldsAValueOrTheReason) {
  const Expected<int> three = 3;
  ASSERT_TRUE(three);
  EXPECT_EQ(*three, 3);
  const Expected<int> none = Unexpected{"no number"};
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error(), "no number");
  EXPECT_EQ(none.value_or(7), 7);
  // A string value and a string reason stay apart.
  const Expected<std::string> word = std::string("w");
  ASSERT_TRUE(word);
  EXPECT_EQ(*word, "w");
  const Expected<void> done;
  EXPECT_TRUE(done);
  const Expected<void> failed = Unexpected{"why"};
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error(), "why");
}

TEST(Expected, ParsersSayWhy) {
  const auto param = launch::parse_param("int:x");
  ASSERT_FALSE(param);
  EXPECT_EQ(param.error(), "\"x\" is not an integer");
  const auto array = launch::parse_array_flag("A:0x1000:4:8:in");
  ASSERT_TRUE(array) << array.error();
  EXPECT_EQ(array->len, 8u);
}

} // namespace
} // namespace volta
