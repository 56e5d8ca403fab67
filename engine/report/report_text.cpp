#include "engine/report/report_text.hpp"

#include <fmt/format.h>

namespace volta::report {

std::string counterexample_inputs(const nlohmann::json& entry) {
  if (!entry.contains("counterexample") || !entry["counterexample"].is_object())
    return "";
  std::string text;
  const nlohmann::json inputs = entry["counterexample"].value("inputs", nlohmann::json::object());
  for (const auto& [k, v] : inputs.items()) {
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", k,
                        v.is_string() ? v.get<std::string>() : v.dump());
  }
  return text;
}

bool outside_first_cta(const nlohmann::json& site) {
  const auto& cta = site.value("cta", nlohmann::json::array({0, 0, 0}));
  return cta.is_array() && cta.size() == 3 && (cta[0] != 0 || cta[1] != 0 || cta[2] != 0);
}

std::string site_description(const nlohmann::json& site, const std::string& ptx, bool name_cta) {
  std::string text;
  if (site.contains("cuda") && site["cuda"].is_object()) {
    text = fmt::format("{}:{} (PTX {}:{}:{})", site["cuda"].value("file", ""),
                       site["cuda"].value("line", 0), ptx, site.value("ptx_line", 0),
                       site.value("ptx_column", 0));
  } else {
    text = fmt::format("{}:{}:{}", ptx, site.value("ptx_line", 0), site.value("ptx_column", 0));
  }
  const auto& cta = site.value("cta", nlohmann::json::array({0, 0, 0}));
  text += fmt::format(", thread {}", site.value("linear_thread", 0));
  if (cta.is_array() && cta.size() == 3 && (name_cta || outside_first_cta(site))) {
    text +=
        fmt::format(" of CTA ({},{},{})", cta[0].get<int>(), cta[1].get<int>(), cta[2].get<int>());
  }
  return text;
}

std::string kernel_ptx(const nlohmann::json& entry, const std::string& role) {
  if (!entry.contains("kernels") || !entry["kernels"].is_array())
    return "";
  for (const auto& k : entry["kernels"]) {
    if (k.value("role", "") == role)
      return k.value("ptx", "");
  }
  return "";
}

} // namespace volta::report
