#include "projections/catan/validation.hpp"

#include "projections/catan/placing.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <set>

namespace tally::projections::catan {

namespace {

using Count = std::int32_t PlayerSheet::*;
using Flag = bool PlayerSheet::*;
using i18n::Message;
using i18n::PlayerCounts;
using i18n::PlayerList;
using i18n::PlayerRef;
using i18n::Term;

// A table has 3 or 4 players (C-0).
constexpr std::size_t kMinPlayers = 3;
constexpr std::size_t kMaxPlayers = 4;
// The game's components (C-5, C-6).
constexpr std::int64_t kVpCardsInGame = 5;
constexpr std::int64_t kKnightsInGame = 14;
// C-3: the settlements every player starts with.
constexpr std::int32_t kStartingSettlements = 2;

// The per-player ranges of catan.md §1, as a table.
struct CountRange {
  std::string_view rule;
  std::string_view field;
  std::string_view label;  // the field's label: a key of the catan catalog
  std::string_view text;   // the label in English (as the en catalog has it)
  Count count;
  std::int32_t min;
  std::optional<std::int32_t> max;  // none: no upper bound of its own
};

constexpr CountRange kSettlements{
    "C-1", "settlements", "catan.settlements", "settlements", &PlayerSheet::settlements, 0, 5};
constexpr CountRange kCities{"C-2", "cities", "catan.cities", "cities", &PlayerSheet::cities, 0, 4};
constexpr CountRange kVpCards{
    "C-4", "vp_cards", "catan.vp_cards", "VP cards", &PlayerSheet::vp_cards, 0, 5};
constexpr CountRange kKnights{"C-6", "knights",   "catan.knights", "knights", &PlayerSheet::knights,
                              0,     std::nullopt};
constexpr CountRange kRoads{"C-8", "roads", "catan.roads", "roads", &PlayerSheet::roads, 2, 15};
constexpr CountRange kCountRanges[] = {kSettlements, kCities, kVpCards, kKnights, kRoads};

// The two titles worth 2 VP (C-7, C-9): held by exactly one of the players tied at the highest
// count when that count reaches the minimum (the one who got there first), by nobody otherwise.
struct Title {
  std::string_view rule;
  std::string_view label;  // the title's name (the holder field's label): a catalog key
  std::string_view text;   // the name in English
  std::string_view holder_field;
  Count count;
  Flag holder;
  std::int32_t minimum;
  // The rule's messages, each saying the count its own way ("4 knights", "a road of 6").
  std::string_view below_minimum;  // {player, title, count, minimum}
  std::string_view not_the_most;   // {player, title, count, leaders, leader_count, top}
  std::string_view unmarked;       // {player, title, top}: one player has the most
  std::string_view unmarked_tie;   // {players, title, top}
};

constexpr Title kLargestArmy{"C-7",
                             "catan.largest_army",
                             "Largest Army",
                             "largest_army",
                             &PlayerSheet::knights,
                             &PlayerSheet::largest_army,
                             3,
                             "catan.C-7.below_minimum",
                             "catan.C-7.not_the_most",
                             "catan.C-7.unmarked",
                             "catan.C-7.unmarked_tie"};
constexpr Title kLongestRoad{"C-9",
                             "catan.longest_road_holder",
                             "Longest Road",
                             "longest_road_holder",
                             &PlayerSheet::longest_road,
                             &PlayerSheet::longest_road_holder,
                             5,
                             "catan.C-9.below_minimum",
                             "catan.C-9.not_the_most",
                             "catan.C-9.unmarked",
                             "catan.C-9.unmarked_tie"};

FieldSpec field_of(std::string_view name, std::string_view label, std::string_view text,
                   std::string type) {
  return make_field(std::string(name), std::move(type), std::string(label), std::string(text));
}

}  // namespace

std::vector<FieldSpec> result_fields() {
  std::vector<FieldSpec> out;
  for (const auto& range : kCountRanges) {
    FieldSpec f = field_of(range.field, range.label, range.text, "integer");
    f.min = range.min;
    if (range.max) f.max = *range.max;
    out.push_back(std::move(f));
    if (range.field == "roads") {
      // C-8: 1 up to the player's roads; the form can only know the lower bound.
      FieldSpec road = field_of("longest_road", "catan.longest_road", "longest road", "integer");
      road.min = 1;
      road.max = kRoads.max;
      out.push_back(std::move(road));
    }
  }
  for (const Title& title : {kLargestArmy, kLongestRoad}) {
    FieldSpec f = field_of(title.holder_field, title.label, title.text, "boolean");
    f.one_holder = true;
    out.push_back(std::move(f));
  }
  FieldSpec claimed = field_of("claimed_win", "catan.claimed_win", "claimed the win", "boolean");
  claimed.required = false;  // catan.md §3: recorded with the result when given
  out.push_back(std::move(claimed));
  FieldSpec vp = field_of("vp", "catan.vp", "VP on the score sheet", "integer");
  vp.min = 0;
  vp.required = false;  // C-10: checked against the counts when given
  out.push_back(std::move(vp));
  return out;
}

namespace {

bool in_range(const PlayerSheet& s, const CountRange& r) {
  std::int32_t v = s.*r.count;
  return v >= r.min && (!r.max || v <= *r.max);
}

bool all_in_range(const std::vector<PlayerSheet>& sheets, const CountRange& r) {
  return std::all_of(sheets.begin(), sheets.end(), [&](const auto& s) { return in_range(s, r); });
}

// The players with a non-zero count, each with it: what a table-wide sum is made of ("a 3 and
// b 4").
PlayerCounts contributions(const std::vector<PlayerSheet>& sheets, Count count) {
  PlayerCounts out;
  for (const auto& s : sheets) {
    if (s.*count != 0) out.counts.emplace_back(s.player, s.*count);
  }
  return out;
}

// The VP a sheet's line is worth (0 when the sheet has none of it).
std::int64_t vp_for(const PlayerSheet& s, std::string_view source) {
  for (const auto& line : vp_lines(s)) {
    if (line.rule == source) return line.vp;
  }
  return 0;
}

void check_range(const std::vector<PlayerSheet>& sheets, const CountRange& r, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (in_range(s, r)) continue;
    Message message = r.max
                          ? Message("catan.range.between", {{"field", Term{std::string(r.label)}},
                                                            {"min", r.min},
                                                            {"max", *r.max},
                                                            {"player", PlayerRef{s.player}},
                                                            {"count", s.*r.count}})
                          : Message("catan.range.at_least", {{"field", Term{std::string(r.label)}},
                                                             {"min", r.min},
                                                             {"player", PlayerRef{s.player}},
                                                             {"count", s.*r.count}});
    out.push_back({std::string(r.rule), s.player, std::string(r.field), std::move(message)});
  }
}

// C-3: a player without a city still has the two settlements every player starts with.
void check_starting_settlements(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (!in_range(s, kSettlements) || s.cities != 0 || s.settlements >= kStartingSettlements) {
      continue;
    }
    out.push_back({"C-3", s.player, "settlements",
                   Message("catan.C-3.starting_settlements", {{"player", PlayerRef{s.player}},
                                                              {"minimum", kStartingSettlements},
                                                              {"settlements", s.settlements}})});
  }
}

