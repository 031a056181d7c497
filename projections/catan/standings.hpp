// Catan tournament standings (catan.md §5): total round points, then total in-game VP, then the
// mean VP share (a player's VP over the table's VP, averaged over the games played), then the
// name by the tournament's collation, then the player id — a total order, so every rank is
// held by one player.
//
// Every registered player has a row, dropped players too (they keep their games); a player
// without a game in a round scores nothing for it. Only tables of the rounds as seated now
// count (a withdrawn seating takes its tables' results with it).
//
// Thread safety: pure functions.
#pragma once

#include "projections/catan/rules.hpp"
#include "projections/rational.hpp"
#include "projections/tournament.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::catan {

struct StandingsRow {
  std::uint32_t rank = 0;  // 1-based, unique
  std::string player;
  std::string name;
  bool active = true;  // not dropped
  std::uint32_t games = 0;
  Rational round_points;  // the tables' round points plus `penalties`
  // S-11: the player's penalties and bonuses in round_points; set (on every row) only when the
  // tournament has any, and only then shown as a column.
  std::optional<Rational> penalties;
  std::int64_t vp = 0;
  // The mean VP share, exactly ("37/120"; "0" without games). Its denominator is a multiple
  // of the table totals, which can outgrow 64 bits over many rounds, so it is kept as text
  // from an unbounded rational; compared exactly while sorting.
  std::string vp_share;
  double vp_share_value = 0;  // for display only
};

// The standings after the rounds numbered up to `through_round`, best first.
std::vector<StandingsRow> compute_standings(
    const Tournament& tournament, const CatanRules& rules,
    std::uint32_t through_round = std::numeric_limits<std::uint32_t>::max());

// {"rows":[{"rank","player","name","games","round_points","vp","vp_share"}]}, and "penalties"
// after "round_points" when the rows have them.
boost::json::object standings_json(const std::vector<StandingsRow>& rows);

}  // namespace tally::projections::catan
