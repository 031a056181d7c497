// The HTTP API (docs/api.md): judges, tournaments, players, rounds, table actions,
// reading, audit. Handlers check a request against the live projections, build the events, and
// append them with the expected stream version they checked against — when the stream moved in
// between, they check again (optimistic concurrency). Game rules are reached only through the
// Game interface.
//
// Thread safety: handlers run on any I/O thread; store completions are posted back to the
// request's connection thread (Exchange::executor) so that no rendering happens on the store's
// writer thread. The slow organizer operations (verify, backup, export) run on a background
// thread of the Api's own; seating a round is computed on another thread of its own (seating_),
// on a copy of the tournament taken under the projection's lock, so that neither the I/O threads
// nor the store's writer (whose subscriber needs the lock exclusively) wait for it.
#pragma once

#include "daemon/api/queries.hpp"
#include "daemon/config.hpp"
#include "daemon/http/http.hpp"
#include "daemon/http/refusal_answer.hpp"
#include "daemon/http/router.hpp"
#include "daemon/http/table_token.hpp"
#include "daemon/live_state.hpp"
#include "daemon/metrics.hpp"
#include "daemon/replication/follower.hpp"
#include "daemon/replication/leadership.hpp"
#include "daemon/replication/replication_source.hpp"
#include "daemon/replication/standby_acks.hpp"
#include "deciders/decision.hpp"
#include "deciders/seat_round.hpp"
#include "deciders/table_action.hpp"
#include "events/store.hpp"
#include "projections/game.hpp"

#include <boost/asio/thread_pool.hpp>

#include <filesystem>
#include <functional>
#include <optional>

namespace tally::daemon {

struct TableRef;

// This server's part in replication (docs/operations.md, "A standby and a public mirror").
struct ReplicationRole {
  ReplicationSource& source;  // the log it serves its own followers
  Leadership& leadership;     // its epoch, and whether a newer one has fenced it
  StandbyAcks& acks;          // synchronous standbys (replicas_ack)
  const Follower* follower;   // set on a follower (tallyd --follow), null on a primary
};

// How a write command is run (Api::run_command).
struct CommandOptions {
  // The tournament whose players a refusal names by name (empty: none).
  std::string tournament;
  // See Prepared::answer_before_standby.
  bool answer_before_standby = false;
  // Where the decider runs (Api::PrepareOn): on the calling thread, or the seating thread.
  bool on_seating_thread = false;
  // Members a refusal's answer carries beside the problem's own (a table action's failed
  // precondition shows the table), made under the state's lock.
  std::function<json::object(const LiveState&, const deciders::Refusal&)> refusal_extra;
};

// How a query is run (Api::answer_query).
struct QueryOptions {
  // The tournament whose players a refusal names by name (empty: none).
  std::string tournament;
};

class Api {
 public:
  Api(events::EventStore& store, LiveState& state, const projections::GameRegistry& games,
      Metrics& metrics, const Config& config, const TableKeys& table_keys,
      ReplicationRole replication);

  // Waits for the background operations under way (before the I/O threads they answer on go).
  void finish_background_work();

  void add_routes(Router& router);

  // The route table: what add_routes adds, with handlers still to be bound to an Api (the fuzz
  // target routes requests through it without a store).
  struct RouteSpec {
    http::verb method;
    std::string pattern;
    Access access;
    std::function<void(Api&, const ExchangePtr&)> handler;
  };
  static std::vector<RouteSpec> routes();
  // The live feed's WebSocket (live.hpp): its route and who may open it.
  static constexpr const char* kLiveFeedRoute = "/v1/tournaments/{t}/live";
  static constexpr Access kLiveFeedAccess = Access::public_read;

 private:
  // What a write handler prepared: a refusal to send as is, or the events to append.
  struct Prepared {
    std::optional<Response> refusal;
    events::AppendRequest append;
    // Answered on this server's own fsync even with replicas_ack: an answer that shows a new
    // token once must never be lost to a 503 (the token would exist with nobody holding it),
    // and a standby's own token cannot wait for a standby.
    bool answer_before_standby = false;
  };
  using Prepare = std::function<Prepared()>;
  // Renders the answer to an appended (or idempotently repeated) write from its AppendResult.
  using Answer = std::function<Response(const events::AppendResult&)>;

  // Where a write's prepare runs: on the calling thread (an I/O thread, or the connection's after
  // a version conflict), or — for a prepare that takes seconds — on seating_, its refusal then
  // sent from the connection's thread. The answer is rendered on the connection's thread either
  // way.
  enum class PrepareOn { caller, seating_thread };

