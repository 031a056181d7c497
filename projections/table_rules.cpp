#include "projections/table_rules.hpp"

#include "schema/json_codec.hpp"

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

RuleErrors check_correction(const TableState& table, schema::Event::Reader proposed) {
  const std::uint64_t target = proposed.getSupersedes();
  if (target == 0) return {};
  const auto kind = proposed.getPayload().which();
  const Action* old = action_with_seq(table, target);
  if (old == nullptr) {
    return {{"supersedes", "", "supersedes",
             "event " + std::to_string(target) + " is not an action in effect at this table"}};
  }
  if (old->payload().which() == kind) return {};
  return {{"supersedes", "", "supersedes",
           "event " + std::to_string(target) + " is a " +
               schema::payload_type(old->payload().which()) + "; a " + schema::payload_type(kind) +
               " cannot replace it"}};
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
