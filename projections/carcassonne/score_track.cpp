#include "projections/carcassonne/score_track.hpp"

#include <algorithm>
#include <array>

namespace tally::projections::carcassonne {

namespace {

// §7: the rules that say the score may not drop below 0.
constexpr std::array<std::string_view, 2> kFlooredAtZero = {"ghosts", "tower_ransom.payer"};

}  // namespace

bool floored_at_zero(std::string_view rule) {
  return std::find(kFlooredAtZero.begin(), kFlooredAtZero.end(), rule) != kFlooredAtZero.end();
}

ScoreTrack::ScoreTrack(const std::vector<std::string>& players) {
  for (const auto& p : players) slot(p);
}

std::int64_t& ScoreTrack::slot(const std::string& player) {
  auto it = std::find_if(totals_.begin(), totals_.end(),
                         [&](const auto& t) { return t.first == player; });
  if (it != totals_.end()) return it->second;
  totals_.emplace_back(player, 0);
  return totals_.back().second;
}

std::vector<std::string> ScoreTrack::apply(const Scoring& scoring) {
  std::vector<std::string> ransom_shortfalls;
  for (const auto& [player, unused] : scoring.points()) {
    std::int64_t free = 0;
    std::int64_t floored = 0;
    bool has_floored = false;
    bool pays_ransom = false;
    for (const auto& line : scoring.lines()) {
      if (line.player != player) continue;
      if (floored_at_zero(line.rule)) {
        floored += line.points;
        has_floored = true;
      } else {
        free += line.points;
      }
      pays_ransom = pays_ransom || line.rule == "tower_ransom.payer";
    }
    std::int64_t& total = slot(player);
    if (pays_ransom && total < 3) ransom_shortfalls.push_back(player);
    std::int64_t after_free = total + free;
    std::int64_t after = after_free + floored;
    if (has_floored && after < 0) after = std::max(after, std::min(after_free, std::int64_t{0}));
    total = after;
  }
  return ransom_shortfalls;
}

std::int64_t ScoreTrack::total(const std::string& player) const {
  for (const auto& [p, t] : totals_) {
    if (p == player) return t;
  }
  return 0;
}

boost::json::object ScoreTrack::totals_json() const {
  boost::json::object o;
  for (const auto& [p, t] : totals_) o[p] = t;
  return o;
}

}  // namespace tally::projections::carcassonne
