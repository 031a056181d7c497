// The settings of a Catan tournament that its `rules` may override (catan.md §4, §6): the round
// points by place for tables of 4 and of 3, and the planned number of rounds.
//
// Keys (all optional in a request; the normalised object always has all three):
//   "round_points_4": [5,3,2,1]  four non-negative integers, best place first, never increasing
//   "round_points_3": [5,3,2]    three, likewise
//   "rounds": null               the planned number of rounds (1..100); null: open-ended
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/game.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace tally::projections::catan {

struct CatanRules {
  std::vector<std::int64_t> round_points_4 = {5, 3, 2, 1};
  std::vector<std::int64_t> round_points_3 = {5, 3, 2};
  std::optional<std::uint32_t> rounds;  // Default: open-ended

  // The round points by place (index 0 = 1st) for a table of `players`, or null for a size
  // that is not a Catan table.
  const std::vector<std::int64_t>* points_for(std::size_t players) const;

  // The normalised form, as stored with the tournament.
  boost::json::object to_json() const;
};

// The defaults overridden by `overrides`. Every unknown key and every bad value is its own error
// (rule "rules", field = the key).
Outcome<CatanRules> parse_rules(const boost::json::object& overrides);

// The rules a tournament was created with. They were normalised by parse_rules at creation, so
// they always parse; the defaults stand in should they not (a bug elsewhere, not an input).
CatanRules rules_of(const Tournament& tournament);

}  // namespace tally::projections::catan
