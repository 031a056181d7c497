// tally-loadgen: plays judges and venue screens against a running tallyd.
//
// W writer threads, each with one keep-alive HTTP connection, enter table results (first entries,
// then corrections with If-Match and a reason) on tables of their own; S WebSocket clients watch
// the tournament's live feed. Reports the throughput and latency of acknowledged writes, and the
// delay from a write's acknowledgement to each screen receiving (a) that event and (b) standings
// that include it — p50/p99/p99.9 over every (write, screen) pair — as a table and as JSON.
//
//   tally-loadgen --server 127.0.0.1:8080 --token-file data/organizer.token
//                 --writers 4 --screens 1000 --writes 400 --rate 50 [--pid PID] [--json out.json]
//                 [--screens-server HOST:PORT] [--writers-cpu N] [--screens-cpu N]
//
// --rate is writes per second over all writers (0: as fast as they go). --pid samples the
// server's RSS. --screens-server: the screens watch another server (a mirror following --server,
// docs/operations.md) while the judges write to --server. --writers-cpu and --screens-cpu pin the
// judges' threads and the screens' threads to a CPU each, so that on one machine the judges'
// client is not slowed by the screens it shares the machine with (bench/replication.sh). The
// tournament is a fresh Carcassonne one with 2-player tables, so that any scores are a valid
// result.
#include "bench/options.hpp"
#include "net/http_client.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/json.hpp>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using tally::net::HttpClient;

struct Options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::string screens_host;  // empty: host and port
  std::uint16_t screens_port = 0;
  int writers_cpu = -1;  // -1: not pinned
  int screens_cpu = -1;
  std::string token;
  int writers = 4;
  int screens = 100;
  int writes = 400;
  double rate = 50;
  int tables_per_writer = 8;
  long pid = 0;
  std::string json_path;
};

