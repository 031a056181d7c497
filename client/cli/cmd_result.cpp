// tally result enter / tally correct: a table's result, first entered with If-None-Match: * and
// replaced with If-Match: "<version>" and a reason. A 412 shows who entered the table, when,
// and their entry. The form is the server's description of the game's result (GET /v1/games);
// before the judge confirms, the server's check (POST …/result/check) shows what it computes.
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

struct Target {
  TournamentInfo info;
  std::uint64_t round = 0;
  std::uint64_t table = 0;
};

std::string where(const Target& t) {
  return "round " + std::to_string(t.round) + ", table " + std::to_string(t.table);
}

// The entry in effect at a table, after a 412 or before prompting for a table already entered:
// "tally: round 1, table 2: already entered by Eva at 14:32", then the entry and what to do.
void print_existing(Context& ctx, const Target& target, const json::object& table,
                    const std::string& headline) {
  ctx.err << "tally: " << where(target) << ": " << headline << "\n";
  std::string entry = entry_summary(table);
  if (!entry.empty()) ctx.err << "The result now: " << entry << "\n";
  if (table.contains("result") && table.at("result").is_object()) {
    print_result(ctx.err, table.at("result"), target.info);
  }
  ctx.err << "To replace it: tally correct " << target.round << " " << target.table << " --version "
          << cell_text(table.at("version"))
          << " --reason TEXT, with the result as for result enter\n";
}

// The game's result as the server describes it (GET /v1/games), or null for a server that
// describes no such game.
const ActionSpec* result_spec(const std::optional<GameSpec>& game) {
  if (!game) return nullptr;
  const ActionSpec* form = game->action("result");
  return form != nullptr && form->per_player ? form : nullptr;
}

// Asks the server what `body` would give (POST …/result/check: nothing is recorded) and shows
// it on `out`: the result it would compute (200), or, on 422, the rules broken by player and
// field. True when the server would accept it; any other answer throws as a request does.
bool show_check(Context& ctx, std::ostream& out, const Target& target, json::object body,
                const std::optional<std::string>& reason) {
  if (reason) body["reason"] = *reason;
  client::HttpReply reply = ctx.session().check(
      table_path(target.info.id, target.round, target.table) + "/result/check", body);
  if (reply.status == 422) {
    std::string detail = problem_detail(reply);
    ctx.err << "The server would refuse it" << (detail.empty() ? "" : ": " + detail) << "\n";
    print_problem_errors(reply, ctx.err);
    return false;
  }
  json::value answer = ctx.session().expect(reply);
  const json::value* result =
      answer.is_object() ? answer.as_object().if_contains("result") : nullptr;
  std::string as_of;
  if (answer.is_object() && answer.as_object().contains("seq")) {
    as_of = " (as of event #" + cell_text(answer.at("seq")) + ")";
  }
  if (result != nullptr && result->is_object()) {
    out << "The server computes" << as_of << ":\n";
    print_result(out, *result, target.info);
  } else {
    out << "The server accepts it" << as_of << " but shows no computed result for it.\n";
  }
  return true;
}

