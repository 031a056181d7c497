#include "daemon/api/queries.hpp"

#include "daemon/api/json_diff.hpp"
#include "daemon/api/views.hpp"
#include "daemon/http/refusal_answer.hpp"
#include "deciders/proposals.hpp"
#include "deciders/table_action.hpp"
#include "deciders/void_event.hpp"
#include "projections/registration.hpp"
#include "projections/table_rules.hpp"
#include "schema/json_codec.hpp"
#include "schema/text.hpp"
#include "text/collation.hpp"
#include "text/json_writer.hpp"

#include <set>

namespace tally::daemon {

using projections::Tournament;

Response view_response(const Request& request, i18n::Lang lang, View view) {
  Response response = view.text ? json_text_response(request, view.status, std::move(*view.text))
                                : json_response(request, view.status, view.body);
  if (view.seq) response = with_seq(std::move(response), *view.seq);
  if (view.language) set_language(response, lang);
  if (view.version) response.set(http::field::etag, etag(*view.version));
  return response;
}

Response viewed_response(const Exchange& ex, Viewed viewed) {
  if (auto* refusal = std::get_if<deciders::Refusal>(&viewed)) return refusal_answer(ex, *refusal);
  return view_response(ex.request, ex.lang, std::move(std::get<View>(viewed)));
}

namespace queries {

namespace {

Audience audience_of(i18n::Lang lang, const Tournament& t) { return {lang, player_names(t)}; }

// The answer to a write that shows what `view` shows: its body with the write's seq as the last
// member, with `status`, and no Tally-Seq (the seq is in the body).
View written(json::object body, std::uint64_t seq, http::status status) {
  body["seq"] = seq;
  return View{.body = std::move(body), .status = status};
}

}  // namespace

// --- judges and replicas ------------------------------------------------------------------------

Viewed judges(const LiveState& s) {
  json::array out;
  for (const auto& j : s.judges()) {
    if (j.role != Role::judge) continue;
    out.push_back(json::object{{"id", j.id}, {"name", j.name}, {"revoked", j.revoked}});
  }
  return View{.body = std::move(out), .seq = s.seq()};
}

json::array judge_name_warnings(const LiveState& s, const Audience& audience, std::string_view id,
                                std::string_view name) {
  json::array warnings;
  const std::string key = text::same_name_key(name);
  for (const auto& j : s.judges()) {
    if (j.id == id || j.revoked || j.role != Role::judge) continue;
    if (text::same_name_key(j.name) != key) continue;
    warnings.push_back(json::object{
        {"rule", "same_name"},
        {"judge", j.id},
        {"message", audience.render(i18n::Message("api.judge.same_name",
                                                  {{"name", std::string(name)}, {"id", j.id}}))}});
  }
  return warnings;
}

bool is_standby_replica(const LiveState& s, std::string_view id) {
  const Judge* replica = s.judge(id);
  return replica != nullptr && replica->role == Role::replica && replica->standby;
}

json::array followers(const LiveState& s, const std::vector<ReplicationSource::Position>& positions,
                      std::uint64_t head_seq) {
  json::array list;
  for (const auto& j : s.judges()) {
    if (j.role != Role::replica) continue;
    json::object f{{"id", j.id},           {"name", j.name}, {"standby", j.standby},
                   {"revoked", j.revoked}, {"seq", nullptr}, {"lag_events", nullptr},
                   {"last_seen", nullptr}};
    for (const auto& p : positions) {
      if (p.id != j.id) continue;
      f["seq"] = p.seq;
      f["lag_events"] = head_seq > p.seq ? head_seq - p.seq : 0;
      f["last_seen"] = iso_time(p.seen_us);
    }
    list.push_back(std::move(f));
  }
  return list;
}

// --- tournaments and players --------------------------------------------------------------------

Viewed tournaments(const LiveState& s) {
  json::array out;
  for (const auto& [id, t] : s.tournaments()) out.push_back(tournament_summary_json(t));
  return View{.body = std::move(out), .seq = s.seq()};
}

Viewed tournament(const LiveState& s, const std::string& id, i18n::Lang lang) {
  const Tournament* t = s.tournament(id);
  if (t == nullptr) return deciders::tournament_not_found(id);
  return View{.body = tournament_json(*t, *s.game_of(*t), lang),
              .seq = t->last_seq,
              .language = true};  // its notices
}

Viewed tournament_written(const LiveState& s, const std::string& id, i18n::Lang lang,
                          std::uint64_t seq) {
  const Tournament* t = s.tournament(id);
  if (t == nullptr) return deciders::tournament_not_found(id);
  View view = written(tournament_json(*t, *s.game_of(*t), lang), seq, http::status::created);
  view.language = true;
  return view;
}

std::optional<json::array> player_name_warnings(const LiveState& s, i18n::Lang lang,
                                                const std::string& tournament,
                                                std::string_view name, std::string_view id) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return std::nullopt;
  return same_name_warnings(audience_of(lang, *t), *t, name, id);
}

Viewed player_renamed(const LiveState& s, i18n::Lang lang, const std::string& tournament,
                      const std::string& player, std::uint64_t seq) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const projections::Player* p = t->player(player);
  if (p == nullptr) return deciders::player_not_found(player, tournament);
  json::object out{{"id", player}, {"name", p->name}, {"seq", seq}};
  out["warnings"] = same_name_warnings(audience_of(lang, *t), *t, p->name, player);
  return View{.body = std::move(out), .language = true};
}

