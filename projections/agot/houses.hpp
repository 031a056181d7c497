// The six Great Houses of A Game of Thrones (2nd ed.) and small sets of them (agot.md §2).
// A HouseSet is what a player may still play (G-2) or what is still free at a table (G-1).
//
// Thread safety: value types and pure functions.
#pragma once

#include "schema/tally.capnp.h"

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tally::projections::agot {

using House = schema::House;

inline constexpr int kHouseCount = 6;
// The board's order, the order in which automatic picks try the houses.
inline constexpr std::array<House, kHouseCount> kHouses = {House::STARK,     House::LANNISTER,
                                                           House::BARATHEON, House::GREYJOY,
                                                           House::TYRELL,    House::MARTELL};

// A stored enum may hold a number the schema does not name (a newer writer); such a value is
// never a valid house.
constexpr bool is_house(House h) { return static_cast<unsigned>(h) < kHouseCount; }
constexpr int house_index(House h) { return static_cast<int>(h); }

// "stark": the API's name (and the catalogs' "agot.house.stark", the name for people).
std::string_view house_id(House h);
std::optional<House> parse_house(std::string_view id);

class HouseSet {
 public:
  constexpr HouseSet() = default;
  static constexpr HouseSet all() { return HouseSet(0x3F); }
  static constexpr HouseSet of(House h) {
    return HouseSet(std::uint8_t(1u << static_cast<unsigned>(h)));
  }
  static constexpr HouseSet from_bits(std::uint8_t bits) { return HouseSet(bits & 0x3F); }

  constexpr bool contains(House h) const {
    return is_house(h) && (bits_ >> static_cast<unsigned>(h)) & 1u;
  }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr std::uint8_t bits() const { return bits_; }

  constexpr HouseSet operator|(HouseSet o) const { return HouseSet(bits_ | o.bits_); }
  constexpr HouseSet operator&(HouseSet o) const { return HouseSet(bits_ & o.bits_); }
  constexpr HouseSet operator-(HouseSet o) const { return HouseSet(bits_ & ~o.bits_); }
  constexpr HouseSet with(House h) const { return *this | of(h); }
  constexpr HouseSet without(House h) const { return *this - of(h); }
  constexpr bool operator==(const HouseSet&) const = default;

  // The first house of the set in board order, if any.
  std::optional<House> first() const;

 private:
  constexpr explicit HouseSet(std::uint8_t bits) : bits_(bits) {}
  std::uint8_t bits_ = 0;
};

}  // namespace tally::projections::agot
