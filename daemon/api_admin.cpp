// Judges, tournaments, players and rounds: the organizer's part of the API.
#include "daemon/api.hpp"
#include "daemon/body.hpp"
#include "daemon/log.hpp"
#include "daemon/secrets.hpp"
#include "daemon/views.hpp"
#include "events/sha256.hpp"
#include "projections/collation.hpp"

namespace tally::daemon {

using events::AppendResult;
using events::Draft;
using events::ExpectedVersion;
using projections::Tournament;

namespace {

constexpr std::string_view kJudgesStream = "judges";
// How many copies of a tournament a seating is computed on before it gives up (409) because the
// tournament kept changing while it was computed.
constexpr int kSeatingCopies = 5;

Response not_found(const Request& request, std::string_view what) {
  return problem(request, http::status::not_found, what);
}

Response tournament_not_found(const Request& request, std::string_view id) {
  return not_found(request, "no tournament \"" + std::string(id) + "\"");
}

std::optional<schema::SeatingMethod> parse_method(const std::string& name) {
  if (name == "random") return schema::SeatingMethod::RANDOM;
  if (name == "standings") return schema::SeatingMethod::STANDINGS;
  if (name == "manual") return schema::SeatingMethod::MANUAL;
  return std::nullopt;
}

}  // namespace

// --- judges ----------------------------------------------------------------------------------

void Api::create_judge(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"name"});
  auto name = fields.text("name", true);
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "invalid judge", fields.errors()));

  // Made once: a retry after a version conflict appends the same token's hash.
  auto token = std::make_shared<std::string>(random_token());
  auto id = std::make_shared<std::string>();
  write(
      ex,
      [this, ex, name = *name, token, id] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          std::size_t n = s.judges().size();
          do {
            *id = "j" + std::to_string(n++);
          } while (s.judge(*id) != nullptr);
          p.append.expected = ExpectedVersion::exactly(s.judges_version());
        });
        Draft d;
        auto e = d.event();
        e.setAuthor(ex->identity.id);
        auto added = e.getPayload().initJudgeAdded();
        added.setId(*id);
        added.setName(name);
        added.setRole(schema::Role::JUDGE);
        auto hash = events::sha256(*token);
        added.setTokenHash(capnp::Data::Reader(hash.data(), hash.size()));
        p.append.stream = kJudgesStream;
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, token](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        json::object out{{"seq", r.last_seq}};
        if (event) {
          auto added = event->event().getPayload().getJudgeAdded();
          out["id"] = added.getId().cStr();
          out["name"] = added.getName().cStr();
        }
        // The token exists only in this answer; a repeated request cannot show it again.
        out["token"] = r.status == events::AppendStatus::appended ? json::value(*token) : nullptr;
        return json_response(ex->request, http::status::created, out);
      });
}

void Api::list_judges(const ExchangePtr& ex) {
  auto [seq, list] = state_.read([](const LiveState& s) {
    json::array out;
    for (const auto& j : s.judges()) {
      if (j.role == Role::organizer) continue;
      out.push_back(json::object{{"id", j.id}, {"name", j.name}, {"revoked", j.revoked}});
    }
    return std::make_pair(s.seq(), out);
  });
  ex->respond(with_seq(json_response(ex->request, http::status::ok, list), seq));
}

void Api::revoke_judge(const ExchangePtr& ex) {
  std::string id = ex->params.at("id");
  write(
      ex,
      [this, ex, id] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          const Judge* j = s.judge(id);
          if (j == nullptr || j->role == Role::organizer) {
            p.refusal = not_found(ex->request, "no judge \"" + id + "\"");
          } else if (j->revoked) {
            p.refusal = problem(ex->request, http::status::conflict,
                                "judge \"" + id + "\" is already revoked");
          }
          p.append.expected = ExpectedVersion::exactly(s.judges_version());
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(ex->identity.id);
        d.event().getPayload().initJudgeRevoked().setId(id);
        p.append.stream = kJudgesStream;
        p.append.events.push_back(std::move(d));
        return p;
      },
      [ex, id](const AppendResult& r) {
        return json_response(ex->request, http::status::ok,
                             json::object{{"id", id}, {"revoked", true}, {"seq", r.last_seq}});
      });
}

// --- tournaments and players -----------------------------------------------------------------

