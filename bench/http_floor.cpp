// tally-http-floor: the floor under tallyd's HTTP figure — what this machine gives for judges'
// writes over the same stack (Boost.Beast over Asio, one io_context per thread, keep-alive
// HTTP/1.1) when the server does no work of its own: no authentication, validation, event
// encoding, RocksDB or projection. It answers every request at once with an answer of the size
// and headers tallyd gives (a PUT: the 479-byte table answer of a 2-player Carcassonne table,
// with a fresh seq), so that tally-loadgen can drive it exactly as it drives tallyd.
//
//   tally-http-floor [--listen 127.0.0.1:0] [--threads 2] [--durable DIR] [--ready-file FILE]
//
// --durable DIR: each PUT's body is also appended to DIR/log and the answer waits until it is
// synced (fdatasync), in groups, by one writer thread that the I/O threads hand over to and that
// posts the answers back — tallyd's store path with the store's work left out. Without it the
// floor is HTTP alone.
//
// Why it exists: issue 9 asks tallyd's durable HTTP appends to match Redis XADD over RESP. If
// the floor itself stays below Redis on this machine, no work inside tallyd can reach the goal
// with this stack; the ratio of tallyd to its floor says how much of the remaining gap is
// tallyd's own. Not a server anyone should run: it accepts anything.
#include "bench/options.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

// The table answer tallyd gave to a first result of a 2-player Carcassonne table (API.md, PUT
// result), up to its final seq.
constexpr std::string_view kTableAnswer =
    R"({"table":3,"players":["p5","p6"],"league":null,"status":"reported","version":1,)"
    R"("result":{"players":[{"player":"p5","score":40,"place":"1","points":{"value":1,)"
    R"("exact":"1"},"lines":[{"rule":"win","points":{"value":1,"exact":"1"}}]},{"player":"p6",)"
    R"("score":12,"place":"2","points":{"value":0,"exact":"0"},"lines":[{"rule":"loss",)"
    R"("points":{"value":0,"exact":"0"}}]}]},"entered_by":{"id":"organizer","name":"Organizer"},)"
    R"("entered_at":"2026-11-30T18:13:40.440Z","result_seq":23,"seq":)";

std::atomic<std::uint64_t> next_seq{1};

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

Response answer_to(const Request& request) {
  std::uint64_t seq = next_seq++;
  Response response(http::status::created, request.version());
  response.set(http::field::content_type, "application/json");
  if (request.method() == http::verb::put) {
    response.set(http::field::etag, "\"1\"");
    response.body() = std::string(kTableAnswer) + std::to_string(seq) + "}";
  } else {
    // The load generator's set-up: a tournament, players, a round, judges (it reads "token").
    response.body() = R"({"id":"x","token":"floor","seq":)" + std::to_string(seq) + "}";
  }
  response.set("X-Request-Id", std::to_string(seq));
  response.set(http::field::cache_control, "no-store");
  response.set("X-Content-Type-Options", "nosniff");
  response.keep_alive(request.keep_alive());
  response.prepare_payload();
  return response;
}

