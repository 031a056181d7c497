// The rules a Catan table must keep (catan.md §1–§3, C-0 … C-12). Every violation is reported,
// each with its rule id, the player (empty for a table-wide rule) and the request field, ordered
// by rule id and, within a rule, by the order of the players in the result.
//
// A rule that reads a value another rule found out of range is not checked (one typo, one
// error): C-3 needs settlements in range; C-5 every vp_cards in range; C-6's sum and C-7 every
// knights count ≥ 0; C-9 no C-8 error at the table; C-10 the player's settlements, cities and
// vp_cards in range. C-11 and C-12 judge claims by the VP, so they wait until C-1 … C-10 pass.
//
// Thread safety: pure functions.
#pragma once

#include "projections/catan/table_record.hpp"
#include "projections/game.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tally::projections::catan {

// The fields of a player's entry as a client shows them (GET /v1/games), with the ranges these
// rules use.
std::vector<FieldSpec> result_fields();

// C-0: the result lists 3 or 4 players, each once, exactly the players seated at the table.
RuleErrors check_roster(const TableRecord& table, const std::vector<PlayerSheet>& result);

// C-1 … C-10: the counts of every player and of the table, the titles, the written VP.
RuleErrors check_sheets(const std::vector<PlayerSheet>& result);

// C-11, C-12: the recorded claimants against the result's VP. `field` is where the request
// carried the claim ("claimed_win" in a result, "player" in a claim).
RuleErrors check_claims(const std::vector<PlayerSheet>& result,
                        const std::vector<std::string>& claimants, std::string_view field);

// A result proposed for the table; `table.result` holds it, `table.claims` the claims in effect.
RuleErrors check_result_entry(const TableRecord& table);

// A claim of the win by `player` proposed for `table` (as it stands without the claim).
// Before a result, the claim is checked against the seating and the other claims; once there
// is a result, against its VP as well (C-11, C-12).
RuleErrors check_claim_entry(const TableRecord& table, const std::string& player);

}  // namespace tally::projections::catan
