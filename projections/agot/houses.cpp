#include "projections/agot/houses.hpp"

namespace tally::projections::agot {

namespace {

constexpr std::array<std::string_view, kHouseCount> kIds = {"stark",   "lannister", "baratheon",
                                                            "greyjoy", "tyrell",    "martell"};

}  // namespace

std::string_view house_id(House h) { return is_house(h) ? kIds[house_index(h)] : "unknown"; }

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

}  // namespace tally::projections::agot
