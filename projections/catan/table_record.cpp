#include "projections/catan/table_record.hpp"

#include <algorithm>

namespace tally::projections::catan {

using Which = schema::Event::Payload::Which;

std::vector<std::string> TableRecord::claimants() const {
  std::vector<std::string> out;
  auto add = [&](const std::string& player) {
    if (std::find(out.begin(), out.end(), player) == out.end()) out.push_back(player);
  };
  for (const auto& c : claims) add(c.player);
  if (result) {
    for (const auto& s : *result) {
      if (s.claimed_win) add(s.player);
    }
  }
  return out;
}

TableRecord read_table(const Tournament& tournament, const TableState& state,
                       std::uint64_t leave_out) {
  TableRecord record;
  record.round = state.round;
  record.table = state.table;
  if (const Round* round = tournament.round(state.round)) {
    if (const SeatedTable* seated = round->table(state.table)) {
      record.seated = true;
      record.players = seated->players;
    }
  }
  // The actions are oldest first, so the last result read is the newest (TableState::result).
  for (const auto& action : state.actions) {
    if (action.seq() == leave_out) continue;
    auto payload = action.payload();
    if (payload.which() == Which::CATAN_RESULT) {
      record.result = read_result(payload.getCatanResult());
    } else if (payload.which() == Which::CLAIMED_WIN) {
      auto player = payload.getClaimedWin().getPlayer();
      record.claims.push_back({std::string(player.cStr(), player.size()), action.seq()});
    }
  }
  return record;
}

}  // namespace tally::projections::catan
