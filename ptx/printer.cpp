// Printing a Module back to PTX (see printer.hpp). The layout follows nvcc's (tabs, one
// statement per line) so that printed files read like the originals; what matters for the
// contract is that the parser reads the output back to an equal tree.
#include "ptx/printer.hpp"

#include "ptx/number.hpp"

namespace volta::ptx {

namespace {

// The parser refuses initializer braces nested deeper than this, so the printer never
// produces them (it prints a flat list instead).
constexpr size_t kMaxInitializerNesting = 64;

void append_operand(std::string& out, const Operand& op);

struct OperandPrinter {
  std::string& out;
  void operator()(const NameOperand& n) const {
    if (n.negated) {
      out += '!';
    }
    out += n.name;
  }
  void operator()(const IntImmediate& i) const {
    out += detail::int_literal(i.value, i.is_unsigned);
  }
  void operator()(const FloatImmediate& f) const { out += detail::float_literal(f.bits, f.width); }
  void operator()(const AddressOperand& a) const {
    out += '[';
    if (a.base) {
      out += *a.base;
      if (a.offset != 0) {
        out += '+';
        out += detail::signed_decimal(a.offset);
      }
    } else {
      out += detail::signed_decimal(a.offset);
    }
    for (const Operand& c : a.coordinates) {
      out += ", ";
      append_operand(out, c);
    }
    out += ']';
  }
  void operator()(const SinkOperand&) const { out += '_'; }
  void operator()(const VectorOperand& v) const {
    out += '{';
    for (size_t i = 0; i < v.elements.size(); ++i) {
      if (i > 0) {
        out += ", ";
      }
      append_operand(out, v.elements[i]);
    }
    out += '}';
  }
  void operator()(const PairOperand& p) const {
    out += p.first;
    out += '|';
    out += p.second;
  }
  void operator()(const ParenListOperand& p) const {
    out += '(';
    for (size_t i = 0; i < p.names.size(); ++i) {
      if (i > 0) {
        out += ", ";
      }
      out += p.names[i];
    }
    out += ')';
  }
};

void append_operand(std::string& out, const Operand& op) {
  std::visit(OperandPrinter{out}, op.value);
}

void append_instruction(std::string& out, const Instruction& ins) {
  if (ins.guard) {
    out += '@';
    if (ins.guard->negated) {
      out += '!';
    }
    out += ins.guard->predicate;
    out += ' ';
  }
  out += ins.opcode_name;
  for (const std::string& s : ins.suffixes) {
    out += '.';
    out += s;
  }
  for (size_t i = 0; i < ins.operands.size(); ++i) {
    out += i == 0 ? "\t" : ", ";
    append_operand(out, ins.operands[i]);
  }
  out += ';';
}

const char* linkage_spelling(Linkage l) {
  switch (l) {
  case Linkage::None:
    return "";
  case Linkage::Visible:
    return ".visible ";
  case Linkage::Extern:
    return ".extern ";
  case Linkage::Weak:
    return ".weak ";
  case Linkage::Common:
    return ".common ";
  }
  return "";
}

void append_initializer(std::string& out, const Initializer& e) {
  if (const auto* i = std::get_if<IntImmediate>(&e.value)) {
    out += detail::int_literal(i->value, i->is_unsigned);
  } else if (const auto* f = std::get_if<FloatImmediate>(&e.value)) {
    out += detail::float_literal(f->bits, f->width);
  } else {
    const auto& symbol = std::get<std::string>(e.value);
    if (e.generic) {
      out += "generic(";
      out += symbol;
      out += ')';
    } else {
      out += symbol;
    }
    if (e.offset > 0) {
      out += '+';
    }
    if (e.offset != 0) {
      out += detail::signed_decimal(e.offset);
    }
  }
}

// `= {...}`: nested along the dimensions when the element count allows it (PTX reads both
// the nested and the flat form of a multi-dimensional initializer), flat otherwise.
void append_initializers(std::string& out, const VariableDecl& d) {
  std::vector<uint64_t> extents;
  for (const auto& e : d.dims) {
    extents.push_back(e.value_or(0));
  }
  if (d.vector_width > 1) {
    extents.push_back(d.vector_width);
  }
  if (extents.empty() && d.init.size() == 1) {
    out += " = ";
    append_initializer(out, d.init.front());
    return;
  }
  // strides[k]: elements in one list of level k+1 (product of extents[k+1..]).
  std::vector<uint64_t> strides;
  if (extents.size() > 1 && extents.size() <= kMaxInitializerNesting) {
    uint64_t product = 1;
    bool ok = true;
    for (size_t k = extents.size(); k-- > 1;) {
      if (extents[k] == 0 || __builtin_mul_overflow(product, extents[k], &product)) {
        ok = false;
        break;
      }
      strides.insert(strides.begin(), product);
    }
    // A list of the outermost level must not exceed the declared extent either.
    if (!ok || d.init.size() % strides.front() != 0 ||
        (extents[0] != 0 && d.init.size() / strides.front() > extents[0])) {
      strides.clear();
    }
  }
  out += " = {";
  for (size_t i = 0; i < d.init.size(); ++i) {
    if (i > 0) {
      // Close the lists that end before element i, then open those that start at it.
      size_t closing = 0;
      for (uint64_t s : strides) {
        closing += i % s == 0;
      }
      out.append(closing, '}');
      out += ", ";
      out.append(closing, '{');
    } else {
      out.append(strides.size(), '{');
    }
    append_initializer(out, d.init[i]);
  }
  if (!d.init.empty()) {
    out.append(strides.size(), '}');
  }
  out += '}';
}

const char* opaque_spelling(OpaqueType t) {
  switch (t) {
  case OpaqueType::None:
    return "";
  case OpaqueType::Texref:
    return "texref";
  case OpaqueType::Samplerref:
    return "samplerref";
  case OpaqueType::Surfref:
    return "surfref";
  }
  return "";
}

// The declaration without its `;` (parameters are printed inside the parameter list).
void append_variable(std::string& out, const VariableDecl& d) {
  out += linkage_spelling(d.linkage);
  out += '.';
  out += spelling(d.space);
  if (d.managed) {
    out += " .attribute(.managed)";
  }
  if (d.align) {
    out += " .align ";
    out += std::to_string(*d.align);
  }
  if (d.vector_width > 1) {
    out += " .v";
    out += std::to_string(d.vector_width);
  }
  out += " .";
  out += opaque_spelling(d.opaque);
  out += spelling(d.type);
  if (d.is_ptr) {
    out += " .ptr";
    if (d.ptr_space != StateSpace::None) {
      out += " .";
      out += spelling(d.ptr_space);
    }
    if (d.ptr_align) {
      out += " .align ";
      out += std::to_string(*d.ptr_align);
    }
  }
  out += ' ';
  out += d.name;
  for (const auto& extent : d.dims) {
    out += '[';
    if (extent) {
      out += std::to_string(*extent);
    }
    out += ']';
  }
  if (d.has_init) {
    if (d.init.empty()) {
      out += " = {}";
    } else {
      append_initializers(out, d);
    }
  }
}

void append_params(std::string& out, const std::vector<VariableDecl>& params) {
  out += '(';
  for (size_t i = 0; i < params.size(); ++i) {
    out += i == 0 ? "\n\t" : ",\n\t";
    append_variable(out, params[i]);
  }
  out += params.empty() ? ")" : "\n)";
}

void append_pragma(std::string& out, const Pragma& p) {
  out += ".pragma \"";
  out += p.text;
  out += "\";";
}

struct StatementPrinter {
  std::string& out;
  void operator()(const Instruction& ins) const {
    out += '\t';
    append_instruction(out, ins);
    out += '\n';
  }
  void operator()(const Label& l) const {
    out += l.name;
    out += ":\n";
  }
  void operator()(const VariableDecl& d) const {
    out += '\t';
    append_variable(out, d);
    out += ";\n";
  }
  void operator()(const RegisterDecl& r) const {
    out += "\t.reg ";
    if (r.vector_width > 1) {
      out += ".v";
      out += std::to_string(r.vector_width);
      out += ' ';
    }
    out += '.';
    out += spelling(r.type);
    out += " \t";
    out += r.name;
    if (r.count) {
      out += '<';
      out += std::to_string(*r.count);
      out += '>';
    }
    out += ";\n";
  }
  void operator()(const LocDirective& l) const {
    out += "\t.loc\t";
    out += std::to_string(l.where.file);
    out += ' ';
    out += std::to_string(l.where.line);
    out += ' ';
    out += std::to_string(l.where.column);
    if (!l.rest.empty()) {
      if (l.rest.front() != ',') {
        out += ' ';
      }
      out += l.rest;
    }
    out += '\n';
  }
  void operator()(const Pragma& p) const {
    out += '\t';
    append_pragma(out, p);
    out += '\n';
  }
  void operator()(const UnmodeledDirective& d) const {
    out += '\t';
    out += d.text;
    out += ";\n";
  }
  void operator()(const ScopeBegin&) const { out += "\t{\n"; }
  void operator()(const ScopeEnd&) const { out += "\t}\n"; }
};

void append_function(std::string& out, const Function& f) {
  out += linkage_spelling(f.linkage);
  out += f.is_entry ? ".entry " : ".func ";
  if (!f.is_entry && !f.returns.empty()) {
    append_params(out, f.returns);
    out += ' ';
  }
  out += f.name;
  append_params(out, f.params);
  out += '\n';
  for (const PerformanceDirective& p : f.directives) {
    out += '.';
    out += p.name;
    for (size_t i = 0; i < p.values.size(); ++i) {
      out += i == 0 ? " " : ", ";
      out += std::to_string(p.values[i]);
    }
    out += '\n';
  }
  if (!f.has_body) {
    out += ";\n";
    return;
  }
  out += "{\n";
  StatementPrinter printer{out};
  for (const Statement& s : f.body) {
    std::visit(printer, s);
  }
  out += "}\n";
}

struct TopLevelPrinter {
  std::string& out;
  void operator()(const VariableDecl& d) const {
    append_variable(out, d);
    out += ";\n";
  }
  void operator()(const Function& f) const {
    out += '\n';
    append_function(out, f);
  }
  void operator()(const FileDirective& f) const {
    out += "\t.file\t";
    out += std::to_string(f.index);
    out += " \"";
    out += f.path;
    out += '"';
    if (f.timestamp) {
      out += ", ";
      out += std::to_string(*f.timestamp);
      if (f.size) {
        out += ", ";
        out += std::to_string(*f.size);
      }
    }
    out += '\n';
  }
  void operator()(const Pragma& p) const {
    append_pragma(out, p);
    out += '\n';
  }
  void operator()(const UnmodeledDirective& d) const {
    out += d.text;
    out += ";\n";
  }
};

} // namespace

std::string print(const Instruction& instruction) {
  std::string out;
  append_instruction(out, instruction);
  return out;
}

std::string print(const Module& module) {
  std::string out;
  out.reserve(64 * 1024);
  out += ".version ";
  out += std::to_string(module.version_major);
  out += '.';
  out += std::to_string(module.version_minor);
  out += '\n';
  if (!module.targets.empty()) {
    out += ".target ";
    for (size_t i = 0; i < module.targets.size(); ++i) {
      if (i > 0) {
        out += ", ";
      }
      out += module.targets[i];
    }
    out += '\n';
  }
  out += ".address_size ";
  out += std::to_string(module.address_size);
  out += "\n\n";
  TopLevelPrinter printer{out};
  for (const TopLevel& item : module.items) {
    std::visit(printer, item);
  }
  for (const DebugSection& s : module.debug_sections) {
    out += "\t.section\t";
    out += s.name;
    out += "\n\t{";
    out += s.body;
    out += "}\n";
  }
  return out;
}

} // namespace volta::ptx