// The "type" and "seq" of a live message, read off its start.
std::pair<std::string_view, std::uint64_t> head_of(std::string_view text) {
  constexpr std::string_view kType = "{\"type\":\"", kSeq = "\"seq\":";
  if (!text.starts_with(kType)) return {"", 0};
  auto end = text.find('"', kType.size());
  std::string_view type = text.substr(kType.size(), end - kType.size());
  auto at = text.find(kSeq, end);
  std::uint64_t seq = 0;
  if (at != std::string_view::npos) {
    for (auto i = at + kSeq.size(); i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
      seq = seq * 10 + (text[i] - '0');
  }
  return {type, seq};
}

// One venue screen: connects, reads every message, remembers when each seq arrived.
//
// It speaks the WebSocket protocol itself (an RFC 6455 client handshake, then the server's
// unmasked frames, a pong for every ping) instead of through Beast: on the two cores it shares
// with the server, Beast's per-message layers and UTF-8 check made the screens cost more CPU than
// the server spent sending to them, and that CPU delayed the very deliveries being measured. The
// server cannot tell these screens from a browser.
class Screen : public std::enable_shared_from_this<Screen> {
 public:
  struct Arrival {
    bool standings;
    std::uint64_t seq;
    Clock::time_point at;
  };

  Screen(net::io_context& io, const Options& o, std::string target)
      : socket_(net::make_strand(io)), options_(o), target_(std::move(target)), in_(64 * 1024) {}

  void start(std::atomic<int>& ready) {
    ready_ = &ready;
    tcp::endpoint endpoint(net::ip::make_address(options_.screens_host), options_.screens_port);
    socket_.async_connect(endpoint, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("connect", ec);
      boost::system::error_code ignored;
      self->socket_.set_option(tcp::no_delay(true), ignored);
      auto request = std::make_shared<std::string>(
          "GET " + self->target_ + " HTTP/1.1\r\nHost: " + self->options_.screens_host +
          "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
      net::async_write(self->socket_, net::buffer(*request),
                       [self, request](beast::error_code ec, std::size_t) {
                         if (ec) return self->fail("handshake", ec);
                         self->read();
                       });
    });
  }

  std::vector<Arrival> arrivals;
  std::uint64_t snapshot_seq = 0;
  bool failed = false;
  bool closed = false;

 private:
  void read() {
    if (have_ == in_.size()) in_.resize(in_.size() * 2);
    socket_.async_read_some(net::buffer(in_.data() + have_, in_.size() - have_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec) {
                                self->closed = true;
                                return;
                              }
                              auto at = Clock::now();
                              self->have_ += n;
                              if (!self->upgraded_ && !self->take_handshake_answer()) return;
                              if (!self->take_frames(at)) return;
                              self->read();
                            });
  }

  // The server's "101 Switching Protocols" and its headers; frames may follow in the same read.
  bool take_handshake_answer() {
    std::string_view text(in_.data(), have_);
    auto end = text.find("\r\n\r\n");
    if (end == std::string_view::npos) return true;  // not all there yet
    if (!text.starts_with("HTTP/1.1 101")) {
      fail("handshake", boost::asio::error::connection_refused);
      return false;
    }
    consume(end + 4);
    upgraded_ = true;
    return true;
  }

  // Every whole frame in the buffer. Server frames are never masked; a message may come in
  // fragments (type and seq are in the first, the arrival is the last).
  bool take_frames(Clock::time_point at) {
    std::size_t used = 0;
    for (;;) {
      const auto* p = reinterpret_cast<const unsigned char*>(in_.data() + used);
      std::size_t left = have_ - used;
      if (left < 2) break;
      unsigned opcode = p[0] & 0x0F;
      std::uint64_t length = p[1] & 0x7F;
      std::size_t header = 2;
      if (length == 126) {
        header = 4;
        if (left < header) break;
        length = (std::uint64_t{p[2]} << 8) | p[3];
      } else if (length == 127) {
        header = 10;
        if (left < header) break;
        length = 0;
        for (int i = 2; i < 10; ++i) length = (length << 8) | p[i];
      }
      if ((p[1] & 0x80) != 0) {
        fail("frame", boost::asio::error::invalid_argument);
        return false;
      }
      bool final = (p[0] & 0x80) != 0;
      if (left < header + length) {
        if (in_.size() < header + length) in_.resize(header + length);
        break;
      }
      std::string_view payload(in_.data() + used + header, length);
      used += header + length;
      if (opcode == 0x1 || opcode == 0x0) {
        if (opcode == 0x1) {
          auto [type, seq] = head_of(payload);
          head_ = {std::string(type), seq};  // short: no allocation
        }
        if (final) on_message(head_, at);
      } else if (opcode == 0x9) {
        pong(payload);
      } else if (opcode == 0x8) {
        closed = true;
        return false;
      }
    }
    consume(used);
    return true;
  }

  // The server writes {"type":"…","seq":N,…}: reading those two members is all a screen needs.
  void on_message(const std::pair<std::string, std::uint64_t>& head, Clock::time_point at) {
    const auto& [type, seq] = head;
    if (type == "snapshot") {
      snapshot_seq = seq;
      ++*ready_;
    } else if (type == "event") {
      arrivals.push_back({false, seq, at});
    } else if (type == "standings" || type == "standings_delta") {
      // Since the live feed sends deltas (after the first standings, a "standings_delta" that
      // the page applies to the standings it holds), a delta is the standings' arrival too.
      arrivals.push_back({true, seq, at});
    }
  }

  // A client's frames are masked; a zero mask leaves the payload as it is.
  void pong(std::string_view payload) {
    auto frame = std::make_shared<std::string>();
    frame->push_back(static_cast<char>(0x8A));
    frame->push_back(static_cast<char>(0x80 | payload.size()));  // control payloads are < 126
    frame->append(4, '\0');
    frame->append(payload);
    net::async_write(socket_, net::buffer(*frame),
                     [self = shared_from_this(), frame](beast::error_code, std::size_t) {});
  }

  void consume(std::size_t n) {
    std::memmove(in_.data(), in_.data() + n, have_ - n);
    have_ -= n;
  }

  void fail(const char* what, beast::error_code ec) {
    failed = true;
    std::fprintf(stderr, "screen %s: %s\n", what, ec.message().c_str());
    ++*ready_;
  }

  tcp::socket socket_;
  const Options& options_;
  std::string target_;
  std::vector<char> in_;
  std::size_t have_ = 0;
  bool upgraded_ = false;
  std::pair<std::string, std::uint64_t> head_;  // type and seq of the message being read
  std::atomic<int>* ready_ = nullptr;
};

