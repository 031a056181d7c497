// The live feed's limits, against the real tallyd on loopback with real WebSocket clients: a
// client that floods and never reads is closed with 1008 while the server's memory stays flat;
// screens have their own cap (max_screens) and never keep a judge out; a join from seq 0 of a
// long tournament is sent in pages without holding up the other screens; permessage-deflate.
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace tally::testing {
namespace {

namespace json = boost::json;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

const std::map<std::string, std::string> kFirstEntry = {{"If-None-Match", "*"}};

// The tallyd child of this test process (TallydProcess keeps its pid to itself).
pid_t tallyd_pid() {
  pid_t found = -1;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return -1;
  while (dirent* entry = ::readdir(proc)) {
    std::string name = entry->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat("/proc/" + name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
    auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    if (ppid == ::getpid() && state != 'Z') found = std::stoi(name);
  }
  ::closedir(proc);
  return found;
}

// VmRSS of `pid` in KiB.
std::size_t rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

std::size_t metric(HttpClient& client, std::string_view name) {
  std::string text = client.get("/metrics").body;
  std::string key = "\n" + std::string(name) + " ";
  auto at = text.find(key);
  if (at == std::string::npos) throw std::runtime_error("no " + std::string(name) + " in /metrics");
  return std::stoul(text.substr(at + key.size()));
}

class LiveLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> flags = {"--rate-limit", "100000", "--rate-burst", "100000"};
    for (auto& f : extra_flags()) flags.push_back(f);
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"), flags);
    daemon_->start();
  }
  virtual std::vector<std::string> extra_flags() { return {}; }

  HttpClient organizer() { return daemon_->organizer(); }

  std::string new_judge(const std::string& name) {
    auto reply = organizer().post("/v1/judges", json::object{{"name", name}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    return std::string(reply.json().at("token").as_string());
  }

  // A testgame tournament "cup" with players p1…pN, round 1 seated p1 v p2, p3 v p4, …
  void tournament(int players) {
    auto org = organizer();
    ASSERT_EQ(org.post("/v1/tournaments",
                       json::object{{"id", "cup"}, {"name", "Cup"}, {"game", "testgame"}})
                  .status,
              201);
    for (int i = 1; i <= players; ++i) {
      auto r = org.post(
          "/v1/tournaments/cup/players",
          json::object{{"id", "p" + std::to_string(i)}, {"name", "Player " + std::to_string(i)}});
      ASSERT_EQ(r.status, 201) << r.body;
    }
    json::array tables;
    for (int i = 1; i + 1 <= players; i += 2)
      tables.push_back(json::array{"p" + std::to_string(i), "p" + std::to_string(i + 1)});
    auto r = organizer().post("/v1/tournaments/cup/rounds",
                              json::object{{"method", "manual"}, {"tables", tables}});
    ASSERT_EQ(r.status, 201) << r.body;
  }

  static std::string table(int n, const std::string& what = "result") {
    return "/v1/tournaments/cup/rounds/1/tables/" + std::to_string(n) + "/" + what;
  }

  static json::object result(const std::string& a, int sa, const std::string& b, int sb) {
    return json::object{{"players", json::array{json::object{{"player", a}, {"score", sa}},
                                                json::object{{"player", b}, {"score", sb}}}}};
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
};

// --- (a) a client that sends and never reads -------------------------------------------------

TEST_F(LiveLimits, AClientThatFloodsAndNeverReadsIsClosedWith1008AndMemoryStaysFlat) {
  tournament(4);
  pid_t pid = tallyd_pid();
  ASSERT_GT(pid, 0);

  net::io_context io;
  websocket::stream<tcp::socket> ws(io);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), daemon_->port()));
  ws.handshake("127.0.0.1", "/v1/tournaments/cup/live");
  std::this_thread::sleep_for(200ms);
  std::size_t before = rss_kib(pid);

  // 1-byte masked text frames, written straight to the socket as fast as it takes them.
  std::string frames;
  for (int i = 0; i < 4096; ++i) frames += std::string{'\x81', '\x81', 1, 2, 3, 4, 'x' ^ 1};
  tcp::socket& socket = ws.next_layer();
  socket.non_blocking(true);
  std::size_t at = 0, sent = 0, peak = before;
  auto started = std::chrono::steady_clock::now();
  auto last_progress = started, last_sample = started;
  bool broken = false;
  // 3 s: the server closes it (1008) within the first second, then drops what it still sends
  // until it cuts the connection 10 s later; the client must read its close before that.
  while (std::chrono::steady_clock::now() - started < 3s) {
    boost::system::error_code ec;
    std::size_t n = socket.write_some(net::buffer(frames.data() + at, frames.size() - at), ec);
    auto now = std::chrono::steady_clock::now();
    if (ec == net::error::would_block) {
      if (now - last_progress > 1s) break;  // the server stopped reading
      std::this_thread::sleep_for(1ms);
    } else if (ec) {
      broken = true;  // cut off
      break;
    } else {
      sent += n;
      at = (at + n) % frames.size();
      last_progress = now;
    }
    if (now - last_sample > 50ms) {
      peak = std::max(peak, rss_kib(pid));
      last_sample = now;
    }
  }
  peak = std::max(peak, rss_kib(pid));
  double flood_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started - (broken ? 0s : 1s))
          .count();
  std::cout << "[ figures  ] flood: " << sent / 7 << " frames (" << sent << " bytes) in "
            << flood_seconds << " s before the server stopped reading; tallyd VmRSS " << before
            << " KiB before, peak " << peak << " KiB (+" << (peak - before) / 1024.0 << " MiB)\n";
  EXPECT_LT(peak - before, 20u * 1024) << "RSS grew by more than 20 MiB";
  EXPECT_FALSE(broken) << "cut off before the client could read its close";

  // Now it reads: what was queued, then the close with 1008.
  socket.non_blocking(false);
  timeval timeout{10, 0};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  beast::flat_buffer buffer;
  boost::system::error_code ec;
  int messages = 0;
  for (;;) {
    ws.read(buffer, ec);
    if (ec) break;
    buffer.consume(buffer.size());
    ++messages;
  }
  // The close frame's code is what the server said. After it the client tears its side down,
  // which can race the server's own teardown (ENOTCONN instead of `closed`): not the server's
  // doing.
  ASSERT_TRUE(ec) << "the connection stayed open";
  EXPECT_EQ(ws.reason().code, websocket::close_code::policy_error)
      << ws.reason().reason << " / " << ec.message();
  std::cout << "[ figures  ] the flooding client read " << messages
            << " messages, then the close: " << ws.reason().code << " " << ws.reason().reason
            << "\n";
  EXPECT_LT(messages, 100000);
  // The server is fine, and so are the other screens.
  WsClient screen("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live");
  ASSERT_TRUE(screen.read());
  EXPECT_EQ(organizer().get("/healthz").status, 200);
}