Viewed self_reporting(const LiveState& s, const std::string& tournament, std::uint64_t seq) {
  const Tournament* t = s.tournament(tournament);
  return View{.body = json::object{{"seq", seq != 0 ? seq : s.seq()},
                                   {"self_reporting", t != nullptr && t->self_reporting}}};
}

// --- rounds, check-in and the clock -------------------------------------------------------------

Viewed round(const LiveState& s, const deciders::RoundAddress& address, bool authorship) {
  RoundRef found;
  if (auto missing = find_round(s, address, found)) return std::move(*missing);
  const Tournament& t = *found.tournament;
  return View{.body = round_json(s, t, *s.game_of(t), *found.round, authorship), .seq = t.last_seq};
}

std::optional<TournamentCopy> tournament_copy(const LiveState& s, const std::string& id) {
  const Tournament* t = s.tournament(id);
  if (t == nullptr) return std::nullopt;
  return TournamentCopy{*t, s.game_of(*t)};
}

bool tournament_unchanged(const LiveState& s, const std::string& id, std::uint64_t last_seq) {
  const Tournament* now = s.tournament(id);
  return now != nullptr && now->last_seq == last_seq;
}

Viewed round_seated(const LiveState& s, i18n::Lang lang, const std::string& tournament,
                    const SeatedRound& seated) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const projections::Round* round = t->round(seated.number);
  if (round == nullptr || round->seq != seated.first_seq) {
    // Re-seated or withdrawn since: show the seating as it was appended.
    return View{
        .body =
            json::object{{"round", seated.number}, {"seq", seated.last_seq}, {"superseded", true}},
        .status = http::status::created};
  }
  View view =
      written(round_json(s, *t, *s.game_of(*t), *round), seated.last_seq, http::status::created);
  json::object& out = view.body.as_object();
  if (seated.copy != nullptr) out["left_out"] = left_out_json(*seated.copy);
  if (seated.seating != nullptr && !seated.seating->notice.empty())
    out["notice"] = audience_of(lang, *t).render(seated.seating->notice);
  if (seated.seating != nullptr) add_notes(out, audience_of(lang, *t), *seated.seating);
  view.language = true;  // its notice and notes
  return view;
}

Viewed checkin(const LiveState& s, const std::string& tournament, std::uint64_t seq) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  return written(checkin_json(*t), seq, http::status::created);
}

Viewed round_clock(const LiveState& s, const std::string& tournament, std::uint32_t number,
                   std::uint64_t seq, std::int64_t now_us) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const projections::Round* round = t->round(number);
  json::object out{{"seq", seq}, {"round", number}};
  out["clock"] = round ? json::value(clock_json(round->clock, now_us)) : json::value(nullptr);
  return View{.body = std::move(out), .status = http::status::created};
}