// One judge's keep-alive connection, in blocking calls on the writer's own thread: the request
// written as one string with one send, the answer read with recv until its Content-Length is in,
// and only the status line and the headers the judge needs looked at — as lean as the peers'
// clients (hiredis and libpq in blocking calls), so that the client takes as little as it can of
// the CPU it shares with the server. Beast's serializer and parser, with a JSON object per body
// and a JSON parse per answer, took 6.7 µs of user time per write; this takes 2. A stuck server
// fails the read after 30 s (SO_RCVTIMEO) instead of hanging the run; an answer the client
// cannot frame (no Content-Length, a closed connection) ends the run with the reason.
class JudgeConnection {
 public:
  JudgeConnection(const Options& o, const std::string& token) : socket_(io_) {
    socket_.connect(tcp::endpoint(net::ip::make_address(o.host), o.port));
    socket_.set_option(tcp::no_delay(true));
    timeval timeout{30, 0};
    ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    fixed_headers_ = "Host: " + o.host + "\r\nAuthorization: Bearer " + token +
                     "\r\nContent-Type: application/json\r\n";
    buffer_.resize(16 * 1024);  // room for a whole table answer in one recv
  }

  // PUT `target` with a JSON `body` and one precondition header line ("If-Match: \"3\"");
  // the answer's status, ETag and body.
  struct Answer {
    int status = 0;
    std::string etag;
    std::string body;
  };
  Answer put(const std::string& target, const std::string& body,
             const std::string& precondition_line) {
    request_.clear();
    request_.append("PUT ").append(target).append(" HTTP/1.1\r\n").append(fixed_headers_);
    request_.append(precondition_line).append("\r\nContent-Length: ");
    request_.append(std::to_string(body.size())).append("\r\n\r\n").append(body);
    send_all(request_);
    return read_answer();
  }

