// Interrupts: SIGINT or SIGTERM during a batch stops it cooperatively. The finished
// entries keep their verdicts, the others are marked not run, every report is still written
// (`"interrupted": true`; skipped test cases in JUnit), one line on stderr says so, and the exit
// status is 128 + the signal (130, 143).
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A race_check entry of tests/cli/data/spin.ptx counting to n (2e9: about three minutes).
json spin_entry(const std::string& name, uint64_t n) {
  return {{"name", name},
          {"kind", "race_check"},
          {"expected", "RACE_FREE"},
          {"kernel",
           {{"ptx", source_dir() + "/tests/cli/data/spin.ptx"},
            {"entry", "spin"},
            {"block", {1, 1, 1}},
            {"arrays",
             {{{"name", "O"}, {"base", "0x1000"}, {"elem_width", 4}, {"len", 1}, {"kind", "out"}}}},
            {"params", {"ptr:O", fmt::format("int:{}", n)}}}}};
}

// Starts volta-eg in `dir` (stdout and stderr to out.txt and err.txt), waits until its stdout
// shows the first entry's result line (the tool has started, installed its handlers and is
// running the second entry: a fixed delay alone is too short on a loaded machine), sends
// `signal` `delay` later, and returns its exit status (-1: it did not end within a minute).
int run_and_signal(const fs::path& dir, const std::vector<std::string>& args, int signal,
                   std::chrono::milliseconds delay, int repeats = 1) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0)
      _exit(126);
    const int out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::vector<char*> argv;
    std::string binary = VOLTA_EG_BINARY;
    argv.push_back(binary.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  for (int i = 0; i < 600 && read_file(dir / "out.txt").find("quick") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::this_thread::sleep_for(delay);
  for (int i = 0; i < repeats; ++i)
    kill(pid, signal);
  for (int i = 0; i < 600; ++i) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

fs::path slow_batch(const std::string& test) {
  const auto dir = scratch_dir(test);
  json m = {{"benchmarks",
             {spin_entry("quick", 10), spin_entry("slow", 2'000'000'000),
              spin_entry("later 1", 2'000'000'000), spin_entry("later 2", 10)}}};
  write_file(dir / "m.json", m.dump(1));
  return dir;
}

void expect_partial_report(const fs::path& dir, const std::string& signal) {
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["interrupted"], true);
  EXPECT_EQ(report["interrupt_signal"], signal);
  ASSERT_EQ(report["results"].size(), 4u);
  const json& quick = report["results"][0];
  EXPECT_EQ(quick["verdict"], "RACE_FREE");
  EXPECT_EQ(quick["not_run"], false);
  const json& slow = report["results"][1];
  EXPECT_EQ(slow["verdict"], "UNKNOWN");
  EXPECT_EQ(slow["not_run"], true);
  EXPECT_EQ(slow["guard"], "interrupted");
  EXPECT_EQ(slow["detail"], "not finished: the batch was interrupted while it ran");
  for (int i : {2, 3}) {
    EXPECT_EQ(report["results"][i]["not_run"], true);
    EXPECT_EQ(report["results"][i]["detail"],
              "not run: the batch was interrupted before it started");
  }
  EXPECT_EQ(report["summary"]["not_run"], 3);
  const std::string junit = read_file(dir / "r.xml");
  EXPECT_NE(junit.find("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"3\""), std::string::npos)
      << junit;
  EXPECT_NE(junit.find("<skipped message=\"not run: the batch was interrupted before it "
                       "started\"/>"),
            std::string::npos);
}

TEST(Interrupt, SigintWritesThePartialReportsAndExits130) {
  const auto dir = slow_batch("interrupt-int");
  const auto start = std::chrono::steady_clock::now();
  const int status =
      run_and_signal(dir, {"check", "--batch", "m.json", "--report", "r.json", "--junit", "r.xml"},
                     SIGINT, std::chrono::milliseconds(300));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(status, 130) << read_file(dir / "err.txt");
  EXPECT_LT(seconds, 30.0) << "the running entry was not cancelled";
  expect_partial_report(dir, "SIGINT");
  const std::string err = read_file(dir / "err.txt");
  EXPECT_NE(err.find("volta-eg: interrupted by SIGINT: 1 of 4 entries finished, 3 not run; the "
                     "reports hold the finished ones\n"),
            std::string::npos)
      << err;
}

// A second Ctrl-C: the user does not want to wait for the reports; the tool exits at once with
// the same status (whether the first one had finished the reports is a matter of microseconds).
TEST(Interrupt, ASecondSigintExitsAtOnce) {
  const auto dir = slow_batch("interrupt-twice");
  const auto start = std::chrono::steady_clock::now();
  const int status =
      run_and_signal(dir, {"check", "--batch", "m.json", "--report", "r.json", "--junit", "r.xml"},
                     SIGINT, std::chrono::milliseconds(300), 2);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(status, 130) << read_file(dir / "err.txt");
  EXPECT_LT(seconds, 10.0);
}

TEST(Interrupt, SigtermExits143) {
  const auto dir = slow_batch("interrupt-term");
  const int status =
      run_and_signal(dir, {"check", "--batch", "m.json", "--report", "r.json", "--junit", "r.xml"},
                     SIGTERM, std::chrono::milliseconds(300));
  EXPECT_EQ(status, 143) << read_file(dir / "err.txt");
  expect_partial_report(dir, "SIGTERM");
}

} // namespace
} // namespace volta::cli_test
