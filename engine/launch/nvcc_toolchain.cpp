#include "engine/launch/nvcc_toolchain.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/content_hash.hpp"

extern char** environ;

namespace volta::launch {

namespace fs = std::filesystem;

std::vector<std::string> nvcc_environment_names() {
  return {"NVCC_APPEND_FLAGS",
          "NVCC_PREPEND_FLAGS",
          "NVCC_CCBIN",
          "CPATH",
          "C_INCLUDE_PATH",
          "CPLUS_INCLUDE_PATH",
          "OBJC_INCLUDE_PATH",
          "GCC_EXEC_PREFIX",
          "COMPILER_PATH",
          "LIBRARY_PATH",
          "PATH",
          "CUDA_HOME",
          "CUDA_PATH",
          "LD_LIBRARY_PATH",
          "LD_PRELOAD",
          "SOURCE_DATE_EPOCH"};
}

std::string stat_identity(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return "absent";
  return fmt::format("size {} mtime {}.{:09} ctime {}.{:09} inode {}:{}", st.st_size,
                     st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
                     st.st_dev, st.st_ino);
}

int run_to_log(const std::vector<std::string>& argv, const fs::path& log) {
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

namespace {

// `nvcc --version`, once per nvcc binary (path and stat identity) and process.
Expected<std::string> nvcc_version(const std::string& nvcc, const fs::path& scratch) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  const std::string id = nvcc + "\n" + stat_identity(nvcc);
  {
    std::lock_guard lock(mutex);
    if (auto it = known.find(id); it != known.end())
      return it->second;
  }
  static std::atomic<uint64_t> runs{0};
  const fs::path log = scratch / fmt::format("nvcc-version.{}.{}.log", ::getpid(), runs++);
  const int status = run_to_log({nvcc, "--version"}, log);
  const auto text = read_file(log.string());
  std::error_code ec;
  fs::remove(log, ec);
  if (status != 0 || !text) {
    return Unexpected{fmt::format("`{} --version` failed (exit status {})", nvcc, status)};
  }
  std::lock_guard lock(mutex);
  known.emplace(id, *text);
  return *text;
}

} // namespace

Expected<std::string> toolchain_identity(const std::string& nvcc, const fs::path& scratch) {
  const auto version = nvcc_version(nvcc, scratch);
  if (!version)
    return version;
  const fs::path bin = fs::path(nvcc).parent_path();
  std::error_code ec;
  std::string text = fmt::format("nvcc {}\nversion {} {}\nnvcc-stat {}\n", nvcc, version->size(),
                                 *version, stat_identity(nvcc));
  // nvcc.profile sets the include path, the library path and PATH of every nvcc run; cicc
  // writes the PTX.
  const auto profile = read_file((bin / "nvcc.profile").string());
  text += profile ? fmt::format("profile {} {}\n", profile->size(), *profile) : "profile absent\n";
  text += fmt::format("cicc-stat {}\n", stat_identity(bin.parent_path() / "nvvm/bin/cicc"));
  text += fmt::format("cwd {}\n", fs::current_path(ec).string());
  auto names = nvcc_environment_names();
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::string name(entry.substr(0, entry.find('=')));
    if (name.rfind("NVCC_", 0) == 0 && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const char* value = std::getenv(name.c_str());
    // With its length: a value holding a newline cannot pass for two variables.
    text += value ? fmt::format("env {} {} {}\n", name, std::strlen(value), value)
                  : fmt::format("env {} unset\n", name);
  }
  return text;
}

} // namespace volta::launch
