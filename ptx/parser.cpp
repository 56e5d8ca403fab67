// The PTX parser: a recursive-descent reader over the lexer's tokens (see parser.hpp).
//
// Shape of the code: one method per construct, each starting on its first token and leaving
// the parser on the token after it. A method that fails reports one diagnostic and returns
// false; its caller then skips to the end of the statement (or of the top-level construct)
// and goes on, so that one run reports several independent errors, up to kMaxErrors.
// Nothing recurses on the input's nesting: scopes in bodies are a counter, initializer braces
// an explicit stack, so hostile input cannot exhaust the stack.
#include "ptx/parser.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

#include "ptx/lexer.hpp"
#include "ptx/number.hpp"
#include "ptx/validate.hpp"

namespace volta::ptx {

namespace {

using detail::Lexer;
using detail::NumberValue;
using detail::Token;
using detail::TokenKind;

constexpr int kMaxErrors = 20;
constexpr size_t kMaxInitializerNesting = 64;
// Call sequences nest one level; deeper nesting is refused rather than stored without bound.
constexpr size_t kMaxScopeDepth = 1024;
// Statements reserved up front for one body; longer bodies grow the vector as usual.
constexpr size_t kMaxBodyReserve = size_t{1} << 16;
// Diagnostics quote at most this many bytes of the offending line, around the column.
constexpr size_t kSourceWindowBefore = 100;
constexpr size_t kSourceWindowLength = 200;

// ---------------------------------------------------------------------------------------------
// Fast lookup of suffix and opcode spellings: a fixed open-addressing table built once from
// the spelling functions of ast.hpp, so that the parser and the AST never disagree.
// ---------------------------------------------------------------------------------------------

template <class Value, size_t Slots>
class StaticMap {
public:
  void insert(std::string_view key, Value value) {
    size_t i = hash(key) & (Slots - 1);
    while (!keys_[i].empty()) {
      if (keys_[i] == key) {
        values_[i] = value;
        return;
      }
      i = (i + 1) & (Slots - 1);
    }
    keys_[i] = key;
    values_[i] = value;
  }
  const Value* find(std::string_view key) const {
    if (key.empty() || key.size() > kMaxKey) {
      return nullptr;
    }
    size_t i = hash(key) & (Slots - 1);
    while (!keys_[i].empty()) {
      if (keys_[i] == key) {
        return &values_[i];
      }
      i = (i + 1) & (Slots - 1);
    }
    return nullptr;
  }

private:
  static constexpr size_t kMaxKey = 32;
  static size_t hash(std::string_view s) {
    uint32_t h = 2166136261u;
    for (char c : s) {
      h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    }
    return h ^ (h >> 15);
  }
  std::array<std::string_view, Slots> keys_{};
  std::array<Value, Slots> values_{};
};

// What one dotless word can mean; -1 where it means nothing of that kind.
struct WordInfo {
  int8_t type = -1;
  int8_t space = -1;
  int8_t modifier = -1;
  int8_t cmp = -1;
  int8_t bool_op = -1;
  uint8_t vector = 0;
};

// Every opcode of the PTX ISA (up to 9.x), sorted. A word outside it is not PTX (a typo, or an
// instruction of a newer ISA): it is refused where it is written, rather than parsed and left
// to fail as UNSUPPORTED when the kernel runs.
constexpr std::array kPtxOpcodes = {
    "abs",          "activemask",    "add",       "addc",       "alloca",
    "and",          "applypriority", "atom",      "bar",        "barrier",
    "bfe",          "bfi",           "bfind",     "bmsk",       "bra",
    "brev",         "brkpt",         "brx",       "call",       "clusterlaunchcontrol",
    "clz",          "cnot",          "copysign",  "cos",        "cp",
    "createpolicy", "cvt",           "cvta",      "discard",    "div",
    "dp2a",         "dp4a",          "elect",     "ex2",        "exit",
    "fence",        "fma",           "fns",       "getctarank", "griddepcontrol",
    "isspacep",     "istypep",       "ld",        "ldmatrix",   "ldu",
    "lg2",          "lop3",          "mad",       "mad24",      "madc",
    "mapa",         "match",         "max",       "mbarrier",   "membar",
    "min",          "mma",           "mov",       "movmatrix",  "mul",
    "mul24",        "multimem",      "nanosleep", "neg",        "not",
    "or",           "pmevent",       "popc",      "prefetch",   "prefetchu",
    "prmt",         "rcp",           "red",       "redux",      "rem",
    "ret",          "rsqrt",         "sad",       "selp",       "set",
    "setmaxnreg",   "setp",          "shf",       "shfl",       "shl",
    "shr",          "sin",           "slct",      "sqrt",       "st",
    "stackrestore", "stacksave",     "stmatrix",  "sub",        "subc",
    "suld",         "suq",           "sured",     "sust",       "szext",
    "tanh",         "tcgen05",       "tensormap", "testp",      "tex",
    "tld4",         "trap",          "txq",       "vabsdiff",   "vabsdiff2",
    "vabsdiff4",    "vadd",          "vadd2",     "vadd4",      "vavrg2",
    "vavrg4",       "vmad",          "vmax",      "vmax2",      "vmax4",
    "vmin",         "vmin2",         "vmin4",     "vote",       "vset",
    "vset2",        "vset4",         "vshl",      "vshr",       "vsub",
    "vsub2",        "vsub4",         "wgmma",     "wmma",       "xor",
};

bool is_ptx_opcode(std::string_view name) {
  return std::binary_search(kPtxOpcodes.begin(), kPtxOpcodes.end(), name);
}

// Every opcode with an enumerator (opcodes.def) is an opcode of PTX: its word before the first
// dot ("cp" of "cp.async") is in kPtxOpcodes, which is sorted (binary_search above).
constexpr bool every_enumerated_opcode_is_ptx() {
  for (size_t i = 1; i < kPtxOpcodes.size(); ++i) {
    if (!(std::string_view(kPtxOpcodes[i - 1]) < std::string_view(kPtxOpcodes[i]))) {
      return false;
    }
  }
  for (std::string_view spelling : {
#define PTX_OPCODE(name, spelling, form) std::string_view(spelling),
#include "ptx/opcodes.def"
#undef PTX_OPCODE
       }) {
    const std::string_view word = spelling.substr(0, spelling.find('.'));
    if (std::find(kPtxOpcodes.begin(), kPtxOpcodes.end(), word) == kPtxOpcodes.end()) {
      return false;
    }
  }
  return true;
}
static_assert(every_enumerated_opcode_is_ptx(),
              "kPtxOpcodes is not sorted, or an opcodes.def row is not an opcode of PTX");

// The newest PTX ISA and target this parser knows; newer ones get a warning (they may use
// instructions it refuses).
constexpr uint32_t kNewestVersionMajor = 9;
constexpr uint32_t kNewestVersionMinor = 3;
constexpr uint32_t kNewestSm = 121;

struct Tables {
  StaticMap<WordInfo, 256> words;
  StaticMap<Opcode, 256> opcodes;
  StaticMap<uint8_t, 32> performance; // known performance-tuning directives (dotless)

