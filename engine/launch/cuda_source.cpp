#include "engine/launch/cuda_source.hpp"

#include <atomic>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "engine/content_hash.hpp"
#include "engine/launch/cuda_compile_record.hpp"
#include "engine/launch/nvcc_toolchain.hpp"

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

// The file system's clock when the compile starts: the ctime of `marker` (created now), touched
// until that ctime moves past the one it had at creation. Every file written before the marker
// was created has a ctime at most the first one, so below the result; every file written while
// nvcc runs has a ctime at least the result. (Timestamps come from a coarse clock: without the
// wait, a header written in the same tick just before the compile would look changed during
// it, or one written during it unchanged.) nullopt when the clock cannot be read.
std::optional<std::chrono::system_clock::time_point> compile_start(const fs::path& marker) {
  { std::ofstream create(marker); }
  auto ctime = [&]() -> std::optional<std::chrono::nanoseconds> {
    struct stat st {};
    if (::stat(marker.c_str(), &st) != 0)
      return std::nullopt;
    return std::chrono::seconds(st.st_ctim.tv_sec) + std::chrono::nanoseconds(st.st_ctim.tv_nsec);
  };
  const auto first = ctime();
  if (!first)
    return std::nullopt;
  for (int tries = 0; tries < 1000; ++tries) {
    if (::utimensat(AT_FDCWD, marker.c_str(), nullptr, 0) != 0)
      return std::nullopt;
    const auto now = ctime();
    if (!now)
      return std::nullopt;
    if (*now > *first)
      return std::chrono::system_clock::time_point(
          std::chrono::duration_cast<std::chrono::system_clock::duration>(*now));
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  return std::nullopt;
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
  const fs::path root =
      request.cache_dir.empty() ? default_cache_root() : fs::path(request.cache_dir) / "cuda";
  fs::create_directories(root, ec);
  if (!fs::is_directory(root)) {
    result.error =
        fmt::format("cannot compile {}: cannot create the cache folder {}", src, root.string());
    return result;
  }

  // The key: the source (path and bytes), the arch, the flags in their order, and the
  // toolchain with the environment nvcc reads. What the compile reads beyond the source is
  // checked by the record kept beside the PTX (cuda_compile_record.hpp).
  const auto toolchain = toolchain_identity(*nvcc, root);
  if (!toolchain) {
    result.error = fmt::format("cannot compile {}: {}", src, toolchain.error());
    return result;
  }
  std::string key_text =
      fmt::format("volta-eg cuda 2\n{}\n{}\n{}", source.string(), request.arch, *toolchain);
  for (const auto& f : request.flags)
    key_text += fmt::format("flag {} {}\n", f.size(), f);
  key_text += *source_bytes;
  const std::string key = cache_key(key_text);

  const std::string stem = source.stem().string() + "-" + key;
  const fs::path ptx = root / (stem + ".ptx");
  const fs::path record = root / (stem + ".record");
  if (fs::is_regular_file(ptx, ec)) {
    if (auto recorded = read_file(record.string()); recorded && record_holds(*recorded)) {
      result.ptx_path = ptx.string();
      result.cached = true;
      return result;
    }
  }

  // Compile into private names, then rename into place. The host preprocessor's -v prints
  // the include search path the record needs (the PTX is the same with or without it).
  static std::atomic<uint64_t> compiles{0};
  const std::string tag = fmt::format(".{}.{}", ::getpid(), compiles.fetch_add(1));
  const fs::path tmp_ptx = root / (stem + tag + ".ptx.tmp");
  const fs::path tmp_make = root / (stem + tag + ".d.tmp");
  const fs::path log = root / (stem + tag + ".log");
  std::vector<std::string> argv = {*nvcc, "-ptx", "-lineinfo", "-arch=" + request.arch};
  argv.insert(argv.end(), request.flags.begin(), request.flags.end());
  argv.insert(argv.end(), {"-Xcompiler", "-v", "-MD", "-MF", tmp_make.string(), "-o",
                           tmp_ptx.string(), source.string()});
  // Anything recorded with a ctime from `started` on changed while nvcc ran.
  const auto started = compile_start(log);
  int status = run_to_log(argv, log);
  std::string messages = read_file(log.string()).value_or("");
  if (status != 0) {
    // Again without -v, for nvcc's own messages (and status) alone.
    argv.erase(argv.end() - 8, argv.end() - 6);
    status = run_to_log(argv, log);
    messages = read_file(log.string()).value_or("");
  }
  if (status != 0) {
    std::string text = messages;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
      text.pop_back();
    result.error = status < 0 ? fmt::format("cannot compile {}: cannot run {}", src, *nvcc)
                              : fmt::format("cannot compile {}: nvcc exited with status {}{}{}",
                                            src, status, text.empty() ? "" : ":\n", text);
  } else {
    CompileObservation seen;
    seen.log = messages;
    seen.make_deps = read_file(tmp_make.string()).value_or("");
    seen.cwd = fs::current_path(ec);
    seen.excluded = {fs::weakly_canonical(root, ec)};
    seen.started = started.value_or(std::chrono::system_clock::time_point::min());
    const auto ptx_bytes = read_file(tmp_ptx.string());
    seen.ptx_path = ptx;
    seen.ptx_bytes = ptx_bytes.value_or("");
    const CompileRecord kept = record_compile(seen);
    // The source must still be the bytes the key names.
    const bool same_source = read_file(source.string()) == source_bytes;
    if (!ptx_bytes) {
      result.error = fmt::format("cannot compile {}: nvcc wrote no PTX", src);
    } else if (kept.text && same_source && write_atomically(ptx, *ptx_bytes) &&
               write_atomically(record, *kept.text)) {
      result.ptx_path = ptx.string();
    } else {
      // Not kept for reuse: the PTX goes under a private name, and no record vouches for it.
      const fs::path once = root / (stem + ".uncached" + tag + ".ptx");
      if (write_atomically(once, *ptx_bytes))
        result.ptx_path = once.string();
      else
        result.error = fmt::format("cannot compile {}: cannot write {}", src, once.string());
      result.not_cached = kept.text ? (same_source ? "the cache could not be written"
                                                   : "the source changed while nvcc ran")
                                    : kept.why_not;
    }
  }
  for (const auto& p : {tmp_ptx, tmp_make, log})
    fs::remove(p, ec);
  return result;
}

} // namespace volta::launch
