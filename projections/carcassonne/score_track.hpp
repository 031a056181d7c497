// The score track (carcassonne.md §7): per player the game score is the sum of their scoring
// events in order. Where a rule says the score may not drop below 0 (ghost penalties, the tower
// ransom's payer) the running total is floored at 0 at that event — those lines cannot take it
// below 0, nor below where the event's other lines left it; where a rule says it may go negative
// (Poverty, bathhouse, peasant revolt, bazaar) it is not floored.
//
// Thread safety: a value type.
#pragma once

#include "projections/carcassonne/scoring.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tally::projections::carcassonne {

// The lines whose points may not take a player's score below 0.
bool floored_at_zero(std::string_view rule);

class ScoreTrack {
 public:
  ScoreTrack() = default;
  // Players listed here appear in totals() (with 0) even before they score, in this order.
  explicit ScoreTrack(const std::vector<std::string>& players);

  // Moves the markers by one event's lines. Returns the players who pay a tower ransom with fewer
  // than 3 points (§5: refused when entered; floored at 0 if a later correction causes it).
  std::vector<std::string> apply(const Scoring& scoring);

  std::int64_t total(const std::string& player) const;
  const std::vector<std::pair<std::string, std::int64_t>>& totals() const { return totals_; }
  boost::json::object totals_json() const;

 private:
  std::int64_t& slot(const std::string& player);
  std::vector<std::pair<std::string, std::int64_t>> totals_;
};

}  // namespace tally::projections::carcassonne
