#include "projections/agot/agot_game.hpp"

#include "projections/agot/byes.hpp"
#include "projections/agot/game_result.hpp"
#include "projections/agot/ledger.hpp"
#include "projections/agot/picks.hpp"
#include "projections/agot/round_seating.hpp"
#include "projections/agot/rules.hpp"
#include "projections/agot/standings.hpp"
#include "projections/agot/wording.hpp"
#include "projections/rational.hpp"
#include "projections/table_rules.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <set>

namespace tally::projections::agot {

namespace {

using projections::Outcome;
using projections::PayloadBuilder;
using projections::RuleError;
using projections::RuleErrors;
using projections::SeatedTable;
using projections::TableState;
using projections::Tournament;
using Which = schema::Event::Payload::Which;

using projections::seated_table;

// The table's picks as they stand (without the pick `ignored_seq` being corrected), the players
// in rating order (in seat order when `ordered` is false: checking a pick needs no order), each
// with the houses played in other rounds.
PickTable pick_table(const Ledger& ledger, const SeatedTable& seated, std::uint32_t round,
                     std::uint64_t ignored_seq = 0, bool ordered = true) {
  PickTable out;
  out.players = ordered ? rating_order(ledger, round, seated.players) : seated.players;
  std::map<std::string, House> picks = ledger.picks(round, seated.number, ignored_seq);
  for (const auto& p : out.players) {
    out.history.push_back(ledger.history(p, round));
    auto it = picks.find(p);
    out.picked.push_back(it == picks.end() ? std::nullopt : std::optional<House>(it->second));
  }
  return out;
}

RuleErrors check_result(const Ledger& ledger, const SeatedTable& seated, std::uint32_t round,
                        schema::Event::Reader proposed) {
  std::vector<PlayerResult> result = read_result(proposed.getPayload().getAgotResult());
  TableFacts facts;
  facts.seated = seated.players;
  for (const auto& p : seated.players) facts.history[p] = ledger.history(p, round);
  for (const auto& p : result) facts.history[p.player] = ledger.history(p.player, round);
  facts.picks = ledger.picks(round, seated.number);
  return validate_result(result, facts);
}

RuleErrors check_house_pick(const Ledger& ledger, const SeatedTable& seated,
                            const TableState& table, schema::Event::Reader proposed) {
  RuleErrors errors;
  if (table.result()) {
    errors.push_back(RuleError{"pick", "", "", "agot.pick.after_result"});
    return errors;
  }
  auto pick = proposed.getPayload().getHousePick();
  const std::string player = text(pick.getPlayer());
  PickTable pt = pick_table(ledger, seated, table.round, proposed.getSupersedes(), false);
  if (auto i = pt.index_of(player); i && pt.picked[*i]) {
    errors.push_back(RuleError{
        "pick", player, "player",
        i18n::Message("agot.pick.already_picked", {{"player", i18n::PlayerRef{player}},
                                                   {"house", house_term(*pt.picked[*i])}})});
  }
  RuleErrors house_errors = check_pick(pt, player, pick.getHouse());
  errors.insert(errors.end(), house_errors.begin(), house_errors.end());
  return errors;
}

boost::json::array house_ids(HouseSet houses) {
  boost::json::array out;
  for (House h : kHouses) {
    if (houses.contains(h)) out.emplace_back(house_id(h));
  }
  return out;
}

boost::json::array bye_ids(const Tournament& t, const projections::Round& round) {
  boost::json::array out;
  std::vector<std::string> byes = round_byes(t, round);
  if (byes.empty()) return out;
  for (const auto& p : rating_order(Ledger(t), round.number, byes)) out.emplace_back(p);
  return out;
}

bool same_seating(const std::vector<SeatedTable>& recorded, const std::vector<SeatedTable>& now) {
  if (recorded.size() != now.size()) return false;
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    std::set<std::string> a(recorded[i].players.begin(), recorded[i].players.end());
    std::set<std::string> b(now[i].players.begin(), now[i].players.end());
    if (a != b || recorded[i].league != now[i].league) return false;
    for (std::size_t j = 0; j < recorded[i].players.size(); ++j) {
      auto k = std::find(now[i].players.begin(), now[i].players.end(), recorded[i].players[j]) -
               now[i].players.begin();
      if (bonus_league(recorded[i], j) != bonus_league(now[i], static_cast<std::size_t>(k)))
        return false;
    }
  }
  return true;
}

class AgotGame final : public projections::Game {
 public:
  std::string_view id() const override { return "agot"; }

