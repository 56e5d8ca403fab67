// Malformed input: located diagnostics, rendering, recovery, and hostile bytes.
#include <gtest/gtest.h>

#include "ptx/diagnostic.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

using testing::kernel;
using testing::parse_bad;

// The first error's headline.
std::string first_error(std::string_view text) {
  auto d = parse_bad(text);
  return d.empty() ? std::string() : d.front().headline();
}

TEST(Diagnostics, MissingSemicolon) {
  // kernel() puts the body on line 8.
  EXPECT_EQ(first_error(kernel("\tadd.s32 %r1, %r2, 1\n\tret;")),
            "bad.ptx:9:2: error: expected ',' or ';' after an operand, found 'ret'");
}

TEST(Diagnostics, UnknownDirectiveInBody) {
  EXPECT_EQ(
      first_error(kernel("\t.frobnicate 3;")),
      "bad.ptx:8:2: error: unknown or unsupported directive '.frobnicate' in a function body");
}

TEST(Diagnostics, BadOperands) {
  EXPECT_EQ(first_error(kernel("\tmov.u32 %r1, 0x;")),
            "bad.ptx:8:15: error: invalid integer literal");
  EXPECT_EQ(first_error(kernel("\tmov.u32 %r1, 99999999999999999999999;")),
            "bad.ptx:8:15: error: integer literal does not fit in 64 bits");
  EXPECT_EQ(first_error(kernel("\tmov.f32 %f1, 0f3F80;")),
            "bad.ptx:8:15: error: invalid f32 literal (expected 0f followed by 8 hex digits)");
  EXPECT_EQ(first_error(kernel("\tmov.u32 %r1, 08;")),
            "bad.ptx:8:15: error: invalid digit in integer literal");
  EXPECT_EQ(first_error(kernel("\tld.global.f32 %f1, [%rd1+%r2];")),
            "bad.ptx:8:27: error: expected an integer offset, found '%r2'");
  EXPECT_EQ(first_error(kernel("\tld.global.f32 %f1, [%rd1+4;")),
            "bad.ptx:8:28: error: expected ']' to end the address, found ';'");
  EXPECT_EQ(first_error(kernel("\tmov.f32 %f1, 1e999;")),
            "bad.ptx:8:15: error: floating-point literal out of range");
  EXPECT_EQ(first_error(kernel("\tadd.s32 %r1, , %r2;")),
            "bad.ptx:8:15: error: expected an operand, found ','");
  EXPECT_EQ(first_error(kernel("\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, 5];")),
            "bad.ptx:8:49: error: expected a name or a '{...}' vector of coordinates, found '5'");
  EXPECT_EQ(first_error(kernel("\tld.v4.f32 {%f1, {%f2}}, [%rd1];")),
            "bad.ptx:8:18: error: expected a vector element, found '{'");
}

TEST(Diagnostics, BadStatements) {
  EXPECT_EQ(first_error(kernel("\t%r1 = 3;")),
            "bad.ptx:8:2: error: expected an instruction, found '%r1'");
  EXPECT_EQ(first_error(kernel("\tADD.s32 %r1, %r2, %r3;")),
            "bad.ptx:8:2: error: expected an instruction, found 'ADD.s32'");
  EXPECT_EQ(first_error(kernel("\t.reg .b32 %r<>;")),
            "bad.ptx:8:15: error: expected a register count, found '>'");
  EXPECT_EQ(first_error(kernel("\t.reg %r1;")),
            "bad.ptx:8:7: error: expected a register type such as .b32, found '%r1'");
  EXPECT_EQ(first_error(kernel("\t.loc 1 x 3\n\tret;")),
            "bad.ptx:8:9: error: expected a line number, found 'x'");
  // `bra` is taken as the predicate, so the label is where the opcode should be.
  EXPECT_EQ(first_error(kernel("\t@ bra $L1;")),
            "bad.ptx:8:8: error: expected an instruction, found '$L1'");
  EXPECT_EQ(first_error(kernel("\t@!;")),
            "bad.ptx:8:4: error: expected a predicate register after '@', found ';'");
}

