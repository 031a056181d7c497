#include "client/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <stdexcept>

namespace tally::client {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

namespace {

constexpr auto kTimeout = std::chrono::seconds(30);

// Runs the io_context until `done` or the timeout; throws on timeout.
void run_until(net::io_context& io, const bool& done, std::chrono::steady_clock::duration timeout) {
  io.restart();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && std::chrono::steady_clock::now() < deadline) {
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

HttpClient::HttpClient(std::string host, std::uint16_t port, std::string token)
    : host_(std::move(host)), port_(port), token_(std::move(token)) {}

void HttpClient::connect() {
  tcp::resolver resolver(io_);
  stream_.emplace(io_);
  stream_->connect(resolver.resolve(host_, std::to_string(port_)));
  buffer_.clear();
}

HttpReply HttpClient::request(http::verb method, const std::string& target, const std::string& body,
                              const std::map<std::string, std::string>& headers) {
  for (int attempt = 0;; ++attempt) {
    if (!stream_) connect();
    http::request<http::string_body> req(method, target, 11);
    req.set(http::field::host, host_);
    req.keep_alive(true);
    if (!token_.empty()) req.set(http::field::authorization, "Bearer " + token_);
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == http::verb::post || method == http::verb::put) {
      req.set(http::field::content_type, "application/json");
      req.body() = body;
    }
    req.prepare_payload();

    bool done = false;
    beast::error_code error;
    http::response<http::string_body> res;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    stream_->expires_after(kTimeout);
    http::async_write(*stream_, req, [&](beast::error_code ec, std::size_t) {
      if (ec) {
        error = ec;
        done = true;
        return;
      }
      http::async_read(*stream_, buffer_, parser, [&](beast::error_code ec, std::size_t) {
        error = ec;
        done = true;
      });
    });
    run_until(io_, done, kTimeout + std::chrono::seconds(1));
    if (error) {
      stream_.reset();
      // A keep-alive connection the server closed in between: one fresh try.
      if (attempt == 0 &&
          (error == http::error::end_of_stream || error == net::error::connection_reset ||
           error == net::error::eof || error == net::error::broken_pipe)) {
        continue;
      }
      throw std::runtime_error("http request failed: " + error.message());
    }
    res = parser.release();
    HttpReply reply;
    reply.status = static_cast<int>(res.result_int());
    reply.headers = res.base();
    reply.body = std::move(res.body());
    if (!res.keep_alive()) stream_.reset();
    return reply;
  }
}

WsClient::WsClient(const std::string& host, std::uint16_t port, const std::string& target,
                   const std::string& token, int receive_buffer)
    : ws_(io_) {
  tcp::resolver resolver(io_);
  auto endpoints = resolver.resolve(host, std::to_string(port));
  auto& socket = beast::get_lowest_layer(ws_).socket();
  socket.open(tcp::v4());
  if (receive_buffer > 0) socket.set_option(net::socket_base::receive_buffer_size(receive_buffer));
  socket.connect(*endpoints.begin());
  ws_.set_option(
      beast::websocket::stream_base::decorator([token](beast::websocket::request_type& req) {
        if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
      }));
  beast::websocket::response_type response;
  ws_.handshake(response, host + ":" + std::to_string(port), target);
}

WsClient::~WsClient() {
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

std::optional<boost::json::value> WsClient::read(std::chrono::milliseconds timeout) {
  if (closed_) return std::nullopt;
  bool done = false;
  beast::error_code error;
  ws_.async_read(buffer_, [&](beast::error_code ec, std::size_t) {
    error = ec;
    done = true;
  });
  io_.restart();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done && std::chrono::steady_clock::now() < deadline)
    io_.run_one_for(std::chrono::milliseconds(20));
  if (!done) {
    // Give up this read: cancel it and let the cancellation complete.
    beast::get_lowest_layer(ws_).cancel();
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
  ws_.text(true);
  ws_.write(net::buffer(boost::json::serialize(message)));
}

int WsClient::close_code() const { return static_cast<int>(ws_.reason().code); }

}  // namespace tally::client
