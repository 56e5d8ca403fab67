// volta-pair-fuzz: generates random kernel pairs, proves each with the engine and checks every
// verdict against the bit-exact emulator (pair_check.hpp). Workers are child processes, so
// that a crash or a hang of the tool on one pair is recorded (with a reproducer) and the run goes
// on. Usage: see --help and docs/fuzzing.md.
#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

#include "pair_check.hpp"
#include "pair_reducer.hpp"
#include "ptx_writer.hpp"
#include "repro.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace volta::pair_fuzz;

namespace {

struct Args {
  uint64_t seed = 1;
  uint64_t count = 0; // 0: until --time
  double time = 0;    // seconds; 0: until --count
  int jobs = 1;
  uint64_t start = 0;
  std::string out;
  std::string known_open;
  std::string replay;
  std::string reduce;
  std::string kind;
  bool no_z3 = false;
  double z3_fraction = 0.25;
  unsigned z3_timeout_ms = 2000;
  double prove_timeout = 30;
  double hang_seconds = 0; // 0: derived from prove_timeout
  int max_ops = 16;
  bool quiet = false;
  int progress_seconds = 30;
  int max_suspicious_repros = 10;
  int max_disagreement_repros = 50;
};

std::string work_root() {
  const char* tmp = std::getenv("TMPDIR");
  return (fs::path(tmp && *tmp ? tmp : "/tmp") / fmt::format("volta-pair-fuzz-{}", getpid()))
      .string();
}

CheckOptions check_options(const Args& a, const std::string& work) {
  CheckOptions o;
  o.prove_timeout = a.prove_timeout;
  o.z3 = !a.no_z3;
  o.z3_fraction = a.z3_fraction;
  o.z3_timeout_ms = a.z3_timeout_ms;
  o.work_dir = work;
  return o;
}

std::string severity_word(Severity s) {
  return s == Severity::Disagreement ? "disagreement" : "suspicious";
}

// --- one worker (a child process) --------------------------------------------------------------

[[noreturn]] void worker(const Args& a, int fd, uint64_t first, uint64_t step, uint64_t end,
                         double deadline_epoch, const std::string& work) {
  FILE* out = fdopen(fd, "w");
  std::map<std::string, int> written; // suspicious reproducers written, per kind
  GenOptions gen;
  gen.max_ops = a.max_ops;
  const CheckOptions o = check_options(a, work);
  for (uint64_t i = first; end == 0 || i < end; i += step) {
    const double now =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (deadline_epoch > 0 && now >= deadline_epoch)
      break;
    fprintf(out, "START %llu\n", static_cast<unsigned long long>(i));
    fflush(out);
    const PairCase c = make_case(a.seed, i, gen);
    const CheckResult r = check_pair(c, o);
    json j;
    j["i"] = i;
    j["verdict"] = std::string(volta::to_string(r.verdict));
    j["label"] = std::string(to_string(c.label));
    j["guard"] = r.guard;
    j["exact"] = r.exact_inputs;
    j["prove_s"] = r.prove_seconds;
    j["oracle_s"] = r.oracle_seconds;
    j["detail"] = r.detail.substr(0, 300);
    json muts = json::array();
    for (const auto& m : c.applied)
      muts.push_back(m.name);
    j["mutations"] = muts;
    json fs_ = json::array();
    for (const auto& f : r.findings) {
      fs_.push_back({{"severity", severity_word(f.severity)},
                     {"kind", f.kind},
                     {"message", f.message.substr(0, 600)}});
      const int limit = f.severity == Severity::Disagreement ? a.max_disagreement_repros
                                                             : a.max_suspicious_repros;
      if (!a.out.empty() && written[severity_word(f.severity) + f.kind]++ < limit) {
        const std::string dir = (fs::path(a.out) / (severity_word(f.severity) + "s") / f.kind /
                                 fmt::format("s{}-i{}", c.seed, c.index))
                                    .string();
        write_repro(dir, c, &r, &f);
      }
    }
    j["findings"] = fs_;
    fprintf(out, "DONE %s\n", j.dump().c_str());
    fflush(out);
  }
  fclose(out);
  _exit(0);
}

// --- the parent: spawns workers, watches them, summarizes --------------------------------------

// A known open disagreement: one pair (SEED:INDEX KIND ISSUE), or every disagreement of a kind
// whose message matches a regular expression (KIND ~REGEX ISSUE), for a tool bug that the
// generator hits again and again until it is fixed.
struct Known {
  uint64_t seed = 0, index = 0;
  std::string kind, issue;
  bool pattern = false;
  std::regex message;
  bool matches(uint64_t s, uint64_t i, const std::string& k, const std::string& m) const {
    if (k != kind)
      return false;
    return pattern ? std::regex_search(m, message) : (s == seed && i == index);
  }
};

std::vector<Known> read_known(const std::string& path) {
  std::vector<Known> k;
  if (path.empty())
    return k;
  std::ifstream f(path);
  if (!f) {
    std::cerr << fmt::format("volta-pair-fuzz: error: cannot read --known-open {}\n", path);
    std::exit(2);
  }
  std::string line;
  const std::regex one(R"(^\s*(\d+):(\d+)\s+(\S+)\s+(\S+)\s*$)");
  const std::regex many(R"(^\s*(\S+)\s+~(\S+)\s+(\S+)\s*$)");
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    const auto hash = line.find(" #");
    const std::string body = line.rfind('#', 0) == 0 ? "" : line.substr(0, hash);
    if (body.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    std::smatch m;
    Known x;
    if (std::regex_match(body, m, one)) {
      x.seed = std::stoull(m[1]);
      x.index = std::stoull(m[2]);
      x.kind = m[3];
      x.issue = m[4];
    } else if (std::regex_match(body, m, many)) {
      x.kind = m[1];
      x.pattern = true;
      try {
        x.message = std::regex(m[2].str());
      } catch (const std::regex_error& e) {
        std::cerr << fmt::format("{}:{}: error: bad regular expression: {}\n", path, n, e.what());
        std::exit(2);
      }
      x.issue = m[3];
    } else {
      std::cerr << fmt::format("{}:{}: error: expected 'SEED:INDEX KIND ISSUE' or 'KIND ~REGEX "
                               "ISSUE' (ISSUE names the issue that tracks it), got '{}'\n",
                               path, n, line);
      std::exit(2);
    }
    k.push_back(std::move(x));
  }
  return k;
}

struct Summary {
  uint64_t pairs = 0;
  std::map<std::string, uint64_t> verdicts;
  std::map<std::string, std::map<std::string, uint64_t>> label_verdict;
  std::map<std::string, std::vector<std::string>> disagreements; // kind -> "seed:index"
  std::map<std::string, uint64_t> suspicious;
  std::map<std::string, std::vector<std::string>> suspicious_examples;
  std::map<std::string, uint64_t> refusals; // UNSUPPORTED / UNKNOWN reasons, normalized
  std::map<std::string, uint64_t> mutations;
  uint64_t with_exact_inputs = 0;
  double prove_seconds = 0, oracle_seconds = 0;
  std::vector<std::pair<double, uint64_t>> slowest; // prove seconds, pair index
  std::vector<std::string> unexpected;              // disagreements not in the known-open list
  std::vector<std::string> known_hit;
  uint64_t unexpected_count = 0;
  std::map<std::string, uint64_t> known_by_issue;
};

std::string normalize_reason(const std::string& detail) {
  std::string s = std::regex_replace(detail, std::regex(R"(\d+)"), "N");
  s = std::regex_replace(s, std::regex(R"(%[a-z]+N)"), "%reg");
  s = std::regex_replace(s, std::regex(R"(\([^)]*\))"), "");
  if (s.size() > 90)
    s = s.substr(0, 90);
  return s;
}

uint64_t total(const std::map<std::string, uint64_t>& m) {
  uint64_t n = 0;
  for (const auto& [k, v] : m)
    n += v;
  return n;
}

void absorb(Summary& s, const json& j, uint64_t seed, const std::vector<Known>& known) {
  ++s.pairs;
  const std::string v = j["verdict"];
  ++s.verdicts[v];
  ++s.label_verdict[j["label"].get<std::string>()][v];
  s.prove_seconds += j["prove_s"].get<double>();
  s.slowest.push_back({j["prove_s"].get<double>(), j["i"].get<uint64_t>()});
  std::sort(s.slowest.rbegin(), s.slowest.rend());
  if (s.slowest.size() > 5)
    s.slowest.resize(5);
  s.oracle_seconds += j["oracle_s"].get<double>();
  s.with_exact_inputs += j["exact"].get<int>() > 0;
  for (const auto& m : j["mutations"])
    ++s.mutations[m.get<std::string>()];
  if (v == "UNSUPPORTED" || v == "UNKNOWN")
    ++s.refusals[v + ": " + normalize_reason(j["detail"])];
  const uint64_t i = j["i"];
  const std::string id = fmt::format("{}:{}", seed, i);
  for (const auto& f : j["findings"]) {
    const std::string kind = f["kind"];
    if (f["severity"] == "disagreement") {
      s.disagreements[kind].push_back(id);
      const std::string message = f["message"];
      // Patterns see the message and the pair's mutations ("... [mutations: half-format]"):
      // a mutation often names the bug class better than the values do.
      std::string signature = message + " [mutations:";
      for (const auto& m : j["mutations"])
        signature += " " + m.get<std::string>();
      signature += "]";
      std::string issue;
      for (const auto& k : known) {
        if (issue.empty() && k.matches(seed, i, kind, signature))
          issue = k.issue;
      }
      const std::string line = fmt::format("{} {} ({}): {}", id, kind, v, message);
      // (The lists keep the first 500; the counts are complete.)
      if (issue.empty()) {
        ++s.unexpected_count;
        if (s.unexpected.size() < 500)
          s.unexpected.push_back(line);
      } else {
        ++s.known_by_issue[issue];
        if (s.known_hit.size() < 500)
          s.known_hit.push_back(fmt::format("[{}] {}", issue, line));
      }
    } else {
      ++s.suspicious[kind];
      if (s.suspicious_examples[kind].size() < 5)
        s.suspicious_examples[kind].push_back(id);
    }
  }
}

json summary_json(const Summary& s, const Args& a, double wall) {
  json j;
  j["seed"] = a.seed;
  j["pairs"] = s.pairs;
  j["wall_seconds"] = wall;
  j["pairs_per_second"] = wall > 0 ? s.pairs / wall : 0;
  j["verdicts"] = s.verdicts;
  j["label_verdict"] = s.label_verdict;
  j["disagreements"] = s.disagreements;
  j["suspicious"] = s.suspicious;
  j["suspicious_examples"] = s.suspicious_examples;
  j["pairs_with_an_exact_input"] = s.with_exact_inputs;
  j["prove_seconds"] = s.prove_seconds;
  j["oracle_seconds"] = s.oracle_seconds;
  j["mutations"] = s.mutations;
  j["unexpected_disagreements"] = s.unexpected;
  j["unexpected_disagreement_count"] = s.unexpected_count;
  j["known_open_by_issue"] = s.known_by_issue;
  j["known_open_hit"] = s.known_hit;
  std::vector<std::pair<uint64_t, std::string>> top;
  for (const auto& [r, n] : s.refusals)
    top.push_back({n, r});
  std::sort(top.rbegin(), top.rend());
  json refusals = json::array();
  for (size_t k = 0; k < top.size() && k < 25; ++k)
    refusals.push_back({{"count", top[k].first}, {"reason", top[k].second}});
  j["top_refusals"] = refusals;
  return j;
}

void print_summary(const Summary& s, double wall) {
  std::cout << fmt::format(
      "\npairs: {} in {:.1f}s ({:.1f} pairs/s); prove {:.1f}s, oracle {:.1f}s\n", s.pairs, wall,
      wall > 0 ? s.pairs / wall : 0.0, s.prove_seconds, s.oracle_seconds);
  std::cout << fmt::format("pairs with an input on which both kernels compute exactly: {}\n",
                           s.with_exact_inputs);
  std::cout << "slowest proofs:";
  for (const auto& [sec, i] : s.slowest)
    std::cout << fmt::format(" {}:{:.2f}s", i, sec);
  std::cout << "\n";
  std::cout << "verdicts:";
  for (const auto& [v, n] : s.verdicts)
    std::cout << fmt::format(" {} {}", v, n);
  std::cout << "\nlabel x verdict:\n";
  for (const auto& [l, m] : s.label_verdict) {
    std::cout << fmt::format("  {:<11}", l);
    for (const auto& [v, n] : m)
      std::cout << fmt::format(" {} {}", v, n);
    std::cout << "\n";
  }
  std::cout << "disagreements:";
  if (s.disagreements.empty())
    std::cout << " none";
  std::cout << "\n";
  for (const auto& [k, ids] : s.disagreements) {
    std::cout << fmt::format("  {:<28} {}:", k, ids.size());
    for (size_t i = 0; i < ids.size() && i < 8; ++i)
      std::cout << " " << ids[i];
    std::cout << (ids.size() > 8 ? " ..." : "") << "\n";
  }
  std::cout << "suspicious (for review):";
  if (s.suspicious.empty())
    std::cout << " none";
  std::cout << "\n";
  for (const auto& [k, n] : s.suspicious) {
    std::cout << fmt::format("  {:<28} {}:", k, n);
    for (const auto& id : s.suspicious_examples.at(k))
      std::cout << " " << id;
    std::cout << "\n";
  }
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::string buffer;
  uint64_t next = 0;    // the next index this worker would start
  int64_t current = -1; // the pair it is on (-1: between pairs)
  std::chrono::steady_clock::time_point started;
};

int run(const Args& a) {
  const auto known = read_known(a.known_open);
  const std::string work = work_root();
  const auto t0 = std::chrono::steady_clock::now();
  const double deadline =
      a.time > 0
          ? std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                    .count() +
                a.time
          : 0;
  const uint64_t end = a.count > 0 ? a.start + a.count : 0;
  const double hang = a.hang_seconds > 0 ? a.hang_seconds : std::max(120.0, 4 * a.prove_timeout);
  Summary s;
  std::vector<Worker> workers(a.jobs);
  auto spawn = [&](int w, uint64_t first) {
    int p[2];
    if (pipe(p) != 0) {
      perror("pipe");
      std::exit(2);
    }
    const pid_t pid = fork();
    if (pid == 0) {
      close(p[0]);
      worker(a, p[1], first, a.jobs, end, deadline,
             (fs::path(work) / fmt::format("w{}", w)).string());
    }
    close(p[1]);
    workers[w] = Worker{pid, p[0], "", first, -1, std::chrono::steady_clock::now()};
  };
  for (int w = 0; w < a.jobs; ++w)
    spawn(w, a.start + w);
  auto last_progress = std::chrono::steady_clock::now();
  auto lost = [&](Worker& wk, int w, const std::string& what) {
    // The worker died or hung on pair `current`: record it and go on after it.
    const uint64_t i = static_cast<uint64_t>(wk.current);
    json j;
    j["i"] = i;
    j["verdict"] = what == "hang" ? "HANG" : "CRASH";
    j["label"] = "?";
    j["exact"] = 0;
    j["prove_s"] = 0.0;
    j["oracle_s"] = 0.0;
    j["detail"] = what;
    j["mutations"] = json::array();
    j["findings"] = json::array({{{"severity", "disagreement"},
                                  {"kind", what},
                                  {"message", fmt::format("the worker {} on this pair",
                                                          what == "hang" ? "hung" : "crashed")}}});
    const PairCase c = make_case(a.seed, i);
    j["label"] = std::string(to_string(c.label));
    absorb(s, j, a.seed, known);
    if (!a.out.empty())
      write_repro(
          (fs::path(a.out) / "disagreements" / what / fmt::format("s{}-i{}", a.seed, i)).string(),
          c, nullptr, nullptr, fmt::format("the worker {} on this pair", what));
    if (!a.quiet)
      std::cout << fmt::format("{}:{} {} (see the reproducer)\n", a.seed, i, what) << std::flush;
    spawn(w, i + a.jobs);
  };
  for (;;) {
    std::vector<pollfd> fds;
    for (const auto& wk : workers)
      fds.push_back({wk.fd, POLLIN, 0});
    bool any = false;
    for (const auto& wk : workers)
      any = any || wk.fd >= 0;
    if (!any)
      break;
    poll(fds.data(), fds.size(), 1000);
    for (int w = 0; w < a.jobs; ++w) {
      Worker& wk = workers[w];
      if (wk.fd < 0)
        continue;
      if (fds[w].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        const ssize_t n = read(wk.fd, buf, sizeof buf);
        if (n > 0) {
          wk.buffer.append(buf, n);
          size_t nl;
          while ((nl = wk.buffer.find('\n')) != std::string::npos) {
            const std::string line = wk.buffer.substr(0, nl);
            wk.buffer.erase(0, nl + 1);
            if (line.rfind("START ", 0) == 0) {
              wk.current = static_cast<int64_t>(std::stoull(line.substr(6)));
              wk.started = std::chrono::steady_clock::now();
            } else if (line.rfind("DONE ", 0) == 0) {
              const json j = json::parse(line.substr(5));
              absorb(s, j, a.seed, known);
              wk.current = -1;
              if (!a.quiet) {
                for (const auto& f : j["findings"]) {
                  if (f["severity"] == "disagreement")
                    std::cout << fmt::format("{}:{} DISAGREEMENT {} ({}): {}\n", a.seed,
                                             j["i"].get<uint64_t>(), f["kind"].get<std::string>(),
                                             j["verdict"].get<std::string>(),
                                             f["message"].get<std::string>())
                              << std::flush;
                }
              }
            }
          }
        } else {
          // End of the worker's output: it finished, or it died.
          close(wk.fd);
          wk.fd = -1;
          int status = 0;
          waitpid(wk.pid, &status, 0);
          const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
          if (wk.current >= 0 || !clean) {
            if (wk.current >= 0)
              lost(wk, w, "crash");
          }
        }
      }
      if (wk.fd >= 0 && wk.current >= 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wk.started).count() >
              hang) {
        kill(wk.pid, SIGKILL);
        waitpid(wk.pid, nullptr, 0);
        close(wk.fd);
        wk.fd = -1;
        lost(wk, w, "hang");
      }
    }
    if (!a.quiet &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_progress).count() >=
            a.progress_seconds) {
      last_progress = std::chrono::steady_clock::now();
      const double wall = std::chrono::duration<double>(last_progress - t0).count();
      std::cout << fmt::format("[{:.0f}s] {} pairs ({:.1f}/s), {} disagreements\n", wall, s.pairs,
                               s.pairs / wall, s.unexpected_count + total(s.known_by_issue))
                << std::flush;
      if (!a.out.empty()) { // the summary so far, for long runs
        fs::create_directories(a.out);
        std::ofstream(fs::path(a.out) / "summary.json") << summary_json(s, a, wall).dump(2) << "\n";
      }
    }
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_summary(s, wall);
  if (!a.out.empty()) {
    fs::create_directories(a.out);
    std::ofstream(fs::path(a.out) / "summary.json") << summary_json(s, a, wall).dump(2) << "\n";
  }
  if (!s.known_by_issue.empty()) {
    std::cout << "known open disagreements (listed in --known-open), by issue:";
    for (const auto& [issue, n] : s.known_by_issue)
      std::cout << fmt::format(" {} {}", issue, n);
    std::cout << "\n";
  }
  if (s.unexpected_count > 0) {
    std::cout << fmt::format("{} disagreement(s) not in the known-open list:\n",
                             s.unexpected_count);
    for (const auto& l : s.unexpected)
      std::cout << "  " << l << "\n";
    return 1;
  }
  return 0;
}

