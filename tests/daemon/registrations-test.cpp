// Registration before the day over HTTP (Q-7, docs/registration.md): 70 registrations for 60
// places, the private link (its own registration only), cancellations and "drop the absent"
// moving the right ones up, e-mail addresses in no public answer, the organizer's one step to
// players, and the per-address limit. The rules themselves are the deciders' tests
// (tests/deciders/registrations-test.cpp).
#include "tests/daemon/api_fixture.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using http::verb;

const std::string kBase = "/v1/tournaments/cup";

std::string email_of(int i) { return "player" + std::to_string(i) + ".secret@example.org"; }
std::string name_of(int i) { return "Player " + std::to_string(i); }

// A server whose registration limit is out of the way (the limit has a test of its own below).
class Registrations : public ApiFixture {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(
        dir_.sub("data"), std::vector<std::string>{"--rate-limit", "100000", "--rate-burst",
                                                   "100000", "--registration-rate-limit", "100000",
                                                   "--registration-burst", "100000"});
    daemon_->start();
    org_ = std::make_unique<HttpClient>("127.0.0.1", daemon_->port(), daemon_->organizer_token());
    create_tournament(
        "cup", "catan", {},
        json::object{{"locale", "en"},
                     {"rules", json::object{{"registration", "open"}, {"capacity", 60}}}});
  }

  struct Registered {
    std::string id, status, key, link;
    std::int64_t position = 0;
  };

  Registered register_one(HttpClient& anyone, int i) {
    auto r =
        anyone.post(kBase + "/registrations",
                    json::object{{"name", name_of(i)}, {"club", "Club"}, {"email", email_of(i)}});
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    const json::value parsed = r.json();
    const auto& body = parsed.as_object();
    Registered out{
        std::string(body.at("id").as_string()), std::string(body.at("status").as_string()),
        std::string(body.at("key").as_string()), std::string(body.at("link").as_string())};
    if (const auto* p = body.if_contains("position")) out.position = p->as_int64();
    EXPECT_EQ(body.if_contains("email"), nullptr);
    return out;
  }

  HttpReply with_key(HttpClient& c, verb method, const std::string& id, const std::string& key) {
    return c.request(method, kBase + "/registrations/" + id, "", {{"Registration-Key", key}});
  }
};

