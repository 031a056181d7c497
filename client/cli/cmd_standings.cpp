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
  if (ctx.args.has("json") && ctx.args.has("csv")) throw usage_error("--json or --csv, not both");
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
  ctx.out << info.name << ": standings";
  if (answer.as_object().contains("as_of")) {
    ctx.out << " as of event #" << cell_text(answer.at("as_of")) << "\n";
  } else {
    ctx.out << " after event #" << cell_text(answer.at("seq")) << "\n";
  }
  print_standings(ctx.out, answer.as_object());
  return kOk;
}

}  // namespace

std::vector<Command> standings_commands() {
  return {
      {"standings",
       "[--as-of SEQ] [--json | --csv]",
       "Show the standings, now or as they were",
       "Points that can be fractional are shown with two decimals (the server keeps them\n"
       "exact; --json shows both). --as-of shows the standings right after event SEQ.\n"
       "--csv writes: rank,player,name, then the game's columns (see docs/cli.md).",
       {{"as-of", 0, "SEQ", "the standings as they were after event SEQ"},
        {"json", 0, "", "print the server's JSON answer"},
        {"csv", 0, "", "print CSV for a spreadsheet"}},
       0,
       0,
       true,
       standings},
  };
}

}  // namespace tally::cli
