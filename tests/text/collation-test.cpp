#include "text/collation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace tally::text {
namespace {

std::vector<std::string> sorted(std::vector<std::string> names, const std::string& locale) {
  Collation c(locale);
  std::sort(names.begin(), names.end(),
            [&](const auto& a, const auto& b) { return c.compare(a, b) < 0; });
  return names;
}

TEST(Collation, CzechPutsChAfterHAndCaronLettersAfterTheirBase) {
  EXPECT_EQ(sorted({"Chalupa", "Hora", "Cibulka", "Čermák", "Dvořák"}, "cs"),
            (std::vector<std::string>{"Cibulka", "Čermák", "Dvořák", "Hora", "Chalupa"}));
}

TEST(Collation, RootOrderIgnoresCaseFirstAndKeepsAccentsNearTheirLetter) {
  EXPECT_EQ(sorted({"Zeno", "élan", "Eva", "adam"}, ""),
            (std::vector<std::string>{"adam", "élan", "Eva", "Zeno"}));
}

TEST(Collation, RussianCyrillicAlphabet) {
  EXPECT_EQ(sorted({"Яковлев", "Ёлкин", "Борисов", "Ежов", "Жуков"}, "ru"),
            (std::vector<std::string>{"Борисов", "Ежов", "Ёлкин", "Жуков", "Яковлев"}));
}

TEST(Collation, SortKeysOrderLikeCompare) {
  Collation c("cs");
  EXPECT_LT(c.sort_key("Hora"), c.sort_key("Chalupa"));
  EXPECT_LT(c.sort_key("Cibulka"), c.sort_key("Čermák"));
  EXPECT_EQ(c.compare("Hora", "Hora"), 0);
}

TEST(Collation, UnknownLocalesFallBackToRoot) {
  EXPECT_TRUE(is_known_collation_locale("cs"));
  EXPECT_TRUE(is_known_collation_locale(""));
  EXPECT_FALSE(is_known_collation_locale("xx"));
  Collation c("xx");
  EXPECT_LT(c.compare("a", "b"), 0);
}

}  // namespace
}  // namespace tally::text