  Tables() {
    auto entry = [&](std::string_view w) -> WordInfo {
      const WordInfo* existing = words.find(w);
      return existing ? *existing : WordInfo{};
    };
    for (int t = 1; t <= static_cast<int>(ScalarType::E5M2x2); ++t) {
      std::string_view w = spelling(static_cast<ScalarType>(t));
      WordInfo info = entry(w);
      info.type = static_cast<int8_t>(t);
      words.insert(w, info);
    }
    for (int s = 1; s <= static_cast<int>(StateSpace::Generic); ++s) {
      std::string_view w = spelling(static_cast<StateSpace>(s));
      WordInfo info = entry(w);
      info.space = static_cast<int8_t>(s);
      words.insert(w, info);
    }
    for (int m = 0; m < static_cast<int>(Modifier::Count_); ++m) {
      std::string_view w = spelling(static_cast<Modifier>(m));
      WordInfo info = entry(w);
      info.modifier = static_cast<int8_t>(m);
      words.insert(w, info);
    }
    static constexpr std::array<const char*, 18> kCmp = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                                         "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                                         "ltu", "leu", "gtu", "geu", "num", "nan"};
    for (size_t c = 0; c < kCmp.size(); ++c) {
      WordInfo info = entry(kCmp[c]);
      info.cmp = static_cast<int8_t>(c + 1); // CmpOp::Eq is 1
      words.insert(kCmp[c], info);
    }
    static constexpr std::array<const char*, 3> kBool = {"and", "or", "xor"};
    for (size_t b = 0; b < kBool.size(); ++b) {
      WordInfo info = entry(kBool[b]);
      info.bool_op = static_cast<int8_t>(b + 1); // BoolOp::And is 1
      words.insert(kBool[b], info);
    }
    for (uint8_t v : {2, 4, 8}) {
      static constexpr std::array<const char*, 9> kVec = {"", "", "v2", "", "v4", "", "", "", "v8"};
      WordInfo info = entry(kVec[v]);
      info.vector = v;
      words.insert(kVec[v], info);
    }
    for (size_t o = 1; o < kOpcodeCount; ++o) {
      opcodes.insert(spelling(static_cast<Opcode>(o)), static_cast<Opcode>(o));
    }
    for (const char* d : {"maxntid", "reqntid", "minnctapersm", "maxnctapersm", "maxnreg",
                          "noreturn", "explicitcluster", "reqnctapercluster", "maxclusterrank",
                          "blocksareclusters", "abi_preserve", "abi_preserve_control"}) {
      performance.insert(d, 1);
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

std::optional<StateSpace> space_of_directive(std::string_view directive) {
  if (directive.size() < 2 || directive[0] != '.') {
    return std::nullopt;
  }
  const WordInfo* info = tables().words.find(directive.substr(1));
  if (info == nullptr || info->space < 0) {
    return std::nullopt;
  }
  return static_cast<StateSpace>(info->space);
}

std::optional<Linkage> linkage_of(std::string_view directive) {
  if (directive == ".visible") {
    return Linkage::Visible;
  }
  if (directive == ".extern") {
    return Linkage::Extern;
  }
  if (directive == ".weak") {
    return Linkage::Weak;
  }
  if (directive == ".common") {
    return Linkage::Common;
  }
  return std::nullopt;
}

// A token's text for a message: short, and with unprintable bytes escaped.
std::string quote(std::string_view text) {
  constexpr size_t kMax = 48;
  std::string out = "'";
  size_t shown = std::min(text.size(), kMax);
  for (size_t i = 0; i < shown; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\') {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shown < text.size()) {
    out += "...";
  }
  out += "'";
  return out;
}

std::string describe(const Token& t) {
  switch (t.kind) {
  case TokenKind::End:
    return "end of input";
  case TokenKind::String:
    return "string literal";
  default:
    return quote(t.text);
  }
}

bool valid_declared_name(std::string_view name) {
  return name.find('.') == std::string_view::npos && name.find(':') == std::string_view::npos &&
         name != "_";
}

// ---------------------------------------------------------------------------------------------
// The parser
// ---------------------------------------------------------------------------------------------

class Parser {
public:
  Parser(std::string_view text, std::string path) : text_(text), lex_(text) {
    module_.path = std::move(path);
  }

  ParseResult run() {
    ParseResult result;
    if (text_.size() >= std::numeric_limits<uint32_t>::max()) {
      report(Severity::Error, {0, 0}, 0, "file too large (4 GiB or more)");
      result.diagnostics = std::move(diagnostics_);
      return result;
    }
    advance();
    while (!at(TokenKind::End)) {
      parse_top_level();
    }
    if (!seen_version_ && !complained_version_) {
      report(Severity::Error, {1, 1}, 0,
             "expected '.version' directive at the start of the module");
    }
    result.diagnostics = std::move(diagnostics_);
    if (errors_ == 0) {
      result.module = std::move(module_);
    }
    return result;
  }

private:
  // --- tokens --------------------------------------------------------------------------------

  void advance() {
    if (stopped_) {
      cur_.kind = TokenKind::End;
      return;
    }
    lex_.next(cur_);
  }
  bool at(TokenKind k) const { return cur_.kind == k; }
  bool at_directive(std::string_view d) const {
    return cur_.kind == TokenKind::Directive && cur_.text == d;
  }
  bool accept(TokenKind k) {
    if (at(k)) {
      advance();
      return true;
    }
    return false;
  }
  bool expect(TokenKind k, const char* what) {
    if (accept(k)) {
      return true;
    }
    return fail_expected(what);
  }

  // --- diagnostics ---------------------------------------------------------------------------

  void report(Severity severity, SourceLocation where, size_t offset, std::string message) {
    if (stopped_) {
      return;
    }
    Diagnostic d;
    d.severity = severity;
    d.file = module_.path;
    d.where = where;
    d.message = std::move(message);
    if (where.line > 0 && where.column > 0 && offset <= text_.size() &&
        where.column - 1 <= offset) {
      const size_t line_start = offset - (where.column - 1);
      const size_t col0 = where.column - 1;
      size_t from =
          col0 > kSourceWindowBefore ? line_start + col0 - kSourceWindowBefore : line_start;
      size_t limit = std::min(text_.size(), from + kSourceWindowLength);
      const void* nl = std::memchr(text_.data() + from, '\n', limit - from);
      size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) : limit;
      if (end > from && text_[end - 1] == '\r') {
        --end;
      }
      d.source_line.assign(text_.substr(from, end - from));
      d.source_line_start_column = static_cast<uint32_t>(from - line_start + 1);
    }
    diagnostics_.push_back(std::move(d));
    if (severity == Severity::Error && ++errors_ >= kMaxErrors) {
      Diagnostic note;
      note.severity = Severity::Note;
      note.file = module_.path;
      note.message = "too many errors; stopping here";
      diagnostics_.push_back(std::move(note));
      stopped_ = true;
      cur_.kind = TokenKind::End;
    }
  }

  // Gives up on the rest of the input (after a diagnostic), for input no compiler produces.
  void stop() {
    stopped_ = true;
    cur_.kind = TokenKind::End;
  }

  bool fail(const Token& t, std::string message) {
    report(Severity::Error, t.loc, t.offset, std::move(message));
    return false;
  }
  bool fail(std::string message) { return fail(cur_, std::move(message)); }

  // An Invalid token explains itself; anything else is "expected X, found Y".
  bool fail_expected(std::string_view what) {
    if (at(TokenKind::Invalid)) {
      return fail_lexical();
    }
    return fail("expected " + std::string(what) + ", found " + describe(cur_));
  }
  bool fail_lexical() {
    if (cur_.error != nullptr && std::strcmp(cur_.error, "unexpected character") == 0) {
      return fail("unexpected character " + quote(cur_.text));
    }
    return fail(cur_.error != nullptr ? cur_.error : "invalid token");
  }

  // --- recovery ------------------------------------------------------------------------------

  // Top level: skip to the `;` that ends a declaration, or past the `}` that ends a body.
  void sync_top_level() {
    size_t depth = 0;
    while (!at(TokenKind::End)) {
      if (at(TokenKind::LBrace)) {
        ++depth;
      } else if (at(TokenKind::RBrace)) {
        if (depth <= 1) {
          advance();
          return;
        }
        --depth;
      } else if (at(TokenKind::Semicolon) && depth == 0) {
        advance();
        return;
      }
      advance();
    }
  }

  // After a directive that ends with its line (`.version`, `.loc`): skip what is left of it.
  void sync_line(uint32_t line) {
    while (!at(TokenKind::End) && cur_.loc.line == line) {
      advance();
    }
  }

  // In a body: skip past the next `;`, or up to a `}` (which the body loop then sees).
  void sync_statement() {
    while (!at(TokenKind::End) && !at(TokenKind::RBrace)) {
      if (accept(TokenKind::Semicolon)) {
        return;
      }
      advance();
    }
  }

  // --- numbers -------------------------------------------------------------------------------

  // An unsigned integer literal (sizes, counts, indices) that fits in `max`.
  bool read_unsigned(uint64_t& out, const char* what, uint64_t max) {
    if (!at(TokenKind::Number)) {
      return fail_expected(what);
    }
    NumberValue v = detail::read_number(cur_.text);
    if (v.kind == NumberValue::Bad) {
      return fail(v.error);
    }
    if (v.kind != NumberValue::Int) {
      return fail(std::string("expected ") + what + ", found " + describe(cur_));
    }
    if (v.bits > max) {
      return fail(std::string(what) + " " + quote(cur_.text) + " is too large");
    }
    out = v.bits;
    advance();
    return true;
  }
  bool read_u32(uint32_t& out, const char* what) {
    uint64_t v = 0;
    if (!read_unsigned(v, what, std::numeric_limits<uint32_t>::max())) {
      return false;
    }
    out = static_cast<uint32_t>(v);
    return true;
  }

  // An optionally negated numeric literal at the current token.
  bool read_signed_number(NumberValue& out) {
    bool negative = accept(TokenKind::Minus);
    if (!at(TokenKind::Number)) {
      return fail_expected("a number");
    }
    out = detail::read_number(cur_.text);
    if (out.kind == NumberValue::Bad) {
      return fail(out.error);
    }
    if (negative) {
      detail::negate(out);
    }
    advance();
    return true;
  }

  // `+12`, `+-4`, `-4` after a base name (address operands, initializers).
  bool read_offset(int64_t& offset) {
    bool negative = false;
    if (accept(TokenKind::Plus)) {
      negative = accept(TokenKind::Minus);
    } else if (accept(TokenKind::Minus)) {
      negative = true;
    } else {
      offset = 0;
      return true;
    }
    if (!at(TokenKind::Number)) {
      return fail_expected("an integer offset");
    }
    NumberValue v = detail::read_number(cur_.text);
    if (v.kind == NumberValue::Bad) {
      return fail(v.error);
    }
    if (v.kind != NumberValue::Int) {
      return fail("expected an integer offset, found " + describe(cur_));
    }
    if (negative) {
      detail::negate(v);
    }
    offset = static_cast<int64_t>(v.bits);
    advance();
    return true;
  }

  // --- top level -----------------------------------------------------------------------------

  void parse_top_level() {
    if (!seen_version_ && !at_directive(".version") && !complained_version_) {
      complained_version_ = true;
      fail("expected '.version' directive at the start of the module, found " + describe(cur_));
    }
    bool ok = true;
    switch (cur_.kind) {
    case TokenKind::Directive: {
      std::string_view d = cur_.text;
      // Directives that end with their line (no ';'): recovery skips the rest of the line.
      const uint32_t line = cur_.loc.line;
      bool line_ok = true;
      if (d == ".version") {
        line_ok = parse_version();
      } else if (d == ".target") {
        line_ok = parse_target();
      } else if (d == ".address_size") {
        line_ok = parse_address_size();
      } else if (d == ".file") {
        line_ok = parse_file();
      } else if (d == ".section") {
        ok = parse_section();
      } else if (d == ".pragma") {
        Pragma p;
        ok = parse_pragma(p);
        if (ok) {
          module_.items.emplace_back(std::move(p));
        }
      } else if (d == ".entry" || d == ".func" || linkage_of(d) || space_of_directive(d)) {
        ok = parse_declaration_or_function();
      } else if (d == ".alias") {
        UnmodeledDirective u;
        ok = parse_unmodeled(u);
        if (ok) {
          module_.items.emplace_back(std::move(u));
        }
      } else if (d == ".loc") {
        ok = fail("'.loc' outside a function");
      } else {
        ok = fail("unknown or unsupported directive " + quote(d) + " at module scope");
      }
      if (!line_ok) {
        sync_line(line);
      }
      break;
    }
    case TokenKind::Invalid:
      fail_lexical();
      advance();
      return;
    default:
      ok = fail("expected a directive, found " + describe(cur_));
      break;
    }
    if (!ok) {
      sync_top_level();
    }
  }

  bool parse_version() {
    Token start = cur_;
    advance();
    if (seen_version_) {
      return fail(start, "duplicate '.version' directive");
    }
    seen_version_ = true;
    if (!at(TokenKind::Number)) {
      return fail_expected("a version number such as 8.0");
    }
    std::string_view v = cur_.text;
    size_t dot = v.find('.');
    uint64_t major = 0;
    uint64_t minor = 0;
    if (dot == std::string_view::npos || !read_plain_decimal(v.substr(0, dot), major) ||
        !read_plain_decimal(v.substr(dot + 1), minor)) {
      return fail("invalid version number " + quote(v) + " (expected MAJOR.MINOR)");
    }
    module_.version_major = static_cast<uint32_t>(major);
    module_.version_minor = static_cast<uint32_t>(minor);
    if (major > kNewestVersionMajor ||
        (major == kNewestVersionMajor && minor > kNewestVersionMinor)) {
      report(Severity::Warning, cur_.loc, cur_.offset,
             "PTX ISA " + std::string(v) + " is newer than the newest this tool knows (" +
                 std::to_string(kNewestVersionMajor) + "." + std::to_string(kNewestVersionMinor) +
                 "): instructions added since are refused");
    }
    advance();
    return true;
  }

  static bool read_plain_decimal(std::string_view s, uint64_t& out) {
    if (s.empty() || s.size() > 9) {
      return false;
    }
    out = 0;
    for (char c : s) {
      if (c < '0' || c > '9') {
        return false;
      }
      out = out * 10 + static_cast<uint64_t>(c - '0');
    }
    return true;
  }

  bool parse_target() {
    advance();
    module_.targets.clear();
    for (;;) {
      if (!at(TokenKind::Ident)) {
        return fail_expected("a target name such as sm_80");
      }
      module_.targets.emplace_back(cur_.text);
      warn_if_newer_target();
      advance();
      if (!accept(TokenKind::Comma)) {
        return true;
      }
    }
  }

  // sm_NNN (with an optional a/f suffix) above the newest known architecture.
  void warn_if_newer_target() {
    const std::string_view t = cur_.text;
    if (t.substr(0, 3) != "sm_")
      return;
    uint32_t number = 0;
    size_t i = 3;
    for (; i < t.size() && i < 8 && t[i] >= '0' && t[i] <= '9'; ++i)
      number = number * 10 + static_cast<uint32_t>(t[i] - '0');
    if (i > 3 && number > kNewestSm) {
      report(Severity::Warning, cur_.loc, cur_.offset,
             "target " + quote(t) + " is newer than the newest this tool knows (sm_" +
                 std::to_string(kNewestSm) + ")");
    }
  }

  bool parse_address_size() {
    advance();
    uint32_t size = 0;
    Token number = cur_;
    if (!read_u32(size, "an address size")) {
      return false;
    }
    if (size != 32 && size != 64) {
      return fail(number, "address size must be 32 or 64");
    }
    module_.address_size = size;
    return true;
  }

  bool parse_file() {
    advance();
    FileDirective f;
    if (!read_u32(f.index, "a file index")) {
      return false;
    }
    if (!at(TokenKind::String)) {
      return fail_expected("a file name string");
    }
    f.path.assign(cur_.text);
    advance();
    if (accept(TokenKind::Comma)) {
      uint64_t v = 0;
      if (!read_unsigned(v, "a timestamp", std::numeric_limits<uint64_t>::max())) {
        return false;
      }
      f.timestamp = v;
      if (accept(TokenKind::Comma)) {
        if (!read_unsigned(v, "a file size", std::numeric_limits<uint64_t>::max())) {
          return false;
        }
        f.size = v;
      }
    }
    module_.items.emplace_back(std::move(f));
    return true;
  }

  // `.section .debug_xxx { ... }`: kept verbatim, never interpreted.
  bool parse_section() {
    Token start = cur_;
    DebugSection section;
    section.loc = start.loc;
    section.name.assign(lex_.raw_word());
    if (section.name.empty()) {
      advance();
      return fail_expected("a section name");
    }
    std::string_view body;
    bool unterminated = false;
    Token open;
    if (!lex_.raw_block(body, unterminated, open)) {
      advance();
      return fail_expected("'{' after the section name");
    }
    if (unterminated) {
      advance();
      report(Severity::Error, open.loc, open.offset,
             "unterminated section body: expected '}' before the end of input");
      return true; // already at the end: nothing to skip
    }
    section.body.assign(body);
    module_.debug_sections.push_back(std::move(section));
    advance();
    return true;
  }

  bool parse_pragma(Pragma& p) {
    p.loc = cur_.loc;
    advance();
    if (!at(TokenKind::String)) {
      return fail_expected("a pragma string");
    }
    p.text.assign(cur_.text);
    advance();
    // `.pragma "a", "b";` keeps its list as `a", "b` so that printing restores it.
    while (accept(TokenKind::Comma)) {
      if (!at(TokenKind::String)) {
        return fail_expected("a pragma string");
      }
      p.text += "\", \"";
      p.text.append(cur_.text);
      advance();
    }
    return expect(TokenKind::Semicolon, "';' after the pragma");
  }

  // --- declarations --------------------------------------------------------------------------

  bool parse_declaration_or_function() {
    Token start = cur_;
    Linkage linkage = Linkage::None;
    if (auto l = linkage_of(cur_.text)) {
      linkage = *l;
      advance();
    }
    if (at_directive(".entry") || at_directive(".func")) {
      return parse_function(linkage, start);
    }
    if (at(TokenKind::Directive) && space_of_directive(cur_.text)) {
      std::vector<VariableDecl> decls;
      if (!parse_variable_decls(linkage, start, decls)) {
        return false;
      }
      for (VariableDecl& d : decls) {
        module_.items.emplace_back(std::move(d));
      }
      return true;
    }
    return fail_expected("'.entry', '.func' or a state space");
  }

  // The attributes between the state space and the name: `.align 16 .v4 .f32`,
  // `.u64 .ptr .global .align 16`. The state space has been read into `d.space`.
  bool parse_decl_attributes(VariableDecl& d) {
    bool after_ptr = false;
    while (at(TokenKind::Directive)) {
      std::string_view w = cur_.text.substr(1);
      if (w == "align") {
        advance();
        uint32_t a = 0;
        if (!read_u32(a, "an alignment")) {
          return false;
        }
        (after_ptr ? d.ptr_align : d.align) = a;
        continue;
      }
      if (w == "ptr") {
        d.is_ptr = true;
        after_ptr = true;
        advance();
        continue;
      }
      const WordInfo* info = tables().words.find(w);
      if (const OpaqueType opaque = opaque_type_of(w); opaque != OpaqueType::None) {
        if (d.type != ScalarType::None || d.opaque != OpaqueType::None) {
          return fail("a declaration has one type; found a second one, " + quote(cur_.text));
        }
        d.opaque = opaque;
      } else if (info != nullptr && info->vector != 0) {
        d.vector_width = info->vector;
      } else if (info != nullptr && info->type >= 0) {
        if (d.type != ScalarType::None || d.opaque != OpaqueType::None) {
          return fail("a declaration has one type; found a second one, " + quote(cur_.text));
        }
        d.type = static_cast<ScalarType>(info->type);
      } else if (info != nullptr && info->space >= 0 && after_ptr) {
        d.ptr_space = static_cast<StateSpace>(info->space);
      } else {
        return fail("unexpected " + quote(cur_.text) + " in a declaration");
      }
      advance();
    }
    if (d.type == ScalarType::None && d.opaque == OpaqueType::None) {
      return fail_expected("a type such as .b32");
    }
    return true;
  }

  static OpaqueType opaque_type_of(std::string_view dotless) {
    if (dotless == "texref") {
      return OpaqueType::Texref;
    }
    if (dotless == "samplerref") {
      return OpaqueType::Samplerref;
    }
    if (dotless == "surfref") {
      return OpaqueType::Surfref;
    }
    return OpaqueType::None;
  }

  // A directive kept verbatim up to its `;` (see UnmodeledDirective).
  bool parse_unmodeled(UnmodeledDirective& d) {
    d.loc = cur_.loc;
    const size_t start = cur_.offset;
    while (!at(TokenKind::Semicolon)) {
      if (at(TokenKind::End) || at(TokenKind::LBrace) || at(TokenKind::RBrace)) {
        return fail_expected("';' to end the directive");
      }
      if (at(TokenKind::Invalid)) {
        return fail_lexical();
      }
      advance();
    }
    std::string_view text = text_.substr(start, cur_.offset - start);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                             text.back() == '\r')) {
      text.remove_suffix(1);
    }
    d.text.assign(text);
    advance(); // ';'
    return true;
  }

