// tally tournament create | list | show.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
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
  if (!name || !game) throw usage_error("a tournament needs --name and --game");
  json::object body{{"id", id}, {"name", *name}, {"game", *game}};
  if (auto locale = ctx.args.value("locale")) body["locale"] = *locale;
  if (auto rules = ctx.args.value("rules")) {
    // --rules '{"rounds":5}' or --rules @rules.json
    std::string text = rules->rfind("@", 0) == 0 ? read_input_file(ctx, rules->substr(1)) : *rules;
    json::value parsed = parse_json_input(text, "--rules");
    if (!parsed.is_object()) throw Failure(kInvalid, "--rules must be a JSON object");
    body["rules"] = parsed;
  }
  json::value answer =
      ctx.session().expect(ctx.session().send(client::http::verb::post, "/v1/tournaments", body));
  const auto& o = answer.as_object();
  ctx.out << "Created tournament " << text_member(o, "id") << " \"" << text_member(o, "name")
          << "\" (" << text_member(o, "game");
  if (std::string locale = text_member(o, "locale"); !locale.empty())
    ctx.out << ", locale " << locale;
  ctx.out << ", event #" << json::serialize(o.at("seq")) << ").\n";
  ctx.out << "Rules: " << json::serialize(o.at("rules")) << "\n";
  return kOk;
}

int list(Context& ctx) {
  json::value answer = ctx.session().read("/v1/tournaments");
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  if (answer.as_array().empty()) {
    ctx.out << "No tournaments yet.\n";
    return kOk;
  }
  TextTable table({{"ID"},
                   {"Name"},
                   {"Game"},
                   {"Players", TextTable::Align::right},
                   {"Rounds", TextTable::Align::right}});
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
  ctx.out << info.name << " (" << info.id << "): " << info.game;
  if (std::string locale = text_member(t, "locale"); !locale.empty())
    ctx.out << ", locale " << locale;
  ctx.out << ", as of event #" << json::serialize(t.at("seq")) << "\n";
  ctx.out << "Rules: " << json::serialize(t.at("rules")) << "\n";

  int active = 0;
  for (const auto& p : info.players) active += p.dropped ? 0 : 1;
  ctx.out << "\nPlayers: " << info.players.size() << " (" << active << " active)\n";
  if (!info.players.empty()) {
    TextTable players({{"ID"}, {"Name"}, {"Status"}});
    for (const auto& p : info.players) {
      players.add_row({p.id, p.name, p.dropped ? "dropped" : "active"});
    }
    players.print(ctx.out, "  ");
  }
  const auto& rounds = t.at("rounds").as_array();
  ctx.out << "\nRounds: " << rounds.size() << "\n";
  for (const auto& r : rounds) {
    const auto& o = r.as_object();
    ctx.out << "  Round " << cell_text(o.at("round")) << ": " << cell_text(o.at("reported"))
            << " of " << cell_text(o.at("tables_total")) << " tables reported\n";
  }
  if (t.contains("notices") && !t.at("notices").as_array().empty()) {
    ctx.out << "\nNotices:\n";
    for (const auto& n : t.at("notices").as_array()) ctx.out << "  - " << cell_text(n) << "\n";
  }
  return kOk;
}

const OptionSpec kJson{"json", 0, "", "print the server's JSON answer"};

}  // namespace

std::vector<Command> tournament_commands() {
  return {
      {"tournament create",
       "ID --name NAME --game GAME [--locale LOCALE] [--rules JSON|@FILE]",
       "Create a tournament (organizer)",
       "ID is 1–64 of a-z, 0-9 and '-'. GAME is one of the server's games (`tally games` lists\n"
       "them with their rules and defaults). LOCALE orders names in the standings (e.g. cs, it,\n"
       "ru). --rules overrides the game's defaults, as a JSON object or @FILE (see docs/games/).",
       {{"name", 0, "NAME", "the tournament's name"},
        {"game", 0, "GAME", "the game, e.g. catan (`tally games` lists them)"},
        {"locale", 0, "LOCALE", "collation locale of names (default: root)"},
        {"rules", 0, "JSON|@FILE", "rule overrides"}},
       1,
       1,
       false,
       create},
      {"tournament list", "[--json]", "List the tournaments", "", {kJson}, 0, 0, false, list},
      {"tournament show",
       "[ID] [--json]",
       "Show a tournament: rules, players, rounds, notices for the organizer",
       "ID defaults to the current tournament (-t, TALLY_TOURNAMENT, or the stored one).",
       {kJson},
       0,
       1,
       true,
       show},
  };
}

}  // namespace tally::cli
