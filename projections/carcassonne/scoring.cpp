#include "projections/carcassonne/scoring.hpp"

#include <algorithm>

namespace tally::projections::carcassonne {

boost::json::object Line::to_json() const {
  boost::json::object o;
  o["player"] = player;
  o["rule"] = rule;
  if (count) o["count"] = *count;
  o["points"] = points;
  return o;
}

void Scoring::append(const Scoring& other) {
  lines_.insert(lines_.end(), other.lines_.begin(), other.lines_.end());
}

std::vector<std::pair<std::string, std::int64_t>> Scoring::points() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& line : lines_) {
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == line.player; });
    if (it == out.end()) {
      out.emplace_back(line.player, line.points);
    } else {
      it->second += line.points;
    }
  }
  return out;
}

std::int64_t Scoring::points_of(const std::string& player) const {
  std::int64_t total = 0;
  for (const auto& line : lines_) {
    if (line.player == player) total += line.points;
  }
  return total;
}

boost::json::object Scoring::points_json() const {
  boost::json::object o;
  for (const auto& [player, points] : points()) o[player] = points;
  return o;
}

boost::json::array Scoring::lines_json() const {
  boost::json::array a;
  for (const auto& line : lines_) a.push_back(line.to_json());
  return a;
}

}  // namespace tally::projections::carcassonne
