// The answer of a Z3 check run in another process (isolated_check, solver_worker): how the child
// writes it and how the parent reads it, within the query's deadline and cancel flag.
#pragma once

#include <atomic>
#include <string>

#include "engine/smt/solve_once.hpp"
#include "engine/smt/watchdog.hpp"

namespace volta::smt {

// The reply: status, reason and values, one per line (newlines in texts become spaces).
std::string encode_reply(const CheckResult& r);
bool decode_reply(const std::string& text, CheckResult& r);

// Writes all of `text` to `fd` (a child's last act; errors end it silently).
void write_all(int fd, const std::string& text);

// Reads `fd` until the writer closes it, `deadline` passes or `cancel` is raised. Returns why it
// stopped early ("timeout", "cancelled", "lost the Z3 process (poll failed)"), empty when the
// whole reply arrived.
std::string read_reply(int fd, Clock::time_point deadline, const std::atomic<bool>* cancel,
                       std::string& reply);

} // namespace volta::smt
