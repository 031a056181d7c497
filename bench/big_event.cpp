// tally-big-event: one "big event" against a running tallyd, for one field size.
//
// A Catan tournament of N players (tables of 4, of 3 where N is not a multiple of 4), three
// rounds (1 random, 2 and 3 by standings), driven over real HTTP and WebSocket on loopback:
//   - seating time of each round (POST …/rounds, as the organizer's client sees it);
//   - every table's result entered (If-None-Match: *): the first 20 one at a time, each waited
//     for on the screens (its event and the standings after it), the rest by J concurrent
//     judges as fast as they are answered; write latency p50/p99/max of each part per round;
//   - GET …/standings render time after each round (p50 of 7, as the client sees it);
//   - during each seating, another client alternately reads the standings of a small second
//     tournament and corrects one of its tables: the p50/p99/max of those requests;
//   - two WebSocket screens on the big tournament, one offering permessage-deflate and one not,
//     counting the bytes the server sent them for the one-at-a-time results (a venue's pace:
//     one standings message per result) and for the burst (coalesced); a screen the server
//     cuts off (too far behind) is reported and opened again after the next seating;
//   - the server's VmRSS (/proc/PID/status) after each round.
// Prints one JSON object (and writes it to --json FILE). Starts nothing itself; the replay time
// is measured by bench/run-all.sh, which restarts tallyd on the same data directory.
//
//   tally-big-event --server 127.0.0.1:8080 --token-file DIR/organizer.token --players 1000
//                   [--pid PID] [--judges 4] [--rounds 3] [--json out.json]
//
// What the screens count: every byte read from the screen's TCP socket (the TCP payload: the
// WebSocket frames, headers included, as the server wrote them; not the IP/TCP headers), split
// by message: a wrapper around the socket parses the frame headers of the byte stream as it
// passes, so each message read through Beast is paired with its size on the wire (compressed,
// for the deflate screen).
#include "bench/options.hpp"
#include "net/http_client.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using tally::net::HttpClient;
using tally::net::HttpReply;
using http_verb = boost::beast::http::verb;

struct Options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::string token;
  int players = 100;
  int judges = 4;
  int rounds = 3;
  long pid = 0;
  std::string json_path;
};

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The q-quantile (nearest rank) of `v`, in place.
double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

json::object latency(std::vector<double> v) {
  json::object o;
  o["count"] = v.size();
  o["p50_ms"] = quantile(v, 0.50);
  o["p99_ms"] = quantile(v, 0.99);
  o["max_ms"] = v.empty() ? 0.0 : v.back();
  return o;
}