TEST(Diagnostics, BadDeclarations) {
  std::string h(testing::kHeader);
  EXPECT_EQ(first_error(h + ".global .u32 x[4] = {1, 2, 3, 4, 5};"),
            "bad.ptx:4:21: error: too many initializers (5 for 4 elements)");
  EXPECT_EQ(first_error(h + ".global .u32 x[2][2] = {{1}, {2, 3}};"),
            "bad.ptx:4:25: error: inner initializer list has 1 elements; expected exactly 2");
  EXPECT_EQ(first_error(h + ".global .u32 x[2] = {{1}, {2}};"),
            "bad.ptx:4:22: error: initializer braces nested deeper than the declaration's "
            "dimensions");
  EXPECT_EQ(first_error(h + ".global .texref .u32 t;"),
            "bad.ptx:4:17: error: a declaration has one type; found a second one, '.u32'");
  EXPECT_EQ(first_error(h + ".global .attribute(.bogus) .u32 t;"),
            "bad.ptx:4:20: error: expected '.managed', found '.bogus'");
  EXPECT_EQ(first_error(h + ".global .u32 .f32 x;"),
            "bad.ptx:4:14: error: a declaration has one type; found a second one, '.f32'");
  EXPECT_EQ(first_error(h + ".global .u32 a.b;"), "bad.ptx:4:14: error: invalid name 'a.b'");
  EXPECT_EQ(first_error(h + ".entry k(.param .u64 a,) { ret; }"),
            "bad.ptx:4:24: error: expected a parameter declaration such as '.param .u64 name', "
            "found ')'");
  EXPECT_EQ(first_error(h + ".entry k() .bogus { ret; }"),
            "bad.ptx:4:12: error: expected '{' or ';' after the function header, found '.bogus'");
  EXPECT_EQ(first_error(h + ".aliasing a, b;"),
            "bad.ptx:4:1: error: unknown or unsupported directive '.aliasing' at module scope");
  EXPECT_EQ(first_error(h + ".address_size 48\n"),
            "bad.ptx:4:15: error: address size must be 32 or 64");
  EXPECT_EQ(first_error(h + "add.s32 %r1, %r2, %r3;"),
            "bad.ptx:4:1: error: expected a directive, found 'add.s32'");
}

TEST(Diagnostics, ModuleHeader) {
  EXPECT_EQ(first_error(""),
            "bad.ptx:1:1: error: expected '.version' directive at the start of the module");
  EXPECT_EQ(first_error(".target sm_80\n"),
            "bad.ptx:1:1: error: expected '.version' directive at the start of the module, found "
            "'.target'");
  EXPECT_EQ(first_error(".version 8\n"),
            "bad.ptx:1:10: error: invalid version number '8' (expected MAJOR.MINOR)");
  EXPECT_EQ(first_error(".version 8.0\n.version 8.1\n"),
            "bad.ptx:2:1: error: duplicate '.version' directive");
}

TEST(Diagnostics, UnterminatedThings) {
  auto d = parse_bad(kernel("\tret;").substr(0, kernel("\tret;").size() - 3));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].headline(), "bad.ptx:8:6: error: expected '}' at the end of input");
  EXPECT_EQ(d[1].severity, Severity::Note);
  EXPECT_EQ(d[1].headline(), "bad.ptx:7:1: note: to match this '{'");

  EXPECT_EQ(first_error(std::string(testing::kHeader) + "\t.file 1 \"abc\n"),
            "bad.ptx:4:10: error: unterminated string literal");
  EXPECT_EQ(first_error(kernel("\tret; /* no end")), "bad.ptx:8:7: error: unterminated /* comment");
  EXPECT_EQ(first_error(std::string(testing::kHeader) + ".section .debug_str {\n.b8 1\n"),
            "bad.ptx:4:21: error: unterminated section body: expected '}' before the end of input");
}

TEST(Diagnostics, HostileBytes) {
  std::string nul = kernel(std::string("\tadd.s32 %r1, \0, 1;", 19));
  EXPECT_EQ(first_error(nul), "bad.ptx:8:15: error: unexpected character '\\x00'");
  EXPECT_EQ(first_error(kernel("\tadd.s32 %r1, \xff\xfe, 1;")),
            "bad.ptx:8:15: error: unexpected character '\\xff'");
  EXPECT_EQ(first_error(kernel("\tadd.s32 %r1, #, 1;")),
            "bad.ptx:8:15: error: unexpected character '#'");
}

TEST(Diagnostics, RenderShowsTheLineAndACaret) {
  auto d = parse_bad(kernel("\tadd.s32 \t%r1, %r2 %r3;"));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].source_line, "\tadd.s32 \t%r1, %r2 %r3;");
  EXPECT_EQ(d[0].render(),
            "bad.ptx:8:20: error: expected ',' or ';' after an operand, found '%r3'\n"
            "\tadd.s32 \t%r1, %r2 %r3;\n"
            "\t        \t         ^\n");
  Diagnostic file_level;
  file_level.file = "x.ptx";
  file_level.message = "cannot read file";
  EXPECT_EQ(file_level.render(), "x.ptx: error: cannot read file\n");
}

