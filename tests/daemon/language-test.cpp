// The daemon speaks the reader's language (docs/api.md "Languages"), through the real tallyd over
// HTTP: Accept-Language (with q-values) chooses the language of a problem's `title`, `detail` and
// each error's `message`; without one, a tournament's resources answer in its `locale`; the
// machine fields never change; the texts name players by name, never by id.
#include "i18n/catalog.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/json_settled.hpp"
#include "tests/support/problem.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using i18n::Lang;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};
const std::vector<std::pair<std::string, std::string>> kPlayers = {
    {"p1", "Jana Nováková"}, {"p2", "Petr Svoboda"}, {"p3", "Eva Dvořáková"}, {"p4", "Ota Král"}};

std::string str(const json::value& v) { return std::string(v.as_string()); }

// A key of the built-in catalogs as the daemon renders it (no arguments).
std::string text(Lang lang, std::string_view key) {
  return i18n::Catalogs::builtin().text(lang, key);
}
std::string render(Lang lang, const i18n::Message& message) {
  return i18n::Catalogs::builtin().render(lang, message, [](std::string_view id) {
    for (const auto& [pid, name] : kPlayers) {
      if (pid == id) return name;
    }
    return std::string(id);
  });
}

// One player's Catan sheet: two settlements, roads and nothing else (2 VP).
json::object sheet(const std::string& player, int roads = 2, int longest_road = 1) {
  return {{"player", player},
          {"settlements", 2},
          {"cities", 0},
          {"vp_cards", 0},
          {"knights", 0},
          {"roads", roads},
          {"longest_road", longest_road},
          {"largest_army", false},
          {"longest_road_holder", false}};
}

// A result Jana's sheet breaks: her longest road (5) is longer than the 3 roads she built (C-8).
json::object refused_result() {
  return {{"players", json::array{sheet("p1", 3, 5), sheet("p2"), sheet("p3"), sheet("p4")}}};
}

// The machine fields of a problem's errors, which no language changes.
using Machine = std::tuple<std::string, std::string, std::string>;
std::vector<Machine> machine_fields(const json::value& problem) {
  std::vector<Machine> out;
  for (const auto& e : problem.at("errors").as_array()) {
    const auto& o = e.as_object();
    out.emplace_back(str(o.at("rule")), o.contains("player") ? str(o.at("player")) : "",
                     o.contains("field") ? str(o.at("field")) : "");
  }
  return out;
}

// The message of the error with `rule` (empty when there is none).
std::string message_of(const json::value& problem, const std::string& rule) {
  for (const auto& e : problem.at("errors").as_array()) {
    if (str(e.at("rule")) == rule) return str(e.at("message"));
  }
  return "";
}

class Language : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"));
    daemon_->start();
    judge_token_ =
        str(organizer().post("/v1/judges", json::object{{"name", "Eva"}}).json().at("token"));
  }

  HttpClient organizer() { return daemon_->organizer(); }
  HttpClient judge() { return daemon_->client(judge_token_); }

  // A Catan tournament with the four players at one table of round 1.
  void catan(const std::string& id, const std::string& locale) {
    auto org = organizer();
    json::object body{{"id", id}, {"name", "Brno"}, {"game", "catan"}};
    if (!locale.empty()) body["locale"] = locale;
    ASSERT_EQ(org.post("/v1/tournaments", body).status, 201);
    for (const auto& [pid, name] : kPlayers) {
      auto r =
          org.post("/v1/tournaments/" + id + "/players", json::object{{"id", pid}, {"name", name}});
      ASSERT_EQ(r.status, 201) << r.body;
    }
    auto seated =
        org.post("/v1/tournaments/" + id + "/rounds",
                 json::object{{"method", "manual"},
                              {"tables", json::array{json::array{"p1", "p2", "p3", "p4"}}}});
    ASSERT_EQ(seated.status, 201) << seated.body;
  }

  static std::string result_path(const std::string& t) {
    return "/v1/tournaments/" + t + "/rounds/1/tables/1/result";
  }

  // The refused result, sent with `accept_language` (none when empty).
  HttpReply refused(const std::string& t, const std::string& accept_language) {
    auto headers = kFirstEntry;
    if (!accept_language.empty()) headers["Accept-Language"] = accept_language;
    return judge().put(result_path(t), refused_result(), headers);
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
  std::string judge_token_;
};

