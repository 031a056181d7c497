#include "client/cli/args.hpp"

#include "client/cli/exit_codes.hpp"

namespace tally::cli {

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

namespace {

const OptionSpec* find_long(const std::vector<OptionSpec>& specs, const std::string& name) {
  for (const auto& s : specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Failure unknown_option(const std::string& option) {
  return usage_error(i18n::Message("cli.args.unknown_option", {{"option", option}}));
}

const OptionSpec* find_short(const std::vector<OptionSpec>& specs, char c) {
  for (const auto& s : specs) {
    if (s.short_name != 0 && s.short_name == c) return &s;
  }
  return nullptr;
}

}  // namespace

Args parse_args(const std::vector<std::string>& tokens, const std::vector<OptionSpec>& specs) {
  Args args;
  bool options_ended = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    // A lone "-" is a positional (stdin); so is anything after "--", and negative numbers.
    bool looks_like_option = !options_ended && token.size() > 1 && token[0] == '-' &&
                             !(token[1] >= '0' && token[1] <= '9');
    if (!looks_like_option) {
      args.positionals.push_back(token);
      continue;
    }
    if (token == "--") {
      options_ended = true;
      continue;
    }
    const OptionSpec* spec = nullptr;
    std::optional<std::string> inline_value;
    if (token[1] == '-') {
      std::string name = token.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      spec = find_long(specs, name);
      if (spec == nullptr) throw unknown_option("--" + name);
    } else {
      if (token.size() != 2) throw unknown_option(token);
      spec = find_short(specs, token[1]);
      if (spec == nullptr) throw unknown_option(token);
    }
    std::string option = "--" + spec->name;
    if (args.has(spec->name) && !spec->repeatable) {
      throw usage_error(i18n::Message("cli.args.given_twice", {{"option", option}}));
    }
    if (spec->value_name.empty()) {
      if (inline_value) throw usage_error(i18n::Message("cli.args.no_value", {{"option", option}}));
      args.add(spec->name, "");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= tokens.size()) {
        throw usage_error(i18n::Message("cli.args.needs_value",
                                        {{"option", option}, {"value", spec->value_name}}));
      }
      inline_value = tokens[++i];
    }
    args.add(spec->name, *inline_value);
  }
  return args;
}

}  // namespace tally::cli
