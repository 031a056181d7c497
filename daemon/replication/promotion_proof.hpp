// The proof a standby shows to fence a former primary (docs/operations.md, "Promotion and
// fencing"; docs/reliability.md, hostile client F2).
//
// A follower that has copied a promoted log names the newer epoch in each request (`epoch=N`).
// A bare number is not enough to fence the server it asks — a mirror's token, a mistaken script,
// or the organizer testing the route would lock every judge out. So a standby sends, in the
// header Tally-Promotion, its log's newest `primary_promoted` event as an export line (base64):
// the event at seq S whose previous hash is that of event S-1 of the asked server's own log. The
// asked server is fenced only when the line verifies (hash over the bytes, linked after what it
// holds) and the event promotes to the epoch named.
//
// Thread safety: pure functions over read views.
#pragma once

#include "events/store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tally::daemon {

inline constexpr std::string_view kPromotionHeader = "Tally-Promotion";

// The Tally-Promotion value for `view`'s log: its newest `primary_promoted` event as an export
// line, in base64. nullopt for a log never promoted.
std::optional<std::string> promotion_proof(const events::ReadView& view);

struct CheckedPromotion {
  std::uint64_t seq = 0;    // where the promotion stands in the promoted log
  std::uint64_t epoch = 0;  // the epoch it began
};

// Checks a Tally-Promotion value against `ours`, the log of the server it would fence, for the
// epoch `claimed`: the checked promotion, or what is wrong with it (English, for the log and
// the refusal's detail).
std::variant<CheckedPromotion, std::string> check_promotion(const events::ReadView& ours,
                                                            std::string_view proof,
                                                            std::uint64_t claimed);

}  // namespace tally::daemon