  // `name`, `name[4][8]`, `name[]`.
  bool parse_decl_name(VariableDecl& d) {
    if (!at(TokenKind::Ident)) {
      return fail_expected("a name");
    }
    if (!valid_declared_name(cur_.text)) {
      return fail("invalid name " + quote(cur_.text));
    }
    d.loc = d.loc.line == 0 ? cur_.loc : d.loc;
    d.name.assign(cur_.text);
    advance();
    while (accept(TokenKind::LBracket)) {
      if (accept(TokenKind::RBracket)) {
        d.dims.emplace_back(std::nullopt);
        continue;
      }
      uint64_t extent = 0;
      if (!read_unsigned(extent, "an array size", std::numeric_limits<uint64_t>::max())) {
        return false;
      }
      d.dims.emplace_back(extent);
      if (!expect(TokenKind::RBracket, "']'")) {
        return false;
      }
    }
    return true;
  }

  // `[linkage] space attributes name[dims] [= init] {, name[dims] [= init]} ;`
  bool parse_variable_decls(Linkage linkage, const Token& start, std::vector<VariableDecl>& out) {
    VariableDecl proto;
    proto.linkage = linkage;
    proto.loc = start.loc;
    proto.space = *space_of_directive(cur_.text);
    if (proto.space == StateSpace::Reg || proto.space == StateSpace::Sreg ||
        proto.space == StateSpace::Generic) {
      return fail(quote(cur_.text) + " is not a state space for variables here");
    }
    advance();
    if (at_directive(".attribute")) { // `.attribute(.managed)`, the only attribute of PTX
      advance();
      if (!expect(TokenKind::LParen, "'(' after '.attribute'")) {
        return false;
      }
      if (!at_directive(".managed")) {
        return fail_expected("'.managed'");
      }
      advance();
      if (!expect(TokenKind::RParen, "')' after '.attribute(.managed'")) {
        return false;
      }
      proto.managed = true;
    }
    if (!parse_decl_attributes(proto)) {
      return false;
    }
    for (;;) {
      VariableDecl d = proto;
      if (!parse_decl_name(d)) {
        return false;
      }
      if (accept(TokenKind::Equals)) {
        d.has_init = true;
        if (!parse_initializer(d)) {
          return false;
        }
      }
      out.push_back(std::move(d));
      if (!accept(TokenKind::Comma)) {
        break;
      }
    }
    return expect(TokenKind::Semicolon, "';' after the declaration");
  }

