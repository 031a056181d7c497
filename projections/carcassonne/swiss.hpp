// Seating a Carcassonne round (carcassonne.md §1).
//
// 2-player tables (Swiss): players in standings order are paired 1 v 2, 3 v 4, … with no rematch
// while one can be avoided; an odd count gives a bye (a table with the one player, numbered last)
// to the lowest-ranked player without one — among the choices that avoid rematches. Round 1 (and
// any `random` round) takes a seeded random order instead of the standings.
// Larger tables (`table_size` 3–6): ceil(N / size) tables whose sizes differ by at most one,
// filled top-down by standings with repeat opponents kept low.
// Seat order = who starts: the player who has started fewer games so far first; equal → random
// (seeded). Manual seating is validated (every active player exactly once).
//
// A draw is a pure function of the seed (std::mt19937_64 and our own shuffle), so a stored seed
// replays it forever.
//
// Thread safety: pure functions.
#pragma once

#include "projections/carcassonne/rules.hpp"
#include "projections/game.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tally::projections::carcassonne {

// Fisher–Yates with rejection sampling on mt19937_64: the same seed gives the same order on every
// standard library.
void seeded_shuffle(std::vector<std::string>& items, std::mt19937_64& rng);

projections::Outcome<projections::Seating> seat_round(const projections::Tournament& tournament,
                                                      const TournamentRules& rules,
                                                      const projections::SeatingRequest& request);

}  // namespace tally::projections::carcassonne
