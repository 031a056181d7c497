#include "projections/catan/placing.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace tally::projections::catan {

std::string Placing::place_label() const {
  return std::to_string(place) + (shared_by > 1 ? "=" : "");
}

std::optional<std::string> claim_exception_winner(const std::vector<PlayerSheet>& sheets,
                                                  const std::vector<std::string>& claimants) {
  std::size_t eligible = 0;
  std::vector<std::string> eligible_claimants;
  for (const auto& s : sheets) {
    if (vp_of(s) < kClaimVp) continue;
    ++eligible;
    if (std::find(claimants.begin(), claimants.end(), s.player) != claimants.end()) {
      eligible_claimants.push_back(s.player);
    }
  }
  if (eligible >= 2 && eligible_claimants.size() == 1) return eligible_claimants.front();
  return std::nullopt;
}

std::vector<Placing> place_table(const std::vector<PlayerSheet>& sheets,
                                 const std::vector<std::string>& claimants,
                                 const std::vector<std::int64_t>& points_by_place) {
  assert(points_by_place.size() == sheets.size());
  std::vector<std::size_t> order(sheets.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> vp(sheets.size());
  for (std::size_t i = 0; i < sheets.size(); ++i) vp[i] = vp_of(sheets[i]);

  // The exception's claimant goes first alone; everyone else by VP, ties in sheet order.
  auto winner = claim_exception_winner(sheets, claimants);
  auto first = order.begin();
  if (winner) {
    auto w = std::find_if(order.begin(), order.end(),
                          [&](std::size_t i) { return sheets[i].player == *winner; });
    std::rotate(order.begin(), w, w + 1);
    ++first;
  }
  std::stable_sort(first, order.end(), [&](std::size_t a, std::size_t b) { return vp[a] > vp[b]; });

  std::vector<Placing> out;
  std::size_t pos = 0;
  while (pos < order.size()) {
    // The group sharing the place starting at `pos`: equal VP (the claimant is always alone).
    std::size_t end = pos + 1;
    if (!(winner && pos == 0)) {
      while (end < order.size() && vp[order[end]] == vp[order[pos]]) ++end;
    }
    std::int64_t sum = 0;
    for (std::size_t k = pos; k < end; ++k) sum += points_by_place[k];
    const auto shared = static_cast<std::int64_t>(end - pos);
    for (std::size_t k = pos; k < end; ++k) {
      Placing p;
      p.player = sheets[order[k]].player;
      p.vp = vp[order[k]];
      p.place = static_cast<std::uint32_t>(pos + 1);
      p.shared_by = static_cast<std::uint32_t>(shared);
      p.by_claim = winner && pos == 0;
      p.points = Rational(sum, shared);
      out.push_back(std::move(p));
    }
    pos = end;
  }
  return out;
}

std::optional<std::vector<Placing>> score_table(const TableRecord& table, const CatanRules& rules) {
  if (!table.result) return std::nullopt;
  const auto* points = rules.points_for(table.result->size());
  if (points == nullptr) return std::nullopt;
  return place_table(*table.result, table.claimants(), *points);
}

}  // namespace tally::projections::catan
