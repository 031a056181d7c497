// The network side: a listener that accepts connections (up to max_connections HTTP ones), one
// HTTP session per connection (keep-alive, limits, idle timeout, on one I/O thread of the pool
// for its whole life), and the hand over of WebSocket upgrades to the live hub. Shaped after
// Boost.Beast's advanced server example.
//
// Thread safety: start() and stop() may be called from any thread; each session runs on its own
// I/O thread only; the session registry has its own lock.
#pragma once

#include "daemon/http/admission.hpp"
#include "daemon/config.hpp"
#include "daemon/http/dispatcher.hpp"
#include "daemon/http/http.hpp"
#include "daemon/http/io_pool.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace tally::daemon {

namespace net = boost::asio;
using tcp = net::ip::tcp;

class HttpSession;
template <typename Stream>
class BasicHttpSession;

// What to do with a WebSocket upgrade request: take the connection (and answer nothing here), or
// return a refusal to send as plain HTTP. One handler per kind of connection. `slot` is the
// connection's place among the open connections, not under max_connections (a live screen counts
// under max_screens instead): whoever takes the connection keeps it for as long as it is open.
struct UpgradeHandlers {
  std::function<std::optional<Response>(tcp::socket& socket, Request& request,
                                        const std::string& remote, ConnectionSlot slot)>
      plain;
  std::function<std::optional<Response>(beast::ssl_stream<beast::tcp_stream>& stream,
                                        Request& request, const std::string& remote,
                                        ConnectionSlot slot)>
      tls;
};

class Server : public std::enable_shared_from_this<Server> {
 public:
  // `tls` (may be null): serve HTTPS and WSS with this context instead of plain HTTP.
  Server(IoPool& pool, const Config& config, Dispatcher& dispatcher, UpgradeHandlers upgrade,
         net::ssl::context* tls = nullptr);

  // Binds and starts accepting. Throws boost::system::system_error when the address is taken.
  void start();
  // The address actually bound (port 0 in the config picks a free one).
  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
  // Stops accepting; idle connections close now, busy ones after their current answer.
  void stop();

  // Open connections, HTTP and live screens: shutdown waits for them to close.
  std::size_t connections() const { return connections_->load(); }
  // Open HTTP connections (a connection upgraded to a live screen no longer counts), what
  // max_connections limits.
  std::size_t http_connections() const { return http_connections_->load(); }
  // Who may open a connection, and the refusals so far (/metrics).
  const Admission& admission() const { return *admission_; }

 private:
  // A connection's slot, counted in connections() and, for an HTTP one, in http_connections();
  // the counts drop when its last holder lets go of it.
  ConnectionSlot take_slot(bool http);
  template <typename Stream>
  friend class BasicHttpSession;
  void do_accept();
  void on_accept(boost::system::error_code ec, tcp::socket socket);
  void forget(HttpSession* session);

  IoPool& pool_;
  const Config& config_;
  Dispatcher& dispatcher_;
  UpgradeHandlers upgrade_;
  net::ssl::context* tls_;
  tcp::acceptor acceptor_;
  // Out of file descriptors, accepting waits this long before it tries again.
  static constexpr std::chrono::milliseconds kAcceptPause{100};
  net::steady_timer accept_pause_;                             // on the acceptor's thread only
  std::uint64_t descriptor_shortages_ = 0;                     // on the acceptor's thread only
  std::chrono::steady_clock::time_point last_shortage_log_{};  // on the acceptor's thread only
  std::shared_ptr<Admission> admission_;
  // Shared with the slots, which may outlive the server by a moment at shutdown.
  std::shared_ptr<std::atomic<std::size_t>> connections_ =
      std::make_shared<std::atomic<std::size_t>>(0);
  std::shared_ptr<std::atomic<std::size_t>> http_connections_ =
      std::make_shared<std::atomic<std::size_t>>(0);
  std::atomic<bool> stopping_{false};

  std::mutex sessions_mutex_;
  // Open sessions, by address (to forget one without touching its weak pointer).
  std::vector<std::pair<HttpSession*, std::weak_ptr<HttpSession>>>
      sessions_;  // GUARDED_BY(sessions_mutex_)
};

}  // namespace tally::daemon