// The result's body from --file, --player, or prompts. With prompts (and no --yes), the entry
// and what the server computes from it are shown before "Send this result?"; an entry the
// server would refuse is shown with its errors, and the judge corrects it or gives up.
json::object gather(Context& ctx, const Target& target, const json::object* table,
                    const std::optional<GameSpec>& game, const std::optional<std::string>& reason,
                    bool correction) {
  bool from_file = ctx.args.has("file");
  bool from_flags = ctx.args.has("player");
  if (from_file && from_flags)
    throw usage_error("give the result by --file or by --player, not both");
  json::object body;
  if (from_file) {
    std::string file = *ctx.args.value("file");
    json::value parsed = parse_json_input(read_input_file(ctx, file), file);
    if (parsed.is_array()) {
      body["players"] = parsed;  // a bare list of players
    } else if (parsed.is_object()) {
      body = parsed.as_object();
    } else {
      throw Failure(kInvalid, file + " must hold {\"players\":[…]} or a list of players");
    }
    return body;
  }
  const ActionSpec* form = result_spec(game);
  if (from_flags) {
    body["players"] = players_from_flags(ctx.args.values("player"), form, target.info.game);
    return body;
  }
  if (form == nullptr) {
    throw usage_error("the server describes no " + target.info.game +
                      " result to ask for: use --file or --player");
  }
  Prompter ask = ctx.prompter();
  ctx.err << target.info.name << ": " << where(target) << " (" << target.info.game << ")\n";
  std::optional<json::array> previous;
  for (;;) {
    body["players"] = players_from_prompts(ask, ctx.err, *form, *table, target.info,
                                           previous ? &*previous : nullptr);
    if (ctx.args.has("yes") && !ctx.args.has("check")) return body;
    ctx.err << "About to send:\n";
    print_entry(ctx.err, body["players"].as_array(), target.info);
    if (show_check(ctx, ctx.err, target, body, reason)) {
      if (ctx.args.has("check")) return body;
      if (!ask.yes_no("Send this result?", true)) throw Failure(kUsage, "nothing was sent");
      return body;
    }
    // A first entry the server takes for a replacement: someone entered the table meanwhile.
    if (!correction) {
      json::object now =
          table_of(load_round(ctx.session(), target.info.id, target.round), target.table);
      if (now.contains("entered_by") && text_member(now, "status") == "reported") {
        print_existing(ctx, target, now, "entered meanwhile by " + entered_by_at(now));
        throw Failure(kConflict, "");
      }
    }
    if (!ask.yes_no("Change the entry (your answers are the defaults)?", true)) {
      throw Failure(kInvalid, "nothing was sent");
    }
    previous = body["players"].as_array();
  }
}

int put_result(Context& ctx, bool correction) {
  Target target;
  target.round = ctx.number_argument(0, "ROUND");
  target.table = ctx.number_argument(1, "TABLE");
  target.info = load_tournament(ctx.session(), ctx.tournament());
  bool interactive = !ctx.args.has("file") && !ctx.args.has("player");

  std::optional<std::string> reason = ctx.args.value("reason");
  if (correction && (!reason || reason->empty())) {
    throw usage_error("a correction needs --reason (kept in the audit trail)");
  }
  std::optional<std::string> version = ctx.args.value("version");

  // The table: for the prompts, for a correction without --version, and to tell the judge at
  // once (not after typing everything) that the table was entered already.
  std::optional<json::object> table;
  if (interactive || ctx.args.has("check") || (correction && !version)) {
    table = table_of(load_round(ctx.session(), target.info.id, target.round), target.table);
  }
  if (table && !correction && text_member(*table, "status") == "reported" &&
      table->contains("entered_by")) {
    print_existing(ctx, target, *table, "already entered by " + entered_by_at(*table));
    return kConflict;
  }
  if (correction && !version) {
    version = cell_text(table->at("version"));
    std::string entry = entry_summary(*table);
    ctx.err << "Replacing the result " << (entry.empty() ? "of version " + *version : entry)
            << "\n";
  }

  // The game's fields, for prompts and flags (a file is sent as it is).
  std::optional<GameSpec> game;
  if (!ctx.args.has("file")) game = load_game(ctx.session(), target.info.game);

  json::object body = gather(ctx, target, table ? &*table : nullptr, game, reason, correction);
  if (ctx.args.has("check")) {
    // Nothing is sent: the server's check of the entry (shown already with prompts).
    if (interactive) return kOk;
    if (ctx.args.has("json")) {
      json::object sent = body;
      if (reason) sent["reason"] = *reason;
      ctx.out << json::serialize(ctx.session().expect(ctx.session().check(
                     table_path(target.info.id, target.round, target.table) + "/result/check",
                     sent)))
              << "\n";
      return kOk;
    }
    ctx.out << "Round " << target.round << ", table " << target.table << ": nothing sent.\n";
    if (!show_check(ctx, ctx.out, target, body, reason)) throw Failure(kInvalid, "");
    return kOk;
  }
  if (reason) body["reason"] = *reason;
  std::map<std::string, std::string> headers;
  if (correction) {
    headers["If-Match"] = "\"" + *version + "\"";
  } else {
    headers["If-None-Match"] = "*";
  }
  client::HttpReply reply = ctx.session().send(
      client::http::verb::put, table_path(target.info.id, target.round, target.table) + "/result",
      body, headers);
  if (reply.status == 412) {
    boost::system::error_code ec;
    json::value problem = json::parse(reply.body, ec);
    if (!ec && problem.is_object() && problem.as_object().contains("table") &&
        problem.at("table").is_object()) {
      std::string detail = text_member(problem.as_object(), "detail");
      const json::object& now = problem.at("table").as_object();
      if (!correction && now.contains("entered_by")) {
        detail = "already entered by " + entered_by_at(now);
      }
      print_existing(ctx, target, now, detail);
      return kConflict;
    }
  }
  json::value answer = ctx.session().expect(reply);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& o = answer.as_object();
  ctx.out << "Round " << target.round << ", table " << target.table << ": result "
          << (correction ? "replaced" : "entered") << " (version " << cell_text(o.at("version"))
          << ", event #" << cell_text(o.at("seq")) << ").\n";
  print_result(ctx.out, o.at("result"), target.info);
  return kOk;
}

