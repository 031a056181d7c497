#include "projections/carcassonne/carcassonne_game.hpp"

#include "projections/carcassonne/engine.hpp"
#include "projections/carcassonne/placing.hpp"
#include "projections/carcassonne/rules.hpp"
#include "projections/carcassonne/standings.hpp"
#include "projections/carcassonne/swiss.hpp"
#include "projections/carcassonne/table_scores.hpp"
#include "projections/table_rules.hpp"
#include "schema/text.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <limits>
#include <set>

namespace tally::projections::carcassonne {

namespace json = boost::json;
using projections::Action;
using projections::Outcome;
using projections::RuleError;
using projections::RuleErrors;
using projections::SeatedTable;
using projections::TableState;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

namespace {

using projections::action_with_seq;
using projections::seated_at;
using projections::seated_table;
using schema::text;

// The players whose result score differs from their scorings' total (empty when the table has
// no scorings in effect).
struct Difference {
  std::size_t index;
  std::string player;
  std::int64_t scorings;
  std::int64_t result;
};
std::vector<Difference> differences(schema::CarcassonneResult::Reader result,
                                    const Replay& replay) {
  std::vector<Difference> out;
  if (replay.steps.empty()) return out;
  auto players = result.getPlayers();
  for (unsigned i = 0; i < players.size(); ++i) {
    std::string player = text(players[i].getPlayer());
    std::int64_t total = replay.totals.total(player);
    if (total != players[i].getScore()) out.push_back({i, player, total, players[i].getScore()});
  }
  return out;
}

class CarcassonneGame final : public projections::Game {
 public:
  std::string_view id() const override { return "carcassonne"; }

  const projections::GameDescription& describe() const override { return description_; }

 private:
  static projections::GameDescription description() {
    projections::FieldSpec score =
        projections::make_field("score", "integer", "carcassonne.score", "final score");
    // A scoring's body is one scoring event of carcassonne.md §2–§6 (docs/games/carcassonne.md).
    projections::FieldSpec event =
        projections::make_field("event", "object", "carcassonne.scoring_event", "scoring event");
    projections::GameDescription d;
    d.actions.push_back({"result", Which::CARCASSONNE_RESULT, true, {std::move(score)}});
    d.actions.push_back({"scorings", Which::CARCASSONNE_SCORING, false, {std::move(event)}});
    d.actions.back().body_member = "event";
    d.rules = {{"edition", "choice", {"C2", "C3"}},
               {"buildings_variant", "boolean"},
               {"spiel_doch_variant", "boolean"},
               {"table_size", "integer"},
               {"round_points", "points_list"}};
    // The first criterion is "wins" at two-player tables, "round_points" otherwise (one of them).
    d.standings_criteria = {"wins", "round_points", "buchholz", "score_diff", "score"};
    return d;
  }

  Outcome<json::object> normalize_rules(const json::object& overrides) const override {
    return carcassonne::normalize_rules(overrides);
  }

  const projections::GameDescription description_ = description();

 public:
  // Final tables of 3 or 4 players; a knockout when the Swiss games are played by two.
  projections::StageShape stage_shape(const json::object& rules) const override {
    return {{3, 4}, read_rules(rules).table_size == 2};
  }

  RuleErrors check_rules(const Tournament& t, const TableState& table,
                         schema::Event::Reader proposed) const override {
    const SeatedTable* seated = seated_table(t, table);
    if (seated == nullptr) return {{"table", "", "", "carcassonne.table.missing"}};
    if (seated->players.size() == 1) {
      return {{"bye", seated->players[0], "",
               i18n::Message("carcassonne.bye.no_actions",
                             {{"player", i18n::PlayerRef{seated->players[0]}}})}};
    }
    auto payload = proposed.getPayload();
    TournamentRules rules = read_rules(t.rules);
    switch (payload.which()) {
      case Which::CARCASSONNE_SCORING:
        return check_scoring(*seated, table, payload.getCarcassonneScoring(),
                             proposed.getSupersedes(), rules);
      case Which::CARCASSONNE_RESULT:
        return check_result(*seated, table, payload.getCarcassonneResult(), rules);
      default:
        return {{"game", "", "", "carcassonne.not_an_action"}};
    }
  }