  // One element: `5`, `-1`, `0f3F800000`, `1.5`, `sym`, `sym+8`, `generic(sym)+8`.
  bool parse_init_element(std::vector<Initializer>& out) {
    Initializer e;
    if (at(TokenKind::Ident)) {
      if (cur_.text == "generic" && lex_.peek_char() == '(') {
        advance();
        advance(); // '('
        if (!at(TokenKind::Ident)) {
          return fail_expected("a symbol inside generic()");
        }
        e.generic = true;
        e.value = std::string(cur_.text);
        advance();
        if (!expect(TokenKind::RParen, "')'")) {
          return false;
        }
      } else {
        e.value = std::string(cur_.text);
        advance();
      }
      if (!read_offset(e.offset)) {
        return false;
      }
      out.push_back(std::move(e));
      return true;
    }
    NumberValue v;
    if (!read_signed_number(v)) {
      return false;
    }
    if (v.kind == NumberValue::Int) {
      e.value = IntImmediate{static_cast<int64_t>(v.bits), v.is_unsigned};
    } else {
      e.value = FloatImmediate{v.bits, v.width};
    }
    out.push_back(std::move(e));
    return true;
  }

  // `= value` or `= {...}` with nested braces for arrays of arrays (or of vectors). The tree
  // keeps the elements flat, so an inner list must be complete (it then has exactly one
  // meaning); the outermost list may be shorter than the array, as PTX zero-fills the rest.
  bool parse_initializer(VariableDecl& d) {
    if (!at(TokenKind::LBrace)) {
      return parse_init_element(d.init);
    }
    // Flattened element count each nesting level must hold (0: unknown / too large).
    std::vector<uint64_t> extents;
    for (const auto& e : d.dims) {
      extents.push_back(e.value_or(0));
    }
    if (d.vector_width > 1) {
      extents.push_back(d.vector_width);
    }
    if (extents.empty()) {
      extents.push_back(1);
    }
    const size_t levels = std::min(extents.size(), kMaxInitializerNesting);
    std::vector<uint64_t> inner(levels, 0); // product of extents[k..]
    uint64_t product = 1;
    bool known = true;
    for (size_t k = extents.size(); k-- > 0;) {
      if (extents[k] == 0 || __builtin_mul_overflow(product, extents[k], &product)) {
        known = false;
      }
      if (k < levels) {
        inner[k] = known ? product : 0;
      }
    }

    std::vector<size_t> open; // init.size() when each open list began
    std::vector<Token> open_tokens;
    for (;;) {
      if (at(TokenKind::LBrace)) {
        if (open.size() >= levels) {
          return fail("initializer braces nested deeper than the declaration's dimensions");
        }
        open.push_back(d.init.size());
        open_tokens.push_back(cur_);
        advance();
        if (!at(TokenKind::RBrace)) {
          continue; // the first element (or list)
        }
      } else if (!parse_init_element(d.init)) {
        return false;
      }
      // After an element or a list: close as many lists as end here.
      for (;;) {
        if (at(TokenKind::RBrace)) {
          size_t level = open.size() - 1;
          uint64_t count = d.init.size() - open.back();
          if (level > 0 && inner[level] != 0 && count != inner[level]) {
            return fail(open_tokens.back(), "inner initializer list has " + std::to_string(count) +
                                                " elements; expected exactly " +
                                                std::to_string(inner[level]));
          }
          if (level == 0 && inner[0] != 0 && count > inner[0]) {
            return fail(open_tokens.back(), "too many initializers (" + std::to_string(count) +
                                                " for " + std::to_string(inner[0]) + " elements)");
          }
          open.pop_back();
          open_tokens.pop_back();
          advance();
          if (open.empty()) {
            return true;
          }
          continue;
        }
        if (accept(TokenKind::Comma)) {
          break;
        }
        return fail_expected("',' or '}' in the initializer");
      }
    }
  }

