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

// "p5 and p6 can only play Stark or Greyjoy between them": the houses the short players could
// still play at the table (before the pick being checked, which is what takes the last of them).
std::string shortage(const PickTable& table, const HouseMatch& m,
                     const std::vector<std::size_t>& who) {
  std::vector<std::string> names;
  HouseSet could;
  HouseSet any;
  for (std::size_t k : m.short_players) {
    names.push_back(table.players[who[k]]);
    could = could | (table.history[who[k]].available() - table.taken());
    any = any | table.history[who[k]].available();
  }
  const bool plural = names.size() > 1;
  if (any.empty()) return join(names) + (plural ? " have" : " has") + " already played every house";
  if (could.empty()) {
    return join(names) + " can only play " + any.names() + (plural ? " between them" : "") +
           ", already taken at this table";
  }
  return join(names) + " can only play " + could.names() + (plural ? " between them" : "");
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
        player + " is not seated at this table (seated: " + join(table_in.players) + ")"});
    return errors;
  }
  PickTable table = table_in;
  table.picked[*index].reset();  // the player's own pick, if any, is what this one replaces
  if (!is_house(house)) {
    errors.push_back(RuleError{"G-1", player, "house", "not one of the six houses"});
    return errors;
  }
  const HouseHistory& history = table.history[*index];
  if (std::uint32_t round = history.round_of(house)) {
    errors.push_back(RuleError{"G-2", player, "house",
                               player + " already played " + std::string(house_name(house)) +
                                   " in round " + std::to_string(round)});
  }
  for (std::size_t j = 0; j < table.players.size(); ++j) {
    if (table.picked[j] == house) {
      errors.push_back(RuleError{"G-1", player, "house",
                                 std::string(house_name(house)) +
                                     " is already taken at this table by " + table.players[j]});
    }
  }
  if (errors.empty()) {
    std::vector<std::size_t> who;
    HouseMatch m = completion(table, *index, HouseSet::of(house), who);
    if (!m.complete()) {
      errors.push_back(RuleError{"G-2", player, "house",
                                 "if " + player + " takes " + std::string(house_name(house)) +
                                     ", " + shortage(table, m, who) +
                                     ": the table could not be completed"});
    }
  }
  if (errors.empty()) return errors;
  const HouseSet acceptable = acceptable_picks(table, *index);
  const std::string hint = acceptable.empty() ? " (no house can be accepted for " + player + ")"
                                              : " (accepted: " + acceptable.names() + ")";
  for (auto& e : errors) {
    e.message.key += hint;
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
      std::string why =
          m.complete() ? table.players[i] + " has no house left to play" : shortage(table, m, who);
      return Out::refused("G-2",
                          "the table cannot be completed with six different houses: " + why +
                              " (correct the picks, or re-seat the round)",
                          "house", table.players[i]);
    }
    table.picked[i] = *h;
    out.emplace_back(table.players[i], *h);
  }
  return Out::ok(std::move(out));
}

}  // namespace tally::projections::agot
