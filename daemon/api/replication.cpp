// Replication (docs/api.md, "Replication"): replica tokens for followers, the log they copy, where
// every server stands, a synchronous standby's hold on write answers, and a former primary's
// refusal of writes.
#include "daemon/api/api.hpp"

#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "daemon/http/dispatcher.hpp"

namespace tally::daemon {

std::optional<Response> Api::unless_primary(const Exchange& ex) const {
  if (const Follower* follower = replication_.follower) {
    Response r = problem(ex, http::status::service_unavailable,
                         i18n::Message("api.replication.follower_takes_no_writes",
                                       {{"primary", follower->primary_url()}}));
    r.set("Tally-Primary", follower->primary_url());
    return r;
  }
  if (auto fence = replication_.leadership.fenced()) {
    return problem(
        ex, http::status::service_unavailable,
        i18n::Message("api.replication.fenced", {{"epoch", std::to_string(fence->epoch)}}));
  }
  return std::nullopt;
}

void Api::respond_when_replicated(const ExchangePtr& ex, Response answer, std::uint64_t last_seq) {
  if (!replication_.acks.enabled()) return ex->respond(std::move(answer));
  auto held = std::make_shared<Response>(std::move(answer));
  replication_.acks.await(last_seq, ex->executor, [this, ex, held](StandbyAcks::Outcome outcome) {
    if (outcome != StandbyAcks::Outcome::timed_out) return ex->respond(std::move(*held));
    // The write is in this server's log; only the standby's copy is missing. The same key sent
    // again is answered from the log, and waits for the standby again.
    const auto seconds = std::to_string(config_.replicas_ack_timeout.count());
    Response r = problem(*ex, http::status::service_unavailable,
                         i18n::Message("api.replication.standby_missing", {{"seconds", seconds}}));
    r.set(http::field::retry_after, "5");
    ex->respond(std::move(r));
  });
}

json::object Api::standby_json(const StandbyAcks::State& s) {
  return json::object{
      {"required", s.required},       {"present", s.present},
      {"missing", s.standby_missing}, {"when_missing", s.continue_alone ? "alone" : "wait"},
      {"waiting", s.waiting},         {"answered_alone", s.answered_alone},
      {"timed_out", s.timed_out}};
}

void Api::replication_log(const ExchangePtr& ex) {
  const bool standby = read_state(
      [&](const LiveState& s) { return queries::is_standby_replica(s, ex->identity.id); });
  replication_.source.serve(ex, standby);
}

// A former primary that should not be one (a promotion undone, a test of the failover): the
// organizer says why, and it takes writes again. Not behind unless_primary(): a fenced server
// must be able to take this one.
void Api::lift_fence(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.display_text("reason", true, 1000);
  if (!fields.ok() || !reason) {
    return ex->respond(unprocessable(*ex, "api.replication.lift_needs_reason", fields.errors()));
  }
  std::optional<Leadership::Fence> lifted;
  try {
    lifted = replication_.leadership.lift(*reason, ex->identity.name);
  } catch (const std::exception& e) {
    return answer_handler_failure(ex, e);
  }
  if (!lifted) {
    return ex->respond(problem(*ex, http::status::conflict, "api.replication.not_fenced",
                               {{"replication.not_fenced", "", "", "api.replication.not_fenced"}}));
  }
  ex->respond(json_response(
      ex->request, http::status::ok,
      json::object{{"lifted",
                    json::object{{"epoch", lifted->epoch}, {"by", lifted->by}, {"at", lifted->at}}},
                   {"reason", *reason}}));
}

void Api::replication_table_keys(const ExchangePtr& ex) {
  ex->respond(json_response(ex->request, http::status::ok,
                            json::object{{"secret", table_keys_.secret_hex()}}));
}

void Api::replication_status(const ExchangePtr& ex) {
  const std::uint64_t seq = store_.head().seq;
  const Follower* follower = replication_.follower;
  json::object out{{"role", follower ? "follower" : "primary"},
                   {"seq", seq},
                   {"epoch", replication_.leadership.epoch()}};
  if (follower != nullptr) {
    auto status = follower->status();
    out["primary"] = follower->primary_url();
    out["state"] = status.state;
    out["problem"] = status.problem.empty() ? json::value(nullptr) : json::value(status.problem);
    out["lag_events"] = status.primary_seq > seq ? status.primary_seq - seq : 0;
    out["last_contact"] =
        status.last_contact_us ? json::value(iso_time(status.last_contact_us)) : nullptr;
  } else {
    out["primary"] = nullptr;
    out["lag_events"] = 0;
  }
  if (auto fence = replication_.leadership.fenced()) {
    out["fenced"] = json::object{{"epoch", fence->epoch}, {"by", fence->by}, {"at", fence->at}};
  } else {
    out["fenced"] = nullptr;
  }
  out["standby"] = replication_.acks.enabled()
                       ? json::value(standby_json(replication_.acks.state()))
                       : json::value(nullptr);
  // The followers of this server (a follower may be followed too): by their replica tokens.
  auto positions = replication_.source.positions();
  out["followers"] =
      read_state([&](const LiveState& s) { return queries::followers(s, positions, seq); });
  ex->respond(with_seq(json_response(ex->request, http::status::ok, out), seq));
}

}  // namespace tally::daemon