TEST_F(Registrations, SeventyForSixtyWaitInOrderCancellationsAndNoShowsMoveTheRightOnesUp) {
  HttpClient anyone("127.0.0.1", daemon_->port());
  std::vector<Registered> all;
  for (int i = 1; i <= 70; ++i) all.push_back(register_one(anyone, i));
  ASSERT_EQ(all.size(), 70u);
  for (int i = 1; i <= 70; ++i) {
    const Registered& r = all[i - 1];
    EXPECT_EQ(r.id, "r" + std::to_string(i));
    EXPECT_EQ(r.status, i <= 60 ? "registered" : "waiting") << i;
    EXPECT_EQ(r.position, i <= 60 ? 0 : i - 60) << i;
    EXPECT_EQ(r.link, "/t/cup/register#r=" + r.id + "&key=" + r.key);
  }
  auto status = anyone.get(kBase + "/registration");
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json().at("registered"), 60);
  EXPECT_EQ(status.json().at("waiting"), 10);
  EXPECT_EQ(status.json().at("places_left"), 0);

  // The private link sees its own registration, and only with its own key.
  auto mine = with_key(anyone, verb::get, "r65", all[64].key);
  ASSERT_EQ(mine.status, 200) << mine.body;
  EXPECT_EQ(mine.json().at("status"), "waiting");
  EXPECT_EQ(mine.json().at("position"), 5);
  EXPECT_EQ(mine.json().at("name"), "Player 65");
  EXPECT_EQ(with_key(anyone, verb::get, "r65", all[0].key).status, 404);
  EXPECT_EQ(anyone.get(kBase + "/registrations/r65").status, 404);
  EXPECT_EQ(with_key(anyone, verb::delete_, "r5", all[5].key).status, 404);  // r6's key
  EXPECT_EQ(anyone.get(kBase + "/registrations").status, 401);  // the list is the organizer's

  // Two cancellations of registered ones: the first two waiting move up, the rest along.
  auto first = with_key(anyone, verb::delete_, "r5", all[4].key);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.json().at("status"), "cancelled");
  EXPECT_EQ(first.json().at("moved_up").at("id"), "r61");
  EXPECT_EQ(first.json().at("moved_up").at("name"), "Player 61");
  EXPECT_EQ(with_key(anyone, verb::delete_, "r5", all[4].key).status, 409);
  auto second = org().request(verb::delete_, kBase + "/registrations/r10");
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(second.json().at("moved_up").at("id"), "r62");
  EXPECT_EQ(with_key(anyone, verb::get, "r61", all[60].key).json().at("status"), "registered");
  EXPECT_EQ(with_key(anyone, verb::get, "r65", all[64].key).json().at("position"), 3);

  // The organizer's list: every registration, the e-mail addresses opened.
  auto list = org().get(kBase + "/registrations");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(list.json().at("registered"), 60);
  EXPECT_EQ(list.json().at("waiting"), 8);
  EXPECT_EQ(list.json().at("cancelled"), 2);
  EXPECT_EQ(list.json().at("registrations").at(0).at("email"), json::value(email_of(1)));

  // One step to players, with the import's preview first.
  auto preview = org().post(kBase + "/registrations/admit/check", json::object{});
  ASSERT_EQ(preview.status, 200) << preview.body;
  EXPECT_EQ(preview.json().at("rows").as_array().size(), 60u);
  auto admitted = org().post(kBase + "/registrations/admit", json::object{});
  ASSERT_EQ(admitted.status, 201) << admitted.body;
  EXPECT_EQ(org().post(kBase + "/registrations/admit", json::object{}).status, 409);
  auto players = anyone.get(kBase);
  ASSERT_EQ(players.status, 200);
  EXPECT_EQ(players.json().at("players").as_array().size(), 60u);

  // Check-in: every player but r3, r7 and r9; four waiting ones came (not the first, r63).
  json::array present;
  const json::value tournament = players.json();
  for (const auto& p : tournament.at("players").as_array()) {
    const std::string id(p.at("id").as_string());
    if (id != "r3" && id != "r7" && id != "r9") present.push_back(json::value(id));
  }
  for (const char* w : {"r64", "r65", "r67", "r68"}) present.push_back(json::value(w));
  auto checked =
      org().post(kBase + "/checkin", json::object{{"players", present}, {"present", true}});
  ASSERT_EQ(checked.status, 201) << checked.body;
  auto dropped = org().post(kBase + "/checkin/drop-absent", json::object{{"reason", "no show"}});
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(dropped.json().at("dropped"), (json::array{"r3", "r7", "r9"}));
  EXPECT_EQ(dropped.json().at("moved_up"),
            (json::array{json::object{{"id", "r64"}, {"name", "Player 64"}},
                         json::object{{"id", "r65"}, {"name", "Player 65"}},
                         json::object{{"id", "r67"}, {"name", "Player 67"}}}));
  auto after = org().get(kBase + "/registrations").json();
  std::vector<std::string> waiting;
  for (const auto& r : after.at("registrations").as_array()) {
    if (r.at("status") == "waiting") waiting.emplace_back(r.at("id").as_string());
  }
  EXPECT_EQ(waiting, (std::vector<std::string>{"r63", "r66", "r68", "r69", "r70"}));

  // The e-mail addresses are in no public answer, the events list or the export.
  for (const std::string& target :
       {kBase, kBase + "/events", kBase + "/registration", kBase + "/standings"}) {
    auto r = anyone.get(target);
    EXPECT_EQ(r.status, 200) << target << " " << r.body;
    EXPECT_EQ(r.body.find("secret@example.org"), std::string::npos) << target;
  }
  auto events = anyone.get(kBase + "/events?limit=1000");
  EXPECT_EQ(events.body.find("secret@example.org"), std::string::npos);
  EXPECT_NE(events.body.find("registration_received"), std::string::npos)
      << events.body.substr(0, 400);
  auto exported = org().get("/v1/export");
  ASSERT_EQ(exported.status, 200);
  EXPECT_NE(exported.body.find("registration_received"), std::string::npos);
  EXPECT_EQ(exported.body.find("secret@example.org"), std::string::npos);
  EXPECT_EQ(exported.body.find(all[0].key), std::string::npos);  // only the key's hash
}

