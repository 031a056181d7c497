// Stages (docs/games/stages.md): POST …/stages starts the next stage, POST …/stages/check shows
// what starting it would do; and the server's own advance of a knockout after a result.
#include "deciders/stages.hpp"
#include "daemon/api/api.hpp"
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
        json::object out;
        if (facts != nullptr) {
          out = state_.read([&](const LiveState& s) {
            return stage_json(ex->audience(*s.tournament(t_id)), *facts);
          });
        }
        out["seq"] = r.last_seq;
        Response response = json_response(ex->request, http::status::created, out);
        set_language(response, ex->lang);
        return response;
      },
      {.tournament = t_id});
}

void Api::check_stage(const ExchangePtr& ex) {
  auto command = start_stage_body(ex);
  if (!command) return;
  const std::string t_id = ex->params.at("t");
  Response answer = state_.read([&](const LiveState& s) {
    auto decision = decide_start(s, t_id, *command, actor_of(*ex));
    const Tournament* t = s.tournament(t_id);
    const Audience audience = t ? ex->audience(*t) : ex->audience();
    if (decision.refused()) return refusal_answer(*ex, audience, decision.refusal());
    json::object out = stage_json(audience, decision.accepted().facts);
    out["ok"] = true;
    Response response = json_response(ex->request, http::status::ok, out);
    set_language(response, ex->lang);
    return response;
  });
  ex->respond(std::move(answer));
}

void Api::advance_bracket(const std::string& t_id) {
  const deciders::Actor system{"system", true};
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::optional<deciders::Decision<>> decision;
    state_.read([&](const LiveState& s) {
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
