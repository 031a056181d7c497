#include "client/cli/prompt.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"

#include <algorithm>
#include <istream>
#include <ostream>
#include <sstream>

#include <termios.h>
#include <unistd.h>

namespace tally::cli {

std::string Prompter::read_line(const std::string& question) {
  prompts_ << question << std::flush;
  std::string line;
  if (!std::getline(in_, line)) {
    prompts_ << "\n";
    throw usage_error(i18n::Message("cli.prompt.input_ended", {{"question", trim(question)}}));
  }
  if (!terminal_) prompts_ << "\n";  // answers from a pipe are not echoed: keep prompts apart
  return trim(line);
}

std::string Prompter::text(const std::string& question,
                           const std::optional<std::string>& fallback) {
  std::string shown = question + (fallback ? " [" + *fallback + "]" : "") + ": ";
  std::string answer = read_line(shown);
  if (answer.empty() && fallback) return *fallback;
  return answer;
}

std::optional<long long> Prompter::integer(const std::string& question,
                                           const std::optional<long long>& fallback,
                                           bool optional) {
  std::string shown = question;
  if (fallback) shown += " [" + std::to_string(*fallback) + "]";
  if (optional && !fallback) shown += " " + say(lang_, "cli.prompt.enter_to_skip");
  shown += ": ";
  for (;;) {
    std::string answer = read_line(shown);
    if (answer.empty()) {
      if (fallback) return fallback;
      if (optional) return std::nullopt;
      prompts_ << "  " << say(lang_, "cli.prompt.want_whole_number") << "\n";
      continue;
    }
    try {
      std::size_t used = 0;
      long long n = std::stoll(answer, &used);
      if (used == answer.size()) return n;
    } catch (const std::exception&) {
    }
    prompts_ << "  "
             << say(lang_, i18n::Message("cli.prompt.not_whole_number", {{"answer", answer}}))
             << "\n";
  }
}

std::string Prompter::choice(const std::string& question, const std::vector<std::string>& choices,
                             const std::optional<std::string>& fallback) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : "/") + c;
  std::string shown =
      question + " (" + list + ")" + (fallback ? " [" + *fallback + "]" : "") + ": ";
  for (;;) {
    std::string answer = lower(read_line(shown));
    if (answer.empty() && fallback) return *fallback;
    for (const auto& c : choices) {
      if (lower(c) == answer) return c;
    }
    prompts_ << "  " << say(lang_, i18n::Message("cli.prompt.one_of", {{"choices", list}})) << "\n";
  }
}

namespace {

// Whether `answer` is one of the words of `key` (separated by spaces: "a ano"), or of `english`.
bool is_word_of(i18n::Lang lang, const char* key, const std::string& answer,
                std::initializer_list<const char*> english) {
  for (const char* word : english) {
    if (answer == word) return true;
  }
  std::istringstream words(lower(say(lang, key)));
  for (std::string word; words >> word;) {
    if (answer == word) return true;
  }
  return false;
}

}  // namespace

bool Prompter::yes_no(const std::string& question, bool fallback) {
  std::string shown =
      question + " " +
      say(lang_, fallback ? "cli.prompt.yes_no_default_yes" : "cli.prompt.yes_no_default_no") +
      ": ";
  for (;;) {
    std::string answer = lower(read_line(shown));
    if (answer.empty()) return fallback;
    // y/yes and n/no work in every language: scripts pipe them whatever LANG says.
    if (is_word_of(lang_, "cli.prompt.yes_words", answer, {"y", "yes"})) return true;
    if (is_word_of(lang_, "cli.prompt.no_words", answer, {"n", "no"})) return false;
    prompts_ << "  " << say(lang_, "cli.prompt.want_yes_no") << "\n";
  }
}

std::string Prompter::secret(const std::string& question) {
  if (!terminal_) return read_line(question + ": ");
  termios saved{};
  bool hidden = ::tcgetattr(STDIN_FILENO, &saved) == 0;
  if (hidden) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  std::string answer;
  try {
    answer = read_line(question + ": ");
  } catch (...) {
    if (hidden) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    throw;
  }
  if (hidden) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    prompts_ << "\n";
  }
  return answer;
}

}  // namespace tally::cli
