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

// A table has 3 or 4 players (C-0).
constexpr std::size_t kMinPlayers = 3;
constexpr std::size_t kMaxPlayers = 4;
// The game's components (C-5, C-6).
constexpr std::int64_t kVpCardsInGame = 5;
constexpr std::int64_t kKnightsInGame = 14;

// The per-player ranges of catan.md §1, as a table.
struct CountRange {
  std::string_view rule;
  std::string_view field;
  std::string_view label;  // for people
  Count count;
  std::int32_t min;
  std::optional<std::int32_t> max;  // none: no upper bound of its own
};

constexpr CountRange kSettlements{"C-1", "settlements", "settlements", &PlayerSheet::settlements, 0,
                                  5};
constexpr CountRange kCities{"C-2", "cities", "cities", &PlayerSheet::cities, 0, 4};
constexpr CountRange kVpCards{"C-4", "vp_cards", "VP cards", &PlayerSheet::vp_cards, 0, 5};
constexpr CountRange kKnights{"C-6", "knights", "knights", &PlayerSheet::knights, 0, std::nullopt};
constexpr CountRange kRoads{"C-8", "roads", "roads", &PlayerSheet::roads, 2, 15};
constexpr CountRange kCountRanges[] = {kSettlements, kCities, kVpCards, kKnights, kRoads};

// The two titles worth 2 VP (C-7, C-9): held by exactly one of the players tied at the highest
// count when that count reaches the minimum (the one who got there first), by nobody otherwise.
struct Title {
  std::string_view rule;
  std::string_view name;
  std::string_view holder_field;
  Count count;
  Flag holder;
  std::int32_t minimum;
  std::string (*amount)(std::int32_t);  // "4 knights", "a road of 6"
};

constexpr Title kLargestArmy{
    "C-7",
    "Largest Army",
    "largest_army",
    &PlayerSheet::knights,
    &PlayerSheet::largest_army,
    3,
    [](std::int32_t n) { return std::to_string(n) + (n == 1 ? " knight" : " knights"); }};
constexpr Title kLongestRoad{"C-9",
                             "Longest Road",
                             "longest_road_holder",
                             &PlayerSheet::longest_road,
                             &PlayerSheet::longest_road_holder,
                             5,
                             [](std::int32_t n) { return "a road of " + std::to_string(n); }};

FieldSpec field_of(std::string_view name, std::string_view text, std::string type) {
  return make_field(std::string(name), std::move(type), "catan." + std::string(name),
                    std::string(text));
}

}  // namespace

std::vector<FieldSpec> result_fields() {
  std::vector<FieldSpec> out;
  for (const auto& range : kCountRanges) {
    FieldSpec f = field_of(range.field, range.label, "integer");
    f.min = range.min;
    if (range.max) f.max = *range.max;
    out.push_back(std::move(f));
    if (range.field == "roads") {
      // C-8: 1 up to the player's roads; the form can only know the lower bound.
      FieldSpec road = field_of("longest_road", "longest road", "integer");
      road.min = 1;
      road.max = kRoads.max;
      out.push_back(std::move(road));
    }
  }
  for (const Title& title : {kLargestArmy, kLongestRoad}) {
    FieldSpec f = field_of(title.holder_field, title.name, "boolean");
    f.one_holder = true;
    out.push_back(std::move(f));
  }
  FieldSpec claimed = field_of("claimed_win", "claimed the win", "boolean");
  claimed.required = false;  // catan.md §3: recorded with the result when given
  out.push_back(std::move(claimed));
  FieldSpec vp = field_of("vp", "VP on the score sheet", "integer");
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

// "a and b", "a, b and c".
std::string names(const std::vector<std::string>& players) {
  std::string out;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (i > 0) out += i + 1 == players.size() ? " and " : ", ";
    out += players[i];
  }
  return out;
}

// "a 3, b 3" for the counts behind a table-wide sum, zeros left out.
std::string contributions(const std::vector<PlayerSheet>& sheets, Count count) {
  std::string out;
  for (const auto& s : sheets) {
    if (s.*count == 0) continue;
    if (!out.empty()) out += ", ";
    out += s.player + " " + std::to_string(s.*count);
  }
  return out;
}

// "2 for settlements + 6 for cities + 2 for largest_army".
std::string vp_breakdown(const PlayerSheet& s) {
  std::string out;
  for (const auto& line : vp_lines(s)) {
    if (!out.empty()) out += " + ";
    out += std::to_string(line.vp) + " for " + std::string(line.rule);
  }
  return out.empty() ? "nothing" : out;
}

