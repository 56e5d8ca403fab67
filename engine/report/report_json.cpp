#include "engine/report/report_json.hpp"

#include "engine/content_hash.hpp"
#include "engine/exit_status.hpp"
#include "engine/report/float_error_lines.hpp"
#include "engine/report/tool_version.hpp"

namespace volta::report {

using nlohmann::json;

json to_json(const exec::Site& s) {
  json j = {{"cta", {s.ctaid[0], s.ctaid[1], s.ctaid[2]}},
            {"thread", {s.tid[0], s.tid[1], s.tid[2]}},
            {"linear_thread", s.thread},
            {"ptx_line", s.ptx_line},
            {"ptx_column", s.ptx_column},
            {"instruction", s.instruction}};
  j["cuda"] =
      s.cuda_file.empty() ? json(nullptr) : json{{"file", s.cuda_file}, {"line", s.cuda_line}};
  return j;
}

json to_json(const SourcePoint& p) {
  return {{"ptx_line", p.ptx_line},
          {"instruction", p.instruction},
          {"cuda", p.cuda_file.empty() ? json(nullptr)
                                       : json{{"file", p.cuda_file}, {"line", p.cuda_line}}}};
}

json to_json(const DifferenceLocation& d) {
  auto point = [](const std::optional<SourcePoint>& p) { return p ? to_json(*p) : json(nullptr); };
  auto side = [&](const std::string& subterm, const std::string& value,
                  const std::optional<SourcePoint>& held, bool uses,
                  const std::optional<SourcePoint>& origin) {
    return json{{"subterm", subterm},
                {"value", value},
                {"instruction", point(held)},
                {"instruction_uses_it", uses},
                {"first_made", point(origin)}};
  };
  return {{"reference_store", point(d.reference_store)},
          {"optimized_store", point(d.optimized_store)},
          {"parting",
           {{"reference", side(d.reference_subterm, d.reference_subterm_value, d.reference_parting,
                               d.reference_parting_uses, d.reference_origin)},
            {"optimized", side(d.optimized_subterm, d.optimized_subterm_value, d.optimized_parting,
                               d.optimized_parting_uses, d.optimized_origin)}}},
          {"note", d.note.empty() ? json(nullptr) : json(d.note)}};
}

json to_json(const exec::Failure& f) {
  json j = {
      {"verdict", std::string(to_string(f.verdict))}, {"kind", f.kind}, {"message", f.message}};
  j["space"] = f.space.empty() ? json(nullptr) : json(f.space);
  j["location"] = f.location.empty() ? json(nullptr) : json(f.location);
  j["address"] = f.space.empty() ? json(nullptr) : json(f.address);
  j["access"] = f.first ? to_json(*f.first) : json(nullptr);
  j["conflicting_access"] = f.second ? to_json(*f.second) : json(nullptr);
  return j;
}

json to_json(const CrossCheck& c) {
  auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  json arrays = json::array();
  for (const CrossCheckDivergence& d : c.arrays) {
    arrays.push_back(
        {{"array", d.array},
         {"compared_as", d.compared_as},
         {"elements", d.elements},
         {"max_abs", d.max_abs},
         {"max_rel", d.max_rel},
         {"max_ulp", d.max_ulp},
         {"max_element", or_null(d.max_element)},
         {"max_input", d.max_element.empty() ? json(nullptr) : json(d.max_input)},
         {"max_input_name",
          d.max_element.empty() ? json(nullptr) : json(cross_check_input_name(d.max_input))},
         {"max_scaled", d.max_scaled},
         {"beyond_rounding", d.beyond_rounding},
         {"beyond_tolerance", d.beyond_tolerance},
         {"beyond_tolerance_example", or_null(d.beyond_tolerance_example)}});
  }
  json contradiction = nullptr;
  if (c.contradiction) {
    const CrossCheckContradiction& k = *c.contradiction;
    contradiction = {{"element", k.element},
                     {"reference_device", k.reference_device},
                     {"optimized_device", k.optimized_device},
                     {"input", k.input},
                     {"input_name", k.input_name},
                     {"why", k.why}};
  }
  json j = {{"ran", c.ran},
            {"skipped", or_null(c.skipped_reason)},
            {"inputs", c.inputs},
            {"inputs_planned", c.inputs_planned},
            {"elements", c.elements},
            {"excused", c.excused},
            {"instructions", c.instructions},
            {"reused_runs", c.reused_runs},
            {"seconds", c.seconds},
            {"budget_seconds", c.budget_seconds},
            {"checked", or_null(c.checked)},
            {"reference_ctas", c.reference_ctas.empty() ? json(nullptr) : json(c.reference_ctas)},
            {"optimized_ctas", c.optimized_ctas.empty() ? json(nullptr) : json(c.optimized_ctas)},
            {"notes", c.notes},
            {"arrays", arrays},
            {"contradiction", contradiction},
            {"float_tolerance", c.tolerance ? json{{"rel", c.tolerance->rel},
                                                   {"abs", c.tolerance->abs},
                                                   {"status", c.tolerance_status()}}
                                            : json(nullptr)}};
  // The float story in words (engine/report/float_error_lines.hpp), as the console shows it.
  j["float_lines"] = float_error_lines(j);
  return j;
}

json to_json(const entry::EntryResult& r) {
  json j;
  j["index"] = r.index;
  j["name"] = r.name;
  j["kind"] = launch::to_string(r.kind);
  j["verdict"] = std::string(to_string(r.verdict));
  j["expected"] = r.expected ? json(std::string(to_string(*r.expected))) : json(nullptr);
  j["match"] = r.matches();
  j["bad_input"] = r.bad_input;
  j["guard"] = r.guard == entry::Guard::None ? json(nullptr) : json(entry::guard_name(r.guard));
  j["not_run"] = r.not_run;
  j["seconds"] = r.seconds;
  j["cached"] = r.cached;
  if (r.cached)
    j["original_seconds"] = r.original_seconds;
  j["phases"] = r.phases;
  j["detail"] = r.detail;
  j["assumptions"] = r.assumptions;
  const std::string scope = entry::cta_scope(r.kernels);
  j["cta_scope"] = scope.empty() ? json(nullptr) : json(scope);
  if (r.kind == launch::EntryKind::Equivalence) {
    j["elements"] = {{"total", r.elements.total},
                     {"direct", r.elements.direct},
                     {"reused", r.elements.reused},
                     {"rules", r.elements.rules},
                     {"z3", r.elements.z3},
                     {"cached", r.elements.cached},
                     {"not_equivalent", r.elements.not_equivalent},
                     {"unknown", r.elements.unknown}};
    if (r.domain) {
      const prove::DomainSummary& d = *r.domain;
      j["domain"] = {{"assumptions", d.assumptions},
                     {"obligations", d.obligations},
                     {"by_sign", d.by_sign},
                     {"by_guard", d.by_guard},
                     {"by_assumption", d.by_assumption},
                     {"by_z3", d.by_z3},
                     {"failed", d.failed},
                     {"undecided", d.undecided},
                     {"mutual", d.mutual}};
    }
    if (r.egraph) {
      j["egraph"] = {{"nodes", r.egraph->nodes},
                     {"classes", r.egraph->classes},
                     {"canonical_merges", r.egraph->canonical_merges},
                     {"saturations", r.egraph->saturations},
                     {"rule_applications", r.egraph->rule_applications}};
    }
    j["z3_calls"] = r.z3_calls;
    j["cache_hits"] = r.cache_hits;
    json types = json::array();
    for (const auto& t : r.output_types) {
      auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
      json bound = nullptr;
      if (const auto& b = t.rounding_bound) {
        bound = {{"reference", b->reference},
                 {"optimized", b->optimized},
                 {"apart", b->apart},
                 {"apart_element", or_null(b->apart_element)},
                 {"bounded", b->bounded},
                 {"unbounded", b->unbounded},
                 {"why_unbounded", or_null(b->why_unbounded)}};
      }
      types.push_back({{"array", t.array},
                       {"declared", or_null(t.declared)},
                       {"reference_stores", or_null(t.reference_stores)},
                       {"optimized_stores", or_null(t.optimized_stores)},
                       {"rounding_bound", bound}});
    }
    j["output_types"] = types;
    j["cross_check"] = r.cross_check ? to_json(*r.cross_check) : json(nullptr);
  }
  if (r.counterexample) {
    const auto& c = *r.counterexample;
    auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
    json inputs = json::object();
    for (const auto& [k, v] : c.inputs)
      inputs[k] = v;
    j["counterexample"] = {{"element", c.element},
                           {"inputs", inputs},
                           {"reference_value", c.reference_value},
                           {"optimized_value", c.optimized_value},
                           {"reference_expr", c.reference_expr},
                           {"optimized_expr", c.optimized_expr},
                           {"confirmed", c.confirmed},
                           {"reference_device", or_null(c.reference_device)},
                           {"optimized_device", or_null(c.optimized_device)},
                           {"device_note", or_null(c.device_note)},
                           {"device_witness", json(nullptr)},
                           {"location", c.location ? to_json(*c.location) : json(nullptr)}};
    if (c.device_witness) {
      json at = json::object();
      for (const auto& [k, v] : c.device_witness->inputs)
        at[k] = v;
      j["counterexample"]["device_witness"] = {
          {"inputs", at},
          {"reference_device", c.device_witness->reference_device},
          {"optimized_device", c.device_witness->optimized_device}};
    }
  } else {
    j["counterexample"] = nullptr;
  }
  if (r.undecided) {
    const entry::UndecidedElement& u = *r.undecided;
    j["undecided"] = {{"element", u.element},
                      {"limit", u.limit},
                      {"reference_subterm", u.reference_subterm},
                      {"optimized_subterm", u.optimized_subterm},
                      {"rule", u.rule.empty() ? json(nullptr) : json(u.rule)},
                      {"suggestions", u.suggestions}};
  }
  if (r.failure) {
    j["safety"] = to_json(*r.failure);
    j["safety"]["kernel"] = r.failure_kernel;
  } else {
    j["safety"] = nullptr;
  }
  json races = json::array();
  for (const exec::Failure& race : r.races) {
    races.push_back(to_json(race));
    races.back()["kernel"] = r.failure_kernel;
  }
  j["races"] = races;
  j["races_truncated"] = r.races_truncated;
  json kernels = json::array();
  std::map<std::string, uint64_t> idioms;
  for (const auto& k : r.kernels) {
    json ks = {{"role", k.role},
               {"ptx", k.ptx},
               {"entry", k.entry},
               {"entry_line", k.entry_line},
               {"seconds", k.seconds},
               {"cached", k.cached},
               {"reused_from", k.reused_from.empty() ? json(nullptr) : json(k.reused_from)},
               {"instructions", k.stats.instructions},
               {"warp_instructions", k.stats.warp_instructions},
               {"barriers", k.stats.barriers},
               {"warp_syncs", k.stats.warp_syncs},
               {"ctas", k.stats.ctas},
               {"launch_ctas", k.launch_ctas},
               {"all_ctas", k.all_ctas},
               {"idioms", k.stats.idioms}};
    for (const auto& [name, n] : k.stats.idioms)
      idioms[name] += n;
    kernels.push_back(ks);
  }
  j["kernels"] = kernels;
  j["idioms"] = idioms;
  return j;
}

json summarize(const json& results, double wall_seconds) {
  size_t matched = 0, bad_input = 0, not_run = 0;
  double seconds = 0;
  uint64_t cache_hits = 0;
  json verdicts = json::object(), guards = json::object();
  json elements = {{"total", 0}, {"direct", 0}, {"reused", 0},         {"rules", 0},
                   {"z3", 0},    {"cached", 0}, {"not_equivalent", 0}, {"unknown", 0}};
  json cross_checks = {{"ran", 0}, {"skipped", 0}, {"contradictions", 0}, {"seconds", 0.0}};
  for (const auto& r : results) {
    matched += r.value("match", false) ? 1 : 0;
    bad_input += r.value("bad_input", false) ? 1 : 0;
    not_run += r.value("not_run", false) ? 1 : 0;
    seconds += r.value("seconds", 0.0);
    cache_hits += r.value("cache_hits", uint64_t{0});
    const std::string v = r.value("verdict", "ERROR");
    verdicts[v] = verdicts.value(v, 0) + 1;
    if (r.contains("guard") && r["guard"].is_string()) {
      const std::string g = r["guard"];
      guards[g] = guards.value(g, 0) + 1;
    }
    if (r.contains("elements") && r["elements"].is_object()) {
      for (auto& [k, n] : elements.items())
        n = n.get<uint64_t>() + r["elements"].value(k, uint64_t{0});
    }
    if (r.contains("cross_check") && r["cross_check"].is_object()) {
      const json& c = r["cross_check"];
      const bool ran = c.value("ran", false);
      cross_checks[ran ? "ran" : "skipped"] = cross_checks[ran ? "ran" : "skipped"].get<int>() + 1;
      if (c.contains("contradiction") && c["contradiction"].is_object())
        cross_checks["contradictions"] = cross_checks["contradictions"].get<int>() + 1;
      cross_checks["seconds"] = cross_checks["seconds"].get<double>() + c.value("seconds", 0.0);
    }
  }
  return {{"entries", results.size()},
          {"matched", matched},
          {"mismatched", results.size() - matched},
          {"bad_input", bad_input},
          {"not_run", not_run},
          {"verdicts", verdicts},
          {"guards", guards},
          {"elements", elements},
          {"cross_checks", cross_checks},
          {"cache_hits", cache_hits},
          {"seconds", seconds},
          {"wall_seconds", wall_seconds},
          {"exit_status", exit_status(results)}};
}

int exit_status(const json& results) {
  bool bad = false, mismatch = false, inconsistent = false;
  for (const auto& r : results) {
    bad |= r.value("bad_input", false);
    mismatch |= !r.value("match", false);
    inconsistent |= r.value("verdict", "") == to_string(Verdict::Inconsistent);
  }
  return volta::exit_status(bad, mismatch, inconsistent);
}

json report_json(const std::vector<entry::EntryResult>& results, const ReportInfo& info) {
  json j;
  j["tool"] = kToolName;
  j["version"] = kToolVersion;
  j["schema_version"] = kReportSchemaVersion;
  j["command"] = info.command;
  j["manifest"] = info.manifest;
  j["manifest_digest"] = info.manifest_digest ? json(*info.manifest_digest) : json(nullptr);
  j["inputs_digest"] = info.inputs_digest ? json(*info.inputs_digest) : json(nullptr);
  j["tool_digest"] = tool_digest();
  j["filter"] = info.filter ? json(*info.filter) : json(nullptr);
  j["shard"] = info.shard ? json{{"index", info.shard->first}, {"count", info.shard->second}}
                          : json(nullptr);
  j["options"] = info.options;
  j["interrupted"] = !info.interrupted_by.empty();
  j["interrupt_signal"] = info.interrupted_by.empty() ? json(nullptr) : json(info.interrupted_by);
  json list = json::array();
  for (const auto& r : results)
    list.push_back(to_json(r));
  j["summary"] = summarize(list, info.wall_seconds);
  j["results"] = std::move(list);
  return j;
}

} // namespace volta::report
