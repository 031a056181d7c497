#include "projections/agot/game_result.hpp"

#include "projections/agot/wording.hpp"

#include <algorithm>
#include <set>

namespace tally::projections::agot {

namespace {

using projections::RuleError;
using projections::RuleErrors;

// The six home areas with a capital: Winterfell, Lannisport, Dragonstone, Pyke, Highgarden,
// Sunspear.
constexpr int kCapitals = 6;

bool valid_place(int place) { return place >= 1 && place <= kPlayersPerTable; }
bool valid_castles(int castles) { return castles >= 0 && castles <= kMaxCastles; }

}  // namespace

std::vector<projections::FieldSpec> result_fields() {
  auto integer = [](std::string name, std::string label, std::string text, int min,
                    std::optional<int> max) {
    projections::FieldSpec f =
        projections::make_field(std::move(name), "integer", std::move(label), std::move(text));
    f.min = min;
    if (max) f.max = *max;
    return f;
  };
  std::vector<std::string> houses;
  for (House h : kHouses) houses.emplace_back(house_id(h));

  projections::FieldSpec house = projections::make_field("house", "choice", "agot.house", "house");
  house.choices = houses;
  projections::FieldSpec captured = projections::make_field(
      "capitals_captured", "choices", "agot.capitals_captured", "capitals captured");
  captured.choices = houses;
  captured.excludes_own = "house";  // G-4: captured capitals are other houses'
  projections::FieldSpec winner =
      projections::make_field("winner", "boolean", "agot.winner", "winner");
  winner.derived_from = "place";  // G-3: the player in place 1 is the winner
  winner.derived_equals = 1;
  return {std::move(house),
          integer("place", "agot.place", "place", 1, kPlayersPerTable),
          integer("castles", "agot.castles", "castles and strongholds", 0, kMaxCastles),
          std::move(captured),
          integer("capitals_held", "agot.capitals_held", "capitals held", 0, kCapitals),
          integer("lands_captured", "agot.lands_captured", "lands captured", 0, std::nullopt),
          std::move(winner)};
}

namespace {

class Checker {
 public:
  Checker(const std::vector<PlayerResult>& result, const TableFacts& facts)
      : result_(result), facts_(facts) {}

  RuleErrors run() {
    players_are_the_seated_ones();  // G-1
    houses();                       // G-1, G-2, pick
    places();                       // G-3
    castle_order();                 // G-3
    values();                       // G-4
    return std::move(errors_);
  }

 private:
  void add(std::string rule, const std::string& player, std::string field, i18n::Message message) {
    errors_.push_back(RuleError{std::move(rule), player, std::move(field), std::move(message)});
  }

  // G-1: the result names exactly the players seated at the table.
  void players_are_the_seated_ones() {
    std::set<std::string> seen;
    for (const auto& p : result_) {
      if (!seen.insert(p.player).second) {
        add("G-1", p.player, "player",
            i18n::Message("agot.G-1.listed_twice", {{"player", i18n::PlayerRef{p.player}}}));
      } else if (std::find(facts_.seated.begin(), facts_.seated.end(), p.player) ==
                 facts_.seated.end()) {
        add("G-1", p.player, "player",
            i18n::Message("agot.G-1.not_seated", {{"player", i18n::PlayerRef{p.player}},
                                                  {"seated", player_list(facts_.seated)}}));
      }
    }
    for (const auto& s : facts_.seated) {
      if (!seen.contains(s)) {
        add("G-1", s, "players",
            i18n::Message("agot.G-1.missing", {{"player", i18n::PlayerRef{s}}}));
      }
    }
  }