// C-5, C-6: a table-wide total limited by the game's components.
void check_table_sum(const std::vector<PlayerSheet>& sheets, const CountRange& r,
                     std::string_view rule, std::string_view key, std::int64_t in_game,
                     RuleErrors& out) {
  if (!all_in_range(sheets, r)) return;
  std::int64_t sum = 0;
  for (const auto& s : sheets) sum += s.*r.count;
  if (sum <= in_game) return;
  out.push_back(
      {std::string(rule), "", std::string(r.field),
       Message(std::string(key),
               {{"sum", sum}, {"counts", contributions(sheets, r.count)}, {"in_game", in_game}})});
}

// C-8: the longest road is at least 1 and no longer than the roads built.
void check_longest_road(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    bool roads_ok = in_range(s, kRoads);
    std::int32_t limit = roads_ok ? s.roads : *kRoads.max;
    if (s.longest_road >= 1 && s.longest_road <= limit) continue;
    const PlayerRef player{s.player};
    Message message;
    if (s.longest_road < 1) {
      message =
          Message("catan.C-8.longest_below_one", {{"player", player}, {"longest", s.longest_road}});
    } else if (roads_ok) {
      message = Message("catan.C-8.longer_than_roads",
                        {{"player", player}, {"longest", s.longest_road}, {"roads", s.roads}});
    } else {
      message = Message("catan.C-8.longest_range",
                        {{"max", limit}, {"player", player}, {"longest", s.longest_road}});
    }
    out.push_back({"C-8", s.player, "longest_road", std::move(message)});
  }
}

