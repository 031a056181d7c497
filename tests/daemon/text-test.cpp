// Rule `text` (contract "Names and messages"), through the real tallyd: every name and every
// reason refuses control characters, text-direction controls and text with nothing visible —
// 422, rule `text`, the field named — and nothing is written; ids "." and ".." are refused.
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;

// Names no screen should show: NUL cutting a reason short, a terminal escape, a line break, a
// right-to-left override, a zero-width-only name, nothing but spaces and a soft hyphen.
const std::vector<std::string> kHostile = {std::string("Eva\0Nová", 9),
                                           "Eva\x1b]0;pwned\x07",
                                           "Eva\nNová",
                                           "Eva \xE2\x80\xAE"
                                           "avoN",
                                           "\xE2\x80\x8B\xE2\x80\x8B",
                                           "  \xC2\xAD  ",
                                           "\xE2\x81\xA6"
                                           "Eva"};

class Text : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"));
    daemon_->start();
    auto org = daemon_->organizer();
    ASSERT_EQ(
        org.post("/v1/tournaments", json::object{{"id", "cup"}, {"name", "Cup"}, {"game", "catan"}})
            .status,
        201);
    for (const char* id : {"p1", "p2", "p3"}) {
      ASSERT_EQ(
          org.post("/v1/tournaments/cup/players", json::object{{"id", id}, {"name", id}}).status,
          201);
    }
  }

  // `reply` is a 422 whose only error is rule `text` at `field`.
  static void expect_text_refusal(const HttpReply& reply, const std::string& field,
                                  const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(reply.status, 422) << reply.body;
    auto errors = reply.json().at("errors").as_array();
    ASSERT_EQ(errors.size(), 1u) << reply.body;
    EXPECT_EQ(errors[0].at("rule"), "text");
    EXPECT_EQ(errors[0].at("field"), json::value(field));
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
};

TEST_F(Text, EveryNameAndReasonRefusesWhatNoScreenShouldShow) {
  auto org = daemon_->organizer();
  std::uint64_t head = org.get("/healthz").json().at("seq").to_number<std::uint64_t>();
  for (const auto& bad : kHostile) {
    expect_text_refusal(org.post("/v1/tournaments/cup/players", json::object{{"name", bad}}),
                        "name", "player " + bad);
    expect_text_refusal(org.post("/v1/judges", json::object{{"name", bad}}), "name", "judge");
    expect_text_refusal(org.post("/v1/tournaments",
                                 json::object{{"id", "other"}, {"name", bad}, {"game", "catan"}}),
                        "name", "tournament");
    expect_text_refusal(org.request(http::verb::patch, "/v1/tournaments/cup/players/p1",
                                    json::serialize(json::object{{"name", bad}})),
                        "name", "rename");
    expect_text_refusal(
        org.post("/v1/tournaments/cup/players/p1/drop", json::object{{"reason", bad}}), "reason",
        "drop");
    expect_text_refusal(org.post("/v1/tournaments/cup/rounds",
                                 json::object{{"method", "manual"},
                                              {"tables", json::array{{"p1", "p2", "p3"}}},
                                              {"reason", bad}}),
                        "reason", "seating");
  }
  // Nothing was written by any of them.
  EXPECT_EQ(org.get("/healthz").json().at("seq").to_number<std::uint64_t>(), head);
  // A name with accents, a non-Latin script and inner spaces is fine.
  EXPECT_EQ(org.post("/v1/tournaments/cup/players", json::object{{"name", "Jana  Nováková-Ярова"}})
                .status,
            201);
}

TEST_F(Text, ATablesReasonAndAnImportedNameFollowTheSameRule) {
  auto org = daemon_->organizer();
  ASSERT_EQ(
      org.post("/v1/tournaments/cup/rounds",
               json::object{{"method", "manual"}, {"tables", json::array{{"p1", "p2", "p3"}}}})
          .status,
      201);
  // A correction's reason with NUL in it used to be stored cut short at the NUL.
  auto sheet = [](const char* p, int settlements) {
    return json::object{{"player", p},
                        {"settlements", settlements},
                        {"cities", 0},
                        {"vp_cards", 0},
                        {"knights", 0},
                        {"roads", 2},
                        {"longest_road", 1},
                        {"largest_army", false},
                        {"longest_road_holder", false}};
  };
  json::object result{{"players", json::array{sheet("p1", 5), sheet("p2", 2), sheet("p3", 2)}}};
  auto first =
      org.put("/v1/tournaments/cup/rounds/1/tables/1/result", result, {{"If-None-Match", "*"}});
  ASSERT_EQ(first.status, 201) << first.body;
  json::object corrected = result;
  corrected["reason"] = std::string("typo\0 hidden", 12);
  expect_text_refusal(org.put("/v1/tournaments/cup/rounds/1/tables/1/result", corrected,
                              {{"If-Match", first.header("ETag")}}),
                      "reason", "correction");

  auto imported = org.post("/v1/tournaments/cup/players/import/check",
                           json::object{{"csv", "name\nOta\n\xE2\x80\x8B\n"}});
  ASSERT_EQ(imported.status, 422) << imported.body;
  EXPECT_EQ(imported.json().at("errors").at(0).at("rule"), "text");
  EXPECT_EQ(imported.json().at("errors").at(0).at("field"), "csv");
  EXPECT_NE(
      std::string(imported.json().at("errors").at(0).at("message").as_string()).find("line 3"),
      std::string::npos);
}

TEST_F(Text, IdsOfDotsAreRefused) {
  auto org = daemon_->organizer();
  for (const char* id : {".", "..", "..."}) {
    auto r = org.post("/v1/tournaments/cup/players", json::object{{"id", id}, {"name", "Dot"}});
    ASSERT_EQ(r.status, 422) << id;
    EXPECT_EQ(r.json().at("errors").at(0).at("field"), "id");
  }
  EXPECT_EQ(
      org.post("/v1/tournaments/cup/players", json::object{{"id", "a.b"}, {"name", "Dot"}}).status,
      201);
  auto csv = org.post("/v1/tournaments/cup/players/import/check",
                      json::object{{"csv", "id,name\n..,Dot\n"}});
  EXPECT_EQ(csv.status, 422);
}

}  // namespace
}  // namespace tally::testing
