// Helpers shared by the AGoT tests: result bodies as a judge would send them, the conformance
// file, house availability from masks.
#pragma once

#include "projections/agot/houses.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tally::projections::agot::testing {

// One player's line of a result body; `winner` follows the place unless forced.
struct Line {
  std::string player;
  std::string house;
  int place = 6;
  int castles = 0;
  std::vector<std::string> captured = {};
  int held = 0;
  int lands = 0;
  int winner = -1;  // -1: place == 1
};

inline boost::json::object result_body(const std::vector<Line>& lines) {
  boost::json::array players;
  for (const auto& l : lines) {
    boost::json::array captured;
    for (const auto& c : l.captured) captured.emplace_back(c);
    players.push_back(boost::json::object{{"player", l.player},
                                          {"house", l.house},
                                          {"place", l.place},
                                          {"castles", l.castles},
                                          {"capitals_captured", std::move(captured)},
                                          {"capitals_held", l.held},
                                          {"lands_captured", l.lands},
                                          {"winner", l.winner < 0 ? l.place == 1 : l.winner == 1}});
  }
  return boost::json::object{{"players", std::move(players)}};
}

inline boost::json::value read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return boost::json::parse(s.str());
}

inline boost::json::value conformance() { return read_json(TALLY_CONFORMANCE_DIR "/agot.json"); }

inline std::string str(const boost::json::value& v) { return std::string(v.as_string()); }

inline HouseSet houses_of(const boost::json::array& ids) {
  HouseSet out;
  for (const auto& id : ids) out = out.with(*parse_house(str(id)));
  return out;
}

inline std::string house_of(int index) {
  return std::string(house_id(kHouses[index % kHouseCount]));
}

}  // namespace tally::projections::agot::testing
