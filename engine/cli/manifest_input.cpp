#include "engine/cli/manifest_input.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "engine/content_hash.hpp"
#include "engine/diagnostic_reporter.hpp"

namespace volta::cli {

std::optional<ManifestSelection> load_manifest_selection(
    const BatchFlags& flags, const batch::BatchOptions& options, report::ReportInfo& info,
    const std::function<bool(const launch::ManifestEntry&)>& keep, const std::string& kept_kind) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  auto m = launch::read_manifest(flags.batch);
  if (!m.manifest) {
    for (const auto& d : m.diagnostics)
      diagnostics.report(d);
    if (m.diagnostics.empty())
      diagnostics.error_in(flags.batch, "cannot use this manifest");
    return std::nullopt;
  }
  for (const auto& d : m.diagnostics)
    diagnostics.report(d); // warnings
  ManifestSelection selection;
  selection.manifest = std::make_shared<const launch::Manifest>(std::move(*m.manifest));
  info.manifest = flags.batch;
  info.manifest_digest = file_digest(flags.batch);
  {
    // Every PTX file of the manifest (not only this shard's), so that all shards agree.
    std::string all = info.manifest_digest.value_or("unreadable");
    for (const auto& e : selection.manifest->entries) {
      for (const auto* k : {&e.reference, &e.optimized, &e.kernel}) {
        if (!k->ptx_path.empty())
          all += "\n" + k->ptx_path + " " + file_digest(k->ptx_path).value_or("unreadable");
      }
    }
    info.inputs_digest = "fnv1a64:" + hex64(fnv1a64(all));
  }
  if (!flags.filter.empty())
    info.filter = flags.filter;
  info.shard = options.shard;
  if (options.filter) {
    batch::BatchOptions unsharded = options;
    unsharded.shard.reset();
    if (batch::select_entries(*selection.manifest, unsharded).empty()) {
      diagnostics.error(fmt::format("--filter: \"{}\" matches no entry of {} ({} entries)",
                                    flags.filter, flags.batch, selection.manifest->entries.size()));
      return std::nullopt;
    }
  }
  // An entry with an error has no trustworthy kind: every command reports it.
  const auto kept = [&](const launch::ManifestEntry* e) {
    return !keep || !e->error.empty() || keep(*e);
  };
  if (keep) {
    // A command that runs nothing must not pass: `check --filter gemm` on equivalence entries
    // only. (A shard may be empty; the selection before sharding may not.)
    batch::BatchOptions unsharded = options;
    unsharded.shard.reset();
    const auto all = batch::select_entries(*selection.manifest, unsharded);
    if (std::none_of(all.begin(), all.end(), kept)) {
      if (flags.filter.empty()) {
        diagnostics.error_in(flags.batch,
                             fmt::format("no {} entry in this manifest ({} entries)", kept_kind,
                                         selection.manifest->entries.size()));
      } else {
        diagnostics.error(
            fmt::format("--filter: \"{}\" selects no {} entry of {} ({} entries match the filter)",
                        flags.filter, kept_kind, flags.batch, all.size()));
      }
      return std::nullopt;
    }
  }
  for (const auto* e : batch::select_entries(*selection.manifest, options)) {
    if (kept(e))
      selection.entries.push_back(e);
  }
  return selection;
}

namespace {

// A pair file is read as the one entry of a wrapped manifest; its messages speak of the file
// as written ("$.reference.ptx", not "$.benchmarks[0].reference.ptx").
constexpr std::string_view kWrappedEntry = "$.benchmarks[0]";

std::string unwrap_entry_path(const std::string& message) {
  std::string out;
  size_t from = 0;
  for (size_t at = message.find(kWrappedEntry); at != std::string::npos;
       at = message.find(kWrappedEntry, from)) {
    out.append(message, from, at - from);
    out += '$';
    from = at + kWrappedEntry.size();
  }
  out.append(message, from);
  return out;
}

} // namespace

std::optional<launch::ManifestEntry> read_pair_file(const std::string& path) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  std::ifstream in(path);
  if (!in) {
    diagnostics.error_in(path, "cannot read pair file");
    return std::nullopt;
  }
  std::stringstream content;
  content << in.rdbuf();
  // A whole manifest given where one entry is expected would otherwise be refused for lacking
  // an entry's members ("missing 'name'").
  const auto parsed = nlohmann::json::parse(content.str(), nullptr, false);
  if (parsed.is_object() && parsed.contains("benchmarks")) {
    diagnostics.error_in(path, "this is a manifest (it has \"benchmarks\"), not one pair: give it "
                               "with --batch (and --filter to pick entries), or give --pair a "
                               "file holding one entry object");
    return std::nullopt;
  }
  // The entry on a line of its own, so that its lines keep their columns (one line down).
  const std::string text = "{\"benchmarks\": [\n" + content.str() + "\n]}";
  auto m = launch::parse_manifest(text, path);
  if (!m.manifest || m.manifest->entries.size() != 1) {
    for (auto d : m.diagnostics) {
      if (d.where.line > 1)
        --d.where.line;
      d.message = unwrap_entry_path(d.message);
      diagnostics.report(d);
    }
    if (m.diagnostics.empty())
      diagnostics.error_in(path, "expected one pair object");
    return std::nullopt;
  }
  launch::ManifestEntry entry = m.manifest->entries[0];
  if (!entry.error.empty()) {
    diagnostics.error_in(path, unwrap_entry_path(entry.error));
    return std::nullopt;
  }
  return entry;
}

} // namespace volta::cli