  std::optional<json::object> table_result(const Tournament& t,
                                           const TableState& table) const override {
    auto outcome = outcome_of(t, table);
    if (!outcome) return std::nullopt;
    return outcome_json(*outcome);
  }

  bool write_table_result(text::JsonWriter& out, const Tournament& t,
                          const TableState& table) const override {
    auto outcome = outcome_of(t, table);
    if (!outcome) return false;
    write_outcome(out, *outcome);
    return true;
  }

  json::object table_extras(const Tournament& t, const TableState& table) const override {
    json::object out;
    const SeatedTable* seated = seated_table(t, table);
    if (seated == nullptr) return out;
    if (seated->players.size() == 1) {
      out["bye"] = true;
      return out;
    }
    auto scorings = table.of_kind(Which::CARCASSONNE_SCORING);
    if (scorings.empty()) return out;
    Replay replay = replay_scorings(seated->players, &table, read_rules(t.rules).engine);
    out["scorings"] = scorings.size();
    out["totals"] = replay.totals.totals_json();
    if (const Action* result = table.result();
        result != nullptr && result->payload().which() == Which::CARCASSONNE_RESULT) {
      json::array disagree;
      for (const auto& d : differences(result->payload().getCarcassonneResult(), replay)) {
        disagree.push_back(json::value(d.player));
      }
      if (!disagree.empty()) out["disagree"] = std::move(disagree);
    }
    return out;
  }

  json::object describe_action(const Tournament& t, const TableState& table,
                               const Action& action) const override {
    if (action.payload().which() != Which::CARCASSONNE_SCORING) return {};
    const SeatedTable* seated = seated_table(t, table);
    if (seated == nullptr) return {};
    Replay replay = replay_scorings(seated->players, &table, read_rules(t.rules).engine);
    for (const auto& step : replay.steps) {
      if (step.seq != action.seq()) continue;
      return json::object{{"points", step.scoring.points_json()},
                          {"lines", step.scoring.lines_json()},
                          {"totals", step.after.totals_json()}};
    }
    return {};
  }

  json::object standings(const Tournament& t) const override {
    return standings_json(t, read_rules(t.rules));
  }

  Outcome<projections::Seating> seat_round(
      const Tournament& t, const projections::SeatingRequest& request) const override {
    return carcassonne::seat_round(t, read_rules(t.rules), request);
  }

  std::vector<i18n::Message> notices(const Tournament& t) const override {
    std::vector<i18n::Message> out;
    TournamentRules rules = read_rules(t.rules);
    for (const auto& [key, table] : t.tables) {
      const SeatedTable* seated = seated_table(t, table);
      if (seated == nullptr || table.of_kind(Which::CARCASSONNE_SCORING).empty()) continue;
      Replay replay = replay_scorings(seated->players, &table, rules.engine);
      for (const auto& step : replay.steps) {
        for (const auto& player : step.ransom_shortfalls) {
          // The seq names an entry of the log: shown as it is, not as a number of the language.
          out.push_back(i18n::Message("carcassonne.notice.ransom_floored",
                                      {{"round", key.first},
                                       {"table", key.second},
                                       {"seq", std::to_string(step.seq)},
                                       {"player", i18n::PlayerRef{player}}}));
        }
      }
      const Action* result = table.result();
      if (result == nullptr || result->payload().which() != Which::CARCASSONNE_RESULT) continue;
      for (const auto& d : differences(result->payload().getCarcassonneResult(), replay)) {
        out.push_back(i18n::Message("carcassonne.notice.totals_differ",
                                    {{"round", key.first},
                                     {"table", key.second},
                                     {"player", i18n::PlayerRef{d.player}},
                                     {"scorings", d.scorings},
                                     {"result", d.result}}));
      }
    }
    return out;
  }

  Outcome<json::object> calculate(const json::object& body,
                                  const json::object& rules) const override {
    auto scored = score_event(json::value(body), read_rules(rules).engine);
    if (!scored) return Outcome<json::object>::refused(std::move(scored.errors));
    return Outcome<json::object>::ok(json::object{{"points", scored.value->scoring.points_json()},
                                                  {"lines", scored.value->scoring.lines_json()}});
  }

