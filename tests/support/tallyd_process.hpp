// Runs the real tallyd (the test build, which also serves "testgame") as a child process on an
// ephemeral loopback port, for tests that talk to it over real sockets.
#pragma once

#include "tests/support/http_client.hpp"

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::testing {

// tallyd (the test build) run once with `args` (`export …`, `reset-organizer …`): its exit
// status and everything it printed.
struct TallydRun {
  int status;
  std::string output;
};
TallydRun run_tallyd(const std::string& args);

class TallydProcess {
 public:
  // `data` is the data directory; `extra` more flags (e.g. {"--rate-limit", "5"}).
  explicit TallydProcess(std::string data, std::vector<std::string> extra = {});
  ~TallydProcess();

  // The next start() runs tallyd under an open-file limit of `limit` (soft and hard, so tallyd
  // cannot raise it) with `held` of them already taken by descriptors it inherits (/dev/null): a
  // process short of descriptors, as a store with many files open makes it (issue 39, F3).
  void limit_open_files(std::size_t limit, std::size_t held) {
    open_file_limit_ = limit;
    held_files_ = held;
  }

  // Starts and waits until it listens (throws after 30 s).
  void start();
  // SIGTERM and wait: a graceful shutdown. Returns the exit status.
  int stop();
  // SIGKILL and wait: a crash.
  void kill();
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // The CPU time (user + system) the running tallyd has used so far, from /proc/PID/stat.
  std::chrono::duration<double> cpu_time() const;

  std::uint16_t port() const { return port_; }
  const std::string& data() const { return data_; }
  std::string organizer_token() const;
  HttpClient client(const std::string& token) const {
    return HttpClient("127.0.0.1", port_, token);
  }
  HttpClient organizer() const { return client(organizer_token()); }
  // What the daemon logged so far (stderr).
  std::string log() const;
  // The log once `holds(log)` is true (tallyd writes request lines in batches, within 50 ms);
  // the log as it is after 5 s without.
  std::string log_once(const std::function<bool(const std::string&)>& holds) const;
  std::string log_once_it_has(std::string_view text) const {
    return log_once([text](const std::string& log) { return log.find(text) != std::string::npos; });
  }

 private:
  std::string data_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::string log_path_;
  std::size_t open_file_limit_ = 0, held_files_ = 0;
};

}  // namespace tally::testing
