// volta-eg run: executes one kernel concretely (the bit-exact emulator of engine/emulate) on
// given or random inputs and prints or dumps its outputs. A debugging aid that needs no GPU.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "engine/cli/commands.hpp"
#include "engine/cli/kernel_flags.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/emulate/counterexample_run.hpp"
#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/emulate/npy.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/exit_status.hpp"
#include "engine/expected.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::cli {

namespace {

namespace fs = std::filesystem;

struct RunArgs {
  KernelFlags kernel;
  std::string batch;
  std::string filter;
  std::string side = "ref";
  std::string inputs;
  uint64_t seed = 1;
  int cross_check_input = -1; // an input set of the emulator cross-check; -1: random inputs
  std::string out;
  std::string save_inputs;
  std::string counterexample;
  std::vector<std::string> types;
  size_t show = 8;
  uint64_t max_instructions = 4'000'000'000ull;
  bool quiet = false;
};

// The configuration from the flags, or from the manifest entry named by --filter (`reference`:
// the reference kernel of an equivalence entry, whose element types the cross-check's inputs
// are made for).
Expected<launch::KernelConfig> kernel_config(const RunArgs& args, std::string& entry_name,
                                             std::optional<launch::KernelConfig>& reference) {
  if (args.batch.empty())
    return args.kernel.config("");
  if (args.kernel.given())
    return Unexpected{"--batch selects the kernel: it does not combine with --ptx/--kernel"};
  auto m = launch::read_manifest(args.batch);
  if (!m.manifest) {
    for (const auto& d : m.diagnostics)
      DiagnosticReporter::standard().report(d);
    return Unexpected{fmt::format("cannot use the manifest {}", args.batch)};
  }
  const launch::ManifestEntry* found = nullptr;
  for (const auto& e : m.manifest->entries) {
    if (e.name == args.filter) { // an exact name wins over substrings
      found = &e;
      break;
    }
    if (!found && !args.filter.empty() && e.name.find(args.filter) != std::string::npos)
      found = &e;
  }
  if (found == nullptr) {
    return Unexpected{
        fmt::format("--filter: \"{}\" names no entry of {}", args.filter, args.batch)};
  }
  if (!found->error.empty()) {
    return Unexpected{fmt::format("entry \"{}\": {}", found->name, found->error)};
  }
  entry_name = found->name;
  if (found->kind == launch::EntryKind::RaceCheck)
    return found->kernel;
  if (args.side != "ref" && args.side != "opt") {
    return Unexpected{fmt::format("--side: expected ref or opt, got \"{}\"", args.side)};
  }
  reference = found->reference;
  return args.side == "ref" ? found->reference : found->optimized;
}

// Fills `in` from a JSON object {"A": [numbers], "alpha": 1.5} or a folder of NAME.npy files.
Expected<void> read_inputs(const std::string& path, const launch::KernelConfig& config,
                           emulate::Inputs& in) {
  auto set_array = [&](const launch::ArraySpec& a,
                       const std::vector<double>& values) -> Expected<void> {
    auto it = in.types.find(a.name);
    const auto type = it != in.types.end() ? it->second : emulate::default_elem_type(a);
    std::vector<uint8_t> bytes(a.size_bytes(), 0);
    for (size_t i = 0; i < values.size() && i < a.len; ++i)
      emulate::write_element(type, values[i], bytes.data() + i * a.elem_width);
    if (values.size() != a.len) {
      return Unexpected{fmt::format("input {} has {} values, the array has {} elements", a.name,
                                    values.size(), a.len)};
    }
    in.arrays[a.name] = std::move(bytes);
    return {};
  };
  if (fs::is_directory(path)) {
    for (const auto& a : config.arrays) {
      const fs::path file = fs::path(path) / (a.name + ".npy");
      if (!fs::exists(file))
        continue;
      auto npy = emulate::read_npy(file.string());
      if (!npy)
        return Unexpected{npy.error()};
      if (npy->bytes.size() != a.size_bytes()) {
        return Unexpected{fmt::format("{}: {} bytes, array {} has {}", file.string(),
                                      npy->bytes.size(), a.name, a.size_bytes())};
      }
      in.arrays[a.name] = std::move(npy->bytes); // bytes as they are: the file's dtype is trusted
    }
    const fs::path symbols = fs::path(path) / "symbols.json";
    if (!fs::exists(symbols))
      return {};
    return read_inputs(symbols.string(), config, in);
  }
  std::ifstream file(path);
  if (!file) {
    return Unexpected{fmt::format("{}: cannot read", path)};
  }
  nlohmann::json j;
  try {
    file >> j;
  } catch (const std::exception& e) {
    return Unexpected{fmt::format("{}: {}", path, e.what())};
  }
  if (!j.is_object()) {
    return Unexpected{fmt::format("{}: expected an object {{\"NAME\": [numbers...]}}", path)};
  }
  for (const auto& [name, value] : j.items()) {
    const auto* a = config.find_array(name);
    if (a != nullptr && value.is_array()) {
      std::vector<double> values;
      for (const auto& v : value) {
        if (!v.is_number()) {
          return Unexpected{fmt::format("{}: {} holds a value that is not a number", path, name)};
        }
        values.push_back(v.get<double>());
      }
      if (auto set = set_array(*a, values); !set)
        return set;
    } else if (value.is_number()) {
      in.symbols[name] = value.get<double>();
    } else {
      return Unexpected{
          fmt::format("{}: \"{}\" is neither an array of the kernel nor a number", path, name)};
    }
  }
  return {};
}

int write_outputs(const RunArgs& args, const emulate::EmulationResult& r) {
  const bool one_file = fs::path(args.out).extension() == ".npy";
  if (one_file && r.outputs.size() != 1) {
    DiagnosticReporter::standard().error(fmt::format(
        "--out {}: the kernel has {} output arrays; give a folder", args.out, r.outputs.size()));
    return kBadInput;
  }
  if (!one_file)
    fs::create_directories(args.out);
  for (const auto& o : r.outputs) {
    const std::string path =
        one_file ? args.out : (fs::path(args.out) / (o.name + ".npy")).string();
    if (auto e = emulate::write_npy(path, o.type, o.len, o.bytes); !e.empty()) {
      DiagnosticReporter::standard().error(e);
      return kBadInput;
    }
    if (!args.quiet)
      std::cout << fmt::format("wrote {} ({} x {})\n", path, o.len, emulate::to_string(o.type));
  }
  return kSuccess;
}

// Writes the inputs a run used (given or random) as NAME.npy and symbols.json, the folder form
// --inputs reads: the run can be repeated, or the same inputs given to another kernel or a GPU.
int save_inputs(const std::string& folder, const launch::KernelConfig& config,
                const emulate::Inputs& in) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    DiagnosticReporter::standard().error(fmt::format("--save-inputs {}: {}", folder, ec.message()));
    return kBadInput;
  }
  for (const auto& a : config.arrays) {
    auto it = in.arrays.find(a.name);
    if (it == in.arrays.end())
      continue;
    auto t = in.types.find(a.name);
    const auto type = t != in.types.end() ? t->second : emulate::default_elem_type(a);
    const std::string path = (fs::path(folder) / (a.name + ".npy")).string();
    if (auto e = emulate::write_npy(path, type, a.len, it->second); !e.empty()) {
      DiagnosticReporter::standard().error(e);
      return kBadInput;
    }
  }
  nlohmann::json symbols = nlohmann::json::object();
  for (const auto& [name, value] : in.symbols)
    symbols[name] = value;
  std::ofstream file(fs::path(folder) / "symbols.json");
  file << symbols.dump(1) << "\n";
  if (!file) {
    DiagnosticReporter::standard().error(
        fmt::format("--save-inputs {}: cannot write symbols.json", folder));
    return kBadInput;
  }
  return kSuccess;
}