void check_title(const std::vector<PlayerSheet>& sheets, const Title& t, RuleErrors& out) {
  const std::string rule(t.rule), field(t.holder_field);
  const Term title{std::string(t.label)};
  std::int32_t top = 0;
  for (const auto& s : sheets) top = std::max(top, s.*t.count);
  PlayerList at_top, holders_at_top;
  for (const auto& s : sheets) {
    if (s.*t.count == top) at_top.ids.push_back(s.player);
    if (s.*t.count == top && s.*t.holder) holders_at_top.ids.push_back(s.player);
  }

  if (top < t.minimum) {
    for (const auto& s : sheets) {
      if (!(s.*t.holder)) continue;
      out.push_back({rule, s.player, field,
                     Message(std::string(t.below_minimum), {{"player", PlayerRef{s.player}},
                                                            {"title", title},
                                                            {"count", s.*t.count},
                                                            {"minimum", t.minimum}})});
    }
    return;
  }
  bool any_holder = false;
  for (const auto& s : sheets) {
    if (!(s.*t.holder)) continue;
    any_holder = true;
    if (s.*t.count == top) continue;
    out.push_back({rule, s.player, field,
                   Message(std::string(t.not_the_most), {{"player", PlayerRef{s.player}},
                                                         {"title", title},
                                                         {"count", s.*t.count},
                                                         {"leaders", at_top},
                                                         {"leader_count", at_top.ids.size()},
                                                         {"top", top}})});
  }
  if (!any_holder) {
    if (at_top.ids.size() == 1) {
      out.push_back(
          {rule, at_top.ids[0], field,
           Message(std::string(t.unmarked),
                   {{"player", PlayerRef{at_top.ids[0]}}, {"title", title}, {"top", top}})});
    } else {
      out.push_back({rule, "", field,
                     Message(std::string(t.unmarked_tie),
                             {{"players", at_top}, {"title", title}, {"top", top}})});
    }
  }
  if (holders_at_top.ids.size() > 1) {
    for (const auto& h : holders_at_top.ids) {
      out.push_back({rule, h, field,
                     Message("catan.title.several_holders",
                             {{"title", title}, {"holders", holders_at_top}})});
    }
  }
}

// C-10: the VP the table wrote down, when given, is the VP the sheet is worth — shown with
// what it is worth for (settlements and cities always, the rest when they count).
void check_written_vp(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (!s.written_vp) continue;
    if (!in_range(s, kSettlements) || !in_range(s, kCities) || !in_range(s, kVpCards)) continue;
    std::int64_t vp = vp_of(s);
    if (*s.written_vp == vp) continue;
    out.push_back({"C-10", s.player, "vp",
                   Message("catan.C-10.written_vp",
                           {{"written", *s.written_vp},
                            {"player", PlayerRef{s.player}},
                            {"vp", vp},
                            {"settlements_vp", vp_for(s, "settlements")},
                            {"cities_vp", vp_for(s, "cities")},
                            {"vp_cards_vp", vp_for(s, "vp_cards")},
                            {"largest_army_vp", vp_for(s, "largest_army")},
                            {"longest_road_vp", vp_for(s, "longest_road_holder")}})});
  }
}

int rule_number(const std::string& rule) {
  int n = -1;
  if (rule.starts_with("C-")) std::from_chars(rule.data() + 2, rule.data() + rule.size(), n);
  return n;
}

void order_by_rule(RuleErrors& errors) {
  std::stable_sort(errors.begin(), errors.end(), [](const RuleError& a, const RuleError& b) {
    return rule_number(a.rule) < rule_number(b.rule);
  });
}

// The table and round a message names ("table 2 of round 3").
Message with_table(Message message, const TableRecord& table) {
  message.with("table", table.table).with("round", table.round);
  return message;
}

}  // namespace

RuleErrors check_roster(const TableRecord& table, const std::vector<PlayerSheet>& result) {
  RuleErrors out;
  if (result.size() < kMinPlayers || result.size() > kMaxPlayers) {
    out.push_back(
        {"C-0", "", "players",
         Message("catan.C-0.player_count",
                 {{"min", kMinPlayers}, {"max", kMaxPlayers}, {"count", result.size()}})});
  }
  if (!table.seated) {
    out.push_back({"C-0", "", "players", with_table(Message("catan.C-0.table_not_seated"), table)});
    return out;
  }
  std::set<std::string> listed;
  for (const auto& s : result) {
    if (!listed.insert(s.player).second) {
      out.push_back({"C-0", s.player, "player",
                     Message("catan.C-0.listed_twice", {{"player", PlayerRef{s.player}}})});
    } else if (std::find(table.players.begin(), table.players.end(), s.player) ==
               table.players.end()) {
      out.push_back(
          {"C-0", s.player, "player",
           with_table(Message("catan.C-0.not_seated_here", {{"player", PlayerRef{s.player}},
                                                            {"seated", PlayerList{table.players}}}),
                      table)});
    }
  }
  for (const auto& p : table.players) {
    if (!listed.contains(p)) {
      out.push_back({"C-0", p, "players",
                     Message("catan.C-0.missing_from_result", {{"player", PlayerRef{p}}})});
    }
  }
  return out;
}

