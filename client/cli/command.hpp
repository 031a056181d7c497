// What every command gets (the parsed command line, the resolved settings, the streams, a
// session with tallyd made on first use) and how a command is declared: its words, arguments,
// options and help, and the function that runs it.
#pragma once

#include "client/cli/args.hpp"
#include "client/cli/prompt.hpp"
#include "client/cli/session.hpp"
#include "client/cli/settings.hpp"
#include "i18n/language.hpp"
#include "i18n/message.hpp"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace tally::cli {

struct Context {
  Context(std::istream& in, std::ostream& out, std::ostream& err) : in(in), out(out), err(err) {}

  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  bool stdin_is_terminal = false;
  bool stdout_is_terminal = false;
  i18n::Lang lang = i18n::Lang::en;  // of every text for people (--lang, else the environment)
  Args args;
  Settings settings;

  // `message` (a cli catalog key and its arguments) in the user's language.
  std::string say(const i18n::Message& message) const;
  // The session with the server the settings name (created on first use).
  Session& session();
  // The tournament the command is about (-t, TALLY_TOURNAMENT or the stored one); a usage error
  // when none is set.
  const std::string& tournament() const;
  // The i-th positional argument as a positive whole number, named `what` in errors.
  std::uint64_t number_argument(std::size_t i, const std::string& what) const;
  Prompter prompter() { return Prompter(in, err, stdin_is_terminal, lang); }

 private:
  std::unique_ptr<Session> session_;
};

// The texts of a command's help are cli catalog messages, rendered in the user's language; the
// command words, option names and the placeholders of the usage line (ROUND, TABLE) are syntax
// and stay as they are.
struct Command {
  std::string path;       // the command words: "tournament create"
  std::string arguments;  // for the usage line: "ID --name NAME --game GAME [options]"
  i18n::Message summary;  // one line, for the list of commands
  i18n::Message details;  // more help (paragraphs), or empty
  std::vector<OptionSpec> options;
  std::size_t min_positionals = 0;
  std::size_t max_positionals = 0;
  bool uses_tournament = false;  // takes -t/--tournament
  int (*run)(Context&) = nullptr;
};

// The commands, one function per file (cmd_*.cpp).
std::vector<Command> login_commands();
std::vector<Command> judge_commands();
std::vector<Command> tournament_commands();
std::vector<Command> player_commands();
std::vector<Command> round_commands();
std::vector<Command> result_commands();
std::vector<Command> sync_commands();
std::vector<Command> table_action_commands();
std::vector<Command> score_commands();
std::vector<Command> standings_commands();
std::vector<Command> stage_commands();
std::vector<Command> series_commands();
std::vector<Command> audit_commands();
std::vector<Command> watch_commands();
std::vector<Command> ops_commands();
std::vector<Command> games_commands();

// Reads a whole file ("-" is stdin); a usage error when it cannot be read.
std::string read_input_file(Context& ctx, const std::string& path);
// Parses JSON text from `what` (a file name, for messages); Failure(kInvalid) when it is not.
boost::json::value parse_json_input(const std::string& text, const std::string& what);

}  // namespace tally::cli
