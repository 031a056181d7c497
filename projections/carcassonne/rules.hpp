// The tournament rules of a Carcassonne tournament (carcassonne.md §1, §3, §4.1, §5), their
// defaults and their validation. Keys:
//   edition            "C3" (default) or "C2" — tile counting of D-1
//   buildings_variant  false (default): little buildings +1 each; true: shed/house/tower +1/+2/+3
//   spiel_doch_variant false (default): Spiel Doch! tiles in order score 0; true: 5
//   table_size         2 (default) … 6 — players per table; 2 is Swiss with byes, scored by wins
//   round_points       [5,3,2,1,"1/2",0] — points by place at tables of 3–6 (truncated to the size)
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/feature_event.hpp"
#include "projections/game.hpp"
#include "projections/rational.hpp"

#include <boost/json/object.hpp>

#include <vector>

namespace tally::projections::carcassonne {

struct TournamentRules {
  EngineRules engine;
  int table_size = 2;
  std::vector<Rational> round_points;  // by place (for tables of 3+ players)

  // 2-player tables: standings by wins (win 1, draw ½, loss 0), byes for an odd count.
  bool by_wins() const { return table_size == 2; }
  // What each place at a table of `size` players gives, before ties are split.
  std::vector<Rational> place_points(std::size_t size) const;
};

boost::json::object default_rules();
// The defaults overridden by `overrides`; unknown keys and bad values are refused (rule "rules").
projections::Outcome<boost::json::object> normalize_rules(const boost::json::object& overrides);
// Reads normalised rules (missing keys take their defaults).
TournamentRules read_rules(const boost::json::object& rules);

}  // namespace tally::projections::carcassonne
