// volta_eg._engine: the compiled half of the Python module. It parses entries with the manifest
// reader (so Python kernels obey the manifest's rules and messages), runs them with the runner
// `volta-eg prove` uses (engine/session/entry_runner.hpp) and the same caches, and runs one
// kernel on the emulator. Everything that takes time runs with the GIL released; a batch runs on
// its own threads so that the interpreter stays free to deliver Ctrl-C, which cancels it.
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <thread>

#include "engine/batch/batch.hpp"
#include "engine/batch/cache_folder.hpp"
#include "engine/batch/proof_cache_dir.hpp"
#include "engine/batch/run_cache_dir.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/entry/element_explanation.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/cuda_source.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/explanation_text.hpp"
#include "engine/report/report_json.hpp"
#include "engine/session/entry_runner.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace py = pybind11;

namespace volta::python {

namespace {

// A located problem with the input, raised as volta_eg.<kind> (ManifestError, PTXError,
// CudaError, EmulationError) with the file, line and column when known.
struct InputError {
  std::string kind;
  std::string message;
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

InputError from_diagnostic(const std::string& kind, const ptx::Diagnostic& d) {
  return {kind, d.text(), d.file, d.where.line, d.where.column};
}

// The entries of one manifest (or of the JSON the Python side writes for its kernels), and the
// kernels they name, loaded once when the entries were checked.
struct EntrySet {
  std::shared_ptr<const launch::Manifest> manifest;
  std::shared_ptr<exec::KernelCache> kernels = std::make_shared<exec::KernelCache>();
  std::vector<std::string> warnings;

