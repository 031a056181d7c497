#include "deciders/table_action.hpp"

#include "deciders/errors.hpp"
#include "deciders/stages.hpp"
#include "projections/table_rules.hpp"
#include "schema/iso_time.hpp"
#include "schema/json_codec.hpp"

namespace tally::deciders {

std::vector<schema::FieldError> decode_action_body(const projections::ActionSpec& spec,
                                                   const boost::json::object& body,
                                                   schema::Event::Payload::Builder payload) {
  if (spec.body_member.empty()) return schema::decode_payload(body, payload, spec.kind);
  boost::json::object wrapped;
  wrapped[spec.body_member] = body;
  return schema::decode_payload(wrapped, payload, spec.kind);
}

Decision<TableActionFacts> decide(const projections::Tournament* t, const projections::Game* game,
                                  const TableAction& command, const Actor& actor,
                                  const AuthorName& author_name, FoundTable& found) {
  if (auto missing = find_table(t, command.table, found)) return std::move(*missing);
  const projections::ActionSpec* spec = game->describe().action(command.action);
  if (spec == nullptr) {
    return Refusal{
        RefusalKind::not_found,
        i18n::Message("api.table.no_action", {{"game", t->game}, {"action", command.action}})};
  }
  const bool is_result = command.is_result();
  const projections::TableState& table = *found.state;
  std::uint64_t supersedes = command.supersedes;
  TableActionFacts facts;
  if (is_result) {
    const projections::Action* current = table.result();
    auto precondition_failed = [&](i18n::Message detail) {
      return Refusal{RefusalKind::precondition, std::move(detail), {}, table.version};
    };
    if (command.first_entry && current != nullptr) {
      auto e = current->envelope();
      return precondition_failed(
          i18n::Message("api.table.already_entered", {{"judge", author_name(e.getAuthor().cStr())},
                                                      {"time", schema::iso_time(e.getRecordedAt())},
                                                      {"version", std::to_string(table.version)}}));
    }
    if (command.expected_version && *command.expected_version != table.version) {
      return precondition_failed(i18n::Message(
          "api.table.version_moved", {{"now", std::to_string(table.version)},
                                      {"expected", std::to_string(*command.expected_version)}}));
    }
    // Replacing the result in effect is its correction.
    supersedes = current != nullptr ? current->seq() : 0;
    facts.replaces_result = current != nullptr;
    if (current != nullptr) {
      if (auto played_on =
              knockout_correction_refusal(*t, *game, found.round->number, found.seated->number))
        return std::move(*played_on);
    }
  }
  if (supersedes != 0 && command.reason.empty() && !command.proposal) {
    return Refusal{RefusalKind::unprocessable,
                   is_result ? "api.correction.result_needs_reason" : "api.correction.invalid",
                   {{"reason", "", "reason",
                     is_result ? "api.correction.say_why" : "api.correction.needs_reason"}}};
  }
  events::Draft d;
  auto e = d.event();
  e.setAuthor(actor.id);
  e.setReason(command.reason);
  e.setSupersedes(supersedes);
  auto structure = decode_action_body(*spec, *command.body, e.getPayload());
  if (!structure.empty()) {
    return Refusal{RefusalKind::unprocessable,
                   is_result ? "api.table.result_fields" : "api.table.request_fields",
                   schema_errors(structure)};
  }
  auto broken = game->check_action(*t, table, e.asReader());
  if (!broken.empty()) {
    return Refusal{RefusalKind::unprocessable,
                   is_result ? "api.table.result_breaks_rules" : "api.table.refused_by_rules",
                   rule_errors(broken)};
  }
  return Accepted<TableActionFacts>{
      one_event(projections::table_stream(t->id, found.round->number, found.seated->number),
                events::ExpectedVersion::exactly(table.version), std::move(d)),
      facts};
}

projections::Tournament tournament_with(const FoundTable& found, schema::Event::Reader event,
                                        std::uint64_t seq) {
  projections::Tournament tournament = *found.tournament;
  projections::TableState& after = tournament.tables[{found.round->number, found.seated->number}];
  after = projections::with_proposed(*found.state, event, seq);
  tournament.last_seq = seq;
  return tournament;
}

}  // namespace tally::deciders
