#include "daemon/http/server.hpp"

#include "daemon/http/admission.hpp"
#include "daemon/http/framing.hpp"

#include "daemon/log.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <array>
#include <memory>
#include <string>

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

// POST /v1/series/{s}/imports: the one route whose body may be a venue's whole export.
bool is_series_import(const http::request_header<>& request) {
  if (request.method() != http::verb::post) return false;
  std::string_view target = request.target();
  target = target.substr(0, target.find('?'));
  return target.starts_with("/v1/series/") && target.ends_with("/imports") &&
         target.find('/', 11) == target.size() - 8;
}

}  // namespace

// One client connection speaking HTTP/1.1 with keep-alive, in plain TCP or in TLS. Every
// operation runs on the connection's I/O thread (the one io_context of the pool its socket
// belongs to); answers from other threads hop onto it. This is the session type-erased for the
// registry (shutdown only).
class HttpSession {
 public:
  virtual ~HttpSession() = default;
  // Any thread: close when idle, or after the answer being prepared.
  virtual void shutdown() = 0;
};

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

template <typename Stream>
class BasicHttpSession : public HttpSession,
                         public std::enable_shared_from_this<BasicHttpSession<Stream>> {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  BasicHttpSession(tcp::socket&& socket, Server& server, net::ssl::context* tls, std::string remote,
                   Admission::Ticket stranger)
      : stream_(make_stream(std::move(socket), tls)),
        server_(server),
        server_keepalive_(server.shared_from_this()),
        remote_(std::move(remote)),
        slot_(server.take_slot(true)),
        stranger_(std::move(stranger)) {}
  ~BasicHttpSession() override { server_.forget(this); }

  void run() {
    net::dispatch(lowest().get_executor(), [self = this->shared_from_this()] {
      if constexpr (kTls) {
        // The handshake counts against the first header's deadline (half-open TLS too).
        self->lowest().expires_after(
            std::min(self->server_.config_.header_timeout, self->server_.config_.idle_timeout));
        self->stream_.async_handshake(net::ssl::stream_base::server,
                                      [self](boost::system::error_code ec) {
                                        if (ec) return fail(ec, "tls handshake");
                                        self->do_read();
                                      });
      } else {
        self->do_read();
      }
    });
  }

  void shutdown() override {
    net::post(lowest().get_executor(), [self = this->shared_from_this()] {
      self->closing_ = true;
      if (!self->busy_) {
        boost::system::error_code ignored;
        self->lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
        self->lowest().close();
      }
    });
  }

 private:
  static Stream make_stream(tcp::socket&& socket, net::ssl::context* tls) {
    if constexpr (kTls) {
      return Stream(std::move(socket), *tls);
    } else {
      return Stream(std::move(socket));
    }
  }

  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void do_read() {
    if (closing_) return do_close();
    parser_.emplace();
    // Beast checks a Content-Length against the limit as the header ends: the header is read
    // under the larger of the two limits, and on_header lowers it for every body but an import.
    body_limit_ = std::max(server_.config_.body_limit, server_.config_.import_limit);
    parser_->body_limit(body_limit_);
    parser_->header_limit(static_cast<std::uint32_t>(server_.config_.header_limit));
    // A new connection has header_timeout for its first request's header (half-open connections
    // hold a slot no longer than that); later requests, the idle timeout for the whole request.
    lowest().expires_after(
        first_request_ ? std::min(server_.config_.header_timeout, server_.config_.idle_timeout)
                       : server_.config_.idle_timeout);
    first_request_ = false;
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
          self->on_header(ec);
        });
  }

  // A client that asked "Expect: 100-continue" (curl does for larger bodies) is told to go on
  // before the body is read, rather than left waiting for a second.
  void on_header(boost::system::error_code ec) {
    if (ec) return on_read(ec);
    if (auto problem = framing_problem(parser_->get())) {
      return refuse(problem->status, problem->message);
    }
    if (stranger_.held()) {
      // A judge's, the organizer's or a replica's token makes the connection no stranger; one on
      // probation (in a slot kept for tokens) that shows none gives the slot back.
      Caller caller = server_.dispatcher_.identify(parser_->get(), remote_);
      if (caller.identity.authenticated() && !caller.bad_token) {
        stranger_.proven();
      } else if (stranger_.on_probation()) {
        server_.admission_->note(Admission::Refusal::reserved, remote_);
        return refuse(http::status::service_unavailable, "api.request.too_many_connections", "2");
      }
    }
    // The one body beyond body_limit: the organizer's import of a venue's export.
    if (!is_series_import(parser_->get()) ||
        !server_.dispatcher_.identify(parser_->get(), remote_).identity.organizer()) {
      body_limit_ = server_.config_.body_limit;
      parser_->body_limit(body_limit_);  // a chunked body is held to it as it comes
      if (auto length = parser_->content_length(); length && *length > body_limit_) {
        return on_read(http::error::body_limit);
      }
    }
    // The body's time, from the end of the header.
    lowest().expires_after(server_.config_.idle_timeout);
    header_fields_ = field_count(parser_->get());
    auto expect = parser_->get().find(http::field::expect);
    if (expect != parser_->get().end() && beast::iequals(expect->value(), "100-continue")) {
      auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
      return http::async_write(
          stream_, *go_on,
          [self = this->shared_from_this(), go_on](boost::system::error_code ec, std::size_t) {
            if (ec) return fail(ec, "write");
            self->read_body();
          });
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](boost::system::error_code ec, std::size_t) {
                       self->on_read(ec);
                     });
  }

  void on_read(boost::system::error_code ec) {
    if (ec == http::error::end_of_stream) return do_close();
    if (ec == http::error::body_limit) {
      return refuse(http::status::payload_too_large,
                    i18n::Message("api.request.body_too_large", {{"limit", body_limit_}}));
    }
    if (ec == http::error::header_limit) {
      return refuse(http::status::request_header_fields_too_large,
                    i18n::Message("api.request.headers_too_large",
                                  {{"limit", server_.config_.header_limit}}));
    }
    if (ec) {
      bool malformed = ec.category() == http::make_error_code(http::error::bad_target).category();
      if (malformed)
        return refuse(http::status::bad_request,
                      i18n::Message("api.request.malformed", {{"error", ec.message()}}));
      return fail(ec, "read");
    }
    Request request = parser_->release();
    if (std::size_t dropped = drop_trailer_fields(request, header_fields_); dropped > 0) {
      log::info("trailer fields dropped", {{"remote", remote_}, {"fields", dropped}});
    }
    if (beast::websocket::is_upgrade(request)) {
      lowest().expires_never();
      std::optional<Response> refusal;
      if constexpr (kTls) {
        refusal = server_.upgrade_.tls(stream_, request, remote_, server_.take_slot(false));
      } else {
        refusal =
            server_.upgrade_.plain(lowest().socket(), request, remote_, server_.take_slot(false));
      }
      if (!refusal) {
        // The live session owns the connection now, with a slot that counts it as open but not
        // under max_connections (screens count under max_screens): the HTTP slot goes back at
        // once, for the judges.
        slot_.reset();
        stranger_.proven();
        return;
      }
      return send(std::move(*refusal));
    }
    busy_ = true;
    lowest().expires_never();  // the handler's time is not the client's idleness
    auto executor = lowest().get_executor();
    server_.dispatcher_.dispatch(std::move(request), remote_, executor,
                                 [self = this->shared_from_this()](Response response) {
                                   // At once when answered on this connection's thread (a read,
                                   // or a store completion posted here); else it hops here.
                                   net::dispatch(self->lowest().get_executor(),
                                                 [self, response = std::move(response)]() mutable {
                                                   self->send(std::move(response));
                                                 });
                                 });
  }

  // Answers an unreadable request and closes: its remaining bytes cannot be trusted. In the
  // language of its Accept-Language when that header was read (a body over the limit is refused
  // once the headers are in), else in English (a request never routed names no tournament).
  void refuse(http::status status, const i18n::Message& detail, const char* retry_after = nullptr) {
    Request stub;
    stub.version(11);
    stub.keep_alive(false);
    i18n::Lang lang = i18n::Lang::en;
    if (parser_) {
      auto header = parser_->get().find(http::field::accept_language);
      if (header != parser_->get().end()) lang = i18n::negotiate(header->value(), lang);
    }
    Response response = problem(stub, {lang}, status, detail);
    response.keep_alive(false);
    if (retry_after != nullptr) response.set(http::field::retry_after, retry_after);
    set_common_headers(response, server_.dispatcher_.next_request_id());
    send(std::move(response));
  }

  void send(Response response) {
    busy_ = false;
    if (closing_) response.keep_alive(false);
    // The header block and the body in one gather write: the bytes Beast's serializer would
    // write (daemon-answers compares them), for a fraction of its CPU.
    struct Wire {
      std::string header;
      Response response;
    };
    auto wire = std::make_shared<Wire>(Wire{wire_header(response), std::move(response)});
    std::array<net::const_buffer, 2> buffers{net::buffer(wire->header),
                                             net::buffer(wire->response.body())};
    lowest().expires_after(server_.config_.idle_timeout);
    net::async_write(
        stream_, buffers,
        [self = this->shared_from_this(), wire](boost::system::error_code ec, std::size_t) {
          self->on_write(ec, wire->response.keep_alive());
        });
  }

  void on_write(boost::system::error_code ec, bool keep_alive) {
    if (ec) return fail(ec, "write");
    if (!keep_alive) return do_close();
    do_read();
  }

  void do_close() {
    if constexpr (kTls) {
      lowest().expires_after(std::chrono::seconds(5));
      stream_.async_shutdown([self = this->shared_from_this()](boost::system::error_code) {});
    } else {
      boost::system::error_code ec;
      lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
    }
  }

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server& server_;
  std::shared_ptr<Server> server_keepalive_;
  std::string remote_;
  ConnectionSlot slot_;
  Admission::Ticket
      stranger_;  // held until a request shows a judge's, organizer's, replica's token
  bool first_request_ = true;
  bool busy_ = false;
  bool closing_ = false;
  std::size_t body_limit_ = 0;     // this request's: body_limit, or import_limit for an import
  std::size_t header_fields_ = 0;  // the request's header fields, before any trailer
};