// --- tables -------------------------------------------------------------------------------------

Viewed table_written(const LiveState& s, const deciders::TableAddress& address,
                     const TableWrite& write) {
  TableRef ref;
  if (auto missing = find_table(s, address, ref)) return std::move(*missing);
  // Written straight into the body: table_json's members, then the write's own.
  std::string body;
  body.reserve(1024);
  text::JsonWriter out(body);
  out.begin_object();
  write_table_members(out, s, *ref.tournament, *ref.game, ref.round->number, *ref.seated);
  out.key("seq").number(std::uint64_t{write.seq});
  for (const auto& [key, value] : write.extra) out.key(key).value(value);
  out.end_object();
  return View{.text = std::move(body), .status = write.status, .version = write.version};
}

Viewed table_action_written(const LiveState& s, const deciders::TableAddress& address,
                            std::uint64_t first_seq, const TableWrite& write) {
  json::object out{{"seq", write.seq}, {"version", write.version}};
  TableRef ref;
  if (!find_table(s, address, ref)) {
    if (const auto* action = projections::action_with_seq(*ref.state, first_seq)) {
      for (auto& [k, v] : ref.game->describe_action(*ref.tournament, *ref.state, *action))
        out[k] = v;
    }
  }
  return View{.body = std::move(out), .status = write.status, .version = write.version};
}

Viewed table_check(const LiveState& s, const TableRequest& request, const deciders::Actor& actor) {
  TableRef ref;
  auto decision = decide_table_action(s, request, actor, ref);
  if (decision.refused()) return decision.refusal();
  const std::uint64_t would_be = s.seq() + 1;  // the seq the action would get
  Tournament tournament =
      deciders::tournament_with(ref, decision.accepted().append.events.front().reader(), would_be);
  const projections::TableState& after =
      tournament.tables.at({ref.round->number, ref.seated->number});
  json::object out{{"ok", true}, {"seq", s.seq()}};
  auto result = ref.game->table_result(tournament, after);
  out["result"] = result ? json::value(std::move(*result)) : json::value(nullptr);
  if (const auto* action = projections::action_with_seq(after, would_be)) {
    json::object described = ref.game->describe_action(tournament, after, *action);
    if (!described.empty()) out["action"] = std::move(described);
  }
  return View{.body = std::move(out), .seq = s.seq()};
}

// --- self-reporting -----------------------------------------------------------------------------

namespace {

json::object table_key_json(const TableKeys& keys, const Tournament& t,
                            const projections::Round& round, std::uint32_t table) {
  TableScope scope{t.id, round.number, table};
  std::string token = keys.token(scope, round.seq);
  return json::object{{"round", round.number},
                      {"table", table},
                      {"token", token},
                      {"url", TableKeys::report_url(scope, token)}};
}

}  // namespace

Viewed table_key(const LiveState& s, const deciders::TableAddress& address, const TableKeys& keys) {
  TableRef ref;
  if (auto missing = find_table(s, address, ref)) return std::move(*missing);
  if (auto off = deciders::self_reporting_refusal(*ref.tournament)) return std::move(*off);
  if (auto closed = deciders::table_keys_refusal(*ref.round)) return std::move(*closed);
  return View{.body = table_key_json(keys, *ref.tournament, *ref.round, ref.seated->number)};
}

Viewed round_keys(const LiveState& s, const deciders::RoundAddress& address,
                  const TableKeys& keys) {
  RoundRef ref;
  if (auto missing = find_round(s, address, ref)) return std::move(*missing);
  if (auto off = deciders::self_reporting_refusal(*ref.tournament)) return std::move(*off);
  if (auto closed = deciders::table_keys_refusal(*ref.round)) return std::move(*closed);
  json::array list;
  for (const auto& table : ref.round->tables)
    list.push_back(table_key_json(keys, *ref.tournament, *ref.round, table.number));
  return View{.body = json::object{{"round", ref.round->number}, {"keys", std::move(list)}}};
}

