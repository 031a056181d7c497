// For the daemon's whole-tournament tests: reads a tournament's events back from the server and
// feeds them, in seq order, into a TournamentBuilder, so that the pure library can be compared
// with what the server computed from the same events.
#pragma once

#include "schema/json_codec.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tally::testing {

// Every event of tournament `t`, oldest first, read page by page (`limit` per page).
inline std::vector<boost::json::object> all_events(HttpClient& client, const std::string& t,
                                                   int limit = 100) {
  std::vector<boost::json::object> out;
  std::uint64_t from = 0;
  for (;;) {
    auto page = client.get("/v1/tournaments/" + t + "/events?from=" + std::to_string(from) +
                           "&limit=" + std::to_string(limit));
    EXPECT_EQ(page.status, 200) << page.body;
    auto body = page.json().as_object();
    for (const auto& e : body.at("events").as_array()) out.push_back(e.as_object());
    if (body.at("next").is_null()) return out;
    from = body.at("next").to_number<std::uint64_t>();
  }
}

// Feeds the server's events, in seq order, into a TournamentBuilder: the same payloads through
// the same codec, corrections and voids pointing at the same events (seqs renumbered). An event
// of a kind outside `kinds` (besides the tournament's creation) is a test failure.
class ServerReplay {
 public:
  using Which = schema::Event::Payload::Which;

  ServerReplay(const boost::json::object& created, std::initializer_list<Which> kinds)
      : builder_(text(created.at("payload").at("id")), text(created.at("payload").at("game")),
                 optional_text(created.at("payload").as_object(), "locale"),
                 created.at("payload").at("rules").as_object()),
        kinds_(kinds) {
    seqs_[created.at("seq").to_number<std::uint64_t>()] = builder_.last_seq();
  }

  // Appends one event. `before_seating` sees the tournament just before a round is seated.
  void apply(const boost::json::object& e,
             const std::function<void(const projections::Tournament&, const boost::json::object&)>&
                 before_seating = nullptr) {
    const Which kind = kind_named(text(e.at("type")));
    if (kind == Which::ROUND_SEATED && before_seating) {
      before_seating(builder_.tournament(), e.at("payload").as_object());
    }
    std::uint64_t supersedes = 0;
    if (!e.at("supersedes").is_null()) {
      supersedes = seqs_.at(e.at("supersedes").to_number<std::uint64_t>());
    }
    const std::string reason = text(e.at("reason"));
    std::uint64_t seq = builder_.append(text(e.at("stream")), [&](schema::Event::Builder b) {
      b.setSupersedes(supersedes);
      b.setReason(reason);
      if (kind == Which::VOID) {
        b.getPayload().setVoid();
        return;
      }
      auto errors = schema::decode_payload(e.at("payload"), b.getPayload(), kind);
      if (!errors.empty()) {
        ADD_FAILURE() << "event " << boost::json::serialize(e) << ": " << errors[0].path << " "
                      << errors[0].message;
      }
    });
    seqs_[e.at("seq").to_number<std::uint64_t>()] = seq;
  }

  projections::Tournament tournament() const { return builder_.tournament(); }

 private:
  static std::string text(const boost::json::value& v) { return std::string(v.as_string()); }
  static std::string optional_text(const boost::json::object& o, const char* key) {
    return o.contains(key) ? text(o.at(key)) : "";
  }
  Which kind_named(const std::string& type) const {
    auto k = std::find_if(kinds_.begin(), kinds_.end(),
                          [&](Which k) { return schema::payload_type(k) == type; });
    if (k == kinds_.end()) throw std::invalid_argument("unexpected event type " + type);
    return *k;
  }

  TournamentBuilder builder_;
  std::vector<Which> kinds_;
  std::map<std::uint64_t, std::uint64_t> seqs_;  // server seq → builder seq
};

}  // namespace tally::testing