  // The write protocol every POST/PUT follows: an Idempotency-Key seen before is answered with
  // the original result; otherwise prepare → append → answer, preparing again (a bounded number
  // of times) when the stream moved between the check and the append.
  void write(const ExchangePtr& ex, Prepare prepare, Answer answer,
             PrepareOn where = PrepareOn::caller);
  void attempt(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
               PrepareOn where);
  // attempt() on the thread it is called on.
  void attempt_here(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
                    PrepareOn where);
  // Turns the store's answer into the HTTP answer (or another attempt after a conflict).
  void finish(const ExchangePtr& ex, Prepare prepare, Answer answer, int attempts_left,
              PrepareOn where, const events::AppendResult& result, bool wait_for_standby);

  // Renders the answer to an appended command; `facts` is what its decider found out, or null
  // on an idempotent repeat (nothing was decided: the answer reads the original events).
  template <typename Facts>
  using AnswerWith = std::function<Response(const events::AppendResult&, const Facts* facts)>;

  // The path of every write command: decide on the state (under its read lock) → append at the
  // version decided on → answer, with write()'s idempotency and its retry when the stream
  // moved. A refusal is answered by its kind (refusal_answer.hpp); an accepted command with no
  // events is answered at once, with an AppendResult of seq 0.
  template <typename Facts>
  void run_command(const ExchangePtr& ex,
                   std::function<deciders::Decision<Facts>(const LiveState&)> decide,
                   AnswerWith<Facts> answer, CommandOptions options = {});
  // The same for a command without facts.
  void run_command(const ExchangePtr& ex,
                   std::function<deciders::Decision<>(const LiveState&)> decide, Answer answer,
                   CommandOptions options = {}) {
    run_command<deciders::NoFacts>(
        ex, std::move(decide),
        [answer = std::move(answer)](const events::AppendResult& r, const deciders::NoFacts*) {
          return answer(r);
        },
        std::move(options));
  }

  // The one place that takes the state's read lock: `f(const LiveState&)` under it, and what it
  // returns. Everything that reads the state — commands, queries, the few values a handler
  // answers from elsewhere with — comes through here.
  template <typename F>
  auto read_state(F&& f) const {
    return state_.read(std::forward<F>(f));
  }

  // The path of every answer that shows the state: the query under the read lock — a refusal is
  // rendered there too, since it may name the tournament's players — then the view serialized
  // after the lock is released.
  Response answer_query(const Exchange& ex, const Query& query, const QueryOptions& options = {});
  // answer_query, sent.
  void run_query(const ExchangePtr& ex, const Query& query, const QueryOptions& options = {}) {
    ex->respond(answer_query(*ex, query, options));
  }
  // The answer to `refusal` for the reader, players of `tournament` (if any) by name.
  // REQUIRES: inside read_state() (the names are the state's).
  static Response refusal_under_lock(const LiveState& s, const Exchange& ex,
                                     const std::string& tournament,
                                     const deciders::Refusal& refusal, json::object extra = {});

