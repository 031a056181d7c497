#include "projections/game.hpp"

namespace tally::projections {

boost::json::object Game::table_extras(const Tournament&, const TableState&) const { return {}; }

boost::json::object Game::describe_action(const Tournament&, const TableState&,
                                          const Action&) const {
  return {};
}

boost::json::object Game::round_extras(const Tournament&, const Round&) const { return {}; }

std::vector<std::string> Game::notices(const Tournament&) const { return {}; }

Outcome<std::vector<PayloadBuilder>> Game::auto_actions(const Tournament&,
                                                        const TableState&) const {
  return Outcome<std::vector<PayloadBuilder>>::refused("game",
                                                       "this game has no automatic table actions");
}

Outcome<boost::json::object> Game::calculate(const boost::json::object&,
                                             const boost::json::object&) const {
  return Outcome<boost::json::object>::refused("game", "this game has no calculator");
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
