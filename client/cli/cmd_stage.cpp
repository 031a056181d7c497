// tally stage check | start: the next stage of a staged tournament (docs/games/stages.md).
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

std::string names(const TournamentInfo& info, const json::value& ids) {
  std::string out;
  for (const auto& id : ids.as_array()) {
    out += (out.empty() ? "" : ", ") + info.label_of(std::string(id.as_string()));
  }
  return out;
}

// The stage as the server answers it: the kind, the seeds, the cut's first one out and why,
// and the tables of its first round.
void print_stage(Context& ctx, const TournamentInfo& info, const json::object& stage) {
  ctx.out << ctx.say(i18n::Message(
                 "cli.stage.heading",
                 {{"stage", cell_text(stage.at("stage"))},
                  {"kind", ctx.say(i18n::Message("stages.kind." + text_member(stage, "kind")))}}))
          << "\n";
  ctx.out << ctx.say(
                 i18n::Message("cli.stage.seeds", {{"players", names(info, stage.at("players"))}}))
          << "\n";
  if (const json::value* cut = stage.if_contains("cut"); cut && cut->is_object()) {
    const json::object& c = cut->as_object();
    if (c.at("first_out").is_string()) {
      ctx.out << ctx.say(i18n::Message("cli.stage.first_out",
                                       {{"player", info.label_of(text_member(c, "first_out"))},
                                        {"criterion", text_member(c, "decided_by")}}))
              << "\n";
    }
    if (!c.at("passed_over").as_array().empty()) {
      ctx.out << ctx.say(i18n::Message("cli.stage.passed_over",
                                       {{"players", names(info, c.at("passed_over"))}}))
              << "\n";
    }
  }
  if (const json::value* tables = stage.if_contains("tables"); tables && tables->is_array()) {
    for (const auto& t : tables->as_array()) {
      ctx.out << ctx.say(
                     i18n::Message("cli.stage.table", {{"table", cell_text(t.at("table"))},
                                                       {"players", names(info, t.at("players"))}}))
              << "\n";
    }
  }
  if (const json::value* notes = stage.if_contains("notes"); notes && notes->is_array()) {
    for (const auto& n : notes->as_array()) ctx.out << "  - " << cell_text(n) << "\n";
  }
}

int post_stage(Context& ctx, bool check_only) {
  json::object body;
  if (ctx.args.has("force")) {
    body["force"] = true;
    if (!ctx.args.has("reason")) throw usage_error("cli.round.force_needs_reason");
  }
  if (auto reason = ctx.args.value("reason")) body["reason"] = *reason;
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  std::string target = "/v1/tournaments/" + url_encode(info.id) + "/stages";
  if (check_only) target += "/check";
  json::value answer =
      ctx.session().expect(ctx.session().send(tally::net::http::verb::post, target, body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  print_stage(ctx, info, answer.as_object());
  if (!check_only) {
    ctx.out << ctx.say(i18n::Message("cli.round.event", {{"seq", cell_text(answer.at("seq"))}}))
            << "\n";
  }
  return kOk;
}

int check(Context& ctx) { return post_stage(ctx, true); }
int start(Context& ctx) { return post_stage(ctx, false); }

}  // namespace

std::vector<Command> stage_commands() {
  const std::vector<OptionSpec> options{{"force", 0, "", "cli.option.force_stage"},
                                        {"reason", 0, "TEXT", "cli.option.reason_stage"},
                                        {"json", 0, "", "cli.option.json"}};
  return {
      {"stage check", "[--force --reason TEXT] [--json]", "cli.cmd.stage_check.summary",
       "cli.cmd.stage_check.details", options, 0, 0, true, check},
      {"stage start", "[--force --reason TEXT] [--json]", "cli.cmd.stage_start.summary",
       "cli.cmd.stage_start.details", options, 0, 0, true, start},
  };
}

}  // namespace tally::cli
