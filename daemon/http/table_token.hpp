// Table tokens for self-reporting (docs/api.md, "Self-reporting"): one per seated table, good for
// proposals at that table in that round only. A token is never stored: it is worked out again
// from a secret of the server's own (DATA/table-keys.secret, 0600, outside the log), so neither
// the log nor a backup nor an export holds one.
//
//   token = "tt." t "." r "." n "." base64url(HMAC-SHA-256(secret, t ␀ r ␀ n ␀ seating seq)[0..16))
//
// The seating's seq is in the MAC: a round seated again gets new tokens for its new tables.
//
// Thread safety: immutable after construction; safe from any thread.
#pragma once

#include "daemon/live_state.hpp"

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tally::daemon {

class TableKeys {
 public:
  using Secret = std::array<unsigned char, 32>;
  explicit TableKeys(const Secret& secret) : secret_(secret) {}

  // The secret in DATA/table-keys.secret (made there, 0600, when missing).
  static TableKeys load_or_create(const std::filesystem::path& data_dir);
  // A standby keeps its primary's secret (GET /v1/replication/table-keys) in DATA, so that once
  // promoted (a restart) it accepts the QR codes printed on the primary. False when it already
  // held it; throws when `secret_hex` is not a secret or the file cannot be written.
  static bool keep_primary_secret(const std::filesystem::path& data_dir,
                                  const std::string& secret_hex);
  // The secret as 64 hex digits, for the standbys.
  std::string secret_hex() const;

  // A key of its own for another use of the server's secret (HMAC-SHA-256 of `label` under it):
  // the e-mail seal's (daemon/email_seal.hpp), so that a standby holding the secret opens it too.
  Secret derive_key(std::string_view label) const;

  // The token of `scope` as seated by the seating event `seating_seq`.
  std::string token(const TableScope& scope, std::uint64_t seating_seq) const;
  // Whether `token` is the token of `scope` under that seating (constant time).
  bool valid(std::string_view token, const TableScope& scope, std::uint64_t seating_seq) const;

  // The table a token shaped as a table token names (its MAC still to be checked), else nullopt.
  static std::optional<TableScope> claimed_scope(std::string_view token);

  // "/t/{t}/report?round={r}&table={n}#token={token}": the table's reporting page, the token in
  // the fragment (which a browser never sends to the server).
  static std::string report_url(const TableScope& scope, std::string_view token);

 private:
  std::string mac(const TableScope& scope, std::uint64_t seating_seq) const;
  Secret secret_;
};

}  // namespace tally::daemon