 private:
  // The table's outcome (its result in effect, or a bye), for both forms of table_result.
  static std::optional<TableOutcome> outcome_of(const Tournament& t, const TableState& table) {
    const SeatedTable* seated = seated_table(t, table);
    if (seated == nullptr) return std::nullopt;
    return table_outcome(*seated, &table, table.round, read_rules(t.rules));
  }

  static RuleErrors check_scoring(const SeatedTable& seated, const TableState& table,
                                  schema::CarcassonneScoring::Reader scoring,
                                  std::uint64_t supersedes, const TournamentRules& rules) {
    boost::system::error_code ec;
    json::value event =
        json::parse(std::string_view(scoring.getEvent().cStr(), scoring.getEvent().size()), ec);
    if (ec) return {{"schema", "", "event", "carcassonne.event.not_json"}};
    auto scored = score_event(event, rules.engine);
    if (!scored) return std::move(scored.errors);

    RuleErrors errors;
    std::set<std::pair<std::string, std::string>> reported;
    for (const auto& mention : scored.value->players) {
      if (seated_at(seated, mention.player) ||
          !reported.emplace(mention.player, mention.field).second) {
        continue;
      }
      // The name as the event wrote it: it may be no player of the tournament at all.
      errors.push_back({"player", mention.player, mention.field,
                        i18n::Message("carcassonne.player.not_seated", {{"id", mention.player}})});
    }
    if (!errors.empty()) return errors;

    // §5 tower ransom: the payer may not go below 0 — checked where the event stands.
    Proposal proposal{&event, std::numeric_limits<std::uint64_t>::max(), supersedes};
    if (supersedes != 0) {
      if (const Action* old = action_with_seq(table, supersedes)) {
        proposal.position = table_position(old->seq(), old->envelope().getSupersedes());
      }
    }
    Replay replay = replay_scorings(seated.players, &table, rules.engine, proposal);
    for (const auto& step : replay.steps) {
      if (step.seq != 0) continue;
      for (const auto& player : step.ransom_shortfalls) {
        errors.push_back({"tower_ransom", player, "payer",
                          i18n::Message("carcassonne.tower_ransom.below_zero",
                                        {{"player", i18n::PlayerRef{player}}})});
      }
    }
    return errors;
  }

  static RuleErrors check_result(const SeatedTable& seated, const TableState& table,
                                 schema::CarcassonneResult::Reader result,
                                 const TournamentRules& rules) {
    RuleErrors errors;
    std::set<std::string> named;
    auto players = result.getPlayers();
    for (unsigned i = 0; i < players.size(); ++i) {
      std::string player = text(players[i].getPlayer());
      std::string field = "players[" + std::to_string(i) + "].player";
      if (!seated_at(seated, player)) {
        errors.push_back({"players", player, field,
                          i18n::Message("carcassonne.result.not_seated", {{"id", player}})});
      } else if (!named.insert(player).second) {
        errors.push_back({"players", player, field,
                          i18n::Message("carcassonne.result.listed_twice",
                                        {{"player", i18n::PlayerRef{player}}})});
      }
    }
    for (const auto& player : seated.players) {
      if (!named.contains(player)) {
        errors.push_back(
            {"players", player, "players",
             i18n::Message("carcassonne.result.no_score", {{"player", i18n::PlayerRef{player}}})});
      }
    }
    if (!errors.empty()) return errors;
    // §2: the final scores agree with the recorded scorings, when there are any.
    Replay replay = replay_scorings(seated.players, &table, rules.engine);
    for (const auto& d : differences(result, replay)) {
      errors.push_back(
          {"totals", d.player, "players[" + std::to_string(d.index) + "].score",
           i18n::Message("carcassonne.totals.differ", {{"player", i18n::PlayerRef{d.player}},
                                                       {"scorings", d.scorings},
                                                       {"result", d.result}})});
    }
    return errors;
  }
};

}  // namespace

std::unique_ptr<projections::Game> make_carcassonne_game() {
  return std::make_unique<CarcassonneGame>();
}

}  // namespace tally::projections::carcassonne