TEST_F(LiveLimits, AMessageLargerThanAPingIsRefused) {
  tournament(2);
  net::io_context io;
  websocket::stream<tcp::socket> ws(io);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), daemon_->port()));
  ws.handshake("127.0.0.1", "/v1/tournaments/cup/live");
  beast::flat_buffer buffer;
  ws.read(buffer);  // snapshot
  ws.write(net::buffer(std::string(4096, ' ')));
  timeval timeout{10, 0};
  ::setsockopt(ws.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  boost::system::error_code ec;
  for (int i = 0; i < 10 && !ec; ++i) ws.read(buffer, ec);
  ASSERT_TRUE(ec) << "the connection stayed open";
  // As above: the server's close code counts, not how the client's teardown ended.
  EXPECT_EQ(ws.reason().code, websocket::close_code::too_big) << ec.message();
}

// --- (b) screens have their own cap ----------------------------------------------------------

class LiveLimitsFewScreens : public LiveLimits {
 protected:
  // Fewer HTTP connections allowed than screens: a screen must not take a judge's place.
  std::vector<std::string> extra_flags() override {
    return {"--max-screens", "5", "--max-connections", "3"};
  }
};

TEST_F(LiveLimitsFewScreens, FullScreensNeverKeepAJudgeOutAndOneScreenMoreIs503) {
  tournament(4);
  std::string judge = new_judge("Eva");
  std::vector<std::unique_ptr<WsClient>> screens;
  for (int i = 0; i < 5; ++i) {
    screens.push_back(
        std::make_unique<WsClient>("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live"));
    ASSERT_TRUE(screens.back()->read());  // snapshot
  }
  HttpClient watcher = organizer();
  EXPECT_EQ(metric(watcher, "tallyd_live_clients"), 5u);

  // The judge still writes.
  HttpClient eva("127.0.0.1", daemon_->port(), judge);
  auto r = eva.put(table(1), result("p1", 3, "p2", 1), kFirstEntry);
  EXPECT_EQ(r.status, 201) << r.body;
  for (auto& s : screens) {
    bool got = false;
    while (auto m = s->read(10s)) {
      if (m->at("type") == "event") {
        got = true;
        break;
      }
    }
    EXPECT_TRUE(got) << "a screen missed the result";
  }

  // A sixth screen is refused before the upgrade: 503 with Retry-After.
  EXPECT_THROW(WsClient("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live"), std::exception);
  net::io_context io;
  tcp::socket raw(io);
  raw.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), daemon_->port()));
  net::write(raw, net::buffer(std::string(
                      "GET /v1/tournaments/cup/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n")));
  std::string answer;
  boost::system::error_code ec;
  char chunk[4096];
  while (!ec) answer.append(chunk, raw.read_some(net::buffer(chunk), ec));
  EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer;
  EXPECT_NE(answer.find("Retry-After: 2"), std::string::npos) << answer;
  EXPECT_NE(answer.find("max_screens"), std::string::npos) << answer;
  EXPECT_EQ(metric(watcher, "tallyd_live_clients"), 5u);

  // One leaves: a new one gets in.
  screens.pop_back();
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (metric(watcher, "tallyd_live_clients") != 4u &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  WsClient again("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live");
  auto snapshot = again.read();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->at("type"), "snapshot");
  EXPECT_LE(metric(watcher, "tallyd_http_connections"), 3u);
}

