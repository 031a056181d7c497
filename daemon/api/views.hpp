// The JSON the API shows for events, tables, rounds and tournaments — one renderer each, shared
// by the HTTP handlers and the live feed so both always say the same thing.
//
// Thread safety: pure functions; those taking LiveState must run inside LiveState::read().
#pragma once

#include "schema/iso_time.hpp"

#include "daemon/http/language.hpp"
#include "daemon/live_state.hpp"
#include "i18n/language.hpp"
#include "projections/game.hpp"
#include "schema/stored_event.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace tally::daemon {

// "random", "standings" or "manual": a seating method as the API names it.
const char* method_name(schema::SeatingMethod method);

// "2026-11-30T14:32:05.123Z" from microseconds since the epoch.
using schema::iso_time;

// {"seq","type","stream","version","at","by","payload","reason","supersedes","superseded_by",
// "hash"}; `superseded_by` from the map when given (seq → the seq that superseded it).
// Without `authorship` (an anonymous reader, docs/api.md "What the public may read"), `by` and
// `reason` are null: who entered what and why is for tokens only.
boost::json::object event_json(
    const schema::StoredEvent& event,
    const std::map<std::uint64_t, std::uint64_t>* superseded_by = nullptr, bool authorship = true);

// A table as seated: {"table","players","league","rating_leagues"?,"repeats"} — `repeats` the
// pairs at it found in `met` (who sat together in an earlier round). What a seating preview shows.
boost::json::object seated_table_json(const projections::Tournament::Meetings& met,
                                      const projections::SeatedTable& seated);

// A table of a round: seating, status, version, the computed result and who entered it.
// Without `authorship`: no `entered_by`, `entered_at` or `correction_reason` (`corrected` stays:
// that a result was corrected is part of the result).
// `met`: the round's meetings_before when the caller has them (a whole round's tables); else
// they are worked out here.
boost::json::object table_json(const LiveState& state, const projections::Tournament& t,
                               const projections::Game& game, std::uint32_t round,
                               const projections::SeatedTable& seated, bool authorship = true,
                               const projections::Tournament::Meetings* met = nullptr);

// The members of table_json(…, authorship = true) written as text into an object `out` has
// begun, in the same order and bytes: the answer to every write of a table, which is written
// straight into its response. (The daemon-answers test holds the two to the same bytes.)
void write_table_members(text::JsonWriter& out, const LiveState& state,
                         const projections::Tournament& t, const projections::Game& game,
                         std::uint32_t round, const projections::SeatedTable& seated);

// A round sheet: its tables with their status, and the reporting progress.
boost::json::object round_json(const LiveState& state, const projections::Tournament& t,
                               const projections::Game& game, const projections::Round& round,
                               bool authorship = true);

// How far a round is: {"round","reported","tables_total"}.
boost::json::object round_progress(const projections::Tournament& t, const projections::Game& game,
                                   const projections::Round& round);

// GET /v1/tournaments/{t}: settings, players, rounds summary, notices (in `lang`, players by
// name).
boost::json::object tournament_json(const projections::Tournament& t, const projections::Game& game,
                                    i18n::Lang lang);

// One line of GET /v1/tournaments.
boost::json::object tournament_summary_json(const projections::Tournament& t);

// One game of GET /v1/games: {"game","actions":{name:{"fields":[…]}},"rules":[{"name","type",
// "default"}]} — from the game's own description and its defaults (normalize_rules of {}); each
// field's `text` is its `label` in `lang`.
boost::json::object game_json(const projections::Game& game, i18n::Lang lang);

// A round's clock at `now_us`: {"state","duration_s","remaining_s","extended_s","ends_at",
// "server_time"} (`ends_at` RFC 3339 while running or expired, else null).
boost::json::object clock_json(const projections::RoundClock& clock, std::int64_t now_us);
// The server's time now, µs since the epoch (what `server_time` says).
std::int64_t server_now_micros();

// Check-in for the next round: {"round","open","present":[ids],"absent":[ids]}.
boost::json::object checkin_json(const projections::Tournament& t);

// The active players a seating leaves out because they are not checked in: [ids].
boost::json::array left_out_json(const projections::Tournament& t);

// Warnings that `name` is the same as other players' names ignoring case and accents:
// [{"rule":"same_name","player","message"}] (players named as `audience` names them).
boost::json::array same_name_warnings(const struct Audience& audience,
                                      const projections::Tournament& t, std::string_view name,
                                      std::string_view except);

// The display name of an author id ("organizer", a judge's name, or the id itself).
std::string author_name(const LiveState& state, std::string_view author);

// The seating's notes (S-9 forced, S-10 not honoured), rendered; absent when there are none.
void add_notes(boost::json::object& out, const Audience& audience,
               const projections::Seating& seating);

}  // namespace tally::daemon
