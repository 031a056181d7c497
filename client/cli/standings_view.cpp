#include "client/cli/standings_view.hpp"

#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

namespace tally::cli {

namespace json = boost::json;

namespace {

const json::array& rows_of(const json::object& standings) {
  static const json::array none;
  auto it = standings.find("rows");
  return it != standings.end() && it->value().is_array() ? it->value().as_array() : none;
}

// The members of the rows, in the order they first appear.
std::vector<std::string> member_order(const json::array& rows) {
  std::vector<std::string> keys;
  for (const auto& r : rows) {
    for (const auto& [key, value] : r.as_object()) {
      std::string k(key);
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
  }
  return keys;
}

// The rounds that appear in AGoT's per-round results.
std::vector<std::int64_t> result_rounds(const json::array& rows) {
  std::set<std::int64_t> rounds;
  for (const auto& r : rows) {
    auto it = r.as_object().find("results");
    if (it == r.as_object().end() || !it->value().is_array()) continue;
    for (const auto& g : it->value().as_array())
      rounds.insert(g.at("round").to_number<std::int64_t>());
  }
  return {rounds.begin(), rounds.end()};
}

const json::object* result_in_round(const json::object& row, std::int64_t round) {
  auto it = row.find("results");
  if (it == row.end() || !it->value().is_array()) return nullptr;
  for (const auto& g : it->value().as_array()) {
    if (g.at("round").to_number<std::int64_t>() == round) return &g.as_object();
  }
  return nullptr;
}

// The heading of a standings member in `lang`; a member this CLI does not know as it is named.
std::string label(i18n::Lang lang, const std::string& key) {
  static const std::map<std::string, const char*> labels = {
      {"player", "cli.column.id"},
      {"name", "cli.column.name"},
      {"games", "cli.standings.column.games"},
      {"round_points", "cli.standings.column.round_points"},
      {"vp", "cli.standings.column.vp"},
      {"vp_share", "cli.standings.column.vp_share"},
      {"wins", "cli.standings.column.wins"},
      {"buchholz", "cli.standings.column.buchholz"},
      {"score_diff", "cli.standings.column.score_diff"},
      {"score", "cli.standings.column.score"},
      {"byes", "cli.standings.column.byes"},
      {"total", "cli.standings.column.total"},
      {"capitals_captured", "cli.standings.column.capitals"},
      {"lands_captured", "cli.standings.column.lands"},
      {"next_league", "cli.standings.column.next_league"},
  };
  auto it = labels.find(key);
  return it == labels.end() ? key : say(lang, it->second);
}

bool numeric(const json::value& v) { return v.is_number() || is_rational(v); }

// Columns other than rank, player, name, dropped and results, in the rows' order.
std::vector<std::string> value_keys(const json::array& rows) {
  std::vector<std::string> out;
  for (const auto& k : member_order(rows)) {
    if (k != "rank" && k != "player" && k != "name" && k != "dropped" && k != "results") {
      out.push_back(k);
    }
  }
  return out;
}

bool has_member(const json::array& rows, const char* key) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const json::value& r) { return r.as_object().contains(key); });
}

const json::value& member(const json::object& row, const std::string& key) {
  static const json::value null;
  auto it = row.find(key);
  return it == row.end() ? null : it->value();
}

std::set<std::string> conquerors(const json::object& standings) {
  std::set<std::string> out;
  auto it = standings.find("conqueror");
  if (it != standings.end() && it->value().is_array()) {
    for (const auto& p : it->value().as_array()) out.insert(std::string(p.as_string()));
  }
  return out;
}

}  // namespace

// S-8's final places of a staged tournament, once its last stage is over: place, name, stage.
void print_final(std::ostream& out, const json::array& final, i18n::Lang lang) {
  out << say(lang, "cli.standings.final") << "\n";
  TextTable table({{"#", TextTable::Align::right},
                   {label(lang, "name")},
                   {label(lang, "player")},
                   {say(lang, "cli.standings.column.stage")}});
  for (const auto& r : final) {
    const auto& row = r.as_object();
    std::string place = cell_text(member(row, "place"));
    if (member(row, "shared").is_bool() && member(row, "shared").as_bool()) place += "=";
    table.add_row(
        {place, shown(lang, member(row, "name")), cell_text(member(row, "player")),
         say(lang, i18n::Message("stages.kind." + cell_text(member(row, "stage_kind"))))});
  }
  table.print(out);
  out << "\n" << say(lang, "cli.standings.rounds_stage") << "\n";
}

