// Reading the manifest of --batch and selecting its entries (--filter, --shard, and the kinds
// a command runs), with located diagnostics for a manifest that cannot be used.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/cli/batch_flags.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/report/report_json.hpp"

namespace volta::cli {

struct ManifestSelection {
  std::shared_ptr<const launch::Manifest> manifest;
  std::vector<const launch::ManifestEntry*> entries; // into *manifest
};

// Fills `info` (manifest path, digest, filter, shard). `keep`: the entries this command runs
// (empty: all), `kept_kind` their name for messages ("race_check"). Prints the diagnostics and
// returns nullopt when the manifest is unusable or the filter (or `keep`) selects nothing.
std::optional<ManifestSelection>
load_manifest_selection(const BatchFlags& flags, const batch::BatchOptions& options,
                        report::ReportInfo& info,
                        const std::function<bool(const launch::ManifestEntry&)>& keep = {},
                        const std::string& kept_kind = "");

// One equivalence pair given as a JSON entry object (`--pair FILE`, the manifest's entry schema);
// nullopt after printing located diagnostics.
std::optional<launch::ManifestEntry> read_pair_file(const std::string& path);

} // namespace volta::cli
