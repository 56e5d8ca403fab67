#include "egraph/pattern.hpp"

#include <algorithm>

namespace volta::egraph {

std::optional<std::uint32_t> VarTable::find(std::string_view name) const {
  for (std::uint32_t i = 0; i < vars_.size(); ++i)
    if (vars_[i].name == name)
      return i;
  return std::nullopt;
}

std::uint32_t VarTable::add(std::string name, bool rest) {
  vars_.push_back(PatternVar{std::move(name), rest, 0, 0, 0});
  return static_cast<std::uint32_t>(vars_.size() - 1);
}

void VarTable::set_rest_shape(std::uint32_t i, OpId op, std::uint32_t siblings) {
  vars_[i].rest_op = op;
  vars_[i].rest_siblings = siblings;
}

void VarTable::finish_layout() {
  stride_ = 0;
  for (auto& v : vars_) {
    v.slot = stride_;
    stride_ += v.rest ? 2 + v.rest_siblings : 1;
  }
}

class PatternBuilder {
public:
  PatternBuilder(Language& lang, const Pattern* lhs) : lang_(lang), lhs_(lhs) {
    p_.lang_ = &lang;
    if (lhs)
      p_.vars_ = lhs->vars_;
  }

  Parsed<Pattern> build(const Sexpr& s) {
    std::uint32_t root = 0;
    if (auto e = node(s, root))
      return *e;
    p_.root_ = root;
    if (!lhs_) {
      if (p_.nodes_[root].kind != PatNode::Kind::Op)
        return at(s, "a left-hand side must start with an operator, not a variable");
      for (std::uint32_t i = 0; i < p_.vars_.size(); ++i)
        if (p_.vars_.var(i).rest && rest_uses_[i] != 1)
          return at(s, "rest variable ?" + p_.vars_.var(i).name + "... must occur once");
      p_.vars_.finish_layout();
    }
    compute_match_order();
    return std::move(p_);
  }

private:
  static SexprError at(const Sexpr& s, std::string m) {
    return SexprError{s.line, s.column, std::move(m)};
  }

  std::uint32_t push(PatNode n) {
    p_.nodes_.push_back(n);
    return static_cast<std::uint32_t>(p_.nodes_.size() - 1);
  }

  std::optional<SexprError> variable(const Sexpr& s, std::uint32_t& out) {
    std::string name = s.atom.substr(1);
    bool rest = false;
    if (name.size() > 3 && name.ends_with("...")) {
      rest = true;
      name.resize(name.size() - 3);
    }
    if (name.empty() || name.find("...") != std::string::npos)
      return at(s, "bad pattern variable '" + s.atom + "'");
    auto idx = p_.vars_.find(name);
    if (!idx) {
      if (lhs_)
        return at(s, "variable " + s.atom + " is not bound by the left-hand side");
      idx = p_.vars_.add(name, rest);
      rest_uses_.push_back(0);
    }
    if (p_.vars_.var(*idx).rest != rest)
      return at(s,
                "variable ?" + name + (rest ? " is not a rest variable" : " is a rest variable"));
    if (rest && !lhs_)
      ++rest_uses_[*idx];
    out = push(PatNode{rest ? PatNode::Kind::Rest : PatNode::Kind::Var, 0, 0, *idx, 0, 0});
    return std::nullopt;
  }

