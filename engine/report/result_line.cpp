#include "engine/report/result_line.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ostream>

#include "engine/report/difference_lines.hpp"
#include "engine/report/float_error_lines.hpp"
#include "engine/report/printable_text.hpp"
#include "engine/report/report_json.hpp"

namespace volta::report {

const char* verdict_color(bool matches, Verdict v) {
  if (!matches)
    return "\033[1;31m"; // bold red
  if (v == Verdict::Equivalent || v == Verdict::RaceFree)
    return "\033[32m"; // green
  return "\033[33m";   // an expected finding (a race the manifest expects): yellow
}

namespace {

std::string site_text(const exec::Site& s) {
  if (!s.cuda_file.empty())
    return fmt::format("{}:{}", s.cuda_file, s.cuda_line);
  return fmt::format("PTX line {}", s.ptx_line);
}

bool in_first_cta(const exec::Site& s) {
  return s.ctaid[0] == 0 && s.ctaid[1] == 0 && s.ctaid[2] == 0;
}

// The CTA is left out only when every site of the failure lies in CTA (0,0,0): "thread 0" next
// to "thread 0 of CTA (1,0,0)" would read as the same thread.
std::string thread_text(const exec::Site& s, bool name_cta) {
  if (!name_cta)
    return fmt::format("thread {}", s.thread);
  return fmt::format("thread {} of CTA ({},{},{})", s.thread, s.ctaid[0], s.ctaid[1], s.ctaid[2]);
}

} // namespace

void print_result_line(std::ostream& out, const entry::EntryResult& r, const LineStyle& style) {
  const bool ok = r.matches();
  const char* on = style.color ? verdict_color(ok, r.verdict) : "";
  const char* off = style.color ? kReset : "";
  const char* dim = style.color ? kDim : "";
  std::string line = fmt::format("{}{:<18}{} {:<{}}  {:>8.3f}s", on, to_string(r.verdict), off,
                                 printable(r.name), style.name_width, r.seconds);
  // A verdict over part of the launch says so on its own line, where it cannot be missed.
  if (const std::string scope = entry::cta_scope(r.kernels); !scope.empty())
    line += fmt::format("  [{} only]", scope);
  // So does a verdict that holds under an assumption (--assume-converged-waits).
  if (!r.assumptions.empty())
    line += fmt::format("  [assuming {}]", fmt::join(r.assumptions, ", "));
  if (r.beyond_float_tolerance()) { // EQUIVALENT over the reals, failing as a contract
    line += fmt::format("  {}beyond float tolerance{}", on, off);
  } else if (!ok) {
    line +=
        r.expected
            ? fmt::format("  {}expected {}{}", on, to_string(*r.expected), off)
            : fmt::format("  {}expected {}{}", on,
                          r.kind == launch::EntryKind::RaceCheck ? "RACE_FREE" : "EQUIVALENT", off);
  }
  out << line << "\n";
  const bool plain_pass =
      ok && (r.verdict == Verdict::Equivalent || r.verdict == Verdict::RaceFree);
  if (!r.detail.empty() && !plain_pass)
    out << "    " << r.detail << "\n";
  if (r.failure && r.failure->first && !r.failure->first->cuda_file.empty()) {
    const auto& f = *r.failure;
    const bool name_cta = !in_first_cta(*f.first) || (f.second && !in_first_cta(*f.second));
    std::string where =
        fmt::format("    {}at {} ({})", dim, site_text(*f.first), thread_text(*f.first, name_cta));
    if (f.second) {
      where += fmt::format(", {} {} ({})",
                           f.verdict == Verdict::DataRace ? "conflicting access at" : "and at",
                           site_text(*f.second), thread_text(*f.second, name_cta));
    }
    out << where << off << "\n";
  }
  if (r.verdict == Verdict::Equivalent && r.cross_check) {
    for (const std::string& l : float_error_lines(to_json(*r.cross_check))) {
      const bool failing = l.starts_with("beyond the float tolerance");
      out << fmt::format("    {}{}{}\n", failing ? on : dim, printable(l), off);
    }
  }
  if (r.verdict == Verdict::Equivalent) {
    bool any = false;
    for (const auto& t : r.output_types)
      any = any || t.rounding_bound.has_value();
    if (any) {
      for (const std::string& l : rounding_bound_lines(to_json(r)["output_types"]))
        out << fmt::format("    {}{}{}\n", dim, printable(l), off);
    }
  }
  if (r.verdict == Verdict::Inconsistent && r.cross_check && r.cross_check->contradiction) {
    out << fmt::format("    {}a bug of volta-eg (the proof or the emulator): please report it; "
                       "`volta-eg run ... --cross-check-input {}` runs both kernels on that "
                       "input{}\n",
                       dim, r.cross_check->contradiction->input, off);
  }
  if (r.counterexample && r.counterexample->inputs.empty() && r.counterexample->confirmed &&
      !r.counterexample->reference_device.empty()) {
    const auto& c = *r.counterexample;
    out << fmt::format("    {}counterexample: every input 0; run on the emulator (IEEE "
                       "arithmetic): {} stores {} (reference) vs {} (optimized){}\n",
                       dim, c.element, c.reference_device, c.optimized_device, off);
  }
  if (r.counterexample && !r.counterexample->inputs.empty()) {
    const auto& c = *r.counterexample;
    std::string inputs;
    size_t shown = 0;
    for (const auto& [k, v] : c.inputs) {
      if (shown++ == 8) {
        inputs += fmt::format(", ... ({} inputs)", c.inputs.size());
        break;
      }
      inputs += fmt::format("{}{}={}", shown > 1 ? ", " : "", k, v);
    }
    out << fmt::format("    {}counterexample: {} (every other input 0){}\n", dim, inputs, off);
    if (!c.reference_device.empty()) {
      // Equal stores: the kernels differ over the reals (the contract), by less than float
      // rounding at this input; say so rather than let the line read as a contradiction.
      const bool same = c.reference_device == c.optimized_device;
      out << fmt::format("    {}run on the emulator (IEEE arithmetic): {} stores {} (reference) vs "
                         "{} (optimized){}{}\n",
                         dim, c.element, c.reference_device, c.optimized_device,
                         same ? "; the same value: here the difference over the reals is below "
                                "float rounding"
                              : "",
                         off);
    }
    if (c.device_witness) {
      const DeviceWitness& w = *c.device_witness;
      std::string at;
      for (const auto& [k, v] : w.inputs)
        at += fmt::format("{}{}={}", at.empty() ? "" : ", ", k, v);
      out << fmt::format("    {}on the device they differ at {} (found on the emulator): {} "
                         "stores {} (reference) vs {} (optimized){}\n",
                         dim, at.empty() ? "every input 0" : at + " (every other input 0)",
                         c.element, w.reference_device, w.optimized_device, off);
    }
  }
  if (r.undecided) {
    const entry::UndecidedElement& u = *r.undecided;
    if (!u.reference_subterm.empty()) {
      out << fmt::format("    {}left undecided: {} (reference) vs {} (optimized){}\n", dim,
                         printable(u.reference_subterm), printable(u.optimized_subterm), off);
    }
    if (!u.limit.empty())
      out << fmt::format("    {}stopped by: {}{}\n", dim, printable(u.limit), off);
    for (const std::string& s : u.suggestions)
      out << fmt::format("    {}to decide it: {}{}\n", dim, printable(s), off);
  }
  if (r.counterexample && r.counterexample->location) {
    for (const std::string& line : difference_lines(*r.counterexample->location))
      out << fmt::format("    {}{}{}\n", dim, printable(line), off);
  }
}

} // namespace volta::report
