// Placings and round points at one Catan table (catan.md §3–§4): players ordered by in-game VP,
// the claimed-win exception, shared places whose round points are added up and split equally,
// exactly (Rational).
//
// Thread safety: value types and pure functions.
#pragma once

#include "projections/catan/rules.hpp"
#include "projections/catan/sheet.hpp"
#include "projections/catan/table_record.hpp"
#include "projections/rational.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tally::projections::catan {

// The VP a player needs to claim the win (C-12) and to count toward the exception (§3).
constexpr std::int64_t kClaimVp = 10;

struct Placing {
  std::string player;
  std::int64_t vp = 0;
  std::uint32_t place = 0;      // 1-based: the best of the places shared
  std::uint32_t shared_by = 1;  // how many players share the place (1: alone)
  bool by_claim = false;        // placed first by the claimed-win exception
  Rational points;              // the round points

  // "2" alone, "2=" shared.
  std::string place_label() const;
};

// §3: the claimant who takes place 1 alone — only when at least two players have 10+ VP and
// exactly one of them is recorded as claiming the win. Otherwise null (VP order stands: with
// fewer than two players at 10+, a valid claimant is first by VP anyway).
std::optional<std::string> claim_exception_winner(const std::vector<PlayerSheet>& sheets,
                                                  const std::vector<std::string>& claimants);

// The table's placings, best first; players sharing a place keep the order of `sheets`.
// REQUIRES: points_by_place.size() == sheets.size() (the round points of places 1, 2, …).
std::vector<Placing> place_table(const std::vector<PlayerSheet>& sheets,
                                 const std::vector<std::string>& claimants,
                                 const std::vector<std::int64_t>& points_by_place);

// The placings of a table as its actions in effect make it: the newest result with every claim
// recorded. Null while the table has no result (or, never for a checked result, a size without
// a points table).
std::optional<std::vector<Placing>> score_table(const TableRecord& table, const CatanRules& rules);

}  // namespace tally::projections::catan