  // `.reg [.vN] .type %r<18>, %p, %q;`
  bool parse_register_decls(std::vector<Statement>& body) {
    advance();
    RegisterDecl proto;
    while (at(TokenKind::Directive)) {
      const WordInfo* info = tables().words.find(cur_.text.substr(1));
      if (info != nullptr && info->vector != 0) {
        proto.vector_width = info->vector;
      } else if (info != nullptr && info->type >= 0 && proto.type == ScalarType::None) {
        proto.type = static_cast<ScalarType>(info->type);
      } else {
        return fail("unexpected " + quote(cur_.text) + " in a register declaration");
      }
      advance();
    }
    if (proto.type == ScalarType::None) {
      return fail_expected("a register type such as .b32");
    }
    for (;;) {
      if (!at(TokenKind::Ident)) {
        return fail_expected("a register name");
      }
      if (!valid_declared_name(cur_.text)) {
        return fail("invalid register name " + quote(cur_.text));
      }
      RegisterDecl r = proto;
      r.name.assign(cur_.text);
      r.loc = cur_.loc;
      advance();
      if (accept(TokenKind::Less)) {
        uint32_t count = 0;
        if (!read_u32(count, "a register count")) {
          return false;
        }
        r.count = count;
        if (!expect(TokenKind::Greater, "'>'")) {
          return false;
        }
      }
      body.emplace_back(std::move(r));
      if (!accept(TokenKind::Comma)) {
        break;
      }
    }
    return expect(TokenKind::Semicolon, "';' after the register declaration");
  }

