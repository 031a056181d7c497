#include "projections/carcassonne/placing.hpp"

#include <algorithm>
#include <numeric>

namespace tally::projections::carcassonne {

using Which = schema::Event::Payload::Which;

std::vector<PlayerPlacing> place_players(
    const std::vector<std::pair<std::string, std::int64_t>>& scores, const TournamentRules& rules) {
  std::vector<PlayerPlacing> out;
  for (const auto& [player, score] : scores) out.push_back({player, score, "", Rational(0), ""});
  std::vector<std::size_t> order(out.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return out[a].score > out[b].score; });
  std::vector<Rational> by_place = rules.place_points(out.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && out[order[j]].score == out[order[i]].score) ++j;
    // Players i..j-1 share places i+1..j and split their points.
    Rational shared(0);
    for (std::size_t k = i; k < j; ++k) shared += by_place[k];
    shared = shared / Rational(static_cast<std::int64_t>(j - i));
    std::string place = std::to_string(i + 1) + (j - i > 1 ? "=" : "");
    for (std::size_t k = i; k < j; ++k) {
      PlayerPlacing& p = out[order[k]];
      p.place = place;
      p.points = shared;
      if (!rules.by_wins()) {
        p.rule = "place";
      } else {
        p.rule = shared == Rational(0) ? "loss" : shared == Rational(1) ? "win" : "draw";
      }
    }
    i = j;
  }
  return out;
}

std::optional<TableOutcome> table_outcome(const projections::SeatedTable& seated,
                                          const projections::TableState* state, std::uint32_t round,
                                          const TournamentRules& rules) {
  TableOutcome outcome{round, seated.number, false, {}};
  if (seated.players.size() == 1) {
    outcome.bye = true;
    outcome.players.push_back({seated.players[0], 0, "1", Rational(1), "bye"});
    return outcome;
  }
  const projections::Action* result = state == nullptr ? nullptr : state->result();
  if (result == nullptr || result->payload().which() != Which::CARCASSONNE_RESULT)
    return std::nullopt;
  std::vector<std::pair<std::string, std::int64_t>> scores;
  for (const auto& player : seated.players) {
    std::int64_t score = 0;
    for (auto p : result->payload().getCarcassonneResult().getPlayers()) {
      if (player == p.getPlayer().cStr()) score = p.getScore();
    }
    scores.emplace_back(player, score);
  }
  outcome.players = place_players(scores, rules);
  return outcome;
}

boost::json::object outcome_json(const TableOutcome& outcome) {
  // Built member by member: in a braced initializer Boost.JSON copies every object and array it
  // is given, and this runs for every table answer.
  boost::json::array players;
  players.reserve(outcome.players.size());
  for (const auto& p : outcome.players) {
    boost::json::object line;
    line.emplace("rule", p.rule);
    line.emplace("points", p.points.to_json());
    boost::json::array lines;
    lines.emplace_back(std::move(line));
    boost::json::object entry;
    entry.reserve(5);
    entry.emplace("player", p.player);
    entry.emplace("score", p.score);
    entry.emplace("place", p.place);
    entry.emplace("points", p.points.to_json());
    entry.emplace("lines", std::move(lines));
    players.emplace_back(std::move(entry));
  }
  boost::json::object out;
  out.emplace("players", std::move(players));
  if (outcome.bye) out["bye"] = true;
  return out;
}

void write_outcome(text::JsonWriter& out, const TableOutcome& outcome) {
  out.begin_object().key("players").begin_array();
  for (const auto& p : outcome.players) {
    out.begin_object();
    out.key("player").string(p.player);
    out.key("score").number(p.score);
    out.key("place").string(p.place);
    write_points(out.key("points"), p.points);
    out.key("lines").begin_array();
    write_points(out.begin_object().key("rule").string(p.rule).key("points"), p.points)
        .end_object();
    out.end_array();
    out.end_object();
  }
  out.end_array();
  if (outcome.bye) out.key("bye").boolean(true);
  out.end_object();
}

}  // namespace tally::projections::carcassonne
