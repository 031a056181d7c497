#include "client/cli/app.hpp"

#include "client/cli/command.hpp"

#include <algorithm>
#include <ostream>
#include <set>

namespace tally::cli {

namespace {

const std::vector<OptionSpec>& global_options() {
  static const std::vector<OptionSpec> options = {
      {"server", 0, "URL",
       "tallyd's address (else TALLY_SERVER, the stored one, " + std::string(kDefaultServer) + ")"},
      {"token", 0, "TOKEN", "your token (else TALLY_TOKEN, or the one `tally login` stored)"},
      {"ca-file", 0, "PEM",
       "certificates to trust for https (else TALLY_CA_FILE, the stored one, "
       "the system's)"},
      {"help", 'h', "", "show this help"},
  };
  return options;
}

const OptionSpec& tournament_option() {
  static const OptionSpec option{"tournament", 't', "ID",
                                 "the tournament (else TALLY_TOURNAMENT, or the stored one)"};
  return option;
}

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = [] {
    std::vector<Command> out;
    for (auto group :
         {login_commands, judge_commands, tournament_commands, player_commands, round_commands,
          result_commands, table_action_commands, score_commands, standings_commands,
          audit_commands, watch_commands, ops_commands, games_commands}) {
      for (auto& c : group()) out.push_back(std::move(c));
    }
    return out;
  }();
  return commands;
}

std::vector<OptionSpec> options_of(const Command& c) {
  std::vector<OptionSpec> out = c.options;
  if (c.uses_tournament) out.push_back(tournament_option());
  for (const auto& g : global_options()) out.push_back(g);
  return out;
}

std::string option_label(const OptionSpec& o) {
  std::string label = o.short_name ? std::string("-") + o.short_name + ", " : "    ";
  label += "--" + o.name;
  if (!o.value_name.empty()) label += " " + o.value_name;
  return label;
}

void print_options(std::ostream& out, const std::vector<OptionSpec>& options) {
  std::size_t width = 0;
  for (const auto& o : options) width = std::max(width, option_label(o).size());
  for (const auto& o : options) {
    std::string label = option_label(o);
    out << "  " << label << std::string(width - label.size() + 2, ' ') << o.help
        << (o.repeatable ? " (repeatable)" : "") << "\n";
  }
}

std::string usage_line(const Command& c) {
  return "tally " + c.path + (c.arguments.empty() ? "" : " " + c.arguments);
}

void print_command_help(std::ostream& out, const Command& c) {
  out << "Usage: " << usage_line(c) << "\n\n" << c.summary << "\n";
  if (!c.details.empty()) out << "\n" << c.details << "\n";
  if (!c.options.empty()) {
    out << "\nOptions:\n";
    print_options(out, c.options);
  }
  out << "\nGlobal options:\n";
  std::vector<OptionSpec> globals;
  if (c.uses_tournament) globals.push_back(tournament_option());
  for (const auto& g : global_options()) globals.push_back(g);
  print_options(out, globals);
  // A command that is also a group (pick, score) lists its subcommands.
  bool first = true;
  for (const auto& sub : all_commands()) {
    if (sub.path.rfind(c.path + " ", 0) != 0) continue;
    if (first) out << "\nSubcommands:\n";
    first = false;
    out << "  " << usage_line(sub) << "\n      " << sub.summary << "\n";
  }
}

void print_group_help(std::ostream& out, const std::string& group) {
  out << "Usage: tally " << group << " COMMAND [options]\n\nCommands:\n";
  for (const auto& c : all_commands()) {
    if (c.path.rfind(group + " ", 0) == 0) {
      out << "  " << usage_line(c) << "\n      " << c.summary << "\n";
    }
  }
  out << "\nRun `tally " << group << " COMMAND --help` for a command's options.\n";
}

void print_overview(std::ostream& out) {
  out << "Usage: tally COMMAND [arguments] [options]\n\n"
         "The judges' and organizers' command line for tallyd, the tournament-scoring server.\n\n"
         "Commands:\n";
  std::size_t width = 0;
  for (const auto& c : all_commands()) width = std::max(width, c.path.size());
  for (const auto& c : all_commands()) {
    out << "  " << c.path << std::string(width - c.path.size() + 2, ' ') << c.summary << "\n";
  }
  out << "\nGlobal options:\n";
  std::vector<OptionSpec> globals{tournament_option()};
  for (const auto& g : global_options()) globals.push_back(g);
  print_options(out, globals);
  out << "\nRun `tally COMMAND --help` for a command's arguments and options.\n"
         "Exit codes: 0 ok, 1 usage, 2 validation or rule error, 3 conflict or precondition,\n"
         "4 authentication, 5 not found, 6 server or network error.\n";
}

bool is_group(const std::string& word) {
  return std::any_of(all_commands().begin(), all_commands().end(),
                     [&](const Command& c) { return c.path.rfind(word + " ", 0) == 0; });
}

const Command* find_command(const std::string& path) {
  for (const auto& c : all_commands()) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

bool takes_value(const std::string& token) {
  // Global options whose value is the next token (their --name=value form needs no skipping).
  return token == "--server" || token == "--token" || token == "--ca-file" ||
         token == "--tournament" || token == "-t";
}

struct Located {
  std::string path;               // the command words found, "" when none
  std::vector<std::string> rest;  // the tokens without them
};

// Finds the command words: the first non-option token, and the second when the two name a
// command together ("tournament create", "pick auto").
Located locate(const std::vector<std::string>& tokens) {
  std::vector<std::size_t> words;
  for (std::size_t i = 0; i < tokens.size() && words.size() < 2; ++i) {
    const std::string& t = tokens[i];
    if (t == "--") break;
    if (t.size() > 1 && t[0] == '-') {
      if (takes_value(t)) ++i;
      continue;
    }
    words.push_back(i);
  }
  Located out;
  std::size_t used = 0;
  if (!words.empty()) {
    const std::string& first = tokens[words[0]];
    if (words.size() == 2 && find_command(first + " " + tokens[words[1]]) != nullptr) {
      out.path = first + " " + tokens[words[1]];
      used = 2;
    } else {
      out.path = first;
      used = 1;
    }
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    bool is_word = false;
    for (std::size_t k = 0; k < used; ++k) is_word = is_word || words[k] == i;
    if (!is_word) out.rest.push_back(tokens[i]);
  }
  return out;
}

void usage_hint(std::ostream& err, const Command& c, const std::string& message) {
  err << "tally: " << message << "\nUsage: " << usage_line(c) << "\nRun `tally " << c.path
      << " --help` for more.\n";
}

}  // namespace

int run_cli(const std::vector<std::string>& arguments, std::istream& in, std::ostream& out,
            std::ostream& err, bool stdin_is_terminal, bool stdout_is_terminal) {
  Located located = locate(arguments);
  bool wants_help = std::any_of(located.rest.begin(), located.rest.end(),
                                [](const std::string& t) { return t == "--help" || t == "-h"; });

  if (located.path.empty() || located.path == "help") {
    // `tally help`, `tally help result enter`: the same as --help on that command.
    if (located.path == "help" && !located.rest.empty()) {
      std::vector<std::string> again = located.rest;
      again.push_back("--help");
      return run_cli(again, in, out, err, stdin_is_terminal, stdout_is_terminal);
    }
    if (located.path.empty() && !wants_help) {
      print_overview(err);
      return kUsage;
    }
    print_overview(out);
    return kOk;
  }

  const Command* command = find_command(located.path);
  if (command == nullptr) {
    if (is_group(located.path)) {
      if (wants_help) {
        print_group_help(out, located.path);
        return kOk;
      }
      // `tally tournament` alone, or `tally tournament bogus`.
      std::string next = located.rest.empty() || located.rest[0][0] == '-' ? "" : located.rest[0];
      err << "tally: "
          << (next.empty() ? "which " + located.path + " command?"
                           : "unknown command \"" + located.path + " " + next + "\"")
          << "\n";
      print_group_help(err, located.path);
      return kUsage;
    }
    err << "tally: unknown command \"" << located.path << "\" (see `tally --help`)\n";
    return kUsage;
  }
  if (wants_help) {
    print_command_help(out, *command);
    return kOk;
  }

  Context ctx(in, out, err);
  ctx.stdin_is_terminal = stdin_is_terminal;
  ctx.stdout_is_terminal = stdout_is_terminal;
  try {
    ctx.args = parse_args(located.rest, options_of(*command));
  } catch (const Failure& f) {
    usage_hint(err, *command, f.what());
    return f.code();
  }
  std::size_t n = ctx.args.positionals.size();
  if (n < command->min_positionals || n > command->max_positionals) {
    std::string message =
        n < command->min_positionals
            ? "missing arguments"
            : "unexpected argument \"" + ctx.args.positionals[command->max_positionals] + "\"";
    usage_hint(err, *command, message);
    return kUsage;
  }
  try {
    StoredConfig stored = read_config(config_path());
    ctx.settings =
        resolve_settings(ctx.args.value("server"), ctx.args.value("token"),
                         ctx.args.value("tournament"), ctx.args.value("ca-file"), stored);
    return command->run(ctx);
  } catch (const Failure& f) {
    if (!std::string(f.what()).empty()) err << "tally: " << f.what() << "\n";
    return f.code();
  } catch (const std::exception& e) {
    err << "tally: " << e.what() << "\n";
    return kUnavailable;
  }
}

}  // namespace tally::cli