  const launch::ManifestEntry& at(size_t i) const {
    if (i >= manifest->entries.size())
      throw py::index_error(fmt::format("no entry #{}", i));
    return manifest->entries[i];
  }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : manifest->entries)
      n.push_back(e.name);
    return n;
  }
  std::string kind(size_t i) const { return std::string(launch::to_string(at(i).kind)); }
};

const launch::KernelConfig& config_of(const launch::ManifestEntry& e, const std::string& role) {
  if (role == "reference")
    return e.reference;
  if (role == "optimized")
    return e.optimized;
  return e.kernel;
}

// Every entry well-formed and every kernel loadable and fitting its configuration, or the first
// problem as an InputError. `strict`: an entry's error is raised (Python kernels); otherwise it
// stays in the entry and the batch reports it as ERROR, as the CLI does for a manifest.
// Kernels that loaded and fit their configuration before (the same PTX bytes, entry,
// configuration and volta-eg build: RunCache's key) are not loaded again up front when a cache
// folder is given: a loop that keeps its reference reads most results from the entry cache and
// never needs those kernels, and a kernel that does run is loaded then. A marker file records
// the successful check, DIR/checked/<key>.
std::unique_ptr<batch::CacheFolder> checked_kernels(const std::string& cache_dir) {
  if (cache_dir.empty())
    return nullptr;
  auto folder = std::make_unique<batch::CacheFolder>(
      std::filesystem::path(cache_dir) / "checked", "volta-eg checked-kernel 1", "checked-kernel",
      "the kernel is loaded and checked again", &DiagnosticReporter::standard());
  if (folder->create())
    return nullptr; // not usable: check every kernel, as without a cache
  return folder;
}

void check_entries(EntrySet& set, bool strict, batch::CacheFolder* checked) {
  for (const auto& e : set.manifest->entries) {
    if (!e.error.empty()) {
      if (strict)
        throw InputError{"ManifestError", e.error, set.manifest->path, 0, 0};
      continue;
    }
    const bool pair = e.kind == launch::EntryKind::Equivalence;
    for (const char* role : pair ? std::vector<const char*>{"reference", "optimized"}
                                 : std::vector<const char*>{"kernel"}) {
      const auto& config = config_of(e, role);
      const auto key =
          checked ? batch::DirectoryRunCache::key(config, exec::RunOptions{}) : std::nullopt;
      if (key && checked->read(*key))
        continue;
      const auto loaded = set.kernels->load(config.ptx_path, config.entry);
      if (!loaded.kernel) {
        if (!loaded.diagnostics.empty())
          throw from_diagnostic("PTXError", loaded.diagnostics.front());
        throw InputError{
            "PTXError",
            fmt::format("{}: error: cannot load kernel \"{}\"", config.ptx_path, config.entry),
            config.ptx_path, 0, 0};
      }
      if (auto problem = exec::check_config(loaded.kernel->program, config); !problem.empty()) {
        throw InputError{"ManifestError",
                         fmt::format("{}: error: {}{}", config.ptx_path, problem,
                                     pair ? fmt::format(" (the {} kernel)", role) : ""),
                         config.ptx_path, 0, 0};
      }
      if (key)
        checked->write(*key, "ok");
    }
  }
}

std::shared_ptr<EntrySet> entry_set(launch::ManifestResult parsed, bool strict,
                                    const std::string& cache_dir = "") {
  std::vector<std::string> warnings;
  for (const auto& d : parsed.diagnostics) {
    if (d.severity == ptx::Severity::Error || !parsed.manifest)
      throw from_diagnostic("ManifestError", d);
    warnings.push_back(d.text());
  }
  if (!parsed.manifest)
    throw InputError{"ManifestError", "cannot use this manifest", "", 0, 0};
  auto set = std::make_shared<EntrySet>();
  set->manifest = std::make_shared<const launch::Manifest>(std::move(*parsed.manifest));
  set->warnings = std::move(warnings);
  check_entries(*set, strict, checked_kernels(cache_dir).get());
  return set;
}

std::shared_ptr<EntrySet> parse_entries(const std::string& text, const std::string& path,
                                        const std::string& cache_dir) {
  launch::ManifestResult parsed;
  {
    py::gil_scoped_release free;
    parsed = launch::parse_manifest(text, path);
  }
  return entry_set(std::move(parsed), true, cache_dir);
}

std::shared_ptr<EntrySet> read_manifest(const std::string& path) {
  launch::ManifestResult parsed;
  {
    py::gil_scoped_release free;
    parsed = launch::read_manifest(path);
  }
  return entry_set(std::move(parsed), false);
}

// The prover settings of one call (`prove(..., timeout=..., z3_timeout_ms=...)`).
struct Settings {
  std::string cache_dir; // empty: no cache
  double timeout = 0;
  uint64_t max_instructions = 0;
  bool strict_races = false;           // every unordered write-write pair a race (`--strict-races`)
  bool assume_converged_waits = false; // `--assume-converged-waits`
  uint64_t max_terms = 0;
  unsigned z3_timeout_ms = 10'000;
  bool z3 = true;
  bool mutual = false;
  bool reuse = true;
  bool cross_check = true;     // the emulator cross-check of an EQUIVALENT (`--no-cross-check`)
  std::string float_tolerance; // `--float-tolerance`: "rel=R,abs=A"; empty: none
  int jobs = 1;
};

// One running batch: `jobs` threads take the entries in order and run each under the guards of
// batch::run_batch (timeout, isolation of exceptions, cancellation); finished results are
// handed out as they come.
class Batch {
public:
  Batch(std::shared_ptr<EntrySet> set, std::vector<size_t> order, const Settings& settings)
      : set_(std::move(set)), order_(std::move(order)) {
    if (!settings.cache_dir.empty()) {
      auto refuse = [&](const std::string& error) {
        throw InputError{"ManifestError", "cache_dir: " + error, settings.cache_dir, 0, 0};
      };
      DiagnosticReporter* warnings = &DiagnosticReporter::standard();
      auto proofs = batch::DirectoryProofCache::open(settings.cache_dir, warnings);
      if (!proofs)
        refuse(proofs.error());
      auto runs = batch::DirectoryRunCache::open(settings.cache_dir, warnings);
      if (!runs)
        refuse(runs.error());
      auto entries = batch::EntryCache::open(settings.cache_dir, warnings);
      if (!entries)
        refuse(entries.error());
      proofs_ = std::move(*proofs);
      runs_ = std::move(*runs);
      entries_ = std::move(*entries);
    }
    entry::ProveOptions options;
    options.run.max_instructions = settings.max_instructions;
    options.run.benign_races = !settings.strict_races;
    options.run.converged_waits = settings.assume_converged_waits;
    options.timeout_seconds = settings.timeout;
    options.reuse_templates = settings.reuse;
    options.mutual = settings.mutual;
    options.cross_check_settings.enabled = settings.cross_check;
    if (!settings.float_tolerance.empty()) {
      auto tolerance = launch::parse_float_tolerance(settings.float_tolerance);
      if (!tolerance)
        throw InputError{"ManifestError", "float_tolerance: " + tolerance.error(), "", 0, 0};
      options.float_tolerance = *tolerance;
    }
    if (settings.max_terms > 0)
      options.term_budget = settings.max_terms;
    options.cache = proofs_.get();
    options.runs = runs_.get();
    session::Z3Settings z3;
    z3.enabled = settings.z3;
    z3.timeout_ms = settings.z3_timeout_ms;
    z3.max_terms = settings.max_terms;
    runner_ = session::make_entry_runner(options, z3, *set_->kernels, entries_.get());
    batch_options_.timeout_seconds = settings.timeout;
    batch_options_.interrupt = &interrupt_;
    const size_t workers = std::min<size_t>(std::max(1, settings.jobs), order_.size());
    for (size_t w = 0; w < workers; ++w)
      workers_.emplace_back([this] { work(); });
  }
  ~Batch() {
    cancel();
    join();
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // The next finished result as (position in the order, report JSON text); None when `timeout`
  // seconds passed first; StopIteration when every result was handed out.
  std::optional<std::pair<size_t, std::string>> next(double timeout) {
    std::unique_lock lock(mutex_);
    if (handed_ == order_.size())
      throw py::stop_iteration();
    {
      py::gil_scoped_release free;
      changed_.wait_for(lock, std::chrono::duration<double>(timeout),
                        [&] { return !done_.empty(); });
    }
    if (done_.empty())
      return std::nullopt;
    auto item = std::move(done_.front());
    done_.pop_front();
    ++handed_;
    return item;
  }

  // Stops the batch: no entry starts any more, running ones end UNKNOWN ("interrupted").
  void cancel() { interrupt_.store(SIGINT); }

  void join() {
    py::gil_scoped_release free;
    for (auto& t : workers_) {
      if (t.joinable())
        t.join();
    }
  }

  py::dict cache_stats() const {
    py::dict d;
    if (proofs_) {
      d["proof_hits"] = proofs_->hits();
      d["proof_stored"] = proofs_->stored();
      d["run_hits"] = runs_->hits();
      d["run_misses"] = runs_->misses();
      d["run_stored"] = runs_->stored();
      d["entry_hits"] = entries_->hits();
      d["entry_stored"] = entries_->stored();
      d["ignored"] = proofs_->ignored() + runs_->ignored() + entries_->ignored();
    }
    return d;
  }

private:
  void work() {
    for (size_t i = next_.fetch_add(1); i < order_.size(); i = next_.fetch_add(1)) {
      const launch::ManifestEntry* entry = &set_->at(order_[i]);
      std::string text;
      try {
        auto results = batch::run_batch({entry}, runner_, batch_options_);
        text = report::to_json(results.at(0)).dump();
      } catch (const std::exception& e) {
        entry::EntryResult r;
        r.index = entry->index;
        r.name = entry->name;
        r.detail = std::string("internal error: ") + e.what();
        text = report::to_json(r).dump();
      }
      std::lock_guard lock(mutex_);
      done_.emplace_back(i, std::move(text));
      changed_.notify_all();
    }
  }

  std::shared_ptr<EntrySet> set_;
  std::vector<size_t> order_;
  std::unique_ptr<batch::DirectoryProofCache> proofs_;
  std::unique_ptr<batch::DirectoryRunCache> runs_;
  std::unique_ptr<batch::EntryCache> entries_;
  batch::EntryRunner runner_;
  batch::BatchOptions batch_options_;
  std::atomic<int> interrupt_{0};
  std::atomic<size_t> next_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<size_t, std::string>> done_;
  size_t handed_ = 0;
  std::vector<std::thread> workers_;
};

// Runs one kernel of an entry on the bit-exact emulator. `arrays`: the bytes of every in/inout
// array (already in the array's element type); returns name -> (type, bytes, written mask).
py::dict emulate_kernel(const EntrySet& set, size_t index, const std::string& role,
                        const std::map<std::string, py::bytes>& arrays,
                        const std::map<std::string, double>& symbols, uint64_t max_instructions) {
  const auto& config = config_of(set.at(index), role);
  emulate::Inputs inputs;
  for (const auto& [name, bytes] : arrays) {
    const std::string_view view = bytes;
    inputs.arrays[name] = std::vector<uint8_t>(view.begin(), view.end());
  }
  inputs.symbols = symbols;
  for (const auto& a : config.arrays) {
    if (a.type != launch::ElemType::Unknown)
      inputs.types[a.name] = a.type;
  }
  emulate::EmulationResult result;
  {
    py::gil_scoped_release free;
    const auto loaded = set.kernels->load(config.ptx_path, config.entry);
    if (!loaded.kernel) {
      if (!loaded.diagnostics.empty())
        throw from_diagnostic("PTXError", loaded.diagnostics.front());
      throw InputError{"PTXError", "cannot load kernel " + config.entry, config.ptx_path, 0, 0};
    }
    emulate::EmulateOptions options;
    if (max_instructions > 0)
      options.max_instructions = max_instructions;
    result = emulate::emulate(loaded.kernel->program, config, inputs, options);
  }
  if (result.error) {
    throw InputError{
        "EmulationError",
        fmt::format("{}: error: {}: {}", config.ptx_path, result.error->kind, result.error->text()),
        config.ptx_path, result.error->ptx_line, 0};
  }
  py::dict out;
  for (const auto& o : result.outputs) {
    out[py::str(o.name)] = py::make_tuple(
        std::string(emulate::to_string(o.type)),
        py::bytes(reinterpret_cast<const char*>(o.bytes.data()), o.bytes.size()),
        py::bytes(reinterpret_cast<const char*>(o.written.data()), o.written.size()));
  }
  return out;
}

// Characters of each value an explanation shows (they can be megabytes long): the CLI's width.
constexpr size_t kExplainValueWidth = 400;

// `volta-eg explain` of one element of an equivalence entry, with the options the CLI's explain
// uses (the shipped rule library, the Z3 fallback unless `z3` is false). The fields of the CLI's
// console output, for the Python side to print the same text.
py::dict explain(const EntrySet& set, size_t index, const std::string& element, size_t steps,
                 bool z3, unsigned z3_timeout_ms) {
  const launch::ManifestEntry& entry = set.at(index);
  if (entry.kind != launch::EntryKind::Equivalence)
    throw InputError{"ManifestError", "explain needs an equivalence entry (a pair)", "", 0, 0};
  entry::ElementExplanation x;
  {
    py::gil_scoped_release free;
    entry::ProveOptions options;
    if (z3)
      options.fallback = smt::make_z3_fallback(z3_timeout_ms);
    x = entry::explain_element(entry, *set.kernels, options, element, steps);
  }
  py::dict d;
  d["element"] = x.element.empty() ? element : x.element;
  d["stopped"] = py::none();
  if (x.stopped) {
    d["stopped"] = py::make_tuple(std::string(to_string(x.stopped->verdict)), x.stopped->detail,
                                  x.stopped->bad_input);
    return d;
  }
  d["note"] = x.note;
  d["reference_expr"] = x.reference_expr;
  d["optimized_expr"] = x.optimized_expr;
  if (x.reference_expr.empty())
    return d;
  d["values"] = prove::describe_value_pair(x.reference_expr, x.optimized_expr, kExplainValueWidth);
  const prove::ElementOutcome& o = x.outcome;
  using Kind = prove::ElementOutcome::Kind;
  d["verdict"] = o.kind == Kind::Equivalent      ? "EQUIVALENT"
                 : o.kind == Kind::NotEquivalent ? "NOT_EQUIVALENT"
                                                 : "UNKNOWN";
  d["how"] = o.kind == Kind::Equivalent ? o.how() : std::string();
  d["reason"] = o.reason;
  d["rules_used"] = o.rules_used;
  d["counterexample"] = py::none();
  if (o.kind == Kind::NotEquivalent && o.counterexample) {
    const Counterexample& c = *o.counterexample;
    py::dict inputs;
    for (const auto& [k, v] : c.inputs)
      inputs[py::str(k)] = v;
    py::dict cx;
    cx["element"] = c.element.empty() ? element : c.element;
    cx["inputs"] = inputs;
    cx["input_order"] = c.inputs; // the CLI prints them in this order
    cx["reference_value"] = c.reference_value;
    cx["optimized_value"] = c.optimized_value;
    cx["confirmed"] = c.confirmed;
    d["counterexample"] = cx;
  }
  d["steps"] = x.steps;
  d["total_steps"] = x.total_steps;
  d["check"] = x.check;
  return d;
}

std::string compile_cuda(const std::string& source, const std::string& arch,
                         const std::vector<std::string>& flags, const std::string& cache_dir) {
  launch::CudaCompileRequest request;
  request.source = source;
  request.arch = arch;
  request.flags = flags;
  request.cache_dir = cache_dir;
  launch::CudaCompileResult result;
  {
    py::gil_scoped_release free;
    result = launch::compile_cuda(request);
  }
  if (!result.ok())
    throw InputError{"CudaError", fmt::format("{}: error: {}", source, result.error), source, 0, 0};
  return result.ptx_path;
}

} // namespace

} // namespace volta::python

