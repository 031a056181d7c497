#include "daemon/live/live.hpp"

#include "daemon/log.hpp"
#include "daemon/live/standings_delta.hpp"
#include "daemon/api/views.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <deque>
#include <utility>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace tally::daemon {

namespace net = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = net::ip::tcp;

namespace {

Message make_message(json::object body) {
  return std::make_shared<const std::string>(json::serialize(body));
}

// A snapshot or standings message: the standings and the current round's progress (a screen
// that wants the tables reads GET …/rounds/{r}: the whole sheet would multiply every message).
// "type" and "seq" come first, so that a client can tell a message apart from its first bytes.
json::object standings_and_round(std::string_view type, const LiveState& s,
                                 const projections::Tournament& t) {
  json::object out{{"type", type}, {"seq", t.last_seq}, {"standings", s.standings(t)}};
  const projections::Game* game = s.game_of(t);
  out["round"] = t.rounds.empty() || game == nullptr
                     ? json::value(nullptr)
                     : json::value(round_progress(t, *game, t.rounds.back()));
  return out;
}

}  // namespace

// One live client, as the hub sees it: every method may be called from any thread and hops
// onto the session's strand.
class LiveSession {
 public:
  virtual ~LiveSession() = default;
  virtual const std::string& tournament() const = 0;
  // From the hub's strand, once, right after joining: the snapshot, and `since` when the client
  // asked for the events after it (the session reads them from the log itself, page by page).
  virtual void start(std::uint64_t snapshot_seq, Message snapshot,
                     std::optional<std::uint64_t> since) = 0;
  virtual void push(std::shared_ptr<const LiveBatch> batch) = 0;
  virtual void go_away() = 0;
  // The hash of the token that opened the session (events with authorship), or nullopt.
  virtual const std::optional<schema::Digest>& holder() const = 0;
  // Any thread: its token was revoked (or the organizer's rotated): closed with 1008.
  virtual void revoked() = 0;
};

// The TCP socket under a live client's stream, plain or TLS.
tcp::socket& socket_of(tcp::socket& socket) { return socket; }
tcp::socket& socket_of(beast::tcp_stream& stream) { return stream.socket(); }

