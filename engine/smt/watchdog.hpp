// A hard cap on one Z3 call. Z3 4.8.12's own `timeout` parameter is soft: some procedures
// (nonlinear arithmetic, quantifier instantiation) check it rarely and can run far past it. The
// watchdog is a thread that calls `context::interrupt()` at the deadline, or as soon as an external
// cancel flag is raised; Z3 then returns `unknown` ("canceled") from the call in progress.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <z3++.h>

namespace volta::smt {

using Clock = std::chrono::steady_clock;

class Watchdog {
public:
  // Starts watching at once; `cancel` may be null.
  Watchdog(z3::context& ctx, Clock::time_point deadline, const std::atomic<bool>* cancel);
  // Stops the thread; after this returns the watchdog never touches the context again.
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Did it interrupt the context (deadline passed or cancelled)?
  bool fired() const { return fired_.load(std::memory_order_acquire); }

private:
  void watch();

  z3::context& ctx_;
  const Clock::time_point deadline_;
  const std::atomic<bool>* cancel_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_; // last: started after every other member is ready
};

} // namespace volta::smt
