#include "client/cli/app.hpp"

#include "client/cli/command.hpp"
#include "client/cli/say.hpp"

#include <algorithm>
#include <optional>
#include <ostream>
#include <set>

namespace tally::cli {

namespace {

const std::vector<OptionSpec>& global_options() {
  static const std::vector<OptionSpec> options = {
      {"server", 0, "URL", "cli.option.server"},   {"token", 0, "TOKEN", "cli.option.token"},
      {"ca-file", 0, "PEM", "cli.option.ca_file"}, {"lang", 0, "LANG", "cli.option.lang"},
      {"help", 'h', "", "cli.option.help"},
  };
  return options;
}

const OptionSpec& tournament_option() {
  static const OptionSpec option{"tournament", 't', "ID", "cli.option.tournament"};
  return option;
}

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = [] {
    std::vector<Command> out;
    for (auto group : {login_commands, judge_commands, tournament_commands, player_commands,
                       round_commands, result_commands, sync_commands, table_action_commands,
                       score_commands, standings_commands, stage_commands, series_commands,
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

// The help of an option; the server's default address is named in the --server one.
std::string option_help(i18n::Lang lang, const OptionSpec& o) {
  i18n::Message help(o.help);
  if (o.name == "server") help.with("default", std::string(kDefaultServer));
  if (o.repeatable) {
    return say(lang, i18n::Message("cli.help.repeatable", {{"help", say(lang, help)}}));
  }
  return say(lang, help);
}

void print_options(std::ostream& out, i18n::Lang lang, const std::vector<OptionSpec>& options) {
  std::size_t width = 0;
  for (const auto& o : options) width = std::max(width, option_label(o).size());
  for (const auto& o : options) {
    std::string label = option_label(o);
    out << "  " << label << std::string(width - label.size() + 2, ' ') << option_help(lang, o)
        << "\n";
  }
}

std::string usage_line(const Command& c) {
  return "tally " + c.path + (c.arguments.empty() ? "" : " " + c.arguments);
}

void print_command_help(std::ostream& out, i18n::Lang lang, const Command& c) {
  out << say(lang, i18n::Message("cli.help.usage", {{"usage", usage_line(c)}})) << "\n\n"
      << say(lang, c.summary) << "\n";
  if (!c.details.empty()) out << "\n" << say(lang, c.details) << "\n";
  if (!c.options.empty()) {
    out << "\n" << say(lang, "cli.help.options") << "\n";
    print_options(out, lang, c.options);
  }
  out << "\n" << say(lang, "cli.help.global_options") << "\n";
  std::vector<OptionSpec> globals;
  if (c.uses_tournament) globals.push_back(tournament_option());
  for (const auto& g : global_options()) globals.push_back(g);
  print_options(out, lang, globals);
  // A command that is also a group (pick, score) lists its subcommands.
  bool first = true;
  for (const auto& sub : all_commands()) {
    if (sub.path.rfind(c.path + " ", 0) != 0) continue;
    if (first) out << "\n" << say(lang, "cli.help.subcommands") << "\n";
    first = false;
    out << "  " << usage_line(sub) << "\n      " << say(lang, sub.summary) << "\n";
  }
}

void print_group_help(std::ostream& out, i18n::Lang lang, const std::string& group) {
  out << say(lang, i18n::Message("cli.help.group_usage", {{"group", group}})) << "\n\n"
      << say(lang, "cli.help.commands") << "\n";
  for (const auto& c : all_commands()) {
    if (c.path.rfind(group + " ", 0) == 0) {
      out << "  " << usage_line(c) << "\n      " << say(lang, c.summary) << "\n";
    }
  }
  out << "\n" << say(lang, i18n::Message("cli.help.group_more", {{"group", group}})) << "\n";
}

void print_overview(std::ostream& out, i18n::Lang lang) {
  out << say(lang, "cli.help.overview_usage") << "\n\n"
      << say(lang, "cli.help.overview_about") << "\n\n"
      << say(lang, "cli.help.commands") << "\n";
  std::size_t width = 0;
  for (const auto& c : all_commands()) width = std::max(width, c.path.size());
  for (const auto& c : all_commands()) {
    out << "  " << c.path << std::string(width - c.path.size() + 2, ' ') << say(lang, c.summary)
        << "\n";
  }
  out << "\n" << say(lang, "cli.help.global_options") << "\n";
  std::vector<OptionSpec> globals{tournament_option()};
  for (const auto& g : global_options()) globals.push_back(g);
  print_options(out, lang, globals);
  out << "\n" << say(lang, "cli.help.overview_more") << "\n";
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
  return token == "--server" || token == "--token" || token == "--ca-file" || token == "--lang" ||
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

void usage_hint(std::ostream& err, i18n::Lang lang, const Command& c,
                const i18n::Message& message) {
  err << "tally: " << say(lang, message) << "\n"
      << say(lang, i18n::Message("cli.help.usage", {{"usage", usage_line(c)}})) << "\n"
      << say(lang, i18n::Message("cli.help.usage_more", {{"command", c.path}})) << "\n";
}

// The value of --lang (the last one given before "--"), if any.
std::optional<std::string> lang_option(const std::vector<std::string>& tokens) {
  std::optional<std::string> value;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == "--") break;
    if (tokens[i] == "--lang" && i + 1 < tokens.size()) {
      value = tokens[++i];
    } else if (tokens[i].rfind("--lang=", 0) == 0) {
      value = tokens[i].substr(7);
    }
  }
  return value;
}

}  // namespace

int run_cli(const std::vector<std::string>& arguments, std::istream& in, std::ostream& out,
            std::ostream& err, bool stdin_is_terminal, bool stdout_is_terminal) {
  // The language first, so that even a usage error is in it: --lang, else the environment.
  i18n::Lang lang = i18n::from_environment();
  if (auto wanted = lang_option(arguments)) {
    auto chosen = i18n::parse_language(*wanted);
    if (!chosen) {
      err << "tally: " << say(lang, i18n::Message("cli.error.bad_lang", {{"lang", *wanted}}))
          << "\n";
      return kUsage;
    }
    lang = *chosen;
  }
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
      print_overview(err, lang);
      return kUsage;
    }
    print_overview(out, lang);
    return kOk;
  }