void check_range(const std::vector<PlayerSheet>& sheets, const CountRange& r, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (in_range(s, r)) continue;
    std::string bounds = r.max
                             ? "between " + std::to_string(r.min) + " and " + std::to_string(*r.max)
                             : std::to_string(r.min) + " or more";
    out.push_back({std::string(r.rule), s.player, std::string(r.field),
                   std::string(r.label) + " must be " + bounds + "; " + s.player + " has " +
                       std::to_string(s.*r.count)});
  }
}

// C-3: a player without a city still has the two settlements every player starts with.
void check_starting_settlements(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (!in_range(s, kSettlements) || s.cities != 0 || s.settlements >= 2) continue;
    out.push_back({"C-3", s.player, "settlements",
                   s.player +
                       " has no city, so must have at least 2 settlements; the result says " +
                       std::to_string(s.settlements)});
  }
}

// C-5, C-6: a table-wide total limited by the game's components.
void check_table_sum(const std::vector<PlayerSheet>& sheets, const CountRange& r,
                     std::string_view rule, std::int64_t in_game, RuleErrors& out) {
  if (!all_in_range(sheets, r)) return;
  std::int64_t sum = 0;
  for (const auto& s : sheets) sum += s.*r.count;
  if (sum <= in_game) return;
  out.push_back({std::string(rule), "", std::string(r.field),
                 "the table's " + std::string(r.field) + " add up to " + std::to_string(sum) +
                     " (" + contributions(sheets, r.count) + "); the game has only " +
                     std::to_string(in_game)});
}

// C-8: the longest road is at least 1 and no longer than the roads built.
void check_longest_road(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    bool roads_ok = in_range(s, kRoads);
    std::int32_t limit = roads_ok ? s.roads : *kRoads.max;
    if (s.longest_road >= 1 && s.longest_road <= limit) continue;
    std::string message;
    if (s.longest_road < 1) {
      message =
          "longest_road must be at least 1; " + s.player + " has " + std::to_string(s.longest_road);
    } else if (roads_ok) {
      message = s.player + "'s longest road (" + std::to_string(s.longest_road) +
                ") is longer than the " + std::to_string(s.roads) + " roads built";
    } else {
      message = "the longest road must be between 1 and " + std::to_string(limit) + "; " +
                s.player + " has " + std::to_string(s.longest_road);
    }
    out.push_back({"C-8", s.player, "longest_road", std::move(message)});
  }
}

void check_title(const std::vector<PlayerSheet>& sheets, const Title& t, RuleErrors& out) {
  const std::string rule(t.rule), name(t.name), field(t.holder_field);
  std::int32_t top = 0;
  for (const auto& s : sheets) top = std::max(top, s.*t.count);
  std::vector<std::string> at_top, holders_at_top;
  for (const auto& s : sheets) {
    if (s.*t.count == top) at_top.push_back(s.player);
    if (s.*t.count == top && s.*t.holder) holders_at_top.push_back(s.player);
  }

  if (top < t.minimum) {
    for (const auto& s : sheets) {
      if (!(s.*t.holder)) continue;
      out.push_back({rule, s.player, field,
                     s.player + " holds " + name + " with " + t.amount(s.*t.count) + "; " + name +
                         " needs at least " + t.amount(t.minimum) + ", so nobody holds it"});
    }
    return;
  }
  bool any_holder = false;
  for (const auto& s : sheets) {
    if (!(s.*t.holder)) continue;
    any_holder = true;
    if (s.*t.count == top) continue;
    out.push_back({rule, s.player, field,
                   s.player + " holds " + name + " with " + t.amount(s.*t.count) + ", but " +
                       names(at_top) + (at_top.size() == 1 ? " has " : " have ") + t.amount(top) +
                       "; the holder has the most at the table"});
  }
  if (!any_holder) {
    std::string message = at_top.size() == 1
                              ? "nobody holds " + name + ", but " + at_top[0] + " has " +
                                    t.amount(top) + ": mark " + at_top[0] + " as the holder"
                              : "nobody holds " + name + ": " + names(at_top) + " are tied at " +
                                    t.amount(top) + "; mark the one who got there first";
    out.push_back({rule, at_top.size() == 1 ? at_top[0] : "", field, std::move(message)});
  }
  if (holders_at_top.size() > 1) {
    for (const auto& h : holders_at_top) {
      out.push_back({rule, h, field,
                     name + " is marked for " + names(holders_at_top) +
                         "; exactly one player holds it (of those tied, the one who got there "
                         "first)"});
    }
  }
}

