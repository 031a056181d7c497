#include "tests/support/test_game.hpp"

#include "projections/rational.hpp"

#include <algorithm>
#include <map>
#include <random>

namespace tally::testing {

namespace json = boost::json;
using namespace projections;
using Which = schema::Event::Payload::Which;

namespace {

std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }

struct Score {
  std::string player;
  std::int64_t score;
};

std::vector<Score> scores_of(const TableState& table) {
  std::vector<Score> out;
  if (const Action* result = table.result()) {
    for (auto p : result->payload().getCarcassonneResult().getPlayers()) {
      out.push_back({text(p.getPlayer()), p.getScore()});
    }
  }
  return out;
}

Rational points_of(const std::vector<Score>& scores, const Score& me) {
  Rational points;
  for (const auto& other : scores) {
    if (other.player == me.player) continue;
    if (me.score > other.score) points += 1;
    if (me.score == other.score) points += Rational(1, 2);
  }
  return points;
}

class TestGame : public Game {
 public:
  std::string_view id() const override { return "testgame"; }

  Outcome<json::object> normalize_rules(const json::object& overrides) const override {
    json::object rules{{"table_size", 2}};
    for (const auto& [key, value] : overrides) {
      if (key != "table_size") return Outcome<json::object>::refused("rules", "unknown rule", key);
      if (!value.is_int64() || value.as_int64() < 2 || value.as_int64() > 6) {
        return Outcome<json::object>::refused("rules", "table_size must be 2..6", key);
      }
      rules[key] = value;
    }
    return Outcome<json::object>::ok(rules);
  }

  // A result of final scores (the Carcassonne payload) and claims: enough to exercise the
  // daemon's generic paths with a game it was not written for.
  const GameDescription& describe() const override {
    static const GameDescription description = [] {
      FieldSpec score = make_field("score", "integer", "testgame.score", "score");
      FieldSpec player = make_field("player", "player", "testgame.player", "player");
      GameDescription d;
      d.actions.push_back({"result", Which::CARCASSONNE_RESULT, true, {std::move(score)}});
      d.actions.push_back({"claims", Which::CLAIMED_WIN, false, {std::move(player)}});
      d.rules = {{"table_size", "integer"}};
      return d;
    }();
    return description;
  }

  // Tables of its table_size; a knockout when that is 2.
  StageShape stage_shape(const json::object& rules) const override {
    const auto size = static_cast<std::uint32_t>(rules.at("table_size").as_int64());
    return {{size}, size == 2};
  }

  RuleErrors check_rules(const Tournament& t, const TableState& table,
                         schema::Event::Reader proposed) const override {
    const SeatedTable* seated = t.round(table.round)->table(table.table);
    RuleErrors errors;
    auto payload = proposed.getPayload();
    if (payload.isClaimedWin()) {
      std::string player = text(payload.getClaimedWin().getPlayer());
      if (std::find(seated->players.begin(), seated->players.end(), player) ==
          seated->players.end()) {
        errors.push_back({"T-3", player, "player", "is not seated at this table"});
      }
      return errors;
    }
    std::vector<std::string> named;
    for (auto p : payload.getCarcassonneResult().getPlayers()) {
      std::string player = text(p.getPlayer());
      if (std::find(seated->players.begin(), seated->players.end(), player) ==
              seated->players.end() ||
          std::find(named.begin(), named.end(), player) != named.end()) {
        errors.push_back({"T-1", player, "player", "is not seated here, or named twice"});
      }
      if (p.getScore() < 0) errors.push_back({"T-2", player, "score", "must not be negative"});
      named.push_back(player);
    }
    if (named.size() != seated->players.size()) {
      errors.push_back({"T-1", "", "players", "must list every player seated at the table"});
    }
    return errors;
  }