void Api::create_tournament(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name", "game", "locale", "rules"});
  auto id = fields.text("id", true, 64);
  auto name = fields.text("name", true);
  auto game_id = fields.text("game", true, 32);
  auto locale = fields.text("locale", false, 32).value_or("");
  const json::object* overrides = fields.object("rules");
  if (id && !valid_tournament_id(*id))
    fields.fail("id", "must match [a-z0-9][a-z0-9-]{0,63}", "id");
  const projections::Game* game = game_id ? games_.find(*game_id) : nullptr;
  if (game_id && game == nullptr) {
    std::string known;
    for (auto& g : games_.ids()) known += (known.empty() ? "" : ", ") + g;
    fields.fail("game", "must be one of " + known, "game");
  }
  if (!is_known_collation_locale(locale)) {
    fields.fail("locale", "is not a collation locale this server knows (e.g. cs, it, ru)",
                "locale");
  }
  json::object rules;
  if (game != nullptr && fields.ok()) {
    auto normalized = game->normalize_rules(overrides ? *overrides : json::object());
    if (!normalized) {
      return ex->respond(
          unprocessable(ex->request, "invalid rules", rule_errors(normalized.errors)));
    }
    rules = std::move(*normalized.value);
  }
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "invalid tournament", fields.errors()));

  write(
      ex,
      [this, ex, id = *id, name = *name, game_id = *game_id, locale, rules] {
        Prepared p;
        bool exists = state_.read([&](const LiveState& s) { return s.tournament(id) != nullptr; });
        if (exists) {
          p.refusal = problem(ex->request, http::status::conflict,
                              "a tournament \"" + id + "\" already exists");
          return p;
        }
        Draft d;
        auto e = d.event();
        e.setAuthor(ex->identity.id);
        auto created = e.getPayload().initTournamentCreated();
        created.setId(id);
        created.setName(name);
        created.setGame(game_id);
        created.setLocale(locale);
        created.setRules(json::serialize(rules));
        p.append.stream = projections::tournament_stream(id);
        p.append.expected = ExpectedVersion::no_stream();
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, id = *id](const AppendResult& r) {
        return state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(id);
          json::object out = tournament_json(*t, *s.game_of(*t));
          out["seq"] = r.last_seq;
          return json_response(ex->request, http::status::created, out);
        });
      });
}

void Api::list_tournaments(const ExchangePtr& ex) {
  auto [seq, list] = state_.read([](const LiveState& s) {
    json::array out;
    for (const auto& [id, t] : s.tournaments()) out.push_back(tournament_summary_json(t));
    return std::make_pair(s.seq(), out);
  });
  ex->respond(with_seq(json_response(ex->request, http::status::ok, list), seq));
}

void Api::get_tournament(const ExchangePtr& ex) {
  const std::string& id = ex->params.at("t");
  ex->respond(state_.read([&](const LiveState& s) {
    const Tournament* t = s.tournament(id);
    if (t == nullptr) return tournament_not_found(ex->request, id);
    return with_seq(
        json_response(ex->request, http::status::ok, tournament_json(*t, *s.game_of(*t))),
        t->last_seq);
  }));
}

void Api::add_player(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"id", "name"});
  auto id = fields.text("id", false, 64);
  auto name = fields.text("name", true);
  if (id && !valid_player_id(*id)) {
    fields.fail("id", "must be 1–64 letters, digits, '-', '_' or '.'", "id");
  }
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "invalid player", fields.errors()));
  const std::string t_id = ex->params.at("t");
  auto chosen = std::make_shared<std::string>();

  write(
      ex,
      [this, ex, t_id, id, name = *name, chosen] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) {
            p.refusal = tournament_not_found(ex->request, t_id);
            return;
          }
          if (id) {
            if (t->player(*id) != nullptr) {
              p.refusal = problem(ex->request, http::status::conflict,
                                  "player \"" + *id + "\" is already registered");
              return;
            }
            *chosen = *id;
          } else {
            std::size_t n = t->players.size() + 1;
            do {
              *chosen = "p" + std::to_string(n++);
            } while (t->player(*chosen) != nullptr);
          }
          p.append.expected = ExpectedVersion::exactly(t->version);
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(ex->identity.id);
        auto registered = d.event().getPayload().initPlayerRegistered();
        registered.setId(*chosen);
        registered.setName(name);
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        auto registered = event->event().getPayload().getPlayerRegistered();
        return json_response(ex->request, http::status::created,
                             json::object{{"id", registered.getId().cStr()},
                                          {"name", registered.getName().cStr()},
                                          {"seq", r.last_seq}});
      });
}

