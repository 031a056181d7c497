// Runs the real `tally` binary as a child process, as a user would: arguments, an environment
// made from scratch (HOME, TZ, TALLY_* as the test says), text on stdin through a pipe, and
// stdout, stderr and the exit code collected — or, for `tally watch`, left running while the
// test reads its output as it comes.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace tally::testing {

struct CliResult {
  int exit_code = -1;  // the exit status, or -1 when killed at the deadline
  std::string out;
  std::string err;
};

// The environment of a child: PATH, TZ=UTC, LANG=C.UTF-8 (so English, whatever the machine's
// locale: no LC_ALL or LC_MESSAGES is inherited), the sanitizers' options when set, and `extra`
// (which may set LANG, LC_ALL or LC_MESSAGES to test another language).
std::vector<std::string> cli_environment(const std::map<std::string, std::string>& extra);

// Runs `tally args…` with `input` on stdin, waits for it (killing it after `deadline`).
CliResult run_cli(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& env, const std::string& input = "",
                  std::chrono::milliseconds deadline = std::chrono::seconds(60));

// `tally args…` running in the background (stdin empty and closed).
class CliProcess {
 public:
  CliProcess(const std::vector<std::string>& args, const std::map<std::string, std::string>& env);
  ~CliProcess();
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;

  // Reads output until `done(stdout so far)` holds (true) or `deadline` passes (false).
  bool wait_for(const std::function<bool(const std::string&)>& done,
                std::chrono::milliseconds deadline);
  // Waits for the process to end by itself; its exit status, or nullopt after `deadline`.
  std::optional<int> wait_exit(std::chrono::milliseconds deadline);
  // SIGTERM, then waits (SIGKILL after 10 s); returns the exit status (-1 if killed).
  int terminate();

  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  void pump(std::chrono::milliseconds wait);  // reads what is available within `wait`
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_;
  std::string err_;
};

}  // namespace tally::testing