// A live client over plain TCP (`Next` = tcp::socket: the websocket stream keeps its own timeouts,
// so beast::tcp_stream's timer layer would only cost every write) or TLS (beast::ssl_stream<…>).
// Every member is touched only on the session's strand.
//
// Bounded in every direction: what it reads (kReadMessageMax a message), what it answers
// (kControlLimit replies waiting: a client that sends faster than it reads is closed with 1008),
// the live events waiting (live_queue_limit) and the catch-up (one page of at most kCatchUpPage
// events queued at a time, read from the log on this session's strand when the last page is sent).
template <typename Next>
class BasicLiveSession : public LiveSession,
                         public std::enable_shared_from_this<BasicLiveSession<Next>> {
 public:
  static constexpr int kSendBuffer = 64 * 1024;
  // A client only ever needs to send {"type":"ping"}.
  static constexpr std::size_t kReadMessageMax = 512;
  // Pongs and errors waiting to be sent: more means the client sends faster than it reads.
  static constexpr std::size_t kControlLimit = 8;
  // How long a client closed for a policy violation has to take its close before it is cut.
  static constexpr std::chrono::seconds kViolationGrace{10};
  // Catch-up events queued at a time, and log events looked at to find them (other tournaments'
  // are skipped), per step on the session's strand: other screens' work runs between steps.
  static constexpr std::size_t kCatchUpPage = 64;
  static constexpr std::size_t kCatchUpScan = 1024;
  // permessage-deflate: messages shorter than this go uncompressed (pongs, most events); a
  // 4 KiB window (12 bits) keeps a screen's compressor at ~25 KiB instead of ~150 KiB.
  static constexpr std::size_t kDeflateThreshold = 256;
  static constexpr int kDeflateWindowBits = 12;
  static constexpr int kDeflateMemLevel = 4;
  static constexpr int kDeflateLevel = 6;

  // `hub` has counted this session already (Hub::reserve_screen).
  // `holder`: the hash of the valid token the client sent, so events come with their `by` and
  // `reason` (until that token is revoked: then the session is closed).
  BasicLiveSession(Next&& next, std::shared_ptr<Hub> hub, std::string tournament,
                   std::optional<std::uint64_t> since, ConnectionSlot slot,
                   std::optional<schema::Digest> holder)
      : ws_(std::move(next)),
        hub_(std::move(hub)),
        tournament_(std::move(tournament)),
        since_(since),
        slot_(std::move(slot)),
        holder_(holder) {}

  // The hub forgets a closed session by itself (its weak pointer expires).
  ~BasicLiveSession() override { --hub_->sessions_; }

  const std::string& tournament() const override { return tournament_; }

  void run(Request request) {
    // A bounded kernel buffer too: what a slow screen cannot take waits in our queue, where the
    // limit applies, instead of piling up in the socket (and in memory) unseen.
    boost::system::error_code ignored;
    socket_of(beast::get_lowest_layer(ws_))
        .set_option(net::socket_base::send_buffer_size(kSendBuffer), ignored);
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout =
        std::max<std::chrono::seconds>(hub_->config_.idle_timeout * 2, std::chrono::seconds(10));
    timeouts.keep_alive_pings = true;  // a vanished screen is noticed and closed
    ws_.set_option(timeouts);
    ws_.read_message_max(kReadMessageMax);
    if (hub_->config_.live_deflate) {
      websocket::permessage_deflate deflate;
      deflate.server_enable = true;  // when the client offers it
      deflate.server_max_window_bits = kDeflateWindowBits;
      deflate.memLevel = kDeflateMemLevel;
      deflate.compLevel = kDeflateLevel;
      deflate.msg_size_threshold = kDeflateThreshold;
      ws_.set_option(deflate);
    }
    // One frame per message: Beast would cut a 15 KB standings message into 4 KB frames, each its
    // own write through the TCP stack.
    ws_.auto_fragment(false);
    ws_.async_accept(request, [self = this->shared_from_this()](boost::system::error_code ec) {
      self->on_accept(ec);
    });
  }

  void start(std::uint64_t snapshot_seq, Message snapshot,
             std::optional<std::uint64_t> since) override {
    net::post(ws_.get_executor(), [self = this->shared_from_this(), snapshot_seq,
                                   snapshot = std::move(snapshot), since]() mutable {
      self->snapshot_seq_ = snapshot_seq;
      self->standings_seq_ = snapshot_seq;
      self->catch_up_.push_back(std::move(snapshot));
      // The events in (since, snapshot_seq]: read page by page as they are sent.
      if (since && *since < snapshot_seq) self->catch_up_next_ = *since + 1;
      self->write_next();
    });
  }

  void push(std::shared_ptr<const LiveBatch> batch) override {
    net::post(ws_.get_executor(), [self = this->shared_from_this(), batch = std::move(batch)] {
      self->queue_batch(*batch);
    });
  }

  const std::optional<schema::Digest>& holder() const override { return holder_; }

  void revoked() override {
    net::post(ws_.get_executor(), [self = this->shared_from_this()] {
      self->close_with(
          websocket::close_reason(websocket::close_code::policy_error, "token revoked"));
    });
  }

  void go_away() override {
    net::post(ws_.get_executor(), [self = this->shared_from_this()] {
      self->close_with(
          websocket::close_reason(websocket::close_code::going_away, "server shutting down"));
    });
  }

 private:
  void on_accept(boost::system::error_code ec) {
    if (ec) return;
    net::post(hub_->strand_, [hub = hub_, self = this->shared_from_this(), since = since_] {
      hub->join(self, since);
    });
    do_read();
  }

  void do_read() {
    ws_.async_read(in_, [self = this->shared_from_this()](boost::system::error_code ec,
                                                          std::size_t) { self->on_read(ec); });
  }

  // Clients may only ping; nothing they send changes data. Every message is answered, and a
  // client that does not read its answers is closed before they pile up.
  void on_read(boost::system::error_code ec) {
    if (ec) {
      closing_ = true;
      return;
    }
    if (closing_ || pending_close_) return;  // no more reads: it is being closed
    if (control_.size() >= kControlLimit) {
      return violate("sends faster than it reads: read the answers (at most one ping at a time)");
    }
    std::string text = beast::buffers_to_string(in_.data());
    in_.consume(in_.size());
    boost::system::error_code parse_error;
    json::value message = json::parse(text, parse_error);
    bool ping = !parse_error && message.is_object() && message.as_object().contains("type") &&
                message.at("type") == "ping";
    control_.push_back(
        make_message(ping ? json::object{{"type", "pong"}}
                          : json::object{{"type", "error"},
                                         {"message", "only {\"type\":\"ping\"} is understood"}}));
    write_next();
    do_read();
  }

  void queue_batch(const LiveBatch& batch) {
    if (closing_ || pending_close_) return;
    for (const auto& [seq, message, anonymous] : batch.events) {
      if (seq <= snapshot_seq_) continue;  // already in the snapshot or catch-up
      queue_.push_back({holder_ || !anonymous ? message : anonymous, Kind::event});
      last_queued_seq_ = seq;
      if (++live_queued_ > hub_->config_.live_queue_limit) return fall_behind();
    }
    if (batch.standings && batch.standings->seq > snapshot_seq_) {
      // In line after the events it reflects; the newest replaces any not yet sent — whole then,
      // since the client never got the standings a delta would build on.
      bool replaced =
          std::erase_if(queue_, [](const Queued& q) { return q.kind == Kind::standings; }) > 0;
      Message message = batch.standings->message;
      if (!replaced) {
        for (const auto& delta : batch.standings_deltas) {
          if (delta.base_seq == standings_seq_) message = delta.message;
        }
      }
      queue_.push_back({std::move(message), Kind::standings});
      standings_seq_ = batch.standings->seq;
    }
    write_next();
  }

  // While more than one message waits, the kernel holds what is written (TCP_CORK) until the last
  // of them: an event and its standings leave in one segment, one trip through the TCP stack
  // instead of one per message (most of the fan-out's CPU on loopback).
  void cork(bool on) {
#ifdef TCP_CORK
    if (corked_ == on) return;
    corked_ = on;
    int value = on ? 1 : 0;
    ::setsockopt(socket_of(beast::get_lowest_layer(ws_)).native_handle(), IPPROTO_TCP, TCP_CORK,
                 &value, sizeof value);
#else
    (void)on;
#endif
  }

  // Events of the log in (since, snapshot_seq] not yet read.
  bool catching_up() const { return catch_up_next_ != 0 && catch_up_next_ <= snapshot_seq_; }

  // Sends, in this order: answers to the client, the snapshot and the catch-up, then the live
  // events and standings (which wait, counted against live_queue_limit, until the catch-up is
  // sent: every event once, in seq order).
  void write_next() {
    if (writing_ || closing_) return;
    bool live_open = !catching_up();
    std::size_t waiting = control_.size() + catch_up_.size() + (live_open ? queue_.size() : 0);
    if (waiting == 0) {
      cork(false);
      if (!live_open) read_page_soon();
      return;
    }
    if (waiting > 1) cork(true);
    Message next;
    bool is_event = false;
    if (!control_.empty()) {
      next = std::move(control_.front());
      control_.pop_front();
    } else if (!catch_up_.empty()) {
      next = std::move(catch_up_.front());
      catch_up_.pop_front();
    } else {
      next = std::move(queue_.front().message);
      is_event = queue_.front().kind == Kind::event;
      queue_.pop_front();
    }
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(*next), [self = this->shared_from_this(), next, is_event](
                                            boost::system::error_code ec, std::size_t) {
      self->writing_ = false;
      if (ec) {
        self->closing_ = true;
        if (self->cut_timer_) self->cut_timer_->cancel();
        return;
      }
      if (is_event && self->live_queued_ > 0) --self->live_queued_;
      if (self->pending_close_) return self->close_with(*self->pending_close_);
      self->write_next();
    });
  }

  // The next page of the catch-up, as a handler of its own on the session's strand (never inside
  // a write's completion), so that other screens' work runs between pages.
  void read_page_soon() {
    if (reading_page_) return;
    reading_page_ = true;
    net::post(ws_.get_executor(), [self = this->shared_from_this()] { self->read_page(); });
  }

  void read_page() {
    reading_page_ = false;
    if (closing_ || pending_close_ || !catching_up() || !catch_up_.empty()) return;
    const std::uint64_t last = snapshot_seq_;
    std::uint64_t next = catch_up_next_;
    std::size_t looked_at = 0;
    hub_->store_.read_view().scan(next, [&](const schema::StoredEvent& e) {
      if (e.seq() > last) return false;
      next = e.seq() + 1;
      if (projections::parse_stream(e.event().getStream().cStr()).tournament == tournament_) {
        catch_up_.push_back(
            make_message(json::object{{"type", "event"},
                                      {"seq", e.seq()},
                                      {"event", event_json(e, nullptr, holder_.has_value())}}));
      }
      return ++looked_at < kCatchUpScan && catch_up_.size() < kCatchUpPage;
    });
    // The log ends before `last` only if the snapshot ran ahead of it, which it never does: stop
    // rather than read it again.
    catch_up_next_ = looked_at == 0 ? last + 1 : next;
    write_next();
  }

  // The client reads slower than events arrive: tell it where to resume, then close.
  void fall_behind() {
    queue_.clear();
    catch_up_.clear();
    catch_up_next_ = 0;
    std::uint64_t resume = snapshot_seq_;
    log::info("live client too far behind", {{"tournament", tournament_}});
    if (writing_) {
      // Its socket is full: no frame can reach it now. Cut the connection; it resumes with since.
      closing_ = true;
      boost::system::error_code ignored;
      socket_of(beast::get_lowest_layer(ws_)).close(ignored);
      return;
    }
    control_.push_back(
        make_message(json::object{{"type", "error"},
                                  {"reason", "too far behind"},
                                  {"message", "reconnect with since= the last seq you received"},
                                  {"last_queued_seq", last_queued_seq_},
                                  {"snapshot_seq", resume}}));
    pending_close_ = websocket::close_reason(websocket::close_code::try_again_later,
                                             "too far behind; reconnect with since");
    write_next();
  }

  // The client broke the feed's rules (it sends faster than it reads): nothing more is read from
  // it or queued for it, and it is closed with 1008 once the frame being written is out.
  void violate(const char* why) {
    log::info("live client closed: policy violation", {{"tournament", tournament_}, {"why", why}});
    control_.clear();
    catch_up_.clear();
    catch_up_next_ = 0;
    queue_.clear();
    // Beast reads (and drops) what the client still sends until its close comes back: a flooding
    // client's never does. Cut it kViolationGrace after the violation, whatever happens.
    websocket::stream_base::timeout timeouts{};
    ws_.get_option(timeouts);
    timeouts.handshake_timeout = kViolationGrace;
    ws_.set_option(timeouts);
    cut_after(kViolationGrace);
    close_with(websocket::close_reason(websocket::close_code::policy_error, why));
  }

  void close_with(websocket::close_reason reason) {
    if (closing_) return;
    if (writing_) {
      if (!pending_close_ && !cut_timer_) {
        cut_after(std::max<std::chrono::seconds>(hub_->config_.idle_timeout, kViolationGrace));
      }
      pending_close_ = reason;
      return;
    }
    cork(false);
    closing_ = true;
    ws_.async_close(reason, [self = this->shared_from_this()](boost::system::error_code) {
      if (self->cut_timer_) self->cut_timer_->cancel();
    });
  }

  // A close waits for the frame being written, which a client that does not read never takes:
  // after a grace period the connection is cut.
  void cut_after(std::chrono::seconds grace) {
    cut_timer_.emplace(ws_.get_executor());
    cut_timer_->expires_after(grace);
    cut_timer_->async_wait([self = this->shared_from_this()](boost::system::error_code ec) {
      if (ec) return;
      self->closing_ = true;
      boost::system::error_code ignored;
      socket_of(beast::get_lowest_layer(self->ws_)).close(ignored);
    });
  }

  websocket::stream<Next> ws_;
  std::shared_ptr<Hub> hub_;
  std::string tournament_;
  std::optional<std::uint64_t> since_;
  beast::flat_buffer in_;
  std::deque<Message> control_;      // pongs and errors: small, sent first, at most kControlLimit
  std::deque<Message> catch_up_;     // the snapshot, then a page of catch-up events
  std::uint64_t catch_up_next_ = 0;  // the next seq of the log to read for the catch-up; 0: none
  bool reading_page_ = false;
  enum class Kind { event, standings, other };
  struct Queued {
    Message message;
    Kind kind;
  };
  std::deque<Queued> queue_;  // live events and at most one standings, in order
  std::size_t live_queued_ = 0;
  std::uint64_t snapshot_seq_ = 0;
  std::uint64_t standings_seq_ = 0;  // the standings the client holds once the queue is sent
  std::uint64_t last_queued_seq_ = 0;
  std::optional<websocket::close_reason> pending_close_;
  std::optional<net::steady_timer> cut_timer_;
  bool writing_ = false;
  bool closing_ = false;
  bool corked_ = false;
  ConnectionSlot slot_;  // this connection among the open ones (not under max_connections)
  // The hash of the upgrade's valid token: while there is one, events keep `by` and `reason`.
  const std::optional<schema::Digest> holder_;
};

