#include "engine/smt/child_reply.hpp"

#include <cerrno>
#include <poll.h>
#include <sstream>
#include <unistd.h>

namespace volta::smt {

namespace {
constexpr auto kCancelPoll = std::chrono::milliseconds(20);
} // namespace

std::string encode_reply(const CheckResult& r) {
  auto line = [](std::string s) {
    for (char& ch : s) {
      if (ch == '\n' || ch == '\r')
        ch = ' ';
    }
    return s + '\n';
  };
  std::string out = line(status_name(r.status)) + line(r.reason);
  for (const auto& v : r.values)
    out += line(v);
  return out;
}

bool decode_reply(const std::string& text, CheckResult& r) {
  std::istringstream in(text);
  std::string status;
  if (!std::getline(in, status) || !std::getline(in, r.reason))
    return false;
  if (status == "sat") {
    r.status = Status::Sat;
  } else if (status == "unsat") {
    r.status = Status::Unsat;
  } else if (status == "unknown") {
    r.status = Status::Unknown;
  } else {
    return false;
  }
  for (std::string v; std::getline(in, v);)
    r.values.push_back(v);
  return true;
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

std::string read_reply(int fd, Clock::time_point deadline, const std::atomic<bool>* cancel,
                       std::string& reply) {
  std::string stopped;
  char buffer[4096];
  for (;;) {
    const auto now = Clock::now();
    if (cancel && cancel->load()) {
      stopped = "cancelled";
      break;
    }
    if (now >= deadline) {
      stopped = "timeout";
      break;
    }
    auto wait = deadline - now;
    if (cancel)
      wait = std::min<Clock::duration>(wait, kCancelPoll);
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(wait).count();
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(ms, 1 << 30)));
    if (ready < 0 && errno != EINTR) {
      stopped = "lost the Z3 process (poll failed)";
      break;
    }
    if (ready <= 0)
      continue;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; // end of the reply
    reply.append(buffer, static_cast<size_t>(n));
  }
  return stopped;
}

} // namespace volta::smt