  const projections::GameDescription& describe() const override { return description_; }

 private:
  static projections::GameDescription description() {
    projections::FieldSpec player =
        projections::make_field("player", "player", "agot.player", "player");
    projections::FieldSpec house =
        projections::make_field("house", "choice", "agot.house", "house");
    for (House h : kHouses) house.choices.emplace_back(house_id(h));
    projections::GameDescription d;
    d.actions.push_back({"result", Which::AGOT_RESULT, true, result_fields()});
    d.actions.push_back({"picks", Which::HOUSE_PICK, false, {std::move(player), std::move(house)}});
    d.actions.back().automatic = true;  // POST …/picks/auto: the rest of the table (agot.md §2)
    d.rules = {{"rounds", "integer"},
               {"counted_results", "integer"},
               {"place_points", "integer_list"},
               {"castle_points", "integer_list"},
               {"league_bonus", "league_table"},
               {"capitals_cap", "integer"},
               {"league_bonus_from_round", "integer"}};
    d.standings_criteria = {"total", "wins", "capitals_captured", "lands_captured"};  // agot.md §5
    return d;
  }

  Outcome<boost::json::object> normalize_rules(
      const boost::json::object& overrides) const override {
    return agot::normalize_rules(overrides);
  }

  const projections::GameDescription description_ = description();

 public:
  // A final table seats the game's full six (G-1, G-2 hold at it as in every round).
  projections::StageShape stage_shape(const boost::json::object&) const override {
    return {{6}, false};
  }

  RuleErrors check_rules(const Tournament& t, const TableState& table,
                         schema::Event::Reader proposed) const override {
    const SeatedTable* seated = seated_table(t, table);
    if (!seated) {
      return {RuleError{
          "table", "", "",
          i18n::Message("agot.table.missing", {{"round", table.round}, {"table", table.table}})}};
    }
    Ledger ledger(t, Ledger::Detail::kHouses);  // a check needs houses, not points
    switch (proposed.getPayload().which()) {
      case Which::AGOT_RESULT:
        return check_result(ledger, *seated, table.round, proposed);
      case Which::HOUSE_PICK:
        return check_house_pick(ledger, *seated, table, proposed);
      default:
        return {RuleError{"game", "", "", "agot.not_an_action"}};
    }
  }

  std::optional<boost::json::object> table_result(const Tournament& t,
                                                  const TableState& table) const override {
    Ledger ledger(t);
    const std::vector<PlayerResult>* result = ledger.result(table.round, table.table);
    if (!result) return std::nullopt;
    std::vector<const PlayerResult*> by_place;
    for (const auto& p : *result) by_place.push_back(&p);
    std::stable_sort(
        by_place.begin(), by_place.end(),
        [](const PlayerResult* a, const PlayerResult* b) { return a->place < b->place; });
    boost::json::array players;
    for (const PlayerResult* p : by_place) {
      const Seat* seat = ledger.seat(p->player, table.round);
      GamePoints points =
          game_points(ledger.rules(), *p, table.round, seat ? seat->bonus_league : "");
      players.push_back(boost::json::object{{"player", p->player},
                                            {"house", house_id(p->house)},
                                            {"score", p->castles},
                                            {"place", std::to_string(p->place)},
                                            {"points", Rational(points.total()).to_json()},
                                            {"lines", points.lines()}});
    }
    return boost::json::object{{"players", std::move(players)}};
  }

  // {"houses":{"p1":"stark",…}, "pick_order":[…], "pickable":{"p2":["lannister",…]}}
  boost::json::object table_extras(const Tournament& t, const TableState& table) const override {
    const SeatedTable* seated = seated_table(t, table);
    if (!seated) return {};
    Ledger ledger(t);
    boost::json::object houses;
    for (const auto& p : seated->players) {
      const Seat* seat = ledger.seat(p, table.round);
      if (seat && seat->house) houses[p] = house_id(*seat->house);
    }
    PickTable pt = pick_table(ledger, *seated, table.round);
    boost::json::array order;
    boost::json::object pickable;
    for (std::size_t i = 0; i < pt.players.size(); ++i) {
      order.emplace_back(pt.players[i]);
      if (!table.result() && !pt.picked[i])
        pickable[pt.players[i]] = house_ids(acceptable_picks(pt, i));
    }
    return boost::json::object{{"houses", std::move(houses)},
                               {"pick_order", std::move(order)},
                               {"pickable", std::move(pickable)}};
  }

