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

// Single-byte tokens; every other byte that starts no token is Invalid.
constexpr std::array<TokenKind, 256> make_punctuation() {
  std::array<TokenKind, 256> t{};
  for (auto& k : t) {
    k = TokenKind::Invalid;
  }
  t['{'] = TokenKind::LBrace;
  t['}'] = TokenKind::RBrace;
  t['('] = TokenKind::LParen;
  t[')'] = TokenKind::RParen;
  t['['] = TokenKind::LBracket;
  t[']'] = TokenKind::RBracket;
  t[','] = TokenKind::Comma;
  t[';'] = TokenKind::Semicolon;
  t[':'] = TokenKind::Colon;
  t['|'] = TokenKind::Pipe;
  t['!'] = TokenKind::Bang;
  t['@'] = TokenKind::At;
  t['+'] = TokenKind::Plus;
  t['-'] = TokenKind::Minus;
  t['='] = TokenKind::Equals;
  t['<'] = TokenKind::Less;
  t['>'] = TokenKind::Greater;
  return t;
}

constexpr std::array<TokenKind, 256> kPunctuation = make_punctuation();

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

// The rare paths of next() live out of line so that the common one (spaces, a word, a
// punctuation mark) stays small: next() runs once per token of every file.
[[gnu::noinline]] bool Lexer::skip_block_comment(size_t& p, Token& t) {
  const size_t n = text_.size();
  const char* s = text_.data();
  const size_t start = p;
  const SourceLocation start_loc = location(start);
  p += 2;
  while (p < n) {
    const void* hit = std::memchr(s + p, '*', n - p);
    size_t star = hit == nullptr ? n : static_cast<size_t>(static_cast<const char*>(hit) - s);
    // Count the lines the comment spans up to the star.
    for (size_t i = p; i < star; ++i) {
      if (s[i] == '\n') {
        newline_at(i);
      }
    }
    if (star >= n) {
      break;
    }
    if (star + 1 < n && s[star + 1] == '/') {
      p = star + 2;
      return true;
    }
    p = star + 1;
  }
  p = n;
  t.kind = TokenKind::Invalid;
  t.loc = start_loc;
  t.offset = static_cast<uint32_t>(start);
  t.text = text_.substr(start, 2);
  t.error = "unterminated /* comment";
  return false;
}

[[gnu::noinline]] size_t Lexer::scan_number(size_t p) const {
  const size_t n = text_.size();
  const char* s = text_.data();
  const size_t start = p;
  ++p;
  while (p < n && has(s[p], kNumberChar)) {
    ++p;
  }
  // A decimal exponent with a sign (`1.5e-3`): the scan above stopped at the sign.
  const char last = s[p - 1];
  const bool prefixed =
      p - start >= 2 && s[start] == '0' &&
      (s[start + 1] == 'x' || s[start + 1] == 'X' || s[start + 1] == 'f' || s[start + 1] == 'F' ||
       s[start + 1] == 'd' || s[start + 1] == 'D' || s[start + 1] == 'b' || s[start + 1] == 'B');
  if (!prefixed && (last == 'e' || last == 'E') && p + 1 < n && (s[p] == '+' || s[p] == '-') &&
      has(s[p + 1], kDigit)) {
    p += 2;
    while (p < n && has(s[p], kNumberChar)) {
      ++p;
    }
  }
  return p;
}

[[gnu::noinline]] void Lexer::scan_string(size_t p, Token& t) {
  const size_t n = text_.size();
  const char* s = text_.data();
  const size_t start = p;
  ++p;
  while (p < n && s[p] != '"' && s[p] != '\n') {
    if (s[p] == '\\' && p + 1 < n && s[p + 1] != '\n') {
      ++p;
    }
    ++p;
  }
  if (p >= n || s[p] != '"') {
    pos_ = p;
    t.kind = TokenKind::Invalid;
    t.text = text_.substr(start, 1);
    t.error = "unterminated string literal";
    return;
  }
  ++p;
  pos_ = p;
  t.kind = TokenKind::String;
  t.text = text_.substr(start + 1, p - start - 2);
}

void Lexer::next(Token& t) {
  const size_t n = text_.size();
  const char* s = text_.data();
  // The position lives in a local while scanning (the member would be stored at every byte).
  size_t p = pos_;
  t.error = nullptr;
  for (;;) {
    while (p < n && has(s[p], kSpace)) {
      ++p;
    }
    if (p >= n) {
      break;
    }
    const char c = s[p];
    if (c == '\n') {
      newline_at(p);
      ++p;
      continue;
    }
    if (c != '/' || p + 1 >= n) {
      break;
    }
    if (s[p + 1] == '/') {
      const void* nl = std::memchr(s + p, '\n', n - p);
      p = nl == nullptr ? n : static_cast<size_t>(static_cast<const char*>(nl) - s);
      continue;
    }
    if (s[p + 1] != '*') {
      break;
    }
    if (!skip_block_comment(p, t)) {
      pos_ = p;
      return;
    }
  }

  t.offset = static_cast<uint32_t>(p);
  t.loc = location(p);
  if (p >= n) {
    pos_ = p;
    t.kind = TokenKind::End;
    t.text = {};
    return;
  }
  const size_t start = p;
  const char c = s[p];
  const uint8_t cls = kClasses[static_cast<unsigned char>(c)];

  if (cls & kIdentStart) {
    ++p;
    for (;;) {
      while (p < n && has(s[p], kIdentChar)) {
        ++p;
      }
      // `.word` and `::word` continue the identifier only when a word follows at once.
      if (p + 1 < n && s[p] == '.' && has(s[p + 1], kIdentChar)) {
        p += 2;
        continue;
      }
      if (p + 2 < n && s[p] == ':' && s[p + 1] == ':' && has(s[p + 2], kIdentChar)) {
        p += 3;
        continue;
      }
      break;
    }
    t.kind = TokenKind::Ident;
  } else if (c == '.' && p + 1 < n && has(s[p + 1], kIdentChar)) {
    p += 2;
    for (;;) {
      while (p < n && has(s[p], kIdentChar)) {
        ++p;
      }
      if (p + 2 < n && s[p] == ':' && s[p + 1] == ':' && has(s[p + 2], kIdentChar)) {
        p += 3;
        continue;
      }
      break;
    }
    t.kind = TokenKind::Directive;
  } else if (cls & kDigit) {
    p = scan_number(p);
    t.kind = TokenKind::Number;
  } else if (c == '"') {
    scan_string(p, t);
    return;
  } else {
    ++p;
    t.kind = kPunctuation[static_cast<unsigned char>(c)];
    if (t.kind == TokenKind::Invalid) {
      t.error = "unexpected character";
    }
  }
  pos_ = p;
  t.text = std::string_view(s + start, p - start);
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
