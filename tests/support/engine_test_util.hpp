// Helpers of the engine tests: "run this PTX text with this launch configuration" and read the
// outputs back as printed expressions, exact constants or values at a point.
#pragma once

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "engine/entry/equivalence_entry.hpp"
#include "engine/entry/race_check_entry.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/printer.hpp"
#include "engine/verdict.hpp"

namespace volta {
// Verdicts print as their words in failed expectations.
inline void PrintTo(Verdict v, std::ostream* os) {
  *os << to_string(v);
}
} // namespace volta

namespace volta::etest {

using launch::ArraySpec;
using launch::Dim3;
using launch::KernelConfig;
using symbolic::ExprId;
using symbolic::Rational;

// The module header every inline kernel starts with.
inline constexpr std::string_view kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// A module with module-level declarations `decls` (shared/const/global variables) and one
// kernel `entry` with the given parameter list and body, and a generous set of registers of
// every kind (%p, %h, %r, %rd, %f, %fd), so that tests only write instructions.
inline std::string kernel(std::string_view params, std::string_view body,
                          std::string_view decls = "", std::string_view entry = "k") {
  std::string s(kHeader);
  s += decls;
  s += "\n.visible .entry ";
  s += entry;
  s += "(";
  s += params;
  s += ")\n{\n";
  s += "  .reg .pred %p<16>;\n  .reg .b16 %h<16>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<32>;\n";
  s += "  .reg .f32 %f<32>;\n  .reg .f64 %fd<8>;\n";
  s += body;
  s += "\n}\n";
  return s;
}

// The 1-based line of `text` that contains `needle` first (0 when absent): lets tests name the
// PTX line they expect a report to point at without counting lines by hand.
inline uint32_t line_of(std::string_view text, std::string_view needle) {
  const size_t at = text.find(needle);
  if (at == std::string_view::npos)
    return 0;
  uint32_t line = 1;
  for (size_t i = 0; i < at; ++i)
    line += text[i] == '\n' ? 1 : 0;
  return line;
}

// "name:base:width:len:kind", as `volta-eg check --array` takes it.
inline ArraySpec array(const std::string& flag) {
  auto a = launch::parse_array_flag(flag);
  EXPECT_TRUE(a.has_value()) << flag << ": " << (a ? "" : a.error());
  return a.value_or(ArraySpec{});
}

// A launch configuration in the words of the command line.
struct Launch {
  std::string entry = "k";
  Dim3 block{1, 1, 1};
  Dim3 grid{1, 1, 1};
  std::vector<std::string> arrays; // "name:base:width:len:kind"
  std::vector<std::string> params; // "ptr:A", "int:3", "sym:alpha", "float:0.5"
  uint64_t dyn_shared = 0;
  bool all_ctas = false;
  std::map<std::string, int64_t> globals; // module .global variables set before launch
};

inline KernelConfig make_config(const Launch& l) {
  KernelConfig c;
  c.entry = l.entry;
  c.block = l.block;
  c.grid = l.grid;
  for (const auto& a : l.arrays)
    c.arrays.push_back(array(a));
  for (const auto& p : l.params) {
    auto spec = launch::parse_param(p);
    EXPECT_TRUE(spec.has_value()) << p << ": " << (spec ? "" : spec.error());
    if (spec)
      c.params.push_back(*spec);
  }
  c.dyn_shared_bytes = l.dyn_shared;
  c.ctas = l.all_ctas ? launch::CtaMode::All : launch::CtaMode::First;
  c.globals = l.globals;
  return c;
}

// One output array `out` of `len` 4-byte elements at 0x100000, the pointer its only parameter:
// the launch of most instruction tests.
inline Launch one_out(uint64_t len, Dim3 block = {1, 1, 1}, uint32_t width = 4) {
  Launch l;
  l.block = block;
  l.arrays = {"out:0x100000:" + std::to_string(width) + ":" + std::to_string(len) + ":out"};
  l.params = {"ptr:out"};
  return l;
}

// Writes PTX text to a file of its own (load_kernel reads files); removed when destroyed.
class TempPtx {
public:
  explicit TempPtx(std::string_view text) {
    static std::atomic<unsigned> counter{0};
    path_ = (std::filesystem::temp_directory_path() / ("volta-etest-" + std::to_string(::getpid()) +
                                                       "-" + std::to_string(counter++) + ".ptx"))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out << text;
  }
  ~TempPtx() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempPtx(const TempPtx&) = delete;
  TempPtx& operator=(const TempPtx&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// The outcome of running one PTX text: the load diagnostics, the run, and the store its
// expressions live in.
struct Result {
  std::unique_ptr<symbolic::ExprStore> store = std::make_unique<symbolic::ExprStore>();
  std::vector<ptx::Diagnostic> diagnostics;
  std::optional<exec::KernelRun> run;
  std::string ptx_text;

  bool loaded() const { return run.has_value(); }
  const exec::Failure* failure() const { return run && run->failure ? &*run->failure : nullptr; }

  // The verdict a race check gives: the run's failure, else an uninitialized output, else
  // RACE_FREE (ERROR when the kernel did not load).
  Verdict verdict() const {
    if (!run)
      return Verdict::Error;
    if (run->failure)
      return run->failure->verdict;
    if (auto f = entry::output_failure(*run, *store, false))
      return f->verdict;
    return Verdict::RaceFree;
  }
  // Everything a failed expectation should show.
  std::string describe() const {
    std::ostringstream s;
    for (const auto& d : diagnostics)
      s << d.render() << "\n";
    if (const auto* f = failure()) {
      s << to_string(f->verdict) << " [" << f->kind << "] " << f->message;
    } else if (run) {
      s << "no failure; outputs:";
      for (const auto& o : run->outputs) {
        for (const auto& [i, e] : o.elements)
          s << "\n  " << o.name << "[" << i << "] = " << symbolic::to_sexpr(*store, e, 300);
      }
    }
    return s.str();
  }

  const exec::OutputArray* output(std::string_view name) const {
    if (!run)
      return nullptr;
    for (const auto& o : run->outputs) {
      if (o.name == name)
        return &o;
    }
    return nullptr;
  }
  std::optional<ExprId> element(std::string_view name, uint64_t index) const {
    const auto* o = output(name);
    if (o == nullptr)
      return std::nullopt;
    for (const auto& [i, e] : o->elements) {
      if (i == index)
        return e;
    }
    return std::nullopt;
  }
  size_t written(std::string_view name) const {
    const auto* o = output(name);
    return o ? o->elements.size() : 0;
  }
  // The printed expression of an element, or "<unwritten>".
  std::string expr(std::string_view name, uint64_t index) const {
    auto e = element(name, index);
    return e ? symbolic::to_sexpr(*store, *e) : std::string("<unwritten>");
  }
  symbolic::Op op(std::string_view name, uint64_t index) const {
    auto e = element(name, index);
    return e ? store->op(*e) : static_cast<symbolic::Op>(symbolic::kOpCount); // no operator
  }
};

inline Result run_ptx(const std::string& text, const KernelConfig& config,
                      const exec::RunOptions& options = {}) {
  Result r;
  r.ptx_text = text;
  TempPtx file(text);
  auto loaded = exec::load_kernel(file.path(), config.entry);
  r.diagnostics = loaded.diagnostics;
  if (!loaded.kernel)
    return r;
  KernelConfig c = config;
  c.ptx_path = file.path();
  r.run = exec::run_kernel(loaded.kernel->program, c, *r.store, options);
  return r;
}

inline Result run_ptx(const std::string& text, const Launch& launch,
                      const exec::RunOptions& options = {}) {
  return run_ptx(text, make_config(launch), options);
}

// Exact evaluation of an expression at a point: every input element and symbolic parameter below
// it gets the value `value_of` gives its printed name ("A[3]", "alpha"). nullopt when the value
// is not exact (exp, sqrt ...) or undefined.
inline std::optional<std::string>
evaluate(const Result& r, ExprId root,
         const std::function<Rational(const std::string&)>& value_of) {
  const auto& s = *r.store;
  symbolic::Assignment a;
  for (ExprId leaf : symbolic::leaves_below(s, {root})) {
    const auto& n = s.node(leaf);
    const std::string name = symbolic::leaf_name(s, leaf);
    if (n.op == symbolic::Op::Input) {
      a.values[symbolic::Assignment::input_key(n.a, n.b)] = value_of(name);
    } else if (n.op == symbolic::Op::Param) {
      a.values[symbolic::Assignment::param_key(n.a)] = value_of(name);
    }
  }
  symbolic::Evaluator ev(s, a);
  const auto v = ev.eval(root);
  if (v.kind != symbolic::EvalValue::Kind::Exact)
    return std::nullopt;
  return symbolic::to_string(v.exact);
}

// A race check (check_race_entry) of one PTX text: what `volta-eg check` answers.
inline entry::EntryResult check_ptx(const std::string& text, const Launch& launch) {
  TempPtx file(text);
  launch::ManifestEntry e;
  e.name = launch.entry;
  e.kind = launch::EntryKind::RaceCheck;
  e.kernel = make_config(launch);
  e.kernel.ptx_path = file.path();
  exec::KernelCache cache;
  return entry::check_race_entry(e, cache, {});
}

// An equivalence (prove_pair_entry) of two PTX texts: what `volta-eg prove` answers.
inline entry::EntryResult prove_ptx_pair(const std::string& ref_text, const Launch& ref,
                                         const std::string& opt_text, const Launch& opt,
                                         std::vector<std::string> check_arrays = {}) {
  TempPtx ref_file(ref_text), opt_file(opt_text);
  launch::ManifestEntry e;
  e.name = "(" + ref.entry + ", " + opt.entry + ")";
  e.kind = launch::EntryKind::Equivalence;
  e.reference = make_config(ref);
  e.reference.ptx_path = ref_file.path();
  e.optimized = make_config(opt);
  e.optimized.ptx_path = opt_file.path();
  e.check_arrays = std::move(check_arrays);
  exec::KernelCache cache;
  return entry::prove_equivalence_entry(e, cache, {});
}

// The manifests of the project, by path relative to the repository root.
inline std::string source_path(std::string_view relative) {
  return std::string(VOLTA_SOURCE_DIR) + "/" + std::string(relative);
}

inline launch::Manifest load_manifest(const std::string& path) {
  auto m = launch::read_manifest(path);
  EXPECT_TRUE(m.manifest.has_value()) << path << ": " << ptx::render_all(m.diagnostics);
  return m.manifest.value_or(launch::Manifest{});
}

inline const launch::ManifestEntry* find_entry(const launch::Manifest& m, std::string_view name) {
  for (const auto& e : m.entries) {
    if (e.name == name)
      return &e;
  }
  return nullptr;
}

} // namespace volta::etest
