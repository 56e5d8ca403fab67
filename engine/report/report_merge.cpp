#include "engine/report/report_merge.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "engine/report/report_json.hpp"

namespace volta::report {

using nlohmann::json;

namespace {

// 1-based line and column of a byte offset.
std::pair<size_t, size_t> line_col(const std::string& text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

std::string text_or_null(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null())
    return "(none)";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

} // namespace

Expected<LoadedReport> load_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Unexpected{fmt::format("{}: error: cannot read report file", path)};
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  LoadedReport loaded{path, json()};
  try {
    loaded.report = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based: the position just after the last character read.
    const auto [line, col] = line_col(text, e.byte > 0 ? e.byte - 1 : 0);
    return Unexpected{fmt::format("{}:{}:{}: error: invalid JSON: {}", path, line, col, e.what())};
  }
  const json& r = loaded.report;
  if (!r.is_object() || r.value("tool", "") != "volta-eg") {
    return Unexpected{fmt::format("{}: error: $.tool: not a volta-eg report", path)};
  }
  if (!r.contains("schema_version") || !r["schema_version"].is_number_integer() ||
      r["schema_version"].get<int>() != kReportSchemaVersion) {
    return Unexpected{fmt::format(
        "{}: error: $.schema_version: expected {} (a report of this volta-eg version), got {}",
        path, kReportSchemaVersion, text_or_null(r, "schema_version"))};
  }
  if (!r.contains("results") || !r["results"].is_array()) {
    return Unexpected{fmt::format("{}: error: $.results: expected an array", path)};
  }
  for (size_t i = 0; i < r["results"].size(); ++i) {
    const json& e = r["results"][i];
    if (!e.is_object() || !e.contains("index") || !e["index"].is_number_unsigned() ||
        !e.contains("name") || !e["name"].is_string()) {
      return Unexpected{fmt::format(
          "{}: error: $.results[{}]: expected an entry with an unsigned \"index\" and a \"name\"",
          path, i)};
    }
  }
  if (r.contains("shard") && !r["shard"].is_null()) {
    const json& s = r["shard"];
    if (!s.is_object() || !s.contains("index") || !s.contains("count") ||
        !s["index"].is_number_integer() || !s["count"].is_number_integer() ||
        s["count"].get<int>() < 1 || s["index"].get<int>() < 0 ||
        s["index"].get<int>() >= s["count"].get<int>()) {
      return Unexpected{fmt::format(
          "{}: error: $.shard: expected {{\"index\": I, \"count\": N}} with 0 <= I < N", path)};
    }
  }
  return loaded;
}

MergeOutcome merge_reports(const std::vector<LoadedReport>& inputs, bool allow_partial) {
  MergeOutcome out;
  if (inputs.empty()) {
    out.errors.push_back("merge: no reports given");
    return out;
  }
  const LoadedReport& first = inputs.front();
  // Same batch: the same command over the same manifest content with the same filter.
  // Same inputs and same tool: a report left by an older run (a kernel changed since, another
  // build) is refused rather than merged as if it were current.
  const std::map<std::string, const char*> what_differs = {
      {"command", "different commands"},
      {"manifest_digest", "different manifests"},
      {"inputs_digest", "different inputs (the manifest or a PTX file changed between runs)"},
      {"version", "different volta-eg versions"},
      {"tool_digest", "different volta-eg builds"},
      {"filter", "different --filter expressions"}};
  for (const char* key :
       {"command", "manifest_digest", "inputs_digest", "version", "tool_digest", "filter"}) {
    for (const auto& in : inputs) {
      const std::string a = text_or_null(first.report, key), b = text_or_null(in.report, key);
      if (a == b)
        continue;
      const char* what = what_differs.at(key);
      out.errors.push_back(
          fmt::format("{}: error: cannot merge reports of {}: $.{} is {} here but {} in {}",
                      in.path, what, key, b, a, first.path));
      return out;
    }
  }
  if (first.report.value("manifest_digest", json()).is_null()) {
    out.warnings.push_back(
        fmt::format("{}: warning: the report has no manifest digest (a single pair?): cannot "
                    "check that the reports belong together",
                    first.path));
  }
  // Shards: one count, each index once. A report without a shard covers the whole batch (0/1).
  int count = -1;
  std::map<int, std::string> shards;
  for (const auto& in : inputs) {
    const json& s = in.report.value("shard", json());
    const int index = s.is_object() ? s.value("index", 0) : 0;
    const int n = s.is_object() ? s.value("count", 1) : 1;
    if (count == -1)
      count = n;
    if (n != count) {
      out.errors.push_back(fmt::format(
          "{}: error: cannot merge: this report is shard {}/{} but {} is one of {} shards", in.path,
          index, n, first.path, count));
      return out;
    }
    auto [it, fresh] = shards.emplace(index, in.path);
    if (!fresh) {
      out.errors.push_back(fmt::format("{}: error: cannot merge: shard {}/{} is also given as {}",
                                       in.path, index, n, it->second));
      return out;
    }
  }
  std::vector<int> missing;
  for (int i = 0; i < count; ++i) {
    if (!shards.count(i))
      missing.push_back(i);
  }
  if (!missing.empty()) {
    std::string list;
    for (int i : missing)
      list += fmt::format("{}{}/{}", list.empty() ? "" : ", ", i, count);
    if (!allow_partial) {
      out.errors.push_back(
          fmt::format("merge: missing shard{} {} (--allow-partial merges what is there)",
                      missing.size() == 1 ? "" : "s", list));
      return out;
    }
    out.warnings.push_back(
        fmt::format("merge: missing shard{} {}", missing.size() == 1 ? "" : "s", list));
  }
  for (const auto& in : inputs) {
    if (in.report.value("options", json::object()) !=
        first.report.value("options", json::object())) {
      out.warnings.push_back(fmt::format("{}: warning: ran with other options ($.options) than {}",
                                         in.path, first.path));
    }
  }
  // Entries, by manifest index; an index twice means overlapping inputs.
  std::map<size_t, std::pair<json, std::string>> entries;
  double wall = 0;
  for (const auto& in : inputs) {
    wall = std::max(wall, in.report.value("summary", json::object()).value("wall_seconds", 0.0));
    for (const auto& e : in.report["results"]) {
      const size_t index = e["index"].get<size_t>();
      auto [it, fresh] = entries.emplace(index, std::make_pair(e, in.path));
      if (!fresh) {
        out.errors.push_back(fmt::format("{}: error: cannot merge: entry #{} ({}) is also in {}",
                                         in.path, index, e["name"].get<std::string>(),
                                         it->second.second));
        return out;
      }
    }
  }
  json merged = json::object();
  for (const char* key : {"tool", "version", "schema_version", "command", "manifest",
                          "manifest_digest", "inputs_digest", "tool_digest", "filter"}) {
    merged[key] = first.report.value(key, json());
  }
  merged["shard"] = nullptr;
  if (!missing.empty())
    merged["missing_shards"] = missing;
  merged["options"] = first.report.value("options", json::object());
  // An interrupted shard makes the merged batch interrupted: its not-run entries are in it.
  merged["interrupted"] = false;
  merged["interrupt_signal"] = nullptr;
  for (const auto& in : inputs) {
    if (in.report.value("interrupted", false)) {
      merged["interrupted"] = true;
      merged["interrupt_signal"] = in.report.value("interrupt_signal", json());
      out.warnings.push_back(fmt::format("{}: warning: this shard was interrupted: its entries "
                                         "marked not_run did not run",
                                         in.path));
      break;
    }
  }
  json results = json::array();
  for (auto& [index, entry] : entries)
    results.push_back(std::move(entry.first));
  merged["summary"] = summarize(results, wall);
  // Cache counters (when the shards used --cache) add up, those of the execution and entry
  // caches (nested objects) too.
  const std::function<void(json&, const json&)> add = [&add](json& into, const json& from) {
    for (auto& [k, v] : into.items()) {
      if (!from.contains(k))
        continue;
      if (v.is_number_unsigned() && from[k].is_number_unsigned())
        v = v.get<uint64_t>() + from[k].get<uint64_t>();
      else if (v.is_object() && from[k].is_object())
        add(v, from[k]);
    }
  };
  json cache;
  for (const auto& in : inputs) {
    if (!in.report.contains("cache") || !in.report["cache"].is_object())
      continue;
    if (cache.is_null())
      cache = in.report["cache"];
    else
      add(cache, in.report["cache"]);
  }
  if (!cache.is_null())
    merged["cache"] = cache;
  merged["results"] = std::move(results);
  out.report = std::move(merged);
  return out;
}

} // namespace volta::report