  std::optional<SexprError> node(const Sexpr& s, std::uint32_t& out) {
    if (!s.is_list) {
      if (s.atom.front() == '?')
        return variable(s, out);
      if (auto q = parse_rational(s.atom)) {
        if (!lang_.constant_op())
          return at(s, "the language has no constant operator for '" + s.atom + "'");
        out = push(PatNode{PatNode::Kind::Op, *lang_.constant_op(), lang_.intern_rational(*q)});
        return std::nullopt;
      }
      if (auto op = lang_.find_op(s.atom)) {
        const OpInfo& info = lang_.op(*op);
        if (info.payload != PayloadKind::None || info.arity != 0)
          return at(s, "operator '" + info.name + "' cannot be written as a bare atom");
        out = push(PatNode{PatNode::Kind::Op, *op, 0});
        return std::nullopt;
      }
      if (!lang_.symbol_op())
        return at(s, "unknown operator '" + s.atom + "'");
      out = push(PatNode{PatNode::Kind::Op, *lang_.symbol_op(), lang_.intern_symbol(s.atom)});
      return std::nullopt;
    }
    if (s.list.empty())
      return at(s, "empty list in a pattern");
    const Sexpr& head = s.list.front();
    if (head.is_list)
      return at(head, "expected an operator name, found a list");
    auto op = lang_.find_op(head.atom);
    if (!op)
      return at(head, "unknown operator '" + head.atom + "'");
    const OpInfo& info = lang_.op(*op);
    const std::size_t nargs = s.list.size() - 1;
    if (info.payload != PayloadKind::None) {
      if (nargs != 1 || s.list[1].is_list)
        return at(s, "leaf operator '" + info.name + "' takes exactly one payload atom");
      auto t = term_from_sexpr(s, lang_);
      if (!t)
        return t.error();
      out = push(PatNode{PatNode::Kind::Op, *op, t->payload(t->root())});
      return std::nullopt;
    }
    if (info.arity != kVariadic && nargs != static_cast<std::size_t>(info.arity))
      return at(s, "operator '" + info.name + "' takes " + std::to_string(info.arity) +
                       " argument(s), found " + std::to_string(nargs));
    if (info.ac && nargs == 0)
      return at(s, "AC operator '" + info.name + "' needs at least one argument");
    std::vector<std::uint32_t> kids;
    std::size_t rests = 0;
    for (std::size_t i = 1; i < s.list.size(); ++i) {
      std::uint32_t k = 0;
      if (auto e = node(s.list[i], k))
        return e;
      if (p_.nodes_[k].kind == PatNode::Kind::Rest) {
        ++rests;
        if (!lhs_ && !info.ac)
          return at(s.list[i], "rest variable " + s.list[i].atom +
                                   " must be a direct child of an AC operator");
      }
      kids.push_back(k);
    }
    if (!lhs_ && rests > 1)
      return at(s, "at most one rest variable per AC node");
    // (f p) is p for an AC operator: one-child AC nodes do not exist in the e-graph.
    if (info.ac && kids.size() == 1 && p_.nodes_[kids[0]].kind != PatNode::Kind::Rest) {
      out = kids[0];
      return std::nullopt;
    }
    if (!lhs_)
      for (auto k : kids)
        if (p_.nodes_[k].kind == PatNode::Kind::Rest)
          p_.vars_.set_rest_shape(p_.nodes_[k].var, *op,
                                  static_cast<std::uint32_t>(kids.size() - 1));
    PatNode n{PatNode::Kind::Op,
              *op,
              0,
              0,
              static_cast<std::uint32_t>(p_.kids_.size()),
              static_cast<std::uint32_t>(kids.size())};
    p_.kids_.insert(p_.kids_.end(), kids.begin(), kids.end());
    out = push(n);
    return std::nullopt;
  }

  void compute_match_order() {
    p_.order_.assign(p_.kids_.size(), 0);
    p_.order_count_.assign(p_.nodes_.size(), 0);
    for (std::uint32_t i = 0; i < p_.nodes_.size(); ++i) {
      const PatNode& n = p_.nodes_[i];
      if (n.kind != PatNode::Kind::Op || !lang_.is_ac(n.op))
        continue;
      std::vector<std::uint32_t> order;
      for (auto k : p_.children(i))
        if (p_.nodes_[k].kind == PatNode::Kind::Op)
          order.push_back(k);
      for (auto k : p_.children(i))
        if (p_.nodes_[k].kind == PatNode::Kind::Var)
          order.push_back(k);
      std::copy(order.begin(), order.end(), p_.order_.begin() + n.first);
      p_.order_count_[i] = static_cast<std::uint32_t>(order.size());
    }
  }

  Language& lang_;
  const Pattern* lhs_;
  Pattern p_;
  std::vector<int> rest_uses_;
};

Parsed<Pattern> Pattern::from_sexpr(const Sexpr& s, Language& lang, const Pattern* lhs) {
  return PatternBuilder(lang, lhs).build(s);
}

Parsed<Pattern> Pattern::parse(std::string_view text, Language& lang) {
  auto s = parse_sexpr(text);
  if (!s)
    return s.error();
  return from_sexpr(*s, lang, nullptr);
}

Parsed<Pattern> Pattern::parse_rhs(std::string_view text, Language& lang, const Pattern& lhs) {
  auto s = parse_sexpr(text);
  if (!s)
    return s.error();
  return from_sexpr(*s, lang, &lhs);
}

std::optional<std::uint32_t> Pattern::rest_child(std::uint32_t i) const {
  for (auto k : children(i))
    if (nodes_[k].kind == PatNode::Kind::Rest)
      return k;
  return std::nullopt;
}

namespace {
void print_pattern(const Pattern& p, std::uint32_t i, std::string& out) {
  const PatNode& n = p.node(i);
  const VarTable& vars = p.vars();
  switch (n.kind) {
  case PatNode::Kind::Var:
    out += "?" + vars.var(n.var).name;
    return;
  case PatNode::Kind::Rest:
    out += "?" + vars.var(n.var).name + "...";
    return;
  case PatNode::Kind::Op:
    break;
  }
  const Language& lang = p.language();
  const OpInfo& info = lang.op(n.op);
  if (info.payload != PayloadKind::None) {
    if (lang.symbol_op() == n.op || lang.constant_op() == n.op)
      out += lang.payload_text(n.op, n.payload);
    else
      out += "(" + info.name + " " + lang.payload_text(n.op, n.payload) + ")";
    return;
  }
  if (n.count == 0 && info.arity == 0) {
    out += info.name;
    return;
  }
  out += "(" + info.name;
  for (auto k : p.children(i)) {
    out += ' ';
    print_pattern(p, k, out);
  }
  out += ')';
}
} // namespace

std::string Pattern::to_string() const {
  std::string out;
  print_pattern(*this, root_, out);
  return out;
}

} // namespace volta::egraph
