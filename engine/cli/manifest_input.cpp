#include "engine/cli/manifest_input.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/driver/content_hash.hpp"
#include "engine/driver/diagnostic_text.hpp"

namespace volta::cli {

std::optional<ManifestSelection> load_manifest_selection(
    const BatchFlags& flags, const driver::BatchOptions& options, driver::ReportInfo& info,
    const std::function<bool(const launch::ManifestEntry&)>& keep, const std::string& kept_kind) {
  auto m = launch::read_manifest(flags.batch);
  if (!m.manifest) {
    for (const auto& d : m.diagnostics)
      std::cerr << driver::diagnostic_text(d) << "\n";
    if (m.diagnostics.empty())
      std::cerr << fmt::format("{}: error: cannot use this manifest\n", flags.batch);
    return std::nullopt;
  }
  for (const auto& d : m.diagnostics)
    std::cerr << driver::diagnostic_text(d) << "\n"; // warnings
  ManifestSelection selection;
  selection.manifest = std::make_shared<const launch::Manifest>(std::move(*m.manifest));
  info.manifest = flags.batch;
  info.manifest_digest = driver::file_digest(flags.batch);
  {
    // Every PTX file of the manifest (not only this shard's), so that all shards agree.
    std::string all = info.manifest_digest.value_or("unreadable");
    for (const auto& e : selection.manifest->entries) {
      for (const auto* k : {&e.reference, &e.optimized, &e.kernel}) {
        if (!k->ptx_path.empty())
          all += "\n" + k->ptx_path + " " + driver::file_digest(k->ptx_path).value_or("unreadable");
      }
    }
    info.inputs_digest = "fnv1a64:" + driver::hex64(driver::fnv1a64(all));
  }
  if (!flags.filter.empty())
    info.filter = flags.filter;
  info.shard = options.shard;
  if (options.filter) {
    driver::BatchOptions unsharded = options;
    unsharded.shard.reset();
    if (driver::select_entries(*selection.manifest, unsharded).empty()) {
      std::cerr << fmt::format(
          "volta-eg: error: --filter: \"{}\" matches no entry of {} ({} entries)\n", flags.filter,
          flags.batch, selection.manifest->entries.size());
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
    driver::BatchOptions unsharded = options;
    unsharded.shard.reset();
    const auto all = driver::select_entries(*selection.manifest, unsharded);
    if (std::none_of(all.begin(), all.end(), kept)) {
      if (flags.filter.empty()) {
        std::cerr << fmt::format("{}: error: no {} entry in this manifest ({} entries)\n",
                                 flags.batch, kept_kind, selection.manifest->entries.size());
      } else {
        std::cerr << fmt::format(
            "volta-eg: error: --filter: \"{}\" selects no {} entry of {} ({} entries match "
            "the filter)\n",
            flags.filter, kept_kind, flags.batch, all.size());
      }
      return std::nullopt;
    }
  }
  for (const auto* e : driver::select_entries(*selection.manifest, options)) {
    if (kept(e))
      selection.entries.push_back(e);
  }
  return selection;
}

std::optional<launch::ManifestEntry> read_pair_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << fmt::format("{}: error: cannot read pair file\n", path);
    return std::nullopt;
  }
  std::stringstream text;
  text << "{\"benchmarks\": [" << in.rdbuf() << "]}";
  auto m = launch::parse_manifest(text.str(), path);
  if (!m.manifest || m.manifest->entries.size() != 1) {
    for (const auto& d : m.diagnostics)
      std::cerr << driver::diagnostic_text(d) << "\n";
    if (m.diagnostics.empty())
      std::cerr << fmt::format("{}: error: expected one pair object\n", path);
    return std::nullopt;
  }
  launch::ManifestEntry entry = m.manifest->entries[0];
  if (!entry.error.empty()) {
    std::cerr << fmt::format("{}: error: {}\n", path, entry.error);
    return std::nullopt;
  }
  return entry;
}

} // namespace volta::cli