  // --- functions -----------------------------------------------------------------------------

  bool parse_param_list(std::vector<VariableDecl>& out) {
    advance(); // '('
    if (accept(TokenKind::RParen)) {
      return true;
    }
    for (;;) {
      if (!at(TokenKind::Directive)) {
        return fail_expected("a parameter declaration such as '.param .u64 name'");
      }
      auto space = space_of_directive(cur_.text);
      if (space != StateSpace::Param && space != StateSpace::Reg) {
        return fail_expected("'.param' or '.reg'");
      }
      VariableDecl d;
      d.space = *space;
      d.loc = cur_.loc;
      advance();
      if (!parse_decl_attributes(d) || !parse_decl_name(d)) {
        return false;
      }
      out.push_back(std::move(d));
      if (accept(TokenKind::RParen)) {
        return true;
      }
      if (!expect(TokenKind::Comma, "',' or ')' in the parameter list")) {
        return false;
      }
    }
  }

  bool parse_function(Linkage linkage, const Token& start) {
    Function f;
    f.is_entry = cur_.text == ".entry";
    f.linkage = linkage;
    f.loc = start.loc;
    advance();
    if (!f.is_entry && at(TokenKind::LParen) && !parse_param_list(f.returns)) {
      return false;
    }
    if (!at(TokenKind::Ident)) {
      return fail_expected("a function name");
    }
    if (!valid_declared_name(cur_.text)) {
      return fail("invalid function name " + quote(cur_.text));
    }
    f.name.assign(cur_.text);
    advance();
    if (at(TokenKind::LParen) && !parse_param_list(f.params)) {
      return false;
    }
    while (at(TokenKind::Directive) && tables().performance.find(cur_.text.substr(1))) {
      PerformanceDirective p;
      p.name.assign(cur_.text.substr(1));
      advance();
      if (at(TokenKind::Number)) {
        for (;;) {
          uint64_t v = 0;
          if (!read_unsigned(v, "a value", std::numeric_limits<uint64_t>::max())) {
            return false;
          }
          p.values.push_back(v);
          if (!accept(TokenKind::Comma)) {
            break;
          }
        }
      }
      f.directives.push_back(std::move(p));
    }
    if (accept(TokenKind::Semicolon)) {
      module_.items.emplace_back(std::move(f));
      return true;
    }
    if (!at(TokenKind::LBrace)) {
      return fail_expected("'{' or ';' after the function header");
    }
    // The body is parsed in place so that its statements are never moved again.
    Function& placed = std::get<Function>(module_.items.emplace_back(std::move(f)));
    parse_body(placed);
    return true;
  }

  void parse_body(Function& f) {
    const Token open = cur_;
    advance();
    f.has_body = true;
    debug_loc_.reset();
    outermost_callers_.clear();
    size_t depth = 0;
    std::vector<Statement>& body = f.body;
    // Reserve for the statements up to the function's closing brace (nvcc puts it at the start
    // of a line), about one per 24 bytes: growing the vector would move every statement. When
    // that brace lies beyond the end of an earlier body (one-line functions), the earlier
    // estimate was already too generous and nothing is reserved: reservations stay within a
    // small multiple of the input, and the text is scanned only once.
    if (next_close_ <= open.offset) {
      const char* begin = text_.data() + open.offset;
      const char* end = text_.data() + text_.size();
      const char* close = begin + 1;
      while ((close = static_cast<const char*>(std::memchr(close, '}', end - close))) != nullptr &&
             close[-1] != '\n') {
        ++close;
      }
      next_close_ = static_cast<size_t>((close == nullptr ? end : close) - text_.data());
      body.reserve(std::min<size_t>((next_close_ - open.offset) / 24 + 8, kMaxBodyReserve));
    }
    for (;;) {
      bool ok = true;
      switch (cur_.kind) {
      case TokenKind::RBrace:
        if (depth == 0) {
          advance();
          return;
        }
        --depth;
        body.emplace_back(ScopeEnd{cur_.loc});
        advance();
        break;
      case TokenKind::LBrace:
        if (depth >= kMaxScopeDepth) {
          fail("scopes nested more than " + std::to_string(kMaxScopeDepth) + " deep");
          stop();
          return;
        }
        ++depth;
        body.emplace_back(ScopeBegin{cur_.loc});
        advance();
        break;
      case TokenKind::End:
        if (!stopped_) {
          fail("expected '}' at the end of input");
          report(Severity::Note, open.loc, open.offset, "to match this '{'");
        }
        return;
      case TokenKind::Directive:
        ok = parse_body_directive(body);
        break;
      case TokenKind::At:
      case TokenKind::Ident:
        ok = parse_label_or_instruction(body);
        break;
      case TokenKind::Semicolon:
        advance(); // an empty statement
        break;
      case TokenKind::Invalid:
        fail_lexical();
        advance();
        break;
      default:
        ok = fail("expected an instruction, a label or a directive, found " + describe(cur_));
        break;
      }
      if (!ok) {
        sync_statement();
      }
    }
  }

  bool parse_body_directive(std::vector<Statement>& body) {
    std::string_view d = cur_.text;
    if (d == ".reg") {
      return parse_register_decls(body);
    }
    if (d == ".loc") {
      const uint32_t line = cur_.loc.line;
      if (!parse_loc(body)) {
        sync_line(line);
      }
      return true;
    }
    if (d == ".pragma") {
      Pragma p;
      if (!parse_pragma(p)) {
        return false;
      }
      body.emplace_back(std::move(p));
      return true;
    }
    if (d == ".callprototype" || d == ".branchtargets" || d == ".calltargets") {
      UnmodeledDirective u;
      if (!parse_unmodeled(u)) {
        return false;
      }
      body.emplace_back(std::move(u));
      return true;
    }
    Token start = cur_;
    Linkage linkage = Linkage::None;
    if (auto l = linkage_of(d)) {
      linkage = *l;
      advance();
    }
    if (at(TokenKind::Directive) && space_of_directive(cur_.text)) {
      std::vector<VariableDecl> decls;
      if (!parse_variable_decls(linkage, start, decls)) {
        return false;
      }
      for (VariableDecl& v : decls) {
        body.emplace_back(std::move(v));
      }
      return true;
    }
    if (linkage != Linkage::None) {
      return fail_expected("a state space");
    }
    return fail("unknown or unsupported directive " + quote(d) + " in a function body");
  }

  // `, inlined_at FILE LINE COLUMN` in what follows a `.loc`'s column (after `function_name`):
  // kept when well formed, ignored otherwise (the rest stays verbatim either way).
  static void read_inlined_at(std::string_view rest, DebugLocation& where) {
    constexpr std::string_view kKey = "inlined_at";
    const size_t at = rest.find(kKey);
    if (at == std::string_view::npos)
      return;
    std::array<uint32_t, 3> values{};
    size_t i = at + kKey.size();
    for (uint32_t& value : values) {
      while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t'))
        ++i;
      const size_t start = i;
      uint64_t v = 0;
      while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && v <= 0xffffffffull)
        v = v * 10 + static_cast<uint64_t>(rest[i++] - '0');
      if (i == start || v > 0xffffffffull)
        return;
      value = static_cast<uint32_t>(v);
    }
    where.inlined_file = values[0];
    where.inlined_line = values[1];
    where.inlined_column = values[2];
  }

