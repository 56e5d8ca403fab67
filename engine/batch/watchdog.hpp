// The per-entry resource guards of a batch, enforced from one background thread:
//   - time: an entry running longer than `seconds` gets its cancel flag set;
//   - interrupt: once the interrupt flag is set (SIGINT, SIGTERM), every running entry;
//   - memory: `memory_bytes` is a budget per entry: each entry records the process's resident
//     memory when it starts (its base); when the resident memory exceeds the lowest base of the
//     running entries plus `memory_bytes` for each of them, every running entry gets its cancel
//     flag set (the batch cannot tell which entry holds the memory; run_batch re-runs alone those
//     that were not alone, so that the verdict is attributable). Alone, an entry is stopped when
//     it has grown the process by more than `memory_bytes`.
// Cancellation is cooperative: the engine polls the flag (the interpreter every 65,536 executed
// thread-instructions, the prover before each element) and ends the entry UNKNOWN; the watchdog
// only records why it asked. A watch ends when its Scope is destroyed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace volta::batch {

class Watchdog {
public:
  enum class Reason : int { None = 0, TimeLimit = 1, MemoryLimit = 2, Interrupted = 3 };

  struct Limits {
    double seconds = 0;        // per entry; 0: none
    uint64_t memory_bytes = 0; // resident memory per running entry; 0: none
    // How the resident memory is measured (tests substitute their own); empty: /proc/self/statm.
    std::function<uint64_t()> resident_bytes;
    std::chrono::milliseconds period{10}; // how often the limits are checked
    // Nonzero (the signal number) once SIGINT/SIGTERM arrived: every running entry is cancelled.
    const std::atomic<int>* interrupt = nullptr;
  };

  // What one running entry shares with the watchdog.
  class Entry {
  public:
    std::atomic<bool>& cancel_flag() { return cancel_; }
    Reason reason() const { return reason_.load(); }

  private:
    friend class Watchdog;
    void trip(Reason why);
    std::atomic<bool> cancel_{false};
    std::atomic<Reason> reason_{Reason::None};
    std::chrono::steady_clock::time_point deadline_{};
    uint64_t base_ = 0; // resident bytes of the process when the entry started
  };

  // Watches one entry from construction to destruction.
  class Scope {
  public:
    Scope(Watchdog* dog, Entry& entry);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    Watchdog* dog_;
    Entry& entry_;
  };

  explicit Watchdog(Limits limits);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  bool active() const {
    return limits_.seconds > 0 || limits_.memory_bytes > 0 || limits_.interrupt != nullptr;
  }
  const Limits& limits() const { return limits_; }
  // How many times the memory limit was found exceeded.
  uint64_t memory_trips() const { return memory_trips_.load(); }

private:
  void add(Entry& entry);
  void remove(Entry& entry);
  void loop();

  Limits limits_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry*> entries_;
  bool stop_ = false;
  std::atomic<uint64_t> memory_trips_{0};
  std::thread thread_;
};

} // namespace volta::batch