// C-10: the VP the table wrote down, when given, is the VP the sheet is worth.
void check_written_vp(const std::vector<PlayerSheet>& sheets, RuleErrors& out) {
  for (const auto& s : sheets) {
    if (!s.written_vp) continue;
    if (!in_range(s, kSettlements) || !in_range(s, kCities) || !in_range(s, kVpCards)) continue;
    std::int64_t vp = vp_of(s);
    if (*s.written_vp == vp) continue;
    out.push_back({"C-10", s.player, "vp",
                   "the table wrote " + std::to_string(*s.written_vp) + " VP for " + s.player +
                       ", but the result is worth " + std::to_string(vp) + " (" + vp_breakdown(s) +
                       ")"});
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

std::string where(const TableRecord& table) {
  return "table " + std::to_string(table.table) + " of round " + std::to_string(table.round);
}

}  // namespace

RuleErrors check_roster(const TableRecord& table, const std::vector<PlayerSheet>& result) {
  RuleErrors out;
  if (result.size() < kMinPlayers || result.size() > kMaxPlayers) {
    out.push_back(
        {"C-0", "", "players",
         "a Catan table has 3 or 4 players; the result lists " + std::to_string(result.size())});
  }
  if (!table.seated) {
    out.push_back({"C-0", "", "players", where(table) + " is not seated"});
    return out;
  }
  std::set<std::string> listed;
  for (const auto& s : result) {
    if (!listed.insert(s.player).second) {
      out.push_back({"C-0", s.player, "player", s.player + " is listed more than once"});
    } else if (std::find(table.players.begin(), table.players.end(), s.player) ==
               table.players.end()) {
      out.push_back({"C-0", s.player, "player",
                     s.player + " is not seated at " + where(table) +
                         " (seated: " + names(table.players) + ")"});
    }
  }
  for (const auto& p : table.players) {
    if (!listed.contains(p)) {
      out.push_back(
          {"C-0", p, "players", p + " is seated at this table but missing from the result"});
    }
  }
  return out;
}

RuleErrors check_sheets(const std::vector<PlayerSheet>& result) {
  RuleErrors out;
  for (const auto& range : kCountRanges) check_range(result, range, out);      // C-1, 2, 4, 6, 8
  check_starting_settlements(result, out);                                     // C-3
  check_table_sum(result, kVpCards, "C-5", kVpCardsInGame, out);               // C-5
  check_table_sum(result, kKnights, "C-6", kKnightsInGame, out);               // C-6
  if (all_in_range(result, kKnights)) check_title(result, kLargestArmy, out);  // C-7
  check_longest_road(result, out);                                             // C-8
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
                   c + " is recorded as claiming the win with " + std::to_string(vp_of(*s)) +
                       " VP; a claim needs " + std::to_string(kClaimVp) + " VP or more"});
  }
  // C-11: with two or more players at 10+, exactly one of them is the claimant.
  std::vector<std::string> eligible, eligible_claimants;
  std::string eligible_vp;
  for (const auto& s : result) {
    if (vp_of(s) < kClaimVp) continue;
    eligible.push_back(s.player);
    eligible_vp += (eligible_vp.empty() ? "" : ", ") + s.player + " " + std::to_string(vp_of(s));
    if (std::find(claimants.begin(), claimants.end(), s.player) != claimants.end()) {
      eligible_claimants.push_back(s.player);
    }
  }
  if (eligible.size() >= 2 && eligible_claimants.empty()) {
    out.push_back({"C-11", "", field,
                   names(eligible) + " have " + std::to_string(kClaimVp) + " VP or more (" +
                       eligible_vp + "): record which of them claimed the win"});
  }
  if (eligible.size() >= 2 && eligible_claimants.size() > 1) {
    for (const auto& c : eligible_claimants) {
      out.push_back({"C-11", c, field,
                     names(eligible_claimants) +
                         " are all recorded as claiming the win; exactly one of the players with " +
                         std::to_string(kClaimVp) + " VP or more claimed it"});
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
    return {{"C-0", player, "player", player + " is not seated at " + where(table)}};
  }
  for (const auto& c : table.claims) {
    if (c.player == player) {
      return {{"C-11", player, "player",
               player + " is already recorded as claiming the win (event " + std::to_string(c.seq) +
                   ")"}};
    }
  }
  auto claimants = table.claimants();
  if (std::find(claimants.begin(), claimants.end(), player) != claimants.end()) {
    return {{"C-11", player, "player",
             player + " is already recorded as claiming the win in the table's result"}};
  }
  if (!table.result) {
    // Without VP, only the number of claimants can be judged: more than one never passes.
    if (claimants.empty()) return {};
    return {{"C-11", player, "player",
             names(claimants) + " is already recorded as claiming the win; only one player "
                                "claims it (void or correct that claim first if it is wrong)"}};
  }
  claimants.push_back(player);  // the result in effect passed C-1 … C-10 when it was entered
  return check_claims(*table.result, claimants, "player");
}

}  // namespace tally::projections::catan
