#include "projections/agot/houses.hpp"

namespace tally::projections::agot {

namespace {

constexpr std::array<std::string_view, kHouseCount> kIds = {"stark",   "lannister", "baratheon",
                                                            "greyjoy", "tyrell",    "martell"};
constexpr std::array<std::string_view, kHouseCount> kNames = {"Stark",   "Lannister", "Baratheon",
                                                              "Greyjoy", "Tyrell",    "Martell"};

}  // namespace

std::string_view house_id(House h) { return is_house(h) ? kIds[house_index(h)] : "unknown"; }

std::string_view house_name(House h) {
  return is_house(h) ? kNames[house_index(h)] : "an unknown house";
}

std::optional<House> parse_house(std::string_view id) {
  for (House h : kHouses) {
    if (kIds[house_index(h)] == id) return h;
  }
  return std::nullopt;
}

std::optional<House> HouseSet::first() const {
  for (House h : kHouses) {
    if (contains(h)) return h;
  }
  return std::nullopt;
}

std::string HouseSet::names(std::string_view conjunction) const {
  if (empty()) return "no house";
  std::string out;
  int left = size();
  for (House h : kHouses) {
    if (!contains(h)) continue;
    if (!out.empty() && left == 1) {
      // Piece by piece: `" " + std::string(…)` trips GCC 12's false -Wrestrict at -O3.
      out += ' ';
      out += conjunction;
      out += ' ';
    } else if (!out.empty()) {
      out += ", ";
    }
    out += house_name(h);
    --left;
  }
  return out;
}

}  // namespace tally::projections::agot
