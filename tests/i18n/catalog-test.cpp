// Rendering a Message with ICU: real plural rules, numbers and lists in each language, players
// by name, a missing translation falling back to English.
#include "i18n/catalog.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace tally::i18n {
namespace {

const Catalogs& sample() {
  static const Catalogs catalogs({
      {"t.en", R"j({"tables": "{count, plural, one {# table} other {# tables}}",
                   "holds": "{holder} holds {title} with {count, plural, one {# knight} other {# knights}}",
                   "title": "Largest Army", "share": "{share} VP", "tied": "{players} are tied",
                   "only_en": "English only", "houses": "accepted: {houses}", "stark": "Stark",
                   "tyrell": "Tyrell", "sum": "the knights add up to 15 ({counts})",
                   "notice": "round {round}, table {table}: {inner}"})j"},
      {"t.cs",
       R"j({"tables": "{count, plural, one {# stůl} few {# stoly} many {# stolu} other {# stolů}}",
                   "holds": "{holder} drží {title} s {count, plural, one {# rytířem} other {# rytíři}}",
                   "title": "Největší vojsko", "share": "{share} VB", "tied": "{players} mají stejně",
                   "houses": "přijatelné: {houses}", "stark": "Stark", "tyrell": "Tyrell",
                   "sum": "rytířů je celkem 15 ({counts})", "notice": "kolo {round}, stůl {table}: {inner}"})j"},
      {"t.it", R"j({"tables": "{count, plural, one {# tavolo} other {# tavoli}}",
                   "holds": "{holder} ha {title} con {count, plural, one {# cavaliere} other {# cavalieri}}",
                   "title": "Esercito più numeroso", "share": "{share} PV", "tied": "{players} sono pari"})j"},
      {"t.ru",
       R"j({"tables": "{count, plural, one {# стол} few {# стола} many {# столов} other {# стола}}",
                   "holds": "{holder}: {title}, {count, plural, one {# рыцарь} few {# рыцаря} many {# рыцарей} other {# рыцаря}}",
                   "title": "Самое большое войско", "share": "{share} ПО", "tied": "{players} — поровну"})j"},
  });
  return catalogs;
}

std::string tables(Lang lang, int n) {
  return sample().render(lang, Message("tables", {{"count", n}}));
}

TEST(Render, CzechPluralsHaveOneFewAndOther) {
  EXPECT_EQ(tables(Lang::cs, 1), "1 stůl");
  EXPECT_EQ(tables(Lang::cs, 2), "2 stoly");
  EXPECT_EQ(tables(Lang::cs, 4), "4 stoly");
  EXPECT_EQ(tables(Lang::cs, 5), "5 stolů");
  EXPECT_EQ(tables(Lang::cs, 22), "22 stolů");  // Czech "few" is 2–4 only, not 22
}

TEST(Render, RussianPluralsFollowTheLastDigits) {
  EXPECT_EQ(tables(Lang::ru, 1), "1 стол");
  EXPECT_EQ(tables(Lang::ru, 2), "2 стола");
  EXPECT_EQ(tables(Lang::ru, 5), "5 столов");
  EXPECT_EQ(tables(Lang::ru, 11), "11 столов");
  EXPECT_EQ(tables(Lang::ru, 21), "21 стол");
  EXPECT_EQ(tables(Lang::ru, 22), "22 стола");
}

TEST(Render, ItalianAndEnglishHaveOneAndOther) {
  EXPECT_EQ(tables(Lang::it, 1), "1 tavolo");
  EXPECT_EQ(tables(Lang::it, 2), "2 tavoli");
  EXPECT_EQ(tables(Lang::en, 1), "1 table");
  EXPECT_EQ(tables(Lang::en, 0), "0 tables");
}

TEST(Render, PlayersByNameAndTermsInTheLanguage) {
  Namer names = [](std::string_view id) { return id == "p4" ? "Jana Nováková" : std::string(id); };
  Message m("holds", {{"holder", PlayerRef{"p4"}}, {"title", Term{"title"}}, {"count", 1}});
  EXPECT_EQ(sample().render(Lang::en, m, names), "Jana Nováková holds Largest Army with 1 knight");
  EXPECT_EQ(sample().render(Lang::cs, m, names), "Jana Nováková drží Největší vojsko s 1 rytířem");
  EXPECT_EQ(sample().render(Lang::ru, m), "p4: Самое большое войско, 1 рыцарь");
}

TEST(Render, ListsOfPlayersInTheLanguagesOwnWay) {
  Message m("tied", {{"players", PlayerList{{"Eva", "Petr", "Jana"}}}});
  EXPECT_EQ(sample().render(Lang::en, m), "Eva, Petr, and Jana are tied");
  // Czech typography: a one-letter conjunction is bound to the next word (no-break space).
  EXPECT_EQ(sample().render(Lang::cs, m), "Eva, Petr a\u00A0Jana mají stejně");
  EXPECT_EQ(sample().render(Lang::it, m), "Eva, Petr e Jana sono pari");
  EXPECT_EQ(sample().render(Lang::ru, m), "Eva, Petr и Jana — поровну");
}

TEST(Render, TermListsJoinedByOrInTheLanguage) {
  Message m("houses", {{"houses", TermList{{"stark", "tyrell"}, Joiner::or_}}});
  EXPECT_EQ(sample().render(Lang::en, m), "accepted: Stark or Tyrell");
  EXPECT_EQ(sample().render(Lang::cs, m), "přijatelné: Stark nebo Tyrell");
}

TEST(Render, PlayerCountsAndNestedMessagesByName) {
  Namer names = [](std::string_view id) { return id == "p1" ? "Eva" : "Petr"; };
  Message sum("sum", {{"counts", PlayerCounts{{{"p1", 12}, {"p2", 3}}}}});
  EXPECT_EQ(sample().render(Lang::en, sum, names), "the knights add up to 15 (Eva 12 and Petr 3)");
  Message notice("notice", {{"round", 1}, {"table", 2}, {"inner", nested(sum)}});
  EXPECT_EQ(sample().render(Lang::cs, notice, names),
            "kolo 1, stůl 2: rytířů je celkem 15 (Eva 12 a\u00A0Petr 3)");
}

TEST(Render, DecimalsWithTheLanguagesSeparator) {
  Message m("share", {{"share", Decimal{2.5, 2}}});
  EXPECT_EQ(sample().render(Lang::en, m), "2.50 VP");
  EXPECT_EQ(sample().render(Lang::cs, m), "2,50 VB");
  EXPECT_EQ(sample().render(Lang::it, m), "2,50 PV");
  EXPECT_EQ(sample().render(Lang::ru, m), "2,50 ПО");
}

TEST(Render, AMissingTranslationFallsBackToEnglishAndAnUnknownKeyShowsItself) {
  EXPECT_EQ(sample().render(Lang::cs, Message("only_en")), "English only");
  EXPECT_EQ(sample().render(Lang::cs, Message("nowhere")), "nowhere");
  EXPECT_EQ(sample().render(Lang::cs, Message::verbatim("as is {x}")), "as is {x}");
}

TEST(Catalogs, AKeyTwiceOrAnUnknownLanguageIsRefusedByName) {
  using Files = std::vector<std::pair<std::string, std::string>>;
  EXPECT_THROW(Catalogs(Files{{"a.en", R"({"k":"1"})"}, {"b.en", R"({"k":"2"})"}}),
               std::runtime_error);
  EXPECT_THROW(Catalogs(Files{{"a.de", R"({"k":"1"})"}}), std::runtime_error);
  EXPECT_THROW(Catalogs(Files{{"a.en", R"({"k":1})"}}), std::runtime_error);
  EXPECT_THROW(Catalogs(Files{{"a.en", R"([1])"}}), std::runtime_error);
}

TEST(Render, IsSafeFromManyThreadsAtOnce) {
  std::vector<std::thread> threads;
  std::atomic<int> wrong = 0;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        if (tables(Lang::cs, 5) != "5 stolů") ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace tally::i18n