Hub::Hub(net::io_context& io, const LiveState& state, events::EventStore& store,
         const Config& config)
    : io_(io), strand_(net::make_strand(io)), state_(state), store_(store), config_(config) {}

// `slot` counts the screen among the open connections (shutdown waits for it), not under
// max_connections: screens count under max_screens, and never take the connections judges need.
std::optional<Response> Hub::accept(tcp::socket& socket, Request& request,
                                    const std::string& tournament,
                                    std::optional<std::uint64_t> since, ConnectionSlot slot,
                                    std::optional<schema::Digest> holder) {
  if (auto missing = refuse_unknown(request, tournament)) return missing;
  if (!reserve_screen()) return too_many_screens(request, tournament);
  // The connection moves from the API's I/O context to the screens' one.
  boost::system::error_code ec;
  auto protocol = socket.local_endpoint(ec).protocol();
  if (ec) {
    --sessions_;
    return problem(request, {answer_language(request, state_, tournament)},
                   http::status::bad_request, "api.live.closed_during_upgrade");
  }
  // On a strand of its own: with live_threads > 1 a session's writes, reads and pushes must
  // never run at once (they did, and corrupted the heap).
  tcp::socket moved(net::make_strand(io_), protocol, socket.release());
  std::make_shared<BasicLiveSession<tcp::socket>>(std::move(moved), shared_from_this(), tournament,
                                                  since, std::move(slot), holder)
      ->run(std::move(request));
  return std::nullopt;
}

