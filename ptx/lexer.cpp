// The PTX lexer (see lexer.hpp). One pass over the bytes, no allocation, no regex.
#include "ptx/lexer.hpp"

#include <array>
#include <cstring>

namespace volta::ptx::detail {

namespace {

enum CharClass : uint8_t {
  kSpace = 1,      // space, tab, CR, VT, FF (newline is handled apart: it moves the line)
  kIdentStart = 2, // [A-Za-z_$%]
  kIdentChar = 4,  // [A-Za-z0-9_$]
  kDigit = 8,      // [0-9]
  kNumberChar = 16 // [A-Za-z0-9_.]
};

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    uint8_t v = 0;
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      v |= kSpace;
    }
    if (alpha || c == '_' || c == '$' || c == '%') {
      v |= kIdentStart;
    }
    if (alpha || digit || c == '_' || c == '$') {
      v |= kIdentChar;
    }
    if (digit) {
      v |= kDigit;
    }
    if (alpha || digit || c == '_' || c == '.') {
      v |= kNumberChar;
    }
    t[static_cast<size_t>(c)] = v;
  }
  return t;
}

constexpr std::array<uint8_t, 256> kClasses = make_classes();

inline bool has(char c, uint8_t cls) {
  return (kClasses[static_cast<unsigned char>(c)] & cls) != 0;
}

} // namespace

bool is_ident_start(char c) {
  return has(c, kIdentStart);
}
bool is_ident_char(char c) {
  return has(c, kIdentChar);
}