  // `.loc file line column [anything else on the line]`
  bool parse_loc(std::vector<Statement>& body) {
    LocDirective l;
    l.loc = cur_.loc;
    advance();
    if (!read_u32(l.where.file, "a file index") || !read_u32(l.where.line, "a line number")) {
      return false;
    }
    if (!at(TokenKind::Number)) {
      return fail_expected("a column number");
    }
    NumberValue v = detail::read_number(cur_.text);
    if (v.kind != NumberValue::Int || v.bits > std::numeric_limits<uint32_t>::max()) {
      return fail("invalid column number " + quote(cur_.text));
    }
    l.where.column = static_cast<uint32_t>(v.bits);
    // The lexer stands right after the column: what follows on the line is kept verbatim.
    l.rest.assign(lex_.rest_of_line());
    read_inlined_at(l.rest, l.where);
    if (l.where.inlined_line != 0) {
      std::array<uint32_t, 3> caller = {l.where.inlined_file, l.where.inlined_line,
                                        l.where.inlined_column};
      if (auto it = outermost_callers_.find(caller); it != outermost_callers_.end())
        caller = it->second;
      outermost_callers_[{l.where.file, l.where.line, l.where.column}] = caller;
      l.where.inlined_file = caller[0];
      l.where.inlined_line = caller[1];
      l.where.inlined_column = caller[2];
    }
    advance();
    debug_loc_ = l.where;
    body.emplace_back(std::move(l));
    return true;
  }

  bool parse_label_or_instruction(std::vector<Statement>& body) {
    if (at(TokenKind::Ident) && lex_.peek_char() == ':') {
      if (!valid_declared_name(cur_.text)) {
        return fail("invalid label name " + quote(cur_.text));
      }
      body.emplace_back(Label{std::string(cur_.text), cur_.loc});
      advance();
      advance(); // ':'
      return true;
    }
    auto& ins = std::get<Instruction>(body.emplace_back(std::in_place_type<Instruction>));
    if (!parse_instruction(ins)) {
      body.pop_back();
      return false;
    }
    return true;
  }

  // --- instructions --------------------------------------------------------------------------

  bool parse_instruction(Instruction& ins) {
    ins.loc = cur_.loc;
    if (accept(TokenKind::At)) {
      Guard g;
      g.negated = accept(TokenKind::Bang);
      if (!at(TokenKind::Ident)) {
        return fail_expected("a predicate register after '@'");
      }
      g.predicate = std::string(cur_.text);
      ins.guard = std::move(g);
      advance();
    }
    if (!at(TokenKind::Ident)) {
      return fail_expected("an instruction");
    }
    if (!decode_opcode(ins)) {
      return false;
    }
    advance();
    ins.debug_loc = debug_loc_;
    if (accept(TokenKind::Semicolon)) {
      return true;
    }
    ins.operands.reserve(4);
    for (;;) {
      if (!parse_operand(ins.operands)) {
        return false;
      }
      if (accept(TokenKind::Comma)) {
        continue;
      }
      return expect(TokenKind::Semicolon, "',' or ';' after an operand");
    }
  }

  // Splits `ld.global.nc.v4.f32` into the opcode and its suffixes and decodes the suffixes.
  bool decode_opcode(Instruction& ins) {
    const std::string_view word = cur_.text;
    const char* w = word.data();
    const size_t n = word.size();
    size_t i = 0;
    while (i < n && w[i] != '.') {
      ++i;
    }
    const std::string_view name = word.substr(0, i);
    if (name.empty() || name[0] < 'a' || name[0] > 'z') {
      return fail("expected an instruction, found " + describe(cur_));
    }
    for (char c : name) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
        return fail("invalid opcode " + quote(name));
      }
    }
    ins.opcode_name.assign(name);
    const Tables& t = tables();
    const Opcode* op = t.opcodes.find(name);
    if (op == nullptr && !is_ptx_opcode(name)) {
      return fail("unknown instruction " + quote(name) + " (not an opcode of PTX ISA " +
                  std::to_string(kNewestVersionMajor) + "." + std::to_string(kNewestVersionMinor) +
                  " or older that this tool knows)");
    }
    ins.opcode = op != nullptr ? *op : Opcode::Other;
    const bool compares = ins.opcode == Opcode::Setp || ins.opcode == Opcode::Set;

