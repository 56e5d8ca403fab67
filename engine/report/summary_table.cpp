#include "engine/report/summary_table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

#include "engine/report/printable_text.hpp"
#include "engine/report/result_line.hpp"

namespace volta::report {

namespace {

constexpr size_t kMaxName = 48;

std::string clip(const std::string& name) {
  if (name.size() <= kMaxName)
    return name;
  std::string s = name.substr(0, kMaxName - 3);
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)
    s.pop_back();
  if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0)
    s.pop_back();
  return s + "...";
}

// Display width of UTF-8 text (code points; good enough for entry names).
size_t width_of(const std::string& s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, size_t width) {
  return s + std::string(width - std::min(width, width_of(s)), ' ');
}

std::string verdict_list(const nlohmann::json& verdicts) {
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [v, n] : verdicts.items())
    sorted.emplace_back(n.get<int>(), v);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (const auto& [n, v] : sorted)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, v);
  return text;
}

} // namespace

void print_summary_table(std::ostream& out, const nlohmann::json& report, bool color) {
  const auto& results = report.at("results");
  const auto& summary = report.at("summary");
  size_t name_width = 5;
  for (const auto& r : results)
    name_width = std::max(name_width, width_of(clip(printable(r.value("name", "")))));
  const char* bold = color ? kBold : "";
  const char* off = color ? kReset : "";
  out << "\n"
      << bold
      << fmt::format("{}  {:<18} {:<18} {:<5} {:>9}", pad("entry", name_width), "verdict",
                     "expected", "match", "seconds")
      << off << "\n";
  for (const auto& r : results) {
    const bool match = r.value("match", false);
    const std::string verdict = r.value("verdict", "ERROR");
    const std::string expected = r["expected"].is_string() ? r["expected"].get<std::string>() : "-";
    const auto v = verdict_from(verdict).value_or(Verdict::Error);
    const char* on = color ? verdict_color(match, v) : "";
    out << fmt::format("{}  {}{:<18}{} {:<18} {}{:<5}{} {:>9.3f}\n",
                       pad(clip(printable(r.value("name", ""))), name_width), on, verdict, off,
                       expected, match ? "" : on, match ? "yes" : "NO", match ? "" : off,
                       r.value("seconds", 0.0));
  }
  const size_t entries = summary.value("entries", size_t{0});
  const size_t matched = summary.value("matched", size_t{0});
  const size_t mismatched = entries - matched;
  const char* verdict_on = color ? (mismatched == 0 ? "\033[1;32m" : "\033[1;31m") : "";
  out << "\n"
      << fmt::format("{}{} {}: {} as expected, {} not{}  ({})\n", verdict_on, entries,
                     entries == 1 ? "entry" : "entries", matched, mismatched, off,
                     verdict_list(summary.at("verdicts")));
  std::string line = fmt::format("{:.2f}s of work in {:.2f}s", summary.value("seconds", 0.0),
                                 summary.value("wall_seconds", 0.0));
  const auto& elements = summary.at("elements");
  if (elements.value("total", uint64_t{0}) > 0) {
    const uint64_t by_rules = elements.value("rules", uint64_t{0});
    line += fmt::format(
        "; {} elements proved ({} direct, {} by template reuse, {}{} by Z3, {} from the proof "
        "cache)",
        elements.value("direct", uint64_t{0}) + elements.value("reused", uint64_t{0}) + by_rules +
            elements.value("z3", uint64_t{0}) + elements.value("cached", uint64_t{0}),
        elements.value("direct", uint64_t{0}), elements.value("reused", uint64_t{0}),
        by_rules ? fmt::format("{} by rules, ", by_rules) : std::string(),
        elements.value("z3", uint64_t{0}), elements.value("cached", uint64_t{0}));
  }
  out << line << "\n";
  if (!summary.at("guards").empty()) {
    std::string guards;
    for (const auto& [g, n] : summary.at("guards").items()) {
      guards += fmt::format("{}{} {}", guards.empty() ? "" : ", ", n.get<int>(), g);
    }
    out << "stopped by a resource guard: " << guards << "\n";
  }
  if (summary.contains("cross_checks")) {
    const nlohmann::json& c = summary["cross_checks"];
    const int contradictions = c.value("contradictions", 0), skipped = c.value("skipped", 0);
    if (contradictions > 0) {
      out << fmt::format("{}{} EQUIVALENT contradicted by the emulator cross-check (INCONSISTENT, "
                         "exit status 3): a bug of volta-eg, please report it{}\n",
                         color ? kRed : "", contradictions, off);
    }
    if (skipped > 0) {
      out << fmt::format("emulator cross-check skipped for {} EQUIVALENT {} (the reason is in "
                         "the JSON report)\n",
                         skipped, skipped == 1 ? "entry" : "entries");
    }
  }
  if (summary.value("bad_input", size_t{0}) > 0) {
    out << fmt::format("{}{} {} with bad input (exit status 2){}\n", color ? kRed : "",
                       summary.value("bad_input", size_t{0}),
                       summary.value("bad_input", size_t{0}) == 1 ? "entry" : "entries", off);
  }
}

} // namespace volta::report