void Api::drop_player(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"reason"});
  auto reason = fields.text("reason", true, 1000);
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "a drop needs a reason", fields.errors()));
  const std::string t_id = ex->params.at("t"), player = ex->params.at("p");

  write(
      ex,
      [this, ex, t_id, player, reason = *reason] {
        Prepared p;
        state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          if (t == nullptr) {
            p.refusal = tournament_not_found(ex->request, t_id);
          } else if (const auto* pl = t->player(player); pl == nullptr) {
            p.refusal = not_found(ex->request, "no player \"" + player + "\" in " + t_id);
          } else if (pl->dropped) {
            p.refusal = problem(ex->request, http::status::conflict,
                                "player \"" + player + "\" is already dropped");
          } else {
            p.append.expected = ExpectedVersion::exactly(t->version);
          }
        });
        if (p.refusal) return p;
        Draft d;
        d.event().setAuthor(ex->identity.id);
        d.event().setReason(reason);
        d.event().getPayload().initPlayerDropped().setId(player);
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [ex, player](const AppendResult& r) {
        return json_response(ex->request, http::status::ok,
                             json::object{{"id", player}, {"dropped", true}, {"seq", r.last_seq}});
      });
}

// --- rounds ----------------------------------------------------------------------------------

void Api::seat_round(const ExchangePtr& ex) {
  auto body = body_or_answer(ex);
  if (!body) return;
  BodyFields fields(*body, {"method", "seed", "tables", "reason", "force"});
  auto method_name = fields.text("method", false, 16);
  auto seed = fields.unsigned_integer("seed");
  const json::array* tables = fields.array("tables");
  auto reason = fields.text("reason", false, 1000).value_or("");
  bool force = fields.boolean("force").value_or(false);

  projections::SeatingRequest request;
  if (method_name) {
    request.method = parse_method(*method_name);
    if (!request.method) fields.fail("method", "must be random, standings or manual", "method");
  }
  bool manual = request.method == schema::SeatingMethod::MANUAL;
  if (manual && tables == nullptr)
    fields.fail("tables", "is required for manual seating", "tables");
  if (!manual && tables != nullptr) fields.fail("tables", "is only for manual seating", "tables");
  if (seed && request.method && request.method != schema::SeatingMethod::RANDOM) {
    fields.fail("seed", "is only for random seating", "seed");
  }
  if (force && reason.empty()) fields.fail("reason", "is required to force a round", "reason");
  if (tables != nullptr) {
    for (std::size_t i = 0; i < tables->size(); ++i) {
      const json::value& table = (*tables)[i];
      std::vector<std::string> players;
      if (table.is_array()) {
        for (const auto& p : table.as_array()) {
          if (p.is_string()) players.emplace_back(p.as_string());
        }
      }
      if (!table.is_array() || players.size() != table.as_array().size()) {
        fields.fail("tables", "table " + std::to_string(i + 1) + " must be an array of player ids");
      }
      request.tables.push_back(std::move(players));
    }
  }
  if (!fields.ok())
    return ex->respond(unprocessable(ex->request, "invalid seating request", fields.errors()));
  request.seed = seed.value_or(random_seed());  // kept across retries: the draw is the same
  request.reason = reason;
  const std::string t_id = ex->params.at("t");

  // Runs on seating_ (PrepareOn::seating_thread): the projection's lock is held only to copy the
  // tournament and, after the seating is computed on the copy, to check that the tournament has
  // not moved since (its last_seq covers its own stream and its tables' streams). A seating
  // computed on a stale copy is computed again on a fresh one; the append then expects the
  // tournament stream's version the copy had.
  // What the game says of the seating it appends (e.g. its search stopped at its budget), for the
  // answer; an idempotent replay answers without it.
  auto notice = std::make_shared<std::string>();
  write(
      ex,
      [this, ex, t_id, request, force, reason, notice] {
        Prepared p;
        std::optional<projections::Seating> seating;
        std::uint32_t number = 0;
        for (int copies = 0; copies < kSeatingCopies; ++copies) {
          std::optional<Tournament> copy;
          const projections::Game* game = nullptr;
          state_.read([&](const LiveState& s) {
            if (const Tournament* t = s.tournament(t_id)) {
              copy = *t;  // events are shared: a copy is cheap next to the seating
              game = s.game_of(*t);
            }
          });
          if (!copy) {
            p.refusal = tournament_not_found(ex->request, t_id);
            return p;
          }
          p.refusal.reset();
          seating.reset();
          const Tournament& t = *copy;
          if (!t.rounds.empty() && !force) {
            // A round is seated only once the previous one is fully reported, unless forced.
            const projections::Round& last = t.rounds.back();
            json::array open;
            for (const auto& seated : last.tables) {
              const auto* table = t.table(last.number, seated.number);
              auto blank = projections::blank_table(last.number, seated.number);
              if (!game->table_result(t, table ? *table : blank)) open.emplace_back(seated.number);
            }
            if (!open.empty()) {
              p.refusal = problem(
                  ex->request, http::status::conflict,
                  "round " + std::to_string(last.number) + " has " + std::to_string(open.size()) +
                      " unreported table(s); report them first or force the round with a reason",
                  json::array{
                      json::object{{"rule", "round.unreported"},
                                   {"field", "force"},
                                   {"tables", open},
                                   {"message", "the previous round is not fully reported"}}});
            }
          }
          if (!p.refusal) {
            projections::SeatingRequest r = request;
            number = static_cast<std::uint32_t>(t.rounds.size() + 1);
            r.round = number;
            auto outcome = game->seat_round(t, r);
            if (outcome) {
              seating = std::move(outcome.value);
            } else {
              p.refusal = unprocessable(ex->request, "this round cannot be seated",
                                        rule_errors(outcome.errors));
            }
          }
          // The answer (a seating or a refusal) stands only for the tournament as it still is.
          bool current = state_.read([&](const LiveState& s) {
            const Tournament* now = s.tournament(t_id);
            return now != nullptr && now->last_seq == t.last_seq;
          });
          if (current) {
            if (!p.refusal) p.append.expected = ExpectedVersion::exactly(t.version);
            break;
          }
          log::info("seating discarded: the tournament changed while it was computed",
                    {{"request_id", ex->request_id},
                     {"tournament", t_id},
                     {"copy_seq", t.last_seq},
                     {"copies", copies + 1}});
          p.refusal = problem(ex->request, http::status::conflict,
                              "the tournament kept changing while the round was seated; try again");
          seating.reset();
        }
        if (p.refusal) return p;
        *notice = seating->notice.key;  // TODO(i18n): rendered in the reader's language
        Draft d;
        auto e = d.event();
        e.setAuthor(ex->identity.id);
        e.setReason(reason);
        auto seated = e.getPayload().initRoundSeated();
        seated.setRound(number);
        seated.setMethod(seating->method);
        seated.setSeed(seating->method == schema::SeatingMethod::RANDOM ? seating->seed : 0);
        seated.setForced(force);
        auto list = seated.initTables(static_cast<unsigned>(seating->tables.size()));
        for (unsigned i = 0; i < seating->tables.size(); ++i) {
          const auto& table = seating->tables[i];
          list[i].setTable(table.number);
          auto players = list[i].initPlayers(static_cast<unsigned>(table.players.size()));
          for (unsigned j = 0; j < table.players.size(); ++j) players.set(j, table.players[j]);
          list[i].setLeague(table.league);
          if (!table.rating_leagues.empty()) {
            auto leagues =
                list[i].initRatingLeagues(static_cast<unsigned>(table.rating_leagues.size()));
            for (unsigned j = 0; j < table.rating_leagues.size(); ++j)
              leagues.set(j, table.rating_leagues[j]);
          }
        }
        p.append.stream = projections::tournament_stream(t_id);
        p.append.events.push_back(std::move(d));
        return p;
      },
      [this, ex, t_id, notice](const AppendResult& r) {
        auto event = store_.read_view().event(r.first_seq);
        std::uint32_t number = event->event().getPayload().getRoundSeated().getRound();
        return state_.read([&](const LiveState& s) {
          const Tournament* t = s.tournament(t_id);
          const projections::Round* round = t->round(number);
          if (round == nullptr || round->seq != r.first_seq) {
            // Re-seated or withdrawn since: show the seating as it was appended.
            return json_response(
                ex->request, http::status::created,
                json::object{{"round", number}, {"seq", r.last_seq}, {"superseded", true}});
          }
          json::object out = round_json(s, *t, *s.game_of(*t), *round);
          out["seq"] = r.last_seq;
          if (!notice->empty()) out["notice"] = *notice;
          return json_response(ex->request, http::status::created, out);
        });
      },
      PrepareOn::seating_thread);
}

void Api::get_round(const ExchangePtr& ex) {
  const std::string& t_id = ex->params.at("t");
  ex->respond(state_.read([&](const LiveState& s) {
    const Tournament* t = s.tournament(t_id);
    if (t == nullptr) return tournament_not_found(ex->request, t_id);
    const projections::Round* round = nullptr;
    try {
      round = t->round(static_cast<std::uint32_t>(std::stoul(ex->params.at("r"))));
    } catch (const std::exception&) {
    }
    if (round == nullptr)
      return not_found(ex->request, "no round " + ex->params.at("r") + " in " + t_id);
    return with_seq(
        json_response(ex->request, http::status::ok, round_json(s, *t, *s.game_of(*t), *round)),
        t->last_seq);
  }));
}

}  // namespace tally::daemon