  void houses() {
    std::map<House, std::string> taken;
    for (const auto& p : result_) {
      if (!is_house(p.house)) {
        add("G-1", p.player, "house", "agot.not_a_house");
        continue;
      }
      // G-1: six different houses at a table.
      auto [it, fresh] = taken.emplace(p.house, p.player);
      if (!fresh) {
        add("G-1", p.player, "house",
            i18n::Message("agot.G-1.house_twice", {{"house", house_term(p.house)},
                                                   {"other", i18n::PlayerRef{it->second}}}));
      }
      // G-2: never a house the player played in another round.
      auto history = facts_.history.find(p.player);
      if (history != facts_.history.end()) {
        if (std::uint32_t round = history->second.round_of(p.house)) {
          const HouseSet left = history->second.available();
          add("G-2", p.player, "house",
              i18n::Message("agot.G-2.played_before",
                            {{"player", i18n::PlayerRef{p.player}},
                             {"house", house_term(p.house)},
                             {"round", round},
                             {"left", house_list(left, i18n::Joiner::or_)},
                             {"left_count", left.size()}}));
        }
      }
      // An accepted pick fixes the player's house at this table.
      auto pick = facts_.picks.find(p.player);
      if (pick != facts_.picks.end() && pick->second != p.house) {
        add("pick", p.player, "house",
            i18n::Message("agot.pick.result_differs", {{"player", i18n::PlayerRef{p.player}},
                                                       {"picked", house_term(pick->second)},
                                                       {"house", house_term(p.house)}}));
      }
    }
  }

  // G-3: places 1..6 each once, and the player in place 1 is the winner.
  void places() {
    std::map<int, std::string> by_place;
    for (const auto& p : result_) {
      if (!valid_place(p.place)) {
        add("G-3", p.player, "place", i18n::Message("agot.G-3.place_range", {{"place", p.place}}));
        continue;
      }
      auto [it, fresh] = by_place.emplace(p.place, p.player);
      if (!fresh) {
        add("G-3", p.player, "place",
            i18n::Message("agot.G-3.place_twice",
                          {{"place", p.place}, {"other", i18n::PlayerRef{it->second}}}));
      }
      if (p.place == 1 && !p.winner) {
        add("G-3", p.player, "winner",
            i18n::Message("agot.G-3.first_wins", {{"player", i18n::PlayerRef{p.player}}}));
      } else if (p.place != 1 && p.winner) {
        add("G-3", p.player, "winner",
            i18n::Message("agot.G-3.winner_not_first",
                          {{"player", i18n::PlayerRef{p.player}}, {"place", p.place}}));
      }
    }
  }

  // G-3: a player with more castles never ranks below one with fewer.
  void castle_order() {
    for (const auto& p : result_) {
      if (!valid_place(p.place) || !valid_castles(p.castles)) continue;
      // Each player placed above with fewer castles, with their castles: "Eva 2 and Petr 1".
      i18n::PlayerCounts above;
      for (const auto& q : result_) {
        if (valid_place(q.place) && valid_castles(q.castles) && q.castles < p.castles &&
            q.place < p.place) {
          above.counts.emplace_back(q.player, q.castles);
        }
      }
      if (!above.counts.empty()) {
        add("G-3", p.player, "place",
            i18n::Message("agot.G-3.castle_order", {{"player", i18n::PlayerRef{p.player}},
                                                    {"castles", p.castles},
                                                    {"place", p.place},
                                                    {"above_count", above.counts.size()},
                                                    {"above", std::move(above)}}));
      }
    }
  }

