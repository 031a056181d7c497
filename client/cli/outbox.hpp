// The outbox: result entries made while the server could not be reached, kept on this computer
// until `tally sync` sends them. Each keeps what a safe retry needs — the server, tournament,
// round and table, the body, the Idempotency-Key made when it was entered (so a send whose
// answer was lost is answered, not applied twice) and its precondition (If-None-Match: * for a
// first entry, If-Match: "<version>" for a correction) — and who entered it and when.
//
// The file (outbox.json beside the config, mode 0600 in a 0700 directory) is rewritten whole for
// every change (temporary file, fsync, rename), under a lock shared by every `tally` process, so
// a crash or a second `tally` never loses an entry. It is bounded: kMaxEntries entries and
// kMaxBytes; a full outbox refuses a new entry (nothing already in it is dropped).
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tally::cli {

struct OutboxEntry {
  std::uint64_t id = 0;  // numbered on this computer, for `tally sync --list` and --discard
  std::string server;    // the URL it is for
  std::string tournament;
  std::uint64_t round = 0;
  std::uint64_t table = 0;
  boost::json::object body;     // as sent (a correction's with its reason)
  std::string idempotency_key;  // made with the body; a new body gets a new key
  // The version a correction replaces; empty: a first entry (If-None-Match: *).
  std::string if_match;
  std::string entered_at;  // ISO-8601 UTC
  std::string entered_by;  // the user on this computer
  std::string token;       // the fingerprint of the token it was entered with, not the token

  bool correction() const { return !if_match.empty(); }
  // The PUT's path, and its Idempotency-Key and precondition headers.
  std::string target() const;
  std::map<std::string, std::string> headers() const;
};

class Outbox {
 public:
  static constexpr std::size_t kMaxEntries = 100;
  static constexpr std::size_t kMaxBytes = 4 << 20;

  explicit Outbox(std::filesystem::path file) : file_(std::move(file)) {}
  // outbox.json beside the config file.
  static std::filesystem::path default_path();
  const std::filesystem::path& file() const { return file_; }

  // The entries, oldest first. Failure(kUsage) when the file cannot be read or is not an outbox
  // (it is then left as it is, for the judge to look at).
  std::vector<OutboxEntry> entries() const;
  // Appends `entry` numbered anew and returns it; Failure(kUnavailable) when the outbox is full.
  OutboxEntry add(OutboxEntry entry);
  // Replaces the entry of the same id (a 412 the judge settled as a correction); false when it
  // is no longer there.
  bool replace(const OutboxEntry& entry);
  // Removes an entry (sent, or dropped by the judge's choice); false when it was not there.
  bool remove(std::uint64_t id);

 private:
  std::filesystem::path file_;
};

// "sha256:1a2b3c4d5e6f": enough to tell tokens apart, nothing to use one with; "" for none.
std::string token_fingerprint(const std::string& token);

// The user's login name on this computer (USER, else the password database), "" when unknown.
std::string local_user();

}  // namespace tally::cli
