#include "tests/client/cli_runner.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tally::testing {

namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    read = fds[0];
    write = fds[1];
  }
};

// Starts the binary with its three standard streams on pipes; returns the pid.
pid_t spawn(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
            Pipe& in, Pipe& out, Pipe& err) {
  std::vector<std::string> argv_text = {TALLY_CLI_BINARY};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<std::string> env_text = cli_environment(env);
  std::vector<char*> argv, envp;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(in.read, STDIN_FILENO);
    ::dup2(out.write, STDOUT_FILENO);
    ::dup2(err.write, STDERR_FILENO);
    ::execve(TALLY_CLI_BINARY, argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in.read);
  ::close(out.write);
  ::close(err.write);
  return pid;
}

// Appends what `fd` has to `text`; false at end of file.
bool drain(int fd, std::string& text) {
  char buffer[4096];
  ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    text.append(buffer, static_cast<std::size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

int exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

}  // namespace

std::vector<std::string> cli_environment(const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env = {
      {"PATH", "/usr/bin:/bin"}, {"TZ", "UTC"}, {"LANG", "C.UTF-8"}};
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"}) {
    if (const char* v = std::getenv(name)) env[name] = v;
  }
  for (const auto& [k, v] : extra) env[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

CliResult run_cli(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& env, const std::string& input,
                  std::chrono::milliseconds deadline) {
  Pipe in, out, err;
  pid_t pid = spawn(args, env, in, out, err);
  // The input is small (a pipe holds 64 KiB): written at once, then closed as the end of input.
  std::size_t written = 0;
  while (written < input.size()) {
    ssize_t n = ::write(in.write, input.data() + written, input.size() - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  ::close(in.write);

  CliResult result;
  auto until = Clock::now() + deadline;
  bool out_open = true, err_open = true;
  while ((out_open || err_open) && Clock::now() < until) {
    pollfd fds[2] = {{out_open ? out.read : -1, POLLIN, 0}, {err_open ? err.read : -1, POLLIN, 0}};
    if (::poll(fds, 2, 100) <= 0) continue;
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP))) out_open = drain(out.read, result.out);
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP))) err_open = drain(err.read, result.err);
  }
  ::close(out.read);
  ::close(err.read);
  int status = 0;
  if (out_open || err_open) {  // the deadline passed
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    result.exit_code = -1;
    return result;
  }
  ::waitpid(pid, &status, 0);
  result.exit_code = exit_status(status);
  return result;
}

CliProcess::CliProcess(const std::vector<std::string>& args,
                       const std::map<std::string, std::string>& env) {
  Pipe in, out, err;
  pid_ = spawn(args, env, in, out, err);
  ::close(in.write);
  out_fd_ = out.read;
  err_fd_ = err.read;
}

CliProcess::~CliProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

void CliProcess::pump(std::chrono::milliseconds wait) {
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (::poll(fds, 2, static_cast<int>(wait.count())) <= 0) return;
  if (out_fd_ >= 0 && (fds[0].revents & (POLLIN | POLLHUP)) && !drain(out_fd_, out_)) {
    ::close(out_fd_);
    out_fd_ = -1;
  }
  if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP)) && !drain(err_fd_, err_)) {
    ::close(err_fd_);
    err_fd_ = -1;
  }
}

bool CliProcess::wait_for(const std::function<bool(const std::string&)>& done,
                          std::chrono::milliseconds deadline) {
  auto until = Clock::now() + deadline;
  while (!done(out_)) {
    if (Clock::now() >= until || (out_fd_ < 0 && err_fd_ < 0)) return false;
    pump(std::chrono::milliseconds(50));
  }
  return true;
}

std::optional<int> CliProcess::wait_exit(std::chrono::milliseconds deadline) {
  if (pid_ <= 0) return std::nullopt;
  auto until = Clock::now() + deadline;
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() >= until) return std::nullopt;
    pump(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  while (out_fd_ >= 0 || err_fd_ >= 0) pump(std::chrono::milliseconds(20));
  return exit_status(status);
}

int CliProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  auto until = Clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() >= until) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
      return -1;
    }
    pump(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  while (out_fd_ >= 0 || err_fd_ >= 0) pump(std::chrono::milliseconds(20));
  return exit_status(status);
}

}  // namespace tally::testing
