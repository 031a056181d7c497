#include "daemon/api/proposal_view.hpp"

#include "daemon/api/json_diff.hpp"
#include "daemon/api/views.hpp"
#include "schema/json_codec.hpp"
#include "schema/text.hpp"

#include <boost/json.hpp>

namespace tally::daemon {

using schema::text;

namespace {

json::value optional_text(capnp::Text::Reader t) {
  return t.size() == 0 ? json::value(nullptr) : json::value(text(t));
}

bool from_table(schema::Event::Reader e) { return text(e.getAuthor()) == kTableAuthor; }

// Who appended an event: from the table (its token), or a judge or the organizer by name — a name
// a table's reader does not get (F9: what a table token reads is what the public reads).
void put_author(const LiveState& s, schema::Event::Reader e, ProposalReader reader,
                json::object& out) {
  out["from_table"] = from_table(e);
  out["by"] = from_table(e) || reader == ProposalReader::table
                  ? json::value(nullptr)
                  : json::value(author_name(s, text(e.getAuthor())));
}

// A note or reason: the table's own are the table's to read; a judge's are not.
json::value note_for(schema::Event::Reader e, ProposalReader reader) {
  if (reader == ProposalReader::table && !from_table(e)) return nullptr;
  return optional_text(e.getReason());
}

// The payload member's own object (what event_json shows as `payload`).
json::value payload_body(schema::Event::Reader e) {
  auto encoded = schema::encode(capnp::toDynamic(e.getPayload()));
  return encoded.empty() ? json::value(nullptr) : encoded.begin()->value();
}

// `result`, `replaces_result` and `differences` of a pending proposal: the proposed body decoded
// as the result it would become, over the table as it stands now.
void put_outcome(const LiveState& s, const TableRef& ref, const json::object& body,
                 json::object& out) {
  const projections::Action* current = ref.state->result();
  out["replaces_result"] = current != nullptr;
  out["result"] = nullptr;
  out["differences"] = json::array();
  const projections::ActionSpec* spec = ref.game->describe().action("result");
  if (spec == nullptr) return;
  events::Draft draft;
  // Checked when it was proposed; a body the schema no longer takes shows no outcome.
  if (!deciders::decode_action_body(*spec, body, draft.event().getPayload()).empty()) return;
  draft.event().setSupersedes(current != nullptr ? current->seq() : 0);
  const std::uint64_t would_be = s.seq() + 1;
  projections::Tournament tournament =
      deciders::tournament_with(ref, draft.event().asReader(), would_be);
  const auto& after = tournament.tables.at({ref.round->number, ref.seated->number});
  if (auto result = ref.game->table_result(tournament, after)) out["result"] = std::move(*result);
  if (current == nullptr) return;
  json::array differences;
  for (auto& d : json_differences(payload_body(current->envelope()),
                                  payload_body(draft.event().asReader()))) {
    differences.push_back(
        json::object{{"field", d.field},
                     {"player", d.player.empty() ? json::value(nullptr) : json::value(d.player)},
                     {"entered", std::move(d.before)},
                     {"proposed", std::move(d.after)}});
  }
  out["differences"] = std::move(differences);
}

}  // namespace

json::object proposal_json(const LiveState& s, const TableRef& ref,
                           const projections::Proposal& proposal, ProposalReader reader) {
  auto e = proposal.event.event();
  json::object out{{"id", proposal.seq()},
                   {"round", ref.round->number},
                   {"table", ref.seated->number},
                   {"status", projections::proposal_status_name(proposal.status)}};
  put_author(s, e, reader, out);
  out["at"] = iso_time(e.getRecordedAt());
  out["note"] = note_for(e, reader);
  auto body_text = e.getPayload().getResultProposed().getBody();
  json::value body = json::parse(std::string_view(body_text.cStr(), body_text.size()));
  if (proposal.status == projections::ProposalStatus::pending && body.is_object()) {
    put_outcome(s, ref, body.as_object(), out);
  } else {
    out["result"] = nullptr;
    out["replaces_result"] = false;
    out["differences"] = json::array();
  }
  out["body"] = std::move(body);
  json::array flags;
  for (const auto& flag : proposal.flags) {
    auto f = flag.event();
    json::object entry{{"seq", flag.seq()}, {"at", iso_time(f.getRecordedAt())}};
    entry["note"] = note_for(f, reader);
    put_author(s, f, reader, entry);
    flags.push_back(std::move(entry));
  }
  out["flags"] = std::move(flags);
  out["superseded_by"] =
      proposal.superseded_by != 0 ? json::value(proposal.superseded_by) : json::value(nullptr);
  if (proposal.decision) {
    auto d = proposal.decision->event();
    json::object decision{{"seq", proposal.decision->seq()},
                          {"at", iso_time(d.getRecordedAt())},
                          {"reason", note_for(d, reader)}};
    put_author(s, d, reader, decision);
    out["decision"] = std::move(decision);
  } else {
    out["decision"] = nullptr;
  }
  return out;
}

}  // namespace tally::daemon
