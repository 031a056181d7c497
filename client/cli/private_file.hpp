// Files only the user may read (the config with its token, the outbox, the offline copy): a
// directory made with mode 0700, files written whole or not at all (a temporary file created
// 0600, fsync'd, renamed over the old one, the directory fsync'd), and a lock that serialises
// the read-modify-write of such a file between `tally` processes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace tally::cli {

// Creates `dir` (and its parents) when missing; a directory it creates gets mode 0700. Throws
// Failure(kUsage) when that fails.
void ensure_private_directory(const std::filesystem::path& dir);

// Replaces `path` with `text` atomically: after a crash the file holds either the old text or
// the new one, never a part. Mode 0600 from the start. Throws Failure(kUsage) when that fails
// (the old file is then untouched).
void write_private_file(const std::filesystem::path& path, const std::string& text);

// The whole file, or nullopt when it does not exist. Throws Failure(kUsage) when it exists but
// cannot be read.
std::optional<std::string> read_whole_file(const std::filesystem::path& path);

// An exclusive advisory lock (flock) on `path` (created 0600 when missing), held while the object
// lives. Blocking by default; with `wait` false, locked() says whether it was free.
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path, bool wait = true);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool locked() const { return locked_; }

 private:
  int fd_ = -1;
  bool locked_ = false;
};

}  // namespace tally::cli
