// The write path's answers, byte for byte: status, headers and body of every answer a judge's
// write gets (first entries, an idempotent repeat, corrections, a conflict, refusals, checks,
// scorings, claims) and of the reads that show a table, for Catan and Carcassonne, compared with
// tests/daemon/golden/write-answers.txt. That file was written by the request path as it was
// before issue 26 reworked it for speed (rendering, parsing, logging, headers): the rework must
// not change one byte a client sees.
//
// Only what differs from run to run by nature is replaced before comparing: times (ISO 8601 and
// microsecond clocks) and the Date header; headers are compared in the order they were sent. To
// write the file again after a change of an answer that is meant:
//   TALLY_WRITE_GOLDEN=1 build/test/tests/daemon/daemon-answers-test
// (with TALLYD_UNDER_TEST=path/to/tallyd to record another build's answers).
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using Headers = std::map<std::string, std::string>;

const char* kGolden = TALLY_SOURCE_DIR "/tests/daemon/golden/write-answers.txt";

// Times change from run to run; everything else in an answer is determined by the requests.
std::string without_times(std::string text) {
  static const std::regex iso(R"re(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)re");
  static const std::regex micros(R"re(("[a-z_]*(_us|_at|_micros)"):(\d{13,}))re");
  text = std::regex_replace(text, iso, "<time>");
  return std::regex_replace(text, micros, "$1:<micros>");
}

class WriteAnswers : public ::testing::Test {
 protected:
  void SetUp() override { server_.start(); }

