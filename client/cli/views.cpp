#include "client/cli/views.hpp"
#include "client/cli/text.hpp"

#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text_table.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <ostream>

namespace tally::cli {

namespace json = boost::json;

std::string text_member(const json::object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_string() ? printable(it->value().as_string()) : "";
}

std::string TournamentInfo::name_of(const std::string& player) const {
  for (const auto& p : players) {
    if (p.id == player) return p.name;
  }
  return player;
}

std::string TournamentInfo::label_of(const std::string& player) const {
  std::string name = name_of(player);
  return name == player ? player : name + " (" + player + ")";
}

TournamentInfo load_tournament(Session& session, const std::string& tournament) {
  return tournament_info(session.read(tournament_path(tournament)));
}

std::string tournament_path(const std::string& tournament) {
  return "/v1/tournaments/" + url_encode(tournament);
}

TournamentInfo tournament_info(const json::value& body) {
  TournamentInfo info;
  info.raw = body.as_object();
  info.id = text_member(info.raw, "id");
  info.name = text_member(info.raw, "name");
  info.game = text_member(info.raw, "game");
  if (info.raw.contains("players")) {
    for (const auto& p : info.raw.at("players").as_array()) {
      const auto& o = p.as_object();
      info.players.push_back({text_member(o, "id"), text_member(o, "name"),
                              o.contains("dropped") && o.at("dropped").as_bool()});
    }
  }
  return info;
}

json::object load_round(Session& session, const std::string& tournament, std::uint64_t round) {
  return session
      .read("/v1/tournaments/" + url_encode(tournament) + "/rounds/" + std::to_string(round))
      .as_object();
}

json::object table_of(const json::object& round, std::uint64_t number) {
  for (const auto& t : round.at("tables").as_array()) {
    if (t.at("table").to_number<std::uint64_t>() == number) return t.as_object();
  }
  throw Failure(kNotFound,
                i18n::Message("cli.round.no_table", {{"round", cell_text(round.at("round"))},
                                                     {"table", std::to_string(number)}}));
}

std::string table_path(const std::string& tournament, std::uint64_t round, std::uint64_t table) {
  return "/v1/tournaments/" + url_encode(tournament) + "/rounds/" + std::to_string(round) +
         "/tables/" + std::to_string(table);
}

namespace {

// Formats an API time (ISO-8601 UTC) in local time with strftime's `format`; nullopt when the
// text is not such a time.
std::optional<std::string> format_local(const std::string& iso, const char* format) {
  std::tm utc{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &year, &month, &day, &hour, &minute,
                  &second) != 6) {
    return std::nullopt;
  }
  utc.tm_year = year - 1900;
  utc.tm_mon = month - 1;
  utc.tm_mday = day;
  utc.tm_hour = hour;
  utc.tm_min = minute;
  utc.tm_sec = second;
  std::time_t when = timegm(&utc);
  std::tm local{};
  localtime_r(&when, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, format, &local);
  return std::string(buffer);
}

}  // namespace

std::string local_time(const std::string& iso) {
  return format_local(iso, "%Y-%m-%d %H:%M:%S").value_or(iso);
}

std::string local_clock(const std::string& iso) { return format_local(iso, "%H:%M").value_or(iso); }

std::string utc_now() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()) % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[40];
  std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(buffer + n, sizeof buffer - n, ".%03dZ", static_cast<int>(millis.count()));
  return buffer;
}

std::string entered_by_at(const json::object& table, i18n::Lang lang) {
  if (!table.contains("entered_by") || !table.at("entered_by").is_object()) return "";
  const auto& by = table.at("entered_by").as_object();
  std::string who = text_member(by, "name");
  if (who.empty()) who = text_member(by, "id");
  return say(
      lang, i18n::Message("cli.entry.by_at",
                          {{"who", who}, {"time", local_clock(text_member(table, "entered_at"))}}));
}

std::string entry_summary(const json::object& table, i18n::Lang lang) {
  if (!table.contains("entered_by") || !table.at("entered_by").is_object()) return "";
  const auto& by = table.at("entered_by").as_object();
  std::string who = text_member(by, "name");
  std::string id = text_member(by, "id");
  if (who.empty()) who = id;
  if (!id.empty() && id != who) who += " (" + id + ")";
  std::string time = local_time(text_member(table, "entered_at"));
  if (table.contains("version")) {
    return say(
        lang,
        i18n::Message("cli.entry.summary_version",
                      {{"who", who}, {"time", time}, {"version", cell_text(table.at("version"))}}));
  }
  return say(lang, i18n::Message("cli.entry.summary", {{"who", who}, {"time", time}}));
}

