// What a series makes of its tournaments (docs/series.md): the scoring's rules, each tournament's
// final order as the series reads it, and the series standings — qualification or a
// ladder — over the series' people.
//
//   Q-2  a qualifier's size: its players who played at least half of its rounds (rounded up);
//        below min_players it qualifies nobody.
//   Q-3  tournaments in the order they ended; each one's places walked in final order, a player
//        who already qualified passed over; `direct` places qualify, the next `point` places earn
//        a point, points_to_qualify points qualify.
//   Q-4  a ladder: points by final place (shared places share the points of the places they
//        cover, exactly), the best `best` count; ties by more points, then the better best
//        result, second best, …, then the name by the series' collation.
//
// Thread safety: pure functions of their arguments.
#pragma once

#include "i18n/message.hpp"
#include "projections/game.hpp"
#include "projections/rational.hpp"
#include "projections/series.hpp"
#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace tally::projections {

// --- The scoring's rules ---

struct QualificationBracket {
  std::uint32_t from = 0;    // the smallest size this bracket is for
  std::uint32_t direct = 0;  // places 1…direct qualify
  std::uint32_t point = 0;   // the next `point` places earn one qualification point
};
struct QualificationScoring {
  std::uint32_t min_players = 12;
  std::vector<QualificationBracket> brackets;  // by `from`, ascending
  std::uint32_t points_to_qualify = 2;
};
struct LadderScoring {
  std::vector<std::int64_t> points;  // by final place; beyond the list: 0
  std::uint32_t best = 3;
};
using Scoring = std::variant<QualificationScoring, LadderScoring>;

// One thing wrong with a scoring: the field (JSON path in the request) and the message.
struct ScoringProblem {
  std::string field;
  i18n::Message message;
};

// The scoring a series is created with, every default written out (the Czech Catan Tour's for
// a qualification), or what is wrong with it.
std::variant<boost::json::object, std::vector<ScoringProblem>> normalise_scoring(
    const boost::json::value& scoring);
// REQUIRES: `normalised` came from normalise_scoring.
Scoring scoring_of(const boost::json::object& normalised);

// --- A tournament as the series reads it ---

// A tournament's final order: S-8's final standings for a staged tournament whose last stage is
// complete, the game's standings otherwise; best first, shared places with one number.
struct FinalPlace {
  std::string player;
  std::uint32_t place = 0;
};
struct FinalOrder {
  bool final = false;         // ended: its last round closed, or its last stage complete
  std::int64_t ended_at = 0;  // µs since the epoch: the final close, else the newest event
  std::vector<FinalPlace> places;
};
FinalOrder final_order(const Tournament& t, const Game& game);
// As an export's header carries it: [{"player","name","place"}].
boost::json::array final_order_json(const Tournament& t, const FinalOrder& order);

// where the places an export's header claims (`venue`, final_order_json's shape) and the
// places this server's engine computed (`ours`) differ, by player; 0 = not in that list.
struct PlaceDifference {
  std::string player;
  std::uint32_t venue_place = 0;
  std::uint32_t place = 0;
};
std::vector<PlaceDifference> place_differences(const boost::json::array& venue,
                                               const FinalOrder& ours);

struct SeriesEntrant {
  std::string key;     // the person's id, or "tournament/player" for an unlinked player
  std::string person;  // empty: not linked to a person yet
  std::string player;
  std::string name;                 // the person's name, or the player's
  std::uint32_t place = 0;          // final place (shared places have the same number)
  std::uint32_t rounds_played = 0;  // rounds of the first stage at a table
};

struct SeriesTournament {
  std::string id;
  std::string name;
  bool imported = false;
  bool final = false;         // ended: its results count
  std::int64_t ended_at = 0;  // µs since the epoch, for Q-3's order
  std::uint64_t order = 0;    // a tie-break after ended_at: the order it joined the series
  std::uint32_t rounds = 0;   // rounds of its first stage
  std::vector<SeriesEntrant> entrants;  // final order, best first
};

// Reads `t` for `series`: its final order (S-8's final standings for a staged tournament, the
// game's standings otherwise) and who each player is in the series.
SeriesTournament series_tournament(const Tournament& t, const Game& game, const Series& series,
                                   bool imported, std::uint64_t order);

// --- The standings ---

struct SeriesResult {
  std::string tournament;
  std::uint32_t place = 0;
  std::uint32_t size = 0;    // Q-2 (qualification); the number of entrants (ladder)
  bool counted = false;      // the tournament counts / the result is among the best
  bool passed_over = false;  // a qualifying place went to the next one
  std::string earned;        // qualification: "direct", "point" or ""
  Rational points;           // ladder: the place's points
};

struct SeriesRow {
  std::uint32_t rank = 0;
  std::string key;
  std::string person;
  std::string tournament;  // for an unlinked player: where the player played
  std::string player;
  std::string name;
  std::string status;                 // qualification: "direct", "points" or ""
  std::string qualified_at;           // the tournament that qualified the player
  Rational points;                    // qualification points, or the ladder's counted points
  std::uint32_t points_missing = 0;   // qualification: points still needed (0 once qualified)
  std::vector<SeriesResult> results;  // in the order of the tournaments
};

struct SeriesTournamentSummary {
  std::string id;
  std::string name;
  bool imported = false;
  bool final = false;
  bool counted = false;
  std::uint32_t size = 0;
  std::int64_t ended_at = 0;
  std::vector<std::string> direct;  // keys qualified directly here
  std::vector<std::string> points;  // keys that earned a point here
};

struct SeriesStandings {
  std::vector<SeriesRow> rows;
  std::vector<SeriesTournamentSummary> tournaments;  // in Q-3's order
};

// The series standings over `tournaments` (any order; non-final ones are listed, not counted).
SeriesStandings series_standings(const Scoring& scoring, std::vector<SeriesTournament> tournaments,
                                 const std::string& locale);

boost::json::object series_standings_json(const SeriesStandings& standings);

// The tournaments of this server by id (null: none).
using LocalTournaments = std::function<const Tournament*(std::string_view)>;
// The standings of `series`: its tournaments of this server (found by `local`) and its imports.
SeriesStandings standings_of_series(const Series& series, const Game& game,
                                    const LocalTournaments& local);

// the links the series proposes — a player of one of its tournaments not linked to a
// person yet, and a person of the same name ignoring case and accents (text::same_name_key),
// neither rejected for that player nor linked to another player of that tournament.
struct ProposedLink {
  std::string tournament;
  std::string player;
  std::string player_name;
  std::string person;
};
std::vector<ProposedLink> proposed_links(const Series& series, const LocalTournaments& local);
// The players of the series' tournaments linked to no person, with no proposal either.
std::vector<ProposedLink> unlinked_players(const Series& series, const LocalTournaments& local);

}  // namespace tally::projections
