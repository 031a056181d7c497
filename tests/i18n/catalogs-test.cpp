// The built-in catalogs are complete: every key in all four languages with the same arguments,
// every pattern valid ICU MessageFormat, every key used by the code, and the code's keys all in
// the catalogs. (The pages' catalogs have their own test in tests/browser.)
#include "i18n/catalog.hpp"
#include "tests/i18n/pattern_args.hpp"

#include <gtest/gtest.h>
#include <unicode/msgfmt.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace tally::i18n {
namespace {

namespace fs = std::filesystem;
const Catalogs& catalogs() { return Catalogs::builtin(); }

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every string literal of the C++ sources that render messages (tests excluded: a key only a test
// names is not used).
const std::set<std::string>& literals() {
  static const std::set<std::string> found = [] {
    std::set<std::string> out;
    const std::regex literal(R"re("((?:[^"\\\n]|\\.)*)")re");
    for (const char* dir : {"i18n", "text", "schema", "events", "projections", "deciders", "daemon",
                            "net", "client"}) {
      for (const auto& entry : fs::recursive_directory_iterator(fs::path(TALLY_SOURCE_DIR) / dir)) {
        auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp") continue;
        std::string text = read(entry.path());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), literal);
             it != std::sregex_iterator(); ++it) {
          out.insert((*it)[1].str());
        }
      }
    }
    return out;
  }();
  return found;
}

// A key is used when the code names it, or names a family it belongs to: a literal prefix ending
// in '.' or '-' from which the code builds keys ("api.status." + code, "agot.house." + id).
bool used(const std::string& key) {
  if (literals().count(key)) return true;
  for (std::size_t cut = key.find_first_of(".-"); cut != std::string::npos;
       cut = key.find_first_of(".-", cut + 1)) {
    std::string prefix = key.substr(0, cut + 1);
    if (prefix.find('.') != std::string::npos && literals().count(prefix)) return true;
  }
  return false;
}

TEST(Catalogs, EveryKeyIsInEveryLanguageWithTheSameArguments) {
  std::vector<std::string> problems;
  std::set<std::string> all;
  for (Lang lang : kLanguages) {
    for (const auto& key : catalogs().keys(lang)) all.insert(key);
  }
  for (const auto& key : all) {
    const std::string* english = catalogs().pattern(Lang::en, key);
    auto english_args = english ? testing::argument_names(*english) : std::nullopt;
    for (Lang lang : kLanguages) {
      const std::string* pattern = catalogs().pattern(lang, key);
      if (pattern == nullptr) {
        problems.push_back(std::string(code(lang)) + ": missing " + key);
        continue;
      }
      auto args = testing::argument_names(*pattern);
      if (!args) {
        problems.push_back(std::string(code(lang)) + ": unbalanced braces in " + key);
      } else if (english_args && *args != *english_args) {
        problems.push_back(std::string(code(lang)) + ": " + key + " has other arguments than en");
      }
      UErrorCode status = U_ZERO_ERROR;
      icu::MessageFormat format(icu::UnicodeString::fromUTF8(*pattern),
                                icu::Locale(std::string(code(lang)).c_str()), status);
      if (U_FAILURE(status)) {
        problems.push_back(std::string(code(lang)) + ": " + key + " is not ICU MessageFormat (" +
                           u_errorName(status) + ")");
      }
    }
  }
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
  EXPECT_GT(all.size(), 100u) << "the catalogs are built in";
}

TEST(Catalogs, EveryKeyIsUsedByTheCode) {
  std::vector<std::string> unused;
  for (const auto& key : catalogs().keys(Lang::en)) {
    if (!used(key)) unused.push_back(key);
  }
  EXPECT_TRUE(unused.empty()) << "keys nobody uses: " << ::testing::PrintToString(unused);
}

// A literal shaped like one of our keys ("catan.C-7.holder", "api.not_found") must be in the
// catalogs: a typo in a key would otherwise show the key to a person.
TEST(Catalogs, EveryKeyTheCodeNamesExists) {
  const std::regex key_shape(
      R"(^(rules|schema|catan|agot|carcassonne|api|cli)\.[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$)");
  std::vector<std::string> missing;
  for (const auto& literal : literals()) {
    if (!std::regex_match(literal, key_shape)) continue;
    if (!catalogs().has(Lang::en, literal)) missing.push_back(literal);
  }
  EXPECT_TRUE(missing.empty()) << "keys the code names that no catalog has: "
                               << ::testing::PrintToString(missing);
}

}  // namespace
}  // namespace tally::i18n
