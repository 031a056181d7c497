#include "daemon/http/authorization.hpp"

namespace tally::daemon {

std::optional<ErrorEntry> table_token_refusal(const Identity& identity, Access access,
                                              const std::map<std::string, std::string>& params,
                                              bool public_reads) {
  auto refuse = [](const char* rule, i18n::Message message) {
    return ErrorEntry{rule, "", "Authorization", std::move(message)};
  };
  if (!identity.table) return std::nullopt;
  if (access == Access::page) return std::nullopt;
  const TableScope& scope = *identity.table;
  auto param = [&](const char* name) {
    auto it = params.find(name);
    return it == params.end() ? std::string() : it->second;
  };
  if (access == Access::public_read || access == Access::open) {
    // With public reads on, a table token reads what anyone reads. With them off, it is a key to
    // its own tournament while its round is open, and to nothing else: not the list of
    // tournaments, not another one, nothing once the round is closed.
    if (public_reads) return std::nullopt;
    if (param("t") != scope.tournament) {
      return refuse("auth.table_token", i18n::Message("api.auth.table_token_own_tournament",
                                                      {{"tournament", scope.tournament}}));
    }
    if (identity.table_round_closed) {
      return refuse("auth.table_round_closed",
                    i18n::Message("api.auth.table_round_closed", {{"round", scope.round}}));
    }
    return std::nullopt;
  }
  if (access != Access::table) {
    return refuse("auth.table_token", i18n::Message("api.auth.table_token_only_proposes"));
  }
  if (param("t") != scope.tournament || param("r") != std::to_string(scope.round) ||
      param("n") != std::to_string(scope.table)) {
    return refuse("auth.table_token",
                  i18n::Message("api.auth.table_token_other_table",
                                {{"round", scope.round}, {"table", scope.table}}));
  }
  if (identity.table_round_closed) {
    return refuse("auth.table_round_closed",
                  i18n::Message("api.auth.table_round_closed", {{"round", scope.round}}));
  }
  return std::nullopt;
}

std::optional<AccessRefusal> refuse_access(const Identity& identity, Access access,
                                           const AccessContext& context) {
  if (auto refusal = table_token_refusal(identity, access, context.params, context.public_reads)) {
    return AccessRefusal{http::status::forbidden, refusal->message, std::move(*refusal)};
  }
  // A follower's token reads the replication log and nothing else (not even public reads: a leaked
  // one must not be a way past public_reads = false); the log is for followers and the organizer.
  const bool replica = identity.authenticated() && identity.role == Role::replica;
  if (replica && access != Access::replica && access != Access::page) {
    return AccessRefusal{http::status::forbidden, "api.auth.replica_only_reads_the_log"};
  }
  if (access == Access::replica && identity.authenticated() && !replica && !identity.organizer()) {
    return AccessRefusal{http::status::forbidden, "api.auth.replica_route"};
  }
  const bool needs_token = access == Access::token || access == Access::organizer ||
                           access == Access::replica ||
                           (access == Access::table && !identity.table) ||
                           (access == Access::public_read && !context.may_read);
  if (needs_token && !identity.authenticated()) {
    return AccessRefusal{http::status::unauthorized, "api.auth.token_needed", std::nullopt, true};
  }
  if (access == Access::organizer && !identity.organizer()) {
    return AccessRefusal{http::status::forbidden, "api.auth.organizer_only"};
  }
  return std::nullopt;
}

const char* roles_of(Access access) {
  switch (access) {
    case Access::page:
      return "anyone (a page)";
    case Access::open:
      return "anyone";
    case Access::public_read:
      return "anyone (public_reads = true), else a token";
    case Access::registrant:
      return "anyone (Q-7: limited per address; the private key for one registration)";
    case Access::token:
      return "organizer, judge";
    case Access::table:
      return "organizer, judge, the table's token";
    case Access::replica:
      return "organizer, replica";
    case Access::organizer:
      return "organizer";
  }
  return "?";
}

}  // namespace tally::daemon
