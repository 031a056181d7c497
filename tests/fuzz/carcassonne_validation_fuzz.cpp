// Carcassonne table validation (carcassonne.md) through the Game interface: bytes → JSON → a final
// result body (or an envelope of scoring events, results, corrections and voids, see
// table_harness.hpp) → schema codec → Game::check_action → append → table_result (which must
// agree with the scorings), describe_action, standings, next Swiss seating.
// Invariants: each scoring's points per player are the sum of its lines; every seated player has
// one row in the result.
#include "projections/carcassonne/carcassonne_game.hpp"
#include "tests/fuzz/table_harness.hpp"

#include <map>

namespace {

using namespace tally;

void check_result(const fuzz::Tournament& t, const fuzz::TableState&,
                  const fuzz::json::object& result) {
  FUZZ_CHECK(result.at("players").as_array().size() == t.round(1)->tables.at(0).players.size());
}

void check_described(const fuzz::Tournament&, const fuzz::TableState&,
                     const fuzz::json::object& described) {
  if (described.empty()) return;
  std::map<std::string, std::int64_t> sums;
  for (const auto& line : described.at("lines").as_array()) {
    sums[std::string(line.at("player").as_string())] += line.at("points").as_int64();
  }
  const auto& points = described.at("points").as_object();
  FUZZ_CHECK(points.size() == sums.size());
  for (const auto& [player, sum] : sums) FUZZ_CHECK(points.at(player).as_int64() == sum);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto game = projections::carcassonne::make_carcassonne_game();
  static const fuzz::TableHooks hooks{{"red", "blue"}, "", check_result, check_described};
  if (auto input = fuzz::parse_json(fuzz::as_text(data, size)))
    fuzz::run_table(*game, *input, hooks);
  return 0;
}