TEST_F(Language, ARefusedResultSpeaksTheReadersLanguageAndNamesThePlayerByName) {
  catan("brno", "cs");
  struct Asked {
    std::string header;
    Lang lang;
  };
  // No header: the tournament's locale, Czech.
  const std::vector<Asked> asked = {
      {"cs", Lang::cs}, {"it", Lang::it}, {"ru", Lang::ru}, {"en", Lang::en}, {"", Lang::cs}};
  std::optional<std::vector<Machine>> machine;
  std::map<Lang, std::string> messages;
  for (const auto& [header, lang] : asked) {
    SCOPED_TRACE("Accept-Language: " + header);
    auto r = refused("brno", header);
    expect_problem(r, 422);
    if (r.status != 422) continue;
    EXPECT_EQ(r.header("Content-Language"), i18n::code(lang));
    EXPECT_NE(r.header("Vary").find("Accept-Language"), std::string::npos) << r.header("Vary");
    const json::value body = r.json();
    EXPECT_EQ(str(body.at("title")), text(lang, "api.status.422"));
    EXPECT_EQ(str(body.at("detail")), text(lang, "api.table.result_breaks_rules"));
    EXPECT_EQ(body.at("type"), "about:blank");
    // The machine fields: the same in every language.
    if (!machine) machine = machine_fields(body);
    EXPECT_EQ(machine_fields(body), *machine);
    // The message: Jana by her name, never by her id.
    const std::string message = message_of(body, "C-8");
    EXPECT_NE(message.find("Jana Nováková"), std::string::npos) << message;
    EXPECT_EQ(message.find("p1"), std::string::npos) << message;
    if (!header.empty()) messages[lang] = message;
    if (header.empty()) {
      EXPECT_EQ(message, messages[Lang::cs]);
    }
  }
  ASSERT_TRUE(machine.has_value());
  EXPECT_EQ(*machine, (std::vector<Machine>{{"C-8", "p1", "longest_road"}}));
  // Four languages, four different messages.
  std::set<std::string> distinct;
  for (const auto& [lang, message] : messages) distinct.insert(message);
  EXPECT_EQ(distinct.size(), 4u) << ::testing::PrintToString(messages);
  // Nothing of it was recorded.
  auto round = organizer().get("/v1/tournaments/brno/rounds/1").json();
  EXPECT_EQ(round.at("tables").at(0).at("status"), "open");
}

TEST_F(Language, QValuesChooseAndATournamentWithoutAKnownLocaleSpeaksEnglish) {
  catan("brno", "cs");
  catan("open", "");
  // The best of ours by q: Italian (German is not ours).
  auto italian = refused("brno", "de, it;q=0.5");
  EXPECT_EQ(italian.header("Content-Language"), "it");
  EXPECT_EQ(str(italian.json().at("detail")), text(Lang::it, "api.table.result_breaks_rules"));
  auto russian = refused("brno", "it;q=0.2, ru;q=0.9, en;q=0.5");
  EXPECT_EQ(russian.header("Content-Language"), "ru");
  // q=0 refuses a language: the next one is taken.
  auto english = refused("brno", "cs;q=0, en");
  EXPECT_EQ(english.header("Content-Language"), "en");
  // None of ours: the tournament's locale, else English.
  EXPECT_EQ(refused("brno", "de, fr;q=0.8").header("Content-Language"), "cs");
  EXPECT_EQ(refused("open", "de").header("Content-Language"), "en");
  EXPECT_EQ(refused("open", "").header("Content-Language"), "en");
  EXPECT_EQ(refused("open", "").json().at("detail"), "the result breaks the rules");
  // A region or a script does not matter: cs-CZ is Czech.
  EXPECT_EQ(refused("open", "cs-CZ").header("Content-Language"), "cs");
  // Outside any tournament: English unless the header says otherwise.
  auto anonymous = HttpClient("127.0.0.1", daemon_->port());
  auto missing = anonymous.get("/v1/nothing");
  expect_problem(missing, 404);
  EXPECT_EQ(missing.header("Content-Language"), "en");
  EXPECT_EQ(missing.json().at("title"), "Not Found");
  auto russian_missing =
      anonymous.request(http::verb::get, "/v1/tournaments/nope", "", {{"Accept-Language", "ru"}});
  expect_problem(russian_missing, 404);
  EXPECT_EQ(str(russian_missing.json().at("title")), text(Lang::ru, "api.status.404"));
  EXPECT_EQ(str(russian_missing.json().at("detail")),
            render(Lang::ru, i18n::Message("api.tournament.not_found", {{"id", "nope"}})));
}

