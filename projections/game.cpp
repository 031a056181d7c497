#include "projections/game.hpp"

#include "projections/table_rules.hpp"

#include <algorithm>

namespace tally::projections {

FieldSpec make_field(std::string name, std::string type, std::string label, std::string text) {
  FieldSpec f;
  f.name = std::move(name);
  f.type = std::move(type);
  f.label = std::move(label);
  f.text = std::move(text);
  return f;
}

const ActionSpec* GameDescription::action(std::string_view name) const {
  for (const auto& a : actions) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

schema::Event::Payload::Which Game::result_kind() const {
  return describe().action("result")->kind;
}

bool Game::accepts(schema::Event::Payload::Which kind) const {
  const auto& actions = describe().actions;
  return std::any_of(actions.begin(), actions.end(),
                     [kind](const ActionSpec& a) { return a.kind == kind; });
}

std::int64_t place_number(const boost::json::value* place) {
  if (place == nullptr) return 0;
  if (place->is_int64()) return place->get_int64();
  if (!place->is_string()) return 0;
  std::int64_t n = 0;
  for (char c : place->get_string()) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
  }
  return n;
}

RuleErrors Game::check_action(const Tournament& tournament, const TableState& table,
                              schema::Event::Reader proposed) const {
  if (auto wrong = check_correction(table, proposed); !wrong.empty()) return wrong;
  return check_rules(tournament, table, proposed);
}

boost::json::object Game::table_extras(const Tournament&, const TableState&) const { return {}; }

bool Game::write_table_result(text::JsonWriter& out, const Tournament& tournament,
                              const TableState& table) const {
  std::optional<boost::json::object> result = table_result(tournament, table);
  if (!result) return false;
  out.value(*result);
  return true;
}

boost::json::object Game::describe_action(const Tournament&, const TableState&,
                                          const Action&) const {
  return {};
}

boost::json::object Game::round_extras(const Tournament&, const Round&) const { return {}; }

std::vector<i18n::Message> Game::notices(const Tournament&) const { return {}; }

Outcome<std::vector<PayloadBuilder>> Game::auto_actions(const Tournament&,
                                                        const TableState&) const {
  return Outcome<std::vector<PayloadBuilder>>::refused(
      "game", i18n::Message("rules.game.no_automatic_actions"));
}

Outcome<boost::json::object> Game::calculate(const boost::json::object&,
                                             const boost::json::object&) const {
  return Outcome<boost::json::object>::refused("game", i18n::Message("rules.game.no_calculator"));
}

void GameRegistry::add(std::unique_ptr<Game> game) { games_.push_back(std::move(game)); }

const Game* GameRegistry::find(std::string_view id) const {
  for (const auto& g : games_) {
    if (g->id() == id) return g.get();
  }
  return nullptr;
}

std::vector<std::string> GameRegistry::ids() const {
  std::vector<std::string> out;
  for (const auto& g : games_) out.emplace_back(g->id());
  return out;
}

}  // namespace tally::projections
