#include "engine/batch/progress_display.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/report/printable_text.hpp"

namespace volta::batch {

size_t terminal_columns() {
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 80;
}

ProgressDisplay::ProgressDisplay(std::ostream* out, bool terminal, size_t total,
                                 report::LineStyle style, size_t width, std::ostream* heartbeat,
                                 double heartbeat_seconds)
    : out_(out), terminal_(terminal && out != nullptr), total_(total), style_(style),
      width_(width != 0 ? width : terminal_columns()), start_(std::chrono::steady_clock::now()),
      heartbeat_(terminal_ ? nullptr : heartbeat), heartbeat_seconds_(heartbeat_seconds),
      last_beat_(start_) {
  if (terminal_ || heartbeat_ != nullptr)
    ticker_ = std::thread([this] { tick(); });
}

ProgressDisplay::~ProgressDisplay() {
  {
    std::lock_guard guard(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable())
    ticker_.join();
  std::lock_guard guard(mutex_);
  clear_live_line();
}

void ProgressDisplay::started(size_t slot, const std::string& name) {
  std::lock_guard guard(mutex_);
  running_.push_back(Running{slot, report::printable(name), std::chrono::steady_clock::now(), {}});
  if (terminal_)
    draw_live_line();
}

void ProgressDisplay::finished(size_t slot, const entry::EntryResult& result) {
  std::lock_guard guard(mutex_);
  running_.erase(std::remove_if(running_.begin(), running_.end(),
                                [&](const Running& r) { return r.slot == slot; }),
                 running_.end());
  ++done_;
  if (!out_)
    return;
  clear_live_line();
  report::print_result_line(*out_, result, style_);
  if (terminal_ && done_ < total_)
    draw_live_line();
  out_->flush();
}

void ProgressDisplay::set_aside(size_t slot) {
  std::lock_guard guard(mutex_);
  running_.erase(std::remove_if(running_.begin(), running_.end(),
                                [&](const Running& r) { return r.slot == slot; }),
                 running_.end());
}

void ProgressDisplay::progress(size_t slot, std::string_view phase, size_t done, size_t total) {
  std::lock_guard guard(mutex_);
  for (Running& r : running_) {
    if (r.slot != slot)
      continue;
    r.phase = phase;
    r.done = done;
    r.total = total;
  }
}

std::string ProgressDisplay::running_text(std::chrono::steady_clock::time_point now) const {
  if (running_.empty())
    return "";
  // The longest-running entry first: it is the one the user is waiting for.
  const auto oldest =
      std::min_element(running_.begin(), running_.end(),
                       [](const Running& a, const Running& b) { return a.since < b.since; });
  std::string text = fmt::format("running {} ({:.1f}s", oldest->name,
                                 std::chrono::duration<double>(now - oldest->since).count());
  if (!oldest->phase.empty()) {
    text += ", " + oldest->phase;
    if (oldest->total > 0)
      text += fmt::format(" {}/{} elements", oldest->done, oldest->total);
  }
  text += ")";
  if (running_.size() > 1)
    text += fmt::format(" +{} more", running_.size() - 1);
  return text;
}

void ProgressDisplay::beat() {
  const auto now = std::chrono::steady_clock::now();
  if (running_.empty() ||
      std::chrono::duration<double>(now - last_beat_).count() < heartbeat_seconds_)
    return;
  last_beat_ = now;
  *heartbeat_ << fmt::format("volta-eg: {:.0f}s, {}/{} entries done; {}\n",
                             std::chrono::duration<double>(now - start_).count(), done_, total_,
                             running_text(now));
  heartbeat_->flush();
}

void ProgressDisplay::note(const std::string& line) {
  std::lock_guard guard(mutex_);
  if (!out_)
    return;
  clear_live_line();
  *out_ << line << "\n";
  if (terminal_)
    draw_live_line();
  out_->flush();
}

void ProgressDisplay::clear_live_line() {
  if (!live_shown_ || !out_)
    return;
  *out_ << "\r\033[K";
  live_shown_ = false;
}

void ProgressDisplay::draw_live_line() {
  if (!out_)
    return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  constexpr size_t kBar = 20;
  const size_t filled = total_ == 0 ? kBar : done_ * kBar / total_;
  std::string bar(filled, '=');
  if (filled < kBar)
    bar += '>';
  bar.resize(kBar, ' ');
  std::string line = fmt::format("[{}] {}/{}  {:.1f}s", bar, done_, total_, elapsed);
  if (!running_.empty())
    line += "  " + running_text(now);
  // Never wrap: a wrapped line cannot be redrawn in place with \r.
  const size_t max = width_ > 1 ? width_ - 1 : 79;
  if (line.size() > max) {
    line.resize(max > 3 ? max - 3 : max);
    while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80)
      line.pop_back();
    if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0)
      line.pop_back();
    line += "...";
  }
  *out_ << "\r\033[K" << (style_.color ? report::kDim : "") << line
        << (style_.color ? report::kReset : "");
  out_->flush();
  live_shown_ = true;
}

void ProgressDisplay::tick() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(100));
    if (stop_)
      break;
    try {
      if (heartbeat_ != nullptr)
        beat();
      else if (!running_.empty())
        draw_live_line();
    } catch (...) {
      // Out of memory while formatting: skip this frame; the batch goes on.
    }
  }
}

} // namespace volta::batch
