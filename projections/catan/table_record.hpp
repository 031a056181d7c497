// A Catan table as its actions in effect make it: who is seated, the newest result, the claims
// of a win. Validation and scoring work on this plain record, so that a proposed action is
// checked against exactly the table it would produce (the record with the proposal applied).
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/catan/sheet.hpp"
#include "projections/tournament.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::catan {

// A claimed win recorded as its own table action (`POST .../claims`).
struct ClaimRecord {
  std::string player;
  std::uint64_t seq = 0;  // 0: the action being proposed
};

struct TableRecord {
  std::uint32_t round = 0;
  std::uint32_t table = 0;
  bool seated = false;                             // the round's seating has this table
  std::vector<std::string> players;                // seated, in seat order
  std::optional<std::vector<PlayerSheet>> result;  // the newest result in effect
  std::vector<ClaimRecord> claims;                 // claim actions in effect, oldest first

  // Everyone recorded as claiming the win, by a claim action or by `claimed_win` in the
  // result, each once, in the order first recorded (claim actions, then the result's flags).
  std::vector<std::string> claimants() const;
};

// The table `state` of `tournament`, leaving out the action `leave_out` (the seq a proposed
// correction supersedes; 0: none).
TableRecord read_table(const Tournament& tournament, const TableState& state,
                       std::uint64_t leave_out = 0);

}  // namespace tally::projections::catan