TEST_F(Language, ARequestTooLargeToReadIsRefusedInItsAcceptLanguage) {
  // The headers are read before the body is refused (over the default 64 KiB).
  const std::string huge = "{\"name\":\"" + std::string(70 * 1024, 'x') + "\"}";
  auto r = organizer().request(http::verb::post, "/v1/judges", huge, {{"Accept-Language", "cs"}});
  expect_problem(r, 413);
  EXPECT_EQ(r.header("Content-Language"), "cs");
  EXPECT_EQ(str(r.json().at("detail")),
            render(Lang::cs, i18n::Message("api.request.body_too_large", {{"limit", 65536}})));
  EXPECT_NE(str(r.json().at("detail")).find("65536 bajtů"), std::string::npos)
      << r.json().at("detail");
}

TEST_F(Language, TheDaemonsOwnTextsNamePlayersByNameInEachLanguage) {
  catan("brno", "cs");
  auto org = organizer();
  ASSERT_EQ(
      org.post("/v1/tournaments/brno/players/p1/drop", json::object{{"reason", "ill"}}).status,
      200);
  for (Lang lang : i18n::kLanguages) {
    const std::string code(i18n::code(lang));
    SCOPED_TRACE(code);
    auto again = org.post("/v1/tournaments/brno/players/p1/drop", json::object{{"reason", "ill"}},
                          {{"Accept-Language", code}});
    expect_problem(again, 409);
    const std::string detail = str(again.json().at("detail"));
    EXPECT_EQ(detail, render(lang, i18n::Message("api.player.already_dropped",
                                                 {{"player", i18n::PlayerRef{"p1"}}})));
    EXPECT_NE(detail.find("Jana Nováková"), std::string::npos) << detail;
    // A field's message: in the language, the field and rule as they are.
    auto nameless = org.post("/v1/tournaments/brno/players", json::object{{"id", "p9"}},
                             {{"Accept-Language", code}});
    expect_problem(nameless, 422);
    const json::value body = nameless.json();
    EXPECT_EQ(str(body.at("detail")), text(lang, "api.player.invalid"));
    EXPECT_EQ(machine_fields(body), (std::vector<Machine>{{"request", "", "name"}}));
    EXPECT_EQ(str(body.at("errors").at(0).at("message")), text(lang, "json.required"));
  }
  EXPECT_EQ(org.post("/v1/tournaments/brno/players/p1/drop", json::object{{"reason", "ill"}},
                     {{"Accept-Language", "en"}})
                .json()
                .at("detail"),
            "Jana Nováková is already dropped");
}

