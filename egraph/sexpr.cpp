#include "egraph/sexpr.hpp"

#include <cctype>
#include <charconv>

namespace volta::egraph {

std::string SexprError::format(std::string_view source_name) const {
  return std::string(source_name) + ":" + std::to_string(line) + ":" + std::to_string(column) +
         ": error: " + message;
}

namespace {

class Reader {
public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::optional<SexprError> read(Sexpr& out) {
    skip_space();
    if (pos_ >= text_.size())
      return error("expected an s-expression, found end of input");
    out.line = line_;
    out.column = col_;
    const char c = text_[pos_];
    if (c == ')')
      return error("unexpected ')'");
    if (c == '(') {
      advance();
      out.is_list = true;
      for (;;) {
        skip_space();
        if (pos_ >= text_.size())
          return SexprError{out.line, out.column, "unclosed '(' (missing ')')"};
        if (text_[pos_] == ')') {
          advance();
          return std::nullopt;
        }
        Sexpr child;
        if (auto e = read(child))
          return e;
        out.list.push_back(std::move(child));
      }
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !is_delimiter(text_[pos_]))
      advance();
    out.atom = std::string(text_.substr(start, pos_ - start));
    return std::nullopt;
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }
  SexprError error(std::string message) const {
    return SexprError{line_, col_, std::move(message)};
  }

private:
  static bool is_delimiter(char c) {
    return c == '(' || c == ')' || c == ';' || std::isspace(static_cast<unsigned char>(c));
  }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size()) {
      if (text_[pos_] == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n')
          advance();
      } else if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        advance();
      } else {
        break;
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0, line_ = 1, col_ = 1;
};

bool all_digits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

SexprError at(const Sexpr& s, std::string message) {
  return SexprError{s.line, s.column, std::move(message)};
}

std::optional<SexprError> parse_payload(const Sexpr& s, PayloadKind kind, Language& lang,
                                        Payload& out) {
  if (s.is_list)
    return at(s, "expected a payload atom, found a list");
  switch (kind) {
  case PayloadKind::None:
    break;
  case PayloadKind::Symbol:
    out = lang.intern_symbol(s.atom);
    return std::nullopt;
  case PayloadKind::Rational:
    if (auto q = parse_rational(s.atom)) {
      out = lang.intern_rational(*q);
      return std::nullopt;
    }
    return at(s, "'" + s.atom + "' is not an exact rational");
  case PayloadKind::Raw: {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.atom.data(), s.atom.data() + s.atom.size(), v);
    if (ec == std::errc() && p == s.atom.data() + s.atom.size()) {
      out = v;
      return std::nullopt;
    }
    return at(s, "'" + s.atom + "' is not an unsigned 64-bit integer");
  }
  }
  return at(s, "operator has no payload");
}

class TermBuilder {
public:
  explicit TermBuilder(Language& lang) : lang_(lang) {}

  std::optional<SexprError> build(const Sexpr& s, Term& t, Term::Index& out) {
    if (!s.is_list)
      return build_atom(s, t, out);
    if (s.list.empty())
      return at(s, "empty list: expected (operator argument...)");
    const Sexpr& head = s.list.front();
    if (head.is_list)
      return at(head, "expected an operator name, found a list");
    auto op = lang_.find_op(head.atom);
    if (!op)
      return at(head, "unknown operator '" + head.atom + "'");
    const OpInfo& info = lang_.op(*op);
    const std::size_t nargs = s.list.size() - 1;
    if (info.payload != PayloadKind::None) {
      if (nargs != 1)
        return at(s, "leaf operator '" + info.name + "' takes exactly one payload");
      Payload p = 0;
      if (auto e = parse_payload(s.list[1], info.payload, lang_, p))
        return e;
      out = t.add_leaf(*op, p);
      return std::nullopt;
    }
    if (info.arity != kVariadic && nargs != static_cast<std::size_t>(info.arity))
      return at(s, "operator '" + info.name + "' takes " + std::to_string(info.arity) +
                       " argument(s), found " + std::to_string(nargs));
    if (info.ac && nargs == 0)
      return at(s, "AC operator '" + info.name + "' needs at least one argument");
    std::vector<Term::Index> kids;
    kids.reserve(nargs);
    for (std::size_t i = 1; i < s.list.size(); ++i) {
      Term::Index k = 0;
      if (auto e = build(s.list[i], t, k))
        return e;
      kids.push_back(k);
    }
    out = t.add(*op, kids);
    return std::nullopt;
  }

private:
  std::optional<SexprError> build_atom(const Sexpr& s, Term& t, Term::Index& out) {
    if (auto q = parse_rational(s.atom)) {
      if (!lang_.constant_op())
        return at(s, "the language has no constant operator for '" + s.atom + "'");
      out = t.add_leaf(*lang_.constant_op(), lang_.intern_rational(*q));
      return std::nullopt;
    }
    if (s.atom.front() == '?')
      return at(s, "pattern variable '" + s.atom + "' is not allowed in a term");
    if (auto op = lang_.find_op(s.atom)) {
      const OpInfo& info = lang_.op(*op);
      if (info.payload != PayloadKind::None)
        return at(s, "leaf operator '" + info.name + "' needs a payload: write (" + info.name +
                         " payload)");
      if (info.arity != 0)
        return at(s, "operator '" + info.name + "' needs arguments: write (" + info.name + " ...)");
      out = t.add_leaf(*op, 0);
      return std::nullopt;
    }
    if (!lang_.symbol_op())
      return at(s, "unknown operator '" + s.atom + "' (the language has no symbol operator)");
    out = t.add_leaf(*lang_.symbol_op(), lang_.intern_symbol(s.atom));
    return std::nullopt;
  }

