// The corpus harness: runs every entry of a manifest (default: the Volta corpus's
// benchmarks.json) and prints, per entry, the medians of N runs per phase (load, execute,
// prove, total) beside the figures the Volta authors recorded (`recorded` in the manifest), the
// time our prover takes on the first compared element of each array, the Z3-only baseline on
// those same elements (Z3 on the translation, no canonical forms, no ground laws), and the
// entry's peak resident memory. Each entry runs in a child process of its own, so that its
// peak RSS is its own. Results go to docs/BENCHMARKS.md.
//
//   build/release/bench/corpus/corpus_bench [MANIFEST] [--repeat 3] [--filter REGEX]
//                                           [--z3-timeout MS] [--json OUT.json]
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <tbb/parallel_invoke.h>
#include <unistd.h>
#include <vector>

#include "engine/entry/equivalence_entry.hpp"
#include "engine/entry/race_check_entry.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/smt/z3_baseline.hpp"

namespace {

using namespace volta;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

const char* kind_name(prove::ElementOutcome::Kind k) {
  switch (k) {
  case prove::ElementOutcome::Kind::Equivalent:
    return "EQUIV";
  case prove::ElementOutcome::Kind::NotEquivalent:
    return "NOT_EQUIV";
  case prove::ElementOutcome::Kind::Unknown:
    return "unknown";
  }
  return "?";
}

// The first compared element of each compared array: the "sample-1" elements of the Volta runs.
json sample_elements(const launch::ManifestEntry& e, unsigned z3_timeout_ms) {
  json out = json::array();
  symbolic::ExprStore store;
  exec::KernelCache cache;
  entry::EntryResult part;
  std::optional<exec::KernelRun> ref, opt;
  tbb::parallel_invoke(
      [&] { ref = entry::execute_config(e.reference, "reference", cache, store, {}, part); },
      [&] { opt = entry::execute_config(e.optimized, "optimized", cache, store, {}, part); });
  if (!ref || !opt)
    return out;
  std::vector<std::string> arrays = e.check_arrays;
  if (arrays.empty()) {
    for (const auto& a : e.reference.arrays) {
      if (launch::is_output(a.kind))
        arrays.push_back(a.name);
    }
  }
  for (const auto& name : arrays) {
    const exec::OutputArray *r = nullptr, *o = nullptr;
    for (const auto& x : ref->outputs)
      r = x.name == name ? &x : r;
    for (const auto& x : opt->outputs)
      o = x.name == name ? &x : o;
    if (!r || !o || r->elements.empty() || o->elements.empty())
      continue;
    const auto element = fmt::format("{}[{}]", name, r->elements[0].first);
    const symbolic::ExprId a = r->elements[0].second, b = o->elements[0].second;
    entry::ProveOptions options; // no Z3 fallback: our prover alone
    const auto t = Clock::now();
    const prove::ElementOutcome ours = prove::prove_element(store, a, b, element, options);
    const double ours_s = since(t);
    smt::Budget budget;
    budget.timeout_ms = z3_timeout_ms;
    const smt::BaselineResult z3 = smt::z3_baseline(store, a, b, element, budget);
    out.push_back({{"element", element},
                   {"ours", kind_name(ours.kind)},
                   {"ours_seconds", ours_s},
                   {"z3", kind_name(z3.verdict)},
                   {"z3_reason", z3.reason},
                   {"z3_seconds", z3.seconds}});
  }
  return out;
}

json run_entry(const launch::ManifestEntry& e, int repeat, unsigned z3_timeout_ms) {
  std::vector<double> total, load, execute, prove_s;
  json last;
  for (int i = 0; i < repeat; ++i) {
    exec::KernelCache cache; // fresh: every run loads, as a batch's first entry does
    entry::EntryResult r;
    if (e.kind == launch::EntryKind::RaceCheck) {
      r = entry::check_race_entry(e, cache, {});
    } else {
      r = entry::prove_equivalence_entry(e, cache, {});
    }
    total.push_back(r.seconds);
    load.push_back(r.phases.count("load") ? r.phases.at("load") : 0);
    execute.push_back(r.phases.count("execute") ? r.phases.at("execute") : 0);
    prove_s.push_back(r.phases.count("prove") ? r.phases.at("prove") : 0);
    uint64_t instructions = 0;
    for (const auto& k : r.kernels)
      instructions += k.stats.instructions;
    last = {{"verdict", std::string(to_string(r.verdict))},
            {"match", r.matches()},
            {"instructions", instructions},
            {"elements",
             {{"total", r.elements.total},
              {"direct", r.elements.direct},
              {"reused", r.elements.reused},
              {"rules", r.elements.rules},
              {"z3", r.elements.z3}}},
            {"z3_calls", r.z3_calls}};
  }
  last["seconds"] = median(total);
  last["load"] = median(load);
  last["execute"] = median(execute);
  last["prove"] = median(prove_s);
  if (e.kind == launch::EntryKind::Equivalence)
    last["samples"] = sample_elements(e, z3_timeout_ms);
  return last;
}

// Runs `e` in a child process; adds the child's peak RSS.
json run_isolated(const launch::ManifestEntry& e, int repeat, unsigned z3_timeout_ms) {
  int fds[2];
  if (pipe(fds) != 0)
    return {{"error", "pipe"}};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    try {
      text = run_entry(e, repeat, z3_timeout_ms).dump();
    } catch (const std::exception& ex) {
      text = json{{"error", ex.what()}}.dump();
    }
    size_t off = 0;
    while (off < text.size()) {
      const ssize_t n = write(fds[1], text.data() + off, text.size() - off);
      if (n <= 0)
        break;
      off += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  json out = text.empty() ? json{{"error", "the child process died"}} : json::parse(text);
  out["peak_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  return out;
}

std::string recorded_text(const launch::ManifestEntry& e) {
  if (e.recorded_json.empty())
    return "";
  const json r = json::parse(e.recorded_json, nullptr, false);
  if (r.is_discarded())
    return "";
  std::string s;
  if (r.contains("vc_gen_median_s"))
    s += fmt::format("gen {:.2f}s", r["vc_gen_median_s"].get<double>());
  if (r.contains("solve_sample1_median_s"))
    s += fmt::format(", sample-1 {:.3f}s", r["solve_sample1_median_s"].get<double>());
  if (r.contains("z3_sample1")) {
    std::string z;
    for (const auto& [k, v] : r["z3_sample1"].items())
      z += (z.empty() ? "" : "/") + k;
    s += fmt::format(", Z3 {}", z);
    if (r.contains("z3_sample1_median_s"))
      s += fmt::format(" {:.3f}s", r["z3_sample1_median_s"].get<double>());
  }
  return s;
}

} // namespace

int main(int argc, char** argv) {
  std::string manifest = std::string(VOLTA_CORPUS_DIR) + "/benchmarks.json", filter, json_out;
  int repeat = 3;
  unsigned z3_timeout_ms = 10'000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--repeat") {
      repeat = std::max(1, std::stoi(next()));
    } else if (a == "--filter") {
      filter = next();
    } else if (a == "--z3-timeout") {
      z3_timeout_ms = static_cast<unsigned>(std::stoul(next()));
    } else if (a == "--json") {
      json_out = next();
    } else {
      manifest = a;
    }
  }
  auto m = launch::read_manifest(manifest);
  if (!m.manifest) {
    std::cerr << manifest << ": cannot read the manifest\n";
    return 2;
  }
  const std::regex select(filter.empty() ? ".*" : filter);
  json all = json::array();
  double sum_seconds = 0;
  size_t matched = 0, entries = 0;
  fmt::print("{:<48} {:<14} {:>3} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}  {}\n", "entry", "verdict",
             "ok", "total_s", "load_s", "exec_s", "prove_s", "Minstr/s", "RSS_MiB",
             "recorded (Volta, 128-core EPYC)");
  for (const auto& e : m.manifest->entries) {
    if (!std::regex_search(e.name, select))
      continue;
    json r = run_isolated(e, repeat, z3_timeout_ms);
    r["name"] = e.name;
    r["recorded"] = recorded_text(e);
    ++entries;
    if (r.contains("error")) {
      fmt::print("{:<48} error: {}\n", e.name, r["error"].get<std::string>());
      all.push_back(r);
      continue;
    }
    sum_seconds += r["seconds"].get<double>();
    matched += r["match"].get<bool>() ? 1 : 0;
    const double exec = r["execute"].get<double>();
    fmt::print("{:<48} {:<14} {:>3} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.1f} {:>8.0f}  {}\n",
               e.name, r["verdict"].get<std::string>(), r["match"].get<bool>() ? "yes" : "NO",
               r["seconds"].get<double>(), r["load"].get<double>(), exec, r["prove"].get<double>(),
               exec > 0 ? r["instructions"].get<double>() / exec / 1e6 : 0.0,
               r["peak_rss_mib"].get<double>(), r["recorded"].get<std::string>());
    if (r.contains("samples")) {
      for (const auto& s : r["samples"]) {
        fmt::print("    {:<24} ours {:<9} {:>8.4f}s    Z3-only {:<9} {:>8.3f}s {}\n",
                   s["element"].get<std::string>(), s["ours"].get<std::string>(),
                   s["ours_seconds"].get<double>(), s["z3"].get<std::string>(),
                   s["z3_seconds"].get<double>(), s["z3_reason"].get<std::string>().substr(0, 60));
      }
    }
    std::fflush(stdout);
    all.push_back(r);
  }
  fmt::print("\n{} entries, {} as expected; sum of median times {:.2f}s ({} runs each)\n", entries,
             matched, sum_seconds, repeat);
  if (!json_out.empty())
    std::ofstream(json_out) << all.dump(2) << "\n";
  return matched == entries ? 0 : 1;
}
