#pragma once
// S-expressions: the text form of terms and patterns, e.g. `(+ (* a b) (exp (- x)))`, with exact
// rational constants such as `3/4`, `-2` or `0.125`. The reader never crashes on bad input: it
// returns a located diagnostic (`<name>:line:col: error: ...`).
//
// Syntax: a list `( head arg... )` or an atom (a maximal run of characters other than
// whitespace, parentheses and `;`). `;` starts a comment running to the end of the line.
// Atoms that parse as numbers (parse_rational) are constants; `?name` is a pattern variable and
// `?name...` a rest variable (patterns only); any other atom is an operator of arity 0 when the
// language has one of that name, otherwise a symbol leaf. A leaf operator whose payload is not the
// default symbol/constant kind is written `(op payload)`.

#include <gmpxx.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "egraph/language.hpp"
#include "egraph/term.hpp"
#include "egraph/tree_term.hpp"

namespace volta::egraph {

struct SexprError {
  std::size_t line = 1;
  std::size_t column = 1;
  std::string message;
  // "<name>:line:col: error: message"
  std::string format(std::string_view source_name = "<input>") const;
};

// A value or a located error.
template <class T>
class Parsed {
public:
  Parsed(T value) : v_(std::move(value)) {}
  Parsed(SexprError error) : v_(std::move(error)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const SexprError& error() const { return std::get<1>(v_); }
  // The value; throws std::invalid_argument carrying the formatted error otherwise.
  T& value() & {
    if (!ok())
      throw std::invalid_argument(error().format());
    return std::get<0>(v_);
  }
  T&& value() && { return std::move(value()); }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }

private:
  std::variant<T, SexprError> v_;
};

struct Sexpr {
  std::string atom;        // non-empty for atoms
  std::vector<Sexpr> list; // the elements of a list
  bool is_list = false;
  std::size_t line = 1, column = 1;
};

// Exactly one s-expression (trailing comments/whitespace allowed).
Parsed<Sexpr> parse_sexpr(std::string_view text);
// Any number of s-expressions (a rule file).
Parsed<std::vector<Sexpr>> parse_sexprs(std::string_view text);

// `12`, `-3/4`, `0.125` (decimals are exact), `+5`. nullopt for anything else, including a zero
// denominator.
std::optional<mpq_class> parse_rational(std::string_view text);

// Terms. Symbols and constants are interned into `lang`.
Parsed<Term> term_from_sexpr(const Sexpr& s, Language& lang);
Parsed<Term> parse_term(std::string_view text, Language& lang);
// Throws std::invalid_argument with the located message; for tests and examples.
Term parse_term_or_throw(std::string_view text, Language& lang);

std::string to_sexpr(const Term& t, const Language& lang, Term::Index root);
// At most about `max_chars` characters, then " ...": a Term shares its subterms (an extracted
// running maximum names the one below it twice per level), so its tree can be exponentially
// larger than the term; this stops when the text is long enough, after O(max_chars) work.
std::string to_sexpr(const Term& t, const Language& lang, Term::Index root, std::size_t max_chars);
inline std::string to_sexpr(const Term& t, const Language& lang) {
  return to_sexpr(t, lang, t.root());
}
std::string to_sexpr(const TreeTerm& t, const Language& lang);

} // namespace volta::egraph
