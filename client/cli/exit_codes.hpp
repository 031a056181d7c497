// The exit codes of `tally` (documented in docs/cli.md), and the exception that carries one to
// main(): any command may throw `Failure` once it has printed what went wrong.
#pragma once

#include <stdexcept>
#include <string>

namespace tally::cli {

enum ExitCode : int {
  kOk = 0,
  kUsage = 1,        // a bad command line, an unreadable input file, input ended at a prompt
  kInvalid = 2,      // the server (or the CLI, for a local file) refused the data: 400, 413, 422
  kConflict = 3,     // 409, 412, 428: someone else changed it, or it exists already
  kAuth = 4,         // 401, 403: no token, a wrong token, or a role that may not do this
  kNotFound = 5,     // 404: no such tournament, round, table, player or event
  kUnavailable = 6,  // the server cannot be reached, timed out, or answered 5xx / 429
};

// Stops the command with `code`. `message`, when not empty, is printed as "tally: message" on
// stderr by main(); an empty message means the details were printed already.
class Failure : public std::runtime_error {
 public:
  Failure(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Shorthand for the most common failure: a command line that does not make sense.
inline Failure usage_error(const std::string& message) { return Failure(kUsage, message); }

}  // namespace tally::cli
