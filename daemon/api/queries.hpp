// The read side of the API: every answer that shows the state — a GET's, and the answer to a
// write once it is appended — is one pure function of the state, a query. It returns the
// answer's JSON with what its headers say (the seq it was read at, its language, a table's
// version), or the deciders' Refusal (not_found …), answered by the same table as a command's
// refusal (daemon/http/refusal_answer.hpp). Api::answer_query runs a query under the state's
// read lock and serializes the answer after the lock is released.
//
// Also here: the few values a handler reads from the state to answer from elsewhere (the store,
// replication), each a named function of the state.
//
// Thread safety: pure functions; those taking LiveState run inside LiveState::read()
// (Api::read_state).
#pragma once

#include "daemon/api/proposal_view.hpp"
#include "daemon/api/table_request.hpp"
#include "daemon/email_seal.hpp"
#include "daemon/http/language.hpp"
#include "daemon/http/router.hpp"
#include "daemon/http/table_token.hpp"
#include "daemon/live_state.hpp"
#include "daemon/replication/replication_source.hpp"
#include "deciders/decision.hpp"
#include "deciders/lookup.hpp"
#include "deciders/players.hpp"
#include "projections/ratings.hpp"
#include "schema/stored_event.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tally::daemon {

// What a query shows: the answer's body and what its headers say.
struct View {
  json::value body;
  // The body already written as JSON text (text::JsonWriter), sent instead of `body`.
  std::optional<std::string> text = std::nullopt;
  http::status status = http::status::ok;
  std::optional<std::uint64_t> seq = std::nullopt;  // Tally-Seq: the log position it was read at
  bool language = false;  // Content-Language: it carries texts in the reader's language
  std::optional<std::uint64_t> version = std::nullopt;  // ETag: the table stream's version
};

// A query's answer: the view, or why there is none.
using Viewed = std::variant<View, deciders::Refusal>;
using Query = std::function<Viewed(const LiveState&)>;

// The HTTP answer of `view` to `request` (in `lang` when it says it has texts).
Response view_response(const Request& request, i18n::Lang lang, View view);
// The same for either answer of a query, rendered outside the lock: a refusal's players by id
// (a refusal that names players by name is rendered under the lock: Api::answer_query).
Response viewed_response(const Exchange& ex, Viewed viewed);