int enter(Context& ctx) { return put_result(ctx, false); }
int correct(Context& ctx) { return put_result(ctx, true); }

std::vector<OptionSpec> input_options() {
  return {{"file", 0, "FILE", "the result as JSON: {\"players\":[…]} or a list (- for stdin)"},
          {"player", 0, "SPEC", "one player: ID:field=value,… (see above)", true},
          {"yes", 'y', "", "send without asking (prompts only)"},
          {"check", 0, "", "show what the server would compute, and send nothing"},
          {"json", 0, "", "print the server's JSON answer"}};
}

const char* kInputHelp =
    "The result comes from --file, from one --player per player, or (with neither) from\n"
    "prompts for each seated player. The fields are the game's as the server describes them\n"
    "(`tally games GAME` lists them, with their ranges and choices). A boolean alone means\n"
    "true; a required boolean not given is false; a list is written a+b; a derived field\n"
    "(e.g. AGoT's winner) is computed from its source when not given. Example:\n"
    "  --player a:settlements=2,cities=3,vp_cards=0,knights=3,roads=6,longest_road=4,largest_army\n"
    "With prompts, the entry and what the server computes from it (POST …/result/check) are\n"
    "shown before \"Send this result?\"; an entry the server would refuse is shown with its\n"
    "errors and can be changed. --check does the same for any input and sends nothing.";

}  // namespace

std::vector<Command> result_commands() {
  std::vector<OptionSpec> correct_options = input_options();
  correct_options.insert(
      correct_options.begin(),
      {{"reason", 0, "TEXT", "why the result is corrected (required)"},
       {"version", 0, "V", "the version you are replacing (default: the table's current one)"}});
  return {
      {"result enter", "ROUND TABLE [--file FILE | --player SPEC...] [--yes | --check]",
       "Enter a table's first result (judge)",
       std::string(kInputHelp) +
           "\nIf another judge entered the table first, their entry is shown (exit 3).",
       input_options(), 2, 2, true, enter},
      {"correct", "ROUND TABLE --reason TEXT [--version V] [--file FILE | --player SPEC...]",
       "Replace a table's result, with a reason (judge)",
       std::string(kInputHelp) +
           "\nThe replacement is sent with If-Match: the version replaced. If the table changed\n"
           "since (someone else corrected it), the current entry is shown (exit 3).",
       correct_options, 2, 2, true, correct},
  };
}

}  // namespace tally::cli
