#include "engine/smt/isolated_check.hpp"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <mutex>
#include <poll.h>
#include <shared_mutex>
#include <signal.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/smt/child_reply.hpp"

namespace volta::smt {

namespace {

[[noreturn]] void run_child(int fd, z3::context& ctx, const z3::expr_vector& assertions,
                            const std::vector<z3::expr>& observe, const ChildLimits& limits) {
  if (limits.memory_mb) {
    const rlim_t bytes = rlim_t{limits.memory_mb} << 20;
    const rlimit cap{bytes, bytes};
    setrlimit(RLIMIT_AS, &cap);
  }
  // No soft timeout here: Z3 implements it with a pool of timer threads, which the fork did not
  // copy, and waiting for one of them would never end. The parent's kill is the time limit.
  const CheckResult r =
      solve_once(ctx, assertions, observe, SolveSettings{0, limits.rlimit, limits.procedure});
  write_all(fd, encode_reply(r));
  ::close(fd);
  // No exit handlers or destructors: they belong to the parent (and may take locks it held).
  ::_exit(0);
}

std::shared_mutex& guard() {
  static std::shared_mutex g;
  return g;
}

// How many IsolationHolds this thread has; the guard is held shared while it is positive.
thread_local int t_holds = 0;

} // namespace

IsolationHold::IsolationHold() {
  if (t_holds++ == 0)
    guard().lock_shared();
}

IsolationHold::~IsolationHold() {
  if (--t_holds == 0)
    guard().unlock_shared();
}

CheckResult check_in_child(z3::context& ctx, const z3::expr_vector& assertions,
                           const std::vector<z3::expr>& observe, const ChildLimits& limits) {
  const auto start = Clock::now();
  CheckResult r;
  auto finish = [&](std::string reason) {
    r.status = Status::Unknown;
    r.values.clear();
    r.reason = std::move(reason);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return finish(fmt::format("cannot create a pipe (errno {})", errno));
  pid_t pid;
  {
    guard().unlock_shared();
    std::unique_lock exclusive(guard());
    pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      run_child(fds[1], ctx, assertions, observe, limits);
    }
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    guard().lock_shared();
    return finish(fmt::format("cannot start the Z3 process (errno {})", errno));
  }

  std::string reply;
  const std::string stopped = read_reply(fds[0], limits.deadline, limits.cancel, reply);
  ::close(fds[0]);
  if (!stopped.empty())
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  guard().lock_shared();

  if (!stopped.empty())
    return finish(stopped);
  if (WIFSIGNALED(status)) {
    return finish(fmt::format("Z3 process crashed (signal {})", WTERMSIG(status)));
  }
  if (!decode_reply(reply, r))
    return finish("the Z3 process gave no answer");
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

} // namespace volta::smt
