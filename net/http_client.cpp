#include "net/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <stdexcept>

namespace tally::net {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

namespace {

constexpr auto kTimeout = std::chrono::seconds(30);
// A server that does not answer a connection at all (a laptop gone, a cable out) is said to be
// unreachable after this long, not after the system's SYN retries (about two minutes).
constexpr auto kConnectTimeout = std::chrono::seconds(5);

// Runs the io_context until `done` or the timeout; throws on timeout, or within 50 ms of
// `*cancelled` becoming true (when set).
void run_until(net::io_context& io, const bool& done, std::chrono::steady_clock::duration timeout,
               const std::atomic<bool>* cancelled) {
  io.restart();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && std::chrono::steady_clock::now() < deadline) {
    if (cancelled != nullptr && cancelled->load()) throw RequestCancelled();
    io.run_one_for(std::chrono::milliseconds(50));
  }
  if (!done) throw std::runtime_error("tallyd did not answer in time");
}

}  // namespace

boost::json::value HttpReply::json() const {
  if (body.empty()) return nullptr;
  return boost::json::parse(body);
}

std::string HttpReply::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : std::string(it->value());
}

std::shared_ptr<net::ssl::context> client_tls(const std::string& ca_file) {
  auto context = std::make_shared<net::ssl::context>(net::ssl::context::tls_client);
  context->set_verify_mode(net::ssl::verify_peer);
  if (ca_file.empty()) {
    context->set_default_verify_paths();
  } else {
    context->load_verify_file(ca_file);
  }
  return context;
}

HttpClient::HttpClient(std::string host, std::uint16_t port, std::string token,
                       std::shared_ptr<net::ssl::context> tls)
    : host_(std::move(host)), port_(port), token_(std::move(token)), tls_(std::move(tls)) {}

void HttpClient::connect() {
  tcp::resolver resolver(io_);
  auto endpoints = resolver.resolve(host_, std::to_string(port_));
  buffer_.clear();
  auto connect_within_timeout = [&](beast::tcp_stream& stream) {
    bool done = false;
    beast::error_code error;
    stream.expires_after(kConnectTimeout);
    stream.async_connect(endpoints, [&](beast::error_code ec, const tcp::endpoint&) {
      error = ec;
      done = true;
    });
    run_until(io_, done, kConnectTimeout + std::chrono::seconds(1), cancelled_);
    if (error) throw beast::system_error(error);
    stream.socket().set_option(tcp::no_delay(true));
  };
  if (!tls_) {
    plain_.emplace(io_);
    connect_within_timeout(*plain_);
    return;
  }
  tls_stream_.emplace(io_, *tls_);
  connect_within_timeout(beast::get_lowest_layer(*tls_stream_));
  // SNI and host-name verification.
  SSL_set_tlsext_host_name(tls_stream_->native_handle(), host_.c_str());
  tls_stream_->set_verify_callback(net::ssl::host_name_verification(host_));
  beast::get_lowest_layer(*tls_stream_).expires_after(kTimeout);
  tls_stream_->handshake(net::ssl::stream_base::client);
}

template <typename Stream>
HttpReply HttpClient::exchange(Stream& stream, http::request<http::string_body>& req) {
  bool done = false;
  beast::error_code error;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  beast::get_lowest_layer(stream).expires_after(kTimeout);
  http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
    if (ec) {
      error = ec;
      done = true;
      return;
    }
    http::async_read(stream, buffer_, parser, [&](beast::error_code ec, std::size_t) {
      error = ec;
      done = true;
    });
  });
  run_until(io_, done, kTimeout + std::chrono::seconds(1), cancelled_);
  if (error) throw beast::system_error(error);
  auto res = parser.release();
  HttpReply reply;
  reply.status = static_cast<int>(res.result_int());
  reply.headers = res.base();
  reply.body = std::move(res.body());
  if (!res.keep_alive()) disconnect();
  return reply;
}

HttpReply HttpClient::request(http::verb method, const std::string& target, const std::string& body,
                              const std::map<std::string, std::string>& headers) {
  for (int attempt = 0;; ++attempt) {
    if (!plain_ && !tls_stream_) connect();
    http::request<http::string_body> req(method, target, 11);
    req.set(http::field::host, host_);
    req.keep_alive(true);
    if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
    for (const auto& [k, v] : default_headers_) req.set(k, v);
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == http::verb::post || method == http::verb::put) {
      req.set(http::field::content_type, "application/json");
      req.body() = body;
    }
    req.prepare_payload();
    try {
      return plain_ ? exchange(*plain_, req) : exchange(*tls_stream_, req);
    } catch (const beast::system_error& e) {
      disconnect();
      auto error = e.code();
      // A keep-alive connection the server closed in between: one fresh try.
      if (attempt == 0 &&
          (error == http::error::end_of_stream || error == net::error::connection_reset ||
           error == net::error::eof || error == net::error::broken_pipe ||
           error == net::ssl::error::stream_truncated)) {
        continue;
      }
      throw std::runtime_error("http request failed: " + error.message());
    }
  }
}

WsClient::WsClient(const std::string& host, std::uint16_t port, const std::string& target,
                   const std::string& token, int receive_buffer,
                   std::shared_ptr<net::ssl::context> tls)
    : tls_(std::move(tls)) {
  tcp::resolver resolver(io_);
  auto endpoints = resolver.resolve(host, std::to_string(port));
  if (tls_) {
    secure_.emplace(io_, *tls_);
  } else {
    plain_.emplace(io_);
  }
  with_stream([&](auto& ws) {
    auto& socket = beast::get_lowest_layer(ws).socket();
    socket.open(tcp::v4());
    if (receive_buffer > 0)
      socket.set_option(net::socket_base::receive_buffer_size(receive_buffer));
    socket.connect(*endpoints.begin());
  });
  if (secure_) {
    SSL_set_tlsext_host_name(secure_->next_layer().native_handle(), host.c_str());
    secure_->next_layer().set_verify_callback(net::ssl::host_name_verification(host));
    secure_->next_layer().handshake(net::ssl::stream_base::client);
  }
  with_stream([&](auto& ws) {
    ws.set_option(
        beast::websocket::stream_base::decorator([token](beast::websocket::request_type& req) {
          if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
        }));
    beast::websocket::response_type response;
    ws.handshake(response, host + ":" + std::to_string(port), target);
  });
}

WsClient::~WsClient() {
  with_stream([](auto& ws) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
  });
}

std::optional<boost::json::value> WsClient::read(std::chrono::milliseconds timeout) {
  if (closed_) return std::nullopt;
  bool done = false;
  beast::error_code error;
  with_stream([&](auto& ws) {
    ws.async_read(buffer_, [&](beast::error_code ec, std::size_t) {
      error = ec;
      done = true;
    });
  });
  io_.restart();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && std::chrono::steady_clock::now() < deadline)
    io_.run_one_for(std::chrono::milliseconds(20));
  if (!done) {
    // Give up this read: cancel it and let the cancellation complete.
    with_stream([](auto& ws) { beast::get_lowest_layer(ws).cancel(); });
    while (!done) io_.run_one_for(std::chrono::milliseconds(20));
    closed_ = true;  // a cancelled websocket read leaves the stream unusable
    return std::nullopt;
  }
  if (error) {
    closed_ = true;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  return boost::json::parse(text);
}

void WsClient::send(const boost::json::value& message) {
  with_stream([&](auto& ws) {
    ws.text(true);
    ws.write(net::buffer(boost::json::serialize(message)));
  });
}

int WsClient::close_code() const {
  return static_cast<int>(plain_ ? plain_->reason().code : secure_->reason().code);
}

}  // namespace tally::net