  // Sends one request and records what came back, as a client sees it.
  HttpReply record(HttpClient& client, http::verb method, const std::string& target,
                   const std::string& body, Headers headers = {}) {
    headers.emplace("Accept-Language", language_);
    HttpReply r = client.request(method, target, body, headers);
    transcript_ << ">>> " << http::to_string(method) << ' ' << target;
    for (const auto& [k, v] : headers) transcript_ << " | " << k << ": " << v;
    transcript_ << "\n<<< " << r.status << '\n';
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& f : r.headers) {
      std::string name(f.name_string());
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      if (name != "date") fields.emplace_back(name, std::string(f.value()));
    }
    for (const auto& [k, v] : fields) transcript_ << k << ": " << without_times(v) << '\n';
    transcript_ << without_times(r.body) << "\n\n";
    return r;
  }

  std::string judge_token(const std::string& name) {
    auto r = server_.organizer().post("/v1/judges", json::object{{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return std::string(r.json().at("token").as_string());
  }

  void setup_tournament(const std::string& id, const std::string& game,
                        const std::vector<std::pair<std::string, std::string>>& players,
                        const json::array& tables) {
    auto organizer = server_.organizer();
    auto created = organizer.post(
        "/v1/tournaments",
        json::object{{"id", id}, {"name", "Zlatý pohár"}, {"game", game}, {"locale", "cs"}});
    ASSERT_EQ(created.status, 201) << created.body;
    for (const auto& [pid, name] : players) {
      ASSERT_EQ(
          organizer
              .post("/v1/tournaments/" + id + "/players", json::object{{"id", pid}, {"name", name}})
              .status,
          201);
    }
    auto seated = organizer.post(
        "/v1/tournaments/" + id + "/rounds",
        json::object{{"method", "manual"}, {"tables", tables}, {"reason", "golden answers"}});
    ASSERT_EQ(seated.status, 201) << seated.body;
  }

  void compare_with_golden() {
    if (std::getenv("TALLY_WRITE_GOLDEN") != nullptr) {
      std::ofstream(kGolden) << transcript_.str();
      GTEST_SKIP() << "wrote " << kGolden;
    }
    std::ifstream in(kGolden);
    ASSERT_TRUE(in) << "missing " << kGolden;
    std::stringstream golden;
    golden << in.rdbuf();
    // Compared answer by answer, so that a failure names the first one that changed.
    auto split = [](const std::string& text) {
      std::vector<std::string> answers;
      std::size_t from = 0, at;
      while ((at = text.find("\n\n", from)) != std::string::npos) {
        answers.push_back(text.substr(from, at - from));
        from = at + 2;
      }
      return answers;
    };
    auto want = split(golden.str()), got = split(transcript_.str());
    for (std::size_t i = 0; i < std::min(want.size(), got.size()); ++i)
      ASSERT_EQ(got[i], want[i]) << "answer " << i + 1 << " changed";
    EXPECT_EQ(got.size(), want.size());
  }

  TempDir dir_;
  TallydProcess server_{(dir_.path() / "data").string()};
  std::ostringstream transcript_;
  std::string language_ = "cs";
};

TEST_F(WriteAnswers, AreTheSameAsBeforeTheRequestPathWasReworked) {
  // --- Catan: four players at one table, three at another.
  setup_tournament("zlaty-catan", "catan",
                   {{"p1", "Jiří Dvořák"},
                    {"p2", "Šárka Nováková"},
                    {"p3", "Ondřej Černý"},
                    {"p4", "Žofie Malá"},
                    {"p5", "Petr Král"},
                    {"p6", "Eliška Horová"},
                    {"p7", "Tomáš Veselý"}},
                   json::array{json::array{"p1", "p2", "p3", "p4"}, json::array{"p5", "p6", "p7"}});
  HttpClient jana = server_.client(judge_token("Jana Nováková"));
  HttpClient karel = server_.client(judge_token("Karel Svoboda"));
  const std::string catan = "/v1/tournaments/zlaty-catan/rounds/1/tables/";
  auto sheet = [](const char* p, int settlements, int cities, bool army, bool road) {
    return json::object{{"player", p},
                        {"settlements", settlements},
                        {"cities", cities},
                        {"vp_cards", 0},
                        {"knights", army ? 3 : 0},
                        {"roads", road ? 6 : 4},
                        {"longest_road", road ? 6 : 3},
                        {"largest_army", army},
                        {"longest_road_holder", road}};
  };
  json::object first{
      {"players", json::array{sheet("p1", 4, 3, true, false), sheet("p2", 3, 2, false, true),
                              sheet("p3", 2, 1, false, false), sheet("p4", 2, 2, false, false)}}};
  const std::string body = json::serialize(first);
  record(jana, http::verb::put, catan + "1/result", body,
         {{"If-None-Match", "*"}, {"Idempotency-Key", "golden-1"}});
  record(jana, http::verb::put, catan + "1/result", body,
         {{"If-None-Match", "*"}, {"Idempotency-Key", "golden-1"}});  // a retry: answered again
  record(karel, http::verb::put, catan + "1/result", body, {{"If-None-Match", "*"}});  // 412

  json::object corrected = first;
  corrected["players"].as_array()[2].as_object()["cities"] = 2;
  corrected["reason"] = "Ondřejovo město přehlédnuto";
  record(karel, http::verb::put, catan + "1/result", json::serialize(corrected),
         {{"If-Match", "\"1\""}});
  record(jana, http::verb::put, catan + "1/result", json::serialize(corrected),
         {{"If-Match", "\"1\""}});  // 412: the table moved on

  json::object wrong{
      {"players", json::array{sheet("p5", -1, 3, false, false), sheet("p6", 3, 2, true, true),
                              sheet("p6", 2, 1, false, false)}}};
  record(jana, http::verb::post, catan + "2/result/check", json::serialize(wrong));
  record(jana, http::verb::put, catan + "2/result", json::serialize(wrong),
         {{"If-None-Match", "*"}});  // 422, each error by rule and player
  record(jana, http::verb::put, catan + "2/result", "{\"players\":[", {{"If-None-Match", "*"}});
  json::object three{
      {"players", json::array{sheet("p5", 4, 3, false, false), sheet("p6", 2, 1, true, false),
                              sheet("p7", 2, 1, false, true)}}};
  record(jana, http::verb::post, catan + "2/result/check", json::serialize(three));
  record(jana, http::verb::put, catan + "2/result", json::serialize(three), {});  // 428
  record(jana, http::verb::put, catan + "2/result", json::serialize(three),
         {{"If-None-Match", "*"}});
  record(jana, http::verb::get, "/v1/tournaments/zlaty-catan/rounds/1", "");
  record(jana, http::verb::get, "/v1/tournaments/zlaty-catan/standings", "");

  // --- Carcassonne: the load generator's kind of write (two players, scores, corrections).
  language_ = "en";
  setup_tournament("golden-carc", "carcassonne",
                   {{"c1", "Anna Bianchi"},
                    {"c2", "Luca Rossi"},
                    {"c3", "Olga Ivanova"},
                    {"c4", "Pavel Smirnov"}},
                   json::array{json::array{"c1", "c2"}, json::array{"c3", "c4"}});
  const std::string carc = "/v1/tournaments/golden-carc/rounds/1/tables/";
  record(jana, http::verb::put, carc + "1/result",
         R"({"players":[{"player":"c1","score":87},{"player":"c2","score":64}]})",
         {{"If-None-Match", "*"}});
  record(jana, http::verb::put, carc + "1/result",
         R"({"players":[{"player":"c1","score":64},{"player":"c2","score":64}],)"
         R"("reason":"swapped sheets"})",
         {{"If-Match", "\"1\""}});
  record(karel, http::verb::post, carc + "2/scorings", R"({"event":"compass_rose","player":"c3"})");
  record(karel, http::verb::post, carc + "2/scorings",
         R"({"event":"tower_ransom","payer":"c4","captor":"c3"})");
  record(karel, http::verb::put, carc + "2/result",
         R"({"players":[{"player":"c3","score":3},{"player":"c4","score":0}]})",
         {{"If-Match", "\"1\""}});
  record(karel, http::verb::put, carc + "2/result",
         R"({"players":[{"player":"c3","score":3},{"player":"c4","score":"x"}]})",
         {{"If-Match", "\"2\""}});
  record(jana, http::verb::get, "/v1/tournaments/golden-carc/rounds/1", "");
  record(jana, http::verb::get, "/v1/tournaments/golden-carc/standings", "");

  compare_with_golden();
}

}  // namespace
}  // namespace tally::testing
