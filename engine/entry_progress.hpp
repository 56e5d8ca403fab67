// How far a long entry got, for the batch's progress display: the phase ("executing",
// "proving", "domains", "cross-check") and, while proving, how many elements are decided. The
// batch sets a sink on the thread that runs an entry (ProgressScope); the layers below report
// to it without knowing of any display. Only the entry's own thread reports (the loops that
// count are sequential there); a thread without a sink reports to nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace volta {

using ProgressSink = std::function<void(std::string_view phase, size_t done, size_t total)>;

namespace detail {
inline thread_local const ProgressSink* current_progress_sink = nullptr;
}

// Sets `sink` (may be null) for this thread while it lives.
class ProgressScope {
public:
  explicit ProgressScope(const ProgressSink* sink) : previous_(detail::current_progress_sink) {
    detail::current_progress_sink = sink;
  }
  ~ProgressScope() { detail::current_progress_sink = previous_; }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

private:
  const ProgressSink* previous_;
};

// `total` 0: a phase without a count.
inline void report_progress(std::string_view phase, size_t done = 0, size_t total = 0) {
  if (const ProgressSink* sink = detail::current_progress_sink; sink != nullptr && *sink)
    (*sink)(phase, done, total);
}

} // namespace volta
