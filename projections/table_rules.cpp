#include "projections/table_rules.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <algorithm>

namespace tally::projections {

const SeatedTable* seated_table(const Tournament& tournament, const TableState& table) {
  const Round* round = tournament.round(table.round);
  return round == nullptr ? nullptr : round->table(table.table);
}

bool seated_at(const SeatedTable& seated, std::string_view player) {
  return std::find(seated.players.begin(), seated.players.end(), player) != seated.players.end();
}

const Action* action_with_seq(const TableState& table, std::uint64_t seq) {
  for (const auto& a : table.actions) {
    if (a.seq() == seq) return &a;
  }
  return nullptr;
}

i18n::Term action_term(schema::Event::Payload::Which kind) {
  using Which = schema::Event::Payload::Which;
  switch (kind) {
    case Which::CATAN_RESULT:
      return {"rules.action.catan_result"};
    case Which::AGOT_RESULT:
      return {"rules.action.agot_result"};
    case Which::CARCASSONNE_RESULT:
      return {"rules.action.carcassonne_result"};
    case Which::CLAIMED_WIN:
      return {"rules.action.claimed_win"};
    case Which::HOUSE_PICK:
      return {"rules.action.house_pick"};
    case Which::CARCASSONNE_SCORING:
      return {"rules.action.carcassonne_scoring"};
    case Which::VOID:
      return {"rules.action.void"};
    default:
      return {"rules.action.other"};  // not a table action at all
  }
}

RuleErrors check_correction(const TableState& table, schema::Event::Reader proposed) {
  const std::uint64_t target = proposed.getSupersedes();
  if (target == 0) return {};
  const auto kind = proposed.getPayload().which();
  const Action* old = action_with_seq(table, target);
  // The seq is an event's number, shown as it is (not as a quantity: "event 1234").
  const std::string event = std::to_string(target);
  if (old == nullptr) {
    return {{"supersedes", "", "supersedes",
             i18n::Message("rules.supersedes.not_in_effect", {{"event", event}})}};
  }
  if (old->payload().which() == kind) return {};
  return {{"supersedes", "", "supersedes",
           i18n::Message("rules.supersedes.other_kind",
                         {{"event", event},
                          {"old_kind", action_term(old->payload().which())},
                          {"new_kind", action_term(kind)}})}};
}

TableState with_proposed(const TableState& table, schema::Event::Reader proposed,
                         std::uint64_t seq) {
  capnp::MallocMessageBuilder message;
  message.setRoot(proposed);
  auto event = message.getRoot<schema::Event>();
  event.setSeq(seq);
  event.setVersion(table.version + 1);
  auto words = capnp::messageToFlatArray(message);
  auto bytes = words.asChars();
  TableState out = table;
  out.apply(
      schema::StoredEvent(seq, schema::Digest{}, std::string_view(bytes.begin(), bytes.size())));
  return out;
}

}  // namespace tally::projections
