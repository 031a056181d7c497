// A Game of Thrones result and house-pick validation (agot.md) through the Game interface:
// bytes → JSON → a result body (or an envelope of picks, results, corrections and voids, see
// table_harness.hpp) at a league table → schema codec → Game::check_action → append →
// table_result, automatic picks, standings, next seating.
// Invariants: every seated player has one row; each row's points are the sum of its lines.
#include "projections/agot/agot_game.hpp"
#include "tests/fuzz/table_harness.hpp"

namespace {

using namespace tally;

void check_result(const fuzz::Tournament& t, const fuzz::TableState&,
                  const fuzz::json::object& result) {
  const auto& rows = result.at("players").as_array();
  FUZZ_CHECK(rows.size() == t.round(1)->tables.at(0).players.size());
  for (const auto& row : rows) {
    Rational sum = 0;
    for (const auto& line : row.at("lines").as_array()) sum += line.at("points").as_int64();
    FUZZ_CHECK(sum == fuzz::exact_of(row.at("points")));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto game = projections::agot::make_agot_game();
  static const fuzz::TableHooks hooks{{"p1", "p2", "p3", "p4", "p5", "p6"}, "A", check_result, {}};
  if (auto input = fuzz::parse_json(fuzz::as_text(data, size)))
    fuzz::run_table(*game, *input, hooks);
  return 0;
}
