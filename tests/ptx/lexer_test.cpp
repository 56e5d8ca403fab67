// The lexer's token shapes.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "ptx/lexer.hpp"

namespace volta::ptx::detail {
namespace {

std::vector<Token> lex_all(std::string_view text) {
  Lexer lex(text);
  std::vector<Token> out;
  for (;;) {
    Token t = lex.next();
    if (t.kind == TokenKind::End) {
      break;
    }
    out.push_back(t);
  }
  return out;
}

TEST(Lexer, OpcodeWithSuffixesIsOneToken) {
  auto t = lex_all("ld.global.nc.v4.f32 {%f1}, [%rd1+-4];");
  ASSERT_EQ(t.size(), 12u);
  EXPECT_EQ(t[0].kind, TokenKind::Ident);
  EXPECT_EQ(t[0].text, "ld.global.nc.v4.f32");
  EXPECT_EQ(t[1].kind, TokenKind::LBrace);
  EXPECT_EQ(t[2].text, "%f1");
  EXPECT_EQ(t[6].kind, TokenKind::Ident);
  EXPECT_EQ(t[7].kind, TokenKind::Plus);
  EXPECT_EQ(t[8].kind, TokenKind::Minus);
  EXPECT_EQ(t[9].kind, TokenKind::Number);
}

TEST(Lexer, SpecialRegistersAndScopedSuffixes) {
  auto t = lex_all("%tid.x %ctaid.y cp.async.bulk.shared::cluster.global $L__BB0_2: .shared::cta");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].text, "%tid.x");
  EXPECT_EQ(t[1].text, "%ctaid.y");
  EXPECT_EQ(t[2].text, "cp.async.bulk.shared::cluster.global");
  EXPECT_EQ(t[3].text, "$L__BB0_2");
  EXPECT_EQ(t[4].kind, TokenKind::Colon);
  EXPECT_EQ(t[5].kind, TokenKind::Directive);
  EXPECT_EQ(t[5].text, ".shared::cta");
}

TEST(Lexer, Numbers) {
  auto t = lex_all("0f3F800000 0d3FF0000000000000 1.5e-3 2E+10 0x1F 017 0b101 42U 7.8");
  ASSERT_EQ(t.size(), 9u);
  for (const Token& tok : t) {
    EXPECT_EQ(tok.kind, TokenKind::Number) << tok.text;
  }
  EXPECT_EQ(t[2].text, "1.5e-3");
  EXPECT_EQ(t[3].text, "2E+10");
  EXPECT_EQ(t[8].text, "7.8");
}

TEST(Lexer, CommentsLinesAndColumns) {
  auto t = lex_all("a // one\n/* two\nthree */ b\n\tc");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].loc, (SourceLocation{1, 1}));
  EXPECT_EQ(t[1].loc, (SourceLocation{3, 10}));
  EXPECT_EQ(t[2].loc, (SourceLocation{4, 2}));
}

TEST(Lexer, StringsAndErrors) {
  auto t = lex_all(R"("a \"b\" c" "unterminated)");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kind, TokenKind::String);
  EXPECT_EQ(t[0].text, R"(a \"b\" c)");
  EXPECT_EQ(t[1].kind, TokenKind::Invalid);
  EXPECT_STREQ(t[1].error, "unterminated string literal");

  auto c = lex_all("a /* never closed");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].kind, TokenKind::Invalid);
  EXPECT_STREQ(c[1].error, "unterminated /* comment");

  std::string nul("a\0b", 3);
  auto n = lex_all(nul);
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[1].kind, TokenKind::Invalid);
  EXPECT_EQ(n[1].loc.column, 2u);
}

TEST(Lexer, RestOfLineStopsAtComments) {
  Lexer lex(".loc 1 2 3, function_name $L__info_string0 // c\nnext");
  for (int i = 0; i < 4; ++i) {
    lex.next();
  }
  EXPECT_EQ(lex.rest_of_line(), ", function_name $L__info_string0");
  EXPECT_EQ(lex.next().text, "next");
}

TEST(Lexer, RawBlockBalancesBracesAndSkipsComments) {
  Lexer lex(".section .debug_str\n{\n a { b } // }\n \"}\" \n}\nafter");
  lex.next();
  EXPECT_EQ(lex.raw_word(), ".debug_str");
  std::string_view body;
  bool unterminated = true;
  Token open;
  ASSERT_TRUE(lex.raw_block(body, unterminated, open));
  EXPECT_FALSE(unterminated);
  EXPECT_EQ(body, "\n a { b } // }\n \"}\" \n");
  Token after = lex.next();
  EXPECT_EQ(after.text, "after");
  EXPECT_EQ(after.loc.line, 6u);
}

} // namespace
} // namespace volta::ptx::detail