  // --- judges ---
  void create_judge(const ExchangePtr& ex);
  void list_judges(const ExchangePtr& ex);
  void revoke_judge(const ExchangePtr& ex);
  void add_token_holder(const ExchangePtr& ex, Role role);
  void revoke_token_holder(const ExchangePtr& ex, Role role);
  // --- replication (api_replication.cpp) ---
  void create_replica(const ExchangePtr& ex);
  void revoke_replica(const ExchangePtr& ex);
  void replication_status(const ExchangePtr& ex);  // GET /v1/replication
  void replication_log(const ExchangePtr& ex);     // GET /v1/replication/log (followers)
  void lift_fence(const ExchangePtr& ex);          // DELETE /v1/replication/fence
  // GET /v1/replication/table-keys: the table tokens' secret, for a standby to keep.
  void replication_table_keys(const ExchangePtr& ex);
  // A follower takes no write: 503 with Tally-Primary; nor does a former primary (fenced).
  std::optional<Response> unless_primary(const Exchange& ex) const;
  // Sends a write's answer once the standbys have its events (replicas_ack; at once without).
  void respond_when_replicated(const ExchangePtr& ex, Response answer, std::uint64_t last_seq);
  // /healthz's and GET /v1/replication's word on the synchronous standbys (replicas_ack).
  static json::object standby_json(const StandbyAcks::State& s);
  // --- tournaments, players, rounds ---
  void create_tournament(const ExchangePtr& ex);
  void list_tournaments(const ExchangePtr& ex);
  void get_tournament(const ExchangePtr& ex);
  void add_player(const ExchangePtr& ex);
  void drop_player(const ExchangePtr& ex);
  void reinstate_player(const ExchangePtr& ex);
  // Drops (`drop`) or reinstates a player: one command, two directions.
  void change_dropped(const ExchangePtr& ex, bool drop);
  void rename_player(const ExchangePtr& ex);
  // POST …/players/import (check_only: …/players/import/check): a CSV file's players.
  void import_players(const ExchangePtr& ex, bool check_only);
  // --- registration before the day (Q-7, registrations.cpp) ---
  void register_for(const ExchangePtr& ex);         // POST …/registrations (anyone)
  void registration_status(const ExchangePtr& ex);  // GET …/registration (anyone)
  void get_registration(const ExchangePtr& ex);     // GET …/registrations/{r} (the key)
  void cancel_registration(const ExchangePtr& ex);  // DELETE …/registrations/{r} (the key)
  void list_registrations(const ExchangePtr& ex);   // GET …/registrations (organizer)
  // POST …/registrations/admit (check_only: …/admit/check): the registrations holding a place
  // turned into players, through the CSV import's plan and preview.
  void admit_registrations(const ExchangePtr& ex, bool check_only);
  // PATCH …/{t} with `registration` and/or `capacity`.
  void patch_registration(const ExchangePtr& ex, const json::object& body);
  // The SHA-256 of the Registration-Key header, or nullopt when there is none.
  static std::optional<std::string> registration_key_hash(const Exchange& ex);
  // --- seating constraints and penalties (constraints.cpp) ---
  void keep_apart(const ExchangePtr& ex);    // POST …/keep-apart (S-9)
  void give_penalty(const ExchangePtr& ex);  // POST …/players/{p}/penalties (S-11)
  // PATCH …/players/{p} with `fixed_table` (S-10), a name beside it or not.
  void patch_player(const ExchangePtr& ex, const json::object& body);
  void seat_round(const ExchangePtr& ex);
  // POST …/rounds/check: the seating POST …/rounds would make, written nowhere.
  void check_seating(const ExchangePtr& ex);
  void get_round(const ExchangePtr& ex);
  // --- running the event ---
  void rotate_organizer_token(const ExchangePtr& ex);
  void check_in(const ExchangePtr& ex);
  void drop_absent(const ExchangePtr& ex);
  void round_clock(const ExchangePtr& ex);
  void close_round(const ExchangePtr& ex);

  // A seating request as the body gives it (a 422 is answered when it cannot be read).
  using SeatingBody = deciders::SeatRound;
  std::optional<SeatingBody> seating_body(const ExchangePtr& ex);
  // The seating computed for a write or a preview, with the tournament it was computed on.
  struct SeatingPlan {
    std::optional<projections::Tournament> tournament;
    std::optional<projections::Seating> seating;
  };
  Prepared prepare_seating(const ExchangePtr& ex, const std::string& t_id, const SeatingBody& body,
                           SeatingPlan& plan);
  static Response seating_preview(const Exchange& ex, const SeatingPlan& plan);
  // --- stages (stages.cpp) ---
  void start_stage(const ExchangePtr& ex);  // POST …/stages
  void check_stage(const ExchangePtr& ex);  // POST …/stages/check: what starting it would do
  // The server's own follow-up of a knockout's result (deciders::AdvanceBracket): appended
  // before the judge's answer, so that whoever reads the answer finds the next round seated.
  void advance_bracket(const std::string& t_id);
  // --- a series (series.cpp, docs/series.md) ---
  void create_series(const ExchangePtr& ex);             // POST /v1/series
  void list_series(const ExchangePtr& ex);               // GET /v1/series
  void get_series(const ExchangePtr& ex);                // GET /v1/series/{s}
  void add_series_tournament(const ExchangePtr& ex);     // POST …/tournaments
  void import_series_tournament(const ExchangePtr& ex);  // POST …/imports
  void get_series_tournament(const ExchangePtr& ex);     // GET …/tournaments/{t}
  void series_standings(const ExchangePtr& ex);          // GET …/standings[?as_of=SEQ]
  void add_person(const ExchangePtr& ex);                // POST …/people
  void get_person(const ExchangePtr& ex);                // GET …/people/{p}
  void decide_link(const ExchangePtr& ex);               // POST …/links
  void list_links(const ExchangePtr& ex);                // GET …/links
  // --- table actions ---
  void put_result(const ExchangePtr& ex);
  // POST …/{action} (a claim, pick, scoring …) or, with check_only, POST …/{action}/check.
  void post_table_action(const ExchangePtr& ex, bool check_only);
  // The one path of every table action, by the game's action name ("result", "claims" …).
  void table_action(const ExchangePtr& ex, const std::string& action, bool check_only);
  void table_check(const ExchangePtr& ex, const deciders::TableAction& req);
  void auto_actions(const ExchangePtr& ex);
  void void_event(const ExchangePtr& ex);
  // --- self-reporting (api_proposals.cpp) ---
  void patch_tournament(const ExchangePtr& ex);
  void table_key(const ExchangePtr& ex);   // GET …/tables/{n}/key
  void round_keys(const ExchangePtr& ex);  // GET …/rounds/{r}/keys: every table's at once
  void propose(const ExchangePtr& ex);
  void list_proposals(const ExchangePtr& ex);   // one table's, newest first
  void round_proposals(const ExchangePtr& ex);  // the round's pending ones
  void flag_proposal(const ExchangePtr& ex);
  void reject_proposal(const ExchangePtr& ex);
  void approve_proposal(const ExchangePtr& ex);
  enum class ProposalReply { flag, reject };
  void answer_proposal(const ExchangePtr& ex, ProposalReply reply);
  // --- reading ---
  void standings(const ExchangePtr& ex);
  void audit(const ExchangePtr& ex);
  void events(const ExchangePtr& ex);
  void verify(const ExchangePtr& ex);
  void healthz(const ExchangePtr& ex);
  void metrics(const ExchangePtr& ex);
  // --- the games ---
  void list_games(const ExchangePtr& ex);
  void ratings(const ExchangePtr& ex);
  void game_calculation(const ExchangePtr& ex);
  // --- operations ---
  void backup(const ExchangePtr& ex);
  void export_log(const ExchangePtr& ex);
  std::filesystem::path backup_dir() const;