Viewed proposals(const LiveState& s, const deciders::TableAddress& address, ProposalReader reader) {
  TableRef ref;
  if (auto missing = find_table(s, address, ref)) return std::move(*missing);
  if (auto off = deciders::self_reporting_refusal(*ref.tournament)) return std::move(*off);
  json::array list;
  if (const auto* at = ref.tournament->proposals_at(ref.round->number, ref.seated->number)) {
    for (auto it = at->list.rbegin(); it != at->list.rend(); ++it)
      list.push_back(proposal_json(s, ref, *it, reader));
  }
  return View{.body = json::object{{"round", ref.round->number},
                                   {"table", ref.seated->number},
                                   {"seq", s.seq()},
                                   {"proposals", std::move(list)}},
              .seq = s.seq()};
}

Viewed round_proposals(const LiveState& s, const deciders::RoundAddress& address) {
  RoundRef round;
  if (auto missing = find_round(s, address, round)) return std::move(*missing);
  if (auto off = deciders::self_reporting_refusal(*round.tournament)) return std::move(*off);
  json::array list;
  for (const auto& seated : round.round->tables) {
    const auto* at = round.tournament->proposals_at(round.round->number, seated.number);
    const projections::Proposal* pending = at ? at->pending() : nullptr;
    if (pending == nullptr) continue;
    TableRef ref;
    point_at_table(s, round, seated, ref);
    list.push_back(proposal_json(s, ref, *pending, ProposalReader::judge));
  }
  return View{.body = json::object{{"round", round.round->number},
                                   {"seq", s.seq()},
                                   {"proposals", std::move(list)}},
              .seq = s.seq()};
}

Viewed proposal_written(const LiveState& s, const deciders::TableAddress& address, std::uint64_t id,
                        ProposalReader reader, std::uint64_t seq, http::status status) {
  TableRef ref;
  if (auto missing = find_table(s, address, ref)) return std::move(*missing);
  const auto* at = ref.tournament->proposals_at(ref.round->number, ref.seated->number);
  const projections::Proposal* p = at ? at->find(id) : nullptr;
  json::object out{{"seq", seq}};
  out["proposal"] = p ? json::value(proposal_json(s, ref, *p, reader)) : json::value(nullptr);
  return View{.body = std::move(out), .status = status};
}

// --- registration -------------------------------------------------------------------------------

namespace {

// The plan as the API shows it: every row, and the counts; then the file's encoding.
json::object import_json(const projections::ImportPlan& plan, const Tournament& t,
                         std::uint64_t seq, const CsvEncoding& encoding) {
  json::array rows;
  for (const auto& row : plan.rows) {
    json::object r{{"line", row.line},
                   {"id", row.id},
                   {"name", row.name},
                   {"status", projections::import_status_name(row.status)}};
    if (!row.previous_name.empty()) r["previous_name"] = row.previous_name;
    if (!row.matches.empty()) {
      json::array matches;
      for (const auto& id : row.matches) {
        const projections::Player* p = t.player(id);
        std::string name = p != nullptr ? p->name : "";
        if (p == nullptr) {  // a row earlier in the file
          for (const auto& other : plan.rows) {
            if (other.id == id) name = other.name;
          }
        }
        matches.push_back(json::object{{"id", id}, {"name", name}});
      }
      r["matches"] = std::move(matches);
    }
    rows.push_back(std::move(r));
  }
  using S = projections::ImportRow::Status;
  return json::object{{"rows", std::move(rows)},
                      {"added", plan.count(S::added)},
                      {"unchanged", plan.count(S::unchanged)},
                      {"changed", plan.count(S::changed)},
                      {"possible_duplicates", plan.count(S::possible_duplicate)},
                      {"seq", seq},
                      {"encoding", encoding.name},
                      {"encoding_detected", encoding.detected}};
}

}  // namespace

Viewed import_preview(const LiveState& s, const deciders::ImportPlayers& command,
                      const deciders::Actor& actor, const CsvEncoding& encoding) {
  const Tournament* t = s.tournament(command.tournament);
  auto decision = deciders::decide(t, command, actor);
  if (decision.refused()) return decision.refusal();
  const auto& facts = decision.accepted().facts;
  return View{.body = import_json(facts.plan, *t, facts.seq, encoding)};
}