std::optional<Response> Hub::accept(beast::ssl_stream<beast::tcp_stream>& stream, Request& request,
                                    const std::string& tournament,
                                    std::optional<std::uint64_t> since, ConnectionSlot slot,
                                    std::optional<schema::Digest> holder) {
  if (auto missing = refuse_unknown(request, tournament)) return missing;
  if (!reserve_screen()) return too_many_screens(request, tournament);
  // A TLS session cannot change I/O context: with TLS, screens share the API's threads.
  std::make_shared<BasicLiveSession<beast::ssl_stream<beast::tcp_stream>>>(
      std::move(stream), shared_from_this(), tournament, since, std::move(slot), holder)
      ->run(std::move(request));
  return std::nullopt;
}

bool Hub::reserve_screen() {
  std::size_t open = sessions_.load();
  do {
    if (open >= config_.max_screens) return false;
  } while (!sessions_.compare_exchange_weak(open, open + 1));
  return true;
}

Response Hub::too_many_screens(const Request& request, const std::string& tournament) {
  Response response = problem(request, {answer_language(request, state_, tournament)},
                              http::status::service_unavailable, "api.live.too_many_screens");
  response.set(http::field::retry_after, "2");
  response.keep_alive(false);
  return response;
}

std::optional<Response> Hub::refuse_unknown(const Request& request, const std::string& tournament) {
  bool exists =
      state_.read([&](const LiveState& s) { return s.tournament(tournament) != nullptr; });
  if (exists) return std::nullopt;
  return problem(request, {answer_language(request, state_, "")}, http::status::not_found,
                 i18n::Message("api.tournament.not_found", {{"id", tournament}}));
}

