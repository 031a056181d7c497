// Registrants' e-mail addresses kept out of the log in the clear: every event's bytes go
// into backups, exports and replication, so a registration's event holds the address sealed
// with AES-256-GCM, and only this server (and a standby holding the same secret) opens it for
// the organizer's console (docs/registration.md, "E-mail addresses").
//
//   sealed = nonce (12 random bytes) ‖ ciphertext ‖ tag (16 bytes)
//   key    = HMAC-SHA-256(DATA/table-keys.secret, "tally e-mail seal v1")
//   AAD    = the tournament's id (a sealed address copied into another tournament does not open)
//
// Thread safety: immutable after construction; safe from any thread.
#pragma once

#include "daemon/http/table_token.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tally::daemon {

class EmailSeal {
 public:
  explicit EmailSeal(const TableKeys& keys) : key_(keys.derive_key("tally e-mail seal v1")) {}

  // The sealed bytes of `address` for `tournament`. Throws std::runtime_error when OpenSSL fails.
  std::string seal(std::string_view tournament, std::string_view address) const;
  // The address, or nullopt when `sealed` was not sealed by this key for `tournament`.
  std::optional<std::string> open(std::string_view tournament, std::string_view sealed) const;

 private:
  TableKeys::Secret key_;
};

}  // namespace tally::daemon
