// Differential test of the PTX validation against ptxas: mutants of the project's own kernels
// (a type, a modifier, a state space, a vector width or an operand changed on one instruction
// line) are given to both; every mutant that one rejects and the other accepts is a
// disagreement, which must be fixed or listed with its reason in ptxas_allow_list.txt.
//
// Mutants are batched: a batch file holds up to kPerBatch mutants on distinct lines of one
// kernel, and both tools report errors by line (ptxas reports every line's errors in one run),
// so one ptxas run judges the whole batch. A disagreement seen in a batch is confirmed on a
// file holding that mutant alone before it counts.
//
// Environment: VOLTA_PTXAS (path of ptxas; default /usr/local/cuda/bin/ptxas, then PATH),
// VOLTA_PTXAS_MUTANTS (how many mutants; 1000 by default, for CI: about 15 s), VOLTA_PTXAS_SEED
// (fixed by default), VOLTA_PTXAS_REPORT (a file listing every disagreement, explained or not),
// VOLTA_PTXAS_FILES (a regex: only the kernels whose path matches).
// scripts/ptxas-differential runs the large version.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "ptx_mutator.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

namespace fs = std::filesystem;
using testing::Mutant;

constexpr size_t kPerBatch = 12; // below the parser's 20-error limit
constexpr size_t kDefaultMutants = 1000;
constexpr uint64_t kDefaultSeed = 31;

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::string find_ptxas() {
  std::string configured = env_or("VOLTA_PTXAS", "");
  if (!configured.empty()) {
    return fs::exists(configured) ? configured : "";
  }
  if (fs::exists("/usr/local/cuda/bin/ptxas")) {
    return "/usr/local/cuda/bin/ptxas";
  }
  std::string path = env_or("PATH", "");
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && fs::exists(fs::path(dir) / "ptxas")) {
      return (fs::path(dir) / "ptxas").string();
    }
  }
  return "";
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ToolVerdict {
  std::set<uint32_t> error_lines;
  std::map<uint32_t, std::string> first_message;
  bool any_error = false;
};

// Runs ptxas on `file` for `arch`; errors by line ("ptxas f.ptx, line 12; error   : ...").
ToolVerdict run_ptxas(const std::string& ptxas, const std::string& arch, const fs::path& file) {
  const std::string cmd =
      "'" + ptxas + "' -arch=" + arch + " '" + file.string() + "' -o /dev/null 2>&1";
  ToolVerdict v;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    ADD_FAILURE() << "cannot run " << cmd;
    return v;
  }
  std::string out;
  char buf[4096];
  size_t got = 0;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
    out.append(buf, got);
  }
  const int status = pclose(p);
  static const std::regex kError(R"(, line (\d+); error\s*: (.*))");
  std::stringstream lines(out);
  for (std::string l; std::getline(lines, l);) {
    std::smatch m;
    if (std::regex_search(l, m, kError)) {
      const auto line = static_cast<uint32_t>(std::stoul(m[1]));
      v.error_lines.insert(line);
      v.first_message.emplace(line, m[2]);
    }
  }
  v.any_error = status != 0;
  return v;
}

// Whether a tool rejected the mutant on `line`: an error there, or a failure located nowhere.
bool rejects(const ToolVerdict& v, uint32_t line) {
  return v.error_lines.count(line) > 0 || (v.any_error && v.error_lines.empty());
}

ToolVerdict run_ours(const std::string& text) {
  ToolVerdict v;
  ParseResult r = parse(text, "mutant.ptx");
  v.any_error = !r.ok();
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == Severity::Error) {
      v.error_lines.insert(d.where.line);
      v.first_message.emplace(d.where.line, d.message);
    }
  }
  return v;
}

// The allow list: `accepts|rejects <regex> # reason`, where the word says what ptxas does with
// a mutant that volta-eg treats the other way, and the regex matches the mutated instruction.
struct AllowEntry {
  bool ptxas_accepts = false;
  std::regex pattern;
  std::string text;
};

