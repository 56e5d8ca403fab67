#include "engine/driver/report_json.hpp"

namespace volta::driver {

using nlohmann::json;

json to_json(const exec::Site& s) {
  json j = {{"cta", {s.ctaid[0], s.ctaid[1], s.ctaid[2]}},
            {"thread", {s.tid[0], s.tid[1], s.tid[2]}},
            {"linear_thread", s.thread},
            {"ptx_line", s.ptx_line},
            {"ptx_column", s.ptx_column},
            {"instruction", s.instruction}};
  if (!s.cuda_file.empty()) j["cuda"] = {{"file", s.cuda_file}, {"line", s.cuda_line}};
  return j;
}

json to_json(const exec::Failure& f) {
  json j = {{"verdict", std::string(to_string(f.verdict))}, {"kind", f.kind}, {"message", f.message}};
  if (!f.space.empty()) j["space"] = f.space;
  if (!f.location.empty()) j["location"] = f.location;
  if (!f.space.empty()) j["address"] = f.address;
  if (f.first) j["access"] = to_json(*f.first);
  if (f.second) j["conflicting_access"] = to_json(*f.second);
  return j;
}

json to_json(const EntryResult& r) {
  json j;
  j["name"] = r.name;
  j["kind"] = r.kind;
  j["verdict"] = std::string(to_string(r.verdict));
  j["expected"] = r.expected ? json(std::string(to_string(*r.expected))) : json(nullptr);
  j["match"] = r.matches();
  j["bad_input"] = r.bad_input;
  j["seconds"] = r.seconds;
  j["phases"] = r.phases;
  j["detail"] = r.detail;
  if (r.kind == "equivalence") {
    j["elements"] = {{"total", r.elements.total},   {"direct", r.elements.direct},
                     {"reused", r.elements.reused}, {"z3", r.elements.z3}, {"cached", r.elements.cached},
                     {"not_equivalent", r.elements.not_equivalent}, {"unknown", r.elements.unknown}};
    j["z3_calls"] = r.z3_calls;
    j["cache_hits"] = r.cache_hits;
  }
  if (r.counterexample) {
    const auto& c = *r.counterexample;
    json inputs = json::object();
    for (const auto& [k, v] : c.inputs) inputs[k] = v;
    j["counterexample"] = {{"element", c.element},
                           {"inputs", inputs},
                           {"reference_value", c.reference_value},
                           {"optimized_value", c.optimized_value},
                           {"reference_expr", c.reference_expr},
                           {"optimized_expr", c.optimized_expr},
                           {"confirmed", c.confirmed}};
  } else {
    j["counterexample"] = nullptr;
  }
  if (r.failure) {
    j["safety"] = to_json(*r.failure);
    j["safety"]["kernel"] = r.failure_kernel;
  }
  json kernels = json::array();
  std::map<std::string, uint64_t> idioms;
  for (const auto& k : r.kernels) {
    json ks = {{"role", k.role},
               {"ptx", k.ptx},
               {"entry", k.entry},
               {"seconds", k.seconds},
               {"cached", k.cached},
               {"instructions", k.stats.instructions},
               {"barriers", k.stats.barriers},
               {"warp_syncs", k.stats.warp_syncs},
               {"ctas", k.stats.ctas},
               {"idioms", k.stats.idioms}};
    for (const auto& [name, n] : k.stats.idioms) idioms[name] += n;
    kernels.push_back(ks);
  }
  j["kernels"] = kernels;
  j["idioms"] = idioms;
  return j;
}

json report_json(const std::vector<EntryResult>& results, const std::string& manifest) {
  json j;
  j["tool"] = "volta-eg";
  j["version"] = "0.1.0";
  j["manifest"] = manifest;
  json list = json::array();
  size_t matched = 0;
  for (const auto& r : results) {
    list.push_back(to_json(r));
    matched += r.matches();
  }
  j["results"] = list;
  j["summary"] = {{"entries", results.size()}, {"matched", matched}, {"mismatched", results.size() - matched}};
  return j;
}

}  // namespace volta::driver