PYBIND11_MODULE(_engine, m) {
  using namespace volta::python;
  m.doc() = "volta-eg's engine (use the volta_eg package, not this module)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object cls = py::module_::import("volta_eg").attr(e.kind.c_str());
      py::object line = e.line ? py::object(py::int_(e.line)) : py::object(py::none());
      py::object column = e.column ? py::object(py::int_(e.column)) : py::object(py::none());
      py::object error =
          cls(e.message, e.file.empty() ? py::object(py::none()) : py::str(e.file), line, column);
      PyErr_SetObject(cls.ptr(), error.ptr());
    }
  });

  py::class_<EntrySet, std::shared_ptr<EntrySet>>(m, "EntrySet")
      .def("names", &EntrySet::names)
      .def("kind", &EntrySet::kind)
      .def_property_readonly("warnings", [](const EntrySet& s) { return s.warnings; })
      .def_property_readonly("path", [](const EntrySet& s) { return s.manifest->path; })
      .def("__len__", [](const EntrySet& s) { return s.manifest->entries.size(); })
      .def("expected", [](const EntrySet& s, size_t i) -> std::optional<std::string> {
        const auto& e = s.at(i);
        if (!e.expected)
          return std::nullopt;
        return std::string(volta::to_string(*e.expected));
      });

  py::class_<Settings>(m, "Settings")
      .def(py::init<>())
      .def_readwrite("cache_dir", &Settings::cache_dir)
      .def_readwrite("timeout", &Settings::timeout)
      .def_readwrite("max_instructions", &Settings::max_instructions)
      .def_readwrite("strict_races", &Settings::strict_races)
      .def_readwrite("assume_converged_waits", &Settings::assume_converged_waits)
      .def_readwrite("max_terms", &Settings::max_terms)
      .def_readwrite("z3_timeout_ms", &Settings::z3_timeout_ms)
      .def_readwrite("z3", &Settings::z3)
      .def_readwrite("mutual", &Settings::mutual)
      .def_readwrite("reuse", &Settings::reuse)
      .def_readwrite("cross_check", &Settings::cross_check)
      .def_readwrite("float_tolerance", &Settings::float_tolerance)
      .def_readwrite("jobs", &Settings::jobs);

  py::class_<Batch, std::shared_ptr<Batch>>(m, "Batch")
      .def(py::init<std::shared_ptr<EntrySet>, std::vector<size_t>, const Settings&>())
      .def("next", &Batch::next, py::arg("timeout"))
      .def("cancel", &Batch::cancel)
      .def("join", &Batch::join)
      .def("cache_stats", &Batch::cache_stats);

  m.def("parse_entries", &parse_entries, py::arg("text"), py::arg("path"),
        py::arg("cache_dir") = "");
  m.def("read_manifest", &read_manifest, py::arg("path"));
  m.def("emulate", &emulate_kernel, py::arg("entries"), py::arg("index"), py::arg("role"),
        py::arg("arrays"), py::arg("symbols"), py::arg("max_instructions") = 0);
  m.def("compile_cuda", &compile_cuda, py::arg("source"), py::arg("arch"), py::arg("flags"),
        py::arg("cache_dir"));
  m.def("explain", &explain, py::arg("entries"), py::arg("index"), py::arg("element"),
        py::arg("steps"), py::arg("z3"), py::arg("z3_timeout_ms"));
  m.def("find_nvcc", &volta::launch::find_nvcc);
}