std::vector<AllowEntry> read_allow_list(const fs::path& path) {
  std::vector<AllowEntry> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const size_t space = line.find(' ');
    const size_t hash = line.find(" # ");
    EXPECT_TRUE(space != std::string::npos && hash != std::string::npos)
        << "allow-list line without a direction, a pattern and a reason: " << line;
    if (space == std::string::npos || hash == std::string::npos || hash <= space) {
      continue;
    }
    AllowEntry e;
    const std::string word = line.substr(0, space);
    EXPECT_TRUE(word == "accepts" || word == "rejects") << line;
    e.ptxas_accepts = word == "accepts";
    e.pattern = std::regex(line.substr(space + 1, hash - space - 1));
    e.text = line;
    out.push_back(std::move(e));
  }
  return out;
}

struct Disagreement {
  std::string file;
  Mutant mutant;
  bool ptxas_accepts = false;
  std::string message; // the rejecting tool's
  const AllowEntry* explained_by = nullptr;
};

struct Source {
  fs::path path;
  std::string text;
  std::string arch;
  Module module;
  std::vector<std::pair<uint32_t, const Instruction*>> lines;
};

std::vector<fs::path> kernel_files() {
  std::vector<fs::path> out =
      testing::files_under(fs::path(VOLTA_SOURCE_DIR) / "examples" / "kernels", ".ptx");
  for (const fs::path& p : testing::files_under(fs::path(VOLTA_PTX_TEST_DIR) / "data", ".ptx")) {
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  // VOLTA_PTXAS_FILES: only the kernels whose path matches this regex (ECMAScript, search), for
  // a run aimed at some instructions (`VOLTA_PTXAS_FILES=hopper` for the sm_90a forms).
  if (const std::string only = env_or("VOLTA_PTXAS_FILES", ""); !only.empty()) {
    const std::regex keep(only);
    std::erase_if(out, [&](const fs::path& p) { return !std::regex_search(p.string(), keep); });
  }
  return out;
}

std::string arch_of(const Module& m) {
  for (const std::string& t : m.targets) {
    if (t.starts_with("sm_")) {
      return t;
    }
  }
  return "";
}

TEST(PtxasDifferential, MutantsOfOurKernelsAreJudgedAsPtxasJudgesThem) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) {
    GTEST_SKIP() << "ptxas not found (set VOLTA_PTXAS, or install the CUDA toolkit): the "
                    "differential test against ptxas is skipped";
  }
  const size_t wanted = std::stoul(env_or("VOLTA_PTXAS_MUTANTS", std::to_string(kDefaultMutants)));
  const uint64_t seed = std::stoull(env_or("VOLTA_PTXAS_SEED", std::to_string(kDefaultSeed)));
  const auto allow = read_allow_list(fs::path(VOLTA_PTX_TEST_DIR) / "ptxas_allow_list.txt");
  const fs::path dir =
      fs::temp_directory_path() / ("volta-ptxas-diff-" + std::to_string(::getpid()));
  fs::create_directories(dir);

  std::vector<Source> sources;
  for (const fs::path& p : kernel_files()) {
    Source s;
    s.path = p;
    s.text = read(p);
    ParseResult r = parse(s.text, p.string());
    if (!r.ok()) {
      ADD_FAILURE() << "a kernel of the project does not parse:\n" << render_all(r.diagnostics);
      continue;
    }
    s.module = std::move(*r.module);
    s.arch = arch_of(s.module);
    if (s.arch.empty()) {
      continue;
    }
    s.lines = testing::mutable_lines(s.text, s.module);
    if (!s.lines.empty()) {
      sources.push_back(std::move(s));
    }
  }
  ASSERT_FALSE(sources.empty());

  // Draw the batches up front (deterministic for a seed), then judge them on two threads.
  std::mt19937_64 rng(seed);
  struct Batch {
    const Source* source;
    std::vector<Mutant> mutants;
  };
  std::vector<Batch> batches;
  size_t drawn = 0;
  while (drawn < wanted) {
    const Source& s = sources[std::uniform_int_distribution<size_t>(0, sources.size() - 1)(rng)];
    Batch b{&s, {}};
    std::vector<size_t> order(s.lines.size());
    for (size_t i = 0; i < order.size(); ++i) {
      order[i] = i;
    }
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      if (b.mutants.size() == kPerBatch || drawn + b.mutants.size() == wanted) {
        break;
      }
      Mutant m = testing::mutate(*s.lines[i].second, s.lines[i].first, rng);
      if (!m.mutated.empty()) {
        b.mutants.push_back(std::move(m));
      }
    }
    drawn += b.mutants.size();
    if (!b.mutants.empty()) {
      batches.push_back(std::move(b));
    }
  }

  std::mutex lock;
  std::vector<Disagreement> disagreements;
  std::atomic<size_t> next{0}, ptxas_rejected{0}, ours_rejected{0};
  auto judge = [&](const Source& s, const std::vector<Mutant>& ms, const std::string& name) {
    const fs::path file = dir / name;
    const std::string text = testing::apply(s.text, ms);
    std::ofstream(file, std::ios::binary) << text;
    return std::pair{run_ptxas(ptxas, s.arch, file), run_ours(text)};
  };
  auto worker = [&](int id) {
    for (size_t i; (i = next++) < batches.size();) {
      const Batch& b = batches[i];
      auto [theirs, ours] = judge(*b.source, b.mutants, "batch" + std::to_string(id) + ".ptx");
      for (const Mutant& m : b.mutants) {
        const bool p = rejects(theirs, m.line);
        const bool o = rejects(ours, m.line);
        if (p == o) {
          ptxas_rejected += p;
          ours_rejected += o;
          continue;
        }
        // Confirm on the mutant alone: other mutants of the batch may have hidden an error.
        auto [t1, o1] = judge(*b.source, {m}, "single" + std::to_string(id) + ".ptx");
        ptxas_rejected += rejects(t1, m.line);
        ours_rejected += rejects(o1, m.line);
        if (rejects(t1, m.line) == rejects(o1, m.line)) {
          continue;
        }
        Disagreement d;
        d.file = fs::relative(b.source->path, VOLTA_SOURCE_DIR).string();
        d.mutant = m;
        d.ptxas_accepts = !rejects(t1, m.line);
        const ToolVerdict& rejecter = d.ptxas_accepts ? o1 : t1;
        d.message = rejecter.first_message.empty() ? "(no message)"
                                                   : rejecter.first_message.begin()->second;
        for (const AllowEntry& e : allow) {
          if (e.ptxas_accepts == d.ptxas_accepts && std::regex_search(m.mutated, e.pattern)) {
            d.explained_by = &e;
            break;
          }
        }
        std::lock_guard guard(lock);
        disagreements.push_back(std::move(d));
      }
    }
  };
  std::vector<std::thread> pool;
  for (int id = 0; id < 2; ++id) {
    pool.emplace_back(worker, id);
  }
  for (auto& t : pool) {
    t.join();
  }
  fs::remove_all(dir);

  size_t unexplained = 0;
  std::ostringstream listing;
  for (const Disagreement& d : disagreements) {
    listing << (d.explained_by ? "explained  " : "UNEXPLAINED ") << d.file << ":" << d.mutant.line
            << " [" << d.mutant.kind << "] " << d.mutant.original << "  ->  " << d.mutant.mutated
            << "\n    ptxas " << (d.ptxas_accepts ? "accepts" : "rejects") << "; "
            << (d.ptxas_accepts ? "volta-eg: " : "ptxas: ") << d.message << "\n";
    if (d.explained_by) {
      listing << "    allowed by: " << d.explained_by->text << "\n";
    }
    unexplained += d.explained_by == nullptr;
  }
  std::cout << "ptxas differential: " << drawn << " mutants in " << batches.size()
            << " batches (seed " << seed << "); ptxas rejected " << ptxas_rejected
            << ", volta-eg rejected " << ours_rejected << "; " << disagreements.size()
            << " disagreements, " << unexplained << " unexplained\n"
            << listing.str();
  if (const std::string report = env_or("VOLTA_PTXAS_REPORT", ""); !report.empty()) {
    std::ofstream(report) << "mutants " << drawn << "\nptxas_rejected " << ptxas_rejected
                          << "\nvolta_rejected " << ours_rejected << "\ndisagreements "
                          << disagreements.size() << "\nunexplained " << unexplained << "\n"
                          << listing.str();
  }
  EXPECT_EQ(unexplained, 0u) << listing.str();
}

} // namespace
} // namespace volta::ptx