bool parse_pair_id(const std::string& text, uint64_t& seed, uint64_t& index) {
  const auto colon = text.find(':');
  try {
    if (colon == std::string::npos)
      throw std::invalid_argument(text);
    seed = std::stoull(text.substr(0, colon));
    index = std::stoull(text.substr(colon + 1));
    return true;
  } catch (const std::exception&) {
    std::cerr << fmt::format("volta-pair-fuzz: error: expected SEED:INDEX, got '{}'\n", text);
    return false;
  }
}

void show(const PairCase& c, const CheckResult& r) {
  std::cout << "// reference\n"
            << write_ptx(c.ref, "fz_ref") << "\n// optimized\n"
            << write_ptx(c.opt, "fz_opt") << "\n";
  std::cout << fmt::format("label {}{}\n", to_string(c.label), c.swapped ? " (swapped)" : "");
  for (const auto& m : c.applied)
    std::cout << fmt::format("  mutation {} [{}] {}\n", m.name, to_string(m.label), m.detail);
  std::cout << fmt::format("verdict {} ({:.3f}s{}){}\n  {}\n", volta::to_string(r.verdict),
                           r.prove_seconds, r.used_z3 ? ", with Z3" : "",
                           r.guard.empty() ? "" : " guard " + r.guard, r.detail);
  if (r.counterexample) {
    const auto& ce = *r.counterexample;
    std::cout << fmt::format("  counterexample {}: {} vs {} (device {} vs {} {})\n", ce.element,
                             ce.reference_value, ce.optimized_value, ce.reference_device,
                             ce.optimized_device, ce.device_note);
  }
  std::cout << fmt::format("exact input sets: {}\n", r.exact_inputs);
  for (const auto& f : r.findings)
    std::cout << fmt::format("[{}] {}: {}\n", severity_word(f.severity), f.kind, f.message);
}

