// tally result enter / tally correct: a table's result, first entered with If-None-Match: * and
// replaced with If-Match: "<version>" and a reason. A 412 shows who entered the table, when,
// and their entry. The form is the server's description of the game's result (GET /v1/games);
// before the judge confirms, the server's check (POST …/result/check) shows what it computes.
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/say.hpp"
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

std::string where(Context& ctx, const Target& t) {
  return round_and_table(ctx.lang, t.round, t.table);
}

// "Round 1, table 2: …" (a sentence's start) in the user's language.
std::string at_table(Context& ctx, const Target& t, const i18n::Message& what) {
  return ctx.say(i18n::Message("cli.result.at_table",
                               {{"round", t.round}, {"table", t.table}, {"what", ctx.say(what)}}));
}

// The entry in effect at a table, after a 412 or before prompting for a table already entered:
// "tally: round 1, table 2: already entered by Eva at 14:32", then the entry and what to do.
void print_existing(Context& ctx, const Target& target, const json::object& table,
                    const std::string& headline) {
  ctx.err << "tally: " << where(ctx, target) << ": " << headline << "\n";
  std::string entry = entry_summary(table, ctx.lang);
  if (!entry.empty()) {
    ctx.err << ctx.say(i18n::Message("cli.result.now", {{"entry", entry}})) << "\n";
  }
  if (table.contains("result") && table.at("result").is_object()) {
    print_result(ctx.err, table.at("result"), target.info, ctx.lang);
  }
  ctx.err << ctx.say(i18n::Message(
                 "cli.result.to_replace",
                 {{"command", "tally correct " + std::to_string(target.round) + " " +
                                  std::to_string(target.table) + " --version " +
                                  cell_text(table.at("version")) + " --reason TEXT"}}))
          << "\n";
}

