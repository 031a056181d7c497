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
  if (!named && ctx.stdin_is_terminal) server = ask.text("Server", ctx.settings.server);
  ServerAddress address = parse_server_url(server);
  std::string token = ctx.args.value("token").value_or("");
  if (token.empty()) token = ask.secret("Token");
  if (token.empty()) throw usage_error("a token is needed (the organizer gives each judge one)");

  // Check the token before storing it: a bad token is 401 even on a public read.
  Session session(address, token, ctx.settings.ca_file, ctx.err);
  session.read("/v1/tournaments");
  client::HttpReply judges = session.get("/v1/judges");
  std::string role = judges.status == 200 ? "the organizer" : "a judge";

  std::filesystem::path path = config_path();
  StoredConfig stored = read_config(path);
  stored["server"] = address.url;
  stored["token"] = token;
  if (auto ca_file = ctx.args.value("ca-file")) {
    stored["ca_file"] = std::filesystem::absolute(*ca_file).string();
  }
  if (auto tournament = ctx.args.value("tournament")) stored["tournament"] = *tournament;
  write_config(path, stored);

  ctx.out << "Logged in to " << address.url << " as " << role << ".\n";
  if (auto it = stored.find("tournament"); it != stored.end() && !it->second.empty()) {
    ctx.out << "Tournament: " << it->second << "\n";
  }
  ctx.out << "Saved in " << path.string() << " (readable only by you).\n";
  return kOk;
}

int logout(Context& ctx) {
  std::filesystem::path path = config_path();
  StoredConfig stored = read_config(path);
  if (stored.erase("token") == 0) {
    ctx.out << "No token was stored.\n";
    return kOk;
  }
  write_config(path, stored);
  ctx.out << "The token is removed from " << path.string() << ".\n";
  return kOk;
}

}  // namespace

std::vector<Command> login_commands() {
  return {
      {"login",
       "[--server URL] [--token TOKEN] [-t ID]",
       "Store the server and your token (asks for what is not given)",
       "Checks the token against the server first, then writes $XDG_CONFIG_HOME/tally/config\n"
       "(else ~/.config/tally/config) with mode 0600. With -t the tournament is stored too,\n"
       "so that later commands need no -t. The token is read without echo on a terminal.",
       {},
       0,
       0,
       true,
       login},
      {"logout", "", "Remove the stored token", "", {}, 0, 0, false, logout},
  };
}

}  // namespace tally::cli
