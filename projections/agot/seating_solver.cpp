#include "projections/agot/seating_solver.hpp"

#include "projections/agot/rules.hpp"

#include <cassert>

namespace tally::projections::agot {

namespace {

enum class Role { kUndecided, kTable, kRest };

// Slots 0..5: house h at the league's table (seats 1); slots 6..11: house h at the remaining
// tables (seats `rest_tables`).
constexpr int kRestSlot = kHouseCount;

class LeagueChooser {
 public:
  LeagueChooser(const std::vector<HouseSet>& available, std::vector<std::size_t> players,
                int rest_tables)
      : available_(available),
        players_(std::move(players)),
        roles_(players_.size(), Role::kUndecided) {
    capacity_.assign(kHouseCount, 1);
    capacity_.resize(2 * kHouseCount, rest_tables);
  }

  // The league's six players (positions in `players_`) and their houses; the rest must have been
  // shown feasible before (every undecided: some seating exists).
  std::vector<std::size_t> choose(std::vector<House>& houses) {
    Assignment witness = check();
    assert(witness.complete());
    std::size_t chosen = 0;
    for (std::size_t i = 0; i < players_.size(); ++i) {
      if (chosen == kPlayersPerTable) {
        roles_[i] = Role::kRest;  // the witness already seats everyone else at the rest
        continue;
      }
      roles_[i] = Role::kTable;
      if (witness.slot_of[i] < kRestSlot) {  // the witness already has i at the table
        ++chosen;
        continue;
      }
      Assignment with_i = check(witness.slot_of, i);
      if (with_i.complete()) {
        witness = std::move(with_i);
        ++chosen;
      } else {
        roles_[i] = Role::kRest;  // the witness has i at the rest: it stays valid
      }
    }
    std::vector<std::size_t> table;
    for (std::size_t i = 0; i < players_.size(); ++i) {
      if (roles_[i] != Role::kTable) continue;
      table.push_back(i);
      houses[players_[i]] = kHouses[witness.slot_of[i]];
    }
    return table;
  }

 private:
  // The matching under the current roles; `start` minus player `moved` as a warm start.
  Assignment check(std::vector<int> start = {}, std::size_t moved = SIZE_MAX) {
    std::vector<std::vector<int>> options(players_.size());
    for (std::size_t i = 0; i < players_.size(); ++i) {
      HouseSet a = available_[players_[i]];
      for (House h : kHouses) {
        if (!a.contains(h)) continue;
        if (roles_[i] != Role::kRest) options[i].push_back(house_index(h));
        if (roles_[i] != Role::kTable) options[i].push_back(kRestSlot + house_index(h));
      }
    }
    if (moved < start.size()) start[moved] = -1;
    return assign(options, capacity_, start);
  }

  const std::vector<HouseSet>& available_;
  std::vector<std::size_t> players_;  // indices into available_, ascending (rating order)
  std::vector<Role> roles_;
  std::vector<int> capacity_;
};

}  // namespace

SolvedSeating solve_league_seating(const std::vector<HouseSet>& available) {
  assert(!available.empty() && available.size() % kPlayersPerTable == 0);
  const int leagues = static_cast<int>(available.size() / kPlayersPerTable);
  SolvedSeating out;
  // Is there any seating at all? Each house seated once per table.
  out.why = match_houses(available, leagues);
  if (!out.why.complete()) return out;

  LeagueSeating seating;
  seating.houses.assign(available.size(), House::STARK);
  std::vector<std::size_t> remaining(available.size());
  for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  for (int league = 0; league < leagues; ++league) {
    LeagueChooser chooser(available, remaining, leagues - league - 1);
    std::vector<std::size_t> positions = chooser.choose(seating.houses);
    std::vector<std::size_t> table;
    std::vector<std::size_t> rest;
    std::size_t next = 0;
    for (std::size_t i = 0; i < remaining.size(); ++i) {
      if (next < positions.size() && positions[next] == i) {
        table.push_back(remaining[i]);
        ++next;
      } else {
        rest.push_back(remaining[i]);
      }
    }
    seating.tables.push_back(std::move(table));
    remaining = std::move(rest);
  }
  out.seating = std::move(seating);
  return out;
}

}  // namespace tally::projections::agot