RuleErrors check_sheets(const std::vector<PlayerSheet>& result) {
  RuleErrors out;
  for (const auto& range : kCountRanges) check_range(result, range, out);  // C-1, 2, 4, 6, 8
  check_starting_settlements(result, out);                                 // C-3
  check_table_sum(result, kVpCards, "C-5", "catan.C-5.vp_cards_sum", kVpCardsInGame, out);  // C-5
  check_table_sum(result, kKnights, "C-6", "catan.C-6.knights_sum", kKnightsInGame, out);   // C-6
  if (all_in_range(result, kKnights)) check_title(result, kLargestArmy, out);               // C-7
  check_longest_road(result, out);                                                          // C-8
  bool roads_ok =
      std::none_of(out.begin(), out.end(), [](const auto& e) { return e.rule == "C-8"; });
  if (roads_ok) check_title(result, kLongestRoad, out);  // C-9
  check_written_vp(result, out);                         // C-10
  order_by_rule(out);
  return out;
}

RuleErrors check_claims(const std::vector<PlayerSheet>& result,
                        const std::vector<std::string>& claimants, std::string_view field_view) {
  const std::string field(field_view);
  RuleErrors out;
  auto sheet_of = [&](const std::string& player) -> const PlayerSheet* {
    for (const auto& s : result) {
      if (s.player == player) return &s;
    }
    return nullptr;
  };
  // C-12: only a player with 10+ VP can have claimed the win.
  for (const auto& c : claimants) {
    const PlayerSheet* s = sheet_of(c);
    if (s == nullptr || vp_of(*s) >= kClaimVp) continue;
    out.push_back({"C-12", c, field,
                   Message("catan.C-12.claim_below",
                           {{"player", PlayerRef{c}}, {"vp", vp_of(*s)}, {"claim_vp", kClaimVp}})});
  }
  // C-11: with two or more players at 10+, exactly one of them is the claimant.
  PlayerList eligible, eligible_claimants;
  PlayerCounts eligible_vp;  // the VP that make them eligible ("a 10 and b 12")
  for (const auto& s : result) {
    if (vp_of(s) < kClaimVp) continue;
    eligible.ids.push_back(s.player);
    eligible_vp.counts.emplace_back(s.player, vp_of(s));
    if (std::find(claimants.begin(), claimants.end(), s.player) != claimants.end()) {
      eligible_claimants.ids.push_back(s.player);
    }
  }
  if (eligible.ids.size() >= 2 && eligible_claimants.ids.empty()) {
    out.push_back(
        {"C-11", "", field,
         Message("catan.C-11.record_claimant",
                 {{"players", eligible}, {"claim_vp", kClaimVp}, {"counts", eligible_vp}})});
  }
  if (eligible.ids.size() >= 2 && eligible_claimants.ids.size() > 1) {
    for (const auto& c : eligible_claimants.ids) {
      out.push_back({"C-11", c, field,
                     Message("catan.C-11.several_claimants",
                             {{"claimants", eligible_claimants}, {"claim_vp", kClaimVp}})});
    }
  }
  order_by_rule(out);
  return out;
}

RuleErrors check_result_entry(const TableRecord& table) {
  const auto& result = *table.result;
  RuleErrors out = check_roster(table, result);
  RuleErrors sheets = check_sheets(result);
  bool vp_certain = sheets.empty();
  out.insert(out.end(), sheets.begin(), sheets.end());
  if (vp_certain) {
    RuleErrors claims = check_claims(result, table.claimants(), "claimed_win");
    out.insert(out.end(), claims.begin(), claims.end());
  }
  order_by_rule(out);
  return out;
}

RuleErrors check_claim_entry(const TableRecord& table, const std::string& player) {
  if (!table.seated ||
      std::find(table.players.begin(), table.players.end(), player) == table.players.end()) {
    return {{"C-0", player, "player",
             with_table(Message("catan.C-0.claimant_not_seated", {{"player", PlayerRef{player}}}),
                        table)}};
  }
  for (const auto& c : table.claims) {
    if (c.player == player) {
      // The seq is the claim event's number, shown as it is.
      return {{"C-11", player, "player",
               Message("catan.C-11.already_claimed",
                       {{"player", PlayerRef{player}}, {"event", std::to_string(c.seq)}})}};
    }
  }
  auto claimants = table.claimants();
  if (std::find(claimants.begin(), claimants.end(), player) != claimants.end()) {
    return {{"C-11", player, "player",
             Message("catan.C-11.already_claimed_in_result", {{"player", PlayerRef{player}}})}};
  }
  if (!table.result) {
    // Without VP, only the number of claimants can be judged: more than one never passes.
    if (claimants.empty()) return {};
    return {{"C-11", player, "player",
             Message("catan.C-11.another_claimant", {{"claimants", PlayerList{claimants}}})}};
  }
  claimants.push_back(player);  // the result in effect passed C-1 … C-10 when it was entered
  return check_claims(*table.result, claimants, "player");
}

}  // namespace tally::projections::catan
