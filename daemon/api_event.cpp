// Running the event: the organizer's token, check-in, the round clock and closing a round.
#include "daemon/api.hpp"
#include "daemon/body.hpp"
#include "daemon/log.hpp"
#include "daemon/organizer_token.hpp"
#include "daemon/secrets.hpp"
#include "daemon/table_request.hpp"
#include "daemon/views.hpp"

namespace tally::daemon {

using events::AppendResult;
using events::Draft;
using events::ExpectedVersion;
using projections::Tournament;

namespace {

constexpr std::uint64_t kMaxRoundMinutes = 600;
constexpr std::uint64_t kMaxExtensionMinutes = 180;
constexpr std::size_t kMaxCheckInPlayers = 10'000;

Draft tournament_event(const Exchange& ex, const std::string& reason = "") {
  Draft d;
  d.event().setAuthor(ex.identity.id);
  if (!reason.empty()) d.event().setReason(reason);
  return d;
}

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
  write(
      ex,
      [this, ex, token] {
        Prepared p;
        p.append.expected = ExpectedVersion::exactly(
            state_.read([](const LiveState& s) { return s.judges_version(); }));
        p.append.stream = "judges";
        p.append.events.push_back(organizer_token_event(*token, ex->identity.id));
        p.answer_before_standby = true;  // the token is shown in this answer only
        return p;
      },
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
      });
}

// --- check-in ------------------------------------------------------------------------------------

void Api::check_in(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"players", "present"});
  const json::array* list = fields.array("players");
  auto present = fields.boolean("present");
  if (list == nullptr) fields.fail("players", "api.field.required");
  if (!present) fields.fail("present", "api.field.required");
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
  write(
      ex,
      [this, ex, t_id, players, present = *present] {
        Prepared p;
        std::uint32_t round = 0;
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) {
            p.refusal = tournament_not_found(*ex, t_id);
            return;
          }
          ErrorEntries errors;
          for (const auto& id : players) {
            const projections::Player* player = t->player(id);
            if (player == nullptr) {
              errors.push_back(
                  {"checkin", id, "players",
                   i18n::Message("api.player.not_found", {{"id", id}, {"tournament", t_id}})});
            } else if (player->dropped) {
              errors.push_back(
                  {"checkin", id, "players",
                   i18n::Message("api.checkin.dropped", {{"player", i18n::PlayerRef{id}}})});
            }
          }
          if (!errors.empty()) {
            p.refusal = unprocessable(ex->request, ex->audience(*t), "api.checkin.invalid", errors);
            return;
          }
          round = t->next_round();
          p.append.expected = ExpectedVersion::exactly(t->version);
        });
        if (p.refusal) return p;
        Draft d = tournament_event(*ex);
        auto check_in = d.event().getPayload().initCheckIn();
        check_in.setRound(round);
        check_in.setPresent(present);
        auto list = check_in.initPlayers(static_cast<unsigned>(players.size()));
        for (unsigned i = 0; i < players.size(); ++i) list.set(i, players[i]);
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, t_id](const AppendResult& r) {
        return state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          json::object out = checkin_json(*t);
          out["seq"] = r.last_seq;
          return json_response(ex->request, http::status::created, out);
        });
      });
}

