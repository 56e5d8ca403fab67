// Isolated Z3 queries from a large process: a fork of the whole process per query
// (check_in_child) against the pre-forked solver worker (solver_worker.hpp). Allocates and
// touches G GiB first (the expression store of a large entry), then times N small queries.
//
//   build/release/bench/smt/worker_bench [--gib 4] [--queries 20] [--worker]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/smt/query.hpp"
#include "engine/smt/solver_worker.hpp"

int main(int argc, char** argv) {
  double gib = 4;
  int queries = 20;
  bool worker = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gib" && i + 1 < argc)
      gib = std::stod(argv[++i]);
    else if (a == "--queries" && i + 1 < argc)
      queries = std::stoi(argv[++i]);
    else if (a == "--worker")
      worker = true;
  }
  if (worker && !volta::smt::start_solver_worker()) {
    std::fprintf(stderr, "cannot start the worker\n");
    return 1;
  }
  const size_t bytes = static_cast<size_t>(gib * (1ull << 30));
  std::unique_ptr<char[]> ballast(new char[bytes]);
  std::memset(ballast.get(), 1, bytes); // resident, like a store's chunks
  std::vector<double> times;
  for (int q = 0; q < queries; ++q) {
    volta::smt::Budget budget;
    budget.isolate = true;
    budget.timeout_ms = 10'000;
    volta::smt::Query query(budget);
    const z3::expr x = query.ctx().real_const("x");
    z3::expr_vector v(query.ctx());
    v.push_back(x * x == 2 + q && x > 0);
    const auto start = std::chrono::steady_clock::now();
    const auto r = query.check(v, {x});
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (r.status != volta::smt::Status::Sat) {
      std::fprintf(stderr, "query %d: %s\n", q, r.reason.c_str());
      return 1;
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("%s, %.1f GiB resident: %d queries, median %.1f ms, max %.1f ms\n",
              worker ? "worker" : "fork per query", gib, queries, 1e3 * times[times.size() / 2],
              1e3 * times.back());
  return static_cast<int>(ballast[bytes / 2]) - 1;
}
