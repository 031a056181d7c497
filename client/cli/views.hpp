// Reading a tournament, a round and a table from tallyd, and showing them to people: result
// tables, who entered a table and when, a round's seating.
#pragma once

#include "client/cli/session.hpp"
#include "i18n/language.hpp"

#include <boost/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tally::cli {

struct PlayerInfo {
  std::string id;
  std::string name;
  bool dropped = false;
};

struct TournamentInfo {
  std::string id;
  std::string name;
  std::string game;
  std::vector<PlayerInfo> players;
  boost::json::object raw;  // GET /v1/tournaments/{t} as answered

  // The player's name, or the id itself for someone not registered.
  std::string name_of(const std::string& player) const;
  // "Jana Nováková (p1)".
  std::string label_of(const std::string& player) const;
};

TournamentInfo load_tournament(Session& session, const std::string& tournament);
// GET /v1/tournaments/{t}'s path, and its answer read.
std::string tournament_path(const std::string& tournament);
TournamentInfo tournament_info(const boost::json::value& answer);

// GET …/rounds/{round}.
boost::json::object load_round(Session& session, const std::string& tournament,
                               std::uint64_t round);
// The table `number` of a round answer; Failure(kNotFound) when the round has none.
boost::json::object table_of(const boost::json::object& round, std::uint64_t number);

// The base path of a table's actions.
std::string table_path(const std::string& tournament, std::uint64_t round, std::uint64_t table);

// An ISO-8601 UTC time from the API ("2026-05-03T14:32:10.123Z") in local time,
// "2026-05-03 14:32:10" (TZ decides the zone). Text that is not such a time is returned as is.
std::string local_time(const std::string& iso);

// The same time as "14:32" (local), the way people at a venue say it.
std::string local_clock(const std::string& iso);

// Now as the API writes times: "2026-05-03T14:32:10.123Z".
std::string utc_now();

// "entered by Eva (j1) at 2026-05-03 14:32:10, version 1" in `lang`; "" for a table without a
// result.
std::string entry_summary(const boost::json::object& table, i18n::Lang lang);

// "Eva at 14:32" in `lang`: who entered the result in effect and when; "" for a table without a
// result.
std::string entered_by_at(const boost::json::object& table, i18n::Lang lang);

// "round 1, table 2" in `lang`.
std::string round_and_table(i18n::Lang lang, std::uint64_t round, std::uint64_t table);

// "0 of 4 tables reported" in `lang`, from a round answer's `reported` and `tables_total`.
std::string round_progress(i18n::Lang lang, const boost::json::object& round);

// The computed result of a table (its "result" member) as an aligned table: place, name, id,
// the house (AGoT), the in-game score and the points the round gives; headings and points in
// `lang`.
void print_result(std::ostream& out, const boost::json::value& result, const TournamentInfo& info,
                  i18n::Lang lang, const std::string& indent = "  ");

// One table of a round sheet: heading (number, league, status, entry) and then its result, or
// its players while it is open (with the houses picked so far, AGoT).
void print_table(std::ostream& out, const boost::json::object& table, const TournamentInfo& info,
                 i18n::Lang lang);

// A string member, or "" when absent or not a string.
std::string text_member(const boost::json::object& o, const char* key);

}  // namespace tally::cli
