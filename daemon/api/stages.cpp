// Stages (docs/games/stages.md): POST …/stages starts the next stage, POST …/stages/check shows
// what starting it would do; and the server's own advance of a knockout after a result.
#include "deciders/stages.hpp"
#include "daemon/api/api.hpp"
#include "daemon/api/queries.hpp"
#include "daemon/http/body.hpp"
#include "deciders/lookup.hpp"

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;

namespace {

json::array ids(const std::vector<std::string>& players) {
  json::array out;
  for (const auto& p : players) out.emplace_back(p);
  return out;
}

// What starting the stage does (the answer and the preview share it).
json::object stage_json(const Audience& audience, const deciders::StageFacts& facts) {
  json::object out{{"stage", facts.index},
                   {"kind", projections::stage_kind_name(facts.kind)},
                   {"players", ids(facts.players)}};
  if (facts.cut) {
    const projections::CutPreview& cut = *facts.cut;
    out["cut"] = json::object{
        {"in", ids(cut.in)},
        {"first_out", cut.first_out.empty() ? json::value(nullptr) : json::value(cut.first_out)},
        {"decided_by", cut.first_out.empty() ? json::value(nullptr) : json::value(cut.decided_by)},
        {"passed_over", ids(cut.passed_over)}};
  }
  if (facts.round != 0) {
    out["round"] = facts.round;
    json::array tables;
    for (const auto& t : facts.tables)
      tables.push_back(json::object{{"table", t.number}, {"players", ids(t.players)}});
    out["tables"] = std::move(tables);
  }
  json::array notes;
  for (const auto& [first, second] : facts.swaps) {
    notes.emplace_back(audience.render(i18n::Message(
        "stages.swap", {{"first", i18n::PlayerRef{first}}, {"second", i18n::PlayerRef{second}}})));
  }
  if (!notes.empty()) out["notes"] = std::move(notes);
  return out;
}

// The body of both routes: {"force"?, "reason"?} (a forced start says why).
std::optional<deciders::StartStage> start_stage_body(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return std::nullopt;
  BodyFields fields(*body, {"force", "reason"});
  deciders::StartStage command;
  command.force = fields.boolean("force").value_or(false);
  command.reason = fields.display_text("reason", false, 1000).value_or("");
  if (command.force && command.reason.empty())
    fields.fail("reason", "api.seating.force_needs_reason", "reason");
  if (!fields.ok()) {
    ex->respond(unprocessable(*ex, "stages.refused", fields.errors()));
    return std::nullopt;
  }
  return command;
}

deciders::Decision<deciders::StageFacts> decide_start(const LiveState& s, const std::string& t_id,
                                                      const deciders::StartStage& command,
                                                      const deciders::Actor& actor) {
  const Tournament* t = s.tournament(t_id);
  if (t == nullptr) return deciders::tournament_not_found(t_id);
  return deciders::decide(*t, *s.game_of(*t), command, actor);
}

}  // namespace

namespace {

// The stage as the answer shows it, with the names of the tournament's players (the notes').
// REQUIRES: inside read_state().
Viewed stage_view(const LiveState& s, const Exchange& ex, const std::string& t_id,
                  const deciders::StageFacts& facts, http::status status) {
  const Tournament* t = s.tournament(t_id);
  View view;
  view.body = stage_json(t ? ex.audience(*t) : ex.audience(), facts);
  view.status = status;
  view.language = true;  // its notes
  return view;
}

}  // namespace

void Api::start_stage(const ExchangePtr& ex) {
  auto command = start_stage_body(ex);
  if (!command) return;
  const std::string t_id = ex->params.at("t");
  run_command<deciders::StageFacts>(
      ex,
      [t_id, command = *command, actor = actor_of(*ex)](const LiveState& s) {
        return decide_start(s, t_id, command, actor);
      },
      [this, ex, t_id](const AppendResult& r, const deciders::StageFacts* facts) {
        return answer_query(*ex, [&](const LiveState& s) -> Viewed {
          // An idempotent repeat decided nothing: the seq says what it appended.
          Viewed viewed = facts ? stage_view(s, *ex, t_id, *facts, http::status::created)
                                : Viewed(View{json::object{}, std::nullopt, http::status::created});
          std::get<View>(viewed).body.as_object()["seq"] = r.last_seq;
          return viewed;
        });
      },
      {.tournament = t_id});
}

void Api::check_stage(const ExchangePtr& ex) {
  auto command = start_stage_body(ex);
  if (!command) return;
  const std::string t_id = ex->params.at("t");
  run_query(ex,
            [ex, t_id, command = *command, actor = actor_of(*ex)](const LiveState& s) -> Viewed {
              auto decision = decide_start(s, t_id, command, actor);
              if (decision.refused()) return decision.refusal();
              Viewed viewed = stage_view(s, *ex, t_id, decision.accepted().facts, http::status::ok);
              std::get<View>(viewed).body.as_object()["ok"] = true;
              return viewed;
            },
            {.tournament = t_id});
}

void Api::advance_bracket(const std::string& t_id) {
  const deciders::Actor system{"system", true};
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::optional<deciders::Decision<>> decision;
    read_state([&](const LiveState& s) {
      const Tournament* t = s.tournament(t_id);
      if (t == nullptr || t->stages.empty()) return;
      decision.emplace(deciders::decide(*t, *s.game_of(*t), deciders::AdvanceBracket{}, system));
    });
    if (!decision || decision->refused() || decision->accepted().append.events.empty()) return;
    deciders::Append& append = decision->accepted().append;
    events::AppendRequest request;
    request.stream = std::move(append.stream);
    request.expected = append.expected;
    request.events = std::move(append.events);
    if (store_.append(std::move(request)).status != events::AppendStatus::version_conflict) return;
  }
}

}  // namespace tally::daemon
