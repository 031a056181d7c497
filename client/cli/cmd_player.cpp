// tally player add | drop | import.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

namespace tally::cli {

namespace json = boost::json;
using tally::net::http::verb;

namespace {

std::string players_path(Context& ctx) {
  return "/v1/tournaments/" + url_encode(ctx.tournament()) + "/players";
}

int add(Context& ctx) {
  json::object body{{"name", ctx.args.positionals.at(0)}};
  if (auto id = ctx.args.value("id")) body["id"] = *id;
  json::value answer =
      ctx.session().expect(ctx.session().send(verb::post, players_path(ctx), body));
  ctx.out << ctx.say(i18n::Message("cli.player.added",
                                   {{"name", text_member(answer.as_object(), "name")},
                                    {"id", text_member(answer.as_object(), "id")},
                                    {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  return kOk;
}

int drop(Context& ctx) {
  auto reason = ctx.args.value("reason");
  if (!reason || reason->empty()) throw usage_error("cli.player.drop_needs_reason");
  const std::string& player = ctx.args.positionals.at(0);
  json::value answer = ctx.session().expect(
      ctx.session().send(verb::post, players_path(ctx) + "/" + url_encode(player) + "/drop",
                         json::object{{"reason", *reason}}));
  ctx.out << ctx.say(i18n::Message("cli.player.dropped",
                                   {{"player", player}, {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  return kOk;
}

// --- import --------------------------------------------------------------------------------

// The status of an import row as the organizer reads it.
std::string status_text(Context& ctx, const json::object& row) {
  std::string status = text_member(row, "status");
  if (status == "changed") {
    return ctx.say(i18n::Message("cli.import.status_changed",
                                 {{"previous", text_member(row, "previous_name")}}));
  }
  if (status == "possible_duplicate" || (status == "added" && row.contains("matches"))) {
    std::string matches;
    for (const auto& m : row.at("matches").as_array()) {
      matches += (matches.empty() ? "" : ", ") + text_member(m.as_object(), "name") + " (" +
                 text_member(m.as_object(), "id") + ")";
    }
    return ctx.say(i18n::Message(
        status == "added" ? "cli.import.status_added_same_name" : "cli.import.status_duplicate",
        {{"matches", matches}}));
  }
  return ctx.say(status == "added" ? "cli.import.status_added" : "cli.import.status_unchanged");
}

// The server reads the file and says what importing it does (POST …/players/import/check),
// the same plan it then carries out: nobody is registered twice, a changed name is a rename,
// and a name like one already registered waits for the organizer (--add-possible-duplicates).
int import(Context& ctx) {
  const std::string& file = ctx.args.positionals.at(0);
  json::object body{{"csv", read_input_file(ctx, file)}};
  if (ctx.args.has("add-possible-duplicates")) body["add_possible_duplicates"] = true;
  bool dry_run = ctx.args.has("dry-run");
  std::string path = players_path(ctx) + "/import" + (dry_run ? "/check" : "");
  json::value answer = ctx.session().expect(ctx.session().send(verb::post, path, body));
  const json::object& plan = answer.as_object();
  TextTable table({{ctx.say("cli.column.line")},
                   {ctx.say("cli.column.id")},
                   {ctx.say("cli.column.name")},
                   {ctx.say("cli.column.status")}});
  for (const auto& row : plan.at("rows").as_array()) {
    const json::object& r = row.as_object();
    table.add_row({cell_text(r.at("line")), text_member(r, "id"), text_member(r, "name"),
                   status_text(ctx, r)});
  }
  table.print(ctx.out);
  auto count = [&](const char* key) { return plan.at(key).to_number<std::int64_t>(); };
  ctx.out << ctx.say(i18n::Message(dry_run ? "cli.import.would_do" : "cli.import.done",
                                   {{"added", count("added")},
                                    {"changed", count("changed")},
                                    {"unchanged", count("unchanged")},
                                    {"duplicates", count("possible_duplicates")}}))
          << "\n";
  return kOk;
}

}  // namespace

std::vector<Command> player_commands() {
  return {
      {"player add",
       "NAME [--id ID]",
       "cli.cmd.player_add.summary",
       "cli.cmd.player_add.details",
       {{"id", 0, "ID", "cli.option.player_id"}},
       1,
       1,
       true,
       add},
      {"player drop",
       "PLAYER --reason TEXT",
       "cli.cmd.player_drop.summary",
       "",
       {{"reason", 0, "TEXT", "cli.option.reason_audit"}},
       1,
       1,
       true,
       drop},
      {"player import",
       "FILE.csv [--dry-run] [--add-possible-duplicates]",
       "cli.cmd.player_import.summary",
       "cli.cmd.player_import.details",
       {{"dry-run", 0, "", "cli.option.import_dry_run"},
        {"add-possible-duplicates", 0, "", "cli.option.import_add_duplicates"}},
       1,
       1,
       true,
       import},
  };
}

}  // namespace tally::cli