void Hub::publish(const schema::StoredEvent& event) {
  // No screen open: nobody to send the event to. A screen that opens after this check counted
  // itself before it reads its snapshot, and the projections already hold this event (their
  // subscriber runs first), so the snapshot includes it.
  if (sessions_.load() == 0) return;
  bool first;
  {
    std::lock_guard lock(published_mutex_);
    first = published_.empty();
    published_.push_back(event);
  }
  // One hand-over to the screens' thread per batch the store commits, not one per event: with no
  // screen watching, a busy API would otherwise wake that thread for every write.
  if (first) net::post(strand_, [self = this->shared_from_this()] { self->take_published(); });
}

void Hub::take_published() {
  std::vector<schema::StoredEvent> events;
  {
    std::lock_guard lock(published_mutex_);
    events.swap(published_);
  }
  for (const auto& event : events) {
    auto payload = event.event().getPayload();
    if (payload.isJudgeRevoked() || payload.isOrganizerToken()) close_revoked();
    std::string tournament(projections::parse_stream(event.event().getStream().cStr()).tournament);
    auto it = channels_.find(tournament);
    if (it == channels_.end() || it->second.sessions.empty()) continue;
    Channel& channel = it->second;
    auto message = [&](bool authorship) {
      return make_message(json::object{{"type", "event"},
                                       {"seq", event.seq()},
                                       {"event", event_json(event, nullptr, authorship)}});
    };
    channel.unsent.push_back({event.seq(), message(true), message(false)});
    if (!channel.flush_queued) {
      channel.flush_queued = true;
      // Queued behind the events already waiting: a burst of events makes one batch.
      net::post(strand_,
                [self = this->shared_from_this(), tournament] { self->flush(tournament); });
    }
  }
}