// --durable: one writer thread syncs what the I/O threads hand over, in groups.
class SyncedLog {
 public:
  explicit SyncedLog(const std::string& dir) {
    std::filesystem::create_directories(dir);
    fd_ = ::open((dir + "/log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd_ < 0) throw std::runtime_error("cannot open " + dir + "/log: " + std::strerror(errno));
    writer_ = std::thread([this] { run(); });
  }
  ~SyncedLog() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_one();
    writer_.join();
    ::close(fd_);
  }

  // `done` runs on the writer thread once `bytes` are synced.
  void append(std::string bytes, std::function<void()> done) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back({std::move(bytes), std::move(done)});
    }
    ready_.notify_one();
  }

 private:
  struct Queued {
    std::string bytes;
    std::function<void()> done;
  };

  void run() {
    for (;;) {
      std::vector<Queued> batch;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        batch.swap(queue_);
      }
      std::string block;
      for (auto& q : batch) block += q.bytes;
      if (::write(fd_, block.data(), block.size()) != static_cast<ssize_t>(block.size()) ||
          ::fdatasync(fd_) != 0) {
        std::cerr << "tally-http-floor: write failed: " << std::strerror(errno) << "\n";
        std::abort();  // a floor that loses writes measures nothing
      }
      for (auto& q : batch) q.done();
    }
  }

  int fd_ = -1;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<Queued> queue_;
  bool stopping_ = false;
  std::thread writer_;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, SyncedLog* log) : socket_(std::move(socket)), log_(log) {}
  void start() { read(); }

 private:
  void read() {
    request_ = {};
    http::async_read(socket_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (!ec) self->on_request();
                     });
  }

  void on_request() {
    if (log_ == nullptr || request_.method() != http::verb::put) return send(answer_to(request_));
    // The answer waits for the sync; it is sent from this connection's thread, as tallyd does.
    log_->append(request_.body(), [self = shared_from_this()] {
      net::post(self->socket_.get_executor(), [self] { self->send(answer_to(self->request_)); });
    });
  }

  void send(Response response) {
    auto shared = std::make_shared<Response>(std::move(response));
    http::async_write(socket_, *shared,
                      [self = shared_from_this(), shared](beast::error_code ec, std::size_t) {
                        if (!ec && shared->keep_alive()) self->read();
                      });
  }

  tcp::socket socket_;
  SyncedLog* log_;
  beast::flat_buffer buffer_;
  Request request_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0", durable_dir, ready_file;
  unsigned threads = 2;
  tally::bench::BenchOptions options("tally-http-floor",
                                     "tallyd's HTTP stack answering at once (the floor)");
  options.add("listen", listen, "HOST:PORT to serve; port 0 picks a free one")
      .add("threads", threads, "I/O threads")
      .add("durable", durable_dir, "append each PUT's body to DIR/log, synced, before answering")
      .add("ready-file", ready_file, "once listening, the bound address:port is written there");
  options.parse(argc, argv);
  std::unique_ptr<SyncedLog> log;
  if (!durable_dir.empty()) log = std::make_unique<SyncedLog>(durable_dir);

  // tallyd's I/O model: one single-threaded io_context per thread, connections round robin.
  std::vector<std::unique_ptr<net::io_context>> contexts;
  for (unsigned i = 0; i < std::max(1u, threads); ++i) {
    contexts.push_back(std::make_unique<net::io_context>(1));
  }
  auto colon = listen.rfind(':');
  tcp::endpoint endpoint(net::ip::make_address(listen.substr(0, colon)),
                         static_cast<unsigned short>(std::stoul(listen.substr(colon + 1))));
  tcp::acceptor acceptor(*contexts.front(), endpoint);
  std::size_t next = 0;
  std::function<void()> accept = [&] {
    auto& context = *contexts[next++ % contexts.size()];
    acceptor.async_accept(context, [&](beast::error_code ec, tcp::socket socket) {
      if (ec) return;
      socket.set_option(tcp::no_delay(true));
      std::make_shared<Session>(std::move(socket), log.get())->start();
      accept();
    });
  };
  accept();
  auto bound = acceptor.local_endpoint();
  std::string address = bound.address().to_string() + ":" + std::to_string(bound.port());
  std::cout << "tally-http-floor listening on " << address << std::endl;
  if (!ready_file.empty()) {
    std::ofstream(ready_file + ".tmp") << address << "\n";
    std::filesystem::rename(ready_file + ".tmp", ready_file);
  }
  net::signal_set signals(*contexts.front(), SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    for (auto& c : contexts) c->stop();
  });
  std::vector<std::thread> workers;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> work;
  for (auto& c : contexts) work.push_back(net::make_work_guard(*c));
  for (std::size_t i = 1; i < contexts.size(); ++i) {
    workers.emplace_back([&context = *contexts[i]] { context.run(); });
  }
  contexts.front()->run();
  for (auto& c : contexts) c->stop();
  for (auto& w : workers) w.join();
  log.reset();  // its last answers are posted to the contexts, which must still exist
  return 0;
}
