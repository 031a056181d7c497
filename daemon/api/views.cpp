#include "daemon/api/views.hpp"
#include "daemon/api/constraints_view.hpp"

#include "daemon/http/language.hpp"
#include "deciders/unreported.hpp"
#include "projections/registration.hpp"
#include "schema/json_codec.hpp"
#include "schema/text.hpp"

#include <chrono>
#include <ctime>
#include <optional>

namespace tally::daemon {

namespace json = boost::json;
using projections::Tournament;

namespace {
using schema::text;
}  // namespace

const char* method_name(schema::SeatingMethod method) {
  switch (method) {
    case schema::SeatingMethod::RANDOM:
      return "random";
    case schema::SeatingMethod::STANDINGS:
      return "standings";
    case schema::SeatingMethod::MANUAL:
      return "manual";
    case schema::SeatingMethod::SNAKE:
      return "snake";
    case schema::SeatingMethod::KNOCKOUT:
      return "knockout";
  }
  return "manual";
}

json::object event_json(const schema::StoredEvent& stored,
                        const std::map<std::uint64_t, std::uint64_t>* superseded_by,
                        bool authorship) {
  auto e = stored.event();
  auto payload = schema::encode(capnp::toDynamic(e.getPayload()));
  json::value body = nullptr;
  if (!payload.empty()) body = payload.begin()->value();  // the active member's struct
  json::object out{
      {"seq", stored.seq()},
      {"type", schema::payload_type(e.getPayload().which())},
      {"stream", text(e.getStream())},
      {"version", e.getVersion()},
      {"at", iso_time(e.getRecordedAt())},
      {"by", authorship ? json::value(text(e.getAuthor())) : nullptr},
      {"payload", std::move(body)},
      {"reason", authorship ? json::value(text(e.getReason())) : nullptr},
      {"supersedes",
       e.getSupersedes() == 0 ? json::value(nullptr) : json::value(e.getSupersedes())},
  };
  if (superseded_by != nullptr) {
    auto it = superseded_by->find(stored.seq());
    out["superseded_by"] =
        it == superseded_by->end() ? json::value(nullptr) : json::value(it->second);
  }
  out["hash"] = schema::to_hex(kj::arrayPtr(stored.hash().data(), stored.hash().size()));
  return out;
}

json::array same_name_warnings(const Audience& audience, const Tournament& t, std::string_view name,
                               std::string_view except) {
  json::array out;
  for (const auto* other : projections::same_name_players(t, name, except)) {
    out.push_back(
        json::object{{"rule", "same_name"},
                     {"player", other->id},
                     {"message", audience.render(i18n::Message(
                                     "api.player.same_name", {{"name", std::string(name)},
                                                              {"other", i18n::PlayerRef{other->id}},
                                                              {"id", other->id}}))}});
  }
  return out;
}

json::array left_out_json(const Tournament& t) {
  json::array out;
  for (const auto* p : t.absent_players()) out.emplace_back(p->id);
  return out;
}

std::string author_name(const LiveState& state, std::string_view author) {
  if (const Judge* j = state.judge(author)) return j->name;
  return std::string(author);
}

std::int64_t server_now_micros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

json::object clock_json(const projections::RoundClock& clock, std::int64_t now_us) {
  auto reading = clock.read(now_us);
  auto seconds = [](std::int64_t us) { return (us + 999'999) / 1'000'000; };  // 0.2 s left: 1
  return json::object{
      {"state", projections::clock_state_name(reading.state)},
      {"duration_s", reading.duration_us / 1'000'000},
      {"remaining_s", seconds(reading.remaining_us)},
      {"extended_s", reading.extended_us / 1'000'000},
      {"ends_at", reading.ends_at_us ? json::value(iso_time(*reading.ends_at_us)) : nullptr},
      {"server_time", iso_time(now_us)},
  };
}

json::object checkin_json(const Tournament& t) {
  json::array present, absent;
  for (const auto* p : t.active_players())
    (t.present(p->id) ? present : absent).emplace_back(p->id);
  return json::object{
      {"round", t.next_round()},
      {"open", t.checkin_open()},
      {"present", std::move(present)},
      {"absent", t.checkin_open() ? json::value(std::move(absent)) : json::array()}};
}

json::object seated_table_json(const Tournament::Meetings& met,
                               const projections::SeatedTable& seated) {
  json::array players;
  for (const auto& p : seated.players) players.emplace_back(p);
  json::object out{{"table", seated.number}, {"players", std::move(players)}};
  out["league"] = seated.league.empty() ? json::value(nullptr) : json::value(seated.league);
  if (!seated.rating_leagues.empty()) {
    json::array leagues;
    for (const auto& l : seated.rating_leagues) leagues.emplace_back(l);
    out["rating_leagues"] = std::move(leagues);
  }
  json::array repeats;
  for (const auto& [a, b] : Tournament::repeats_among(met, seated.players))
    repeats.push_back(json::array{a, b});
  out["repeats"] = std::move(repeats);
  return out;
}

json::object table_json(const LiveState& state, const Tournament& t, const projections::Game& game,
                        std::uint32_t round, const projections::SeatedTable& seated,
                        bool authorship, const Tournament::Meetings* met) {
  json::object out =
      seated_table_json(met != nullptr ? *met : t.meetings_before(round, seated.players), seated);
  const projections::TableState* table = t.table(round, seated.number);
  auto blank = projections::blank_table(round, seated.number);
  if (table == nullptr) table = &blank;

  std::optional<json::object> result = game.table_result(t, *table);
  out["status"] = result ? "reported" : "open";
  out["version"] = table->version;
  out["result"] = result ? json::value(std::move(*result)) : json::value(nullptr);
  if (const projections::Action* entry = table->result()) {
    auto e = entry->envelope();
    if (authorship) {
      out["entered_by"] = json::object{{"id", text(e.getAuthor())},
                                       {"name", author_name(state, text(e.getAuthor()))}};
      out["entered_at"] = iso_time(e.getRecordedAt());
    }
    out["result_seq"] = entry->seq();
    out["corrected"] = e.getSupersedes() != 0;
    if (authorship && e.getSupersedes() != 0) out["correction_reason"] = text(e.getReason());
  }
  for (auto& [key, value] : game.table_extras(t, *table)) out[key] = std::move(value);
  return out;
}

void write_table_members(text::JsonWriter& out, const LiveState& state, const Tournament& t,
                         const projections::Game& game, std::uint32_t round,
                         const projections::SeatedTable& seated) {
  // seated_table_json's members
  out.key("table").number(std::uint64_t{seated.number});
  out.key("players").begin_array();
  for (const auto& p : seated.players) out.string(p);
  out.end_array();
  out.key("league");
  if (seated.league.empty()) {
    out.null();
  } else {
    out.string(seated.league);
  }
  if (!seated.rating_leagues.empty()) {
    out.key("rating_leagues").begin_array();
    for (const auto& l : seated.rating_leagues) out.string(l);
    out.end_array();
  }
  out.key("repeats").begin_array();
  for (const auto& [a, b] :
       Tournament::repeats_among(t.meetings_before(round, seated.players), seated.players)) {
    out.begin_array().string(a).string(b).end_array();
  }
  out.end_array();

  // table_json's own
  const projections::TableState* table = t.table(round, seated.number);
  auto blank = projections::blank_table(round, seated.number);
  if (table == nullptr) table = &blank;
  std::string result;  // written first: the status before it says whether there is one
  result.reserve(1024);
  text::JsonWriter result_writer(result);
  bool reported = game.write_table_result(result_writer, t, *table);
  out.key("status").string(reported ? "reported" : "open");
  out.key("version").number(std::uint64_t{table->version});
  out.key("result");
  if (reported) {
    out.raw(result);
  } else {
    out.null();
  }
  if (const projections::Action* entry = table->result()) {
    auto e = entry->envelope();
    out.key("entered_by")
        .begin_object()
        .key("id")
        .string(text(e.getAuthor()))
        .key("name")
        .string(author_name(state, text(e.getAuthor())))
        .end_object();
    out.key("entered_at").string(iso_time(e.getRecordedAt()));
    out.key("result_seq").number(std::uint64_t{entry->seq()});
    out.key("corrected").boolean(e.getSupersedes() != 0);
    if (e.getSupersedes() != 0) out.key("correction_reason").string(text(e.getReason()));
  }
  for (const auto& [key, value] : game.table_extras(t, *table)) out.key(key).value(value);
}

json::object round_json(const LiveState& state, const Tournament& t, const projections::Game& game,
                        const projections::Round& round, bool authorship) {
  json::array tables;
  int reported = 0;
  const Tournament::Meetings met = t.meetings_before(round.number);  // once for all its tables
  for (const auto& seated : round.tables) {
    json::object table = table_json(state, t, game, round.number, seated, authorship, &met);
    if (table.at("status") == "reported") ++reported;
    tables.push_back(std::move(table));
  }
  json::object out{
      {"round", round.number},
      {"seq", t.last_seq},
      {"method", method_name(round.method)},
      {"forced", round.forced},
      {"seating_seq", round.seq},
      {"reported", reported},
      {"tables_total", round.tables.size()},
      {"tables", std::move(tables)},
      {"closed", round.closed},
      {"final", round.final},
      {"clock", clock_json(round.clock, server_now_micros())},
  };
  if (round.method == schema::SeatingMethod::RANDOM) out["seed"] = round.seed;
  for (auto& [key, value] : game.round_extras(t, round)) out[key] = value;
  return out;
}

json::object round_progress(const Tournament& t, const projections::Game& game,
                            const projections::Round& round) {
  std::size_t open = deciders::unreported_tables(t, game, round).size();
  return json::object{{"round", round.number},
                      {"reported", round.tables.size() - open},
                      {"tables_total", round.tables.size()},
                      {"closed", round.closed},
                      {"final", round.final},
                      {"clock", clock_json(round.clock, server_now_micros())}};
}

json::object tournament_summary_json(const Tournament& t) {
  return json::object{{"id", t.id},
                      {"name", t.name},
                      {"game", t.game},
                      {"players", t.players.size()},
                      {"rounds", t.rounds.size()}};
}

json::object tournament_json(const Tournament& t, const projections::Game& game, i18n::Lang lang) {
  json::array players;
  for (const auto& p : t.players) {
    players.push_back(json::object{
        {"id", p.id}, {"name", p.name}, {"dropped", p.dropped}, {"present", t.present(p.id)}});
  }
  json::array rounds;
  for (const auto& r : t.rounds) rounds.push_back(round_progress(t, game, r));
  json::array notices;
  const Audience audience{lang, player_names(t)};
  for (const auto& n : game.notices(t)) notices.emplace_back(audience.render(n));
  json::object out{{"id", t.id},
                   {"name", t.name},
                   {"game", t.game},
                   {"locale", t.locale},
                   {"rules", t.rules},
                   {"self_reporting", t.self_reporting},
                   {"players", std::move(players)},
                   {"rounds", std::move(rounds)},
                   {"notices", std::move(notices)},
                   {"checkin", checkin_json(t)},
                   {"final", t.is_final()},
                   {"seq", t.last_seq}};
  add_constraints_json(out, t);  // issue 42 (constraints.cpp)
  return out;
}

namespace {

// A field's label in `lang`; a label no catalog has (the test game's) is the game's own text.
std::string label_text(const projections::FieldSpec& f, i18n::Lang lang) {
  const auto& catalogs = i18n::Catalogs::builtin();
  if (!catalogs.has(i18n::Lang::en, f.label)) return f.text;
  return catalogs.text(lang, f.label);
}

json::object field_json(const projections::FieldSpec& f, i18n::Lang lang) {
  json::object out{{"name", f.name},
                   {"type", f.type},
                   {"required", f.required},
                   {"label", f.label},
                   {"text", label_text(f, lang)}};
  if (f.min) out["min"] = *f.min;
  if (f.max) out["max"] = *f.max;
  if (!f.choices.empty()) {
    json::array choices;
    for (const auto& c : f.choices) choices.emplace_back(c);
    out["choices"] = std::move(choices);
  }
  if (f.one_holder) out["one_holder"] = true;
  if (!f.derived_from.empty()) {
    out["derived"] = json::object{{"from", f.derived_from}, {"equals", f.derived_equals}};
  }
  if (!f.excludes_own.empty()) out["excludes_own"] = f.excludes_own;
  return out;
}

}  // namespace

json::object game_json(const projections::Game& game, i18n::Lang lang) {
  projections::GameDescription d = game.describe();
  json::object actions;
  for (const auto& a : d.actions) {
    json::array fields;
    for (const auto& f : a.fields) fields.push_back(field_json(f, lang));
    actions[a.name] = json::object{{"type", schema::payload_type(a.kind)},
                                   {"per_player", a.per_player},
                                   {"fields", std::move(fields)}};
  }
  auto defaults = game.normalize_rules({});
  json::array rules;
  for (const auto& r : d.rules) {
    json::object rule{{"name", r.name}, {"type", r.type}};
    const json::value* fallback = defaults ? defaults.value->if_contains(r.name) : nullptr;
    rule["default"] = fallback ? *fallback : json::value(nullptr);
    if (!r.choices.empty()) {
      json::array choices;
      for (const auto& c : r.choices) choices.emplace_back(c);
      rule["choices"] = std::move(choices);
    }
    rules.push_back(std::move(rule));
  }
  return {{"game", game.id()}, {"actions", std::move(actions)}, {"rules", std::move(rules)}};
}

void add_notes(json::object& out, const Audience& audience, const projections::Seating& seating) {
  if (seating.notes.empty()) return;
  json::array notes;
  for (const auto& note : seating.notes) notes.emplace_back(audience.render(note));
  out["notes"] = std::move(notes);
}

}  // namespace tally::daemon