// --- (c) a join from seq 0 of a long tournament ------------------------------------------------

TEST_F(LiveLimits, AJoinFromZeroGetsEveryEventInOrderWhileOtherScreensStayPrompt) {
  constexpr int kTables = 4, kClaims = 600;  // 2,400 claims and the setup's events
  tournament(2 * kTables);
  std::string judge = new_judge("Eva");
  std::mutex mutex;
  std::set<std::uint64_t> written;
  std::vector<std::thread> judges;
  for (int t = 1; t <= kTables; ++t) {
    judges.emplace_back([&, t] {
      HttpClient eva("127.0.0.1", daemon_->port(), judge);
      for (int i = 0; i < kClaims; ++i) {
        auto r =
            eva.post(table(t, "claims"), json::object{{"player", "p" + std::to_string(2 * t)}});
        ASSERT_EQ(r.status, 201) << r.body;
        std::lock_guard lock(mutex);
        written.insert(r.json().at("seq").to_number<std::uint64_t>());
      }
    });
  }
  for (auto& j : judges) j.join();
  ASSERT_FALSE(HasFailure());

  // A screen watching live, on a thread of its own: when each event reaches it.
  WsClient live("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live");
  ASSERT_TRUE(live.read());
  std::atomic<std::uint64_t> live_seen{0};
  std::atomic<bool> stop{false};
  std::thread watcher([&] {
    while (!stop) {
      auto m = live.read(200ms);
      if (m && m->at("type") == "event") live_seen = m->at("seq").to_number<std::uint64_t>();
    }
  });

  // The join from 0, and a judge's write while its catch-up is being sent.
  auto joined = std::chrono::steady_clock::now();
  WsClient late("127.0.0.1", daemon_->port(), "/v1/tournaments/cup/live?since=0");
  HttpClient eva("127.0.0.1", daemon_->port(), judge);
  auto r = eva.put(table(1), result("p1", 3, "p2", 1), kFirstEntry);
  ASSERT_EQ(r.status, 201) << r.body;
  auto wrote = std::chrono::steady_clock::now();
  std::uint64_t last = r.json().at("seq").to_number<std::uint64_t>();
  while (live_seen < last && std::chrono::steady_clock::now() - wrote < 10s)
    std::this_thread::sleep_for(1ms);
  auto live_latency = std::chrono::steady_clock::now() - wrote;
  EXPECT_EQ(live_seen, last);
  // The pages' promise (docs/pages.md): a screen shows a write within a second. The test runs
  // alone (RUN_SERIAL), so the bound is the feed's, not the machine's load.
  EXPECT_LT(live_latency, 1s) << "the other screen waited for the join";

  auto snapshot = late.read();
  ASSERT_TRUE(snapshot);
  EXPECT_EQ(snapshot->at("type"), "snapshot");
  std::vector<std::uint64_t> seen;
  while (seen.empty() || seen.back() < last) {
    auto m = late.read(10s);
    ASSERT_TRUE(m) << "the catch-up stopped after " << seen.size() << " events";
    if (m->at("type") == "event") seen.push_back(m->at("seq").to_number<std::uint64_t>());
  }
  auto caught_up = std::chrono::steady_clock::now() - joined;
  stop = true;
  watcher.join();
  std::cout << "[ figures  ] since=0 join: " << seen.size() << " events in "
            << std::chrono::duration<double>(caught_up).count()
            << " s; the live screen got the write made meanwhile in "
            << std::chrono::duration<double, std::milli>(live_latency).count() << " ms\n";
  // Every event once, in order, the claims and the write made during the catch-up among them.
  EXPECT_TRUE(std::adjacent_find(seen.begin(), seen.end(), std::greater_equal<std::uint64_t>()) ==
              seen.end());
  std::set<std::uint64_t> got(seen.begin(), seen.end());
  for (auto seq : written) ASSERT_TRUE(got.count(seq)) << "missing " << seq;
  EXPECT_EQ(seen.back(), last);
  EXPECT_GE(seen.size(), written.size() + 1);
}