  std::optional<json::object> table_result(const Tournament&,
                                           const TableState& table) const override {
    auto scores = scores_of(table);
    if (scores.empty()) return std::nullopt;
    json::array players;
    for (const auto& s : scores) {
      int better = 0, same = 0;
      for (const auto& o : scores) {
        better += o.score > s.score;
        same += o.score == s.score && o.player != s.player;
      }
      Rational points = points_of(scores, s);
      players.push_back(json::object{
          {"player", s.player},
          {"score", s.score},
          {"place", std::to_string(better + 1) + (same ? "=" : "")},
          {"points", points.to_json()},
          {"lines", json::array{json::object{{"rule", "beaten"}, {"points", points.to_json()}}}}});
    }
    return json::object{{"players", std::move(players)}};
  }

  json::object standings(const Tournament& t) const override {
    struct Row {
      const Player* player;
      int games = 0;
      Rational points;
      std::int64_t score = 0;
    };
    std::map<std::string, Row> rows;
    for (const auto& p : t.players) rows[p.id].player = &p;
    for (const auto& [key, table] : t.tables) {
      auto scores = scores_of(table);
      for (const auto& s : scores) {
        auto it = rows.find(s.player);
        if (it == rows.end()) continue;
        ++it->second.games;
        it->second.points += points_of(scores, s);
        it->second.score += s.score;
      }
    }
    std::vector<Row> ordered;
    for (auto& [id, row] : rows) ordered.push_back(row);
    std::sort(ordered.begin(), ordered.end(), [](const Row& a, const Row& b) {
      if (a.points != b.points) return a.points > b.points;
      if (a.score != b.score) return a.score > b.score;
      return a.player->id < b.player->id;
    });
    json::array out;
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      const Row& r = ordered[i];
      out.push_back(json::object{{"rank", i + 1},
                                 {"player", r.player->id},
                                 {"name", r.player->name},
                                 {"games", r.games},
                                 {"points", r.points.to_json()},
                                 {"score", r.score}});
    }
    return json::object{{"rows", std::move(out)}};
  }

  Outcome<Seating> seat_round(const Tournament& t, const SeatingRequest& request) const override {
    std::size_t size = static_cast<std::size_t>(t.rules.at("table_size").as_int64());
    Seating seating;
    seating.method = request.method.value_or(schema::SeatingMethod::RANDOM);
    std::vector<std::vector<std::string>> groups;
    if (seating.method == schema::SeatingMethod::MANUAL) {
      groups = request.tables;
    } else {
      std::vector<std::string> players;
      if (seating.method == schema::SeatingMethod::STANDINGS) {
        for (const auto& row : standings(t).at("rows").as_array()) {
          const Player* p = t.player(row.at("player").as_string());
          if (!p->dropped) players.push_back(p->id);
        }
      } else {
        for (const auto* p : t.active_players()) players.push_back(p->id);
        std::mt19937_64 rng(request.seed);
        for (std::size_t i = players.size(); i > 1; --i)
          std::swap(players[i - 1], players[rng() % i]);
        seating.seed = request.seed;
      }
      if (players.size() < size || players.size() % size != 0) {
        return Outcome<Seating>::refused(
            "T-seat", "the active players do not fill tables of " + std::to_string(size));
      }
      for (std::size_t i = 0; i < players.size(); i += size) {
        groups.emplace_back(players.begin() + static_cast<long>(i),
                            players.begin() + static_cast<long>(i + size));
      }
    }
    std::map<std::string, int> seen;
    for (const auto& g : groups) {
      for (const auto& p : g) ++seen[p];
    }
    for (const auto* p : t.active_players()) {
      if (seen[p->id] != 1) {
        return Outcome<Seating>::refused("T-seat", "every active player is seated exactly once",
                                         "tables", p->id);
      }
    }
    if (seen.size() != t.active_players().size()) {
      return Outcome<Seating>::refused("T-seat", "only active players are seated", "tables");
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
      seating.tables.push_back(SeatedTable{static_cast<std::uint32_t>(i + 1), groups[i], "", {}});
    }
    return Outcome<Seating>::ok(std::move(seating));
  }
};

}  // namespace

std::unique_ptr<Game> make_test_game() { return std::make_unique<TestGame>(); }

}  // namespace tally::testing
