// tally login / logout: store the server and a token (and optionally a tournament) for the
// commands that follow.
#include "client/cli/command.hpp"

#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace tally::cli {

namespace {

int login(Context& ctx) {
  Prompter ask = ctx.prompter();
  // The server named by --server or TALLY_SERVER is taken as it is; otherwise a person at a
  // terminal is asked (the stored or default address offered), a script gets that address.
  std::string server = ctx.settings.server;
  bool named = ctx.args.has("server") || std::getenv("TALLY_SERVER") != nullptr;
  if (!named && ctx.stdin_is_terminal) {
    server = ask.text(ctx.say("cli.login.ask_server"), ctx.settings.server);
  }
  ServerAddress address = parse_server_url(server);
  std::string token = ctx.args.value("token").value_or("");
  if (token.empty()) token = ask.secret(ctx.say("cli.login.ask_token"));
  if (token.empty()) throw usage_error("cli.login.token_needed");

  // Check the token before storing it: a bad token is 401 even on a public read.
  Session session(address, token, ctx.settings.ca_file, ctx.err, ctx.lang);
  session.read("/v1/tournaments");
  tally::net::HttpReply judges = session.get("/v1/judges");
  std::string role = judges.status == 200 ? "organizer" : "judge";

  std::filesystem::path path = config_path();
  StoredConfig stored = read_config(path);
  stored["server"] = address.url;
  stored["token"] = token;
  if (auto ca_file = ctx.args.value("ca-file")) {
    stored["ca_file"] = std::filesystem::absolute(*ca_file).string();
  }
  if (auto tournament = ctx.args.value("tournament")) stored["tournament"] = *tournament;
  write_config(path, stored);

  ctx.out << ctx.say(i18n::Message("cli.login.done", {{"server", address.url}, {"role", role}}))
          << "\n";
  if (auto it = stored.find("tournament"); it != stored.end() && !it->second.empty()) {
    ctx.out << ctx.say(i18n::Message("cli.login.tournament", {{"tournament", it->second}})) << "\n";
  }
  ctx.out << ctx.say(i18n::Message("cli.login.saved", {{"path", path.string()}})) << "\n";
  return kOk;
}

int logout(Context& ctx) {
  std::filesystem::path path = config_path();
  StoredConfig stored = read_config(path);
  if (stored.erase("token") == 0) {
    ctx.out << ctx.say("cli.logout.none") << "\n";
    return kOk;
  }
  write_config(path, stored);
  ctx.out << ctx.say(i18n::Message("cli.logout.done", {{"path", path.string()}})) << "\n";
  return kOk;
}

}  // namespace

std::vector<Command> login_commands() {
  return {
      {"login",
       "[--server URL] [--token TOKEN] [-t ID]",
       "cli.cmd.login.summary",
       "cli.cmd.login.details",
       {},
       0,
       0,
       true,
       login},
      {"logout", "", "cli.cmd.logout.summary", "", {}, 0, 0, false, logout},
  };
}

}  // namespace tally::cli
