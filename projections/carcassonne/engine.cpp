#include "projections/carcassonne/engine.hpp"

#include "projections/carcassonne/feature_scoring.hpp"
#include "projections/carcassonne/robbers.hpp"
#include "projections/carcassonne/turn_events.hpp"

namespace tally::projections::carcassonne {

projections::Outcome<ScoredEvent> score_event(const boost::json::value& event,
                                              const EngineRules& rules) {
  using Result = projections::Outcome<ScoredEvent>;
  if (!event.is_object()) {
    return Result::refused("schema", "carcassonne.event.not_object");
  }
  Diagnostics d;
  ObjectReader r(event.get_object(), "", d);
  // A turn event may hold a feature object (dispatch, sweeper); a feature event names its feature.
  bool is_turn_event = r.has("event");
  const boost::json::value* feature = r.value("feature");
  bool is_feature = feature != nullptr && (!is_turn_event || feature->is_string());
  if (is_feature == is_turn_event) {
    return Result::refused("event",
                           is_feature ? "carcassonne.event.both" : "carcassonne.event.neither");
  }
  std::vector<Robbery> robberies = read_robbers(r);
  std::optional<Scoring> scoring;
  if (is_feature) {
    if (auto feature = read_feature_event(r, rules)) scoring = score_feature(*feature);
  } else {
    scoring = score_turn_event(r, rules);
  }
  r.finish("schema");
  if (scoring && d.ok()) apply_robbers(robberies, *scoring, d);
  if (!scoring || !d.ok()) return Result::refused(std::move(d.errors));
  return Result::ok(ScoredEvent{std::move(*scoring), std::move(d.players)});
}

}  // namespace tally::projections::carcassonne