    size_t dots = 0;
    for (size_t j = i; j < n; ++j) {
      dots += w[j] == '.';
    }
    if (dots == 0) {
      return true;
    }
    ins.suffixes.reserve(dots);
    while (i < n) { // w[i] is the dot before a suffix
      const size_t begin = i + 1;
      size_t end = begin;
      size_t colon = n;
      while (end < n && w[end] != '.') {
        if (w[end] == ':' && colon == n) {
          colon = end;
        }
        ++end;
      }
      i = end;
      const std::string_view s(w + begin, end - begin);
      ins.suffixes.emplace_back(s);
      if (colon != n) {
        // `.shared::cta` names the shared space; other `::` words are only kept verbatim.
        const WordInfo* info = t.words.find(std::string_view(w + begin, colon - begin));
        if (info != nullptr && info->space >= 0 && ins.space == StateSpace::None) {
          ins.space = static_cast<StateSpace>(info->space);
        }
        continue;
      }
      const WordInfo* info = t.words.find(s);
      if (info == nullptr) {
        continue;
      }
      if (info->vector != 0) {
        ins.vector_width = info->vector;
      } else if (info->type >= 0) {
        if (ins.types.empty()) {
          ins.types.reserve(dots); // one allocation for all of them
        }
        ins.types.push_back(static_cast<ScalarType>(info->type));
      } else if (info->space >= 0) {
        if (ins.space == StateSpace::None) {
          ins.space = static_cast<StateSpace>(info->space);
        }
      } else if (compares && info->cmp >= 0) {
        ins.cmp = static_cast<CmpOp>(info->cmp);
      } else if (compares && info->bool_op >= 0) {
        ins.bool_op = static_cast<BoolOp>(info->bool_op);
      } else if (info->modifier >= 0) {
        ins.modifiers.add(static_cast<Modifier>(info->modifier));
      }
    }
    if (ins.opcode == Opcode::Other && name == "cp" && ins.suffixes.front() == "async") {
      // cp.async.bulk... is TMA (Hopper), not sm_80's cp.async: an enumerator of its own.
      ins.opcode = ins.suffixes.size() > 1 && ins.suffixes[1] == "bulk" ? Opcode::CpAsyncBulk
                                                                        : Opcode::CpAsync;
    }
    return true;
  }

  // Operands are built in place (a default Operand holds an empty NameOperand) so that no
  // temporary is moved into the variant: this loop runs for every operand of the corpus.
  bool parse_operand(std::vector<Operand>& out) {
    Operand& op = out.emplace_back();
    op.loc = cur_.loc;
    switch (cur_.kind) {
    case TokenKind::Bang: {
      advance();
      if (!at(TokenKind::Ident)) {
        return fail_expected("a predicate after '!'");
      }
      auto& n = std::get<NameOperand>(op.value);
      n.name = std::string(cur_.text);
      n.negated = true;
      advance();
      return true;
    }
    case TokenKind::Ident: {
      if (cur_.text.size() == 1 && cur_.text[0] == '_') {
        advance();
        if (at(TokenKind::Pipe)) {
          // `_|%p` (elect.sync): the first of the pair is a sink; kept as the pair's name "_".
          std::get<NameOperand>(op.value).name = "_";
          break;
        }
        op.value.emplace<SinkOperand>();
        return true;
      }
      std::get<NameOperand>(op.value).name = std::string(cur_.text);
      advance();
      break;
    }
    case TokenKind::Minus:
    case TokenKind::Number:
      return parse_immediate(op);
    case TokenKind::LBracket:
      return parse_address(op);
    case TokenKind::LBrace:
      return parse_vector(op);
    case TokenKind::LParen:
      return parse_paren_list(op);
    default:
      return fail_expected("an operand");
    }
    // A name (or `_`) read: `%p|%q` makes it a pair (setp's two predicates, elect.sync's d|p).
    if (accept(TokenKind::Pipe)) {
      if (!at(TokenKind::Ident)) {
        return fail_expected("a predicate after '|'");
      }
      std::string first = std::move(std::get<NameOperand>(op.value).name);
      op.value = PairOperand{std::move(first), std::string(cur_.text)};
      advance();
    }
    return true;
  }

  bool parse_immediate(Operand& op) {
    NumberValue v;
    if (!read_signed_number(v)) {
      return false;
    }
    if (v.kind == NumberValue::Int) {
      op.value.emplace<IntImmediate>(IntImmediate{static_cast<int64_t>(v.bits), v.is_unsigned});
    } else {
      op.value.emplace<FloatImmediate>(FloatImmediate{v.bits, v.width});
    }
    return true;
  }

  // `[%rd1]`, `[%rd1+16]`, `[%rd1+-4]`, `[sym]`, `[sym+4]`, `[1024]`
  bool parse_address(Operand& op) {
    advance();
    auto& a = op.value.emplace<AddressOperand>();
    if (at(TokenKind::Ident)) {
      a.base.emplace(cur_.text);
      advance();
      if (at(TokenKind::Comma)) {
        // `[tex, {%f1, %f2}]`, `[tex, sampler, {...}]`, `[%rd1, {%r1, %r2}]`: coordinates.
        while (accept(TokenKind::Comma)) {
          if (!at(TokenKind::Ident) && !at(TokenKind::LBrace)) {
            return fail_expected("a name or a '{...}' vector of coordinates");
          }
          std::vector<Operand> one;
          if (!parse_operand(one)) {
            return false;
          }
          a.coordinates.push_back(std::move(one.front()));
        }
        return expect(TokenKind::RBracket, "']' to end the address");
      }
      if (!read_offset(a.offset)) {
        return false;
      }
    } else if (at(TokenKind::Number) || at(TokenKind::Minus)) {
      NumberValue v;
      Token number = cur_;
      if (!read_signed_number(v)) {
        return false;
      }
      if (v.kind != NumberValue::Int) {
        return fail(number, "an absolute address must be an integer");
      }
      a.offset = static_cast<int64_t>(v.bits);
    } else {
      return fail_expected("a register, a variable or an address inside '[ ]'");
    }
    return expect(TokenKind::RBracket, "']' to end the address");
  }

  // `{%f1, %f2, _, !%p}`; elements are names, sinks or immediates, never nested.
  bool parse_vector(Operand& op) {
    advance();
    auto& v = op.value.emplace<VectorOperand>();
    v.elements.reserve(4);
    for (;;) {
      Operand& e = v.elements.emplace_back();
      e.loc = cur_.loc;
      if (at(TokenKind::Ident)) {
        if (cur_.text.size() == 1 && cur_.text[0] == '_') {
          e.value.emplace<SinkOperand>();
        } else {
          std::get<NameOperand>(e.value).name = std::string(cur_.text);
        }
        advance();
      } else if (at(TokenKind::Bang)) {
        advance();
        if (!at(TokenKind::Ident)) {
          return fail_expected("a predicate after '!'");
        }
        auto& n = std::get<NameOperand>(e.value);
        n.name = std::string(cur_.text);
        n.negated = true;
        advance();
      } else if (at(TokenKind::Number) || at(TokenKind::Minus)) {
        if (!parse_immediate(e)) {
          return false;
        }
      } else {
        return fail_expected("a vector element");
      }
      if (accept(TokenKind::RBrace)) {
        return true;
      }
      if (!expect(TokenKind::Comma, "',' or '}' in the vector operand")) {
        return false;
      }
    }
  }

  // `(retval0)`, `(param0, param1)`, `()`
  bool parse_paren_list(Operand& op) {
    advance();
    auto& p = op.value.emplace<ParenListOperand>();
    if (accept(TokenKind::RParen)) {
      return true;
    }
    for (;;) {
      if (!at(TokenKind::Ident)) {
        return fail_expected("a name in the parenthesised list");
      }
      p.names.emplace_back(cur_.text);
      advance();
      if (accept(TokenKind::RParen)) {
        return true;
      }
      if (!expect(TokenKind::Comma, "',' or ')'")) {
        return false;
      }
    }
  }

  std::string_view text_;
  Lexer lex_;
  Token cur_;
  Module module_;
  std::vector<Diagnostic> diagnostics_;
  int errors_ = 0;
  bool stopped_ = false;
  bool seen_version_ = false;
  bool complained_version_ = false;
  std::optional<DebugLocation> debug_loc_;
  // For each inlined position of the current body, the outermost call it was inlined into:
  // nvcc writes a nested inline chain as consecutive `.loc`s, each `inlined_at` the one before.
  std::map<std::array<uint32_t, 3>, std::array<uint32_t, 3>> outermost_callers_;
  size_t next_close_ = 0; // offset of the next `}` that starts a line (see parse_body)
};

} // namespace

ParseResult parse(std::string_view text, std::string path) {
  Parser parser(text, std::move(path));
  ParseResult result = parser.run();
  if (result.ok()) {
    // What ptxas rejects (an unknown type, a modifier or operand the opcode does not take) is
    // refused here, located, before anything proves a kernel that cannot be assembled.
    const size_t before = result.diagnostics.size();
    validate(*result.module, text, result.diagnostics, kMaxErrors);
    if (result.diagnostics.size() != before) {
      result.module.reset();
    }
  }
  return result;
}

ParseResult parse_file(const std::string& path) {
  std::string text;
  int error = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char buffer[1 << 16];
    size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
      text.append(buffer, got);
    }
    if (std::ferror(f)) {
      error = errno != 0 ? errno : EIO;
    }
    std::fclose(f);
  } else {
    error = errno != 0 ? errno : ENOENT;
  }
  if (error != 0) {
    ParseResult result;
    Diagnostic d;
    d.file = path;
    d.message = std::string("cannot read file: ") + std::strerror(error);
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  return parse(text, path);
}

} // namespace volta::ptx