TEST_F(Language, TheGamesFieldsAndCalculatorsSpeakTheReadersLanguage) {
  const auto& catalogs = i18n::Catalogs::builtin();
  auto anonymous = HttpClient("127.0.0.1", daemon_->port());
  std::map<Lang, json::value> games;
  for (Lang lang : i18n::kLanguages) {
    auto r = anonymous.request(http::verb::get, "/v1/games", "",
                               {{"Accept-Language", std::string(i18n::code(lang))}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.header("Content-Language"), i18n::code(lang));
    games[lang] = r.json();
  }
  EXPECT_EQ(anonymous.get("/v1/games").header("Content-Language"), "en");
  // Each field's text is its label in the language; the label and everything else stay.
  int translated = 0;
  const auto& english = games[Lang::en].as_array();
  for (Lang lang : i18n::kLanguages) {
    const auto& list = games[lang].as_array();
    ASSERT_EQ(list.size(), english.size());
    for (std::size_t g = 0; g < list.size(); ++g) {
      EXPECT_EQ(list[g].at("game"), english[g].at("game"));
      EXPECT_EQ(list[g].at("rules"), english[g].at("rules"));
      for (const auto& [action, spec] : list[g].at("actions").as_object()) {
        const auto& fields = spec.at("fields").as_array();
        const auto& english_fields = english[g].at("actions").at(action).at("fields").as_array();
        ASSERT_EQ(fields.size(), english_fields.size());
        for (std::size_t f = 0; f < fields.size(); ++f) {
          json::object machine = fields[f].as_object(),
                       english_machine = english_fields[f].as_object();
          machine.erase("text");
          english_machine.erase("text");
          EXPECT_EQ(machine, english_machine);
          const std::string label = str(fields[f].at("label"));
          if (!catalogs.has(Lang::en, label)) continue;  // the test game's own labels
          EXPECT_EQ(str(fields[f].at("text")), catalogs.text(lang, label)) << label;
          if (lang != Lang::en && fields[f].at("text") != english_fields[f].at("text"))
            ++translated;
        }
      }
    }
  }
  // The games' catalogs (catan.*, agot.*, carcassonne.*) give the labels in cs, it and ru.
  EXPECT_GT(translated, 0);
  // A game without a calculator refuses in the reader's language, rule and field unchanged.
  std::map<Lang, std::string> messages;
  for (Lang lang : i18n::kLanguages) {
    auto r = anonymous.request(http::verb::post, "/v1/games/catan/score", "{}",
                               {{"Accept-Language", std::string(i18n::code(lang))}});
    expect_problem(r, 422);
    if (r.status != 422) continue;
    EXPECT_EQ(str(r.json().at("detail")), text(lang, "api.game.calculation_refused"));
    EXPECT_EQ(r.json().at("errors").at(0).at("rule"), "game");
    messages[lang] = str(r.json().at("errors").at(0).at("message"));
  }
  std::set<std::string> distinct;
  for (const auto& [lang, message] : messages) distinct.insert(message);
  EXPECT_EQ(distinct.size(), 4u) << ::testing::PrintToString(messages);
}

TEST_F(Language, ATournamentsResourcesCarryItsLanguage) {
  catan("brno", "cs");
  auto org = organizer();
  auto tournament = org.get("/v1/tournaments/brno");
  ASSERT_EQ(tournament.status, 200);
  EXPECT_EQ(tournament.header("Content-Language"), "cs");
  EXPECT_NE(tournament.header("Vary").find("Accept-Language"), std::string::npos);
  auto asked =
      org.request(http::verb::get, "/v1/tournaments/brno", "", {{"Accept-Language", "it"}});
  EXPECT_EQ(asked.header("Content-Language"), "it");
  // The machine data is the same whatever the language.
  EXPECT_EQ(settled(tournament.json()), settled(asked.json()));
  // A table that does not exist: 404 in Czech, with the round and table as asked.
  auto missing =
      judge().put("/v1/tournaments/brno/rounds/1/tables/9/result", refused_result(), kFirstEntry);
  expect_problem(missing, 404);
  EXPECT_EQ(
      str(missing.json().at("detail")),
      render(Lang::cs, i18n::Message("api.table.not_found", {{"table", "9"}, {"round", "1"}})));
  EXPECT_EQ(missing.json().at("title"), "Nenalezeno");
}

}  // namespace
}  // namespace tally::testing
