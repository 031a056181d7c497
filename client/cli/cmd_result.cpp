// tally result enter / tally correct: a table's result, first entered with If-None-Match: * and
// replaced with If-Match: "<version>" and a reason. A 412 shows who entered the table, when,
// and their entry. The form is the server's description of the game's result (GET /v1/games);
// before the judge confirms, the server's check (POST …/result/check) shows what it computes.
// When the server cannot be reached, the entry is made from this computer's copy of the
// tournament, round and game (OfflineCopy) and, if the judge wants, kept in the outbox with the
// Idempotency-Key and precondition it was (or would have been) sent with; `tally sync` sends it.
#include "client/cli/command.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/offline_copy.hpp"
#include "client/cli/outbox.hpp"
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
  tally::net::HttpReply reply = ctx.session().check(
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
    // Offline there is no check: the entry is shown, and keeping it is asked next.
    bool offline = ctx.session().offline();
    ctx.err << ctx.say(offline ? "cli.outbox.your_entry" : "cli.result.about_to_send") << "\n";
    print_entry(ctx.err, body["players"].as_array(), target.info, ctx.lang);
    if (offline) return body;
    bool accepted = false;
    try {
      accepted = show_check(ctx, ctx.err, target, body, reason);
    } catch (const Unreachable&) {
      return body;  // gone while the judge typed: the answers are not lost, keeping is asked
    }
    if (accepted) {
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

// After the server could not be reached (`why`): keeps the entry in the outbox, with the key
// and precondition it was or would have been sent with — at once with --keep-offline, else when
// the judge says so (no answer, e.g. the input ended: nothing is kept). `announced`: `why` was
// said already.
int keep_for_later(Context& ctx, const Target& target, const json::object& body,
                   const std::string& key, const std::string& if_match, const Unreachable& why,
                   bool announced) {
  if (!announced) ctx.err << "tally: " << ctx.say(why.message()) << "\n";
  bool keep = ctx.args.has("keep-offline");
  if (!keep) {
    try {
      keep = ctx.prompter().yes_no(ctx.say("cli.outbox.ask_keep"), true);
    } catch (const Failure& f) {
      if (f.code() != kUsage) throw;
    }
  }
  if (!keep) {
    ctx.err << "tally: " << ctx.say("cli.outbox.not_kept") << "\n";
    return kUnavailable;
  }
  OutboxEntry entry;
  entry.server = ctx.session().address().url;
  entry.tournament = target.info.id;
  entry.round = target.round;
  entry.table = target.table;
  entry.body = body;
  entry.idempotency_key = key;
  entry.if_match = if_match;
  entry.entered_at = utc_now();
  entry.entered_by = local_user();
  entry.token = token_fingerprint(ctx.settings.token);
  Outbox outbox(Outbox::default_path());
  for (const auto& earlier : outbox.entries()) {
    if (earlier.server == entry.server && earlier.tournament == entry.tournament &&
        earlier.round == entry.round && earlier.table == entry.table) {
      ctx.err << "tally: " << where(ctx, target) << ": "
              << ctx.say(i18n::Message("cli.outbox.same_table", {{"id", earlier.id}})) << "\n";
      break;
    }
  }
  entry = outbox.add(std::move(entry));
  std::size_t waiting = outbox.entries().size();
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(
                   json::object{{"outbox", json::object{{"id", entry.id}, {"waiting", waiting}}}})
            << "\n";
    return kOk;
  }
  ctx.out << at_table(ctx, target,
                      i18n::Message("cli.outbox.kept", {{"id", entry.id}, {"waiting", waiting}}))
          << "\n";
  return kOk;
}

// The tournament, the table and the game an entry needs, from the server or, when it cannot be
// reached, from this computer's copy. A file is sent as it is, so it needs nothing but the
// tournament's id; everything else without a copy is the Unreachable, with a hint.
struct EntryContext {
  std::optional<json::object> table;
  std::optional<GameSpec> game;
};

EntryContext load_entry_context(Context& ctx, Target& target, bool interactive, bool correction,
                                const std::optional<std::string>& version) {
  EntryContext loaded;
  try {
    try {
      target.info = load_tournament(ctx.session(), ctx.tournament());
    } catch (const Unreachable&) {
      if (!ctx.args.has("file") || ctx.args.has("check")) throw;
      target.info.id = ctx.tournament();
      target.info.name = target.info.id;
    }
    // The table: for the prompts, for a correction without --version, and to tell the judge at
    // once (not after typing everything) that the table was entered already.
    if (interactive || ctx.args.has("check") || (correction && !version)) {
      loaded.table =
          table_of(load_round(ctx.session(), target.info.id, target.round), target.table);
    }
    // The game's fields, for prompts and flags (a file is sent as it is).
    if (!ctx.args.has("file")) loaded.game = load_game(ctx.session(), target.info.game);
  } catch (const Unreachable& why) {
    if (ctx.args.has("check")) throw;  // nothing to check against
    ctx.err << "tally: " << ctx.say(why.message()) << "\n"
            << "  " << ctx.say(i18n::Message("cli.outbox.no_copy", {{"round", target.round}}))
            << "\n";
    throw Failure(kUnavailable, {});
  }
  if (ctx.session().offline()) {
    if (ctx.args.has("check")) throw ctx.session().unreachable();
    ctx.err << "tally: " << ctx.say(ctx.session().unreachable().message()) << "\n"
            << "  "
            << ctx.say(ctx.session().copy_saved_at().empty()
                           ? i18n::Message("cli.outbox.working_offline_file")
                           : i18n::Message("cli.outbox.working_offline",
                                           {{"time", local_time(ctx.session().copy_saved_at())}}))
            << "\n";
  }
  return loaded;
}

int put_result(Context& ctx, bool correction) {
  Target target;
  target.round = ctx.number_argument(0, "ROUND");
  target.table = ctx.number_argument(1, "TABLE");
  bool interactive = !ctx.args.has("file") && !ctx.args.has("player");
  if (ctx.args.has("check") && ctx.args.has("keep-offline")) {
    throw usage_error("cli.outbox.check_or_keep");
  }

  std::optional<std::string> reason = ctx.args.value("reason");
  if (correction && (!reason || reason->empty())) {
    throw usage_error("cli.result.correction_needs_reason");
  }
  std::optional<std::string> version = ctx.args.value("version");

  ctx.session().use_offline_copy(std::make_shared<OfflineCopy>(OfflineCopy::default_path()));
  EntryContext loaded = load_entry_context(ctx, target, interactive, correction, version);
  std::optional<json::object>& table = loaded.table;
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

  json::object body =
      gather(ctx, target, table ? &*table : nullptr, loaded.game, reason, correction);
  // A check needs the server (with prompts it may have gone while the judge typed).
  if (ctx.args.has("check") && ctx.session().offline()) throw ctx.session().unreachable();
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
  // The key is made here, so that an entry kept for later is sent with the key it had now.
  std::string key = new_idempotency_key();
  std::string if_match = correction ? *version : "";
  std::map<std::string, std::string> headers{{"Idempotency-Key", key}};
  if (correction) {
    headers["If-Match"] = "\"" + *version + "\"";
  } else {
    headers["If-None-Match"] = "*";
  }
  if (ctx.session().offline()) {
    return keep_for_later(ctx, target, body, key, if_match, ctx.session().unreachable(), true);
  }
  tally::net::HttpReply reply;
  try {
    reply = ctx.session().send(tally::net::http::verb::put,
                               table_path(target.info.id, target.round, target.table) + "/result",
                               body, headers);
  } catch (const Unreachable& why) {
    // Perhaps it reached the server and only the answer was lost: the same key makes a resend
    // safe either way.
    return keep_for_later(ctx, target, body, key, if_match, why, false);
  }
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
          {"keep-offline", 0, "", "cli.option.keep_offline"},
          {"json", 0, "", "cli.option.json"}};
}