Viewed players_imported(const LiveState& s, const std::string& tournament,
                        const deciders::ImportFacts* facts, std::uint64_t last_seq,
                        const CsvEncoding& encoding) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  // Nothing to write (a re-import of the same file): the plan is the answer, 200.
  if (last_seq == 0) return View{.body = import_json(facts->plan, *t, facts->seq, encoding)};
  // A repeated request (nothing decided here) shows the rows as they stand now.
  projections::ImportPlan shown = facts ? facts->plan : projections::ImportPlan{};
  return View{.body = import_json(shown, *t, last_seq, encoding), .status = http::status::created};
}

// --- reading ------------------------------------------------------------------------------------

bool tournament_exists(const LiveState& s, const std::string& id) {
  return s.tournament(id) != nullptr;
}

std::optional<Viewed> live_standings(const LiveState& s, const std::string& tournament,
                                     std::optional<std::uint64_t> as_of) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  if (as_of && *as_of < t->last_seq) return std::nullopt;  // the past: folded from the store
  json::object out = s.standings(*t);
  out["seq"] = t->last_seq;
  if (as_of) out["as_of"] = *as_of;  // asked for a moment at or after the newest event: now
  return View{.body = std::move(out), .seq = t->last_seq};
}

namespace {

// The event's payload as the audit shows it (`payload`: the active member's own object).
json::value payload_json(schema::Event::Reader e) {
  auto payload = schema::encode(capnp::toDynamic(e.getPayload()));
  return payload.empty() ? json::value(nullptr) : payload.begin()->value();
}

// Contract, third edition: what a correction or a void changed in what it replaced, per player —
// [{"player","player_name","field","from","to"}] ("Jana Nováková: vp_cards 1 → 0"). A void's
// `after` is null: every field goes to null.
json::array audit_changes(const Tournament& t, const json::value& before,
                          const json::value& after) {
  json::array out;
  const json::value nothing = json::object();  // a void holds nothing: not one null field
  for (auto& d : json_differences(before, after.is_null() ? nothing : after)) {
    const projections::Player* p = d.player.empty() ? nullptr : t.player(d.player);
    out.push_back(
        json::object{{"player", d.player.empty() ? json::value(nullptr) : json::value(d.player)},
                     {"player_name", p ? json::value(p->name) : json::value(nullptr)},
                     {"field", d.field},
                     {"from", std::move(d.before)},
                     {"to", std::move(d.after)}});
  }
  return out;
}

// Does the event's payload mention the player anywhere (results, claims, picks, seatings …)?
bool mentions(const json::value& v, std::string_view player) {
  switch (v.kind()) {
    case json::kind::string:
      return v.as_string() == player;
    case json::kind::array:
      for (const auto& x : v.as_array()) {
        if (mentions(x, player)) return true;
      }
      return false;
    case json::kind::object:
      for (const auto& [k, x] : v.as_object()) {
        if (mentions(x, player)) return true;
      }
      return false;
    default:
      return false;
  }
}

// Is `e` part of the round and table `filter` names? A table's history starts with the seating
// that made it.
bool in_round_and_table(const schema::StoredEvent& e, const AuditFilter& filter) {
  auto name = projections::parse_stream(e.event().getStream().cStr());
  auto payload = e.event().getPayload();
  const bool seating = payload.isRoundSeated();
  std::uint32_t event_round = seating ? payload.getRoundSeated().getRound() : name.round;
  if (filter.round && event_round != *filter.round) return false;
  if (!filter.table || name.table == *filter.table) return true;
  if (!seating) return false;
  for (auto st : payload.getRoundSeated().getTables()) {
    if (st.getTable() == *filter.table) return true;
  }
  return false;
}

}  // namespace

