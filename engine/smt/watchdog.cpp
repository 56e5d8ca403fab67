#include "engine/smt/watchdog.hpp"

namespace volta::smt {

namespace {
// How often a raised cancel flag is noticed while waiting for the deadline.
constexpr auto kCancelPoll = std::chrono::milliseconds(20);
} // namespace

Watchdog::Watchdog(z3::context& ctx, Clock::time_point deadline, const std::atomic<bool>* cancel)
    : ctx_(ctx), deadline_(deadline), cancel_(cancel), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stop_)
      return;
    const auto now = Clock::now();
    const bool cancelled = cancel_ && cancel_->load(std::memory_order_relaxed);
    if (now >= deadline_ || cancelled) {
      // Interrupting under the lock: the destructor cannot finish (and the caller cannot go on
      // using or destroy the context) while the interrupt is being delivered.
      fired_.store(true, std::memory_order_release);
      ctx_.interrupt();
      return;
    }
    const auto next = cancel_ ? std::min(deadline_, now + kCancelPoll) : deadline_;
    wake_.wait_until(lock, next);
  }
}

} // namespace volta::smt
