#include "engine/launch/cuda_compile_record.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "engine/content_hash.hpp"
#include "engine/launch/nvcc_toolchain.hpp"

namespace volta::launch {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "volta-eg cuda-record 2";
constexpr size_t kMaxDirectories = 20'000;

// A file's ctime in nanoseconds since the epoch; nullopt when it does not exist.
std::optional<int64_t> ctime_ns(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  return int64_t{st.st_ctim.tv_sec} * 1'000'000'000 + st.st_ctim.tv_nsec;
}

// The ctime of `path`, or of its nearest existing ancestor: what changes when `path` appears or
// disappears.
int64_t ctime_or_ancestor_ns(fs::path path) {
  while (true) {
    if (auto t = ctime_ns(path))
      return *t;
    if (!path.has_relative_path() || path == path.parent_path())
      return 0;
    path = path.parent_path();
  }
}

// A file's size and a 64-bit word-wise FNV of its bytes (a few milliseconds for the ~4 MB of
// headers a CUDA source includes): a changed header is noticed, by accident never missed.
std::string bytes_state(std::string_view bytes) {
  return fmt::format("{}:{}", bytes.size(), hex64(checksum64(bytes)));
}

std::string file_state(const fs::path& path) {
  const auto bytes = read_file(path.string());
  return bytes ? bytes_state(*bytes) : std::string("unreadable");
}

std::string probe_state(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return "absent";
  return S_ISDIR(st.st_mode) ? "folder" : S_ISREG(st.st_mode) ? "file" : "other";
}

// ---- the host preprocessor's -v output

struct HostPreprocessor {
  std::vector<fs::path> search;      // the "..." and <...> search lists
  std::vector<fs::path> nonexistent; // "ignoring nonexistent directory"
  std::set<fs::path> tools;          // cc1plus, clang -cc1
  std::set<std::string> forced;      // -include, -imacros files
  bool saw_search_list = false;
};

std::string unquote(std::string word) {
  if (word.size() >= 2 && word.front() == '"' && word.back() == '"')
    word = word.substr(1, word.size() - 2);
  return word;
}

HostPreprocessor parse_log(const std::string& log, const fs::path& cwd) {
  HostPreprocessor hp;
  std::istringstream in(log);
  std::string line;
  bool in_list = false;
  const std::string ignoring = "ignoring nonexistent directory \"";
  while (std::getline(in, line)) {
    if (line.rfind("#include \"...\" search starts here:", 0) == 0 ||
        line.rfind("#include <...> search starts here:", 0) == 0) {
      in_list = hp.saw_search_list = true;
      continue;
    }
    if (line.rfind("End of search list.", 0) == 0) {
      in_list = false;
      continue;
    }
    if (in_list && !line.empty() && line[0] == ' ') {
      std::string dir = line.substr(line.find_first_not_of(' '));
      if (const auto f = dir.rfind(" (framework directory)"); f != std::string::npos)
        dir.erase(f);
      hp.search.push_back((cwd / dir).lexically_normal());
      continue;
    }
    if (line.rfind(ignoring, 0) == 0 && line.back() == '"') {
      const std::string dir = line.substr(ignoring.size(), line.size() - ignoring.size() - 1);
      hp.nonexistent.push_back((cwd / dir).lexically_normal());
      continue;
    }
    // The preprocessor's own command line: " /usr/lib/gcc/.../cc1plus -E ..." or
    // ' "/usr/bin/clang" -cc1 ...'.
    if (!line.empty() && line[0] == ' ') {
      std::istringstream words(line);
      std::string first;
      words >> first;
      first = unquote(first);
      if (first.empty() || first[0] != '/' || !fs::is_regular_file(first))
        continue;
      hp.tools.insert(first);
      std::string word;
      while (words >> word) {
        word = unquote(word);
        if (word == "-include" || word == "-imacros") {
          if (words >> word)
            hp.forced.insert(unquote(word));
        }
      }
    }
  }
  return hp;
}

// ---- trees of directories

// A folder's mtime (entries added, removed, renamed), ctime and inode: equal identities of every
// folder of a tree mean the same tree of names, so validating a tree needs no listing.
std::string folder_identity(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return "gone";
  return fmt::format("{}.{:09} {}.{:09} {}:{}", st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                     st.st_ctim.tv_sec, st.st_ctim.tv_nsec, st.st_dev, st.st_ino);
}

struct TreeScan {
  std::vector<fs::path> folders; // the root first
  int64_t newest_ctime = 0;
  bool too_large = false;
};

bool excluded_path(const fs::directory_entry& e, const std::vector<fs::path>& excluded) {
  for (const auto& x : excluded) {
    std::error_code ec;
    if (e.path().filename() == x.filename() && fs::equivalent(e.path(), x, ec))
      return true;
  }
  return false;
}

// Every folder below `root` (an existing folder), following links, past the excluded ones.
TreeScan scan_tree(const fs::path& root, const std::vector<fs::path>& excluded, size_t& budget) {
  TreeScan scan;
  auto add = [&](const fs::path& dir) {
    scan.folders.push_back(dir);
    scan.newest_ctime = std::max(scan.newest_ctime, ctime_ns(dir).value_or(0));
  };
  add(root);
  std::error_code ec;
  fs::recursive_directory_iterator it(root,
                                      fs::directory_options::follow_directory_symlink |
                                          fs::directory_options::skip_permission_denied,
                                      ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_directory(ec))
      continue;
    if (excluded_path(*it, excluded)) {
      it.disable_recursion_pending();
      continue;
    }
    if (budget == 0) {
      scan.too_large = true; // also what stops a loop of symbolic links
      return scan;
    }
    --budget;
    add(it->path());
  }
  return scan;
}