void Hub::flush(const std::string& tournament) {
  auto it = channels_.find(tournament);
  if (it == channels_.end()) return;
  Channel& channel = it->second;
  channel.flush_queued = false;
  if (channel.unsent.empty()) return;  // only a publish queues a flush: not expected
  auto batch = std::make_shared<LiveBatch>();
  batch->events = std::exchange(channel.unsent, {});
  std::uint64_t published = batch->events.back().seq;  // the newest event of this tournament
  auto update = state_.read([&](const LiveState& s) -> std::optional<json::object> {
    const projections::Tournament* t = s.tournament(tournament);
    // The projections may already hold events whose publication is still queued behind this
    // flush; the last of them queues the next flush, so standings never run ahead of the events
    // a screen has been sent.
    if (t == nullptr || t->last_seq > published) return std::nullopt;
    return standings_and_round("standings", s, *t);
  });
  if (update) {
    std::uint64_t seq = update->at("seq").as_uint64();
    // Serialised once as it is, then its standings moved out to be the next delta's base: no
    // copy of a table that is ~190 KB at 1,000 players.
    Message whole = std::make_shared<const std::string>(json::serialize(*update));
    auto now = std::make_shared<const json::object>(std::move(update->at("standings").as_object()));
    for (const auto& [base_seq, base] : channel.bases) {
      if (base_seq >= seq) continue;
      json::object delta{{"type", "standings_delta"},
                         {"seq", seq},
                         {"base_seq", base_seq},
                         {"delta", standings_delta(*base, *now)},
                         {"round", update->at("round")}};
      Message small = make_message(std::move(delta));
      if (small->size() < whole->size()) {
        batch->standings_deltas.push_back({base_seq, std::move(small)});
      }
    }
    channel.bases.clear();
    channel.bases.emplace(seq, std::move(now));
    batch->standings = LiveBatch::Sequenced{seq, std::move(whole)};
  }
  std::shared_ptr<const LiveBatch> shared = std::move(batch);
  auto& sessions = channel.sessions;
  std::erase_if(sessions, [](const std::weak_ptr<LiveSession>& w) { return w.expired(); });
  for (auto& weak : sessions) {
    if (auto session = weak.lock()) session->push(shared);
  }
}

