// The PTX lexer: a hand-written scanner over a string_view, used by the parser one token at a
// time. Internal to the front end (the parser is the public interface); tests may use it.
//
// Token shapes:
//   Ident      `[A-Za-z_$%][A-Za-z0-9_$]*`, continued by `.word` and `::word` with no space in
//              between, so that an opcode with its suffixes (`ld.global.nc.v4.f32`,
//              `cp.async.bulk.shared::cluster`) and a special register (`%tid.x`) are one token.
//   Directive  `.word` (`.reg`, `.b32`, `.shared::cta`), not continued by further dots.
//   Number     a digit followed by `[A-Za-z0-9_.]` (and an exponent sign in `1.5e-3`); the
//              parser reads its value.
//   String     `"..."` with backslash escapes, on one line; `text` excludes the quotes.
//   punctuation, End, and Invalid (a stray byte, an unterminated string or comment).
#pragma once

#include <cstdint>
#include <string_view>

#include "ptx/source_location.hpp"

namespace volta::ptx::detail {

enum class TokenKind : uint8_t {
  End,
  Invalid,
  Ident,
  Directive,
  Number,
  String,
  LBrace,
  RBrace,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Semicolon,
  Colon,
  Pipe,
  Bang,
  At,
  Plus,
  Minus,
  Equals,
  Less,
  Greater,
};

struct Token {
  TokenKind kind = TokenKind::End;
  SourceLocation loc;
  uint32_t offset = 0; // byte offset of the token in the text
  std::string_view text;
  const char* error = nullptr; // Invalid tokens: why
};

class Lexer {
public:
  // The text must be shorter than 4 GiB (offsets are 32-bit); the parser checks.
  // A UTF-8 byte-order mark at the start is skipped (columns still count its bytes).
  explicit Lexer(std::string_view text) : text_(text) {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") {
      pos_ = 3;
    }
  }

  // Reads the next token into `t` (the parser's hot path: no copy of a returned Token).
  void next(Token& t);
  Token next() {
    Token t;
    next(t);
    return t;
  }

  // The next byte after spaces and tabs on the current line ('\0' at end of input). Lets the
  // parser tell a label (`$L__BB0_2:`) from an instruction without lexing ahead.
  char peek_char() const;

  // `.loc` keeps whatever follows its three numbers on the line (`, function_name ...`): the
  // text from the current position to the end of the line or to a comment, trimmed.
  std::string_view rest_of_line();

  // `.section NAME`: the name, as the run of bytes up to the next space, `{` or `;`.
  std::string_view raw_word();

  // `{ ... }` of a debug section, taken verbatim. Expects the next non-space byte to be `{`;
  // returns false (and consumes nothing) otherwise. On success `body` is everything between
  // the braces; `unterminated` tells that the input ended first (then `body` runs to the end).
  bool raw_block(std::string_view& body, bool& unterminated, Token& open);

  // Line and column of the current position; used for "end of input" diagnostics.
  SourceLocation here() const { return location(pos_); }
  std::string_view text() const { return text_; }

private:
  SourceLocation location(size_t offset) const {
    return {line_, static_cast<uint32_t>(offset - line_start_ + 1)};
  }
  bool skip_block_comment(size_t& p, Token& t);
  size_t scan_number(size_t p) const;
  void scan_string(size_t p, Token& t);
  void newline_at(size_t offset) {
    ++line_;
    line_start_ = offset + 1;
  }
  std::string_view text_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
};

// Character classes shared by the lexer and the parser (a 256-entry table: no locale).
bool is_ident_start(char c);
bool is_ident_char(char c);

} // namespace volta::ptx::detail
