// Catan result validation (catan.md C-0…C-12) through the Game interface: bytes → JSON → a result
// body (or an envelope of claims, results, corrections and voids, see table_harness.hpp) →
// schema codec → Game::check_action → append → table_result, standings, next seating.
// Invariants: every seated player has one row; the rows' round points add up to the points the
// rules give a table of that size (a split place shares its places' points, never loses any).
#include "projections/catan/catan_game.hpp"
#include "projections/catan/rules.hpp"
#include "tests/fuzz/table_harness.hpp"

namespace {

using namespace tally;

void check_result(const fuzz::Tournament& t, const fuzz::TableState&,
                  const fuzz::json::object& result) {
  const auto& rows = result.at("players").as_array();
  const auto& seated = t.round(1)->tables.at(0).players;
  FUZZ_CHECK(rows.size() == seated.size());
  const auto rules = projections::catan::rules_of(t);
  const auto* by_place = rules.points_for(rows.size());
  if (by_place == nullptr) return;
  Rational given = 0, expected = 0;
  for (auto p : *by_place) expected += p;
  for (const auto& row : rows) given += fuzz::exact_of(row.at("points"));
  FUZZ_CHECK(given == expected);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto game = projections::catan::make_catan_game();
  static const fuzz::TableHooks hooks{{"a", "b", "c", "d"}, "", check_result, {}};
  if (auto input = fuzz::parse_json(fuzz::as_text(data, size)))
    fuzz::run_table(*game, *input, hooks);
  return 0;
}
