// tally tournament create | list | show.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

int create(Context& ctx) {
  const std::string& id = ctx.args.positionals.at(0);
  auto name = ctx.args.value("name");
  auto game = ctx.args.value("game");
  if (!name || !game) throw usage_error("cli.tournament.needs_name_game");
  json::object body{{"id", id}, {"name", *name}, {"game", *game}};
  if (auto locale = ctx.args.value("locale")) body["locale"] = *locale;
  if (auto rules = ctx.args.value("rules")) {
    // --rules '{"rounds":5}' or --rules @rules.json
    std::string text = rules->rfind("@", 0) == 0 ? read_input_file(ctx, rules->substr(1)) : *rules;
    json::value parsed = parse_json_input(text, "--rules");
    if (!parsed.is_object()) throw Failure(kInvalid, "cli.tournament.rules_not_object");
    body["rules"] = parsed;
  }
  json::value answer =
      ctx.session().expect(ctx.session().send(tally::net::http::verb::post, "/v1/tournaments", body));
  const auto& o = answer.as_object();
  std::string locale = text_member(o, "locale");
  i18n::Message created(locale.empty() ? "cli.tournament.created" : "cli.tournament.created_locale",
                        {{"id", text_member(o, "id")},
                         {"name", text_member(o, "name")},
                         {"game", text_member(o, "game")},
                         {"seq", cell_text(o.at("seq"))}});
  if (!locale.empty()) created.with("locale", locale);
  ctx.out << ctx.say(created) << "\n";
  ctx.out << ctx.say(
                 i18n::Message("cli.tournament.rules", {{"rules", json::serialize(o.at("rules"))}}))
          << "\n";
  return kOk;
}

int list(Context& ctx) {
  json::value answer = ctx.session().read("/v1/tournaments");
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  if (answer.as_array().empty()) {
    ctx.out << ctx.say("cli.tournament.none") << "\n";
    return kOk;
  }
  TextTable table({{ctx.say("cli.column.id")},
                   {ctx.say("cli.column.name")},
                   {ctx.say("cli.tournament.column.game")},
                   {ctx.say("cli.tournament.column.players"), TextTable::Align::right},
                   {ctx.say("cli.tournament.column.rounds"), TextTable::Align::right}});
  for (const auto& t : answer.as_array()) {
    const auto& o = t.as_object();
    table.add_row({text_member(o, "id"), text_member(o, "name"), text_member(o, "game"),
                   cell_text(o.at("players")), cell_text(o.at("rounds"))});
  }
  table.print(ctx.out);
  return kOk;
}

int show(Context& ctx) {
  std::string id = ctx.args.positionals.empty() ? ctx.tournament() : ctx.args.positionals[0];
  TournamentInfo info = load_tournament(ctx.session(), id);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(info.raw) << "\n";
    return kOk;
  }
  const json::object& t = info.raw;
  std::string locale = text_member(t, "locale");
  i18n::Message heading(
      locale.empty() ? "cli.tournament.heading" : "cli.tournament.heading_locale",
      {{"name", info.name}, {"id", info.id}, {"game", info.game}, {"seq", cell_text(t.at("seq"))}});
  if (!locale.empty()) heading.with("locale", locale);
  ctx.out << ctx.say(heading) << "\n";
  ctx.out << ctx.say(
                 i18n::Message("cli.tournament.rules", {{"rules", json::serialize(t.at("rules"))}}))
          << "\n";

  int active = 0;
  for (const auto& p : info.players) active += p.dropped ? 0 : 1;
  ctx.out << "\n"
          << ctx.say(i18n::Message("cli.tournament.players",
                                   {{"count", info.players.size()}, {"active", active}}))
          << "\n";
  if (!info.players.empty()) {
    TextTable players(
        {{ctx.say("cli.column.id")}, {ctx.say("cli.column.name")}, {ctx.say("cli.column.status")}});
    for (const auto& p : info.players) {
      players.add_row(
          {p.id, p.name,
           ctx.say(p.dropped ? "cli.tournament.player_dropped" : "cli.tournament.player_active")});
    }
    players.print(ctx.out, "  ");
  }
  const auto& rounds = t.at("rounds").as_array();
  ctx.out << "\n"
          << ctx.say(i18n::Message("cli.tournament.rounds", {{"count", rounds.size()}})) << "\n";
  for (const auto& r : rounds) {
    const auto& o = r.as_object();
    ctx.out << "  "
            << ctx.say(i18n::Message("cli.round.line", {{"round", cell_text(o.at("round"))},
                                                        {"progress", round_progress(ctx.lang, o)}}))
            << "\n";
  }
  if (t.contains("notices") && !t.at("notices").as_array().empty()) {
    ctx.out << "\n" << ctx.say("cli.tournament.notices") << "\n";
    for (const auto& n : t.at("notices").as_array()) ctx.out << "  - " << cell_text(n) << "\n";
  }
  return kOk;
}

const OptionSpec kJson{"json", 0, "", "cli.option.json"};

}  // namespace

std::vector<Command> tournament_commands() {
  return {
      {"tournament create",
       "ID --name NAME --game GAME [--locale LOCALE] [--rules JSON|@FILE]",
       "cli.cmd.tournament_create.summary",
       "cli.cmd.tournament_create.details",
       {{"name", 0, "NAME", "cli.option.tournament_name"},
        {"game", 0, "GAME", "cli.option.game"},
        {"locale", 0, "LOCALE", "cli.option.locale"},
        {"rules", 0, "JSON|@FILE", "cli.option.rules"}},
       1,
       1,
       false,
       create},
      {"tournament list",
       "[--json]",
       "cli.cmd.tournament_list.summary",
       "",
       {kJson},
       0,
       0,
       false,
       list},
      {"tournament show",
       "[ID] [--json]",
       "cli.cmd.tournament_show.summary",
       "cli.cmd.tournament_show.details",
       {kJson},
       0,
       1,
       true,
       show},
  };
}

}  // namespace tally::cli
