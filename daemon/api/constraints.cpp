// Seating constraints and penalties (stages.md §6, docs/api.md "Seating constraints and
// penalties"): keep-apart (S-9), a player's fixed table (S-10, PATCH …/players/{p}) and
// penalties or bonuses (S-11). Each handler parses its body, runs its decider
// (deciders/constraints.hpp) and answers.
#include "deciders/constraints.hpp"
#include "daemon/api/api.hpp"
#include "daemon/api/constraints_view.hpp"
#include "daemon/api/queries.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;

namespace {

// 201 {"id","seq"}: the id of a keep-apart or a penalty is the seq of its event, the one
// POST …/events/{seq}/void names.
Response created_constraint(const Exchange& ex, const AppendResult& r) {
  return json_response(ex.request, http::status::created,
                       json::object{{"id", r.first_seq}, {"seq", r.last_seq}});
}

// The players of a keep-apart body: an array of ids (strings); a wrong member is said.
std::vector<std::string> player_ids(BodyFields& fields, const json::array* players) {
  std::vector<std::string> out;
  if (players == nullptr) {
    fields.fail("players", "json.required");
    return out;
  }
  for (const auto& p : *players) {
    if (!p.is_string()) {
      fields.fail("players", "api.keep_apart.player_ids");
      return out;
    }
    out.emplace_back(p.as_string());
  }
  return out;
}

// A penalty's points as the body gives them: an integer, or an exact fraction as text ("-1/2").
// A JSON number with a fraction is refused: points are exact.
std::optional<std::string> points_text(BodyFields& fields, const json::object& body) {
  auto it = body.find("points");
  if (it == body.end() || it->value().is_null()) {
    fields.fail("points", "json.required", "S-11");
    return std::nullopt;
  }
  const json::value& v = it->value();
  if (v.is_int64()) return std::to_string(v.as_int64());
  if (v.is_uint64()) return std::to_string(v.as_uint64());
  if (v.is_string()) return std::string(v.as_string());
  fields.fail("points", "api.penalty.points_type", "S-11");
  return std::nullopt;
}

// PATCH's fixed_table: absent (unchanged), null (none) or a number.
std::optional<std::optional<std::uint32_t>> fixed_table_of(BodyFields& fields,
                                                           const json::object& body) {
  auto it = body.find("fixed_table");
  if (it == body.end()) return std::nullopt;
  if (it->value().is_null()) return std::optional<std::uint32_t>{};
  auto n = fields.unsigned_integer("fixed_table");
  if (!n) return std::nullopt;  // unsigned_integer said why
  if (*n > UINT32_MAX) {
    fields.fail("fixed_table", "api.player.fixed_table_positive", "S-10");
    return std::nullopt;
  }
  return std::optional<std::uint32_t>{static_cast<std::uint32_t>(*n)};
}

}  // namespace

void add_constraints_json(json::object& tournament, const Tournament& t) {
  auto& players = tournament["players"].as_array();
  for (std::size_t i = 0; i < t.players.size() && i < players.size(); ++i) {
    if (t.players[i].fixed_table != 0)
      players[i].as_object()["fixed_table"] = t.players[i].fixed_table;
  }
  if (!t.keep_apart.empty()) {
    json::array groups;
    for (const auto& k : t.keep_apart) {
      groups.push_back(json::object{{"id", k.seq},
                                    {"players", json::array(k.players.begin(), k.players.end())},
                                    {"reason", k.reason}});
    }
    tournament["keep_apart"] = std::move(groups);
  }
  if (!t.penalties.empty()) {
    json::array given;
    for (const auto& p : t.penalties) {
      json::object entry{{"id", p.seq}, {"player", p.player}, {"points", p.points.to_json()}};
      entry["round"] = p.round == 0 ? json::value(nullptr) : json::value(p.round);
      entry["reason"] = p.reason;
      given.push_back(std::move(entry));
    }
    tournament["penalties"] = std::move(given);
  }
}

void Api::keep_apart(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"players", "reason"});
  std::vector<std::string> players = player_ids(fields, fields.array("players"));
  auto reason = fields.display_text("reason", true, 1000);
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.keep_apart.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  run_command(
      ex,
      [command = deciders::KeepApart{t_id, std::move(players), *reason},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [ex](const AppendResult& r) { return created_constraint(*ex, r); }, {.tournament = t_id});
}

void Api::give_penalty(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"points", "round", "reason"});
  auto points = points_text(fields, *body);
  auto round = fields.unsigned_integer("round");
  auto reason = fields.display_text("reason", true, 1000);
  if (round && *round > UINT32_MAX) fields.fail("round", "json.expected.unsigned");
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.penalty.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t"), player = ex->params.at("p");
  deciders::GivePenalty command{t_id, player, *points, std::nullopt, *reason};
  if (round) command.round = static_cast<std::uint32_t>(*round);
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [ex](const AppendResult& r) { return created_constraint(*ex, r); }, {.tournament = t_id});
}

void Api::patch_player(const ExchangePtr& ex, const json::object& body) {
  BodyFields fields(body, {"name", "fixed_table"});
  auto name = fields.name("name", false);
  auto fixed_table = fixed_table_of(fields, body);
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.player.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t"), player = ex->params.at("p");
  run_command(
      ex,
      [command = deciders::PatchPlayer{t_id, player, name, fixed_table},
       actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id, player](const AppendResult& r) {
        return answer_query(*ex, [&](const LiveState& s) -> Viewed {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) return deciders::tournament_not_found(t_id);
          const projections::Player* p = t->player(player);
          if (p == nullptr) return deciders::player_not_found(player, t_id);
          json::object out{{"id", player}, {"name", p->name}};
          out["fixed_table"] =
              p->fixed_table == 0 ? json::value(nullptr) : json::value(p->fixed_table);
          out["seq"] = r.last_seq;
          out["warnings"] = same_name_warnings(ex->audience(*t), *t, p->name, player);
          return View{.body = std::move(out), .language = true};
        });
      },
      {.tournament = t_id});
}

}  // namespace tally::daemon
