#include "projections/agot/byes.hpp"

#include <algorithm>
#include <set>

namespace tally::projections::agot {

namespace {

std::set<std::string> seated_in(const projections::Round& round) {
  std::set<std::string> out;
  for (const auto& table : round.tables) out.insert(table.players.begin(), table.players.end());
  return out;
}

}  // namespace

bool in_tournament_at(const projections::Player& player, std::uint32_t round) {
  if (round <= player.registered_after_round) return false;
  for (const auto& [after, until] : player.away) {
    if (after < round && round <= until) return false;
  }
  return !player.dropped || round <= player.dropped_after_round;
}

std::vector<std::string> round_byes(const projections::Tournament& t,
                                    const projections::Round& round) {
  std::set<std::string> seated = seated_in(round);
  std::vector<std::string> out;
  for (const auto& p : t.players) {
    if (in_tournament_at(p, round.number) && !seated.contains(p.id)) out.push_back(p.id);
  }
  return out;
}

std::map<std::string, int> bye_counts(const projections::Tournament& t,
                                      std::uint32_t before_round) {
  std::map<std::string, int> out;
  for (const auto& p : t.players) out[p.id] = 0;
  for (const auto& round : t.rounds) {
    if (before_round != 0 && round.number >= before_round) continue;
    for (const auto& p : round_byes(t, round)) ++out[p];
  }
  return out;
}

std::vector<std::string> choose_byes(const std::vector<std::string>& order,
                                     const std::map<std::string, int>& byes, std::size_t k) {
  auto byes_of = [&byes](const std::string& p) {
    auto it = byes.find(p);
    return it == byes.end() ? 0 : it->second;
  };
  // Candidates from the lowest rated up; the fewest byes first, a stable sort keeps that order.
  std::vector<std::size_t> candidates(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) candidates[i] = order.size() - 1 - i;
  std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
    return byes_of(order[a]) < byes_of(order[b]);
  });
  candidates.resize(std::min(k, candidates.size()));
  std::sort(candidates.begin(), candidates.end());
  std::vector<std::string> out;
  for (std::size_t i : candidates) out.push_back(order[i]);
  return out;
}

}  // namespace tally::projections::agot
