#include "projections/agot/wording.hpp"

#include "projections/agot/rules.hpp"

namespace tally::projections::agot {

i18n::Term house_term(House h) {
  // An unknown stored house never reaches a message (is_house() is checked first), but a Term
  // must name a key: the catalogs have "agot.house.unknown".
  return i18n::Term{"agot.house." + std::string(house_id(h))};
}

i18n::TermList house_list(HouseSet houses, i18n::Joiner joiner) {
  i18n::TermList out{{}, joiner};
  for (House h : kHouses) {
    if (houses.contains(h)) out.keys.push_back(house_term(h).key);
  }
  return out;
}

i18n::PlayerList player_list(const std::vector<std::string>& ids) { return i18n::PlayerList{ids}; }

void add_league_tables(i18n::Message& message,
                       const std::vector<projections::SeatedTable>& tables) {
  message.with("leagues", static_cast<std::int64_t>(tables.size()));
  message.with("more", static_cast<std::int64_t>(
                           tables.size() > kLeaguesListed ? tables.size() - kLeaguesListed : 0));
  for (std::size_t k = 0; k < tables.size() && k < kLeaguesListed; ++k) {
    message.with(league_name(k), player_list(tables[k].players));
  }
}

}  // namespace tally::projections::agot