// --- (d) permessage-deflate ---------------------------------------------------------------------

// A frame from the server as it came over the wire.
struct WireFrame {
  bool compressed = false;
  std::size_t bytes = 0;  // header and payload
};

// A raw WebSocket client: the upgrade written by hand (offering deflate or not), then the frames
// counted as they arrive.
class RawWs {
 public:
  RawWs(std::uint16_t port, const std::string& target, bool offer_deflate) : socket_(io_) {
    socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    std::string request = "GET " + target +
                          " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n";
    if (offer_deflate)
      request += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n";
    net::write(socket_, net::buffer(request + "\r\n"));
    while (in_.find("\r\n\r\n") == std::string::npos) more();
    auto end = in_.find("\r\n\r\n") + 4;
    response_ = in_.substr(0, end);
    in_.erase(0, end);
  }
  const std::string& response() const { return response_; }

  WireFrame next() {
    while (in_.size() < 2) more();
    WireFrame f;
    f.compressed = (static_cast<unsigned char>(in_[0]) & 0x40) != 0;
    std::size_t length = static_cast<unsigned char>(in_[1]) & 0x7f, header = 2;
    if (length == 126 || length == 127) {
      std::size_t extra = length == 126 ? 2 : 8;
      while (in_.size() < 2 + extra) more();
      length = 0;
      for (std::size_t i = 0; i < extra; ++i)
        length = (length << 8) | static_cast<unsigned char>(in_[2 + i]);
      header += extra;
    }
    while (in_.size() < header + length) more();
    f.bytes = header + length;
    in_.erase(0, f.bytes);
    return f;
  }

 private:
  void more() {
    char chunk[65536];
    in_.append(chunk, socket_.read_some(net::buffer(chunk)));
  }
  net::io_context io_;
  tcp::socket socket_;
  std::string in_, response_;
};