  Language& lang_;
};

void print(const Language& lang, OpId op, Payload payload, std::size_t nkids, std::string& out,
           auto&& print_child) {
  const OpInfo& info = lang.op(op);
  if (info.payload != PayloadKind::None) {
    if (lang.symbol_op() == op || lang.constant_op() == op) {
      out += lang.payload_text(op, payload);
    } else {
      out += '(';
      out += info.name;
      out += ' ';
      out += lang.payload_text(op, payload);
      out += ')';
    }
    return;
  }
  if (nkids == 0 && info.arity == 0) {
    out += info.name;
    return;
  }
  out += '(';
  out += info.name;
  for (std::size_t i = 0; i < nkids; ++i) {
    out += ' ';
    print_child(i);
  }
  out += ')';
}

void print_term(const Term& t, const Language& lang, Term::Index i, std::string& out) {
  const auto kids = t.children(i);
  print(lang, t.op(i), t.payload(i), kids.size(), out,
        [&](std::size_t k) { print_term(t, lang, kids[k], out); });
}

// Stops descending once `out` is longer than `max_chars` (and says so in `cut`).
void print_term_capped(const Term& t, const Language& lang, Term::Index i, std::string& out,
                       std::size_t max_chars, bool& cut) {
  if (out.size() > max_chars) {
    cut = true;
    return;
  }
  const auto kids = t.children(i);
  print(lang, t.op(i), t.payload(i), kids.size(), out, [&](std::size_t k) {
    if (!cut)
      print_term_capped(t, lang, kids[k], out, max_chars, cut);
  });
}

void print_tree(const TreeTerm& t, const Language& lang, std::string& out) {
  print(lang, t.op, t.payload, t.children.size(), out,
        [&](std::size_t k) { print_tree(t.children[k], lang, out); });
}

} // namespace

Parsed<Sexpr> parse_sexpr(std::string_view text) {
  Reader r(text);
  Sexpr s;
  if (auto e = r.read(s))
    return *e;
  if (!r.at_end())
    return r.error("unexpected text after the expression");
  return s;
}

Parsed<std::vector<Sexpr>> parse_sexprs(std::string_view text) {
  Reader r(text);
  std::vector<Sexpr> out;
  while (!r.at_end()) {
    Sexpr s;
    if (auto e = r.read(s))
      return *e;
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<mpq_class> parse_rational(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  mpq_class q;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    const auto num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den))
      return std::nullopt;
    mpz_class d(std::string(den), 10);
    if (d == 0)
      return std::nullopt;
    q = mpq_class(mpz_class(std::string(num), 10), d);
  } else if (auto dot = s.find('.'); dot != std::string_view::npos) {
    const auto whole = s.substr(0, dot), frac = s.substr(dot + 1);
    if (!all_digits(whole) || !all_digits(frac))
      return std::nullopt;
    mpz_class scale;
    mpz_ui_pow_ui(scale.get_mpz_t(), 10, frac.size());
    q = mpq_class(mpz_class(std::string(whole) + std::string(frac), 10), scale);
  } else {
    if (!all_digits(s))
      return std::nullopt;
    q = mpq_class(mpz_class(std::string(s), 10));
  }
  q.canonicalize();
  if (negative)
    q = -q;
  return q;
}

Parsed<Term> term_from_sexpr(const Sexpr& s, Language& lang) {
  Term t;
  Term::Index root = 0;
  TermBuilder b(lang);
  if (auto e = b.build(s, t, root))
    return *e;
  return t;
}

Parsed<Term> parse_term(std::string_view text, Language& lang) {
  auto s = parse_sexpr(text);
  if (!s)
    return s.error();
  return term_from_sexpr(*s, lang);
}

Term parse_term_or_throw(std::string_view text, Language& lang) {
  return parse_term(text, lang).value();
}

std::string to_sexpr(const Term& t, const Language& lang, Term::Index root) {
  std::string out;
  print_term(t, lang, root, out);
  return out;
}

std::string to_sexpr(const Term& t, const Language& lang, Term::Index root, std::size_t max_chars) {
  std::string out;
  bool cut = false;
  print_term_capped(t, lang, root, out, max_chars, cut);
  if (cut)
    out += " ...";
  return out;
}

std::string to_sexpr(const TreeTerm& t, const Language& lang) {
  std::string out;
  print_tree(t, lang, out);
  return out;
}

} // namespace volta::egraph
