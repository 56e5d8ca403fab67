#include "engine/cli/run_entries.hpp"

#include <chrono>
#include <fmt/format.h>
#include <iostream>

#include "engine/cli/exit_codes.hpp"
#include "engine/driver/memory_limit.hpp"
#include "engine/driver/summary_table.hpp"

namespace volta::cli {

int run_entries(RunRequest& request) {
  if (request.options.max_memory_bytes > 0) {
    const std::string note = driver::install_address_space_limit(request.options.max_memory_bytes);
    if (!note.empty())
      std::cerr << "volta-eg: note: --max-memory: " << note << "\n";
  }
  const auto start = std::chrono::steady_clock::now();
  auto results = driver::run_batch(request.entries, request.runner, request.options);
  request.info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json report = driver::report_json(results, request.info);
  if (request.cache) {
    report["cache"] = {{"hits", request.cache->hits()},
                       {"misses", request.cache->misses()},
                       {"stored", request.cache->stored()},
                       {"ignored", request.cache->ignored()}};
  }
  std::cout.flush();
  // Bad input again on stderr, located, in manifest order: what a CI log greps for.
  for (const auto& r : results) {
    if (!r.bad_input)
      continue;
    if (request.single) {
      std::cerr << "volta-eg: error: " << r.detail << "\n";
    } else {
      std::cerr << fmt::format("{}: error: entry #{} \"{}\": {}\n", request.info.manifest, r.index,
                               r.name, r.detail);
    }
  }
  if (!request.single) {
    driver::print_summary_table(std::cout, report, request.options.color);
    if (request.cache) {
      const auto plural = [](uint64_t n, const char* one, const char* many) {
        return fmt::format("{} {}", n, n == 1 ? one : many);
      };
      std::cout << "proof cache: " << plural(request.cache->hits(), "hit", "hits") << ", "
                << plural(request.cache->stored(), "template stored", "templates stored");
      if (request.cache->ignored() > 0) {
        std::cout << ", "
                  << plural(request.cache->ignored(), "damaged file ignored",
                            "damaged files ignored");
      }
      std::cout << "\n";
    }
  }
  std::cout.flush();
  if (!write_reports(request.reports, report))
    return kBadInput;
  return driver::exit_status(report["results"]);
}

} // namespace volta::cli
