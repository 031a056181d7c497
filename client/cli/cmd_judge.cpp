// tally judge add | list | revoke: the organizer hands out and withdraws judges' tokens.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <ostream>

namespace tally::cli {

namespace json = boost::json;
using client::http::verb;

namespace {

int add(Context& ctx) {
  json::value answer = ctx.session().expect(ctx.session().send(
      verb::post, "/v1/judges", json::object{{"name", ctx.args.positionals.at(0)}}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& o = answer.as_object();
  ctx.out << "Judge " << text_member(o, "name") << " is " << text_member(o, "id") << " (event #"
          << cell_text(o.at("seq")) << ").\n";
  // The server shows a token once and keeps only its hash: this is the only chance to pass it on.
  ctx.out << "Token (shown this once; give it to " << text_member(o, "name")
          << " for `tally login`): " << text_member(o, "token") << "\n";
  return kOk;
}

int list(Context& ctx) {
  json::value answer = ctx.session().read("/v1/judges");
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  if (answer.as_array().empty()) {
    ctx.out << "No judges yet.\n";
    return kOk;
  }
  TextTable table({{"ID"}, {"Name"}, {"Status"}});
  for (const auto& j : answer.as_array()) {
    const auto& o = j.as_object();
    bool revoked = o.contains("revoked") && o.at("revoked").as_bool();
    table.add_row({text_member(o, "id"), text_member(o, "name"), revoked ? "revoked" : "active"});
  }
  table.print(ctx.out);
  return kOk;
}

int revoke(Context& ctx) {
  const std::string& id = ctx.args.positionals.at(0);
  json::value answer = ctx.session().expect(
      ctx.session().send_without_body(verb::delete_, "/v1/judges/" + url_encode(id)));
  ctx.out << "Judge " << id << "'s token no longer works (event #" << cell_text(answer.at("seq"))
          << "); what they entered stays, with their id.\n";
  return kOk;
}

const OptionSpec kJson{"json", 0, "", "print the server's JSON answer"};

}  // namespace

std::vector<Command> judge_commands() {
  return {
      {"judge add",
       "NAME [--json]",
       "Create a judge and show their token once (organizer)",
       "The server keeps only a hash of the token: note it or hand it over now. A judge whose\n"
       "token leaks is revoked and added again.",
       {kJson},
       1,
       1,
       false,
       add},
      {"judge list",
       "[--json]",
       "List the judges and whether their tokens work (organizer)",
       "",
       {kJson},
       0,
       0,
       false,
       list},
      {"judge revoke",
       "ID",
       "Withdraw a judge's token at once (organizer)",
       "Takes effect on their next request; everything they entered stays in the log.",
       {},
       1,
       1,
       false,
       revoke},
  };
}

}  // namespace tally::cli
