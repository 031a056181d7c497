// The Carcassonne scoring engine (carcassonne.md §2–§6): bytes → JSON → one scoring event (or an
// envelope {"rules":{…tournament rules…},"event":{…}}) → score_event, as POST /v1/carcassonne/score
// and every recorded scoring use it.
// Invariants: a refusal names a rule and says why; an accepted event's points per player are the
// sum of its lines; a robber never takes more than half (rounded up) of positive points and never
// takes negative ones; and where the spec allows no negative points — an event that uses none of
// Poverty, Peasant Uprising, Bad Neighbourhood, the Hermit Monastery, ghosts, Leipzig, bathhouse
// redemption, peasant revolt protection, the bazaar or the tower ransom — no player's points are
// negative.
#include "projections/carcassonne/engine.hpp"
#include "projections/carcassonne/rules.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <map>

namespace {

using namespace tally;

// The vocabulary whose points may be negative (carcassonne.md §4–§5, §7).
bool may_go_negative(std::string_view event_text) {
  for (std::string_view word : {"poverty", "peasant", "bad_neighbourhood", "hermit", "ghost",
                                "leipzig", "bathhouse", "bazaar", "tower_ransom"}) {
    if (event_text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

void check(const fuzz::json::value& event, const projections::carcassonne::EngineRules& rules) {
  auto scored = projections::carcassonne::score_event(event, rules);
  FUZZ_CHECK(scored.value.has_value() != !scored.errors.empty());
  for (const auto& e : scored.errors) {
    FUZZ_CHECK(!e.rule.empty());
    FUZZ_CHECK(!e.message.empty());
  }
  if (!scored) return;
  const auto& scoring = scored.value->scoring;

  std::map<std::string, std::int64_t> sums;
  for (const auto& line : scoring.lines()) {
    FUZZ_CHECK(!line.player.empty());
    sums[line.player] += line.points;
    if (line.rule == "robber") {
      FUZZ_CHECK(line.points >= 0);
      FUZZ_CHECK(line.count.has_value());
      FUZZ_CHECK(line.points == (*line.count > 0 ? (*line.count + 1) / 2 : 0));
    }
  }
  const auto points = scoring.points();
  FUZZ_CHECK(points.size() == sums.size());
  const bool negative_allowed = may_go_negative(fuzz::json::serialize(event));
  for (const auto& [player, p] : points) {
    FUZZ_CHECK(sums.at(player) == p);
    FUZZ_CHECK(scoring.points_of(player) == p);
    if (!negative_allowed) FUZZ_CHECK(p >= 0);
  }
  FUZZ_CHECK(scoring.points_json().size() == points.size());
  FUZZ_CHECK(scoring.lines_json().size() == scoring.lines().size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto input = fuzz::parse_json(fuzz::as_text(data, size));
  if (!input) return 0;
  const fuzz::json::object* in = input->if_object();
  if (in != nullptr && in->contains("event") && in->contains("rules") &&
      in->at("rules").is_object()) {
    auto rules = projections::carcassonne::normalize_rules(in->at("rules").as_object());
    FUZZ_CHECK(rules.value.has_value() != !rules.errors.empty());
    if (rules) check(in->at("event"), projections::carcassonne::read_rules(*rules.value).engine);
    return 0;
  }
  check(*input, {});
  return 0;
}