Server::Server(IoPool& pool, const Config& config, Dispatcher& dispatcher, UpgradeHandlers upgrade,
               net::ssl::context* tls)
    : pool_(pool),
      config_(config),
      dispatcher_(dispatcher),
      upgrade_(std::move(upgrade)),
      tls_(tls),
      acceptor_(pool.first()),
      accept_pause_(pool.first()),
      admission_(Admission::make({.max_connections = config.max_connections,
                                  .reserved = config.reserved_connections,
                                  .per_address = config.max_connections_per_address})) {}

void Server::start() {
  auto [host, port] = split_address(config_.listen);
  tcp::endpoint endpoint(net::ip::make_address(host), port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
  do_accept();
}

ConnectionSlot Server::take_slot(bool http) {
  struct Slot {
    Slot(std::shared_ptr<std::atomic<std::size_t>> open,
         std::shared_ptr<std::atomic<std::size_t>> http)
        : open(std::move(open)), http(std::move(http)) {
      ++*this->open;
      if (this->http) ++*this->http;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() {
      if (http) --*http;
      --*open;
    }
    std::shared_ptr<std::atomic<std::size_t>> open;
    std::shared_ptr<std::atomic<std::size_t>> http;  // null for a live screen
  };
  return std::make_shared<const Slot>(connections_, http ? http_connections_ : nullptr);
}

void Server::do_accept() {
  // The new connection's socket belongs to the next I/O thread's context, for good.
  acceptor_.async_accept(
      pool_.next(), [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
        self->on_accept(ec, std::move(socket));
      });
}

void Server::on_accept(boost::system::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || stopping_) return;
  if (ec == net::error::no_descriptors ||
      ec == boost::system::errc::too_many_files_open_in_system) {
    // Out of file descriptors: accepting again at once would fail again at once (a spinning loop
    // and a log line per try). Pause, and say so once per interval.
    ++descriptor_shortages_;
    auto now = std::chrono::steady_clock::now();
    if (now - last_shortage_log_ >= std::chrono::seconds(10)) {
      last_shortage_log_ = now;
      log::warn(
          "out of file descriptors: new connections wait (raise LimitNOFILE, or lower "
          "max_connections and max_screens)",
          {{"error", ec.message()}, {"times_since_start", descriptor_shortages_}});
    }
    accept_pause_.expires_after(kAcceptPause);
    accept_pause_.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
      if (!wait_ec && !self->stopping_) self->do_accept();
    });
    return;
  }
  if (ec) {
    fail(ec, "accept");
    return do_accept();
  }
  // Answers and live messages are small and often back to back (an event, then standings):
  // with Nagle's algorithm the second waits for the client's delayed ACK, up to 40 ms.
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  auto endpoint = socket.remote_endpoint(ignored);
  std::string remote = ignored ? "unknown" : endpoint.address().to_string();

  // Live screens are not counted here: they have their own limit, max_screens, checked at the
  // upgrade.
  Admission::Verdict verdict = admission_->admit(remote, http_connections());
  if (!verdict.admitted) {
    // A short answer on the caller's own time, then close. Nothing of the request was read:
    // English.
    auto refused = std::make_shared<beast::tcp_stream>(std::move(socket));
    Request stub;
    stub.version(11);
    auto response = std::make_shared<Response>(
        problem(stub, {i18n::Lang::en}, http::status::service_unavailable,
                verdict.refusal == Admission::Refusal::per_address
                    ? "api.request.too_many_connections_from_address"
                    : "api.request.too_many_connections"));
    response->set(http::field::retry_after, "2");
    response->keep_alive(false);
    set_common_headers(*response, dispatcher_.next_request_id());
    refused->expires_after(std::chrono::seconds(5));
    http::async_write(*refused, *response,
                      [refused, response](boost::system::error_code, std::size_t) {
                        boost::system::error_code ignored;
                        refused->socket().shutdown(tcp::socket::shutdown_both, ignored);
                      });
  } else {
    auto start = [&](auto session) {
      {
        std::lock_guard lock(sessions_mutex_);
        sessions_.emplace_back(session.get(), session);
      }
      session->run();
    };
    if (tls_ != nullptr) {
      start(std::make_shared<BasicHttpSession<TlsStream>>(
          std::move(socket), *this, tls_, std::move(remote), std::move(verdict.ticket)));
    } else {
      start(std::make_shared<BasicHttpSession<beast::tcp_stream>>(
          std::move(socket), *this, nullptr, std::move(remote), std::move(verdict.ticket)));
    }
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
    self->accept_pause_.cancel();
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
