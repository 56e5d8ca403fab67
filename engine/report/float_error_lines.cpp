#include "engine/report/float_error_lines.hpp"

#include <fmt/format.h>
#include <iterator>

namespace volta::report {

namespace {

using nlohmann::json;

bool real_array(const json& a) {
  return a.value("compared_as", "") == "real";
}

std::string tolerance_text(const json& t) {
  return fmt::format("rel={:g}, abs={:g}", t.value("rel", 0.0), t.value("abs", 0.0));
}

} // namespace

std::string cross_check_input_name(uint32_t set) {
  static constexpr const char* kNames[] = {"specials", "moderate", "wide"};
  return set < std::size(kNames) ? kNames[set] : fmt::format("set {}", set);
}

std::string float_tolerance_failure(const json& c) {
  if (!c.is_object() || !c.contains("float_tolerance") || !c["float_tolerance"].is_object())
    return "";
  const json& t = c["float_tolerance"];
  if (t.value("status", "") != "beyond")
    return "";
  std::string parts;
  for (const json& a : c.value("arrays", json::array())) {
    const uint64_t n = a.value("beyond_tolerance", uint64_t{0});
    if (n == 0)
      continue;
    parts += fmt::format("{}{} element{} of {}, e.g. {}", parts.empty() ? "" : "; ", n,
                         n == 1 ? "" : "s", a.value("array", ""),
                         a.value("beyond_tolerance_example", ""));
  }
  return fmt::format("beyond the float tolerance {}: {}", tolerance_text(t), parts);
}

std::vector<std::string> float_error_lines(const json& c) {
  std::vector<std::string> lines;
  if (!c.is_object())
    return lines;
  for (const json& a : c.value("arrays", json::array())) {
    if (!real_array(a) || a.value("max_ulp", uint64_t{0}) <= kShownUlps)
      continue;
    const json& input = a.contains("max_input_name") ? a["max_input_name"] : json();
    lines.push_back(fmt::format(
        "float divergence on the emulator: {} up to {} ulp apart (max abs {:.3g}, rel {:.3g}{}; "
        "{:.3g} of the array's largest magnitude)",
        a.value("array", ""), a.value("max_ulp", uint64_t{0}), a.value("max_abs", 0.0),
        a.value("max_rel", 0.0),
        a["max_element"].is_string()
            ? fmt::format(" at {} on input '{}'", a["max_element"].get<std::string>(),
                          input.is_string() ? input.get<std::string>() : "?")
            : "",
        a.value("max_scaled", 0.0)));
  }
  for (const json& a : c.value("arrays", json::array())) {
    const uint64_t n = a.value("beyond_rounding", uint64_t{0});
    if (!real_array(a) || n == 0)
      continue;
    lines.push_back(fmt::format(
        "warning: {}: {} element{} apart beyond rounding where neither kernel overflowed: a "
        "kernel loses precision in float (a catastrophic cancellation, or a small term absorbed "
        "by a large one), though EQUIVALENT over the reals",
        a.value("array", ""), n, n == 1 ? "" : "s"));
  }
  if (c.contains("float_tolerance") && c["float_tolerance"].is_object()) {
    const json& t = c["float_tolerance"];
    const std::string status = t.value("status", "");
    if (status == "beyond")
      lines.push_back(float_tolerance_failure(c));
    else if (status == "not_measured")
      lines.push_back(fmt::format("the float tolerance {} is not measured: the emulator "
                                  "cross-check did not run",
                                  tolerance_text(t)));
  }
  return lines;
}

std::vector<std::string> rounding_bound_lines(const nlohmann::json& output_types) {
  std::vector<std::string> lines;
  if (!output_types.is_array())
    return lines;
  for (const auto& t : output_types) {
    const auto& b = t.value("rounding_bound", nlohmann::json());
    if (!b.is_object())
      continue;
    const uint64_t bounded = b.value("bounded", uint64_t{0});
    const uint64_t unbounded = b.value("unbounded", uint64_t{0});
    std::string line =
        fmt::format("rounding bound over the input ranges: {}: ", t.value("array", std::string()));
    if (bounded != 0) {
      line += fmt::format("the kernels' stores at most {:.3g} apart (reference {:.3g}, optimized "
                          "{:.3g}; {} of {} elements)",
                          b.value("apart", 0.0), b.value("reference", 0.0),
                          b.value("optimized", 0.0), bounded, bounded + unbounded);
    } else {
      line += fmt::format("no element bounded ({})", unbounded);
    }
    if (unbounded != 0 && b["why_unbounded"].is_string())
      line += fmt::format("; not bounded: {}", b["why_unbounded"].get<std::string>());
    lines.push_back(std::move(line));
  }
  return lines;
}

} // namespace volta::report
