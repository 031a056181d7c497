// Who may use a route: each route declares its Access (router.hpp), and this is the one place it
// is checked against the caller — the dispatcher asks before any handler runs, the live feed
// before its upgrade, and `tallyd routes` prints what each Access admits.
//
// Thread safety: pure functions.
#pragma once

#include "daemon/http/http.hpp"
#include "daemon/live_state.hpp"
#include "daemon/http/router.hpp"

#include <map>
#include <optional>
#include <string>

namespace tally::daemon {

// Why a caller may not use a route: the answer's status, its message and error, and whether it
// asks for a token (WWW-Authenticate: Bearer).
struct AccessRefusal {
  http::status status;
  i18n::Message message;
  std::optional<ErrorEntry> error;
  bool asks_for_token = false;
};

// What the check needs beside the caller and the route.
struct AccessContext {
  const std::map<std::string, std::string>& params;  // the path's {t}, {r}, {n}
  bool public_reads = true;                          // the config's public_reads
  bool may_read = true;  // the caller may read public resources under the config
};

// Why a table token may not use a route (403), or nullopt when it may: only routes open to it
// (Access::table), only at its own table, and only while its round is open. Public reads: all of
// them while `public_reads` is on; with it off, only its own tournament's, while its round is open.
// (rule `auth.table_token`, or `auth.table_round_closed`, field `Authorization`.)
std::optional<ErrorEntry> table_token_refusal(const Identity& identity, Access access,
                                              const std::map<std::string, std::string>& params,
                                              bool public_reads);

// Why `identity` may not use a route of `access`, or nullopt when it may.
std::optional<AccessRefusal> refuse_access(const Identity& identity, Access access,
                                           const AccessContext& context);

// Who a route of `access` admits, as `tallyd routes` and docs/api.md say it: "anyone",
// "organizer", "organizer, judge", …
const char* roles_of(Access access);

}  // namespace tally::daemon
