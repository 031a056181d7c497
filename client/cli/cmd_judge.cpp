// tally judge add | list | revoke: the organizer hands out and withdraws judges' tokens.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using tally::net::http::verb;

namespace {

int add(Context& ctx) {
  json::value answer = ctx.session().expect(ctx.session().send(
      verb::post, "/v1/judges", json::object{{"name", ctx.args.positionals.at(0)}}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& o = answer.as_object();
  ctx.out << ctx.say(i18n::Message("cli.judge.added", {{"name", text_member(o, "name")},
                                                       {"id", text_member(o, "id")},
                                                       {"seq", cell_text(o.at("seq"))}}))
          << "\n";
  // The server shows a token once and keeps only its hash: this is the only chance to pass it on.
  ctx.out << ctx.say(i18n::Message("cli.judge.token", {{"name", text_member(o, "name")},
                                                       {"token", text_member(o, "token")}}))
          << "\n";
  return kOk;
}

int list(Context& ctx) {
  json::value answer = ctx.session().read("/v1/judges");
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  if (answer.as_array().empty()) {
    ctx.out << ctx.say("cli.judge.none") << "\n";
    return kOk;
  }
  TextTable table(
      {{ctx.say("cli.column.id")}, {ctx.say("cli.column.name")}, {ctx.say("cli.column.status")}});
  for (const auto& j : answer.as_array()) {
    const auto& o = j.as_object();
    bool revoked = o.contains("revoked") && o.at("revoked").as_bool();
    table.add_row({text_member(o, "id"), text_member(o, "name"),
                   ctx.say(revoked ? "cli.judge.status_revoked" : "cli.judge.status_active")});
  }
  table.print(ctx.out);
  return kOk;
}

int revoke(Context& ctx) {
  const std::string& id = ctx.args.positionals.at(0);
  json::value answer = ctx.session().expect(
      ctx.session().send_without_body(verb::delete_, "/v1/judges/" + url_encode(id)));
  ctx.out << ctx.say(i18n::Message("cli.judge.revoked",
                                   {{"id", id}, {"seq", cell_text(answer.at("seq"))}}))
          << "\n";
  return kOk;
}

const OptionSpec kJson{"json", 0, "", "cli.option.json"};

}  // namespace

std::vector<Command> judge_commands() {
  return {
      {"judge add",
       "NAME [--json]",
       "cli.cmd.judge_add.summary",
       "cli.cmd.judge_add.details",
       {kJson},
       1,
       1,
       false,
       add},
      {"judge list", "[--json]", "cli.cmd.judge_list.summary", "", {kJson}, 0, 0, false, list},
      {"judge revoke",
       "ID",
       "cli.cmd.judge_revoke.summary",
       "cli.cmd.judge_revoke.details",
       {},
       1,
       1,
       false,
       revoke},
  };
}

}  // namespace tally::cli