// The inputs of the counterexample that a prove report gives for entry `name`.
Expected<void> read_counterexample(const std::string& report, const std::string& name,
                                   const launch::KernelConfig& config, emulate::Inputs& in) {
  std::ifstream file(report);
  nlohmann::json j;
  try {
    if (!file)
      throw std::runtime_error("cannot read");
    file >> j;
  } catch (const std::exception& e) {
    return Unexpected{fmt::format("{}: {}", report, e.what())};
  }
  if (!j.contains("results") || !j["results"].is_array()) {
    return Unexpected{fmt::format("{}: not a report of volta-eg prove (no \"results\")", report)};
  }
  for (const auto& r : j["results"]) {
    if (r.value("name", "") != name)
      continue;
    if (!r.contains("counterexample") || !r["counterexample"].is_object() ||
        !r["counterexample"].contains("inputs")) {
      return Unexpected{fmt::format("{}: entry \"{}\" has no counterexample", report, name)};
    }
    // The device witness where the report gives one: the point where the emulator shows the
    // difference the counterexample's own inputs leave below rounding.
    const auto& c = r["counterexample"];
    const bool witness = c.contains("device_witness") && c["device_witness"].is_object() &&
                         c["device_witness"].contains("inputs");
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [k, v] : (witness ? c["device_witness"]["inputs"] : c["inputs"]).items())
      values.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    if (auto why = emulate::counterexample_inputs(config, values, in)) {
      return Unexpected{fmt::format("{}: {}", report, *why)};
    }
    return {};
  }
  return Unexpected{fmt::format("{}: no entry \"{}\"", report, name)};
}