// "already entered by Eva at 14:32".
std::string already_entered(Context& ctx, const json::object& table) {
  return ctx.say(
      i18n::Message("cli.result.already_entered", {{"by_at", entered_by_at(table, ctx.lang)}}));
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
    ctx.err << (detail.empty()
                    ? ctx.say("cli.check.refused")
                    : ctx.say(i18n::Message("cli.check.refused_detail", {{"detail", detail}})))
            << "\n";
    print_problem_errors(reply, ctx.err, ctx.lang);
    return false;
  }
  json::value answer = ctx.session().expect(reply);
  const json::value* result =
      answer.is_object() ? answer.as_object().if_contains("result") : nullptr;
  std::string seq;
  if (answer.is_object() && answer.as_object().contains("seq")) seq = cell_text(answer.at("seq"));
  bool computed = result != nullptr && result->is_object();
  // The pattern's select: whether the answer names the event it is as of.
  i18n::Message said(computed ? "cli.check.computes" : "cli.check.accepts_without_result",
                     {{"as_of", seq.empty() ? "no" : "yes"}, {"seq", seq}});
  out << ctx.say(said) << "\n";
  if (computed) print_result(out, *result, target.info, ctx.lang);
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
  if (from_file && from_flags) throw usage_error("cli.result.file_or_player");
  json::object body;
  if (from_file) {
    std::string file = *ctx.args.value("file");
    json::value parsed = parse_json_input(read_input_file(ctx, file), file);
    if (parsed.is_array()) {
      body["players"] = parsed;  // a bare list of players
    } else if (parsed.is_object()) {
      body = parsed.as_object();
    } else {
      throw Failure(kInvalid, i18n::Message("cli.result.file_shape", {{"file", file}}));
    }
    return body;
  }
  const ActionSpec* form = result_spec(game);
  if (from_flags) {
    body["players"] = players_from_flags(ctx.args.values("player"), form, target.info.game);
    return body;
  }
  if (form == nullptr) {
    throw usage_error(i18n::Message("cli.result.no_form", {{"game", target.info.game}}));
  }
  Prompter ask = ctx.prompter();
  ctx.err << ctx.say(i18n::Message("cli.result.prompt_heading", {{"tournament", target.info.name},
                                                                 {"round", target.round},
                                                                 {"table", target.table},
                                                                 {"game", target.info.game}}))
          << "\n";
  std::optional<json::array> previous;
  for (;;) {
    body["players"] = players_from_prompts(ask, ctx.err, *form, *table, target.info,
                                           previous ? &*previous : nullptr);
    if (ctx.args.has("yes") && !ctx.args.has("check")) return body;
    ctx.err << ctx.say("cli.result.about_to_send") << "\n";
    print_entry(ctx.err, body["players"].as_array(), target.info, ctx.lang);
    if (show_check(ctx, ctx.err, target, body, reason)) {
      if (ctx.args.has("check")) return body;
      if (!ask.yes_no(ctx.say("cli.result.ask_send"), true)) {
        throw Failure(kUsage, "cli.result.nothing_sent");
      }
      return body;
    }
    // A first entry the server takes for a replacement: someone entered the table meanwhile.
    if (!correction) {
      json::object now =
          table_of(load_round(ctx.session(), target.info.id, target.round), target.table);
      if (now.contains("entered_by") && text_member(now, "status") == "reported") {
        print_existing(ctx, target, now,
                       ctx.say(i18n::Message("cli.result.entered_meanwhile",
                                             {{"by_at", entered_by_at(now, ctx.lang)}})));
        throw Failure(kConflict, {});
      }
    }
    if (!ask.yes_no(ctx.say("cli.result.ask_change"), true)) {
      throw Failure(kInvalid, "cli.result.nothing_sent");
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
    throw usage_error("cli.result.correction_needs_reason");
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
    print_existing(ctx, target, *table, already_entered(ctx, *table));
    return kConflict;
  }
  if (correction && !version) {
    version = cell_text(table->at("version"));
    std::string entry = entry_summary(*table, ctx.lang);
    ctx.err << (entry.empty() ? ctx.say(i18n::Message("cli.result.replacing_version",
                                                      {{"version", *version}}))
                              : ctx.say(i18n::Message("cli.result.replacing", {{"entry", entry}})))
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
    ctx.out << at_table(ctx, target, "cli.result.nothing_sent_here") << "\n";
    if (!show_check(ctx, ctx.out, target, body, reason)) throw Failure(kInvalid, {});
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
      if (!correction && now.contains("entered_by")) detail = already_entered(ctx, now);
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
  ctx.out << at_table(ctx, target,
                      i18n::Message(correction ? "cli.result.replaced" : "cli.result.entered",
                                    {{"version", cell_text(o.at("version"))},
                                     {"seq", cell_text(o.at("seq"))}}))
          << "\n";
  print_result(ctx.out, o.at("result"), target.info, ctx.lang);
  return kOk;
}

int enter(Context& ctx) { return put_result(ctx, false); }
int correct(Context& ctx) { return put_result(ctx, true); }

std::vector<OptionSpec> input_options() {
  return {{"file", 0, "FILE", "cli.option.result_file"},
          {"player", 0, "SPEC", "cli.option.result_player", true},
          {"yes", 'y', "", "cli.option.yes"},
          {"check", 0, "", "cli.option.check"},
          {"json", 0, "", "cli.option.json"}};
}

// Where a result comes from: the same for result enter and correct.
const i18n::Term kInputHelp{"cli.help.result_input"};

}  // namespace

std::vector<Command> result_commands() {
  std::vector<OptionSpec> correct_options = input_options();
  correct_options.insert(correct_options.begin(),
                         {{"reason", 0, "TEXT", "cli.option.reason_correct"},
                          {"version", 0, "V", "cli.option.version"}});
  return {
      {"result enter", "ROUND TABLE [--file FILE | --player SPEC...] [--yes | --check]",
       "cli.cmd.result_enter.summary",
       i18n::Message("cli.cmd.result_enter.details", {{"input", kInputHelp}}), input_options(), 2,
       2, true, enter},
      {"correct", "ROUND TABLE --reason TEXT [--version V] [--file FILE | --player SPEC...]",
       "cli.cmd.correct.summary", i18n::Message("cli.cmd.correct.details", {{"input", kInputHelp}}),
       correct_options, 2, 2, true, correct},
  };
}

}  // namespace tally::cli
