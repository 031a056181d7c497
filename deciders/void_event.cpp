#include "deciders/void_event.hpp"

#include "projections/table_rules.hpp"

#include <algorithm>

namespace tally::deciders {

using Which = schema::Event::Payload::Which;

namespace {

Refusal void_refused(const char* message, const char* field_message) {
  return Refusal{RefusalKind::unprocessable,
                 i18n::Message(message),
                 {{"void", "", "seq", i18n::Message(field_message)}}};
}

// S-9/S-11: a keep-apart (the organizer's only) or a penalty (organizer or judge) in effect is
// voided at the tournament stream's version.
std::variant<std::uint64_t, Refusal> constraint_voidable_at(const projections::Tournament& t,
                                                            Which kind, std::uint64_t target_seq,
                                                            const Actor& actor) {
  const bool keep_apart = kind == Which::KEPT_APART;
  if (keep_apart && !actor.organizer)
    return Refusal{RefusalKind::forbidden, i18n::Message("api.void.keep_apart_organizer_only")};
  const bool in_effect = keep_apart
                             ? std::any_of(t.keep_apart.begin(), t.keep_apart.end(),
                                           [&](const auto& k) { return k.seq == target_seq; })
                             : std::any_of(t.penalties.begin(), t.penalties.end(),
                                           [&](const auto& p) { return p.seq == target_seq; });
  if (!in_effect) return void_refused("api.void.no_longer_in_effect", "api.void.already_voided");
  return t.version;
}

// The version the target's stream must still have when the void is appended, or why not.
std::variant<std::uint64_t, Refusal> voidable_at(const projections::Tournament& t,
                                                 schema::Event::Reader target,
                                                 std::uint64_t target_seq, const Actor& actor) {
  Which kind = target.getPayload().which();
  if (kind == Which::ROUND_SEATED) {
    if (!actor.organizer) {
      return Refusal{RefusalKind::forbidden, i18n::Message("api.void.seating_organizer_only")};
    }
    bool newest = !t.rounds.empty() && t.rounds.back().seq == target_seq;
    bool untouched = newest && std::none_of(t.tables.begin(), t.tables.end(), [&](const auto& kv) {
                       return kv.first.first == t.rounds.back().number && kv.second.version > 0;
                     });
    if (!untouched) return void_refused("api.void.seating_refused", "api.void.seating_newest_only");
    return t.version;
  }
  if (kind == Which::KEPT_APART || kind == Which::PENALTY_GIVEN)
    return constraint_voidable_at(t, kind, target_seq, actor);
  auto name = projections::parse_stream(target.getStream().cStr());
  if (name.round == 0 || kind == Which::VOID || projections::is_result(kind)) {
    return void_refused("api.void.not_voidable", "api.void.what_is_voided");
  }
  const projections::TableState* table = t.table(name.round, name.table);
  if (table == nullptr || projections::action_with_seq(*table, target_seq) == nullptr) {
    return void_refused("api.void.no_longer_in_effect", "api.void.already_voided");
  }
  return table->version;
}

}  // namespace

std::optional<Refusal> void_refusal(const projections::Tournament& t, schema::Event::Reader target,
                                    std::uint64_t target_seq, const Actor& actor) {
  auto at = voidable_at(t, target, target_seq, actor);
  if (auto* refusal = std::get_if<Refusal>(&at)) return std::move(*refusal);
  return std::nullopt;
}

Decision<> decide(const projections::Tournament* t,
                  const std::optional<schema::Event::Reader>& target, const VoidEvent& command,
                  const Actor& actor) {
  std::string stream = target ? std::string(target->getStream().cStr()) : "";
  if (t == nullptr || !target ||
      projections::parse_stream(stream).tournament != command.tournament) {
    return Refusal{RefusalKind::not_found,
                   i18n::Message("api.void.not_found", {{"seq", std::to_string(command.seq)},
                                                        {"tournament", command.tournament}})};
  }
  auto at = voidable_at(*t, *target, command.seq, actor);
  if (auto* refusal = std::get_if<Refusal>(&at)) return std::move(*refusal);
  events::Draft d = authored(actor, command.reason);
  d.event().setSupersedes(command.seq);
  d.event().getPayload().setVoid();
  return one_event(std::move(stream), events::ExpectedVersion::exactly(std::get<std::uint64_t>(at)),
                   std::move(d));
}

}  // namespace tally::deciders