TEST_F(Registrations, ClosedRegistrationSameNameAndBadFieldsAreRefusedNamingFieldAndRule) {
  HttpClient anyone("127.0.0.1", daemon_->port());
  ASSERT_EQ(anyone.post(kBase + "/registrations", json::object{{"name", "Jana Nováková"}}).status,
            201);
  auto same = anyone.post(kBase + "/registrations", json::object{{"name", "jana novakova"}});
  EXPECT_EQ(same.status, 409) << same.body;
  EXPECT_EQ(same.json().at("errors").at(0).at("rule"), "Q-7");
  EXPECT_EQ(same.json().at("errors").at(0).at("field"), "name");
  EXPECT_EQ(same.json().at("errors").at(0).at("status"), "registered");

  auto bad = anyone.post(kBase + "/registrations",
                         json::object{{"name", "Eva\u202e"}, {"email", "not an address"}});
  EXPECT_EQ(bad.status, 422) << bad.body;
  EXPECT_EQ(bad.json().at("errors").at(0).at("field"), "email");
  EXPECT_EQ(bad.json().at("errors").at(0).at("rule"), "Q-7");

  auto text = anyone.post(kBase + "/registrations", json::object{{"name", "Eva\u202e"}});
  EXPECT_EQ(text.status, 422) << text.body;
  EXPECT_EQ(text.json().at("errors").at(0).at("rule"), "text");

  auto closed = org().request(verb::patch, kBase, R"({"registration":"closed"})");
  ASSERT_EQ(closed.status, 200) << closed.body;
  EXPECT_EQ(closed.json().at("registration"), "closed");
  auto refused = anyone.post(kBase + "/registrations", json::object{{"name", "Late Comer"}});
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(refused.json().at("errors").at(0).at("rule"), "Q-7");
  EXPECT_EQ(refused.json().at("errors").at(0).at("field"), "registration");
  auto capacity = org().request(verb::patch, kBase, R"({"capacity":0})");
  EXPECT_EQ(capacity.status, 422) << capacity.body;
  EXPECT_EQ(capacity.json().at("errors").at(0).at("field"), "capacity");
}

TEST_F(Registrations, ARestartKeepsTheRegistrationsTheirKeysAndTheSealedAddresses) {
  HttpClient anyone("127.0.0.1", daemon_->port());
  const Registered jana = register_one(anyone, 1);
  ASSERT_EQ(daemon_->stop(), 0);
  daemon_->start();  // the log replayed; DATA/table-keys.secret read again
  HttpClient again("127.0.0.1", daemon_->port());
  HttpClient organizer("127.0.0.1", daemon_->port(), daemon_->organizer_token());
  auto mine = with_key(again, verb::get, jana.id, jana.key);
  ASSERT_EQ(mine.status, 200) << mine.body;
  EXPECT_EQ(mine.json().at("status"), "registered");
  auto list = organizer.get(kBase + "/registrations");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(list.json().at("registrations").at(0).at("email"), json::value(email_of(1)));
}

// The default limit: 5 registrations a minute from one address, 5 at once.
class RegistrationLimit : public ApiFixture {};

TEST_F(RegistrationLimit, AHundredRegistrationsAMinuteFromOneAddressAreLimitedToFive) {
  create_tournament("cup", "catan", {},
                    json::object{{"rules", json::object{{"registration", "open"}}}});
  HttpClient anyone("127.0.0.1", daemon_->port());
  int created = 0, limited = 0;
  const auto started = std::chrono::steady_clock::now();
  for (int i = 1; i <= 100; ++i) {
    auto r = anyone.post(kBase + "/registrations", json::object{{"name", name_of(i)}});
    if (r.status == 201) ++created;
    if (r.status == 429) {
      ++limited;
      EXPECT_FALSE(r.headers["Retry-After"].empty());
      if (limited == 1) {
        EXPECT_EQ(r.json().at("errors").at(0).at("rule"), "Q-7") << r.body;
      }
    }
  }
  // One more place refills every 12 s: within that the count is exact.
  if (std::chrono::steady_clock::now() - started < std::chrono::seconds(12)) {
    EXPECT_EQ(created, 5);
    EXPECT_EQ(limited, 95);
  } else {
    EXPECT_EQ(created + limited, 100);
    EXPECT_LE(created, 5 + 8);  // at most one a 12 s beyond the burst (a very slow machine)
  }
  // The organizer's own requests are not registrations: still answered.
  EXPECT_EQ(org().get(kBase + "/registrations").status, 200);
}

}  // namespace
}  // namespace tally::testing
