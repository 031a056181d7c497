// HTTPS and WSS: tallyd with a certificate made at test time, real TLS clients that verify it.
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace tally::testing {
namespace {

namespace json = boost::json;

// A self-signed certificate for 127.0.0.1 and localhost, valid for a day.
void make_certificate(const TempDir& dir) {
  std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
      " -addext subjectAltName=IP:127.0.0.1,DNS:localhost"
      " -keyout " +
      dir.sub("key.pem") + " -out " + dir.sub("cert.pem") + " 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
}

class Tls : public ::testing::Test {
 protected:
  void SetUp() override {
    make_certificate(dir_);
    daemon_ = std::make_unique<TallydProcess>(
        dir_.sub("data"), std::vector<std::string>{"--tls-cert", dir_.sub("cert.pem"), "--tls-key",
                                                   dir_.sub("key.pem")});
    daemon_->start();
  }
  HttpClient https(const std::string& token = "") {
    return HttpClient("127.0.0.1", daemon_->port(), token,
                      tally::net::client_tls(dir_.sub("cert.pem")));
  }
  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
};

TEST_F(Tls, TheApiAnswersOverHttpsAndTheLiveFeedOverWss) {
  auto org = https(daemon_->organizer_token());
  EXPECT_EQ(org.get("/healthz").status, 200);
  ASSERT_EQ(org.post("/v1/tournaments",
                     json::object{{"id", "secure"}, {"name", "S"}, {"game", "testgame"}})
                .status,
            201);
  for (const char* p : {"a", "b"}) {
    ASSERT_EQ(
        org.post("/v1/tournaments/secure/players", json::object{{"id", p}, {"name", p}}).status,
        201);
  }
  ASSERT_EQ(
      org.post("/v1/tournaments/secure/rounds",
               json::object{{"method", "manual"}, {"tables", json::array{json::array{"a", "b"}}}})
          .status,
      201);

  WsClient screen("127.0.0.1", daemon_->port(), "/v1/tournaments/secure/live", "", 0,
                  tally::net::client_tls(dir_.sub("cert.pem")));
  auto snapshot = screen.read();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->at("type"), "snapshot");
  auto put =
      org.put("/v1/tournaments/secure/rounds/1/tables/1/result",
              json::parse(R"({"players":[{"player":"a","score":3},{"player":"b","score":1}]})"),
              {{"If-None-Match", "*"}});
  ASSERT_EQ(put.status, 201) << put.body;
  for (;;) {
    auto m = screen.read();
    ASSERT_TRUE(m) << "no event over WSS";
    if (m->at("type") == "event") {
      EXPECT_EQ(m->at("seq"), put.json().at("seq"));
      break;
    }
  }
}

TEST_F(Tls, PlainHttpAndUntrustedClientsGetNothing) {
  HttpClient plain("127.0.0.1", daemon_->port());
  bool answered = false;
  try {
    answered = plain.get("/healthz").status == 200;
  } catch (const std::exception&) {
  }
  EXPECT_FALSE(answered);

  // A client that does not trust this certificate refuses the connection.
  TempDir other;
  make_certificate(other);
  HttpClient wary("127.0.0.1", daemon_->port(), "", tally::net::client_tls(other.sub("cert.pem")));
  EXPECT_THROW(wary.get("/healthz"), std::exception);
  EXPECT_EQ(https().get("/healthz").status, 200);  // the server is fine
}

TEST(TlsConfig, ACertificateWithoutAKeyStopsTallydAtStart) {
  TempDir dir;
  make_certificate(dir);
  TallydProcess daemon(dir.sub("data"), {"--tls-cert", dir.sub("cert.pem")});
  try {
    daemon.start();
    FAIL() << "tallyd started with half a TLS configuration";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tls_cert and tls_key go together"), std::string::npos)
        << e.what();
  }
}

TEST(TlsConfig, AnUnreadableKeyIsNamedInTheLog) {
  TempDir dir;
  make_certificate(dir);
  TallydProcess daemon(dir.sub("data"),
                       {"--tls-cert", dir.sub("cert.pem"), "--tls-key", dir.sub("missing.pem")});
  try {
    daemon.start();
    FAIL() << "tallyd started without its key";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tls_key: cannot use"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tally::testing
