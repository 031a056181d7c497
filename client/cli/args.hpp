// The command line after the command words: options (`--name value`, `--name=value`, `-t value`,
// flags) and positional arguments. Options are declared per command, so a misspelt option is a
// usage error rather than something silently ignored.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tally::cli {

struct OptionSpec {
  std::string name;        // without the dashes: "server"
  char short_name = 0;     // 't' for -t, or 0
  std::string value_name;  // "URL"; empty for a flag that takes no value
  std::string help;        // a cli catalog key ("cli.option.server"), rendered in --help
  bool repeatable = false;
};

class Args {
 public:
  std::vector<std::string> positionals;

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // The option's value (the last one given), or nullopt.
  std::optional<std::string> value(const std::string& name) const;
  // Every value of a repeatable option, in command-line order.
  std::vector<std::string> values(const std::string& name) const;
  void add(const std::string& name, std::string value) {
    values_[name].push_back(std::move(value));
  }

 private:
  std::map<std::string, std::vector<std::string>> values_;
};

// Parses `tokens`; throws Failure(kUsage) on an unknown option, a missing value, or a
// non-repeatable option given twice. "--" ends the options.
Args parse_args(const std::vector<std::string>& tokens, const std::vector<OptionSpec>& specs);

}  // namespace tally::cli