  // G-4: ranges, 7 castles wins, captured capitals are other houses at the table, each once.
  void values() {
    HouseSet at_table;
    for (const auto& p : result_) {
      if (is_house(p.house)) at_table = at_table.with(p.house);
    }
    int held = 0;
    for (const auto& p : result_) {
      if (!valid_castles(p.castles)) {
        add("G-4", p.player, "castles",
            i18n::Message("agot.G-4.castles_range", {{"castles", p.castles}}));
      } else if (p.castles == kMaxCastles && p.place != 1) {
        add("G-4", p.player, "place",
            i18n::Message("agot.G-4.seven_castles", {{"player", i18n::PlayerRef{p.player}}}));
      }
      HouseSet captured;
      for (House h : p.capitals_captured) {
        if (!is_house(h)) {
          add("G-4", p.player, "capitals_captured", "agot.not_a_house");
        } else if (h == p.house) {
          add("G-4", p.player, "capitals_captured",
              i18n::Message("agot.G-4.own_capital",
                            {{"house", house_term(h)}, {"player", i18n::PlayerRef{p.player}}}));
        } else if (captured.contains(h)) {
          add("G-4", p.player, "capitals_captured",
              i18n::Message("agot.G-4.capital_twice", {{"house", house_term(h)}}));
        } else if (!at_table.contains(h)) {
          add("G-4", p.player, "capitals_captured",
              i18n::Message("agot.G-4.capital_not_at_table", {{"house", house_term(h)}}));
        }
        if (is_house(h)) captured = captured.with(h);
      }
      if (p.capitals_held < 0 || p.capitals_held > kCapitals) {
        add("G-4", p.player, "capitals_held",
            i18n::Message("agot.G-4.capitals_held_range", {{"held", p.capitals_held}}));
      } else {
        held += p.capitals_held;
      }
      if (p.lands_captured < 0) {
        add("G-4", p.player, "lands_captured",
            i18n::Message("agot.G-4.lands_negative", {{"lands", p.lands_captured}}));
      }
    }
    if (held > kCapitals) {
      add("G-4", "", "capitals_held", i18n::Message("agot.G-4.capitals_total", {{"held", held}}));
    }
  }

  const std::vector<PlayerResult>& result_;
  const TableFacts& facts_;
  RuleErrors errors_;
};

}  // namespace

std::vector<PlayerResult> read_result(schema::AgotResult::Reader result) {
  std::vector<PlayerResult> out;
  for (auto p : result.getPlayers()) {
    PlayerResult r;
    r.player = text(p.getPlayer());
    r.house = p.getHouse();
    r.place = p.getPlace();
    r.castles = p.getCastles();
    for (House h : p.getCapitalsCaptured()) r.capitals_captured.push_back(h);
    r.capitals_held = p.getCapitalsHeld();
    r.lands_captured = p.getLandsCaptured();
    r.winner = p.getWinner();
    out.push_back(std::move(r));
  }
  return out;
}

HouseSet HouseHistory::played() const {
  HouseSet out;
  for (const auto& [round, house] : games) out = out.with(house);
  return out;
}

std::uint32_t HouseHistory::round_of(House h) const {
  for (const auto& [round, house] : games) {
    if (house == h) return round;
  }
  return 0;
}

projections::RuleErrors validate_result(const std::vector<PlayerResult>& result,
                                        const TableFacts& facts) {
  return Checker(result, facts).run();
}

boost::json::array GamePoints::lines() const {
  return boost::json::array{boost::json::object{{"rule", "place"}, {"points", place}},
                            boost::json::object{{"rule", "league_bonus"}, {"points", league_bonus}},
                            boost::json::object{{"rule", "castles"}, {"points", castles}},
                            boost::json::object{{"rule", "capitals"}, {"points", capitals}}};
}

GamePoints game_points(const Rules& rules, const PlayerResult& player, std::uint32_t round,
                       const std::string& bonus_league) {
  GamePoints out;
  if (valid_place(player.place)) out.place = rules.place_points[player.place - 1];
  if (round >= static_cast<std::uint32_t>(rules.league_bonus_from_round)) {
    out.league_bonus = rules.league_bonus_points(bonus_league, player.place);
  }
  if (valid_castles(player.castles)) out.castles = rules.castle_points[player.castles];
  // +1 per enemy capital captured for the first time, +1 per capital held at the end; capped.
  HouseSet first_captures;
  for (House h : player.capitals_captured) {
    if (is_house(h) && h != player.house) first_captures = first_captures.with(h);
  }
  int capital_points = first_captures.size() + std::clamp(player.capitals_held, 0, kCapitals);
  out.capitals = std::min(rules.capitals_cap, capital_points);
  return out;
}

}  // namespace tally::projections::agot
