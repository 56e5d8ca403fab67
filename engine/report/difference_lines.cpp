#include "engine/report/difference_lines.hpp"

#include <fmt/format.h>

namespace volta::report {

namespace {

// "k.cu:12 (PTX line 40) in the reference and k_opt.cu:12 (PTX line 41) in the optimized
// kernel", or one place for both when the kernels share a CUDA line.
std::string both_places(const std::optional<SourcePoint>& ref,
                        const std::optional<SourcePoint>& opt) {
  auto place = [](const std::optional<SourcePoint>& p) {
    return p ? point_text(*p) : std::string("an unknown line");
  };
  if (ref && opt && !ref->cuda_file.empty() && ref->cuda_file == opt->cuda_file &&
      ref->cuda_line == opt->cuda_line) {
    return fmt::format("{}:{} (PTX line {} in the reference, {} in the optimized kernel)",
                       ref->cuda_file, ref->cuda_line, ref->ptx_line, opt->ptx_line);
  }
  return fmt::format("{} in the reference and {} in the optimized kernel", place(ref), place(opt));
}

} // namespace

std::string point_text(const SourcePoint& p) {
  if (!p.cuda_file.empty())
    return fmt::format("{}:{} (PTX line {})", p.cuda_file, p.cuda_line, p.ptx_line);
  return fmt::format("PTX line {}", p.ptx_line);
}

std::vector<std::string> difference_lines(const DifferenceLocation& d) {
  std::vector<std::string> out;
  if (d.reference_store || d.optimized_store)
    out.push_back("stored at " + both_places(d.reference_store, d.optimized_store));
  if (d.reference_parting || d.optimized_parting) {
    const bool uses = d.reference_parting_uses || d.optimized_parting_uses;
    out.push_back(fmt::format("the two computations part at {}",
                              both_places(d.reference_parting, d.optimized_parting)));
    out.push_back(fmt::format("{}{} = {} (reference) vs {} = {} (optimized)",
                              uses ? "operands " : "values ", d.reference_subterm,
                              d.reference_subterm_value, d.optimized_subterm,
                              d.optimized_subterm_value));
  }
  if (d.reference_origin || d.optimized_origin) {
    out.push_back(fmt::format("the differing subterm{} first made at {}",
                              d.reference_origin && d.optimized_origin ? "s were" : " was",
                              d.reference_origin && d.optimized_origin
                                  ? both_places(d.reference_origin, d.optimized_origin)
                              : d.reference_origin
                                  ? point_text(*d.reference_origin) + " in the reference"
                                  : point_text(*d.optimized_origin) + " in the optimized kernel"));
  }
  if (!d.note.empty())
    out.push_back("location: " + d.note);
  return out;
}

} // namespace volta::report