int run(const RunArgs& args) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  std::string entry_name;
  std::optional<launch::KernelConfig> reference;
  auto config = kernel_config(args, entry_name, reference);
  if (!config) {
    diagnostics.error(config.error());
    return kBadInput;
  }
  auto loaded = exec::load_kernel(config->ptx_path, config->entry);
  for (const auto& d : loaded.diagnostics)
    diagnostics.report(d);
  if (!loaded.kernel)
    return kBadInput;
  std::map<std::string, emulate::ElemType> types;
  for (const auto& t : args.types) {
    const size_t eq = t.find('=');
    auto type = eq == std::string::npos ? std::nullopt : launch::elem_type_from(t.substr(eq + 1));
    if (!type) {
      diagnostics.error(
          fmt::format("--type: expected NAME=f32|f16|bf16|f64|s32|..., got \"{}\"", t));
      return kBadInput;
    }
    types[t.substr(0, eq)] = *type;
  }
  emulate::Inputs inputs;
  if (args.cross_check_input >= 0) {
    if (!args.counterexample.empty()) {
      diagnostics.error("--cross-check-input does not combine with --counterexample");
      return kBadInput;
    }
    // The bytes `prove`'s cross-check gave this kernel: values made for the reference's types.
    const launch::KernelConfig& source = reference ? *reference : *config;
    std::map<std::string, emulate::ElemType> value_types = emulate::declared_elem_types(source);
    for (const auto& a : source.arrays)
      value_types.emplace(a.name, emulate::default_elem_type(a));
    const auto set = static_cast<uint32_t>(args.cross_check_input);
    // Made page by page, as the cross-check makes them, unless the whole arrays are needed:
    // --inputs overrides some of them and --save-inputs writes them.
    const bool whole_arrays = !args.inputs.empty() || !args.save_inputs.empty();
    inputs = whole_arrays ? emulate::edge_inputs(*config, set, value_types)
                          : emulate::generated_edge_inputs(*config, set, value_types);
    for (const auto& [name, type] : types)
      inputs.types[name] = type;
  } else {
    inputs = emulate::random_inputs(*config, args.seed, types);
  }
  if (!args.inputs.empty()) {
    if (auto read = read_inputs(args.inputs, *config, inputs); !read) {
      diagnostics.error("--inputs: " + read.error());
      return kBadInput;
    }
  }
  if (!args.counterexample.empty()) {
    if (!args.inputs.empty() || (args.batch.empty() && args.filter.empty())) {
      diagnostics.error("--counterexample needs --filter (the entry of the report) and does not "
                        "combine with --inputs");
      return kBadInput;
    }
    if (args.batch.empty())
      entry_name = args.filter;
    if (auto read = read_counterexample(args.counterexample, entry_name, *config, inputs); !read) {
      diagnostics.error("--counterexample: " + read.error());
      return kBadInput;
    }
  }
  if (!args.save_inputs.empty()) {
    if (const int status = save_inputs(args.save_inputs, *config, inputs); status != kSuccess)
      return status;
  }
  emulate::EmulateOptions options;
  options.max_instructions = args.max_instructions;
  // Printing reads a few elements: the outputs stay the launch's paged memory (a large array
  // costs the pages the run touched); --out writes whole arrays.
  options.sparse_outputs = args.out.empty();
  const auto r = emulate::emulate(loaded.kernel->program, *config, inputs, options);
  if (r.error) {
    diagnostics.error_in(config->ptx_path, fmt::format("{}: {}", r.error->kind, r.error->text()));
    return r.error->bad_input ? kBadInput : kMismatch;
  }
  if (!args.quiet)
    std::cout << fmt::format("{}: ran {} thread-instructions\n", config->entry, r.instructions);
  if (r.uninitialized_reads != 0)
    diagnostics.warning_in(config->ptx_path,
                           fmt::format("{} reads of memory no thread wrote, read as 0 here (a GPU "
                                       "reads whatever the memory held); the first: {}",
                                       r.uninitialized_reads, r.first_uninitialized_read));
  if (!args.out.empty())
    return write_outputs(args, r);
  if (args.quiet)
    return kSuccess;
  for (const auto& o : r.outputs) {
    uint64_t written = 0;
    for (const auto& [first, end] : o.written_ranges())
      for (uint64_t i = first; i < end; ++i)
        written += o.is_written(i) ? 1 : 0;
    std::string line = fmt::format("  {} ({}, {} of {} elements written):", o.name,
                                   emulate::to_string(o.type), written, o.len);
    for (uint64_t i = 0; i < o.len && i < args.show; ++i)
      line += fmt::format(" {}", o.value(i));
    if (o.len > args.show)
      line += " ...";
    std::cout << line << "\n";
  }
  return kSuccess;
}

} // namespace

