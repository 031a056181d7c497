#include "daemon/replication/promotion_proof.hpp"

#include "encoding/base64.hpp"
#include "events/archive.hpp"

#include <boost/json.hpp>

namespace tally::daemon {

namespace json = boost::json;

std::optional<std::string> promotion_proof(const events::ReadView& view) {
  std::optional<events::StoredEvent> newest;
  for (const auto& e : view.stream("replication")) {
    if (e.event().getPayload().isPrimaryPromoted()) newest = e;
  }
  if (!newest) return std::nullopt;
  events::Digest previous{};
  if (newest->seq() > 1) {
    auto before = view.event(newest->seq() - 1);
    if (!before) return std::nullopt;
    previous = before->hash();
  }
  return encoding::base64_encode(events::export_line(view, *newest, previous));
}

std::variant<CheckedPromotion, std::string> check_promotion(const events::ReadView& ours,
                                                            std::string_view proof,
                                                            std::uint64_t claimed) {
  auto line = encoding::base64_decode(proof);
  if (!line) return std::string("the proof is not base64");
  std::uint64_t seq = 0;
  try {
    seq = json::parse(*line).as_object().at("seq").to_number<std::uint64_t>();
  } catch (const std::exception&) {
    return std::string("the proof is not an export line with a seq");
  }
  if (seq == 0) return std::string("the proof's seq is 0");
  // The promoted log went on from event seq-1 of this log: this server must hold it.
  if (seq - 1 > ours.head().seq) {
    return "the promotion follows event " + std::to_string(seq - 1) + ", which this log (head " +
           std::to_string(ours.head().seq) + ") does not hold";
  }
  events::Digest previous{};
  if (seq > 1) previous = ours.event(seq - 1)->hash();
  auto verified = events::verify_line(*line, seq, previous);
  if (auto* problem = std::get_if<std::string>(&verified)) {
    return "the promotion does not follow this log's event " + std::to_string(seq - 1) + ": " +
           *problem;
  }
  const auto& restored = std::get<events::EventStore::RestoredEvent>(verified);
  try {
    events::StoredEvent event(restored.seq, restored.hash, restored.bytes);
    auto payload = event.event().getPayload();
    if (!payload.isPrimaryPromoted())
      return std::string("the proof is not a primary_promoted event");
    const std::uint64_t epoch = payload.getPrimaryPromoted().getEpoch();
    if (epoch != claimed) {
      return "the proof promotes to epoch " + std::to_string(epoch) + ", not " +
             std::to_string(claimed);
    }
    return CheckedPromotion{seq, epoch};
  } catch (const std::exception&) {
    return std::string("the proof's event cannot be read");
  }
}

}  // namespace tally::daemon
