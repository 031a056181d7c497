// Questions asked on the terminal (or answered through a pipe): prompts go to stderr so that
// stdout carries only results. The end of the input before an answer is Failure(kUsage). The
// questions come from the caller (already in the user's language); what the Prompter adds — its
// hints, "[Y/n]", its complaints — is in `lang`, and yes/no take the language's words as well as
// y/yes and n/no.
#pragma once

#include "i18n/language.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tally::cli {

class Prompter {
 public:
  // `terminal` is true when `in` is a terminal (then a secret is read without echo).
  Prompter(std::istream& in, std::ostream& prompts, bool terminal, i18n::Lang lang)
      : in_(in), prompts_(prompts), terminal_(terminal), lang_(lang) {}

  i18n::Lang lang() const { return lang_; }

  // A line of text, trimmed; an empty answer gives `fallback` when there is one.
  std::string text(const std::string& question, const std::optional<std::string>& fallback = {});
  // A whole number; asks again until it gets one. An empty answer gives `fallback` when there
  // is one, or nullopt when `optional`.
  std::optional<long long> integer(const std::string& question,
                                   const std::optional<long long>& fallback = {},
                                   bool optional = false);
  // One of `choices` (case-insensitive), asking again until it gets one.
  std::string choice(const std::string& question, const std::vector<std::string>& choices,
                     const std::optional<std::string>& fallback = {});
  // yes / no; an empty answer gives `fallback`.
  bool yes_no(const std::string& question, bool fallback);
  // A line read without echo when the input is a terminal.
  std::string secret(const std::string& question);

 private:
  std::string read_line(const std::string& question);
  std::istream& in_;
  std::ostream& prompts_;
  bool terminal_;
  i18n::Lang lang_;
};

}  // namespace tally::cli