void Api::drop_absent(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.display_text("reason", true, 1000);
  if (!fields.ok())
    return ex->respond(unprocessable(*ex, "api.player.drop_needs_reason", fields.errors()));
  const std::string t_id = ex->params.at("t");
  auto dropped = std::make_shared<std::vector<std::string>>();
  write(
      ex,
      [this, ex, t_id, reason = *reason, dropped] {
        Prepared p;
        dropped->clear();
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) {
            p.refusal = tournament_not_found(*ex, t_id);
          } else if (!t->checkin_open()) {
            // Nobody is checked in: "the absent" would be everyone.
            p.refusal =
                problem(*ex, http::status::conflict,
                        i18n::Message("api.checkin.not_open", {{"round", t->next_round()}}));
          } else {
            for (const auto* player : t->absent_players()) dropped->push_back(player->id);
            p.append.expected = ExpectedVersion::exactly(t->version);
          }
        });
        if (p.refusal) return p;
        if (dropped->empty()) {
          p.refusal = json_response(ex->request, http::status::ok,
                                    json::object{{"dropped", json::array()}, {"seq", nullptr}});
          return p;
        }
        for (const auto& id : *dropped) {
          Draft d = tournament_event(*ex, reason);
          d.event().getPayload().initPlayerDropped().setId(id);
          p.append.events.push_back(std::move(d));
        }
        p.append.stream = projections::tournament_stream(t_id);
        return p;
      },
      [this, ex, dropped](const AppendResult& r) {
        // On a repeated request the list is read back from the events it appended.
        json::array ids;
        auto view = store_.read_view();
        for (std::uint64_t seq = r.first_seq; seq != 0 && seq <= r.last_seq; ++seq) {
          if (auto e = view.event(seq); e && e->event().getPayload().isPlayerDropped())
            ids.emplace_back(e->event().getPayload().getPlayerDropped().getId().cStr());
        }
        return json_response(ex->request, http::status::ok,
                             json::object{{"dropped", std::move(ids)}, {"seq", r.last_seq}});
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
      fields.fail("minutes", "api.field.required");
    } else if (*minutes < 1 || *minutes > most) {
      fields.fail("minutes", i18n::Message("api.clock.minutes", {{"most", most}}), "minutes");
    }
  }
  if (action && !timed && minutes) fields.fail("minutes", "api.clock.minutes_only", "minutes");
  if (action == A::EXTEND && reason.empty())
    fields.fail("reason", "api.clock.extend_needs_reason", "reason");
  if (!fields.ok()) return ex->respond(unprocessable(*ex, "api.clock.invalid", fields.errors()));
  const std::string t_id = ex->params.at("t");
  auto number = std::make_shared<std::uint32_t>(0);
  write(
      ex,
      [this, ex, t_id, action = *action, minutes = minutes.value_or(0), reason, number] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          RoundRef found;
          if ((p.refusal = find_round(s, *ex, found))) return;
          const Tournament* t = found.tournament;
          const projections::Round& r = *found.round;
          if (auto refusal = r.clock.refusal(action, server_now_micros())) {
            p.refusal = problem(*ex, http::status::conflict,
                                i18n::Message(std::string(*refusal), {{"round", r.number}}),
                                {{"clock", "", "action",
                                  i18n::Message(std::string(*refusal), {{"round", r.number}})}});
            return;
          }
          *number = r.number;
          p.append.expected = ExpectedVersion::exactly(t->version);
        });
        if (p.refusal) return p;
        Draft d = tournament_event(*ex, reason);
        auto clock = d.event().getPayload().initRoundClock();
        clock.setRound(*number);
        clock.setAction(action);
        clock.setMinutes(static_cast<std::uint32_t>(minutes));
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, t_id](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        std::uint32_t number = event->event().getPayload().getRoundClock().getRound();
        return state_.read([&](const LiveState& s) {
          const projections::Round* round = s.tournament(t_id)->round(number);
          json::object out{{"seq", r.last_seq}, {"round", number}};
          out["clock"] = round ? json::value(clock_json(round->clock, server_now_micros()))
                               : json::value(nullptr);
          return json_response(ex->request, http::status::created, out);
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
  write(
      ex,
      [this, ex, t_id, final_given, force, reason] {
        Prepared p;
        std::uint32_t number = 0;
        bool final = false;
        state_.read([&](const LiveState& s) {
          RoundRef found;
          if ((p.refusal = find_round(s, *ex, found))) return;
          const Tournament* t = found.tournament;
          const projections::Round& r = *found.round;
          if (r.number != t->rounds.size()) {
            p.refusal = problem(*ex, http::status::conflict,
                                i18n::Message("api.round.close_not_last",
                                              {{"round", r.number}, {"last", t->rounds.size()}}));
          } else if (r.closed) {
            p.refusal = problem(*ex, http::status::conflict,
                                i18n::Message("api.round.closed_already", {{"round", r.number}}));
          } else if (auto open = unreported_tables(*t, *s.game_of(*t), r);
                     !open.empty() && !force) {
            p.refusal = unreported_refusal(*ex, r.number, open, "api.round.close_unreported");
          } else {
            number = r.number;
            // The last planned round closes the event unless the organizer says otherwise.
            const json::value* planned = t->rules.if_contains("rounds");
            bool last_planned = planned != nullptr && planned->is_int64() &&
                                planned->as_int64() == static_cast<std::int64_t>(number);
            final = final_given.value_or(last_planned);
            p.append.expected = ExpectedVersion::exactly(t->version);
          }
        });
        if (p.refusal) return p;
        Draft d = tournament_event(*ex, reason);
        auto closed = d.event().getPayload().initRoundClosed();
        closed.setRound(number);
        closed.setFinal(final);
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
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