long rss_kib(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

void check(const HttpReply& r, int status, const std::string& what) {
  if (r.status != status) {
    throw std::runtime_error(what + ": " + std::to_string(r.status) + " " + r.body.substr(0, 400));
  }
}

// The "type" and "seq" of a live message, read off its start ({"type":"…","seq":N,…}): a screen
// that parsed every 500 KB standings message whole would be slower than the server's sending.
std::pair<std::string_view, std::uint64_t> head_of(std::string_view text) {
  constexpr std::string_view kType = "{\"type\":\"", kSeq = "\"seq\":";
  if (!text.starts_with(kType)) return {"", 0};
  auto end = text.find('"', kType.size());
  std::string_view type = text.substr(kType.size(), end - kType.size());
  auto at = text.substr(0, 200).find(kSeq, end);
  std::uint64_t seq = 0;
  if (at != std::string_view::npos) {
    for (auto i = at + kSeq.size(); i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
      seq = seq * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  return {type, seq};
}

// --- the wire meter: the bytes read from a screen's socket, split by WebSocket message

// Parses the server's side of the connection as it is read: the HTTP 101 answer, then frames
// (server frames are unmasked). Each finished data message's size on the wire (its frames'
// headers and payloads) is queued for the reader, which pairs it with the message Beast returns.
class WireMeter {
 public:
  void take(const unsigned char* p, std::size_t n) {
    total_ += n;
    for (std::size_t i = 0; i < n; ++i) byte(p[i]);
  }
  std::uint64_t total() const { return total_; }
  // The wire size of the next data message, in the order they were read.
  std::uint64_t pop() {
    if (messages_.empty()) return 0;
    auto v = messages_.front();
    messages_.pop_front();
    return v;
  }

 private:
  void byte(unsigned char b) {
    switch (state_) {
      case State::http:
        tail_ = (tail_ << 8) | b;
        if ((tail_ & 0xFFFFFFFF) == 0x0D0A0D0A) state_ = State::head0;
        return;
      case State::head0:
        final_ = (b & 0x80) != 0;
        control_ = (b & 0x08) != 0;
        frame_ = 1;
        state_ = State::head1;
        return;
      case State::head1:
        ++frame_;
        length_ = b & 0x7F;
        extended_ = length_ == 126 ? 2 : length_ == 127 ? 8 : 0;
        if (extended_) length_ = 0;
        state_ = extended_ ? State::extended : State::payload;
        break;
      case State::extended:
        ++frame_;
        length_ = (length_ << 8) | b;
        if (--extended_ == 0) state_ = State::payload;
        break;
      case State::payload:
        ++frame_;
        --length_;
        break;
    }
    if (state_ == State::payload && length_ == 0) end_frame();
  }
  void end_frame() {
    state_ = State::head0;
    if (control_) return;  // pings and closes: counted in total() only
    message_ += frame_;
    if (final_) {
      messages_.push_back(message_);
      message_ = 0;
    }
  }
  enum class State { http, head0, head1, extended, payload } state_ = State::http;
  std::uint64_t total_ = 0, tail_ = 0, length_ = 0, frame_ = 0, message_ = 0;
  int extended_ = 0;
  bool final_ = false, control_ = false;
  std::deque<std::uint64_t> messages_;
};

// A synchronous stream over a TCP socket that shows every byte read to a WireMeter.
class MeteredSocket {
 public:
  using executor_type = tcp::socket::executor_type;
  MeteredSocket(net::io_context& io, WireMeter& meter) : socket_(io), meter_(&meter) {}
  executor_type get_executor() noexcept { return socket_.get_executor(); }
  tcp::socket& socket() { return socket_; }

  template <class Buffers>
  std::size_t read_some(const Buffers& buffers, boost::system::error_code& ec) {
    std::size_t n = socket_.read_some(buffers, ec);
    std::size_t left = n;
    for (auto it = net::buffer_sequence_begin(buffers);
         left > 0 && it != net::buffer_sequence_end(buffers); ++it) {
      net::mutable_buffer b(*it);
      std::size_t k = std::min(left, b.size());
      meter_->take(static_cast<const unsigned char*>(b.data()), k);
      left -= k;
    }
    return n;
  }
  template <class Buffers>
  std::size_t read_some(const Buffers& buffers) {
    boost::system::error_code ec;
    auto n = read_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
  template <class Buffers>
  std::size_t write_some(const Buffers& buffers, boost::system::error_code& ec) {
    return socket_.write_some(buffers, ec);
  }
  template <class Buffers>
  std::size_t write_some(const Buffers& buffers) {
    return socket_.write_some(buffers);
  }

 private:
  tcp::socket socket_;
  WireMeter* meter_;
};

void teardown(beast::role_type role, MeteredSocket& s, boost::system::error_code& ec) {
  websocket::teardown(role, s.socket(), ec);
}
template <class Handler>
void async_teardown(beast::role_type role, MeteredSocket& s, Handler&& handler) {
  websocket::async_teardown(role, s.socket(), std::forward<Handler>(handler));
}

// The totals a screen keeps; read by the main thread between phases.
struct ScreenCounts {
  std::uint64_t wire_total = 0;      // every byte read from the socket
  std::uint64_t standings_wire = 0;  // "standings" and "standings_delta" messages, on the wire
  std::uint64_t standings_text = 0;  // the same, as text after inflating
  std::uint64_t delta_wire = 0;      // "standings_delta" alone, on the wire
  std::uint64_t standings_whole = 0, standings_deltas = 0, events = 0;
  std::uint64_t last_event_seq = 0, last_standings_seq = 0;
  bool snapshot = false;
  bool failed = false;  // the server closed it
};

// One venue screen on its own thread: Beast's WebSocket client over a MeteredSocket.
class Screen {
 public:
  Screen(const Options& o, const std::string& target, bool deflate)
      : socket_(io_, meter_), ws_(socket_), deflate_(deflate) {
    ws_.next_layer().socket().connect(tcp::endpoint(net::ip::make_address(o.host), o.port));
    ws_.next_layer().socket().set_option(tcp::no_delay(true));
    if (deflate) {
      websocket::permessage_deflate opt;
      opt.client_enable = true;
      ws_.set_option(opt);
    }
    ws_.read_message_max(64 * 1024 * 1024);
    ws_.handshake(o.host, target);
    thread_ = std::thread([this] { run(); });
  }
  ~Screen() {
    stop_ = true;
    boost::system::error_code ignored;
    ws_.next_layer().socket().shutdown(tcp::socket::shutdown_both, ignored);
    thread_.join();
  }
  ScreenCounts counts() {
    std::lock_guard lock(mutex_);
    auto c = counts_;
    c.wire_total = wire_total_.load();
    c.failed = failed_;
    return c;
  }
  std::uint64_t snapshot_wire() const { return snapshot_wire_; }
  bool deflate() const { return deflate_; }
  bool failed() const { return failed_; }
  // Events of the tournament before this screen's snapshot (a screen opened later).
  std::uint64_t base = 0;
  std::string last_type() {
    std::lock_guard lock(mutex_);
    return last_type_;
  }

 private:
  void run() {
    beast::flat_buffer buffer;
    try {
      while (!stop_) {
        buffer.clear();
        ws_.read(buffer);
        wire_total_ = meter_.total();
        std::uint64_t wire = meter_.pop();
        std::string_view text(static_cast<const char*>(buffer.data().data()), buffer.size());
        auto [type, seq] = head_of(text);
        std::lock_guard lock(mutex_);
        last_type_ = type;
        if (type == "snapshot") {
          snapshot_wire_ = wire;
          counts_.snapshot = true;
          counts_.last_standings_seq = seq;
        } else if (type == "event") {
          ++counts_.events;
          counts_.last_event_seq = std::max(counts_.last_event_seq, seq);
        } else if (type == "standings" || type == "standings_delta") {
          (type == "standings" ? counts_.standings_whole : counts_.standings_deltas)++;
          counts_.standings_wire += wire;
          if (type == "standings_delta") counts_.delta_wire += wire;
          counts_.standings_text += text.size();
          counts_.last_standings_seq = std::max(counts_.last_standings_seq, seq);
        }
      }
    } catch (const std::exception& e) {
      if (!stop_) {
        std::cerr << "screen (" << (deflate_ ? "deflate" : "plain") << "): " << e.what()
                  << " after a message of type " << last_type() << "\n";
        failed_ = true;
      }
    }
  }

  net::io_context io_;
  WireMeter meter_;
  MeteredSocket socket_;
  websocket::stream<MeteredSocket&> ws_;
  bool deflate_;
  std::thread thread_;
  std::atomic<bool> stop_{false}, failed_{false};
  std::atomic<std::uint64_t> wire_total_{0};
  std::uint64_t snapshot_wire_ = 0;
  std::mutex mutex_;
  ScreenCounts counts_;
  std::string last_type_;
};

// Waits until `ready(counts)` holds for `screen`, up to `limit`; false on timeout.
template <typename F>
bool wait_for(Screen& screen, F ready, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (!ready(screen.counts())) {
    if (Clock::now() > deadline || screen.failed()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// Runs `f` on a new thread; an exception is kept for join_all() to throw.
struct Threads {
  std::vector<std::thread> threads;
  std::mutex mutex;
  std::string error;
  template <typename F>
  void spawn(F f) {
    threads.emplace_back([this, f = std::move(f)] {
      try {
        f();
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        error = e.what();
      }
    });
  }
  void join_all() {
    for (auto& th : threads) th.join();
    threads.clear();
    if (!error.empty()) throw std::runtime_error(error);
  }
};

// --- Catan sheets

// The four sheets of a table of 4 (VP 10 with Largest Army, VP 8 with Longest Road, 6, 5);
// at a table of 3 the first three. Rotated among the seats by `shift`.
std::string sheet_body(const json::array& players, int shift) {
  struct Sheet {
    int settlements, cities, vp_cards, knights, roads, longest_road;
    bool army, road;
  };
  static constexpr Sheet kSheets[] = {{2, 3, 0, 3, 6, 4, true, false},
                                      {3, 1, 1, 1, 10, 6, false, true},
                                      {4, 1, 0, 2, 7, 4, false, false},
                                      {2, 1, 1, 0, 5, 3, false, false}};
  std::string body = "{\"players\":[";
  auto n = static_cast<int>(players.size());
  for (int i = 0; i < n; ++i) {
    const Sheet& s = kSheets[(i + shift) % n];
    char row[320];
    std::snprintf(row, sizeof row,
                  "%s{\"player\":\"%s\",\"settlements\":%d,\"cities\":%d,\"vp_cards\":%d,"
                  "\"knights\":%d,\"roads\":%d,\"longest_road\":%d,\"largest_army\":%s,"
                  "\"longest_road_holder\":%s}",
                  i ? "," : "", std::string(players[i].as_string()).c_str(), s.settlements,
                  s.cities, s.vp_cards, s.knights, s.roads, s.longest_road,
                  s.army ? "true" : "false", s.road ? "true" : "false");
    body += row;
  }
  return body + "]}";
}

// --- the other client: a small tournament's standings read and a table corrected, in turns

struct Other {
  std::string t;
  std::string version;  // ETag of its table 1
  json::array players;  // of its table 1
  int flip = 0;
};

Other make_small(HttpClient& organizer, const std::string& judge, const Options& o,
                 const std::string& t) {
  check(organizer.post("/v1/tournaments",
                       json::object{{"id", t}, {"name", "Small"}, {"game", "catan"}}),
        201, "create small");
  for (int i = 1; i <= 8; ++i) {
    check(organizer.post("/v1/tournaments/" + t + "/players",
                         json::object{{"id", "s" + std::to_string(i)},
                                      {"name", "Small " + std::to_string(i)}}),
          201, "small player");
  }
  auto seated = organizer.post("/v1/tournaments/" + t + "/rounds",
                               json::object{{"method", "random"}, {"seed", 7}});
  check(seated, 201, "small seat");
  HttpClient j(o.host, o.port, judge);
  Other other{t, "", {}, 0};
  auto seating = seated.json();
  for (const auto& table : seating.at("tables").as_array()) {
    auto n = table.at("table").to_number<int>();
    const auto& players = table.at("players").as_array();
    auto r = j.request(http_verb::put,
                       "/v1/tournaments/" + t + "/rounds/1/tables/" + std::to_string(n) + "/result",
                       sheet_body(players, 0), {{"If-None-Match", "*"}});
    check(r, 201, "small result");
    if (n == 1) {
      other.version = r.header("ETag");
      other.players = players;
    }
  }
  return other;
}

// Reads and writes `other` in turns until `stop`; the latencies of every request.
std::vector<double> disturb(const Options& o, const std::string& judge, Other& other,
                            std::atomic<bool>& stop, std::atomic<bool>& started) {
  HttpClient c(o.host, o.port, judge);
  std::vector<double> took;
  bool read = true;
  started = true;
  while (!stop) {
    auto t0 = Clock::now();
    if (read) {
      check(c.get("/v1/tournaments/" + other.t + "/standings"), 200, "small standings");
    } else {
      std::string body = sheet_body(other.players, ++other.flip % 2);
      body.pop_back();
      body += ",\"reason\":\"disturbance\"}";
      auto r = c.request(http_verb::put, "/v1/tournaments/" + other.t + "/rounds/1/tables/1/result",
                         body, {{"If-Match", other.version}});
      check(r, 200, "small correction");
      other.version = r.header("ETag");
    }
    took.push_back(ms_since(t0));
    read = !read;
  }
  return took;
}

Options parse(int argc, char** argv) {
  Options o;
  std::string server = o.host + ":" + std::to_string(o.port), token_file;
  tally::bench::BenchOptions options("tally-big-event",
                                     "a Catan tournament of N players against a running tallyd");
  options.add("server", server, "tallyd's HOST:PORT")
      .add("token-file", token_file, "a file holding the organizer token")
      .add("token", o.token, "the organizer token")
      .add("players", o.players, "players (at least 8)")
      .add("judges", o.judges, "judges entering results at once")
      .add("rounds", o.rounds, "rounds")
      .add("pid", o.pid, "tallyd's pid, for its RSS")
      .add("json", o.json_path, "write the figures there as JSON");
  options.parse(argc, argv);
  try {
    tally::bench::split_server(server, o.host, o.port);
  } catch (const std::invalid_argument& e) {
    options.fail(e.what());
  }
  if (!token_file.empty()) std::ifstream(token_file) >> o.token;
  if (o.token.empty()) options.fail("no organizer token (--token-file)");
  if (o.players < 8) options.fail("--players: at least 8");
  return o;
}

int run(const Options& o) {
  HttpClient organizer(o.host, o.port, o.token);
  std::string suffix = std::to_string(std::random_device{}() % 1000000);
  std::string t = "big-" + std::to_string(o.players) + "-" + suffix;
  check(organizer.post("/v1/tournaments",
                       json::object{{"id", t}, {"name", "Big event"}, {"game", "catan"}}),
        201, "create");
  std::vector<std::string> judges;
  for (int w = 0; w < o.judges + 1; ++w) {
    auto r = organizer.post("/v1/judges", json::object{{"name", "Judge " + std::to_string(w)}});
    check(r, 201, "judge");
    judges.emplace_back(r.json().at("token").as_string());
  }
  json::object out;
  out["players"] = o.players;
  out["judges"] = o.judges;
  out["tournament"] = t;
  out["server_rss_mib_start"] = o.pid ? rss_kib(o.pid) / 1024.0 : -1.0;

  // Players, registered by the judges' threads with the organizer's token.
  auto registering = Clock::now();
  {
    Threads threads;
    for (int w = 0; w < o.judges; ++w) {
      threads.spawn([&, w] {
        HttpClient c(o.host, o.port, o.token);
        for (int i = w + 1; i <= o.players; i += o.judges) {
          auto id = "p" + std::to_string(i);
          // Registrations race on the tournament's stream: a 409 asks to try again.
          HttpReply r;
          for (int attempt = 0; attempt < 50; ++attempt) {
            r = c.post("/v1/tournaments/" + t + "/players",
                       json::object{{"id", id}, {"name", "Player " + std::to_string(i)}});
            if (r.status != 409) break;
          }
          check(r, 201, "player");
        }
      });
    }
    threads.join_all();
  }
  out["register_seconds"] = ms_since(registering) / 1000;

  Other other = make_small(organizer, judges.back(), o, "small-" + suffix);

  // The screens: one offering permessage-deflate, one not. They stay for the whole event.
  std::string live = "/v1/tournaments/" + t + "/live";
  std::vector<std::unique_ptr<Screen>> screens;
  screens.push_back(std::make_unique<Screen>(o, live, true));
  screens.push_back(std::make_unique<Screen>(o, live, false));
  std::uint64_t events_expected = 0;
  for (auto& s : screens) {
    if (!wait_for(
            *s, [](const ScreenCounts& c) { return c.snapshot; }, std::chrono::seconds(30)))
      throw std::runtime_error("screen did not start");
  }

  json::array rounds;
  double worst_seating = 0, worst_write_p99 = 0, worst_render = 0, worst_other_p99 = 0;
  double bytes_deflate = 0, bytes_plain = 0, delta_deflate = 0, delta_plain = 0, rss_max = 0;
  std::uint64_t worst_joining_whole = 0, worst_joining_bytes = 0;
  for (int round = 1; round <= o.rounds; ++round) {
    json::object row;
    row["round"] = round;
    std::string method = round == 1 ? "random" : "standings";
    row["method"] = method;
    json::object seat_body{{"method", method}};
    if (round == 1) seat_body["seed"] = 42;

    // Seating, with the other client at work meanwhile.
    std::atomic<bool> stop{false}, started{false};
    std::vector<double> other_took;
    Threads disturber;
    disturber.spawn([&] { other_took = disturb(o, judges.back(), other, stop, started); });
    while (!started && disturber.error.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto seating = Clock::now();
    auto seated = organizer.post("/v1/tournaments/" + t + "/rounds", seat_body);
    double seat_seconds = ms_since(seating) / 1000;
    stop = true;
    disturber.join_all();
    check(seated, 201, "seat round " + std::to_string(round));
    row["seating_seconds"] = seat_seconds;
    auto other_stats = latency(other_took);
    row["other_during_seating"] = other_stats;
    auto seated_json = seated.json();
    const auto& tables = seated_json.at("tables").as_array();
    row["tables"] = tables.size();

    // The screens have the round's event (and the small tournament's are not theirs). A screen
    // the server closed (too far behind) is reported as such and measures nothing more.
    ++events_expected;
    auto settled = [&](std::chrono::milliseconds limit) {
      for (auto& s : screens) {
        if (s->failed()) continue;
        auto want = events_expected - s->base;
        wait_for(
            *s,
            [want](const ScreenCounts& c) {
              return c.events >= want && c.last_standings_seq >= c.last_event_seq;
            },
            limit);
      }
    };
    settled(std::chrono::seconds(60));
    // A screen the server closed in an earlier round comes back, as a venue screen would, with a
    // fresh snapshot.
    for (auto& s : screens) {
      if (!s->failed()) continue;
      bool deflate = s->deflate();
      s.reset();
      s = std::make_unique<Screen>(o, live, deflate);
      s->base = events_expected;
      if (!wait_for(
              *s, [](const ScreenCounts& c) { return c.snapshot; }, std::chrono::seconds(30)))
        throw std::runtime_error("screen did not come back");
      row[deflate ? "deflate_screen_reconnected" : "plain_screen_reconnected"] = true;
    }
    auto counts = [&] {
      std::vector<ScreenCounts> v;
      for (auto& s : screens) v.push_back(s->counts());
      return v;
    };
    // What each screen received for `results` results between two counts.
    auto received = [&](const std::vector<ScreenCounts>& before,
                        const std::vector<ScreenCounts>& after, std::size_t results,
                        std::uint64_t expected) {
      json::object rows;
      for (std::size_t i = 0; i < screens.size(); ++i) {
        const auto &b = before[i], &a = after[i];
        auto per = [&](std::uint64_t x, std::uint64_t y) {
          return results ? static_cast<double>(x - y) / static_cast<double>(results) : 0.0;
        };
        json::object sr;
        sr["complete"] = !a.failed && a.events + screens[i]->base >= expected;
        sr["wire_bytes_per_result"] = per(a.wire_total, b.wire_total);
        sr["standings_wire_bytes_per_result"] = per(a.standings_wire, b.standings_wire);
        sr["standings_text_bytes_per_result"] = per(a.standings_text, b.standings_text);
        sr["standings_whole"] = a.standings_whole - b.standings_whole;
        sr["standings_deltas"] = a.standings_deltas - b.standings_deltas;
        auto deltas = a.standings_deltas - b.standings_deltas;
        sr["delta_wire_bytes_mean"] =
            deltas ? static_cast<double>(a.delta_wire - b.delta_wire) / static_cast<double>(deltas)
                   : 0.0;
        rows[screens[i]->deflate() ? "deflate" : "plain"] = sr;
      }
      return rows;
    };

    // The first tables one at a time, each waited for on the screens (its event and the
    // standings after it): the bytes a screen receives per result at a venue's pace.
    std::size_t paced = std::min<std::size_t>(20, tables.size());
    std::vector<double> paced_took;
    // Two screens that join now, as a phone or a restarted board does mid-event (one offering
    // deflate, one not): the snapshot must be the only whole standings they receive, and each
    // result after it costs them at most 4 KiB (issue 38). Measured result by result: the largest.
    std::vector<std::unique_ptr<Screen>> joiners;
    for (bool deflate : {true, false}) {
      joiners.push_back(std::make_unique<Screen>(o, live, deflate));
      joiners.back()->base = events_expected;
      if (!wait_for(
              *joiners.back(), [](const ScreenCounts& c) { return c.snapshot; },
              std::chrono::seconds(30)))
        throw std::runtime_error("a joining screen got no snapshot");
    }
    std::vector<ScreenCounts> joiner_last;
    for (auto& j : joiners) joiner_last.push_back(j->counts());
    const std::vector<ScreenCounts> joiner_first = joiner_last;
    std::vector<std::uint64_t> joiner_max(joiners.size(), 0);
    auto joiners_settled = [&] {
      for (std::size_t k = 0; k < joiners.size(); ++k) {
        auto want = events_expected - joiners[k]->base;
        if (!wait_for(
                *joiners[k],
                [want](const ScreenCounts& c) {
                  return c.events >= want && c.last_standings_seq >= c.last_event_seq;
                },
                std::chrono::seconds(10)))
          throw std::runtime_error("a joining screen fell behind");
        auto now = joiners[k]->counts();
        joiner_max[k] = std::max(joiner_max[k], now.wire_total - joiner_last[k].wire_total);
        joiner_last[k] = now;
      }
    };
    auto paced_before = counts();
    HttpClient first_judge(o.host, o.port, judges[0]);
    auto enter = [&](HttpClient& c, std::size_t i) {
      const auto& table = tables[i].as_object();
      auto n = table.at("table").to_number<int>();
      auto body = sheet_body(table.at("players").as_array(), (n + round) % 4);
      auto t0 = Clock::now();
      auto r = c.request(http_verb::put,
                         "/v1/tournaments/" + t + "/rounds/" + std::to_string(round) + "/tables/" +
                             std::to_string(n) + "/result",
                         body, {{"If-None-Match", "*"}});
      double ms = ms_since(t0);
      check(r, 201, "result");
      return ms;
    };
    for (std::size_t i = 0; i < paced; ++i) {
      paced_took.push_back(enter(first_judge, i));
      ++events_expected;
      settled(std::chrono::seconds(10));
      joiners_settled();
    }
    json::object joining;
    for (std::size_t k = 0; k < joiners.size(); ++k) {
      const auto& first = joiner_first[k];
      const auto& last = joiner_last[k];
      json::object jr{
          {"snapshot_wire_bytes", joiners[k]->snapshot_wire()},
          {"standings_whole_after_snapshot", last.standings_whole - first.standings_whole},
          {"results", paced},
          {"wire_bytes_per_result_max", joiner_max[k]},
          {"wire_bytes_per_result_mean",
           paced ? static_cast<double>(last.wire_total - first.wire_total) /
                       static_cast<double>(paced)
                 : 0.0}};
      worst_joining_whole =
          std::max(worst_joining_whole, last.standings_whole - first.standings_whole);
      worst_joining_bytes = std::max(worst_joining_bytes, joiner_max[k]);
      joining[joiners[k]->deflate() ? "deflate" : "plain"] = std::move(jr);
    }
    row["joining_screens"] = std::move(joining);
    joiners.clear();
    auto paced_after = counts();
    auto paced_expected = events_expected;

    // The rest by the judges in parallel, as fast as they go.
    std::vector<std::vector<double>> took(o.judges);
    std::atomic<std::size_t> next{paced};
    auto entering = Clock::now();
    {
      Threads threads;
      for (int w = 0; w < o.judges; ++w) {
        threads.spawn([&, w] {
          HttpClient c(o.host, o.port, judges[w]);
          for (std::size_t i; (i = next++) < tables.size();) took[w].push_back(enter(c, i));
        });
      }
      threads.join_all();
    }
    double entry_seconds = ms_since(entering) / 1000;
    std::vector<double> all;
    for (auto& v : took) all.insert(all.end(), v.begin(), v.end());
    auto writes = latency(all);
    row["writes"] = writes;
    row["writes_one_at_a_time"] = latency(paced_took);
    row["burst_entry_seconds"] = entry_seconds;
    events_expected += tables.size() - paced;
    settled(std::chrono::seconds(60));
    auto burst_after = counts();
    auto at_pace = received(paced_before, paced_after, paced, paced_expected);
    json::object screen_rows{
        {"one_at_a_time", at_pace},
        {"burst", received(paced_after, burst_after, tables.size() - paced, events_expected)}};
    for (auto& s : screens) {
      bool closed = s->failed();
      screen_rows[s->deflate() ? "deflate_closed_by_server" : "plain_closed_by_server"] = closed;
      if (round == o.rounds) {
        const auto& v = at_pace[s->deflate() ? "deflate" : "plain"];
        (s->deflate() ? bytes_deflate : bytes_plain) =
            v.at("standings_wire_bytes_per_result").as_double();
        (s->deflate() ? delta_deflate : delta_plain) = v.at("delta_wire_bytes_mean").as_double();
      }
    }
    row["screens"] = screen_rows;

    // Standings as a client reads them.
    std::vector<double> render;
    std::size_t standings_bytes = 0;
    for (int k = 0; k < 7; ++k) {
      auto t0 = Clock::now();
      auto r = organizer.get("/v1/tournaments/" + t + "/standings");
      render.push_back(ms_since(t0));
      check(r, 200, "standings");
      standings_bytes = r.body.size();
    }
    double render_p50 = quantile(render, 0.5);
    row["standings_render_ms_p50"] = render_p50;
    row["standings_bytes"] = standings_bytes;
    double rss = o.pid ? rss_kib(o.pid) / 1024.0 : -1.0;
    row["server_rss_mib"] = rss;

    if (round > 1) worst_seating = std::max(worst_seating, seat_seconds);
    worst_write_p99 = std::max(worst_write_p99, writes["p99_ms"].as_double());
    worst_render = std::max(worst_render, render_p50);
    if (round > 1) worst_other_p99 = std::max(worst_other_p99, other_stats["p99_ms"].as_double());
    rss_max = std::max(rss_max, rss);
    std::fprintf(stderr,
                 "round %d (%s): %zu tables seated in %.3f s; writes p50 %.2f p99 %.2f ms; "
                 "standings %.2f ms (%zu B); other requests p99 %.2f max %.2f ms (%zu)\n",
                 round, method.c_str(), tables.size(), seat_seconds, writes["p50_ms"].as_double(),
                 writes["p99_ms"].as_double(), render_p50, standings_bytes,
                 other_stats["p99_ms"].as_double(), other_stats["max_ms"].as_double(),
                 other_took.size());
    rounds.push_back(std::move(row));
  }
  json::object snapshots;
  for (auto& s : screens) snapshots[s->deflate() ? "deflate" : "plain"] = s->snapshot_wire();
  out["snapshot_wire_bytes"] = snapshots;
  screens.clear();
  out["rounds"] = std::move(rounds);
  out["summary"] =
      json::object{{"seating_seconds", worst_seating},
                   {"write_p99_ms", worst_write_p99},
                   {"standings_render_ms", worst_render},
                   {"other_p99_ms_during_seating", worst_other_p99},
                   {"standings_bytes_per_result_deflate", bytes_deflate},
                   {"standings_bytes_per_result_plain", bytes_plain},
                   {"delta_bytes_mean_deflate", delta_deflate},
                   {"delta_bytes_mean_plain", delta_plain},
                   {"server_rss_mib", rss_max},
                   {"joining_screen_standings_whole_after_snapshot", worst_joining_whole},
                   {"joining_screen_wire_bytes_per_result_max", worst_joining_bytes}};
  std::fprintf(stderr,
               "joining screens: %llu whole standings after the snapshot, at most %llu B per "
               "result (goal: 0 and 4096)\n",
               static_cast<unsigned long long>(worst_joining_whole),
               static_cast<unsigned long long>(worst_joining_bytes));
  std::string text = json::serialize(out);
  std::cout << text << "\n";
  if (!o.json_path.empty()) std::ofstream(o.json_path) << text << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "tally-big-event: " << e.what() << "\n";
    return 1;
  }
}
