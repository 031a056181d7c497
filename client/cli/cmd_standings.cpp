// tally standings [--as-of SEQ] [--json | --csv].
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/standings_view.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

int standings(Context& ctx) {
  if (ctx.args.has("json") && ctx.args.has("csv")) throw usage_error("cli.standings.json_or_csv");
  std::string target = "/v1/tournaments/" + url_encode(ctx.tournament()) + "/standings";
  if (auto as_of = ctx.args.value("as-of")) target += "?as_of=" + url_encode(*as_of);
  json::value answer = ctx.session().read(target);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  if (ctx.args.has("csv")) {
    ctx.out << standings_csv(answer.as_object());
    return kOk;
  }
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  if (answer.as_object().contains("as_of")) {
    ctx.out << ctx.say(
        i18n::Message("cli.standings.heading_as_of",
                      {{"tournament", info.name}, {"seq", cell_text(answer.at("as_of"))}}));
  } else {
    ctx.out << ctx.say(
        i18n::Message("cli.standings.heading",
                      {{"tournament", info.name}, {"seq", cell_text(answer.at("seq"))}}));
  }
  ctx.out << "\n";
  print_standings(ctx.out, answer.as_object(), ctx.lang);
  return kOk;
}

}  // namespace

std::vector<Command> standings_commands() {
  return {
      {"standings",
       "[--as-of SEQ] [--json | --csv]",
       "cli.cmd.standings.summary",
       "cli.cmd.standings.details",
       {{"as-of", 0, "SEQ", "cli.option.as_of"},
        {"json", 0, "", "cli.option.json"},
        {"csv", 0, "", "cli.option.csv"}},
       0,
       0,
       true,
       standings},
  };
}

}  // namespace tally::cli
