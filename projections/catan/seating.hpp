// Seating a Catan round (catan.md §6): tables of 4 with tables of 3 where the count does not
// divide; random from a seed (replayable), by standings (1–4 at table 1 …) or manual (checked);
// random and by-standings seatings keep repeat opponents to the minimum (seating_search.hpp).
// Only active players are seated.
//
// Thread safety: pure functions.
#pragma once

#include "projections/catan/rules.hpp"
#include "projections/catan/seating_search.hpp"
#include "projections/game.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::catan {

// The table sizes for `players`, tables of 4 first (13 → 4,3,3,3); null when they cannot be
// seated at tables of 3 and 4 (fewer than 3, or 5).
std::optional<std::vector<std::size_t>> table_sizes(std::size_t players);

// `players` in the order of a draw from `seed`: Fisher–Yates over a std::mt19937_64, with our
// own unbiased index, so that a stored seed gives the same draw on every platform, forever.
std::vector<std::string> draw(std::vector<std::string> players, std::uint64_t seed);

// Seats round `request.round`. The method defaults to random for round 1 and to standings
// later. Refused (rule "seating") when the count cannot be seated, the tournament's planned
// rounds are all seated, tables come with a method other than manual, or a manual seating
// does not seat every active player exactly once at tables of 3 or 4.
Outcome<Seating> seat_catan_round(const Tournament& tournament, const SeatingRequest& request,
                                  const CatanRules& rules);

// What the repeat search behind a random or by-standings seating did (seating_search.hpp).
struct SearchNote {
  bool searched = false;  // false for a manual seating
  std::uint64_t repeats = 0;
  bool proven_minimum = false;
  bool stopped_at_budget = false;
  std::uint64_t steps = 0;
  // For the organizer, empty unless the search stopped at its budget: that it did, and the
  // repeats of the best seating it found.
  i18n::Message notice;
};

// The same, with what the search did in `*note` (when not null), within `budget` steps.
Outcome<Seating> seat_catan_round(const Tournament& tournament, const SeatingRequest& request,
                                  const CatanRules& rules, SearchNote* note,
                                  std::uint64_t budget = SearchOptions::kDefaultBudget);

}  // namespace tally::projections::catan
