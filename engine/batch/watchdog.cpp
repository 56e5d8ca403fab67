#include "engine/batch/watchdog.hpp"

#include <algorithm>

#include "engine/batch/memory_limit.hpp"

namespace volta::batch {

void Watchdog::Entry::trip(Reason why) {
  Reason none = Reason::None;
  // The first reason wins: an entry past its time that then meets memory pressure timed out.
  reason_.compare_exchange_strong(none, why);
  cancel_.store(true);
}

Watchdog::Scope::Scope(Watchdog* dog, Entry& entry) : dog_(dog), entry_(entry) {
  if (dog_)
    dog_->add(entry_);
}

Watchdog::Scope::~Scope() {
  if (dog_)
    dog_->remove(entry_);
}

Watchdog::Watchdog(Limits limits) : limits_(std::move(limits)) {
  if (!limits_.resident_bytes)
    limits_.resident_bytes = [] { return resident_bytes(); };
  if (active())
    thread_ = std::thread([this] { loop(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard guard(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

namespace {

uint64_t probe(const std::function<uint64_t()>& resident_bytes) {
  try {
    return resident_bytes();
  } catch (...) {
    return 0; // a failing probe must not end the watchdog (nor the batch)
  }
}

} // namespace

void Watchdog::add(Entry& entry) {
  if (limits_.memory_bytes > 0)
    entry.base_ = probe(limits_.resident_bytes);
  if (limits_.seconds > 0) {
    entry.deadline_ = std::chrono::steady_clock::now() +
                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(limits_.seconds));
  }
  std::lock_guard guard(mutex_);
  entries_.push_back(&entry);
  wake_.notify_all();
}

void Watchdog::remove(Entry& entry) {
  std::lock_guard guard(mutex_);
  entries_.erase(std::remove(entries_.begin(), entries_.end(), &entry), entries_.end());
}

void Watchdog::loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (entries_.empty()) {
      wake_.wait(lock, [this] { return stop_ || !entries_.empty(); });
      continue;
    }
    wake_.wait_for(lock, limits_.period);
    if (stop_)
      break;
    const auto now = std::chrono::steady_clock::now();
    if (limits_.interrupt != nullptr && limits_.interrupt->load() != 0) {
      for (Entry* e : entries_)
        e->trip(Reason::Interrupted);
    }
    if (limits_.seconds > 0) {
      for (Entry* e : entries_) {
        if (now >= e->deadline_)
          e->trip(Reason::TimeLimit);
      }
    }
    if (limits_.memory_bytes > 0 && !entries_.empty()) {
      const uint64_t resident = probe(limits_.resident_bytes);
      // Per entry: what the process held before the earliest of the running entries started,
      // plus one budget for each running entry (saturating).
      uint64_t base = UINT64_MAX;
      for (const Entry* e : entries_)
        base = std::min(base, e->base_);
      const uint64_t n = entries_.size();
      const uint64_t budget = limits_.memory_bytes > (UINT64_MAX - base) / n
                                  ? UINT64_MAX
                                  : base + limits_.memory_bytes * n;
      if (resident > budget) {
        bool tripped = false;
        for (Entry* e : entries_) {
          if (!e->cancel_.load()) {
            e->trip(Reason::MemoryLimit);
            tripped = true;
          }
        }
        if (tripped)
          ++memory_trips_;
      }
    }
  }
}

} // namespace volta::batch
