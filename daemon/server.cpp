#include "daemon/server.hpp"

#include "daemon/log.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

namespace tally::daemon {

namespace {

// Quiet on the normal ways a connection ends.
void fail(boost::system::error_code ec, const char* what) {
  if (ec == net::error::operation_aborted || ec == beast::error::timeout || ec == net::error::eof ||
      ec == net::error::connection_reset || ec == http::error::end_of_stream ||
      ec == net::error::bad_descriptor) {
    return;
  }
  log::warn("connection", {{"op", what}, {"error", ec.message()}});
}

}  // namespace

// One client connection speaking HTTP/1.1 with keep-alive. Every operation runs on the
// connection's strand; answers from other threads hop onto it.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Server& server)
      : stream_(std::move(socket)), server_(server), server_keepalive_(server.shared_from_this()) {
    boost::system::error_code ec;
    auto endpoint = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? "unknown" : endpoint.address().to_string();
    server_.connection_opened();
  }
  ~HttpSession() {
    server_.connection_closed();
    server_.forget(this);
  }

  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->do_read(); });
  }

  // Any thread: close when idle, or after the answer being prepared.
  void shutdown() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      self->closing_ = true;
      if (!self->busy_) {
        boost::system::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        self->stream_.close();
      }
    });
  }

 private:
  void do_read() {
    if (closing_) return do_close();
    parser_.emplace();
    parser_->body_limit(server_.config_.body_limit);
    parser_->header_limit(static_cast<std::uint32_t>(server_.config_.header_limit));
    // Covers slow clients too: the whole request must arrive within the idle timeout.
    stream_.expires_after(server_.config_.idle_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                              self->on_header(ec);
                            });
  }

  // A client that asked "Expect: 100-continue" (curl does for larger bodies) is told to go on
  // before the body is read, rather than left waiting for a second.
  void on_header(boost::system::error_code ec) {
    if (ec) return on_read(ec);
    auto expect = parser_->get().find(http::field::expect);
    if (expect != parser_->get().end() && beast::iequals(expect->value(), "100-continue")) {
      auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
      return http::async_write(
          stream_, *go_on,
          [self = shared_from_this(), go_on](boost::system::error_code ec, std::size_t) {
            if (ec) return fail(ec, "write");
            self->read_body();
          });
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                       self->on_read(ec);
                     });
  }

  void on_read(boost::system::error_code ec) {
    if (ec == http::error::end_of_stream) return do_close();
    if (ec == http::error::body_limit) {
      return refuse(
          http::status::payload_too_large,
          "the body is larger than " + std::to_string(server_.config_.body_limit) + " bytes");
    }
    if (ec == http::error::header_limit) {
      return refuse(
          http::status::request_header_fields_too_large,
          "the headers are larger than " + std::to_string(server_.config_.header_limit) + " bytes");
    }
    if (ec) {
      bool malformed = ec.category() == http::make_error_code(http::error::bad_target).category();
      if (malformed)
        return refuse(http::status::bad_request, "malformed HTTP request: " + ec.message());
      return fail(ec, "read");
    }
    Request request = parser_->release();
    if (beast::websocket::is_upgrade(request)) {
      stream_.expires_never();
      auto refusal = server_.upgrade_(stream_.socket(), request, remote_);
      if (!refusal) return;  // the live session owns the socket now
      return send(std::move(*refusal));
    }
    busy_ = true;
    stream_.expires_never();  // the handler's time is not the client's idleness
    server_.dispatcher_.dispatch(
        std::move(request), remote_, [self = shared_from_this()](Response response) {
          net::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
            self->send(std::move(response));
          });
        });
  }

  // Answers an unreadable request and closes: its remaining bytes cannot be trusted.
  void refuse(http::status status, const std::string& detail) {
    Request stub;
    stub.version(11);
    stub.keep_alive(false);
    Response response = problem(stub, status, detail);
    response.keep_alive(false);
    send(std::move(response));
  }

  void send(Response response) {
    busy_ = false;
    if (closing_) response.keep_alive(false);
    auto shared = std::make_shared<Response>(std::move(response));
    stream_.expires_after(server_.config_.idle_timeout);
    http::async_write(
        stream_, *shared,
        [self = shared_from_this(), shared](boost::system::error_code ec, std::size_t) {
          self->on_write(ec, shared->keep_alive());
        });
  }

  void on_write(boost::system::error_code ec, bool keep_alive) {
    if (ec) return fail(ec, "write");
    if (!keep_alive) return do_close();
    do_read();
  }

  void do_close() {
    boost::system::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server& server_;
  std::shared_ptr<Server> server_keepalive_;
  std::string remote_;
  bool busy_ = false;
  bool closing_ = false;
};

Server::Server(net::io_context& io, const Config& config, Dispatcher& dispatcher,
               UpgradeHandler upgrade, std::function<std::size_t()> live_clients)
    : io_(io),
      config_(config),
      dispatcher_(dispatcher),
      upgrade_(std::move(upgrade)),
      live_clients_(std::move(live_clients)),
      acceptor_(net::make_strand(io)) {}

void Server::start() {
  auto [host, port] = split_address(config_.listen);
  tcp::endpoint endpoint(net::ip::make_address(host), port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
  do_accept();
}

void Server::do_accept() {
  acceptor_.async_accept(
      net::make_strand(io_),
      [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
        self->on_accept(ec, std::move(socket));
      });
}

void Server::on_accept(boost::system::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || stopping_) return;
  if (ec) {
    fail(ec, "accept");
  } else if (connections() >= config_.max_connections) {
    // Over the limit: a short answer on the caller's own time, then close.
    auto refused = std::make_shared<beast::tcp_stream>(std::move(socket));
    Request stub;
    stub.version(11);
    auto response = std::make_shared<Response>(problem(
        stub, http::status::service_unavailable, "too many open connections; try again shortly"));
    response->set(http::field::retry_after, "2");
    response->keep_alive(false);
    refused->expires_after(std::chrono::seconds(5));
    http::async_write(*refused, *response,
                      [refused, response](boost::system::error_code, std::size_t) {
                        boost::system::error_code ignored;
                        refused->socket().shutdown(tcp::socket::shutdown_both, ignored);
                      });
  } else {
    auto session = std::make_shared<HttpSession>(std::move(socket), *this);
    {
      std::lock_guard lock(sessions_mutex_);
      sessions_.emplace_back(session.get(), session);
    }
    session->run();
  }
  do_accept();
}

// No weak_ptr::lock() under the mutex: a session whose last owner is such a temporary would be
// destroyed right there and come back here for the same mutex.
void Server::forget(HttpSession* session) {
  std::lock_guard lock(sessions_mutex_);
  std::erase_if(sessions_, [&](const auto& entry) { return entry.first == session; });
}

void Server::stop() {
  stopping_ = true;
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->acceptor_.close(ignored);
  });
  std::vector<std::weak_ptr<HttpSession>> open;
  {
    std::lock_guard lock(sessions_mutex_);
    for (auto& entry : sessions_) open.push_back(entry.second);
  }
  for (auto& w : open) {
    if (auto s = w.lock()) s->shutdown();
  }
}

}  // namespace tally::daemon