bool under(const fs::path& file, const std::vector<fs::path>& roots) {
  for (const auto& r : roots) {
    const auto rel = file.lexically_relative(r);
    if (!rel.empty() && *rel.begin() != "..")
      return true;
  }
  return false;
}

// ---- quoted includes of a file outside the trees

struct Spellings {
  std::set<std::string> quoted;
  bool computed = false; // an #include or __has_include whose operand is not a literal name
};

void scan_spellings(const std::string& text, Spellings& out) {
  static const std::regex directive(
      R"((#\s*include(?:_next)?\s*|__has_include(?:_next)?\s*\(\s*)(["<]?)([^"\n>]*)["]?)");
  for (std::sregex_iterator m(text.begin(), text.end(), directive), end; m != end; ++m) {
    const std::string open = (*m)[2];
    if (open == "\"")
      out.quoted.insert((*m)[3]);
    else if (open.empty())
      out.computed = true; // #include MACRO: any name
    // <...>: searched in the search path only, which the trees cover
  }
}

} // namespace

std::vector<fs::path> dependency_files(const std::string& make_text, const fs::path& cwd) {
  std::vector<fs::path> files;
  std::string word;
  bool after_colon = false;
  auto flush = [&] {
    if (!word.empty() && after_colon)
      files.push_back((cwd / word).lexically_normal());
    word.clear();
  };
  for (size_t i = 0; i < make_text.size(); ++i) {
    const char c = make_text[i];
    if (c == '\\' && i + 1 < make_text.size() && make_text[i + 1] == '\n') {
      flush();
      ++i;
    } else if (c == '\\' && i + 1 < make_text.size() && make_text[i + 1] == ' ') {
      word += ' ';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else if (c == ':' && !after_colon &&
               (i + 1 == make_text.size() || make_text[i + 1] == ' ' || make_text[i + 1] == '\n')) {
      word.clear(); // the target
      after_colon = true;
    } else {
      word += c;
    }
  }
  flush();
  return files;
}

CompileRecord record_compile(const CompileObservation& compile) {
  CompileRecord out;
  const int64_t started =
      std::chrono::duration_cast<std::chrono::nanoseconds>(compile.started.time_since_epoch())
          .count();
  auto changed = [&](int64_t ctime) { return ctime >= started; };
  const HostPreprocessor hp = parse_log(compile.log, compile.cwd);
  if (!hp.saw_search_list) {
    out.why_not = "the host preprocessor printed no include search list (-v)";
    return out;
  }
  std::vector<std::string> lines{kMagic};
  auto line = [&](const char* kind, const std::string& state, const fs::path& path) {
    lines.push_back(fmt::format("{}\t{}\t{}", kind, state, path.string()));
  };
  for (const auto& x : compile.excluded)
    line("exclude", "-", x);

  // Trees: the search path, and the folders of outside files with computed includes.
  std::vector<fs::path> roots = hp.search;
  roots.insert(roots.end(), hp.nonexistent.begin(), hp.nonexistent.end());
  const std::vector<fs::path> deps = dependency_files(compile.make_deps, compile.cwd);
  if (deps.empty()) {
    out.why_not = "nvcc listed no dependencies";
    return out;
  }
  std::set<fs::path> includer_dirs{compile.cwd};
  Spellings spellings;
  spellings.quoted.insert(hp.forced.begin(), hp.forced.end());
  for (const auto& f : deps) {
    if (under(f, hp.search))
      continue;
    includer_dirs.insert(f.parent_path());
    Spellings own;
    scan_spellings(read_file(f.string()).value_or(""), own);
    spellings.quoted.insert(own.quoted.begin(), own.quoted.end());
    if (own.computed)
      roots.push_back(f.parent_path());
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  // A root inside another existing root is part of its tree already.
  std::vector<fs::path> walked;
  size_t budget = kMaxDirectories;
  for (const auto& root : roots) {
    if (under(root, walked))
      continue;
    const std::string state = probe_state(root);
    if (state != "folder") {
      // Absent (or not a folder): it must stay so.
      if (changed(ctime_or_ancestor_ns(root))) {
        out.why_not = fmt::format("{} changed while nvcc ran", root.string());
        return out;
      }
      line("probe", state, root);
      continue;
    }
    walked.push_back(root);
    const TreeScan scan = scan_tree(root, compile.excluded, budget);
    if (scan.too_large) {
      out.why_not = fmt::format("the include search path has more than {} folders (at {})",
                                kMaxDirectories, root.string());
      return out;
    }
    if (changed(scan.newest_ctime)) {
      out.why_not = fmt::format("a folder under {} changed while nvcc ran", root.string());
      return out;
    }
    for (const auto& dir : scan.folders)
      line("folder", folder_identity(dir), dir);
  }
  for (const auto& f : deps) {
    if (changed(ctime_ns(f).value_or(0))) {
      out.why_not = fmt::format("{} changed while nvcc ran", f.string());
      return out;
    }
    line("file", file_state(f), f);
  }
  for (const auto& t : hp.tools)
    line("tool", stat_identity(t), t);
  for (const auto& dir : includer_dirs) {
    for (const auto& s : spellings.quoted) {
      const fs::path p = (dir / s).lexically_normal();
      if (changed(ctime_or_ancestor_ns(p.parent_path()))) {
        out.why_not = fmt::format("{} changed while nvcc ran", p.parent_path().string());
        return out;
      }
      line("probe", probe_state(p), p);
    }
  }
  if (!compile.ptx_path.empty())
    line("file", bytes_state(compile.ptx_bytes), compile.ptx_path);
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (std::count(l.begin(), l.end(), '\t') != 2 || l.find('\n') != std::string::npos) {
      out.why_not = "a path holds a tab or a newline";
      return out;
    }
  }
  lines.push_back("end");
  std::string text;
  for (const auto& l : lines)
    text += l + "\n";
  out.text = std::move(text);
  return out;
}

bool record_holds(const std::string& record) {
  std::istringstream in(record);
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    return false;
  while (std::getline(in, line)) {
    if (line == "end")
      return !std::getline(in, line);
    const size_t a = line.find('\t');
    const size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos)
      return false;
    const std::string kind = line.substr(0, a), state = line.substr(a + 1, b - a - 1);
    const fs::path path = line.substr(b + 1);
    if (kind == "exclude") {
      continue; // how the folders were listed; nothing to check
    } else if (kind == "folder") {
      if (folder_identity(path) != state)
        return false;
    } else if (kind == "file") {
      if (file_state(path) != state)
        return false;
    } else if (kind == "tool") {
      if (stat_identity(path) != state)
        return false;
    } else if (kind == "probe") {
      if (probe_state(path) != state)
        return false;
    } else {
      return false;
    }
  }
  return false; // no "end": a cut record
}

} // namespace volta::launch