namespace queries {

// --- judges and replicas ------------------------------------------------------------------------

// GET /v1/judges: [{"id","name","revoked"}], at the log's seq.
Viewed judges(const LiveState& s);
// Warnings that a judge `id` just named `name` has the name of another judge (ignoring case and
// accents): two judges with one name cannot be told apart in the audit.
json::array judge_name_warnings(const LiveState& s, const Audience& audience, std::string_view id,
                                std::string_view name);
// Is `id` a replica token of a standby (its copies count for replicas_ack)?
bool is_standby_replica(const LiveState& s, std::string_view id);
// GET /v1/replication's `followers`: every replica token, with where it stands in `positions`.
json::array followers(const LiveState& s, const std::vector<ReplicationSource::Position>& positions,
                      std::uint64_t head_seq);

// --- tournaments and players --------------------------------------------------------------------

// GET /v1/tournaments.
Viewed tournaments(const LiveState& s);
// GET /v1/tournaments/{t}, at the tournament's seq, texts in `lang`.
Viewed tournament(const LiveState& s, const std::string& id, i18n::Lang lang);
// The answer to a write that made or changed `id`: the tournament with the write's seq, 201.
Viewed tournament_written(const LiveState& s, const std::string& id, i18n::Lang lang,
                          std::uint64_t seq);
// The same-name warnings of a player just registered (null when the tournament is gone).
std::optional<json::array> player_name_warnings(const LiveState& s, i18n::Lang lang,
                                                const std::string& tournament,
                                                std::string_view name, std::string_view id);
// The answer to renaming `player`: its name now, and the same-name warnings.
Viewed player_renamed(const LiveState& s, i18n::Lang lang, const std::string& tournament,
                      const std::string& player, std::uint64_t seq);
// The answer to PATCH …/{t}: self-reporting as it is now, with the write's seq (the log's when
// nothing was appended).
Viewed self_reporting(const LiveState& s, const std::string& tournament, std::uint64_t seq);

// --- rounds, check-in and the clock -------------------------------------------------------------

// GET …/rounds/{r}: the round sheet, at the tournament's seq (`authorship`: who entered what).
Viewed round(const LiveState& s, const deciders::RoundAddress& address, bool authorship);
// A copy of a tournament to seat a round on away from the lock (events are shared: cheap next
// to the seating), with its game.
struct TournamentCopy {
  projections::Tournament tournament;
  const projections::Game* game = nullptr;
};
std::optional<TournamentCopy> tournament_copy(const LiveState& s, const std::string& id);
// Is tournament `id` still at `last_seq` (nothing of it, nor of its tables, appended since)?
bool tournament_unchanged(const LiveState& s, const std::string& id, std::uint64_t last_seq);
// The answer to a seating appended as event `first_seq`: the round sheet with the write's seq,
// who was left out (`copy`: the tournament it was computed on) and the game's notice about it
// (both unknown on an idempotent repeat); only the round's number once it is re-seated.
struct SeatedRound {
  std::uint32_t number = 0;
  std::uint64_t first_seq = 0, last_seq = 0;
  const projections::Tournament* copy = nullptr;
  const projections::Seating* seating = nullptr;
};
Viewed round_seated(const LiveState& s, i18n::Lang lang, const std::string& tournament,
                    const SeatedRound& seated);
// The answer to a check-in: who is present and absent now, with the write's seq, 201.
Viewed checkin(const LiveState& s, const std::string& tournament, std::uint64_t seq);
// The answer to a clock action on round `number`: the clock at `now_us`, 201.
Viewed round_clock(const LiveState& s, const std::string& tournament, std::uint32_t number,
                   std::uint64_t seq, std::int64_t now_us);

// --- tables -------------------------------------------------------------------------------------

// The answer to every write of a result: the table (GET round's entry) with the write's seq and
// `extra`'s members, written as text; ETag the table's `version`.
struct TableWrite {
  std::uint64_t seq = 0;
  std::uint64_t version = 0;
  http::status status = http::status::created;
  json::object extra = {};
};
Viewed table_written(const LiveState& s, const deciders::TableAddress& address,
                     const TableWrite& write);
// The answer to another table action (a claim, a pick …) appended as `first_seq`: its seq, the
// table's version and what the game says of the action.
Viewed table_action_written(const LiveState& s, const deciders::TableAddress& address,
                            std::uint64_t first_seq, const TableWrite& write);
// POST …/{action}/check: every check the write makes, and the table's result as the write would
// leave it.
Viewed table_check(const LiveState& s, const TableRequest& request, const deciders::Actor& actor);

// --- self-reporting -----------------------------------------------------------------------------

// GET …/tables/{n}/key: the table's token and its reporting URL.
Viewed table_key(const LiveState& s, const deciders::TableAddress& address, const TableKeys& keys);
// GET …/rounds/{r}/keys: every table's at once.
Viewed round_keys(const LiveState& s, const deciders::RoundAddress& address, const TableKeys& keys);
// GET …/tables/{n}/proposals: the table's proposals, newest first, as `reader` may see them.
Viewed proposals(const LiveState& s, const deciders::TableAddress& address, ProposalReader reader);
// GET …/rounds/{r}/proposals: the round's pending ones.
Viewed round_proposals(const LiveState& s, const deciders::RoundAddress& address);
// The answer to a write about proposal `id`: the proposal as it is now, with the write's seq.
Viewed proposal_written(const LiveState& s, const deciders::TableAddress& address, std::uint64_t id,
                        ProposalReader reader, std::uint64_t seq, http::status status);

// --- registration -------------------------------------------------------------------------------

// The encoding a CSV file was read in, as the import's answer shows it.
struct CsvEncoding {
  std::string name = "utf-8";
  bool detected = false;
};
// POST …/players/import/check: the plan the import would follow, written nowhere.
Viewed import_preview(const LiveState& s, const deciders::ImportPlayers& command,
                      const deciders::Actor& actor, const CsvEncoding& encoding);
// The answer to an import: the plan decided (`facts`; null on an idempotent repeat), 200 when
// it appended nothing, else 201 with the write's seq.
Viewed players_imported(const LiveState& s, const std::string& tournament,
                        const deciders::ImportFacts* facts, std::uint64_t last_seq,
                        const CsvEncoding& encoding);

// --- registration before the day (Q-7; registration_queries.cpp) -------------------------------

// GET …/registration: whether registration is open, the capacity, and how many hold a place and
// wait — what the public registration page shows. Nobody's name, nobody's e-mail.
Viewed registration_status(const LiveState& s, const std::string& tournament);
// GET …/registrations/{r}: one registration as its registrant sees it (`key_hash`: the SHA-256
// of the key shown; nullopt for the organizer); another key is not_found, as a missing one.
Viewed registration(const LiveState& s, const std::string& tournament, const std::string& id,
                    const std::optional<std::string>& key_hash);
// The answer to POST …/registrations: 201 {"id","status","position"?,"seq","key"?,"link"?}.
// `id` is the registration the write appended; `key` its private key, shown in this answer only
// (empty on an idempotent repeat: that request's key is not the one stored).
Viewed registration_received(const LiveState& s, const std::string& tournament,
                             const std::string& id, std::uint64_t seq, const std::string& key);
// The answer to DELETE …/registrations/{r}: the registration now, and who moved up into its
// place (`moved_up`: a registration id, or empty).
Viewed registration_cancelled(const LiveState& s, const std::string& tournament,
                              const std::string& id, const std::string& moved_up,
                              std::uint64_t seq);
// GET …/registrations (the organizer's console): every registration with its status, place in
// line, check-in and e-mail address (opened with `seal`; never in any public answer).
Viewed registrations(const LiveState& s, const std::string& tournament, const EmailSeal& seal);
// PATCH …/{t} with `registration`/`capacity`: the settings as they are now, with the write's seq.
Viewed registration_settings(const LiveState& s, const std::string& tournament, std::uint64_t seq);

// --- reading ------------------------------------------------------------------------------------

bool tournament_exists(const LiveState& s, const std::string& id);
// The standings now, for GET …/standings (`as_of`: asked for a moment at or after the newest
// event); nullopt when `as_of` is in the tournament's past (folded from the store instead).
std::optional<Viewed> live_standings(const LiveState& s, const std::string& tournament,
                                     std::optional<std::uint64_t> as_of);
// Which of a tournament's events the audit shows.
struct AuditFilter {
  std::optional<std::uint64_t> round, table;
  std::optional<std::string> player;
};
// The audit's entries of `events` (the tournament's, in seq order): each event with who entered
// it by name, what it changed in what it replaced, and whether `actor` may void it.
json::array audit_entries(const LiveState& s, const std::string& tournament,
                          const std::vector<schema::StoredEvent>& events, const AuditFilter& filter,
                          const deciders::Actor& actor);
// The seq the projections have folded up to.
std::uint64_t applied_seq(const LiveState& s);

// --- ratings (Q-6) ------------------------------------------------------------------------------

// Who a tournament's player is for the ratings. For now every player is their own
// ("{tournament}/{player}", no person) unless a series links the player to a person: then
// that person of the first such series by id ("s/{series}/{person}").
projections::RatedIdentity rating_identity(const LiveState& s, const projections::Tournament& t,
                                           std::string_view player);
// GET /v1/ratings/{game}: every rated player of the game's tournaments and of the tournaments
// imported into series, rebuilt from the results in effect —
// [{"rank","person","series"?,"tournament"?,"player"?,"name","games","mu","sigma","rating"}]
// (person null while none is linked; tournament and player only then), best rating first. An
// unknown game is not_found.
Viewed ratings(const LiveState& s, const std::string& game);

}  // namespace queries
}  // namespace tally::daemon