 private:
  void send_all(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(socket_.native_handle(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error(std::string("judge send: ") + std::strerror(errno));
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  // Reads more of the answer after the `used` bytes already in the buffer.
  std::size_t receive(std::size_t used) {
    if (used == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    for (;;) {
      ssize_t n = ::recv(socket_.native_handle(), buffer_.data() + used, buffer_.size() - used, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) throw std::runtime_error("judge: the server closed the connection");
      if (n < 0) throw std::runtime_error(std::string("judge recv: ") + std::strerror(errno));
      return used + static_cast<std::size_t>(n);
    }
  }

  // The value of header `name` (lower case) in `head`, or empty.
  static std::string_view header(std::string_view head, std::string_view name) {
    std::size_t line = head.find("\r\n");
    while (line != std::string_view::npos && line + 2 < head.size()) {
      std::size_t end = head.find("\r\n", line + 2);
      std::string_view field = head.substr(line + 2, end - line - 2);
      std::size_t colon = field.find(':');
      if (colon == name.size() &&
          std::equal(name.begin(), name.end(), field.begin(), [](char a, char b) {
            return a == std::tolower(static_cast<unsigned char>(b));
          })) {
        std::string_view value = field.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return value;
      }
      line = end;
    }
    return {};
  }

  Answer read_answer() {
    // Keep-alive answers arrive one at a time (one request in flight): whatever the buffer holds
    // after an answer is never the next one's, so every answer starts at byte 0.
    std::size_t used = 0, head_end = std::string_view::npos;
    while (head_end == std::string_view::npos) {
      used = receive(used);
      head_end = std::string_view(buffer_.data(), used).find("\r\n\r\n");
    }
    std::string_view head(buffer_.data(), head_end);
    Answer answer;
    if (!head.starts_with("HTTP/1.1 ") || head.size() < 12) {
      throw std::runtime_error("judge: not an HTTP/1.1 answer: " + std::string(head.substr(0, 40)));
    }
    answer.status = std::atoi(head.data() + 9);
    answer.etag = std::string(header(head, "etag"));
    std::string_view length = header(head, "content-length");
    if (length.empty()) throw std::runtime_error("judge: an answer without Content-Length");
    std::size_t body_size = std::strtoull(std::string(length).c_str(), nullptr, 10);
    std::size_t total = head_end + 4 + body_size;
    if (buffer_.size() < total) buffer_.resize(total);
    while (used < total) used = receive(used);
    answer.body.assign(buffer_.data() + head_end + 4, body_size);
    return answer;
  }

  net::io_context io_;  // the socket needs one; nothing runs on it
  tcp::socket socket_;
  std::string fixed_headers_;
  std::string request_;
  std::vector<char> buffer_;
};

// The "seq" of a table answer: the key the server adds last to the table (API.md, PUT result).
std::uint64_t seq_of_table_answer(std::string_view body) {
  std::size_t at = body.rfind("\"seq\":");
  if (at == std::string_view::npos) {
    throw std::runtime_error("a table answer without seq: " + std::string(body.substr(0, 200)));
  }
  return std::strtoull(body.data() + at + 6, nullptr, 10);
}

struct Write {
  std::uint64_t seq;
  Clock::time_point sent;
  Clock::time_point acked;
};

double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::size_t i = std::min(values.size() - 1, static_cast<std::size_t>(p / 100.0 * values.size()));
  std::nth_element(values.begin(), values.begin() + static_cast<long>(i), values.end());
  return values[i];
}

long rss_kib(long pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

Options parse(int argc, char** argv) {
  Options o;
  std::string server = o.host + ":" + std::to_string(o.port), screens_server, token_file;
  tally::bench::BenchOptions options("tally-loadgen",
                                     "judges' writes and venue screens against a running tallyd");
  options.add("server", server, "tallyd's HOST:PORT")
      .add("screens-server", screens_server, "HOST:PORT the screens connect to (default: server)")
      .add("writers-cpu", o.writers_cpu, "the CPU the writers run on (-1: not pinned)")
      .add("screens-cpu", o.screens_cpu, "the CPU the screens run on (-1: not pinned)")
      .add("token-file", token_file, "a file holding the organizer token")
      .add("token", o.token, "the organizer token")
      .add("writers", o.writers, "judges writing at once")
      .add("screens", o.screens, "live screens")
      .add("writes", o.writes, "writes per judge")
      .add("rate", o.rate, "writes per second per judge (0: as fast as answered)")
      .add("tables-per-writer", o.tables_per_writer, "tables each judge writes in turn")
      .add("pid", o.pid, "tallyd's pid, for its RSS")
      .add("json", o.json_path, "write the figures there as JSON");
  options.parse(argc, argv);
  try {
    tally::bench::split_server(server, o.host, o.port);
    if (screens_server.empty()) {
      o.screens_host = o.host;
      o.screens_port = o.port;
    } else {
      tally::bench::split_server(screens_server, o.screens_host, o.screens_port);
    }
  } catch (const std::invalid_argument& e) {
    options.fail(e.what());
  }
  if (!token_file.empty()) std::ifstream(token_file) >> o.token;
  return o;
}

// Runs `thread` on CPU `cpu` only (nothing when cpu < 0).
void pin(std::thread& thread, int cpu) {
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(thread.native_handle(), sizeof set, &set) != 0) {
    throw std::runtime_error("cannot pin a thread to CPU " + std::to_string(cpu));
  }
}

void check(const tally::net::HttpReply& r, int status, const char* what) {
  if (r.status != status)
    throw std::runtime_error(std::string(what) + ": " + std::to_string(r.status) + " " + r.body);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);

  // A fresh tournament: 2-player tables, one set per writer.
  HttpClient organizer(o.host, o.port, o.token);
  std::string t = "load-" + std::to_string(std::random_device{}() % 1000000);
  check(organizer.post("/v1/tournaments",
                       json::object{{"id", t}, {"name", "Load"}, {"game", "carcassonne"}}),
        201, "create");
  int tables = o.writers * o.tables_per_writer;
  json::array seating;
  for (int i = 1; i <= tables; ++i) {
    for (int s = 0; s < 2; ++s) {
      std::string p = "p" + std::to_string(2 * i - 1 + s);
      check(organizer.post("/v1/tournaments/" + t + "/players",
                           json::object{{"id", p}, {"name", "Player " + p}}),
            201, "player");
    }
    seating.push_back(json::array{"p" + std::to_string(2 * i - 1), "p" + std::to_string(2 * i)});
  }
  check(organizer.post(
            "/v1/tournaments/" + t + "/rounds",
            json::object{{"method", "manual"}, {"tables", seating}, {"reason", "load test"}}),
        201, "seat");
  std::vector<std::string> judges;
  for (int w = 0; w < o.writers; ++w) {
    auto r =
        organizer.post("/v1/judges", json::object{{"name", "Load judge " + std::to_string(w)}});
    check(r, 201, "judge");
    judges.emplace_back(r.json().at("token").as_string());
  }

  // The screens. A mirror must hold the tournament before its screens can watch it.
  if (o.screens_host != o.host || o.screens_port != o.port) {
    HttpClient mirror(o.screens_host, o.screens_port);
    auto deadline = Clock::now() + std::chrono::seconds(30);
    while (mirror.get("/v1/tournaments/" + t + "/rounds/1").status != 200) {
      if (Clock::now() > deadline) throw std::runtime_error("the mirror did not copy the round");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  net::io_context io;
  std::atomic<int> ready{0};
  std::vector<std::shared_ptr<Screen>> screens;
  for (int s = 0; s < o.screens; ++s) {
    screens.push_back(std::make_shared<Screen>(io, o, "/v1/tournaments/" + t + "/live"));
    screens.back()->start(ready);
  }
  auto work = net::make_work_guard(io);
  std::vector<std::thread> io_threads;
  for (int i = 0; i < 2; ++i) {
    io_threads.emplace_back([&] { io.run(); });
    pin(io_threads.back(), o.screens_cpu);
  }
  auto wait_until = Clock::now() + std::chrono::seconds(60);
  while (ready < o.screens && Clock::now() < wait_until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  long rss_idle = o.pid ? rss_kib(o.pid) : -1;

  // The writers.
  std::mutex writes_mutex;
  std::vector<Write> writes;
  std::atomic<int> next_write{0}, refused{0};
  auto run_start = Clock::now();
  auto writer = [&](int w) {
    JudgeConnection judge(o, judges[w]);
    std::vector<std::uint64_t> versions(o.tables_per_writer, 0);
    std::mt19937 rng(w);
    for (;;) {
      int n = next_write++;
      if (n >= o.writes) return;
      if (o.rate > 0)
        std::this_thread::sleep_until(run_start + std::chrono::duration<double>(n / o.rate));
      int local = n / o.writers % o.tables_per_writer;
      int table = w * o.tables_per_writer + local + 1;
      // The body as the judge's page sends it; written out directly (as a client would keep
      // it), so that building it costs the client next to nothing.
      std::string body = "{\"players\":[{\"player\":\"p" + std::to_string(2 * table - 1) +
                         "\",\"score\":" + std::to_string(rng() % 120) + "},{\"player\":\"p" +
                         std::to_string(2 * table) + "\",\"score\":" + std::to_string(rng() % 120) +
                         "}]";
      // A first entry must find no result; a correction names the version it corrects.
      std::string precondition = "If-None-Match: *";
      if (versions[local] != 0) {
        precondition = "If-Match: \"" + std::to_string(versions[local]) + "\"";
        body += ",\"reason\":\"load test correction\"";
      }
      body += "}";
      auto sent = Clock::now();
      auto r = judge.put(
          "/v1/tournaments/" + t + "/rounds/1/tables/" + std::to_string(table) + "/result", body,
          precondition);
      auto acked = Clock::now();
      if (r.status != 200 && r.status != 201) {
        ++refused;
        continue;
      }
      versions[local] = std::stoull(r.etag.substr(1));
      auto seq = seq_of_table_answer(r.body);
      std::lock_guard lock(writes_mutex);
      writes.push_back({seq, sent, acked});
    }
  };
  std::vector<std::thread> writer_threads;
  for (int w = 0; w < o.writers; ++w) {
    writer_threads.emplace_back(writer, w);
    pin(writer_threads.back(), o.writers_cpu);
  }
  for (auto& th : writer_threads) th.join();
  double run_seconds = std::chrono::duration<double>(Clock::now() - run_start).count();
  long rss_loaded = o.pid ? rss_kib(o.pid) : -1;

  // Let the last standings arrive, then stop the screens.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  work.reset();
  io.stop();
  for (auto& th : io_threads) th.join();

  // Latencies: per (write, screen), from the ack to the event, and to standings with seq >= it.
  std::vector<double> write_ms, event_ms, standings_ms;
  for (const auto& w : writes)
    write_ms.push_back(std::chrono::duration<double, std::milli>(w.acked - w.sent).count());
  std::sort(writes.begin(), writes.end(),
            [](const Write& a, const Write& b) { return a.seq < b.seq; });
  int failed_screens = 0, missing = 0;
  for (const auto& s : screens) {
    if (s->failed) {
      ++failed_screens;
      continue;
    }
    std::map<std::uint64_t, Clock::time_point> event_at;
    std::vector<std::pair<std::uint64_t, Clock::time_point>> standings_at;
    for (const auto& a : s->arrivals) {
      if (a.standings) {
        standings_at.emplace_back(a.seq, a.at);
      } else {
        event_at.emplace(a.seq, a.at);
      }
    }
    std::size_t k = 0;
    for (const auto& w : writes) {
      if (w.seq <= s->snapshot_seq) continue;
      auto e = event_at.find(w.seq);
      if (e == event_at.end()) {
        ++missing;
      } else {
        event_ms.push_back(
            std::max(0.0, std::chrono::duration<double, std::milli>(e->second - w.acked).count()));
      }
      while (k < standings_at.size() && standings_at[k].first < w.seq) ++k;
      if (k < standings_at.size()) {
        standings_ms.push_back(std::max(
            0.0,
            std::chrono::duration<double, std::milli>(standings_at[k].second - w.acked).count()));
      }
    }
  }

  json::object out{
      {"writers", o.writers},
      {"screens", o.screens},
      {"writes", writes.size()},
      {"refused", refused.load()},
      {"seconds", run_seconds},
      {"writes_per_second", writes.size() / run_seconds},
      {"write_ms", json::object{{"p50", percentile(write_ms, 50)},
                                {"p99", percentile(write_ms, 99)},
                                {"p999", percentile(write_ms, 99.9)}}},
      {"event_delivery_ms", json::object{{"p50", percentile(event_ms, 50)},
                                         {"p99", percentile(event_ms, 99)},
                                         {"p999", percentile(event_ms, 99.9)}}},
      {"standings_delivery_ms", json::object{{"p50", percentile(standings_ms, 50)},
                                             {"p99", percentile(standings_ms, 99)},
                                             {"p999", percentile(standings_ms, 99.9)}}},
      {"deliveries", event_ms.size()},
      {"missing_events", missing},
      {"failed_screens", failed_screens},
      {"server_rss_mib_idle", rss_idle / 1024.0},
      {"server_rss_mib_loaded", rss_loaded / 1024.0}};
  std::printf("writers %d  screens %d  writes %zu (refused %d) in %.2f s = %.0f/s\n", o.writers,
              o.screens, writes.size(), refused.load(), run_seconds, writes.size() / run_seconds);
  std::printf("%-28s %9s %9s %9s\n", "ms", "p50", "p99", "p99.9");
  for (const char* key : {"write_ms", "event_delivery_ms", "standings_delivery_ms"}) {
    const auto& p = out.at(key).as_object();
    std::printf("%-28s %9.2f %9.2f %9.2f\n", key, p.at("p50").as_double(), p.at("p99").as_double(),
                p.at("p999").as_double());
  }
  std::printf("deliveries %zu, missing %d, failed screens %d", event_ms.size(), missing,
              failed_screens);
  if (o.pid)
    std::printf(", server RSS %.1f MiB idle with screens, %.1f MiB after writes", rss_idle / 1024.0,
                rss_loaded / 1024.0);
  std::printf("\n");
  if (!o.json_path.empty()) std::ofstream(o.json_path) << json::serialize(out) << "\n";
  return missing == 0 && failed_screens == 0 ? 0 : 1;
}
