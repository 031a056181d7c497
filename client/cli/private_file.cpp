#include "client/cli/private_file.hpp"

#include "client/cli/exit_codes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tally::cli {

namespace fs = std::filesystem;

namespace {

Failure cannot_write(const fs::path& path, int error) {
  return usage_error(i18n::Message("cli.error.cannot_write",
                                   {{"path", path.string()}, {"problem", std::strerror(error)}}));
}

}  // namespace

void ensure_private_directory(const fs::path& dir) {
  if (fs::is_directory(dir)) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw usage_error(i18n::Message("cli.config.cannot_create",
                                    {{"path", dir.string()}, {"problem", ec.message()}}));
  }
  ::chmod(dir.c_str(), 0700);
}

void write_private_file(const fs::path& path, const std::string& text) {
  fs::path temporary = path;
  temporary += ".tmp" + std::to_string(::getpid());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw cannot_write(temporary, errno);
  bool ok = ::fchmod(fd, 0600) == 0;
  for (std::size_t written = 0; ok && written < text.size();) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) written += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  int saved = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    ::unlink(temporary.c_str());
    throw cannot_write(path, saved);
  }
  // The rename itself is durable once the directory is.
  fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

std::optional<std::string> read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT || !fs::exists(path)) return std::nullopt;
    throw usage_error(i18n::Message("cli.config.cannot_read",
                                    {{"path", path.string()}, {"problem", std::strerror(errno)}}));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

FileLock::FileLock(const fs::path& path, bool wait) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) throw cannot_write(path, errno);
  int rc;
  do {
    rc = ::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB));
  } while (rc != 0 && errno == EINTR);
  locked_ = rc == 0;
  if (!locked_ && wait) {
    int saved = errno;
    ::close(fd_);
    fd_ = -1;
    throw cannot_write(path, saved);
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace tally::cli