// Where a result comes from: the same for result enter and correct.
const i18n::Term kInputHelp{"cli.help.result_input"};
// What happens when the server cannot be reached: the same for both.
const i18n::Term kOfflineHelp{"cli.help.result_offline"};

}  // namespace

std::vector<Command> result_commands() {
  std::vector<OptionSpec> correct_options = input_options();
  correct_options.insert(correct_options.begin(),
                         {{"reason", 0, "TEXT", "cli.option.reason_correct"},
                          {"version", 0, "V", "cli.option.version"}});
  return {
      {"result enter",
       "ROUND TABLE [--file FILE | --player SPEC...] [--yes | --check] [--keep-offline]",
       "cli.cmd.result_enter.summary",
       i18n::Message("cli.cmd.result_enter.details",
                     {{"input", kInputHelp}, {"offline", kOfflineHelp}}),
       input_options(), 2, 2, true, enter},
      {"correct",
       "ROUND TABLE --reason TEXT [--version V] [--file FILE | --player SPEC...] [--keep-offline]",
       "cli.cmd.correct.summary",
       i18n::Message("cli.cmd.correct.details", {{"input", kInputHelp}, {"offline", kOfflineHelp}}),
       correct_options, 2, 2, true, correct},
  };
}

}  // namespace tally::cli
