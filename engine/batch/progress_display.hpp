// What a batch shows while it runs. On a terminal: every finished entry's result lines, and
// below them one live line (redrawn ten times a second) with a progress bar, the elapsed time
// and the entries being worked on. Elsewhere (a pipe, a CI log): only the result lines, one
// entry after the other as they finish, without escape codes; and, when a heartbeat stream is
// given (stderr that is not a terminal: a CI log), a line there every few seconds while an entry
// runs, so that a long entry is not mistaken for a hung one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/report/result_line.hpp"

namespace volta::batch {

class ProgressDisplay {
public:
  // `out` may be null (no output at all). `width`: the terminal's columns (0: ask the terminal).
  ProgressDisplay(std::ostream* out, bool terminal, size_t total, report::LineStyle style,
                  size_t width = 0, std::ostream* heartbeat = nullptr,
                  double heartbeat_seconds = 5.0);
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  void started(size_t slot, const std::string& name);
  // The entry's final result: printed, and counted as done.
  void finished(size_t slot, const entry::EntryResult& result);
  // The entry stopped without a final result (it will run again): no longer shown as running.
  void set_aside(size_t slot);
  // How far the entry in `slot` got: its phase and, with `total` > 0, `done` of `total` elements.
  void progress(size_t slot, std::string_view phase, size_t done, size_t total);
  // A line of its own ("re-running 2 entries alone ...").
  void note(const std::string& line);

private:
  struct Running {
    size_t slot;
    std::string name;
    std::chrono::steady_clock::time_point since;
    std::string phase;
    size_t done = 0, total = 0;
  };
  std::string running_text(std::chrono::steady_clock::time_point now) const; // mutex_ held
  void beat();            // the heartbeat line, with mutex_ held
  void clear_live_line(); // with mutex_ held
  void draw_live_line();  // with mutex_ held
  void tick();

  std::ostream* out_;
  bool terminal_;
  size_t total_;
  report::LineStyle style_;
  size_t width_;
  size_t done_ = 0;
  bool live_shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::vector<Running> running_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
  std::ostream* heartbeat_;
  double heartbeat_seconds_;
  std::chrono::steady_clock::time_point last_beat_;
};

// The number of columns of the terminal on standard output (80 when unknown).
size_t terminal_columns();

} // namespace volta::batch
