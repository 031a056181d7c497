#include "projections/carcassonne/table_scores.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>

namespace tally::projections::carcassonne {

using Which = schema::Event::Payload::Which;

std::uint64_t table_position(std::uint64_t seq, std::uint64_t supersedes) {
  return supersedes != 0 ? supersedes : seq;
}

std::vector<const projections::Action*> scorings_in_order(const projections::TableState& table) {
  auto out = table.of_kind(Which::CARCASSONNE_SCORING);
  std::stable_sort(out.begin(), out.end(),
                   [](const projections::Action* a, const projections::Action* b) {
                     return table_position(a->seq(), a->envelope().getSupersedes()) <
                            table_position(b->seq(), b->envelope().getSupersedes());
                   });
  return out;
}

std::optional<boost::json::value> scoring_json(const projections::Action& action) {
  auto text = action.payload().getCarcassonneScoring().getEvent();
  boost::system::error_code ec;
  auto value = boost::json::parse(std::string_view(text.cStr(), text.size()), ec);
  if (ec) return std::nullopt;
  return value;
}

Replay replay_scorings(const std::vector<std::string>& players,
                       const projections::TableState* table, const EngineRules& rules,
                       std::optional<Proposal> proposal) {
  Replay replay;
  replay.totals = ScoreTrack(players);
  auto step = [&](std::uint64_t seq, const boost::json::value* event) {
    ReplayStep s;
    s.seq = seq;
    if (event == nullptr) {
      s.errors.push_back({"schema", "", "event", "carcassonne.event.stored_not_json"});
    } else if (auto scored = score_event(*event, rules)) {
      s.scoring = std::move(scored.value->scoring);
    } else {
      s.errors = std::move(scored.errors);
    }
    s.ransom_shortfalls = replay.totals.apply(s.scoring);
    s.after = replay.totals;
    replay.steps.push_back(std::move(s));
  };
  bool proposal_done = !proposal.has_value();
  if (table != nullptr) {
    for (const auto* action : scorings_in_order(*table)) {
      std::uint64_t position = table_position(action->seq(), action->envelope().getSupersedes());
      if (!proposal_done && proposal->position < position) {
        step(0, proposal->event);
        proposal_done = true;
      }
      if (proposal && action->seq() == proposal->supersedes) {
        if (!proposal_done) step(0, proposal->event);
        proposal_done = true;
        continue;  // replaced by the proposal
      }
      auto event = scoring_json(*action);
      step(action->seq(), event ? &*event : nullptr);
    }
  }
  if (!proposal_done) step(0, proposal->event);
  return replay;
}

}  // namespace tally::projections::carcassonne
