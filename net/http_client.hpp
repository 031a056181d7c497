// Clients of tallyd: HTTP/1.1 with keep-alive and a WebSocket reader through Boost.Beast, every
// operation bounded by a timeout. Used by the CLI, the load generator and the tests.
//
// Thread safety: one client per thread (each owns its connection and io_context).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace tally::net {

namespace http = boost::beast::http;

struct HttpReply {
  int status = 0;
  http::fields headers;
  std::string body;

  boost::json::value json() const;
  std::string header(const std::string& name) const;
};

// A TLS client context that trusts `ca_file` (PEM), or the system's trust store when empty.
// Certificates are verified, host names included.
std::shared_ptr<boost::asio::ssl::context> client_tls(const std::string& ca_file = "");

// Thrown by a request given up because its cancel flag was raised (HttpClient::cancel_on).
struct RequestCancelled : std::runtime_error {
  RequestCancelled() : std::runtime_error("the request was cancelled") {}
};

class HttpClient {
 public:
  // `tls` set: HTTPS with that context (see client_tls); otherwise plain HTTP.
  HttpClient(std::string host, std::uint16_t port, std::string token = "",
             std::shared_ptr<boost::asio::ssl::context> tls = nullptr);

  HttpReply request(http::verb method, const std::string& target, const std::string& body = "",
                    const std::map<std::string, std::string>& headers = {});
  HttpReply get(const std::string& target) { return request(http::verb::get, target); }
  HttpReply post(const std::string& target, const boost::json::value& body,
                 const std::map<std::string, std::string>& headers = {}) {
    return request(http::verb::post, target, boost::json::serialize(body), headers);
  }
  HttpReply put(const std::string& target, const boost::json::value& body,
                const std::map<std::string, std::string>& headers = {}) {
    return request(http::verb::put, target, boost::json::serialize(body), headers);
  }
  // While `*cancelled` is true a request in flight is given up within 50 ms (RequestCancelled),
  // e.g. a follower's long poll when tallyd stops. The flag must outlive the client.
  void cancel_on(const std::atomic<bool>* cancelled) { cancelled_ = cancelled; }
  void set_token(std::string token) { token_ = std::move(token); }
  const std::string& token() const { return token_; }
  // A header sent with every request (e.g. Accept-Language); a request's own headers win.
  void set_default_header(const std::string& name, std::string value) {
    default_headers_[name] = std::move(value);
  }

 private:
  using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
  void connect();
  template <typename Stream>
  HttpReply exchange(Stream& stream, http::request<http::string_body>& request);
  void disconnect() {
    plain_.reset();
    tls_stream_.reset();
  }
  std::string host_;
  std::uint16_t port_;
  std::string token_;
  const std::atomic<bool>* cancelled_ = nullptr;
  std::map<std::string, std::string> default_headers_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  boost::asio::io_context io_;
  std::optional<boost::beast::tcp_stream> plain_;
  std::optional<TlsStream> tls_stream_;
  boost::beast::flat_buffer buffer_;
};

class WsClient {
 public:
  // Connects and upgrades; throws when the server refuses. A small `receive_buffer` (bytes)
  // makes a client whose socket fills quickly, to play a slow screen.
  // `tls` set: WSS with that context.
  WsClient(const std::string& host, std::uint16_t port, const std::string& target,
           const std::string& token = "", int receive_buffer = 0,
           std::shared_ptr<boost::asio::ssl::context> tls = nullptr);
  ~WsClient();

  // The next text message as JSON, or nullopt when none came within `timeout` or the server
  // closed the connection (then closed() is true).
  std::optional<boost::json::value> read(
      std::chrono::milliseconds timeout = std::chrono::seconds(5));
  void send(const boost::json::value& message);
  bool closed() const { return closed_; }
  // The close code the server sent, once closed.
  int close_code() const;

 private:
  using Plain = boost::beast::websocket::stream<boost::beast::tcp_stream>;
  using Secure =
      boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;
  // Calls `f` with whichever stream this client uses.
  template <typename F>
  decltype(auto) with_stream(F&& f) {
    return plain_ ? f(*plain_) : f(*secure_);
  }
  boost::asio::io_context io_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  std::optional<Plain> plain_;
  std::optional<Secure> secure_;
  boost::beast::flat_buffer buffer_;
  bool closed_ = false;
};

}  // namespace tally::net
