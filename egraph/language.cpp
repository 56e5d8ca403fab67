#include "egraph/language.hpp"

#include <stdexcept>

namespace volta::egraph {

OpId Language::add_op(OpInfo info) {
  if (info.name.empty())
    throw std::invalid_argument("operator name must not be empty");
  if (by_name_.count(info.name) != 0)
    throw std::invalid_argument("duplicate operator '" + info.name + "'");
  if (info.ac && (info.arity != kVariadic || info.payload != PayloadKind::None))
    throw std::invalid_argument("AC operator '" + info.name + "' must be variadic, no payload");
  if (info.payload != PayloadKind::None && info.arity != 0)
    throw std::invalid_argument("operator '" + info.name + "' has a payload, so arity must be 0");
  if (info.arity < kVariadic)
    throw std::invalid_argument("operator '" + info.name + "' has a negative arity");
  if (ops_.size() >= 0xffff)
    throw std::invalid_argument("too many operators");
  const auto id = static_cast<OpId>(ops_.size());
  by_name_.emplace(info.name, id);
  ops_.push_back(std::move(info));
  return id;
}

std::optional<OpId> Language::find_op(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end())
    return std::nullopt;
  return it->second;
}

OpId Language::op_id(std::string_view name) const {
  if (auto id = find_op(name))
    return *id;
  throw std::invalid_argument("unknown operator '" + std::string(name) + "'");
}

void Language::set_symbol_op(OpId id) {
  if (ops_.at(id).payload != PayloadKind::Symbol)
    throw std::invalid_argument("symbol operator '" + ops_[id].name + "' needs a Symbol payload");
  symbol_op_ = id;
}

void Language::set_constant_op(OpId id) {
  if (ops_.at(id).payload != PayloadKind::Rational)
    throw std::invalid_argument("constant operator '" + ops_[id].name +
                                "' needs a Rational payload");
  constant_op_ = id;
}

std::string Language::payload_text(OpId op, Payload p) const {
  switch (ops_[op].payload) {
  case PayloadKind::None:
    return {};
  case PayloadKind::Symbol:
    return symbols_.name(p);
  case PayloadKind::Rational:
    return rationals_.value(p).get_str();
  case PayloadKind::Raw:
    return std::to_string(p);
  }
  return {};
}

} // namespace volta::egraph
