// A Catan result row as the API takes it (catan.md §1), for tests that need a valid result and do
// not test Catan's rules: no Longest Road or Largest Army, roads and knights that decide nothing.
#pragma once

#include <boost/json.hpp>

#include <string_view>

namespace tally::testing {

// `player` (an id) with `settlements` and `cities`: 2 × 4 is 10 VP, the rest count 1 and 2 each.
inline boost::json::object catan_row(std::string_view player, int settlements, int cities,
                                     int vp_cards = 0) {
  return boost::json::object{{"player", player},
                             {"settlements", settlements},
                             {"cities", cities},
                             {"vp_cards", vp_cards},
                             {"knights", 0},
                             {"roads", 5},
                             {"longest_road", 3},
                             {"largest_army", false},
                             {"longest_road_holder", false}};
}

}  // namespace tally::testing