TEST(Diagnostics, RenderReplacesControlBytes) {
  std::string text = kernel(std::string("\tmov.u32 %r1, \x1b[31m;", 20));
  auto d = parse_bad(text);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].render().find('\x1b'), std::string::npos);
}

TEST(Diagnostics, SeveralErrorsAreCollected) {
  auto d = parse_bad(kernel("\tadd.s32 %r1 %r2;\n\tret;\n\tmov.u32 %r1, 0x;\n\tret;"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].where, (SourceLocation{8, 14}));
  EXPECT_EQ(d[1].where, (SourceLocation{10, 15}));
}

TEST(Diagnostics, StopsAfterTwentyErrors) {
  std::string body;
  for (int i = 0; i < 100; ++i) {
    body += "\tbad bad bad;\n";
  }
  auto d = parse_bad(kernel(body));
  ASSERT_EQ(d.size(), 21u);
  EXPECT_EQ(d.back().severity, Severity::Note);
  EXPECT_EQ(d.back().message, "too many errors; stopping here");
}

TEST(Diagnostics, LongLinesAreShownAroundTheColumn) {
  std::string line = "\tmov.u32 %r1, %r2";
  line += std::string(1'000'000, ' ');
  line += "%r3;";
  auto d = parse_bad(kernel(line));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].where.column, 1'000'018u);
  EXPECT_LE(d[0].source_line.size(), 200u);
  EXPECT_GT(d[0].source_line_start_column, 1u);
  std::string r = d[0].render();
  EXPECT_LT(r.size(), 800u);
  // The caret stands under the '%' of %r3.
  size_t first_nl = r.find('\n');
  size_t second_nl = r.find('\n', first_nl + 1);
  std::string shown = r.substr(first_nl + 1, second_nl - first_nl - 1);
  std::string caret = r.substr(second_nl + 1);
  EXPECT_EQ(shown.substr(0, 3), "...");
  EXPECT_EQ(shown[caret.find('^')], '%');
}

TEST(Diagnostics, HugeAndDeepInputsFinish) {
  // A 10 MB line of junk, 1M nested scopes, 1M nested initializer braces, 1M dimensions.
  std::string junk = kernel(std::string(10'000'000, 'x'));
  EXPECT_LE(parse_bad(junk).size(), 21u);
  std::string scopes = kernel(std::string(1'000'000, '{'));
  auto deep = parse_bad(scopes);
  ASSERT_EQ(deep.size(), 1u);
  EXPECT_EQ(deep[0].headline(), "bad.ptx:8:1025: error: scopes nested more than 1024 deep");
  // Many one-line functions: linear, not quadratic, in the number of functions.
  std::string many(testing::kHeader);
  for (int i = 0; i < 200'000; ++i) {
    many += ".func f(){ret;}";
  }
  EXPECT_TRUE(parse(many, "m.ptx").ok());
  std::string braces =
      std::string(testing::kHeader) + ".global .u32 x[1] = " + std::string(1'000'000, '{');
  EXPECT_FALSE(parse(braces, "b.ptx").ok());
  std::string dims = std::string(testing::kHeader) + ".global .u32 x";
  for (int i = 0; i < 200'000; ++i) {
    dims += "[1]";
  }
  dims += " = {1};";
  ParseResult r = parse(dims, "d.ptx");
  ASSERT_TRUE(r.ok()) << render_all(r.diagnostics);
  testing::expect_round_trip(dims, "many dimensions");
  std::string semis = kernel(std::string(1'000'000, ';'));
  EXPECT_TRUE(parse(semis, "e.ptx").ok());
}

TEST(Diagnostics, UnreadableFile) {
  ParseResult r = parse_file("/nonexistent/dir/x.ptx");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].headline(),
            "/nonexistent/dir/x.ptx: error: cannot read file: No such file or directory");
  ParseResult dir = parse_file("/");
  EXPECT_FALSE(dir.ok());
  EXPECT_EQ(dir.diagnostics.size(), 1u);
}

TEST(Diagnostics, LineOf) {
  EXPECT_EQ(line_of("a\nbb\r\nccc", 2), "bb");
  EXPECT_EQ(line_of("a\nbb\r\nccc", 3), "ccc");
  EXPECT_EQ(line_of("a\nbb", 4), "");
  EXPECT_EQ(line_of("a", 0), "");
}

} // namespace
} // namespace volta::ptx
