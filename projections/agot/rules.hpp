// A tournament's AGoT rules: the spec's defaults (agot.md §1, §3, §4) and what `rules` may
// override. Tables always seat 6 (one player per house); the number of leagues follows from the
// player count. Everything else in the points and the format is a named, validated setting.
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/game.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace tally::projections::agot {

inline constexpr int kPlayersPerTable = 6;
inline constexpr int kMaxCastles = 7;

struct Rules {
  // Rounds in the tournament. At most 6: every player plays every house at most once (G-2).
  // Default: 6.
  int rounds = 6;
  // Results that count towards the total and the rating: the best N (§4). Default: 5.
  int counted_results = 5;
  // Points by place 1..6 (§3). Default: 12, 8, 6, 4, 2, 1.
  std::array<int, 6> place_points = {12, 8, 6, 4, 2, 1};
  // Points by castles and strongholds held at the end, 0..7 (§3). Default: 0,0,1,1,2,2,3,4.
  std::array<int, kMaxCastles + 1> castle_points = {0, 0, 1, 1, 2, 2, 3, 4};
  // League bonus by league, points for places 1, 2, … at that league (§3). Default: A: +1, +1.
  std::map<std::string, std::vector<int>> league_bonus = {{"A", {1, 1}}};
  // The cap on capital points (first captures + capitals held) in one game (§3). Default: 3.
  int capitals_cap = 3;
  // The first round that gives a league bonus; round 1 is a random draw without leagues.
  // Default: 2.
  int league_bonus_from_round = 2;

  // The league bonus for `place` in the league `league` ("" for none).
  int league_bonus_points(const std::string& league, int place) const;

  boost::json::object to_json() const;
};

// The defaults overridden by `overrides`; every unknown key and bad value is refused at once
// (rule "rules", the field naming the key).
projections::Outcome<boost::json::object> normalize_rules(const boost::json::object& overrides);

// The rules of a tournament from its stored (normalised) `rules`. Tolerant: a key it cannot read
// keeps its default, since stored rules were validated when the tournament was created.
Rules rules_of(const boost::json::object& stored);

// "A", "B", …, "Z", "AA", "AB", … for league index 0, 1, …
std::string league_name(std::size_t index);

}  // namespace tally::projections::agot
