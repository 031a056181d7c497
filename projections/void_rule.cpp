#include "projections/void_rule.hpp"

#include "projections/table_rules.hpp"

#include <algorithm>

namespace tally::projections {

using Which = schema::Event::Payload::Which;

VoidDecision decide_void(const Tournament& t, schema::Event::Reader target,
                         std::uint64_t target_seq, bool by_organizer) {
  using Kind = VoidRefusal::Kind;
  auto refuse = [](Kind kind, const char* message, const char* field_message) {
    return VoidDecision{VoidRefusal{kind, message, field_message}, 0};
  };
  Which kind = target.getPayload().which();
  if (kind == Which::ROUND_SEATED) {
    if (!by_organizer) {
      return refuse(Kind::seating_organizer_only, "api.void.seating_organizer_only",
                    "api.void.seating_organizer_only");
    }
    bool newest = !t.rounds.empty() && t.rounds.back().seq == target_seq;
    bool untouched = newest && std::none_of(t.tables.begin(), t.tables.end(), [&](const auto& kv) {
                       return kv.first.first == t.rounds.back().number && kv.second.version > 0;
                     });
    if (!untouched) {
      return refuse(Kind::seating_not_newest, "api.void.seating_refused",
                    "api.void.seating_newest_only");
    }
    return VoidDecision{std::nullopt, t.version};
  }
  auto name = parse_stream(target.getStream().cStr());
  if (name.round == 0 || kind == Which::VOID || is_result(kind)) {
    return refuse(Kind::not_voidable, "api.void.not_voidable", "api.void.what_is_voided");
  }
  const TableState* table = t.table(name.round, name.table);
  if (table == nullptr || action_with_seq(*table, target_seq) == nullptr) {
    return refuse(Kind::no_longer_in_effect, "api.void.no_longer_in_effect",
                  "api.void.already_voided");
  }
  return VoidDecision{std::nullopt, table->version};
}

}  // namespace tally::projections
