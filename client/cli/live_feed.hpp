// The live feed of a tournament (GET /v1/tournaments/{t}/live, a WebSocket) for as long as the
// user wants it: every message is handed on as JSON; a lost connection is retried with a
// growing pause (0.5 s … 5 s) and `since=` the last seq received, so nothing is missed; SIGINT
// or SIGTERM ends it cleanly, and so do a time limit and finish() (for bounded runs). Plain
// WebSocket for http:// servers, WSS (certificate and host name verified) for https://.
//
// Written on Beast directly rather than on tally::net::WsClient, whose read() gives up the stream
// after a timeout: here one read stays pending indefinitely next to the signal handler and the
// retry timer, all on one io_context. Thread safety: one thread (run()).
#pragma once

#include "client/cli/session.hpp"
#include "i18n/language.hpp"
#include "i18n/message.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace tally::cli {

class LiveFeed {
 public:
  struct Handlers {
    std::function<void(const boost::json::object&)> message;  // every message, in order
    std::function<void()> connected;                          // the feed is (back) on
    std::function<void(const std::string&)> trouble;  // lost, refused…: for people, in `lang`
  };

  // `ca_file` matters for https only (see tls_context_for). `lang` is the language of the
  // trouble reports and the feed's Accept-Language.
  LiveFeed(ServerAddress address, std::string token, std::string ca_file, std::string tournament,
           i18n::Lang lang, Handlers handlers);

  // Runs until SIGINT/SIGTERM, finish() or `limit` (returns kOk), or until the server refuses
  // the feed in a way a retry cannot fix: 401/403 (kAuth), 404 (kNotFound).
  int run(std::optional<std::chrono::milliseconds> limit = std::nullopt);
  // Ends run() with kOk; for the handlers (same thread).
  void finish() { stop(0); }

 private:
  using Plain = boost::beast::websocket::stream<boost::beast::tcp_stream>;
  using Secure =
      boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;
  // Calls `f` with whichever stream this connection uses.
  template <typename F>
  void with_ws(F&& f) {
    if (plain_) {
      f(*plain_);
    } else if (secure_) {
      f(*secure_);
    }
  }
  void connect();
  void on_resolve(boost::beast::error_code ec, boost::asio::ip::tcp::resolver::results_type found);
  void on_connect(boost::beast::error_code ec);
  void start_websocket_handshake();
  void on_handshake(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  // The connection is gone (`why`, a cli catalog message): try again after a pause, unless
  // stopping.
  void retry(const i18n::Message& why);
  void report(const i18n::Message& trouble);
  void stop(int code);

  ServerAddress address_;
  std::string token_;
  std::string tournament_;
  i18n::Lang lang_;
  Handlers handlers_;

  boost::asio::io_context io_;
  std::shared_ptr<boost::asio::ssl::context> tls_;  // null: plain WebSocket
  boost::asio::signal_set signals_;
  boost::asio::steady_timer retry_timer_;
  boost::asio::steady_timer limit_timer_;
  boost::asio::ip::tcp::resolver resolver_;
  std::optional<Plain> plain_;
  std::optional<Secure> secure_;
  boost::beast::flat_buffer buffer_;
  boost::beast::websocket::response_type handshake_response_;
  std::optional<std::uint64_t> last_seq_;  // the newest seq received: `since` of a reconnect
  std::chrono::milliseconds pause_{500};
  bool stopping_ = false;
  int exit_code_ = 0;
};

}  // namespace tally::cli
