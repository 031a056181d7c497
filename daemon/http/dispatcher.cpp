#include "daemon/http/dispatcher.hpp"

#include "daemon/http/authorization.hpp"
#include "daemon/log.hpp"
#include "events/sha256.hpp"

#include <cmath>

namespace tally::daemon {

std::optional<std::chrono::milliseconds> RateLimiter::take(const std::string& key) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  if (buckets_.size() > 100000) {
    // Forget buckets that have refilled: they would behave exactly as new ones.
    std::erase_if(buckets_, [&](const auto& kv) {
      std::chrono::duration<double> idle = now - kv.second.last;
      return kv.second.tokens + idle.count() * rate_ >= burst_;
    });
  }
  auto [it, fresh] = buckets_.try_emplace(key, Bucket{burst_, now});
  Bucket& b = it->second;
  std::chrono::duration<double> elapsed = now - b.last;
  b.tokens = std::min(burst_, b.tokens + elapsed.count() * rate_);
  b.last = now;
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return std::nullopt;
  }
  double wait = (1.0 - b.tokens) / rate_;
  return std::chrono::milliseconds(static_cast<long>(std::ceil(wait * 1000)));
}

Dispatcher::Dispatcher(const Router& router, const LiveState& state, Metrics& metrics,
                       const Config& config, const TableKeys& table_keys)
    : router_(router),
      state_(state),
      metrics_(metrics),
      config_(config),
      table_keys_(table_keys),
      limiter_(config.rate_limit, config.rate_burst),
      table_limiter_(config.table_rate_limit, config.table_rate_burst),
      registration_limiter_(config.registration_rate_limit / 60.0, config.registration_burst) {}

Caller Dispatcher::identify(const Request& request, const std::string& remote) const {
  Caller caller;
  auto header = request.find(http::field::authorization);
  if (header == request.end()) {
    caller.limiter_key = "addr:" + remote;
    return caller;
  }
  std::string_view value = header->value();
  constexpr std::string_view kBearer = "Bearer ";
  if (!value.starts_with(kBearer)) {
    caller.bad_token = true;
    caller.limiter_key = "addr:" + remote;
    return caller;
  }
  std::string_view token = value.substr(kBearer.size());
  if (auto scope = TableKeys::claimed_scope(token)) {
    // A table token: good while its table is seated as it was when the token was made.
    caller.limiter_key = "table:" + scope->tournament + "/" + std::to_string(scope->round) + "/" +
                         std::to_string(scope->table);
    state_.read([&](const LiveState& s) {
      const projections::Tournament* t = s.tournament(scope->tournament);
      const projections::Round* round = t ? t->round(scope->round) : nullptr;
      if (round == nullptr || round->table(scope->table) == nullptr ||
          !table_keys_.valid(token, *scope, round->seq)) {
        caller.bad_token = true;
        return;
      }
      caller.identity.table = *scope;
      caller.identity.table_round_closed = round->closed;
    });
    return caller;
  }
  auto hash = events::sha256(token);
  caller.limiter_key = "token:" + events::hex(hash);
  caller.token_hash = hash;
  auto identity = state_.read([&](const LiveState& s) { return s.identify(hash); });
  if (identity) {
    caller.identity = std::move(*identity);
  } else {
    caller.bad_token = true;
  }
  return caller;
}