  // A result's write answers 200 when it replaced a result, else 201: as decided (`decided`), or
  // for an idempotent repeat (nothing prepared) as the original event says.
  http::status result_status(const deciders::TableActionFacts* decided,
                             const events::AppendResult& r) const;
  // CommandOptions::refusal_extra of a table action: the table, with a failed precondition.
  static std::function<json::object(const LiveState&, const deciders::Refusal&)>
  table_on_precondition(const ExchangePtr& ex);
  // The table answer (GET round's table entry plus seq, and `extra`'s members) for a table write.
  Response table_answer(const ExchangePtr& ex, const events::AppendResult& result,
                        http::status status, json::object extra = {});

  events::EventStore& store_;
  LiveState& state_;
  const projections::GameRegistry& games_;
  Metrics& metrics_;
  const Config& config_;
  const TableKeys& table_keys_;
  const EmailSeal email_seal_;  // registrants' e-mail addresses
  ReplicationRole replication_;
  // A scan of the whole log or a checkpoint takes seconds on a big store: on an I/O thread it
  // would hold up every judge whose connection shares that thread.
  boost::asio::thread_pool background_{1};
  // Seating a round by standings takes seconds on a big field (the search for fewest repeat
  // meetings). It runs here, one seating at a time, never on an I/O thread nor under the
  // projection's lock; not on background_, where a verify or an export can take minutes.
  boost::asio::thread_pool seating_{1};
};

template <typename Facts>
void Api::run_command(const ExchangePtr& ex,
                      std::function<deciders::Decision<Facts>(const LiveState&)> decide,
                      AnswerWith<Facts> answer, CommandOptions options) {
  // The facts of the attempt that was appended (a retry decides again and replaces them).
  auto facts = std::make_shared<std::optional<Facts>>();
  auto answer_shared = std::make_shared<AnswerWith<Facts>>(std::move(answer));
  const bool before_standby = options.answer_before_standby;
  write(
      ex,
      [this, ex, decide = std::move(decide), facts, answer_shared, before_standby,
       tournament = std::move(options.tournament),
       refusal_extra = std::move(options.refusal_extra)] {
        Prepared p;
        std::optional<deciders::Decision<Facts>> decision;
        read_state([&](const LiveState& s) {
          decision.emplace(decide(s));
          if (!decision->refused()) return;
          p.refusal = refusal_under_lock(
              s, *ex, tournament, decision->refusal(),
              refusal_extra ? refusal_extra(s, decision->refusal()) : json::object());
        });
        if (p.refusal) return p;
        auto& accepted = decision->accepted();
        *facts = std::move(accepted.facts);
        if (accepted.append.events.empty()) {
          events::AppendResult nothing;
          nothing.status = events::AppendStatus::appended;
          p.refusal = (*answer_shared)(nothing, &**facts);
          return p;
        }
        p.append.stream = std::move(accepted.append.stream);
        p.append.expected = accepted.append.expected;
        p.append.events = std::move(accepted.append.events);
        p.answer_before_standby = before_standby;
        return p;
      },
      [facts, answer_shared](const events::AppendResult& r) {
        // An idempotent repeat decided nothing: its answer reads the original events.
        const bool decided = r.status == events::AppendStatus::appended && facts->has_value();
        return (*answer_shared)(r, decided ? &**facts : nullptr);
      },
      options.on_seating_thread ? PrepareOn::seating_thread : PrepareOn::caller);
}

}  // namespace tally::daemon
