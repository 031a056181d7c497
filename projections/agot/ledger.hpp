// What the AGoT rules read from a tournament, gathered once: per player and round, where the
// player sat (table, league, the league whose bonus applies), the house played or picked and the
// recorded game. Built from a projections::Tournament (corrections already applied, voided
// actions gone).
//
// Thread safety: immutable after construction. It points into the Tournament it was built from,
// which must outlive it.
#pragma once

#include "projections/agot/game_result.hpp"
#include "projections/agot/houses.hpp"
#include "projections/agot/rules.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::agot {

// One player's seat in one round.
struct Seat {
  std::uint32_t round = 0;
  const projections::SeatedTable* table = nullptr;
  std::string bonus_league;              // the rating's league (moved players keep it)
  std::optional<House> house;            // from the result in effect, else the accepted pick
  const PlayerResult* result = nullptr;  // the player's line of the result in effect (kResults)
};

class Ledger {
 public:
  // kHouses reads only who sat where with which house (enough to check a pick or a result);
  // kResults also parses every result in effect (points, standings, ratings).
  enum class Detail { kHouses, kResults };

  explicit Ledger(const projections::Tournament& tournament, Detail detail = Detail::kResults);
  Ledger(const Ledger&) = delete;  // results_ holds what the seats point to
  Ledger& operator=(const Ledger&) = delete;

  const projections::Tournament& tournament() const { return tournament_; }
  const Rules& rules() const { return rules_; }

  // The player's seat in `round`, or null when not seated (a missed round).
  const Seat* seat(const std::string& player, std::uint32_t round) const;

  // The houses the player played (or picked) in rounds other than `excluding_round`, and only
  // in rounds before `before_round` when given (0: all rounds).
  HouseHistory history(const std::string& player, std::uint32_t excluding_round,
                       std::uint32_t before_round = 0) const;

  // The result in effect at a table, parsed; null when none (or when built with kHouses).
  const std::vector<PlayerResult>* result(std::uint32_t round, std::uint32_t table) const;

  // The accepted house picks at a table (player → house), without the action `ignored_seq`
  // (a pick being corrected).
  std::map<std::string, House> picks(std::uint32_t round, std::uint32_t table,
                                     std::uint64_t ignored_seq = 0) const;

 private:
  const projections::Tournament& tournament_;
  Rules rules_;
  std::map<projections::TableKey, std::vector<PlayerResult>> results_;
  std::map<std::string, std::size_t, std::less<>> index_;  // player id → row of seats_
  std::vector<std::vector<Seat>> seats_;  // [player][round − 1]; round 0: not seated
};

// The league whose bonus applies to the table's player at `index`: the rating's league when the
// seating recorded one, else the table's.
std::string bonus_league(const projections::SeatedTable& table, std::size_t index);

}  // namespace tally::projections::agot
