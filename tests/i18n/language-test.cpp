// Who chooses the language: Accept-Language (RFC 9110 §12.5.4), a tag or locale, the environment.
#include "i18n/language.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace tally::i18n {
namespace {

TEST(ParseLanguage, TakesThePrimarySubtagOfTagsAndPosixLocales) {
  EXPECT_EQ(parse_language("cs"), Lang::cs);
  EXPECT_EQ(parse_language("CS-cz"), Lang::cs);
  EXPECT_EQ(parse_language("it_IT.UTF-8"), Lang::it);
  EXPECT_EQ(parse_language("ru_RU@euro"), Lang::ru);
  EXPECT_EQ(parse_language("en"), Lang::en);
  EXPECT_EQ(parse_language("de"), std::nullopt);
  EXPECT_EQ(parse_language("C"), std::nullopt);
  EXPECT_EQ(parse_language(""), std::nullopt);
  EXPECT_EQ(parse_language("css"), std::nullopt);  // not a prefix match
}

TEST(Negotiate, TheHighestQualityOfOursWinsTiesByOrder) {
  EXPECT_EQ(negotiate("cs"), Lang::cs);
  EXPECT_EQ(negotiate("de, it;q=0.5, ru;q=0.4"), Lang::it);
  EXPECT_EQ(negotiate("ru;q=0.4, it;q=0.5"), Lang::it);
  EXPECT_EQ(negotiate("it, ru"), Lang::it);
  EXPECT_EQ(negotiate("cs-CZ,cs;q=0.9,en;q=0.8"), Lang::cs);
  EXPECT_EQ(negotiate("en;q=0.1, cs;q=0"), Lang::en);  // q=0: "not this one"
  EXPECT_EQ(negotiate("de, fr"), std::nullopt);
  EXPECT_EQ(negotiate(""), std::nullopt);
  EXPECT_EQ(negotiate("de", Lang::ru), Lang::ru);
}

TEST(Negotiate, AMalformedQualityIsIgnored) {
  EXPECT_EQ(negotiate("cs;q=2, it;q=0.5"), Lang::it);
  EXPECT_EQ(negotiate("cs;q=abc, ru"), Lang::ru);
}

TEST(FromEnvironment, LcAllThenLcMessagesThenLang) {
  ::setenv("LC_ALL", "", 1);
  ::setenv("LC_MESSAGES", "ru_RU.UTF-8", 1);
  ::setenv("LANG", "it_IT.UTF-8", 1);
  EXPECT_EQ(from_environment(), Lang::ru);
  ::setenv("LC_ALL", "cs_CZ.UTF-8", 1);
  EXPECT_EQ(from_environment(), Lang::cs);
  ::setenv("LC_ALL", "C", 1);
  EXPECT_EQ(from_environment(), Lang::en);
  ::unsetenv("LC_ALL");
  ::unsetenv("LC_MESSAGES");
  EXPECT_EQ(from_environment(), Lang::it);
  ::unsetenv("LANG");
  EXPECT_EQ(from_environment(), Lang::en);
}

}  // namespace
}  // namespace tally::i18n
