#include "engine/smt/solver_worker.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <mutex>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/smt/child_reply.hpp"

namespace volta::smt {

namespace {

// One request: the limits, the number of observed terms (the last assertions of the text, each
// `(= volta_observe_I term)`), the text's length; then the text. The reply pipe's write end
// travels with the header (SCM_RIGHTS). The worker answers with the pid of the child.
struct Request {
  uint32_t memory_mb = 0;
  uint32_t rlimit = 0;
  uint32_t procedure = 0;
  uint32_t observed = 0;
  uint64_t text_size = 0;
};

struct WorkerState {
  std::mutex mutex; // one request at a time on the control socket
  int socket = -1;  // the parent's end; -1: not running
  pid_t pid = -1;
  bool started = false;
};

WorkerState& state() {
  static WorkerState s;
  return s;
}

bool read_exact(int fd, void* data, size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool write_exact(int fd, const void* data, size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool send_with_fd(int socket, const Request& request, int fd) {
  iovec io{const_cast<Request*>(&request), sizeof request};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  ssize_t n;
  do {
    n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof request);
}

bool receive_with_fd(int socket, Request& request, int& fd) {
  iovec io{&request, sizeof request};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof request))
    return false;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  if (c == nullptr || c->cmsg_type != SCM_RIGHTS)
    return false;
  std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return true;
}

// The query's child: parse, solve, reply, end.
[[noreturn]] void answer(z3::context& ctx, const Request& request, const std::string& text,
                         int reply_fd) {
  if (request.memory_mb) {
    const rlim_t bytes = rlim_t{request.memory_mb} << 20;
    const rlimit cap{bytes, bytes};
    setrlimit(RLIMIT_AS, &cap);
  }
  CheckResult r;
  try {
    const z3::expr_vector parsed = ctx.parse_string(text.c_str());
    if (parsed.size() < request.observed)
      throw z3::exception("the query lost its observed terms");
    std::vector<z3::expr> observe;
    for (unsigned i = parsed.size() - request.observed; i < parsed.size(); ++i)
      observe.push_back(parsed[i].arg(0)); // volta_observe_I, equal to the observed term
    r = solve_once(ctx, parsed, observe,
                   SolveSettings{0, request.rlimit, static_cast<Procedure>(request.procedure)});
  } catch (const z3::exception& e) {
    r.status = Status::Unknown;
    r.reason = fmt::format("Z3 error: {}", e.msg());
  } catch (const std::bad_alloc&) {
    r.status = Status::Unknown;
    r.reason = "Z3 error: out of memory";
  }
  write_all(reply_fd, encode_reply(r));
  ::close(reply_fd);
  ::_exit(0);
}

// A context whose lazy initialisation (tactic tables, the first solver) is done once here and
// inherited by every query's child: a fresh context costs each query about 40 ms.
z3::context& warm_context() {
  static z3::context* ctx = [] {
    auto* c = new z3::context();
    const z3::expr x = c->real_const("volta_warm_up");
    for (Procedure p : {Procedure::Default, Procedure::NonlinearReals, Procedure::WithFunctions}) {
      z3::expr_vector v(*c);
      v.push_back(x * x == 2);
      (void)solve_once(*c, v, {x}, SolveSettings{0, 0, p});
    }
    return c;
  }();
  return *ctx;
}

[[noreturn]] void serve(int socket) {
  // Children are reaped by the kernel: the querying thread, not the worker, waits for them
  // (through their reply pipes) and kills them at the deadline.
  signal(SIGCHLD, SIG_IGN);
  signal(SIGINT, SIG_IGN); // Ctrl-C is the prover's to handle; the worker ends with its socket
  z3::context& ctx = warm_context();
  for (;;) {
    Request request;
    int reply_fd = -1;
    if (!receive_with_fd(socket, request, reply_fd))
      ::_exit(0); // the prover has gone
    std::string text(request.text_size, '\0');
    if (!read_exact(socket, text.data(), text.size()))
      ::_exit(0);
    const pid_t child = ::fork();
    if (child == 0) {
      ::close(socket);
      answer(ctx, request, text, reply_fd);
    }
    ::close(reply_fd);
    const int32_t reply = child;
    if (!write_exact(socket, &reply, sizeof reply))
      ::_exit(0);
  }
}

} // namespace

bool start_solver_worker() {
  WorkerState& s = state();
  std::lock_guard guard(s.mutex);
  if (s.started)
    return s.socket >= 0;
  s.started = true;
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return false;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {
    ::close(fds[0]);
    serve(fds[1]);
  }
  ::close(fds[1]);
  s.socket = fds[0];
  s.pid = pid;
  return true;
}

bool solver_worker_running() {
  WorkerState& s = state();
  std::lock_guard guard(s.mutex);
  return s.socket >= 0;
}

std::optional<CheckResult> check_in_worker(z3::context& ctx, const z3::expr_vector& assertions,
                                           const std::vector<z3::expr>& observe,
                                           const ChildLimits& limits) {
  const auto start = Clock::now();
  if (!solver_worker_running())
    return std::nullopt;
  std::string text;
  try {
    z3::solver solver(ctx);
    for (unsigned i = 0; i < assertions.size(); ++i)
      solver.add(assertions[i]);
    for (size_t i = 0; i < observe.size(); ++i) {
      const z3::expr name =
          ctx.constant(fmt::format("volta_observe_{}", i).c_str(), observe[i].get_sort());
      solver.add(name == observe[i]);
    }
    text = solver.to_smt2();
  } catch (const z3::exception&) {
    return std::nullopt;
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    return std::nullopt;
  Request request;
  request.memory_mb = limits.memory_mb;
  request.rlimit = limits.rlimit;
  request.procedure = static_cast<uint32_t>(limits.procedure);
  request.observed = static_cast<uint32_t>(observe.size());
  request.text_size = text.size();
  int32_t child = -1;
  {
    WorkerState& s = state();
    std::lock_guard guard(s.mutex);
    const bool sent = s.socket >= 0 && send_with_fd(s.socket, request, pipe_fds[1]) &&
                      write_exact(s.socket, text.data(), text.size()) &&
                      read_exact(s.socket, &child, sizeof child);
    if (!sent || child <= 0) {
      // The worker is gone (or could not fork): stop using it.
      if (s.socket >= 0 && !sent) {
        ::close(s.socket);
        s.socket = -1;
      }
      ::close(pipe_fds[0]);
      ::close(pipe_fds[1]);
      return std::nullopt;
    }
  }
  ::close(pipe_fds[1]); // the child holds the only write end now: its exit ends the reply
  std::string reply;
  const std::string stopped = read_reply(pipe_fds[0], limits.deadline, limits.cancel, reply);
  ::close(pipe_fds[0]);
  CheckResult r;
  auto finish = [&](std::string reason) {
    r.status = Status::Unknown;
    r.values.clear();
    r.reason = std::move(reason);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  if (!stopped.empty()) {
    ::kill(child, SIGKILL);
    return finish(stopped);
  }
  if (!decode_reply(reply, r))
    return finish("the Z3 process gave no answer (it crashed or ran out of memory)");
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

} // namespace volta::smt