Token Lexer::next() {
  const size_t n = text_.size();
  const char* s = text_.data();
  // Trivia: spaces, newlines, comments.
  for (;;) {
    while (pos_ < n && has(s[pos_], kSpace)) {
      ++pos_;
    }
    if (pos_ >= n) {
      break;
    }
    char c = s[pos_];
    if (c == '\n') {
      newline_at(pos_);
      ++pos_;
      continue;
    }
    if (c == '/' && pos_ + 1 < n && s[pos_ + 1] == '/') {
      const void* nl = std::memchr(s + pos_, '\n', n - pos_);
      pos_ = nl == nullptr ? n : static_cast<size_t>(static_cast<const char*>(nl) - s);
      continue;
    }
    if (c == '/' && pos_ + 1 < n && s[pos_ + 1] == '*') {
      size_t start = pos_;
      SourceLocation start_loc = location(start);
      pos_ += 2;
      bool closed = false;
      while (pos_ < n) {
        const void* hit = std::memchr(s + pos_, '*', n - pos_);
        size_t star = hit == nullptr ? n : static_cast<size_t>(static_cast<const char*>(hit) - s);
        // Count the lines the comment spans up to the star.
        for (size_t i = pos_; i < star; ++i) {
          if (s[i] == '\n') {
            newline_at(i);
          }
        }
        if (star >= n) {
          pos_ = n;
          break;
        }
        if (star + 1 < n && s[star + 1] == '/') {
          pos_ = star + 2;
          closed = true;
          break;
        }
        pos_ = star + 1;
      }
      if (!closed) {
        Token t;
        t.kind = TokenKind::Invalid;
        t.loc = start_loc;
        t.offset = static_cast<uint32_t>(start);
        t.text = text_.substr(start, 2);
        t.error = "unterminated /* comment";
        return t;
      }
      continue;
    }
    break;
  }

  Token t;
  t.offset = static_cast<uint32_t>(pos_);
  t.loc = location(pos_);
  if (pos_ >= n) {
    t.kind = TokenKind::End;
    return t;
  }
  const size_t start = pos_;
  const char c = s[pos_];

  if (has(c, kIdentStart)) {
    ++pos_;
    for (;;) {
      while (pos_ < n && has(s[pos_], kIdentChar)) {
        ++pos_;
      }
      // `.word` and `::word` continue the identifier only when a word follows at once.
      if (pos_ + 1 < n && s[pos_] == '.' && has(s[pos_ + 1], kIdentChar)) {
        pos_ += 2;
        continue;
      }
      if (pos_ + 2 < n && s[pos_] == ':' && s[pos_ + 1] == ':' && has(s[pos_ + 2], kIdentChar)) {
        pos_ += 3;
        continue;
      }
      break;
    }
    t.kind = TokenKind::Ident;
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

  if (c == '.' && pos_ + 1 < n && has(s[pos_ + 1], kIdentChar)) {
    pos_ += 2;
    for (;;) {
      while (pos_ < n && has(s[pos_], kIdentChar)) {
        ++pos_;
      }
      if (pos_ + 2 < n && s[pos_] == ':' && s[pos_ + 1] == ':' && has(s[pos_ + 2], kIdentChar)) {
        pos_ += 3;
        continue;
      }
      break;
    }
    t.kind = TokenKind::Directive;
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

  if (has(c, kDigit)) {
    ++pos_;
    while (pos_ < n && has(s[pos_], kNumberChar)) {
      ++pos_;
    }
    // A decimal exponent with a sign (`1.5e-3`): the scan above stopped at the sign.
    char last = s[pos_ - 1];
    bool prefixed =
        pos_ - start >= 2 && s[start] == '0' &&
        (s[start + 1] == 'x' || s[start + 1] == 'X' || s[start + 1] == 'f' || s[start + 1] == 'F' ||
         s[start + 1] == 'd' || s[start + 1] == 'D' || s[start + 1] == 'b' || s[start + 1] == 'B');
    if (!prefixed && (last == 'e' || last == 'E') && pos_ + 1 < n &&
        (s[pos_] == '+' || s[pos_] == '-') && has(s[pos_ + 1], kDigit)) {
      pos_ += 2;
      while (pos_ < n && has(s[pos_], kNumberChar)) {
        ++pos_;
      }
    }
    t.kind = TokenKind::Number;
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

  if (c == '"') {
    ++pos_;
    while (pos_ < n && s[pos_] != '"' && s[pos_] != '\n') {
      if (s[pos_] == '\\' && pos_ + 1 < n && s[pos_ + 1] != '\n') {
        ++pos_;
      }
      ++pos_;
    }
    if (pos_ >= n || s[pos_] != '"') {
      t.kind = TokenKind::Invalid;
      t.text = text_.substr(start, 1);
      t.error = "unterminated string literal";
      return t;
    }
    ++pos_;
    t.kind = TokenKind::String;
    t.text = text_.substr(start + 1, pos_ - start - 2);
    return t;
  }

  ++pos_;
  t.text = text_.substr(start, 1);
  switch (c) {
  case '{':
    t.kind = TokenKind::LBrace;
    break;
  case '}':
    t.kind = TokenKind::RBrace;
    break;
  case '(':
    t.kind = TokenKind::LParen;
    break;
  case ')':
    t.kind = TokenKind::RParen;
    break;
  case '[':
    t.kind = TokenKind::LBracket;
    break;
  case ']':
    t.kind = TokenKind::RBracket;
    break;
  case ',':
    t.kind = TokenKind::Comma;
    break;
  case ';':
    t.kind = TokenKind::Semicolon;
    break;
  case ':':
    t.kind = TokenKind::Colon;
    break;
  case '|':
    t.kind = TokenKind::Pipe;
    break;
  case '!':
    t.kind = TokenKind::Bang;
    break;
  case '@':
    t.kind = TokenKind::At;
    break;
  case '+':
    t.kind = TokenKind::Plus;
    break;
  case '-':
    t.kind = TokenKind::Minus;
    break;
  case '=':
    t.kind = TokenKind::Equals;
    break;
  case '<':
    t.kind = TokenKind::Less;
    break;
  case '>':
    t.kind = TokenKind::Greater;
    break;
  default:
    t.kind = TokenKind::Invalid;
    t.error = "unexpected character";
    break;
  }
  return t;
}

char Lexer::peek_char() const {
  size_t p = pos_;
  while (p < text_.size() && has(text_[p], kSpace)) {
    ++p;
  }
  return p < text_.size() ? text_[p] : '\0';
}

std::string_view Lexer::rest_of_line() {
  const size_t n = text_.size();
  size_t p = pos_;
  while (p < n && has(text_[p], kSpace)) {
    ++p;
  }
  size_t begin = p;
  while (p < n && text_[p] != '\n' &&
         !(text_[p] == '/' && p + 1 < n && (text_[p + 1] == '/' || text_[p + 1] == '*'))) {
    ++p;
  }
  size_t end = p;
  while (end > begin && has(text_[end - 1], kSpace)) {
    --end;
  }
  pos_ = p;
  return text_.substr(begin, end - begin);
}

std::string_view Lexer::raw_word() {
  const size_t n = text_.size();
  while (pos_ < n && has(text_[pos_], kSpace)) {
    ++pos_;
  }
  size_t begin = pos_;
  while (
      pos_ < n && !has(text_[pos_], kSpace) && text_[pos_] != '\n' && text_[pos_] != '{' &&
      text_[pos_] != ';' && text_[pos_] != '}' &&
      !(text_[pos_] == '/' && pos_ + 1 < n && (text_[pos_ + 1] == '/' || text_[pos_ + 1] == '*'))) {
    ++pos_;
  }
  return text_.substr(begin, pos_ - begin);
}

bool Lexer::raw_block(std::string_view& body, bool& unterminated, Token& open) {
  // Find the opening brace through ordinary trivia, without consuming anything else.
  Lexer probe = *this;
  Token brace = probe.next();
  if (brace.kind != TokenKind::LBrace) {
    return false;
  }
  *this = probe;
  open = brace;
  const size_t n = text_.size();
  const char* s = text_.data();
  const size_t begin = pos_;
  size_t depth = 1;
  unterminated = false;
  while (pos_ < n) {
    char c = s[pos_];
    if (c == '\n') {
      newline_at(pos_);
      ++pos_;
    } else if (c == '/' && pos_ + 1 < n && s[pos_ + 1] == '/') {
      while (pos_ < n && s[pos_] != '\n') {
        ++pos_;
      }
    } else if (c == '/' && pos_ + 1 < n && s[pos_ + 1] == '*') {
      pos_ += 2;
      while (pos_ < n && !(s[pos_] == '*' && pos_ + 1 < n && s[pos_ + 1] == '/')) {
        if (s[pos_] == '\n') {
          newline_at(pos_);
        }
        ++pos_;
      }
      pos_ = pos_ < n ? pos_ + 2 : n;
    } else if (c == '"') {
      ++pos_;
      while (pos_ < n && s[pos_] != '"' && s[pos_] != '\n') {
        pos_ += (s[pos_] == '\\' && pos_ + 1 < n && s[pos_ + 1] != '\n') ? 2 : 1;
      }
      if (pos_ < n && s[pos_] == '"') {
        ++pos_;
      }
    } else if (c == '{') {
      ++depth;
      ++pos_;
    } else if (c == '}') {
      if (--depth == 0) {
        body = text_.substr(begin, pos_ - begin);
        ++pos_;
        return true;
      }
      ++pos_;
    } else {
      ++pos_;
    }
  }
  unterminated = true;
  body = text_.substr(begin);
  return true;
}

} // namespace volta::ptx::detail