std::string round_and_table(i18n::Lang lang, std::uint64_t round, std::uint64_t table) {
  return say(lang, i18n::Message("cli.place.round_table", {{"round", round}, {"table", table}}));
}

std::string round_progress(i18n::Lang lang, const json::object& round) {
  auto count = [&](const char* key) {
    auto it = round.find(key);
    return it != round.end() && it->value().is_number() ? it->value().to_number<std::int64_t>() : 0;
  };
  return say(lang, i18n::Message("cli.round.progress", {{"reported", count("reported")},
                                                        {"total", count("tables_total")}}));
}

namespace {

// The headings of a result's score and points: the game's own words where the CLI knows the
// game (presentation only), generic ones otherwise.
struct GameLabels {
  const char* score;
  const char* points;
};

GameLabels labels_for(const std::string& game) {
  if (game == "catan") return {"cli.result.column.vp", "cli.result.column.round_points"};
  if (game == "agot") return {"cli.result.column.castles", "cli.result.column.game_points"};
  return {"cli.result.column.score", "cli.result.column.points"};
}

// A table's status for people ("open", "reported"); a status this CLI does not know as it is.
std::string status_text(i18n::Lang lang, const std::string& status) {
  return say(lang, i18n::Message("cli.table.status", {{"status", status}}));
}

}  // namespace

void print_result(std::ostream& out, const json::value& result, const TournamentInfo& info,
                  i18n::Lang lang, const std::string& indent) {
  if (!result.is_object() || !result.as_object().contains("players")) return;
  const auto& players = result.at("players").as_array();
  bool houses = false;
  for (const auto& p : players) houses = houses || p.as_object().contains("house");
  GameLabels labels = labels_for(info.game);
  std::vector<TextTable::Column> columns = {{say(lang, "cli.result.column.place")},
                                            {say(lang, "cli.column.name")},
                                            {say(lang, "cli.column.id")}};
  if (houses) columns.push_back({say(lang, "cli.result.column.house")});
  columns.push_back({say(lang, labels.score), TextTable::Align::right});
  columns.push_back({say(lang, labels.points), TextTable::Align::right});
  TextTable table(columns);
  for (const auto& p : players) {
    const auto& o = p.as_object();
    std::string id = text_member(o, "player");
    std::vector<std::string> row = {shown(lang, o.contains("place") ? o.at("place") : nullptr),
                                    info.name_of(id), id};
    if (houses) row.push_back(text_member(o, "house"));
    row.push_back(shown(lang, o.contains("score") ? o.at("score") : nullptr));
    row.push_back(o.contains("points") ? shown_two_decimals(lang, o.at("points")) : "-");
    table.add_row(std::move(row));
  }
  table.print(out, indent);
  for (const auto& p : players) {
    const auto& o = p.as_object();
    if (o.contains("claimed_win") && o.at("claimed_win") == true) {
      out << indent
          << say(lang, i18n::Message("cli.result.claimed_win",
                                     {{"player", info.label_of(text_member(o, "player"))}}))
          << "\n";
    }
  }
  if (result.as_object().contains("bye") && result.at("bye").as_bool())
    out << indent << say(lang, "cli.result.bye") << "\n";
}

void print_table(std::ostream& out, const json::object& table, const TournamentInfo& info,
                 i18n::Lang lang) {
  std::string number = cell_text(table.at("table"));
  std::string league = text_member(table, "league");
  std::string status = text_member(table, "status");
  out << (league.empty() ? say(lang, i18n::Message("cli.table.heading", {{"table", number}}))
                         : say(lang, i18n::Message("cli.table.heading_league",
                                                   {{"table", number}, {"league", league}})))
      << ": " << status_text(lang, status);
  std::string entry = entry_summary(table, lang);
  if (!entry.empty()) out << ", " << entry;
  out << "\n";
  if (status == "reported" && table.contains("result") && table.at("result").is_object()) {
    print_result(out, table.at("result"), info, lang);
    return;
  }
  const json::object* houses = table.contains("houses") && table.at("houses").is_object()
                                   ? &table.at("houses").as_object()
                                   : nullptr;
  for (const auto& p : table.at("players").as_array()) {
    std::string id(p.as_string());
    out << "  " << info.label_of(id);
    if (houses != nullptr && houses->contains(id)) out << ": " << shown(lang, houses->at(id));
    out << "\n";
  }
  if (table.contains("totals") && table.at("totals").is_object() &&
      !table.at("totals").as_object().empty()) {
    std::string totals;
    for (const auto& [player, total] : table.at("totals").as_object()) {
      totals += (totals.empty() ? "" : " ") + std::string(player) + " " + shown(lang, total);
    }
    out << "  " << say(lang, i18n::Message("cli.table.running_totals", {{"totals", totals}}))
        << "\n";
  }
}

}  // namespace tally::cli
