#include "projections/agot/picks.hpp"

#include "projections/agot/matching.hpp"
#include "projections/agot/wording.hpp"

namespace tally::projections::agot {

namespace {

using projections::RuleError;
using projections::RuleErrors;

// Can the players still without a house (other than `index`, who takes `house`) all get a
// different free house they may play? When not, the reason.
HouseMatch completion(const PickTable& table, std::optional<std::size_t> index, HouseSet also_taken,
                      std::vector<std::size_t>& who) {
  HouseSet free = HouseSet::all() - table.taken() - also_taken;
  std::vector<HouseSet> options;
  who.clear();
  for (std::size_t j = 0; j < table.players.size(); ++j) {
    if (j == index || table.picked[j]) continue;
    who.push_back(j);
    options.push_back(table.history[j].available() & free);
  }
  return match_houses(options, 1);
}

// The houses `can` (one list, "… or …") and how many (`can_count`, for the words around it).
void add_can(i18n::Message& message, HouseSet houses) {
  message.with("can", house_list(houses, i18n::Joiner::or_));
  message.with("can_count", houses.size());
}

// Why the players still without a house cannot all be seated, as arguments of `message`:
// `short` (the players, `short_count` of them) and `why`: "all_played" (they played every
// house), "taken" (they can only play the houses `can`, already taken at this table) or "only"
// (they can only play `can` between them). The houses are those the short players could still
// play at the table before the pick being checked, which is what takes the last of them.
void add_shortage(i18n::Message& message, const PickTable& table, const HouseMatch& m,
                  const std::vector<std::size_t>& who) {
  std::vector<std::string> names;
  HouseSet could;
  HouseSet any;
  for (std::size_t k : m.short_players) {
    names.push_back(table.players[who[k]]);
    could = could | (table.history[who[k]].available() - table.taken());
    any = any | table.history[who[k]].available();
  }
  message.with("short", player_list(names));
  message.with("short_count", static_cast<std::int64_t>(names.size()));
  message.with("why", std::string(any.empty() ? "all_played" : could.empty() ? "taken" : "only"));
  add_can(message, could.empty() ? any : could);
}

std::vector<std::string> ids(HouseSet houses) {
  std::vector<std::string> out;
  for (House h : kHouses) {
    if (houses.contains(h)) out.emplace_back(house_id(h));
  }
  return out;
}

}  // namespace

std::optional<std::size_t> PickTable::index_of(const std::string& player) const {
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (players[i] == player) return i;
  }
  return std::nullopt;
}

HouseSet PickTable::taken() const {
  HouseSet out;
  for (const auto& p : picked) {
    if (p && is_house(*p)) out = out.with(*p);
  }
  return out;
}

HouseSet acceptable_picks(const PickTable& table, std::size_t index) {
  HouseSet out;
  std::vector<std::size_t> who;
  for (House h : kHouses) {
    if (!table.history[index].available().contains(h) || table.taken().contains(h)) continue;
    if (completion(table, index, HouseSet::of(h), who).complete()) out = out.with(h);
  }
  return out;
}

projections::RuleErrors check_pick(const PickTable& table_in, const std::string& player,
                                   House house) {
  RuleErrors errors;
  auto index = table_in.index_of(player);
  if (!index) {
    errors.push_back(RuleError{
        "G-1", player, "player",
        i18n::Message("agot.G-1.not_seated", {{"player", i18n::PlayerRef{player}},
                                              {"seated", player_list(table_in.players)}})});
    return errors;
  }
  PickTable table = table_in;
  table.picked[*index].reset();  // the player's own pick, if any, is what this one replaces
  if (!is_house(house)) {
    errors.push_back(RuleError{"G-1", player, "house", "agot.not_a_house"});
    return errors;
  }
  const HouseHistory& history = table.history[*index];
  if (std::uint32_t round = history.round_of(house)) {
    errors.push_back(
        RuleError{"G-2", player, "house",
                  i18n::Message("agot.pick.played_before", {{"player", i18n::PlayerRef{player}},
                                                            {"house", house_term(house)},
                                                            {"round", round}})});
  }
  for (std::size_t j = 0; j < table.players.size(); ++j) {
    if (table.picked[j] == house) {
      errors.push_back(RuleError{
          "G-1", player, "house",
          i18n::Message("agot.pick.taken", {{"player", i18n::PlayerRef{player}},
                                            {"house", house_term(house)},
                                            {"other", i18n::PlayerRef{table.players[j]}}})});
    }
  }
  if (errors.empty()) {
    std::vector<std::size_t> who;
    HouseMatch m = completion(table, *index, HouseSet::of(house), who);
    if (!m.complete()) {
      i18n::Message message("agot.pick.incomplete",
                            {{"player", i18n::PlayerRef{player}}, {"house", house_term(house)}});
      add_shortage(message, table, m, who);
      errors.push_back(RuleError{"G-2", player, "house", std::move(message)});
    }
  }
  if (errors.empty()) return errors;
  // The houses that would be accepted: every entry carries them for machines (`alternatives`);
  // the text says them once, at the end of the first reason ("hint": "listed", or "none" when no
  // house can be accepted; "omitted" in the others).
  const HouseSet acceptable = acceptable_picks(table, *index);
  for (auto& e : errors) {
    const bool first = &e == &errors.front();
    e.message.with("hint", std::string(!first               ? "omitted"
                                       : acceptable.empty() ? "none"
                                                            : "listed"));
    e.message.with("accepted", house_list(acceptable, i18n::Joiner::or_));
    e.alternatives = ids(acceptable);
  }
  return errors;
}

projections::Outcome<std::vector<std::pair<std::string, House>>> complete_picks(PickTable table) {
  using Out = projections::Outcome<std::vector<std::pair<std::string, House>>>;
  std::vector<std::pair<std::string, House>> out;
  for (std::size_t i = 0; i < table.players.size(); ++i) {
    if (table.picked[i]) continue;
    std::optional<House> h = acceptable_picks(table, i).first();
    if (!h) {
      std::vector<std::size_t> who;
      HouseMatch m = completion(table, std::nullopt, HouseSet(), who);
      i18n::Message message("agot.pick.cannot_complete",
                            {{"player", i18n::PlayerRef{table.players[i]}}});
      if (m.complete()) {
        // Everyone else fits: this player has no house left to play at all.
        message.with("short", player_list({table.players[i]}));
        message.with("short_count", std::int64_t{1});
        message.with("why", std::string("none_left"));
        add_can(message, HouseSet());
      } else {
        add_shortage(message, table, m, who);
      }
      return Out::refused("G-2", std::move(message), "house", table.players[i]);
    }
    table.picked[i] = *h;
    out.emplace_back(table.players[i], *h);
  }
  return Out::ok(std::move(out));
}

}  // namespace tally::projections::agot
