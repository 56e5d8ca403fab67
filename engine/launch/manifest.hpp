// A manifest: a batch of benchmarks in the schema of ../shared/volta-corpus/benchmarks.json
// (documented in examples/README.md). Problems are reported with the JSON path of the offending
// value (`$.benchmarks[3].reference.block[1]: expected a positive integer`). A problem inside one
// entry makes only that entry bad (it will be reported as ERROR); a problem with the file itself
// (unreadable, not JSON, no `benchmarks` array) makes the whole manifest bad.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cross_check.hpp"
#include "engine/expected.hpp"
#include "engine/launch/launch_config.hpp"
#include "engine/verdict.hpp"
#include "ptx/diagnostic.hpp"

namespace volta::launch {

enum class EntryKind { Equivalence, RaceCheck };
// "equivalence" / "race_check", the manifest's and the reports' words.
std::string_view to_string(EntryKind k);
std::optional<EntryKind> entry_kind_from(std::string_view word);

struct ManifestEntry {
  size_t index = 0; // position in the manifest
  std::string name;
  EntryKind kind = EntryKind::Equivalence;
  std::optional<Verdict> expected;
  KernelConfig reference;                // equivalence
  KernelConfig optimized;                // equivalence
  KernelConfig kernel;                   // race_check
  std::vector<std::string> check_arrays; // empty: the reference's out/inout/zero arrays
  std::string note;
  // Run the emulator cross-check when the proof says EQUIVALENT (`"cross_check": false` turns
  // it off for this entry; `--no-cross-check` for every entry).
  bool cross_check = true;
  // `"races": "benign"` or `"strict"`: the race rule for this entry's kernels, over the command
  // line's (docs/semantics.md, "Synchronization"); absent: the command line's.
  std::optional<bool> benign_races;
  // `"assume": ["converged-waits"]` (or `[]`): the scheduling assumptions for this entry's
  // kernels, over the command line's (`--assume-converged-waits`; exec::RunOptions); absent:
  // the command line's.
  std::optional<bool> converged_waits;
  // `"float_tolerance": {"rel": R, "abs": A}`: the measured float divergence this entry's
  // EQUIVALENT is held to (engine/cross_check.hpp), over the command line's
  // `--float-tolerance`; absent: the command line's.
  std::optional<FloatTolerance> float_tolerance;
  std::string recorded_json;       // the upstream `recorded` object, verbatim, if any
  std::string error;               // non-empty: the entry is bad input, with the JSON path
  ptx::SourceLocation error_where; // where that JSON path lies in the manifest (line 0: unknown)
};

struct Manifest {
  std::string path;
  std::vector<ManifestEntry> entries;
};

struct ManifestResult {
  std::optional<Manifest> manifest;
  std::vector<ptx::Diagnostic> diagnostics;
};

// Reads a manifest file. PTX paths are resolved against the manifest's folder unless absolute.
ManifestResult read_manifest(const std::string& path);
ManifestResult parse_manifest(std::string_view text, const std::string& path);

// One kernel configuration or one pair given as a JSON object of the same schema (used by
// `volta-eg check --config` and `volta-eg prove --pair`); `base_dir` resolves relative paths.
Expected<KernelConfig> kernel_config_from_json(const nlohmann::json& j, const std::string& base_dir,
                                               const std::string& json_path);

// Parses one `params` word: "ptr:A", "sym:alpha", "float:0.125", "int:-3".
Expected<ParamSpec> parse_param(const std::string& text);
// Parses `--float-tolerance`: "rel=1e-3,abs=1e-5", "rel=1e-3" or "abs=1e-5" (a bound left out
// is 0); each bound a finite number >= 0.
Expected<FloatTolerance> parse_float_tolerance(const std::string& text);
// Parses an array given on the command line: "name:base:width:len:kind".
Expected<ArraySpec> parse_array_flag(const std::string& text);
std::optional<ArrayKind> array_kind_from(std::string_view word);

// "unknown key \"cta\"; did you mean \"ctas\"?" (the closest known key within a few edits), or
// the list of known keys when none is close.
std::string unknown_key_message(std::string_view key, const std::vector<std::string_view>& known);

} // namespace volta::launch
