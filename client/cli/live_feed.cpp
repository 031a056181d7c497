#include "client/cli/live_feed.hpp"

#include "client/cli/say.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <csignal>

namespace tally::cli {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;

namespace {
constexpr std::chrono::milliseconds kLongestPause{5000};
constexpr std::chrono::seconds kConnectTimeout{10};
}  // namespace

LiveFeed::LiveFeed(ServerAddress address, std::string token, std::string ca_file,
                   std::string tournament, i18n::Lang lang, Handlers handlers)
    : address_(std::move(address)),
      token_(std::move(token)),
      tournament_(std::move(tournament)),
      lang_(lang),
      handlers_(std::move(handlers)),
      tls_(address_.tls ? tls_context_for(ca_file) : nullptr),
      signals_(io_, SIGINT, SIGTERM),
      retry_timer_(io_),
      limit_timer_(io_),
      resolver_(io_) {}

int LiveFeed::run(std::optional<std::chrono::milliseconds> limit) {
  signals_.async_wait([this](beast::error_code ec, int) {
    if (!ec) stop(kOk);
  });
  if (limit) {
    limit_timer_.expires_after(*limit);
    limit_timer_.async_wait([this](beast::error_code ec) {
      if (!ec) stop(kOk);
    });
  }
  connect();
  io_.run();
  return exit_code_;
}

void LiveFeed::stop(int code) {
  if (stopping_) return;
  stopping_ = true;
  exit_code_ = code;
  retry_timer_.cancel();
  limit_timer_.cancel();
  resolver_.cancel();
  signals_.cancel();
  with_ws([](auto& ws) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
  });
  // The websocket's keep-alive timer would keep run() going until its next tick (up to 30 s);
  // nothing pending matters any more.
  io_.stop();
}

void LiveFeed::connect() {
  if (stopping_) return;
  plain_.reset();
  secure_.reset();
  if (tls_) {
    secure_.emplace(io_, *tls_);
  } else {
    plain_.emplace(io_);
  }
  buffer_.clear();
  resolver_.async_resolve(address_.host, std::to_string(address_.port),
                          [this](beast::error_code ec, tcp::resolver::results_type found) {
                            on_resolve(ec, std::move(found));
                          });
}

void LiveFeed::on_resolve(beast::error_code ec, tcp::resolver::results_type found) {
  if (ec) {
    return retry(i18n::Message("cli.live.cannot_resolve",
                               {{"host", address_.host}, {"problem", ec.message()}}));
  }
  with_ws([&](auto& ws) {
    beast::get_lowest_layer(ws).expires_after(kConnectTimeout);
    beast::get_lowest_layer(ws).async_connect(
        found, [this](beast::error_code ec, const tcp::endpoint&) { on_connect(ec); });
  });
}

void LiveFeed::on_connect(beast::error_code ec) {
  if (ec) {
    return retry(i18n::Message("cli.live.cannot_connect",
                               {{"url", address_.url}, {"problem", ec.message()}}));
  }
  if (!secure_) return start_websocket_handshake();
  // TLS first: SNI, and the certificate must name the host.
  auto& tls = secure_->next_layer();
  SSL_set_tlsext_host_name(tls.native_handle(), address_.host.c_str());
  tls.set_verify_callback(net::ssl::host_name_verification(address_.host));
  tls.async_handshake(net::ssl::stream_base::client, [this](beast::error_code ec) {
    if (ec) {
      return retry(
          i18n::Message("cli.live.tls_failed", {{"url", address_.url}, {"problem", ec.message()}}));
    }
    start_websocket_handshake();
  });
}

void LiveFeed::start_websocket_handshake() {
  std::string token = token_;
  std::string language(i18n::code(lang_));
  std::string target = "/v1/tournaments/" + url_encode(tournament_) + "/live";
  if (last_seq_) target += "?since=" + std::to_string(*last_seq_);
  handshake_response_ = {};
  with_ws([&](auto& ws) {
    // From here the websocket's own timeouts apply: pings keep an idle feed alive and notice a
    // server that vanished without closing.
    beast::get_lowest_layer(ws).expires_never();
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = kConnectTimeout;
    timeouts.idle_timeout = std::chrono::seconds(60);
    timeouts.keep_alive_pings = true;
    ws.set_option(timeouts);
    ws.set_option(
        websocket::stream_base::decorator([token, language](websocket::request_type& req) {
          if (!token.empty()) req.set(beast::http::field::authorization, "Bearer " + token);
          req.set(beast::http::field::accept_language, language);
        }));
    ws.async_handshake(handshake_response_, address_.host + ":" + std::to_string(address_.port),
                       target, [this](beast::error_code ec) { on_handshake(ec); });
  });
}

void LiveFeed::on_handshake(beast::error_code ec) {
  if (ec) {
    int status = static_cast<int>(handshake_response_.result_int());
    if (status == 401 || status == 403 || status == 404) {
      report(i18n::Message("cli.live.refused_status", {{"status", std::to_string(status)}}));
      return stop(exit_code_for_status(status));
    }
    return retry(i18n::Message("cli.live.refused", {{"problem", ec.message()}}));
  }
  pause_ = std::chrono::milliseconds(500);
  if (handlers_.connected) handlers_.connected();
  do_read();
}

void LiveFeed::do_read() {
  with_ws([this](auto& ws) {
    ws.async_read(buffer_, [this](beast::error_code ec, std::size_t n) { on_read(ec, n); });
  });
}

void LiveFeed::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    if (stopping_) return;
    std::string why = ec.message();
    if (ec == websocket::error::closed) {
      int code = 0;
      with_ws([&](auto& ws) { code = static_cast<int>(ws.reason().code); });
      why = say(lang_, i18n::Message("cli.live.closed", {{"code", std::to_string(code)}}));
    }
    return retry(i18n::Message("cli.live.connection_lost", {{"why", why}}));
  }
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  boost::system::error_code parse_error;
  json::value message = json::parse(text, parse_error);
  if (!parse_error && message.is_object()) {
    const auto& o = message.as_object();
    if (auto it = o.find("seq"); it != o.end() && it->value().is_number()) {
      last_seq_ = it->value().to_number<std::uint64_t>();
    }
    if (handlers_.message) handlers_.message(o);
  }
  if (!stopping_) do_read();
}

void LiveFeed::report(const i18n::Message& trouble) {
  if (handlers_.trouble) handlers_.trouble(say(lang_, trouble));
}

void LiveFeed::retry(const i18n::Message& why) {
  if (stopping_) return;
  with_ws([](auto& ws) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
  });
  double seconds = static_cast<double>(pause_.count()) / 1000.0;
  report(i18n::Message("cli.live.reconnecting",
                       {{"why", say(lang_, why)}, {"seconds", i18n::Decimal{seconds, 1}}}));
  retry_timer_.expires_after(pause_);
  pause_ = std::min(pause_ * 2, kLongestPause);
  retry_timer_.async_wait([this](beast::error_code ec) {
    if (!ec) connect();
  });
}

}  // namespace tally::cli
