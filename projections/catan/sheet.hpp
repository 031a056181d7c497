// What a judge records per player at a Catan table (catan.md §1), as plain values, and the
// in-game VP it is worth. The VP is the sum of named items (settlements ×1, cities ×2, VP cards
// ×1, Largest Army 2, Longest Road 2), so the breakdown a table shows and the total agree.
//
// Thread safety: value types and pure functions.
#pragma once

#include "schema/tally.capnp.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections::catan {

struct PlayerSheet {
  std::string player;
  // Signed as they arrive, so that a negative count reaches the range rules (C-1 …).
  std::int32_t settlements = 0;
  std::int32_t cities = 0;
  std::int32_t vp_cards = 0;
  std::int32_t knights = 0;
  std::int32_t roads = 0;
  std::int32_t longest_road = 0;
  bool largest_army = false;
  bool longest_road_holder = false;
  std::optional<std::int32_t> written_vp;  // `vp`: what the table wrote down (C-10)
  bool claimed_win = false;                // the claim recorded together with the result (§3)
};

// One item of a player's VP: {"rule":"cities","count":3,"vp":6}.
struct VpLine {
  std::string_view rule;  // the sheet's field
  std::int64_t count;     // pieces, cards, or 1 for a title held
  std::int64_t vp;
};

// The items worth VP, in the order of catan.md §2; items worth nothing are left out.
std::vector<VpLine> vp_lines(const PlayerSheet& sheet);

// In-game VP = settlements + 2·cities + vp_cards + 2·[largest_army] + 2·[longest_road_holder].
std::int64_t vp_of(const PlayerSheet& sheet);

PlayerSheet read_sheet(schema::CatanPlayerResult::Reader reader);
std::vector<PlayerSheet> read_result(schema::CatanResult::Reader reader);

}  // namespace tally::projections::catan
