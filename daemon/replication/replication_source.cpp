#include "daemon/replication/replication_source.hpp"

#include "daemon/log.hpp"
#include "daemon/replication/promotion_proof.hpp"
#include "daemon/api/views.hpp"
#include "events/archive.hpp"

#include <boost/asio/post.hpp>

#include <chrono>

namespace tally::daemon {

namespace {

Response refused(const Exchange& ex, const char* rule, i18n::Message detail) {
  return problem(ex, http::status::conflict, detail, {{rule, "", "from", detail}});
}

}  // namespace

void ReplicationSource::serve(const ExchangePtr& ex, bool standby) {
  auto number = [&](const char* key, std::uint64_t fallback) -> std::optional<std::uint64_t> {
    auto it = ex->query.find(key);
    if (it == ex->query.end()) return fallback;
    return parse_number(it->second);
  };
  auto from = number("from", 1);
  auto wait = number("wait", 0);
  auto limit = number("limit", kMaxBatch);
  auto epoch = number("epoch", 0);
  if (!from || *from == 0 || !wait || !limit || *limit == 0 || !epoch) {
    return ex->respond(problem(*ex, http::status::bad_request, "api.replication.query"));
  }
  std::optional<events::Digest> after;
  if (*from > 1) {
    auto it = ex->query.find("after");
    if (it != ex->query.end()) after = events::digest_from_hex(it->second);
    if (!after)
      return ex->respond(problem(*ex, http::status::bad_request, "api.replication.after"));
  }

  // A follower that has seen a newer primary than this one fences it (Leadership) — only a
  // standby, and only with the promotion's proof (promotion_proof.hpp): a mirror's token, or
  // a bare number, must never be able to stop the judges' writes.
  if (*epoch > leadership_.epoch() && !leadership_.fenced()) {
    if (auto refusal = unproven_newer_epoch(*ex, *epoch, standby)) {
      return ex->respond(std::move(*refusal));
    }
    leadership_.hear_of(*epoch, ex->identity.name);
  }
  if (leadership_.fenced()) {
    auto fence = leadership_.fenced();
    return ex->respond(refused(*ex, "replication.former_primary",
                               i18n::Message("api.replication.former_primary",
                                             {{"epoch", std::to_string(fence->epoch)}})));
  }
  // The follower's last event must be this log's event at that seq.
  auto view = store_.read_view();
  std::uint64_t have = *from - 1;
  if (have > view.head().seq) {
    return ex->respond(refused(
        *ex, "replication.ahead",
        i18n::Message("api.replication.ahead",
                      {{"seq", std::to_string(have)}, {"head", std::to_string(view.head().seq)}})));
  }
  if (have > 0) {
    auto last = view.event(have);
    if (!last || last->hash() != *after) {
      return ex->respond(
          refused(*ex, "replication.diverged",
                  i18n::Message("api.replication.diverged", {{"seq", std::to_string(have)}})));
    }
  }
  {
    std::lock_guard lock(mutex_);
    auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    positions_[ex->identity.id] = Position{ex->identity.id, ex->identity.name, have, now};
  }
  if (standby) acks_.confirmed(ex->identity.id, have);

  Waiter w{ex, *from, static_cast<std::size_t>(std::min<std::uint64_t>(*limit, kMaxBatch)), nullptr,
           std::make_shared<std::atomic<bool>>(false)};
  if (view.head().seq >= *from || *wait == 0) return answer(w);

  w.timer = std::make_shared<boost::asio::steady_timer>(ex->executor);
  w.timer->expires_after(std::chrono::seconds(std::min<std::uint64_t>(*wait, kMaxWaitSeconds)));
  {
    std::lock_guard lock(mutex_);
    if (waiting_.size() >= kMaxWaiting) {
      Response r = problem(*ex, http::status::service_unavailable, "api.replication.busy");
      r.set(http::field::retry_after, "1");
      return ex->respond(std::move(r));
    }
    waiting_.push_back(w);
  }
  // An event appended between the check above and the registration is not missed: look again.
  if (store_.head().seq >= *from) appended(store_.head().seq);
  w.timer->async_wait([this, w](const boost::system::error_code&) {
    if (w.answered->exchange(true)) return;
    {
      std::lock_guard lock(mutex_);
      waiting_.remove_if([&](const Waiter& other) { return other.answered == w.answered; });
    }
    answer(w);  // nothing new: an empty answer, and the follower asks again
  });
}

std::optional<Response> ReplicationSource::unproven_newer_epoch(const Exchange& ex,
                                                                std::uint64_t claimed,
                                                                bool standby) const {
  const std::string epoch = std::to_string(claimed);
  if (!standby) {
    log::warn("a follower that is not a standby named a newer epoch; it cannot fence this server",
              {{"epoch", claimed}, {"by", ex.identity.name}});
    return refused(ex, "replication.not_a_standby",
                   i18n::Message("api.replication.not_a_standby", {{"epoch", epoch}}));
  }
  auto header = ex.request.find(kPromotionHeader);
  if (header == ex.request.end()) {
    return refused(ex, "replication.promotion_proof",
                   i18n::Message("api.replication.promotion_proof_missing", {{"epoch", epoch}}));
  }
  auto checked = check_promotion(store_.read_view(), header->value(), claimed);
  if (auto* problem = std::get_if<std::string>(&checked)) {
    log::warn("a standby's proof of a promotion did not verify; this server is not fenced",
              {{"epoch", claimed}, {"by", ex.identity.name}, {"problem", *problem}});
    return refused(ex, "replication.promotion_proof",
                   i18n::Message("api.replication.promotion_proof_refused",
                                 {{"epoch", epoch}, {"problem", *problem}}));
  }
  return std::nullopt;
}

void ReplicationSource::appended(std::uint64_t seq) {
  std::list<Waiter> woken;
  {
    std::lock_guard lock(mutex_);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (it->from <= seq) {
        woken.splice(woken.end(), waiting_, it++);
      } else {
        ++it;
      }
    }
  }
  wake(std::move(woken));
}

void ReplicationSource::release_all() {
  std::list<Waiter> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(waiting_);
  }
  wake(std::move(all));
}

void ReplicationSource::wake(std::list<Waiter> woken) {
  for (auto& w : woken) {
    // On the follower's connection thread: the answer reads and renders the events there.
    boost::asio::post(w.ex->executor, [this, w] {
      if (w.answered->exchange(true)) return;
      w.timer->cancel();
      answer(w);
    });
  }
}

void ReplicationSource::answer(const Waiter& w) {
  auto view = store_.read_view();
  std::string body;
  events::Digest previous{};
  if (w.from > 1) {
    if (auto before = view.event(w.from - 1)) previous = before->hash();
  }
  for (const auto& e : view.log(w.from, w.limit)) {
    body += events::export_line(view, e, previous);
    body += '\n';
    previous = e.hash();
  }
  Response r(http::status::ok, w.ex->request.version());
  r.set(http::field::content_type, "application/x-ndjson");
  r.set("Tally-Head", std::to_string(view.head().seq));
  r.set("Tally-Epoch", std::to_string(leadership_.epoch()));
  r.keep_alive(w.ex->request.keep_alive());
  r.body() = std::move(body);
  r.prepare_payload();
  w.ex->respond(std::move(r));
}

std::vector<ReplicationSource::Position> ReplicationSource::positions() const {
  std::lock_guard lock(mutex_);
  std::vector<Position> out;
  for (const auto& [id, p] : positions_) out.push_back(p);
  return out;
}

}  // namespace tally::daemon
