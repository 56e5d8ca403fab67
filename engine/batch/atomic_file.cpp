#include "engine/batch/atomic_file.hpp"

#include <atomic>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <thread>
#include <unistd.h>

namespace volta::batch {

bool write_file_atomically(const std::string& path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  const std::string temp =
      fmt::format("{}.tmp-{}-{}-{}", path, getpid(),
                  std::hash<std::thread::id>{}(std::this_thread::get_id()), counter.fetch_add(1));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

} // namespace volta::batch
