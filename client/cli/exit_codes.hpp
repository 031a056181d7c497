// The exit codes of `tally` (documented in docs/cli.md), and the exception that carries one to
// main(): any command may throw `Failure` once it has printed what went wrong.
#pragma once

#include "i18n/message.hpp"

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

// Stops the command with `code`. `message` (a cli catalog key and its arguments), when not
// empty, is printed as "tally: message" on stderr in the user's language by run_cli(); an empty
// message means the details were printed already. what() is the key, for diagnostics.
class Failure : public std::runtime_error {
 public:
  Failure(ExitCode code, i18n::Message message)
      : std::runtime_error(message.key.empty() ? message.literal : message.key),
        code_(code),
        message_(std::move(message)) {}
  ExitCode code() const { return code_; }
  const i18n::Message& message() const { return message_; }

 private:
  ExitCode code_;
  i18n::Message message_;
};

// Shorthand for the most common failure: a command line that does not make sense.
inline Failure usage_error(i18n::Message message) { return Failure(kUsage, std::move(message)); }

}  // namespace tally::cli
