// Replication (docs/api.md, "Replication"): replica tokens for followers, the log they copy, and
// where every server stands. A follower takes no write.
#include "daemon/api.hpp"

#include "daemon/views.hpp"

namespace tally::daemon {

std::optional<Response> Api::unless_primary(const Exchange& ex) const {
  if (follower_ == nullptr) return std::nullopt;
  Response r = problem(ex, http::status::service_unavailable,
                       i18n::Message("api.replication.follower_takes_no_writes",
                                     {{"primary", follower_->primary_url()}}));
  r.set("Tally-Primary", follower_->primary_url());
  return r;
}

void Api::replication_log(const ExchangePtr& ex) { replication_.serve(ex); }

void Api::replication_status(const ExchangePtr& ex) {
  const std::uint64_t seq = store_.head().seq;
  json::object out{{"role", follower_ ? "follower" : "primary"}, {"seq", seq}};
  if (follower_ != nullptr) {
    auto status = follower_->status();
    out["primary"] = follower_->primary_url();
    out["state"] = status.state;
    out["problem"] = status.problem.empty() ? json::value(nullptr) : json::value(status.problem);
    out["lag_events"] = status.primary_seq > seq ? status.primary_seq - seq : 0;
    out["last_contact"] =
        status.last_contact_us ? json::value(iso_time(status.last_contact_us)) : nullptr;
  } else {
    out["primary"] = nullptr;
    out["lag_events"] = 0;
  }
  // The followers of this server (a follower may be followed too): by their replica tokens.
  auto positions = replication_.positions();
  json::array followers = state_.read([&](const LiveState& s) {
    json::array list;
    for (const auto& j : s.judges()) {
      if (j.role != Role::replica) continue;
      json::object f{{"id", j.id},     {"name", j.name},        {"revoked", j.revoked},
                     {"seq", nullptr}, {"lag_events", nullptr}, {"last_seen", nullptr}};
      for (const auto& p : positions) {
        if (p.id != j.id) continue;
        f["seq"] = p.seq;
        f["lag_events"] = seq > p.seq ? seq - p.seq : 0;
        f["last_seen"] = iso_time(p.seen_us);
      }
      list.push_back(std::move(f));
    }
    return list;
  });
  out["followers"] = std::move(followers);
  ex->respond(with_seq(json_response(ex->request, http::status::ok, out), seq));
}

}  // namespace tally::daemon