void Dispatcher::dispatch(Request request, const std::string& remote,
                          boost::asio::any_io_executor executor,
                          std::function<void(Response)> respond) {
  auto started = std::chrono::steady_clock::now();
  auto ex = std::make_shared<Exchange>();
  ex->executor = std::move(executor);
  ex->request_id = next_request_id();
  std::string target(request.target());
  auto match = router_.match(request.method(), path_of(target));
  ex->route =
      match.route ? match.route->pattern : (match.allowed.empty() ? "(unknown)" : "(method)");
  ex->params = std::move(match.params);
  ex->query = parse_query(target);
  ex->request = std::move(request);
  // Every answer may carry a text for people (a problem's title at least): its language now,
  // while nothing holds the state's lock. The tournament is read only without a usable
  // Accept-Language.
  auto t = ex->params.find("t");
  ex->lang = answer_language(ex->request, state_, t == ex->params.end() ? "" : t->second);

  // Every answer passes here once: common headers, one log line, metrics.
  ex->respond = [this, ex_weak = std::weak_ptr<Exchange>(ex), started, respond = std::move(respond),
                 method = std::string(http::to_string(ex->request.method()))](Response response) {
    auto ex = ex_weak.lock();
    set_common_headers(response, ex ? ex->request_id : "");
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    int status = static_cast<int>(response.result_int());
    if (ex) {
      metrics_.count_request(ex->route, method, status, took.count());
      log::request({.request_id = ex->request_id,
                    .judge = ex->identity.id,
                    .method = method,
                    .route = ex->route,
                    .status = status,
                    .latency_us = static_cast<std::int64_t>(took.count() * 1e6)});
    }
    respond(std::move(response));
  };

  if (match.route == nullptr) {
    if (match.allowed.empty()) {
      return ex->respond(problem(
          *ex, http::status::not_found,
          i18n::Message("api.request.no_such_resource", {{"path", std::string(path_of(target))}})));
    }
    std::string allow;
    for (auto v : match.allowed)
      allow += (allow.empty() ? "" : ", ") + std::string(http::to_string(v));
    Response r = problem(*ex, http::status::method_not_allowed,
                         i18n::Message("api.request.methods_allowed", {{"methods", allow}}));
    r.set(http::field::allow, allow);
    return ex->respond(std::move(r));
  }

  if (match.route->upgrade) {
    Response r = problem(*ex, http::status::upgrade_required, "api.request.websocket_only");
    r.set(http::field::upgrade, "websocket");
    return ex->respond(std::move(r));
  }

  const bool open_route = match.route->access == Access::open;
  Caller caller = identify(ex->request, remote);
  if (!open_route) {
    RateLimiter& limiter = caller.identity.table && !caller.bad_token ? table_limiter_ : limiter_;
    if (auto wait = limiter.take(caller.limiter_key)) {
      Response r = problem(*ex, http::status::too_many_requests, "api.auth.rate_limited");
      r.set(http::field::retry_after,
            std::to_string(std::max<long>(1, (wait->count() + 999) / 1000)));
      return ex->respond(std::move(r));
    }
  }
  if (match.route->access == Access::registrant && ex->request.method() == http::verb::post) {
    // registrations from one address, whoever sends them (a token does not lift it).
    if (auto wait = registration_limiter_.take("addr:" + remote)) {
      Response r = problem(
          *ex, http::status::too_many_requests, "api.registration.rate_limited",
          ErrorEntries{ErrorEntry{"Q-7", "", "", i18n::Message("api.registration.rate_limited")}});
      r.set(http::field::retry_after,
            std::to_string(std::max<long>(1, (wait->count() + 999) / 1000)));
      return ex->respond(std::move(r));
    }
  }
  if (caller.bad_token) {
    Response r = problem(*ex, http::status::unauthorized, "api.auth.bad_token");
    r.set(http::field::www_authenticate, "Bearer");
    return ex->respond(std::move(r));
  }
  ex->identity = caller.identity;
  if (auto refusal = refuse_access(ex->identity, match.route->access,
                                   {ex->params, config_.public_reads, may_read(caller)})) {
    Response r = problem(*ex, refusal->status, refusal->message,
                         refusal->error ? ErrorEntries{*refusal->error} : ErrorEntries{});
    if (refusal->asks_for_token) r.set(http::field::www_authenticate, "Bearer");
    return ex->respond(std::move(r));
  }
  try {
    match.route->handler(ex);
  } catch (const std::exception& e) {
    answer_handler_failure(ex, e);
  }
}

void answer_handler_failure(const ExchangePtr& ex, const std::exception& e) {
  log::error("handler failed",
             {{"request_id", ex->request_id}, {"route", ex->route}, {"error", e.what()}});
  ex->respond(problem(*ex, http::status::internal_server_error, "api.internal_error"));
}

}  // namespace tally::daemon