TEST_F(LiveLimits, DeflateIsNegotiatedWhenOfferedAndMessagesArriveIntact) {
  tournament(64);
  std::string judge = new_judge("Eva");

  // Beast's own client, offering permessage-deflate.
  net::io_context io;
  websocket::stream<tcp::socket> ws(io);
  websocket::permessage_deflate offer;
  offer.client_enable = true;
  ws.set_option(offer);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), daemon_->port()));
  websocket::response_type response;
  ws.handshake(response, "127.0.0.1", "/v1/tournaments/cup/live");
  EXPECT_NE(std::string(response[beast::http::field::sec_websocket_extensions])
                .find("permessage-deflate"),
            std::string::npos)
      << response;
  beast::flat_buffer buffer;
  auto read = [&] {
    buffer.consume(buffer.size());
    ws.read(buffer);
    return json::parse(beast::buffers_to_string(buffer.data()));
  };
  auto snapshot = read();
  EXPECT_EQ(snapshot.at("type"), "snapshot");
  EXPECT_EQ(snapshot.at("standings").at("rows").as_array().size(), 64u);

  // Raw clients with and without the offer, to count the bytes on the wire.
  RawWs squeezed(daemon_->port(), "/v1/tournaments/cup/live", true);
  RawWs plain(daemon_->port(), "/v1/tournaments/cup/live", false);
  EXPECT_NE(squeezed.response().find("permessage-deflate"), std::string::npos);
  EXPECT_EQ(plain.response().find("permessage-deflate"), std::string::npos);
  WireFrame snapshot_z = squeezed.next(), snapshot_p = plain.next();
  EXPECT_TRUE(snapshot_z.compressed);
  EXPECT_FALSE(snapshot_p.compressed);

  HttpClient eva("127.0.0.1", daemon_->port(), judge);
  auto r = eva.put(table(1), result("p1", 3, "p2", 1), kFirstEntry);
  ASSERT_EQ(r.status, 201) << r.body;
  std::uint64_t seq = r.json().at("seq").to_number<std::uint64_t>();
  auto event = read();
  EXPECT_EQ(event.at("type"), "event");
  EXPECT_EQ(event.at("seq").to_number<std::uint64_t>(), seq);
  // The snapshot is the base of the first delta (issue 38, item 9): what changed, not 64 rows.
  auto standings = read();
  EXPECT_EQ(standings.at("type"), "standings_delta");
  EXPECT_EQ(standings.at("base_seq"), snapshot.at("seq"));
  EXPECT_EQ(standings.at("seq").to_number<std::uint64_t>(), seq);

  WireFrame event_z = squeezed.next(), event_p = plain.next();
  WireFrame standings_z = squeezed.next(), standings_p = plain.next();
  // The big message on this feed is the snapshot: deflate at least halves it.
  EXPECT_LT(snapshot_z.bytes * 2, snapshot_p.bytes);
  EXPECT_LE(standings_z.bytes, standings_p.bytes);
  std::cout << "[ figures  ] 64 players, bytes on the wire with / without deflate: snapshot "
            << snapshot_z.bytes << " / " << snapshot_p.bytes << ", event " << event_z.bytes
            << (event_z.compressed ? " (compressed)" : " (under the threshold)") << " / "
            << event_p.bytes << ", standings " << standings_z.bytes << " / " << standings_p.bytes
            << "\n";

  // Pings are answered through the compressed stream too.
  ws.write(net::buffer(std::string(R"({"type":"ping"})")));
  EXPECT_EQ(read().at("type"), "pong");
}

class LiveLimitsNoDeflate : public LiveLimits {
 protected:
  std::vector<std::string> extra_flags() override { return {"--live-deflate", "false"}; }
};

TEST_F(LiveLimitsNoDeflate, DeflateIsNotOfferedWhenTurnedOff) {
  tournament(2);
  RawWs raw(daemon_->port(), "/v1/tournaments/cup/live", true);
  EXPECT_EQ(raw.response().rfind("HTTP/1.1 101", 0), 0u) << raw.response();
  EXPECT_EQ(raw.response().find("permessage-deflate"), std::string::npos);
  EXPECT_FALSE(raw.next().compressed);
}

}  // namespace
}  // namespace tally::testing
