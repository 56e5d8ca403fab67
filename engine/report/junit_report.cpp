#include "engine/report/junit_report.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "engine/report/float_error_lines.hpp"
#include "engine/report/report_text.hpp"
#include "engine/report/tool_version.hpp"

namespace volta::report {

using nlohmann::json;

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    case '\t':
    case '\n':
    case '\r':
      // Attribute values are normalized by XML parsers (a newline becomes a space) unless
      // written as character references; element text keeps them as they are.
      if (attribute) {
        out += fmt::format("&#{};", static_cast<int>(c));
      } else {
        out += ch;
      }
      break;
    default:
      if (c < 0x20 || c == 0x7f)
        break; // not allowed in XML 1.0 (0x7f: allowed but useless)
      out += ch;
    }
  }
  return out;
}

namespace {

// The sites of one finding (the report's `safety`, or one of its `races`).
std::string finding_sites(const json& r, const json& s) {
  std::string text;
  const std::string ptx = kernel_ptx(r, s.value("kernel", ""));
  const auto site = [&](const char* key) -> const json* {
    return s.contains(key) && s[key].is_object() ? &s[key] : nullptr;
  };
  const json* first = site("access");
  const json* second = site("conflicting_access");
  const bool name_cta =
      (first && outside_first_cta(*first)) || (second && outside_first_cta(*second));
  if (first)
    text += "\nat " + site_description(*first, ptx, name_cta);
  if (second) {
    text += (s.value("verdict", "") == "DATA_RACE" ? "\nconflicting access at " : "\nand at ") +
            site_description(*second, ptx, name_cta);
  }
  return text;
}

// The failure / system-out text of an entry: the detail, where (every race), and the
// counterexample.
std::string entry_text(const json& r) {
  std::string text = r.value("detail", "");
  if (r.contains("cta_scope") && r["cta_scope"].is_string())
    text += fmt::format(" [{} only]", r["cta_scope"].get<std::string>());
  if (r.contains("safety") && r["safety"].is_object())
    text += finding_sites(r, r["safety"]);
  // Every distinct race after the first (the first is `safety`).
  const json races = r.value("races", json::array());
  for (size_t k = 1; k < races.size(); ++k) {
    text += fmt::format("\nrace {} of {}: {}", k + 1, races.size(), races[k].value("message", ""));
    text += finding_sites(r, races[k]);
  }
  if (r.value("races_truncated", false))
    text += "\n(more races: the report keeps the first 16)";
  const std::string inputs = counterexample_inputs(r);
  if (!inputs.empty())
    text += "\ncounterexample: " + inputs + " (every other input 0)";
  if (r.value("verdict", "") == "EQUIVALENT" && r.contains("cross_check")) {
    for (const std::string& line : float_error_lines(r["cross_check"]))
      text += (text.empty() ? "" : "\n") + line;
  }
  return text;
}

std::string property(const std::string& name, const std::string& value) {
  return fmt::format("        <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name, true),
                     xml_escape(value, true));
}

} // namespace

std::string junit_xml(const json& report) {
  const json& results = report.at("results");
  const std::string command = report.value("command", "prove");
  std::string manifest = report.value("manifest", "");
  size_t failures = 0, skipped = 0;
  double seconds = 0;
  for (const auto& r : results) {
    // An entry an interrupt kept from finishing is skipped, not failed.
    if (r.value("not_run", false))
      ++skipped;
    else
      failures += r.value("match", false) ? 0 : 1;
    seconds += r.value("seconds", 0.0);
  }
  const std::string suite =
      fmt::format("{} {}{}", kToolName, command, manifest.empty() ? "" : " " + manifest);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
                     "skipped=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(suite, true), results.size(), failures, skipped, seconds);
  xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
                     "skipped=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(suite, true), results.size(), failures, skipped, seconds);
  xml += "    <properties>\n";
  xml += property("tool", fmt::format("{} {}", kToolName, kToolVersion)).substr(2);
  if (!manifest.empty())
    xml += property("manifest", manifest).substr(2);
  if (report.contains("shard") && report["shard"].is_object()) {
    xml += property("shard", fmt::format("{}/{}", report["shard"].value("index", 0),
                                         report["shard"].value("count", 1)))
               .substr(2);
  }
  xml += "    </properties>\n";
  for (const auto& r : results) {
    const std::string verdict = r.value("verdict", "ERROR");
    // Without an expectation, the passing verdict of the entry's kind.
    const std::string implied = r.value("kind", "") == "race_check" ? "RACE_FREE" : "EQUIVALENT";
    const std::string expected =
        r["expected"].is_string() ? r["expected"].get<std::string>() : implied;
    const double time = r.value("seconds", 0.0);
    xml += fmt::format("    <testcase name=\"{}\" classname=\"{}.{}.{}\" time=\"{:.3f}\">\n",
                       xml_escape(r.value("name", ""), true), kToolName, command,
                       r.value("kind", "entry"), time);
    xml += "      <properties>\n";
    xml += property("verdict", verdict);
    xml += property("expected", expected);
    xml += property("seconds", fmt::format("{:.3f}", time));
    xml += property("kind", r.value("kind", ""));
    if (r.contains("guard") && r["guard"].is_string())
      xml += property("guard", r["guard"].get<std::string>());
    if (r.contains("cache_hits"))
      xml += property("cache_hits", std::to_string(r.value("cache_hits", 0)));
    // The measured float divergence of an EQUIVALENT (issue 35): the largest over its arrays.
    if (r.contains("cross_check") && r["cross_check"].is_object()) {
      const nlohmann::json& c = r["cross_check"];
      uint64_t ulp = 0;
      double rel = 0, scaled = 0;
      for (const auto& a : c.value("arrays", nlohmann::json::array())) {
        if (a.value("compared_as", "") != "real")
          continue;
        ulp = std::max(ulp, a.value("max_ulp", uint64_t{0}));
        rel = std::max(rel, a.value("max_rel", 0.0));
        scaled = std::max(scaled, a.value("max_scaled", 0.0));
      }
      if (c.value("ran", false)) {
        xml += property("float_max_ulp", std::to_string(ulp));
        xml += property("float_max_rel", fmt::format("{:.3g}", rel));
        xml += property("float_max_scaled", fmt::format("{:.3g}", scaled));
      }
      if (c.contains("float_tolerance") && c["float_tolerance"].is_object())
        xml += property("float_tolerance", c["float_tolerance"].value("status", ""));
    }
    xml += "      </properties>\n";
    const std::string text = entry_text(r);
    if (r.value("not_run", false)) {
      xml += fmt::format("      <skipped message=\"{}\"/>\n",
                         xml_escape(r.value("detail", "not run"), true));
    } else if (!r.value("match", false)) {
      const std::string tolerance =
          float_tolerance_failure(r.value("cross_check", nlohmann::json()));
      const std::string message = tolerance.empty()
                                      ? fmt::format("verdict {}, expected {}", verdict, expected)
                                      : fmt::format("verdict {}, {}", verdict, tolerance);
      xml += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                         xml_escape(message, true), xml_escape(verdict, true),
                         xml_escape(text, false));
    }
    if (!text.empty())
      xml += fmt::format("      <system-out>{}</system-out>\n", xml_escape(text, false));
    xml += "    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

} // namespace volta::report
