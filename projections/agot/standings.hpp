// AGoT standings and rating (agot.md §1, §4): per round the game points (a missed round is 0),
// the best `counted_results` counted (the worst dropped, and marked), ties broken by wins,
// capital captures, lands captured (all games, dropped ones included), then name by the
// tournament's collation, then player id. The rating that seats round N is these standings over
// rounds 1..N−1. Also the Conqueror prize and each player's league for the next round.
//
// Thread safety: pure functions.
#pragma once

#include "projections/agot/ledger.hpp"
#include "projections/rational.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tally::projections::agot {

struct RoundPoints {
  std::uint32_t round = 0;
  int points = 0;
  bool missed = false;   // not seated that round: 0 points
  bool dropped = false;  // not counted (a worst result)
};

struct StandingsRow {
  const projections::Player* player = nullptr;
  std::vector<RoundPoints> results;  // rounds with a result or missed; a pending table is absent
  int games = 0;                     // games played (with a result)
  int total = 0;                     // the counted results
  Rational penalties;                // S-11: penalties and bonuses, never dropped
  // What the standings rank by first: the counted results plus the penalties.
  Rational standing() const { return Rational(total) + penalties; }
  int wins = 0;
  int capitals_captured = 0;
  int lands_captured = 0;
};

// Every registered player (dropped ones too), best first, over the rounds before `before_round`
// (0: every round seated so far).
std::vector<StandingsRow> rank_players(const Ledger& ledger, std::uint32_t before_round = 0);

// The rating that seats `round`: the active players of `players` (ids) in rank order over rounds
// 1..round−1.
std::vector<std::string> rating_order(const Ledger& ledger, std::uint32_t round,
                                      const std::vector<std::string>& players);

// {"rows":[{"rank","player","name","games","results":[{"round","points","dropped"}],"total",
//   "wins","capitals_captured","lands_captured","next_league"}],"conqueror":[…]}. When the
// tournament has a penalty (S-11): "penalties" after "total", and "total" (with them) written
// as {"value","exact"}, as a value that can be fractional is.
boost::json::object standings_json(const Ledger& ledger);

}  // namespace tally::projections::agot
