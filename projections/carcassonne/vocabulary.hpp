// The names of carcassonne.md: features (§2, §4), figures and their strength (§3), surveyor scoring
// tiles, barn states and little buildings. Rules elsewhere refer to these enumerations; the JSON
// names are only here, so that one table says what the engine knows.
//
// Thread safety: constant tables; safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace tally::projections::carcassonne {

// --- Features (§2 `feature`) -----------------------------------------------------------------

enum class Feature : std::uint8_t {
  road,
  city,
  monastery,
  shrine,
  abbey,
  german_monastery,
  dutch_belgian_monastery,
  japanese_building,
  darmstadt_church,
  field,
  castle,
  baba_yaga_hut,
  garden,
  german_castle,
  german_cathedral,
  graveyard,
  fortune_teller,
  obelisk,
};
inline constexpr std::size_t kFeatureCount = 18;

std::string_view name(Feature feature);
std::optional<Feature> feature_named(std::string_view name);
const std::array<std::string_view, kFeatureCount>& feature_names();

// A set of features, for "applies to" columns.
class FeatureSet {
 public:
  constexpr FeatureSet() = default;
  constexpr FeatureSet(std::initializer_list<Feature> features) {
    for (Feature f : features) bits_ |= bit(f);
  }
  static constexpr FeatureSet all() { return FeatureSet((1u << kFeatureCount) - 1); }
  constexpr bool contains(Feature f) const { return (bits_ & bit(f)) != 0; }
  constexpr FeatureSet operator|(FeatureSet o) const { return FeatureSet(bits_ | o.bits_); }
  constexpr FeatureSet without(FeatureSet o) const { return FeatureSet(bits_ & ~o.bits_); }
  // "roads, cities" for messages.
  std::string describe() const;

 private:
  constexpr explicit FeatureSet(std::uint32_t bits) : bits_(bits) {}
  static constexpr std::uint32_t bit(Feature f) { return 1u << static_cast<unsigned>(f); }
  std::uint32_t bits_ = 0;
};

// §4.3: the monastery family (monasteries, shrines, abbeys, … scored alike).
inline constexpr FeatureSet kMonasteryFamily{Feature::monastery,
                                             Feature::shrine,
                                             Feature::abbey,
                                             Feature::german_monastery,
                                             Feature::dutch_belgian_monastery,
                                             Feature::japanese_building,
                                             Feature::darmstadt_church};
inline constexpr FeatureSet kRoadAndCity{Feature::road, Feature::city};

// --- Figures (§2 `figures`, §3 strength) --------------------------------------------------------

enum class Figure : std::uint8_t {
  follower,
  large,
  mayor,
  wagon,
  abbot,
  phantom,
  heretic,
  monk,
  builder,
  pig,
  barn,
};

struct FigureSpec {
  std::string_view name;
  Figure figure;
  // §3: follower 1, large 2, mayor = the city's pennants (kPennantStrength), wagon / abbot / monk
  // / heretic / phantom 1; builders, pigs and barns 0.
  int strength;
  // A follower in the wide sense (it can hold a majority; Citizens' Jury, the gingerbread man and
  // the Leipzig rule count these).
  bool follower;
  FeatureSet stands_on;
};
inline constexpr int kPennantStrength = -1;

const FigureSpec* figure_named(std::string_view name);
const FigureSpec& spec(Figure figure);
std::span<const FigureSpec> figure_specs();

// --- Surveyor scoring tiles (§2 `surveyor`) ------------------------------------------------------

enum class Surveyor : std::uint8_t {
  highway,
  peasant_uprising,
  street_fair,
  wealth,
  poverty,
  bad_neighbourhood,
  siege,
  citizens_jury,
  hermit_monastery,
  pilgrimage_route,
};
std::span<const std::string_view> surveyor_names();
std::optional<Surveyor> surveyor_named(std::string_view name);
std::string_view name(Surveyor surveyor);

// --- Barn (§2 `barn`, §4.4) ----------------------------------------------------------------------

enum class Barn : std::uint8_t { none, placed, connected, final };
std::span<const std::string_view> barn_names();
std::optional<Barn> barn_named(std::string_view name);

// --- Little buildings (§2 `buildings`, §4.1) -----------------------------------------------------

struct BuildingSpec {
  std::string_view name;
  std::int64_t points;  // per building
  bool variant;         // the little-buildings variant (tournament rule `buildings_variant`)
};
std::span<const BuildingSpec> building_specs();

// --- Everything together ----------------------------------------------------------------------

// Every name the engine accepts in a scoring event: fields, features, figures, modifiers and their
// values, bonuses and their members, event kinds and their members, robbers. (Tests check the
// vocabulary tables of docs/games/carcassonne.md against it: no name of the rules may be silently
// unknown.)
std::set<std::string, std::less<>> known_names();

}  // namespace tally::projections::carcassonne
