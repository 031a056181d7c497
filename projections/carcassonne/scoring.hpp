// A score as a list of named lines (JCloisterZone's model): {"player","rule","count","points"}.
// Every total is computed from the lines, so the breakdown a judge audits and the points a player
// receives can never disagree.
//
// Thread safety: a value type.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tally::projections::carcassonne {

struct Line {
  std::string player;
  std::string rule;                   // the spec's name: "city.tile", "witch", "teacher", …
  std::optional<std::int64_t> count;  // what was counted, when the rule counts something
  std::int64_t points = 0;

  boost::json::object to_json() const;
};

class Scoring {
 public:
  void add(Line line) { lines_.push_back(std::move(line)); }
  void add(std::string player, std::string rule, std::optional<std::int64_t> count,
           std::int64_t points) {
    lines_.push_back({std::move(player), std::move(rule), count, points});
  }
  void append(const Scoring& other);

  const std::vector<Line>& lines() const { return lines_; }
  bool empty() const { return lines_.empty(); }

  // Points per player, in the order players first appear in the lines.
  std::vector<std::pair<std::string, std::int64_t>> points() const;
  std::int64_t points_of(const std::string& player) const;

  // The API's shapes: {"red":9,…} and [{"player","rule","count","points"},…].
  boost::json::object points_json() const;
  boost::json::array lines_json() const;

 private:
  std::vector<Line> lines_;
};

}  // namespace tally::projections::carcassonne