void register_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", "run one kernel concretely (bit-exact IEEE emulation, no GPU) on given or random "
             "inputs and print or dump its outputs");
  args->kernel.add_to(*cmd, "", "kernel");
  cmd->add_option("--batch", args->batch, "manifest to take the kernel from (with --filter)");
  cmd->add_option("--filter", args->filter,
                  "name (or part of the name) of the manifest entry; without --batch, the name of "
                  "the report's entry for --counterexample");
  cmd->add_option("--side", args->side, "ref or opt: which kernel of an equivalence entry")
      ->capture_default_str();
  cmd->add_option("--inputs", args->inputs,
                  "JSON object {\"A\": [numbers...], \"sym\": number} or a folder of NAME.npy");
  cmd->add_option("--seed", args->seed, "seed of the random inputs (arrays not given)")
      ->capture_default_str();
  cmd->add_option("--cross-check-input", args->cross_check_input,
                  "run on input set K of prove's emulator cross-check instead of random inputs: "
                  "0 specials, 1 moderate, 2 wide (the same bytes for both kernels of an entry)")
      ->check(CLI::Range(0, 2));
  cmd->add_option("--save-inputs", args->save_inputs,
                  "write the inputs used (given or random) to this folder as NAME.npy and "
                  "symbols.json, the form --inputs reads");
  cmd->add_option("--counterexample", args->counterexample,
                  "a report of volta-eg prove: run the entry's counterexample (its listed inputs, "
                  "or its device witness's where the report gives one; every other input 0)");
  cmd->add_option("--type", args->types,
                  "element type of an array NAME=f32|f16|bf16|f64|s32|u8...");
  cmd->add_option("--out", args->out, "an .npy file (one output array) or a folder of NAME.npy");
  cmd->add_option("--show", args->show, "elements of each output to print")->capture_default_str();
  cmd->add_option("--max-instructions", args->max_instructions,
                  "stop after this many executed instructions (0: no limit)");
  cmd->add_flag("-q,--quiet", args->quiet,
                "print nothing but errors (with --out: write the files)");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

} // namespace volta::cli