void print_standings(std::ostream& out, const json::object& standings, i18n::Lang lang) {
  if (const json::value* final = standings.if_contains("final"); final && final->is_array())
    print_final(out, final->as_array(), lang);
  const json::array& rows = rows_of(standings);
  if (rows.empty()) {
    out << say(lang, "cli.standings.no_players") << "\n";
    return;
  }
  std::vector<std::int64_t> rounds = result_rounds(rows);
  std::vector<std::string> keys = value_keys(rows);
  std::vector<TextTable::Column> columns = {
      {"#", TextTable::Align::right}, {label(lang, "name")}, {label(lang, "player")}};
  // `games` comes first among the values, then the per-round results, then the rest.
  auto games = std::find(keys.begin(), keys.end(), "games");
  bool has_games = games != keys.end();
  if (has_games) {
    keys.erase(games);
    columns.push_back({label(lang, "games"), TextTable::Align::right});
  }
  for (auto round : rounds) {
    columns.push_back({say(lang, i18n::Message("cli.standings.column.round", {{"round", round}})),
                       TextTable::Align::right});
  }
  for (const auto& k : keys) {
    bool right = std::any_of(rows.begin(), rows.end(), [&](const json::value& r) {
      return numeric(member(r.as_object(), k));
    });
    columns.push_back({label(lang, k), right ? TextTable::Align::right : TextTable::Align::left});
  }
  TextTable table(columns);
  bool any_dropped = false;
  for (const auto& r : rows) {
    const auto& row = r.as_object();
    std::string name = shown(lang, member(row, "name"));
    if (member(row, "dropped").is_bool() && member(row, "dropped").as_bool()) {
      name = say(lang, i18n::Message("cli.standings.dropped_player", {{"name", name}}));
    }
    std::vector<std::string> cells = {shown(lang, member(row, "rank")), name,
                                      cell_text(member(row, "player"))};
    if (has_games) cells.push_back(shown(lang, member(row, "games")));
    for (auto round : rounds) {
      const json::object* g = result_in_round(row, round);
      std::string points = g == nullptr ? "-" : shown(lang, g->at("points"));
      bool dropped = g != nullptr && g->contains("dropped") && g->at("dropped").as_bool();
      any_dropped = any_dropped || dropped;
      cells.push_back(dropped ? "(" + points + ")" : points);
    }
    for (const auto& k : keys) {
      const json::value& v = member(row, k);
      cells.push_back(k == "vp_share" && numeric(v) ? shown_percent(lang, v) : shown(lang, v));
    }
    table.add_row(std::move(cells));
  }
  table.print(out);
  std::set<std::string> conq = conquerors(standings);
  if (!conq.empty()) {
    std::string names;
    for (const auto& r : rows) {
      std::string id = cell_text(member(r.as_object(), "player"));
      if (conq.count(id))
        names += (names.empty() ? "" : ", ") + cell_text(member(r.as_object(), "name"));
    }
    out << say(lang,
               i18n::Message("cli.standings.conqueror", {{"count", conq.size()}, {"names", names}}))
        << "\n";
  }
  if (any_dropped) out << say(lang, "cli.standings.dropped_note") << "\n";
}

std::string standings_csv(const json::object& standings) {
  const json::array& rows = rows_of(standings);
  std::vector<std::int64_t> rounds = result_rounds(rows);
  std::vector<std::string> keys = value_keys(rows);
  bool dropped_column = has_member(rows, "dropped");
  bool conqueror_column = standings.contains("conqueror");
  std::set<std::string> conq = conquerors(standings);

  std::vector<std::string> header = {"rank", "player", "name"};
  auto games = std::find(keys.begin(), keys.end(), "games");
  bool has_games = games != keys.end();
  if (has_games) {
    keys.erase(games);
    header.push_back("games");
  }
  for (auto round : rounds) header.push_back("r" + std::to_string(round));
  if (!rounds.empty()) header.push_back("dropped_rounds");
  for (const auto& k : keys) header.push_back(k == "vp_share" ? "vp_share_percent" : k);
  if (dropped_column) header.push_back("dropped");
  if (conqueror_column) header.push_back("conqueror");
  // A staged tournament that is over: each player's final place (S-8) and the stage it ended in.
  std::map<std::string, const json::object*> final_of;
  if (const json::value* final = standings.if_contains("final"); final && final->is_array()) {
    for (const auto& r : final->as_array())
      final_of[cell_text(member(r.as_object(), "player"), "")] = &r.as_object();
    header.push_back("final_place");
    header.push_back("final_stage");
  }

  auto csv_cell = [](const json::value& v) { return cell_text(v, ""); };
  std::string out = csv_line(header);
  for (const auto& r : rows) {
    const auto& row = r.as_object();
    std::string id = cell_text(member(row, "player"), "");
    std::vector<std::string> cells = {csv_cell(member(row, "rank")), csv_text(id),
                                      csv_text(cell_text(member(row, "name"), ""))};
    if (has_games) cells.push_back(csv_cell(member(row, "games")));
    std::string dropped_rounds;
    for (auto round : rounds) {
      const json::object* g = result_in_round(row, round);
      cells.push_back(g == nullptr ? "" : csv_cell(g->at("points")));
      if (g != nullptr && g->contains("dropped") && g->at("dropped").as_bool()) {
        dropped_rounds += (dropped_rounds.empty() ? "" : " ") + std::to_string(round);
      }
    }
    if (!rounds.empty()) cells.push_back(dropped_rounds);
    for (const auto& k : keys) {
      const json::value& v = member(row, k);
      cells.push_back(k == "vp_share" && numeric(v) ? percent(v) : csv_cell(v));
    }
    if (dropped_column)
      cells.push_back(
          csv_cell(member(row, "dropped").is_bool() ? member(row, "dropped") : json::value(false)));
    if (conqueror_column) cells.push_back(conq.count(id) ? "true" : "false");
    if (!final_of.empty()) {
      auto it = final_of.find(id);
      cells.push_back(it == final_of.end() ? "" : csv_cell(member(*it->second, "place")));
      cells.push_back(it == final_of.end() ? "" : cell_text(member(*it->second, "stage_kind"), ""));
    }
    out += csv_line(cells);
  }
  return out;
}

}  // namespace tally::cli