  const Command* command = find_command(located.path);
  if (command == nullptr) {
    if (is_group(located.path)) {
      if (wants_help) {
        print_group_help(out, lang, located.path);
        return kOk;
      }
      // `tally tournament` alone, or `tally tournament bogus`.
      std::string next = located.rest.empty() || located.rest[0][0] == '-' ? "" : located.rest[0];
      i18n::Message what = next.empty()
                               ? i18n::Message("cli.error.which_command", {{"group", located.path}})
                               : i18n::Message("cli.error.unknown_command",
                                               {{"command", located.path + " " + next}});
      err << "tally: " << say(lang, what) << "\n";
      print_group_help(err, lang, located.path);
      return kUsage;
    }
    err << "tally: "
        << say(lang,
               i18n::Message("cli.error.unknown_command_see_help", {{"command", located.path}}))
        << "\n";
    return kUsage;
  }
  if (wants_help) {
    print_command_help(out, lang, *command);
    return kOk;
  }

  Context ctx(in, out, err);
  ctx.stdin_is_terminal = stdin_is_terminal;
  ctx.stdout_is_terminal = stdout_is_terminal;
  ctx.lang = lang;
  try {
    ctx.args = parse_args(located.rest, options_of(*command));
  } catch (const Failure& f) {
    usage_hint(err, lang, *command, f.message());
    return f.code();
  }
  std::size_t n = ctx.args.positionals.size();
  if (n < command->min_positionals || n > command->max_positionals) {
    i18n::Message message =
        n < command->min_positionals
            ? i18n::Message("cli.error.missing_arguments")
            : i18n::Message("cli.error.unexpected_argument",
                            {{"argument", ctx.args.positionals[command->max_positionals]}});
    usage_hint(err, lang, *command, message);
    return kUsage;
  }
  try {
    StoredConfig stored = read_config(config_path());
    ctx.settings =
        resolve_settings(ctx.args.value("server"), ctx.args.value("token"),
                         ctx.args.value("tournament"), ctx.args.value("ca-file"), stored);
    return command->run(ctx);
  } catch (const Failure& f) {
    if (!f.message().empty()) err << "tally: " << say(lang, f.message()) << "\n";
    return f.code();
  } catch (const std::exception& e) {
    // Not ours: a library's own text (JSON of an unexpected shape, say), shown as it is.
    err << "tally: " << e.what() << "\n";
    return kUnavailable;
  }
}

}  // namespace tally::cli
