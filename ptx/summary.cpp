// Module summaries for `volta-eg parse` (see summary.hpp).
#include "ptx/summary.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <range/v3/algorithm/sort.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/indirect.hpp>
#include <range/v3/view/transform.hpp>
#include <unordered_map>

namespace volta::ptx {

std::string declared_type(const VariableDecl& d) {
  std::string out;
  auto word = [&out](std::string_view w) {
    if (!out.empty()) {
      out += ' ';
    }
    out += w;
  };
  if (d.align) {
    word(fmt::format(".align {}", *d.align));
  }
  if (d.vector_width > 1) {
    word(fmt::format(".v{}", d.vector_width));
  }
  word(fmt::format(".{}", spelling(d.type)));
  if (d.is_ptr) {
    word(".ptr");
    if (d.ptr_space != StateSpace::None) {
      word(fmt::format(".{}", spelling(d.ptr_space)));
    }
    if (d.ptr_align) {
      word(fmt::format(".align {}", *d.ptr_align));
    }
  }
  if (!d.dims.empty()) {
    std::string dims;
    for (const auto& extent : d.dims) {
      dims += extent ? fmt::format("[{}]", *extent) : std::string("[]");
    }
    word(dims);
  }
  return out;
}

std::string instruction_form(const Instruction& ins) {
  std::string out = ins.opcode_name;
  for (const std::string& s : ins.suffixes) {
    out += '.';
    out += s;
  }
  return out;
}

namespace {
namespace views = ranges::views;

// The alternatives of type T in a range of variants, as references.
template <class T, class Range>
auto alternatives(const Range& variants) {
  return variants | views::transform([](const auto& v) { return std::get_if<T>(&v); }) |
         views::filter([](const T* p) { return p != nullptr; }) | views::indirect;
}
} // namespace

ModuleSummary summarize(const Module& module) {
  ModuleSummary s;
  s.version_major = module.version_major;
  s.version_minor = module.version_minor;
  s.targets = module.targets;
  s.address_size = module.address_size;
  std::unordered_map<std::string, size_t> counts;
  auto definitions = alternatives<Function>(module.items) |
                           views::filter([](const Function& f) { return f.has_body; });
  for (const Function& f : definitions) {
    ++s.functions;
    size_t instructions = 0;
    for (const Instruction& ins : alternatives<Instruction>(f.body)) {
      ++instructions;
      ++counts[instruction_form(ins)];
    }
    s.instructions += instructions;
    if (f.is_entry) {
      s.kernels.push_back(KernelSummary{f.name,
                                        f.params | views::transform([](const VariableDecl& p) {
                                          return ParamSummary{p.name, declared_type(p)};
                                        }) | ranges::to<std::vector>(),
                                        instructions});
    }
  }
  s.histogram = counts | views::transform([](const auto& form_and_count) {
                  return OpcodeCount{form_and_count.first, form_and_count.second};
                }) |
                ranges::to<std::vector>();
  ranges::sort(s.histogram, [](const OpcodeCount& a, const OpcodeCount& b) {
    return a.count != b.count ? a.count > b.count : a.form < b.form;
  });
  return s;
}

std::string format_summary(const std::string& path, const ModuleSummary& s) {
  std::string out = fmt::format("{}\n", path);
  std::string targets;
  for (size_t i = 0; i < s.targets.size(); ++i) {
    targets += (i > 0 ? ", " : "") + s.targets[i];
  }
  out += fmt::format("  PTX {}.{}, target {}, address size {}\n", s.version_major, s.version_minor,
                     targets.empty() ? "(none)" : targets, s.address_size);
  for (const KernelSummary& k : s.kernels) {
    out += fmt::format("  kernel {} ({} parameter{}, {} instruction{})\n", k.name, k.params.size(),
                       k.params.size() == 1 ? "" : "s", k.instructions,
                       k.instructions == 1 ? "" : "s");
    size_t width = 0;
    for (const ParamSummary& p : k.params) {
      width = std::max(width, p.name.size());
    }
    for (const ParamSummary& p : k.params) {
      out += fmt::format("    {:<{}}  {}\n", p.name, width, p.type);
    }
  }
  if (s.kernels.empty()) {
    out += "  no kernels\n";
  }
  out += fmt::format("  instructions: {} in {} function{}, {} distinct form{}\n", s.instructions,
                     s.functions, s.functions == 1 ? "" : "s", s.histogram.size(),
                     s.histogram.size() == 1 ? "" : "s");
  size_t width = 0;
  for (const OpcodeCount& c : s.histogram) {
    width = std::max(width, c.form.size());
  }
  for (const OpcodeCount& c : s.histogram) {
    out += fmt::format("    {:<{}}  {:>6}\n", c.form, width, c.count);
  }
  return out;
}

} // namespace volta::ptx