void Hub::join(const std::shared_ptr<LiveSession>& session, std::optional<std::uint64_t> since) {
  auto snapshot = state_.read([&](const LiveState& s) -> std::optional<json::object> {
    const projections::Tournament* t = s.tournament(session->tournament());
    if (t == nullptr) return std::nullopt;
    return standings_and_round("snapshot", s, *t);
  });
  if (!snapshot) return;
  std::uint64_t seq = snapshot->at("seq").as_uint64();
  Message message = std::make_shared<const std::string>(json::serialize(*snapshot));
  Channel& channel = channels_[session->tournament()];
  std::erase_if(channel.sessions, [](const std::weak_ptr<LiveSession>& w) { return w.expired(); });
  // Without a screen the channel was not sent the events since its bases: they are stale.
  if (channel.sessions.empty()) channel.bases.clear();
  // The snapshot is the base of this screen's first delta. Usually the channel holds it already
  // (the last batch's standings, when no event came since); otherwise it is kept beside that one,
  // replacing an older snapshot's: at most two bases, so a flush computes at most two deltas.
  if (!channel.bases.contains(seq)) {
    if (channel.bases.size() >= kMaxDeltaBases) channel.bases.erase(std::prev(channel.bases.end()));
    channel.bases.emplace(seq, std::make_shared<const json::object>(
                                   std::move(snapshot->at("standings").as_object())));
  }
  // The catch-up is the session's to read, page by page on its own strand: a join never reads the
  // log here, where it would hold up every screen.
  session->start(seq, std::move(message), since);
  channel.sessions.push_back(session);
}

// On strand_. The projections hold the revocation already (their subscriber runs before the
// hub's): every session whose token no longer identifies anyone is closed.
void Hub::close_revoked() {
  state_.read([&](const LiveState& s) {
    for (auto& [t, channel] : channels_) {
      for (auto& weak : channel.sessions) {
        auto session = weak.lock();
        if (session && session->holder() && !s.identify(*session->holder())) session->revoked();
      }
    }
  });
}

void Hub::close_all() {
  net::post(strand_, [self = this->shared_from_this()] {
    for (auto& [t, channel] : self->channels_) {
      for (auto& weak : channel.sessions) {
        if (auto session = weak.lock()) session->go_away();
      }
    }
  });
}

}  // namespace tally::daemon
