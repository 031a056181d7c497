// The league seating solver for rounds 2..N (agot.md §2): players in rating order, each with the
// houses it may still play (G-2), seated at L tables of six with six different houses (G-1),
// keeping the rating order as well as the houses allow.
//
// The seating chosen: league A is, among all sets of six that can sit together AND leave a
// seatable rest, the one whose rating places, sorted, are lexicographically smallest; league B
// likewise from the rest, and so on. A higher-rated player therefore keeps a league before a
// lower-rated one, and a vacancy goes to the best-rated player who fits.
//
// How it is exact without enumerating sets: the lexicographically smallest feasible set is built
// place by place — player i joins league A exactly when some feasible seating has the players
// chosen so far plus i in league A and the players skipped so far outside it. That question is
// one bipartite matching: players → 12 slots, "house h at this league's table" (seats 1) and
// "house h at one of the remaining tables" (seats L−1−k); chosen players may only take table
// slots, skipped players only remaining-table slots, undecided players either. It is exact for
// the remaining tables because an assignment of the rest with every house seated exactly
// L−1−k times always splits into L−1−k tables of six different houses (take the j-th player of
// every house for table j). So no feasible seating is ever pruned, and none is missed.
//
// Thread safety: pure functions.
#pragma once

#include "projections/agot/houses.hpp"
#include "projections/agot/matching.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace tally::projections::agot {

struct LeagueSeating {
  // Per league (A first): the players' indices in the input (= rating order), ascending.
  std::vector<std::vector<std::size_t>> tables;
  // Per player: a house that completes every table (a suggestion; players pick their own).
  std::vector<House> houses;
};

struct SolvedSeating {
  std::optional<LeagueSeating> seating;
  // When no seating exists: players (indices) who can only play `why.short_houses` between
  // them, which the tables seat fewer of (Hall's condition).
  HouseMatch why;
};

// REQUIRES: available.size() is a positive multiple of 6.
SolvedSeating solve_league_seating(const std::vector<HouseSet>& available);

}  // namespace tally::projections::agot
