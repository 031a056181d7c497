// One AGoT game as a judge records it (agot.md §3): validation (G-1 … G-4, every violation at
// once) and the game points with their breakdown. Pure functions of plain values, so that the
// rules can be read and tested without events.
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/agot/houses.hpp"
#include "projections/agot/rules.hpp"
#include "projections/game.hpp"

#include <boost/json/array.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::agot {

struct PlayerResult {
  std::string player;
  House house = House::STARK;
  int place = 0;
  int castles = 0;                       // castles + strongholds held at the end
  std::vector<House> capitals_captured;  // enemy capitals first captured with their garrison
  int capitals_held = 0;                 // capitals controlled at the end, own included
  int lands_captured = 0;
  bool winner = false;
};

// The fields of a player's entry as a client shows them (GET /v1/games), with the ranges G-3
// and G-4 check.
std::vector<projections::FieldSpec> result_fields();

std::vector<PlayerResult> read_result(schema::AgotResult::Reader result);

// The houses a player played in other rounds of the tournament (round, house).
struct HouseHistory {
  std::vector<std::pair<std::uint32_t, House>> games;

  HouseSet played() const;
  HouseSet available() const { return HouseSet::all() - played(); }
  std::uint32_t round_of(House h) const;  // 0 when not played
};

// What a result is checked against: the table as seated, the players' other games, the picks.
struct TableFacts {
  std::vector<std::string> seated;              // the table's players
  std::map<std::string, HouseHistory> history;  // per player: houses played in other rounds
  std::map<std::string, House> picks;           // accepted house picks at this table
};

// G-1 the result names exactly the seated players, with 6 different houses; G-2 no player plays a
// house played in another round; "pick" houses agree with the accepted picks; G-3 places 1..6
// once each, the winner is in place 1, more castles never rank below fewer; G-4 value ranges,
// 7 castles is place 1, captured capitals are other houses at the table, each once.
projections::RuleErrors validate_result(const std::vector<PlayerResult>& result,
                                        const TableFacts& facts);

// A player's game points, as named lines whose sum is the total (§3):
// place + league bonus + castles + min(cap, first captures + capitals held).
struct GamePoints {
  int place = 0;
  int league_bonus = 0;
  int castles = 0;
  int capitals = 0;  // the cap applied

  int total() const { return place + league_bonus + castles + capitals; }
  // [{"rule":"place","points":12},{"rule":"league_bonus",…},{"rule":"castles",…},{"rule":"capitals",…}]
  boost::json::array lines() const;
};

// `bonus_league` is the league the rating put the player in (a player moved down keeps it), ""
// when the round has no leagues. Robust to values validate_result would refuse (they score 0).
GamePoints game_points(const Rules& rules, const PlayerResult& player, std::uint32_t round,
                       const std::string& bonus_league);

}  // namespace tally::projections::agot