json::array audit_entries(const LiveState& s, const std::string& tournament,
                          const std::vector<schema::StoredEvent>& events, const AuditFilter& filter,
                          const deciders::Actor& actor) {
  std::map<std::uint64_t, std::uint64_t> superseded_by;
  for (const auto& e : events) {
    if (e.event().getSupersedes() != 0) superseded_by[e.event().getSupersedes()] = e.seq();
  }
  // What a superseded event held, for the `changes` of what replaced or voided it.
  std::map<std::uint64_t, json::value> superseded_payload;
  json::array out;
  const Tournament& t = *s.tournament(tournament);
  for (const auto& e : events) {
    if (superseded_by.contains(e.seq())) superseded_payload[e.seq()] = payload_json(e.event());
    if (!in_round_and_table(e, filter)) continue;
    json::object entry = event_json(e, &superseded_by);
    if (filter.player && !mentions(entry.at("payload"), *filter.player)) continue;
    entry["by_name"] = author_name(s, schema::text(e.event().getAuthor()));
    auto replaced = superseded_payload.find(e.event().getSupersedes());
    entry["changes"] = replaced == superseded_payload.end()
                           ? json::value(nullptr)
                           : json::value(audit_changes(t, replaced->second, entry.at("payload")));
    entry["voidable"] = !deciders::void_refusal(t, e.event(), e.seq(), actor).has_value();
    out.push_back(std::move(entry));
  }
  return out;
}

std::uint64_t applied_seq(const LiveState& s) { return s.seq(); }

// --- ratings (Q-6) ------------------------------------------------------------------------------

projections::RatedIdentity rating_identity(const LiveState& s, const Tournament& t,
                                           std::string_view player) {
  // a player linked to a person of a series is that person (the first series, by id, that
  // links the player: a person is a series' identity).
  for (const auto& [id, series] : s.all_series()) {
    if (series.game != t.game) continue;
    if (const projections::Person* person = series.person_of(t.id, player)) {
      projections::RatedIdentity who;
      who.key = "s/" + id + "/" + person->id;
      who.name = person->name;
      who.person = person->id;
      who.series = id;
      return who;
    }
  }
  return projections::tournament_identity(t, player);
}

Viewed ratings(const LiveState& s, const std::string& game_id) {
  const projections::Game* game = s.game(game_id);
  if (game == nullptr) {
    return deciders::Refusal{deciders::RefusalKind::not_found,
                             i18n::Message("api.game.not_found", {{"game", game_id}})};
  }
  // Rebuilt on every read, nothing cached: 1,250 Catan tables take 25–40 ms in a Release build,
  // most of it the game placing its tables (docs/series.md, "Ratings").
  const projections::IdentityOf identity = [&s](const Tournament& t, std::string_view player) {
    return rating_identity(s, t, player);
  };
  std::vector<std::vector<projections::RatedGame>> games;
  for (const auto& [id, t] : s.tournaments()) {
    if (t.game == game_id) games.push_back(projections::tournament_games(t, *game, identity));
  }
  // And the tournaments imported into series, each once even when two series imported it.
  std::set<std::pair<std::string, schema::Digest>> imported;
  for (const auto& [series_id, series] : s.all_series()) {
    if (series.game != game_id) continue;
    for (const auto& [t_id, import] : series.imports) {
      if (!imported.emplace(t_id, import.origin.log).second) continue;
      games.push_back(projections::tournament_games(import.tournament, *game, identity));
    }
  }
  // Players of many tournaments and locales: the root collation orders their names.
  const auto rows = projections::ranked(
      projections::rate_games(projections::merge_games(std::move(games))), text::Collation());
  json::array out;
  out.reserve(rows.size());
  for (const projections::RankedPlayer& row : rows) {
    const projections::RatedIdentity& who = row.player.identity;
    const projections::Rating& r = row.player.rating;
    json::object o;
    o.reserve(9);
    o.emplace("rank", row.rank);
    if (who.person.empty()) {
      o.emplace("person", nullptr);
      o.emplace("tournament", who.tournament);
      o.emplace("player", who.player);
    } else {
      o.emplace("person", who.person);
      o.emplace("series", who.series);
    }
    o.emplace("name", who.name);
    o.emplace("games", r.games);
    o.emplace("mu", r.mu);
    o.emplace("sigma", r.sigma);
    o.emplace("rating", r.display());
    out.emplace_back(std::move(o));
  }
  return View{.body = std::move(out), .seq = s.seq()};
}

}  // namespace queries
}  // namespace tally::daemon
