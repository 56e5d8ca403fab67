#include "engine/report/sarif_report.hpp"

#include <array>
#include <fmt/format.h>

#include "engine/content_hash.hpp"
#include "engine/report/float_error_lines.hpp"
#include "engine/report/report_text.hpp"
#include "engine/report/tool_version.hpp"

namespace volta::report {

using nlohmann::json;

namespace {

struct Rule {
  const char* id;
  const char* verdict;
  const char* name;
  const char* level;
  const char* short_text;
  const char* full_text;
};

constexpr std::array<Rule, 8> kRules = {{
    {"data-race", "DATA_RACE", "DataRace", "error", "Data race",
     "Two threads access the same memory location without synchronization between them, and at "
     "least one "
     "access is a write: the result depends on the schedule."},
    {"out-of-bounds", "OUT_OF_BOUNDS", "OutOfBounds", "error", "Out-of-bounds or misaligned access",
     "A memory access outside the arrays of the launch configuration (or outside a shared or local "
     "allocation), or an access not aligned to its size."},
    {"deadlock", "DEADLOCK", "Deadlock", "error", "Deadlock",
     "Threads wait at barriers that can never complete: the kernel hangs on a GPU."},
    {"barrier-divergence", "BARRIER_DIVERGENCE", "BarrierDivergence", "error", "Barrier divergence",
     "A barrier is reached by only part of the threads (or of a warp's lanes) that must reach it "
     "together."},
    {"uninitialized", "UNINITIALIZED", "Uninitialized", "error", "Uninitialized value in an output",
     "An output element is computed from memory or registers that were never written."},
    {"unsupported", "UNSUPPORTED", "Unsupported", "warning", "Outside what volta-eg models",
     "The kernel uses a feature volta-eg does not model (for example a branch on input data): "
     "nothing is "
     "proved about it."},
    {"not-equivalent", "NOT_EQUIVALENT", "NotEquivalent", "error", "Kernels not equivalent",
     "The optimized kernel computes a different value than the reference kernel for some output "
     "element, "
     "over the reals; the result gives a counterexample."},
    {"inconsistent", "INCONSISTENT", "Inconsistent", "error", "Proof contradicted by the emulator",
     "The prover said EQUIVALENT, but the bit-exact emulator, run on the two kernels afterwards, "
     "shows an output the proof excludes on a concrete input: a bug of volta-eg (the proof or "
     "the emulator), to be reported; the kernels' equivalence is not established."},
}};

// The float story of an EQUIVALENT (issue 35, engine/report/float_error_lines.hpp): no verdict
// of their own (the entry stays EQUIVALENT over the reals), after kRules in the rule list.
constexpr std::array<Rule, 2> kFloatRules = {{
    {"float-tolerance", "EQUIVALENT", "FloatTolerance", "error",
     "Float divergence beyond the tolerance",
     "The kernels are EQUIVALENT over the reals, but on the bit-exact emulator some output "
     "element of the two is further apart than the entry's float tolerance (|reference - "
     "optimized| > abs + rel * |reference|): the contract the user set fails."},
    {"float-precision-loss", "EQUIVALENT", "FloatPrecisionLoss", "warning",
     "Precision lost in float",
     "The kernels are EQUIVALENT over the reals, but on the bit-exact emulator some output "
     "element of the two is apart beyond rounding where neither kernel overflowed: one kernel "
     "loses precision in float (a catastrophic cancellation, a small term absorbed by a large "
     "one)."},
}};

json physical(const std::string& path, uint32_t line, uint32_t column) {
  json artifact = {{"uri", path_to_uri(path)}};
  if (!path.empty() && path[0] != '/')
    artifact["uriBaseId"] = "%SRCROOT%";
  json loc = {{"artifactLocation", artifact}};
  if (line > 0) {
    json region = {{"startLine", line}};
    if (column > 0)
      region["startColumn"] = column;
    loc["region"] = region;
  }
  return loc;
}

// The location of a safety site: its CUDA line when known, else its PTX line.
json site_location(const json& site, const std::string& ptx, const std::string& what) {
  json loc;
  if (site.contains("cuda") && site["cuda"].is_object()) {
    loc["physicalLocation"] =
        physical(site["cuda"].value("file", ""), site["cuda"].value("line", 0u), 0);
  } else {
    loc["physicalLocation"] =
        physical(ptx, site.value("ptx_line", 0u), site.value("ptx_column", 0u));
  }
  loc["message"] = {{"text", what}};
  return loc;
}

json ptx_location(const json& site, const std::string& ptx, const std::string& what) {
  return {
      {"physicalLocation", physical(ptx, site.value("ptx_line", 0u), site.value("ptx_column", 0u))},
      {"message", {{"text", what}}}};
}

std::string access_text(const json& site, const char* what) {
  std::string text = fmt::format("{}thread {}", what, site.value("linear_thread", 0));
  const std::string instruction = site.value("instruction", "");
  if (!instruction.empty())
    text += fmt::format(": '{}'", instruction);
  return text;
}

json kernel_location(const json& r, const std::string& role, const std::string& manifest) {
  if (r.contains("kernels") && r["kernels"].is_array()) {
    for (const auto& k : r["kernels"]) {
      if (k.value("role", "") != role)
        continue;
      return {{"physicalLocation", physical(k.value("ptx", ""), k.value("entry_line", 0u), 0)},
              {"message", {{"text", fmt::format("{} kernel {}", role, k.value("entry", ""))}}}};
    }
  }
  return {{"physicalLocation", physical(manifest, 0, 0)}};
}

json make_result(const json& r, size_t rule_index, const std::string& manifest) {
  const Rule& rule = kRules[rule_index];
  const std::string verdict = r.value("verdict", "");
  const std::string name = r.value("name", "");
  std::string message = fmt::format("{}: {}", name, r.value("detail", ""));
  if (r.contains("cta_scope") && r["cta_scope"].is_string())
    message += fmt::format(" [{} only]", r["cta_scope"].get<std::string>());
  json locations = json::array(), related = json::array();
  json logical = json::array();
  if (verdict == "NOT_EQUIVALENT" || verdict == "INCONSISTENT") {
    const std::string inputs = counterexample_inputs(r);
    if (!inputs.empty())
      message += fmt::format(" (counterexample: {}; every other input 0)", inputs);
    // A located difference (counterexample.location): the optimized kernel's line where the
    // computations part (else its store) is the location, the reference's the first related
    // one; then the stores, then the reference kernel's .entry line.
    const json none = nullptr;
    const json& where = r.contains("counterexample") && r["counterexample"].is_object() &&
                                r["counterexample"].contains("location")
                            ? r["counterexample"]["location"]
                            : none;
    auto point_of = [&](const char* side, const char* store) -> json {
      if (!where.is_object())
        return nullptr;
      const json& parting = where["parting"][side]["instruction"];
      return parting.is_object() ? parting : where[store];
    };
    const json opt_point = point_of("optimized", "optimized_store");
    const json ref_point = point_of("reference", "reference_store");
    int id = 1;
    auto add_related = [&](json loc) {
      loc["id"] = id++;
      related.push_back(std::move(loc));
    };
    if (opt_point.is_object()) {
      locations.push_back(site_location(opt_point, kernel_ptx(r, "optimized"),
                                        "the optimized kernel's computation parts from the "
                                        "reference's here"));
    } else {
      locations.push_back(kernel_location(r, "optimized", manifest));
    }
    if (ref_point.is_object()) {
      add_related(site_location(ref_point, kernel_ptx(r, "reference"),
                                "the reference's computation at that point"));
    }
    if (where.is_object()) {
      for (const auto& [side, role] :
           {std::pair{"optimized", "optimized"}, std::pair{"reference", "reference"}}) {
        const json& made = where["parting"][side]["first_made"];
        if (made.is_object())
          add_related(site_location(made, kernel_ptx(r, role),
                                    fmt::format("where the {} kernel's differing subterm was "
                                                "first made",
                                                role)));
      }
      for (const auto& [store, role] :
           {std::pair{"optimized_store", "optimized"}, std::pair{"reference_store", "reference"}}) {
        if (where[store].is_object())
          add_related(site_location(where[store], kernel_ptx(r, role),
                                    fmt::format("the {} kernel's store of the element", role)));
      }
    }
    add_related(kernel_location(r, "reference", manifest));
  } else if (r.contains("safety") && r["safety"].is_object()) {
    const json& s = r["safety"];
    const std::string role = s.value("kernel", "kernel");
    const std::string ptx = kernel_ptx(r, role);
    if (s.contains("access") && s["access"].is_object()) {
      const json& a = s["access"];
      // The second site: a race's earlier conflicting access, or (deadlock) a thread waiting
      // elsewhere.
      const bool second_site =
          s.contains("conflicting_access") && s["conflicting_access"].is_object();
      const bool race = verdict == "DATA_RACE";
      locations.push_back(site_location(a, ptx, access_text(a, "")));
      int id = 1;
      if (second_site) {
        const json& b = s["conflicting_access"];
        json second = site_location(b, ptx, access_text(b, race ? "conflicting access by " : ""));
        second["id"] = id++;
        related.push_back(second);
      }
      // The PTX instructions behind CUDA lines (one CUDA line is often many instructions).
      if (a.contains("cuda") && a["cuda"].is_object()) {
        json p = ptx_location(a, ptx, "the PTX instruction");
        p["id"] = id++;
        related.push_back(p);
        if (second_site && s["conflicting_access"].contains("cuda") &&
            s["conflicting_access"]["cuda"].is_object()) {
          json q =
              ptx_location(s["conflicting_access"], ptx, "the PTX instruction of the second site");
          q["id"] = id++;
          related.push_back(q);
        }
      }
    } else {
      locations.push_back(kernel_location(r, role, manifest));
    }
    for (const auto& k : r.value("kernels", json::array())) {
      if (k.value("role", "") == role) {
        logical.push_back({{"name", k.value("entry", "")}, {"kind", "function"}});
      }
    }
  } else {
    locations.push_back(kernel_location(
        r, r.value("kind", "") == "equivalence" ? "optimized" : "kernel", manifest));
  }
  if (!logical.empty())
    locations[0]["logicalLocations"] = logical;
  json result = {{"ruleId", rule.id},
                 {"ruleIndex", rule_index},
                 {"level", rule.level},
                 {"message", {{"text", message}}},
                 {"locations", locations}};
  if (!related.empty())
    result["relatedLocations"] = related;
  // Stable across runs and machines: the entry and what was found, not where the files live.
  result["partialFingerprints"] = {{"voltaEntry/v1", hex64(fnv1a64(name + "\n" + rule.id))}};
  json properties = {{"entry", name},
                     {"entryIndex", r.value("index", 0)},
                     {"verdict", verdict},
                     {"expected", r.contains("expected") ? r["expected"] : json(nullptr)},
                     {"match", r.value("match", false)}};
  if (r.contains("safety") && r["safety"].is_object())
    properties["findingKind"] = r["safety"].value("kind", "");
  result["properties"] = properties;
  if (r.value("match", false) && r.contains("expected") && r["expected"].is_string()) {
    result["suppressions"] =
        json::array({{{"kind", "external"},
                      {"justification", fmt::format("the manifest expects {} for this entry",
                                                    r["expected"].get<std::string>())}}});
  }
  return result;
}

// An EQUIVALENT's float findings (issue 35): beyond its tolerance (an error: the entry fails),
// precision lost beyond rounding (a warning); at the optimized kernel's `.entry` line.
void add_float_results(const json& r, const std::string& manifest, size_t first_index,
                       json& results) {
  const json& c = r["cross_check"];
  if (!c.is_object())
    return;
  const std::string name = r.value("name", "");
  auto add = [&](size_t k, const std::string& text) {
    const Rule& rule = kFloatRules[k];
    json result = {{"ruleId", rule.id},
                   {"ruleIndex", first_index + k},
                   {"level", rule.level},
                   {"message", {{"text", fmt::format("{}: {}", name, text)}}},
                   {"locations", json::array({kernel_location(r, "optimized", manifest)})}};
    result["partialFingerprints"] = {{"voltaEntry/v1", hex64(fnv1a64(name + "\n" + rule.id))}};
    result["properties"] = {{"entry", name},
                            {"entryIndex", r.value("index", 0)},
                            {"verdict", "EQUIVALENT"},
                            {"match", r.value("match", false)}};
    results.push_back(std::move(result));
  };
  if (const std::string failure = float_tolerance_failure(c); !failure.empty())
    add(0, failure);
  for (const std::string& line : float_error_lines(c)) {
    if (line.starts_with("warning: "))
      add(1, line.substr(std::string_view("warning: ").size()));
  }
}

} // namespace

std::optional<std::string> sarif_rule_id(const std::string& verdict) {
  for (const auto& rule : kRules) {
    if (verdict == rule.verdict)
      return std::string(rule.id);
  }
  return std::nullopt;
}

std::string path_to_uri(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    out += keep ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return !path.empty() && path[0] == '/' ? "file://" + out : out;
}

json sarif_log(const json& report) {
  json rules = json::array();
  for (const auto& rule : kRules) {
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.short_text}}},
                     {"fullDescription", {{"text", rule.full_text}}},
                     {"defaultConfiguration", {{"level", rule.level}}},
                     {"properties", {{"verdict", rule.verdict}}}});
  }
  for (const auto& rule : kFloatRules) {
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.short_text}}},
                     {"fullDescription", {{"text", rule.full_text}}},
                     {"defaultConfiguration", {{"level", rule.level}}},
                     {"properties", {{"verdict", rule.verdict}}}});
  }
  const std::string manifest = report.value("manifest", "");
  json results = json::array();
  for (const auto& r : report.at("results")) {
    const std::string verdict = r.value("verdict", "");
    for (size_t i = 0; i < kRules.size(); ++i) {
      if (verdict != kRules[i].verdict)
        continue;
      json result = make_result(r, i, manifest);
      // Every distinct race after the first (the first is `safety`): its two sites as related
      // locations of the entry's one result, so that code scanning shows one finding per entry.
      const json races = r.value("races", json::array());
      if (verdict == "DATA_RACE" && races.size() > 1) {
        json& related = result["relatedLocations"];
        if (!related.is_array())
          related = json::array();
        int id = static_cast<int>(related.size()) + 1;
        for (size_t k = 1; k < races.size(); ++k) {
          const json& race = races[k];
          const std::string ptx = kernel_ptx(r, race.value("kernel", "kernel"));
          const std::string label = fmt::format("race {} of {}: ", k + 1, races.size());
          for (const char* key : {"access", "conflicting_access"}) {
            if (!race.contains(key) || !race[key].is_object())
              continue;
            const std::string what =
                label + (std::string(key) == "access" ? "" : "conflicting access by ");
            json site = site_location(race[key], ptx, access_text(race[key], what.c_str()));
            site["id"] = id++;
            related.push_back(std::move(site));
          }
        }
        result["message"]["text"] = result["message"]["text"].get<std::string>() +
                                    fmt::format(" ({} distinct races; the others are related "
                                                "locations)",
                                                races.size());
      }
      results.push_back(std::move(result));
    }
  }
  for (const auto& r : report.at("results")) {
    if (r.value("verdict", "") == "EQUIVALENT" && r.contains("cross_check"))
      add_float_results(r, manifest, kRules.size(), results);
  }
  // Entries that could not be analyzed (bad input, internal errors) are tool-execution
  // notifications, not results: they say nothing about the code.
  json notifications = json::array();
  for (const auto& r : report.at("results")) {
    // A verdict over CTA 0 alone, whatever it is (a passing one has no result above): the
    // code scanning view must not read it as a verdict over the launch.
    if (r.contains("cta_scope") && r["cta_scope"].is_string()) {
      notifications.push_back(
          {{"level", "note"},
           {"message",
            {{"text", fmt::format("{}: {} over {} only", r.value("name", ""),
                                  r.value("verdict", ""), r["cta_scope"].get<std::string>())}}}});
    }
    if (r.value("verdict", "") != "ERROR")
      continue;
    notifications.push_back(
        {{"level", "error"},
         {"message",
          {{"text", fmt::format("{}: {}", r.value("name", ""), r.value("detail", ""))}}}});
  }
  const int exit_code = report.contains("summary") ? report["summary"].value("exit_status", 0) : 0;
  json run = {{"tool",
               {{"driver",
                 {{"name", kToolName},
                  {"informationUri", path_to_uri(std::string(VOLTA_DOCS_DIR) + "/semantics.md")},
                  {"version", kToolVersion},
                  {"semanticVersion", kToolVersion},
                  {"rules", rules}}}}},
              {"invocations", json::array({{{"executionSuccessful", notifications.empty()},
                                            {"exitCode", exit_code},
                                            {"toolExecutionNotifications", notifications}}})},
              {"results", results}};
  if (!manifest.empty())
    run["properties"] = {{"manifest", manifest}, {"command", report.value("command", "")}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({run})}};
}

} // namespace volta::report
