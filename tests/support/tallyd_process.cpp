#include "tests/support/tallyd_process.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tally::testing {

TallydProcess::TallydProcess(std::string data, std::vector<std::string> extra)
    : data_(std::move(data)), extra_(std::move(extra)), log_path_(data_ + ".log") {}

TallydProcess::~TallydProcess() {
  if (pid_ <= 0) return;
  try {
    stop();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());  // a destructor cannot fail the test; the log says why
  }
}

namespace {

// The tallyd the tests run: the test build, or another binary named by TALLYD_UNDER_TEST (e.g. a
// Release build of an older commit, to record answers as they were: tests/daemon/answers-test.cpp).
const char* tallyd_binary() {
  const char* other = std::getenv("TALLYD_UNDER_TEST");
  return other != nullptr && *other != '\0' ? other : TALLYD_TEST_BINARY;
}

}  // namespace

void TallydProcess::start() {
  std::string ready = data_ + ".ready";
  std::filesystem::remove(ready);
  std::vector<std::string> args = {tallyd_binary(), "--data",       data_, "--listen",
                                   "127.0.0.1:0",   "--ready-file", ready};
  args.insert(args.end(), extra_.begin(), extra_.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int log_fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("cannot start tallyd");
  if (pid_ == 0) {
    // The child: dies with the test (even a crashed one), logs to the file, becomes tallyd.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(log_fd, STDERR_FILENO);
    int devnull = ::open("/dev/null", O_RDWR);
    dup2(devnull, STDOUT_FILENO);
    if (open_file_limit_ > 0) {
      for (std::size_t i = 0; i < held_files_; ++i) ::open("/dev/null", O_RDONLY);  // inherited
      rlimit files{open_file_limit_, open_file_limit_};
      if (setrlimit(RLIMIT_NOFILE, &files) != 0) _exit(126);
    }
    execv(args[0].c_str(), argv.data());
    _exit(127);
  }
  ::close(log_fd);

  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!std::filesystem::exists(ready)) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("tallyd exited at start:\n" + log());
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("tallyd did not start:\n" + log());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::string address;
  std::ifstream(ready) >> address;
  port_ = static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
}

int TallydProcess::stop() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  // A graceful shutdown takes at most 10 s by design; a daemon still there after 30 s is a bug,
  // and the test fails instead of hanging.
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      pid_ = -1;
      throw std::runtime_error("tallyd did not stop within 30 s of SIGTERM:\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  return status;
}

std::chrono::duration<double> TallydProcess::cpu_time() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields 14 and 15 (utime, stime), counted after the command's closing parenthesis (field 2,
  // which may hold spaces).
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return std::chrono::duration<double>(static_cast<double>(utime + stime) /
                                       static_cast<double>(sysconf(_SC_CLK_TCK)));
}

void TallydProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::string TallydProcess::organizer_token() const {
  std::ifstream in(data_ + "/organizer.token");
  std::string token;
  in >> token;
  return token;
}

std::string TallydProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string TallydProcess::log_once(const std::function<bool(const std::string&)>& holds) const {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::string now = log();
  while (!holds(now) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    now = log();
  }
  return now;
}

TallydRun run_tallyd(const std::string& args) {
  std::string command = std::string(tallyd_binary()) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace tally::testing