  boost::json::object standings(const Tournament& t) const override {
    return standings_json(Ledger(t));
  }

  Outcome<projections::Seating> seat_round(
      const Tournament& t, const projections::SeatingRequest& request) const override {
    return agot::seat_round(Ledger(t), request);
  }

  // The variant every game is played with, who sits outside the league the rating gave them,
  // and who sits the round out ("byes": in the tournament then, at no table; in the order of the
  // rating that seated the round, by name in round 1).
  // "variant" is for people: in English, with "variant_labels" the catalog key of each entry (as
  // a field's `label` and `text`), so that a reader shows it in its own language.
  boost::json::object round_extras(const Tournament& t,
                                   const projections::Round& round) const override {
    boost::json::array moved;
    for (const auto& table : round.tables) {
      for (std::size_t i = 0; i < table.players.size(); ++i) {
        std::string rating = bonus_league(table, i);
        if (rating != table.league) {
          moved.push_back(boost::json::object{{"player", table.players[i]},
                                              {"table", std::int64_t{table.number}},
                                              {"table_league", table.league},
                                              {"rating_league", rating}});
        }
      }
    }
    return boost::json::object{
        {"variant",
         boost::json::array{
             "House Lannister starts with one extra ship in the port of Lannisport.",
             "Tides of Battle cards are not used.",
             "Every game is played to the end: a victory or the end of game round 10."}},
        {"variant_labels",
         boost::json::array{"agot.variant.lannister_ship", "agot.variant.no_tides_of_battle",
                            "agot.variant.played_to_the_end"}},
        {"moved", std::move(moved)},
        {"byes", bye_ids(t, round)}};
  }

  // A round seated by standings whose seating the ratings as they stand now would not give (a
  // corrected or late result): the recorded seating stands, the organizer decides.
  std::vector<i18n::Message> notices(const Tournament& t) const override {
    std::vector<i18n::Message> out;
    Ledger ledger(t);
    for (const auto& round : t.rounds) {
      if (round.method != schema::SeatingMethod::STANDINGS || round.number < 2) continue;
      std::vector<std::string> players;
      for (const auto& table : round.tables)
        players.insert(players.end(), table.players.begin(), table.players.end());
      StandingsSeating now = standings_seating(ledger, round.number, players);
      if (!now.tables) {
        // The solver's reason, told as the notice's own (the same arguments).
        i18n::Message notice = now.why;
        notice.key = "agot.notice.unseatable";
        notice.with("round", round.number);
        out.push_back(std::move(notice));
      } else if (!same_seating(round.tables, *now.tables)) {
        i18n::Message notice("agot.notice.reseat", {{"round", round.number}});
        add_league_tables(notice, *now.tables);
        out.push_back(std::move(notice));
      }
    }
    return out;
  }

  Outcome<std::vector<PayloadBuilder>> auto_actions(const Tournament& t,
                                                    const TableState& table) const override {
    using Out = Outcome<std::vector<PayloadBuilder>>;
    const SeatedTable* seated = seated_table(t, table);
    if (!seated) return Out::refused("table", "agot.table.none");
    if (table.result()) return Out::refused("pick", "agot.pick.table_has_result");
    Ledger ledger(t);
    auto picks = complete_picks(pick_table(ledger, *seated, table.round));
    if (!picks) return Out::refused(std::move(picks.errors));
    std::vector<PayloadBuilder> out;
    for (const auto& [player, house] : *picks.value) {
      auto message = std::make_unique<capnp::MallocMessageBuilder>();
      auto pick = message->initRoot<schema::Event>().getPayload().initHousePick();
      pick.setPlayer(player);
      pick.setHouse(house);
      out.push_back(std::move(message));
    }
    return Out::ok(std::move(out));
  }
};

}  // namespace

std::unique_ptr<projections::Game> make_agot_game() { return std::make_unique<AgotGame>(); }

}  // namespace tally::projections::agot
