#include "engine/launch/cuda_source.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/content_hash.hpp"

namespace volta::launch {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

fs::path default_cache_root() {
  if (auto dir = env("VOLTA_EG_CUDA_CACHE"); !dir.empty())
    return dir;
  if (auto xdg = env("XDG_CACHE_HOME"); !xdg.empty())
    return fs::path(xdg) / "volta-eg" / "cuda";
  if (auto home = env("HOME"); !home.empty())
    return fs::path(home) / ".cache" / "volta-eg" / "cuda";
  return fs::temp_directory_path() / "volta-eg-cuda";
}

// Runs argv without a shell; stdout and stderr go to `log`. Returns the exit status (-1 when
// the program could not be started). posix_spawn: nothing runs between fork and exec in a
// process whose other threads may hold the allocator's locks.
int run_program(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The files of a make-style dependency list (`out.ptx : a.cu \ b.h \ ...`), outside `skip`.
std::vector<std::string> dependencies(const std::string& text, const std::vector<fs::path>& skip) {
  std::vector<std::string> files;
  std::string joined;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      joined += ' ';
    } else {
      joined += text[i];
    }
  }
  const size_t colon = joined.find(": ");
  std::istringstream words(colon == std::string::npos ? "" : joined.substr(colon + 2));
  std::string word;
  while (words >> word) {
    const fs::path p = fs::weakly_canonical(word);
    bool system = false;
    for (const auto& s : skip) {
      const auto rel = p.lexically_relative(s);
      system = system || (!rel.empty() && *rel.begin() != "..");
    }
    if (!system)
      files.push_back(p.string());
  }
  return files;
}

// "digest path" per dependency.
std::string dependency_lines(const std::vector<std::string>& files) {
  std::string lines;
  for (const auto& f : files)
    lines += file_digest(f).value_or("unreadable") + " " + f + "\n";
  return lines;
}

// Whether every dependency recorded in `deps_text` still has its recorded digest.
bool dependencies_unchanged(const std::string& deps_text) {
  std::istringstream in(deps_text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    if (space == std::string::npos)
      return false;
    if (file_digest(line.substr(space + 1)).value_or("unreadable") != line.substr(0, space))
      return false;
  }
  return true;
}

bool write_atomically(const fs::path& path, const std::string& bytes) {
  static std::atomic<uint64_t> writes{0};
  const fs::path tmp = path.string() + fmt::format(".tmp{}.{}", ::getpid(), writes.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!(out << bytes))
      return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

} // namespace

bool valid_cuda_arch(const std::string& arch) {
  static const std::regex pattern("(sm|compute)_[0-9]{2,3}[af]?");
  return std::regex_match(arch, pattern);
}

std::optional<std::string> find_nvcc() {
  std::istringstream path(env("PATH"));
  std::string dir;
  while (std::getline(path, dir, ':')) {
    if (!dir.empty() && executable(fs::path(dir) / "nvcc"))
      return (fs::path(dir) / "nvcc").string();
  }
  if (auto home = env("CUDA_HOME"); !home.empty() && executable(fs::path(home) / "bin" / "nvcc"))
    return (fs::path(home) / "bin" / "nvcc").string();
  return std::nullopt;
}

CudaCompileResult compile_cuda(const CudaCompileRequest& request) {
  CudaCompileResult result;
  const std::string& src = request.source;
  if (!valid_cuda_arch(request.arch)) {
    result.error =
        fmt::format("\"{}\" is not a CUDA architecture (expected sm_NN, e.g. sm_80)", request.arch);
    return result;
  }
  std::error_code ec;
  const auto source_bytes = fs::is_regular_file(src, ec) ? read_file(src) : std::nullopt;
  if (!source_bytes) {
    result.error = fmt::format("cannot read CUDA source \"{}\"", src);
    return result;
  }
  const auto nvcc = find_nvcc();
  if (!nvcc) {
    std::string hint;
    if (env("CUDA_HOME").empty() && executable("/usr/local/cuda/bin/nvcc"))
      hint = " (/usr/local/cuda/bin/nvcc exists: set CUDA_HOME=/usr/local/cuda)";
    result.error =
        fmt::format("cannot compile {}: nvcc not found on PATH nor as $CUDA_HOME/bin/nvcc"
                    "{}; install the CUDA toolkit or give the compiled PTX instead",
                    src, hint);
    return result;
  }
  const fs::path source = fs::absolute(src).lexically_normal();
  std::string key_text =
      fmt::format("volta-eg cuda 1\n{}\n{}\n{}\n", source.string(), request.arch, *nvcc);
  {
    const auto size = fs::file_size(*nvcc, ec);
    const auto time = fs::last_write_time(*nvcc, ec).time_since_epoch().count();
    key_text += fmt::format("{} {}\n", size, time);
  }
  for (const auto& f : request.flags)
    key_text += "flag " + f + "\n";
  key_text += *source_bytes;
  const std::string key = cache_key(key_text);

  const fs::path root =
      request.cache_dir.empty() ? default_cache_root() : fs::path(request.cache_dir) / "cuda";
  fs::create_directories(root, ec);
  if (!fs::is_directory(root)) {
    result.error =
        fmt::format("cannot compile {}: cannot create the cache folder {}", src, root.string());
    return result;
  }
  const std::string stem = source.stem().string() + "-" + key;
  const fs::path ptx = root / (stem + ".ptx");
  const fs::path deps = root / (stem + ".deps");
  if (fs::is_regular_file(ptx, ec)) {
    if (auto recorded = read_file(deps); recorded && dependencies_unchanged(*recorded)) {
      result.ptx_path = ptx.string();
      result.cached = true;
      return result;
    }
  }

  // Compile into private names, then rename into place.
  static std::atomic<uint64_t> compiles{0};
  const std::string tag = fmt::format(".{}.{}", ::getpid(), compiles.fetch_add(1));
  const fs::path tmp_ptx = root / (stem + tag + ".ptx.tmp");
  const fs::path tmp_make = root / (stem + tag + ".d.tmp");
  const fs::path log = root / (stem + tag + ".log");
  std::vector<std::string> argv = {*nvcc, "-ptx", "-lineinfo", "-arch=" + request.arch};
  argv.insert(argv.end(), request.flags.begin(), request.flags.end());
  argv.insert(argv.end(),
              {"-MD", "-MF", tmp_make.string(), "-o", tmp_ptx.string(), source.string()});
  const int status = run_program(argv, log);
  const std::string messages = read_file(log).value_or("");
  if (status != 0) {
    std::string text = messages;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
      text.pop_back();
    result.error = status < 0 ? fmt::format("cannot compile {}: cannot run {}", src, *nvcc)
                              : fmt::format("cannot compile {}: nvcc exited with status {}{}{}",
                                            src, status, text.empty() ? "" : ":\n", text);
  } else {
    const fs::path cuda_root = fs::path(*nvcc).parent_path().parent_path();
    const auto make_text = read_file(tmp_make).value_or("");
    const auto files = dependencies(make_text, {fs::weakly_canonical(cuda_root), "/usr/include",
                                                "/usr/lib", "/usr/local/cuda"});
    const auto ptx_bytes = read_file(tmp_ptx);
    if (!ptx_bytes || !write_atomically(deps, dependency_lines(files)) ||
        !write_atomically(ptx, *ptx_bytes)) {
      result.error = fmt::format("cannot compile {}: cannot write {}", src, ptx.string());
    } else {
      result.ptx_path = ptx.string();
    }
  }
  for (const auto& p : {tmp_ptx, tmp_make, log})
    fs::remove(p, ec);
  return result;
}

} // namespace volta::launch
