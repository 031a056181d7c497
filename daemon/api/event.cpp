// Running the event: the organizer's token, check-in, the round clock and closing a round.
#include "daemon/api/api.hpp"
#include "daemon/api/table_request.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/body.hpp"
#include "daemon/http/refusal_answer.hpp"
#include "daemon/log.hpp"
#include "daemon/organizer_token.hpp"
#include "daemon/secrets.hpp"
#include "deciders/close_round.hpp"
#include "deciders/judges.hpp"
#include "deciders/players.hpp"
#include "deciders/round_clock.hpp"
#include "events/sha256.hpp"

namespace tally::daemon {

using events::AppendResult;
using projections::Tournament;

namespace {

constexpr std::uint64_t kMaxRoundMinutes = 600;
constexpr std::uint64_t kMaxExtensionMinutes = 180;
constexpr std::size_t kMaxCheckInPlayers = 10'000;

}  // namespace

// --- the organizer's token ---------------------------------------------------------------------

void Api::rotate_organizer_token(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {});
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.organizer.invalid", fields.errors()));
  // Made once: a retry after a version conflict appends the same token's hash.
  auto token = std::make_shared<std::string>(random_token());
  run_command(
      ex,
      [command = deciders::RotateOrganizerToken{events::sha256(*token)}, actor = actor_of(*ex)](
          const LiveState& s) { return deciders::decide(s.judges_view(), command, actor); },
      [this, ex, token](const AppendResult& r) {
        bool fresh = r.status == events::AppendStatus::appended;
        if (fresh) {
          // DATA/organizer.token always holds the token that works (mode 0600).
          try {
            write_private_file(std::filesystem::path(config_.data) / "organizer.token", *token);
          } catch (const std::exception& e) {
            log::warn("the new organizer token could not be written to the data directory",
                      {{"error", e.what()}});
          }
          log::info("organizer token replaced", {{"seq", r.last_seq}});
        }
        // The token exists only in this answer; a repeated request cannot show it again.
        return json_response(
            ex->request, http::status::created,
            json::object{{"token", fresh ? json::value(*token) : json::value(nullptr)},
                         {"seq", r.last_seq}});
      },
      {.answer_before_standby = true});  // the token is shown in this answer only
}

// --- check-in ------------------------------------------------------------------------------------

void Api::check_in(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"players", "present"});
  const json::array* list = fields.array("players");
  auto present = fields.boolean("present");
  if (list == nullptr) fields.fail("players", "json.required");
  if (!present) fields.fail("present", "json.required");
  std::vector<std::string> players;
  if (list != nullptr) {
    if (list->empty() || list->size() > kMaxCheckInPlayers)
      fields.fail("players", "api.checkin.players_count");
    for (const auto& v : *list) {
      if (!v.is_string()) {
        fields.fail("players", "api.checkin.player_ids");
        break;
      }
      players.emplace_back(v.as_string());
    }
  }
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.checkin.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  deciders::CheckIn command{t_id, std::move(players), *present};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex, t_id](const AppendResult& r) {
        return answer_query(
            *ex, [&](const LiveState& s) { return queries::checkin(s, t_id, r.last_seq); });
      },
      {.tournament = t_id});
}

void Api::drop_absent(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.display_text("reason", true, 1000);
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.player.drop_needs_reason", fields.errors()));
  deciders::DropAbsent command{ex->params.at("t"), *reason};
  run_command<deciders::DropAbsentFacts>(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.tournament), command, actor);
      },
      [this, ex](const AppendResult& r, const deciders::DropAbsentFacts*) {
        // Read back from the events it appended (also on a repeated request); nobody absent
        // appends nothing and has no seq. Q-7: the waiting registrants moved up in their places
        // are the players it registered, named.
        json::array ids, moved_up;
        auto view = store_.read_view();
        for (std::uint64_t seq = r.first_seq; seq != 0 && seq <= r.last_seq; ++seq) {
          auto e = view.event(seq);
          if (!e) continue;
          auto payload = e->event().getPayload();
          if (payload.isPlayerDropped())
            ids.emplace_back(payload.getPlayerDropped().getId().cStr());
          if (payload.isPlayerRegistered()) {
            auto p = payload.getPlayerRegistered();
            moved_up.emplace_back(
                json::object{{"id", p.getId().cStr()}, {"name", p.getName().cStr()}});
          }
        }
        return json_response(ex->request, http::status::ok,
                             json::object{{"dropped", std::move(ids)},
                                          {"moved_up", std::move(moved_up)},
                                          {"seq", r.last_seq == 0 ? json::value(nullptr)
                                                                  : json::value(r.last_seq)}});
      });
}

// --- the round clock -----------------------------------------------------------------------------

void Api::round_clock(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"action", "minutes", "reason"});
  auto action_name = fields.text("action", true, 16);
  auto minutes = fields.unsigned_integer("minutes");
  auto reason = fields.display_text("reason", false, 1000).value_or("");
  std::optional<schema::ClockAction> action;
  if (action_name) {
    action = projections::parse_clock_action(*action_name);
    if (!action) fields.fail("action", "api.clock.action", "action");
  }
  using A = schema::ClockAction;
  bool timed = action == A::START || action == A::EXTEND;
  if (action && timed) {
    std::uint64_t most = action == A::START ? kMaxRoundMinutes : kMaxExtensionMinutes;
    if (!minutes) {
      fields.fail("minutes", "json.required");
    } else if (*minutes < 1 || *minutes > most) {
      fields.fail("minutes", i18n::Message("api.clock.minutes", {{"most", most}}), "minutes");
    }
  }
  if (action && !timed && minutes) fields.fail("minutes", "api.clock.minutes_only", "minutes");
  if (action == A::EXTEND && reason.empty())
    fields.fail("reason", "api.clock.extend_needs_reason", "reason");
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.clock.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  deciders::RoundClock command{{t_id, ex->params.at("r")},
                               *action,
                               static_cast<std::uint32_t>(minutes.value_or(0)),
                               reason,
                               server_now_micros()};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        return deciders::decide(s.tournament(command.round.tournament), command, actor);
      },
      [this, ex, t_id](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        std::uint32_t number = event->event().getPayload().getRoundClock().getRound();
        return answer_query(*ex, [&](const LiveState& s) {
          return queries::round_clock(s, t_id, number, r.last_seq, server_now_micros());
        });
      });
}

// --- closing a round -----------------------------------------------------------------------------

void Api::close_round(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"final", "force", "reason"});
  auto final_given = fields.boolean("final");
  bool force = fields.boolean("force").value_or(false);
  auto reason = fields.display_text("reason", false, 1000).value_or("");
  if (force && reason.empty()) fields.fail("reason", "api.round.force_needs_reason", "reason");
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.round.close_invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  deciders::CloseRound command{{t_id, ex->params.at("r")}, final_given, force, reason};
  run_command(
      ex,
      [command, actor = actor_of(*ex)](const LiveState& s) {
        const Tournament* t = s.tournament(command.round.tournament);
        return deciders::decide(t, t ? s.game_of(*t) : nullptr, command, actor);
      },
      [this, ex](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        auto closed = event->event().getPayload().getRoundClosed();
        return json_response(ex->request, http::status::created,
                             json::object{{"seq", r.last_seq},
                                          {"round", closed.getRound()},
                                          {"closed", true},
                                          {"final", closed.getFinal()}});
      });
}

}  // namespace tally::daemon