int reduce(const Args& a) {
  uint64_t seed = 0, index = 0;
  if (!parse_pair_id(a.reduce, seed, index))
    return 2;
  if (a.kind.empty()) {
    std::cerr << "volta-pair-fuzz: error: --reduce needs --kind (the finding to keep)\n";
    return 2;
  }
  GenOptions gen;
  gen.max_ops = a.max_ops;
  const std::string work = work_root();
  CheckOptions o = check_options(a, work);
  o.z3_fraction = 1;
  const PairCase c = reduce_pair(make_case(seed, index, gen), a.kind, o, &std::cerr);
  const CheckResult r = check_pair(c, o);
  show(c, r);
  if (!a.out.empty()) {
    const Finding* f = nullptr;
    for (const auto& x : r.findings)
      f = x.kind == a.kind ? &x : f;
    write_repro(a.out, c, &r, f, fmt::format("reduced from pair {}:{}", seed, index));
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  return 0;
}

int replay(const Args& a) {
  uint64_t seed = 0, index = 0;
  if (!parse_pair_id(a.replay, seed, index))
    return 2;
  GenOptions gen;
  gen.max_ops = a.max_ops;
  const PairCase c = make_case(seed, index, gen);
  const std::string work = work_root();
  CheckOptions o = check_options(a, work);
  o.z3_fraction = 1;
  const CheckResult r = check_pair(c, o);
  show(c, r);
  if (!a.out.empty())
    write_repro(a.out, c, &r, r.findings.empty() ? nullptr : &r.findings.front());
  std::error_code ec;
  fs::remove_all(work, ec);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"volta-pair-fuzz: random kernel pairs, proved by volta-eg and checked on the "
               "bit-exact emulator (docs/fuzzing.md)"};
  Args a;
  app.add_option("--seed", a.seed, "seed of the run (pair i is generated from (seed, i))");
  app.add_option("--count", a.count, "pairs to check (0: until --time)");
  app.add_option("--time", a.time, "seconds to run (0: until --count)");
  app.add_option("-j,--jobs", a.jobs, "worker processes")->check(CLI::Range(1, 256));
  app.add_option("--start", a.start, "index of the first pair");
  app.add_option("--out", a.out, "folder for reproducers and summary.json");
  app.add_option("--known-open", a.known_open,
                 "file of known open disagreements ('SEED:INDEX KIND ISSUE' per line)");
  app.add_option("--replay", a.replay,
                 "check one pair SEED:INDEX verbosely (with --out DIR: "
                 "write its reproducer there)");
  app.add_flag("--no-z3", a.no_z3, "prove without the Z3 fallback");
  app.add_option("--z3-fraction", a.z3_fraction,
                 "fraction of the pairs proved with the Z3 fallback (by pair index; --replay and "
                 "--reduce use all of it)");
  app.add_option("--reduce", a.reduce,
                 "shrink pair SEED:INDEX while it shows a finding of --kind; print it (and with "
                 "--out DIR write its reproducer there)");
  app.add_option("--kind", a.kind, "the finding kind --reduce keeps");
  app.add_option("--z3-timeout", a.z3_timeout_ms, "Z3 milliseconds per query");
  app.add_option("--prove-timeout", a.prove_timeout, "seconds per pair for the prover");
  app.add_option("--hang-seconds", a.hang_seconds,
                 "seconds after which a pair counts as a hang (default max(120, 4 x "
                 "--prove-timeout))");
  app.add_option("--max-ops", a.max_ops, "most operations of a generated kernel");
  app.add_option("--progress", a.progress_seconds, "seconds between progress lines");
  app.add_option("--max-suspicious-repros", a.max_suspicious_repros,
                 "reproducers written per kind of suspicious finding and worker");
  app.add_option("--max-disagreement-repros", a.max_disagreement_repros,
                 "reproducers written per kind of disagreement and worker");
  app.add_flag("-q,--quiet", a.quiet, "only the summary");
  CLI11_PARSE(app, argc, argv);
  if (a.count == 0 && a.time == 0 && a.replay.empty())
    a.count = 100;
  if (!a.reduce.empty())
    return reduce(a);
  if (!a.replay.empty())
    return replay(a);
  return run(a);
}
