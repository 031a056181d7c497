#include "deciders/series.hpp"

#include "deciders/lookup.hpp"
#include "projections/series_scoring.hpp"

#include <boost/json.hpp>

namespace tally::deciders {

namespace {

using projections::Series;
using projections::Tournament;

Append at_series(const Series& s) {
  return Append{projections::series_stream(s.id), events::ExpectedVersion::exactly(s.version), {}};
}

// The first 12 hex digits of a hash, as people compare them.
std::string short_hex(const schema::Digest& d) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < 6; ++i) {
    out += digits[d[i] >> 4];
    out += digits[d[i] & 15];
  }
  return out;
}

RefusalError error(std::string rule, std::string field, i18n::Message message) {
  return RefusalError{std::move(rule), "", std::move(field), std::move(message)};
}

Refusal unprocessable(std::string rule, std::string field, i18n::Message message) {
  Refusal r{RefusalKind::unprocessable, message};
  r.errors.push_back(error(std::move(rule), std::move(field), std::move(message)));
  return r;
}

Refusal conflict(std::string rule, std::string field, i18n::Message message) {
  Refusal r{RefusalKind::conflict, message};
  r.errors.push_back(error(std::move(rule), std::move(field), std::move(message)));
  return r;
}

// The tournament `id` of series `s` with player `player`, or why not.
std::optional<Refusal> find_series_player(const Series& s, const SeriesTournaments& tournaments,
                                          const std::string& tournament, const std::string& player,
                                          const Tournament** found = nullptr) {
  const Tournament* t = s.has_tournament(tournament) ? tournaments(tournament) : nullptr;
  if (t == nullptr) {
    Refusal r{RefusalKind::not_found,
              i18n::Message("series.tournament.not_in_series",
                            {{"tournament", tournament}, {"series", s.id}})};
    r.errors.push_back(error("Q-5", "tournament", r.message));
    return r;
  }
  if (t->player(player) == nullptr) return player_not_found(player, tournament);
  if (found) *found = t;
  return std::nullopt;
}

// the organizer's decision on one link, an event of the series.
events::Draft link_event(const Actor& actor, const std::string& person,
                         const std::string& tournament, const std::string& player, bool rejected) {
  events::Draft d = authored(actor);
  auto linked = d.event().getPayload().initPersonLinked();
  linked.setPerson(person);
  linked.setTournament(tournament);
  linked.setPlayer(player);
  linked.setRejected(rejected);
  return d;
}

}  // namespace

Refusal series_not_found(const std::string& id) {
  return Refusal{RefusalKind::not_found, i18n::Message("series.not_found", {{"id", id}})};
}

Decision<> decide(const Series* existing, const CreateSeries& command, const Actor& actor) {
  auto scoring = projections::normalise_scoring(command.scoring);
  if (auto* problems = std::get_if<std::vector<projections::ScoringProblem>>(&scoring)) {
    Refusal r{RefusalKind::unprocessable, i18n::Message("series.invalid")};
    for (auto& p : *problems) {
      const bool ladder = command.scoring.is_object() &&
                          command.scoring.as_object().if_contains("kind") &&
                          command.scoring.at("kind") == "ladder";
      r.errors.push_back(error(ladder ? "Q-4" : "Q-2", p.field, p.message));
    }
    return r;
  }
  if (existing != nullptr) {
    return Refusal{RefusalKind::conflict, i18n::Message("series.exists", {{"id", command.id}})};
  }
  events::Draft d = authored(actor);
  auto created = d.event().getPayload().initSeriesCreated();
  created.setId(command.id);
  created.setName(command.name);
  created.setGame(command.game);
  created.setLocale(command.locale);
  created.setScoring(boost::json::serialize(std::get<boost::json::object>(scoring)));
  return one_event(projections::series_stream(command.id), events::ExpectedVersion::no_stream(),
                   std::move(d));
}

Decision<> decide(const Series* s, const Tournament* t, const AddSeriesTournament& command,
                  const Actor& actor) {
  if (s == nullptr) return series_not_found(command.series);
  if (t == nullptr) return tournament_not_found(command.tournament);
  if (t->game != s->game) {
    return unprocessable(
        "Q-1", "tournament",
        i18n::Message("series.game_differs",
                      {{"tournament", t->id}, {"game", t->game}, {"series_game", s->game}}));
  }
  if (s->has_tournament(t->id)) {
    return conflict("Q-1", "tournament",
                    i18n::Message("series.tournament.already", {{"tournament", t->id}}));
  }
  events::Draft d = authored(actor);
  d.event().getPayload().initSeriesTournamentAdded().setTournament(t->id);
  Append a = at_series(*s);
  a.events.push_back(std::move(d));
  return a;
}

Decision<SeriesImportFacts> decide(const Series* s, const ImportSeriesTournament& command,
                                   const Actor& actor) {
  if (s == nullptr) return series_not_found(command.series);
  auto folded = Tournament::fold(command.tournament_events);
  if (!folded || folded->game != s->game) {
    return unprocessable(
        "Q-1", "tournament",
        i18n::Message("series.game_differs", {{"tournament", command.tournament},
                                              {"game", folded ? folded->game : std::string()},
                                              {"series_game", s->game}}));
  }
  if (std::find(s->tournaments.begin(), s->tournaments.end(), command.tournament) !=
      s->tournaments.end()) {
    return conflict("Q-1", "tournament",
                    i18n::Message("series.import.local", {{"tournament", command.tournament}}));
  }
  SeriesImportFacts facts;
  if (auto it = s->imports.find(command.tournament); it != s->imports.end()) {
    const projections::ImportOrigin& before = it->second.origin;
    const bool extends = command.log == before.log && command.events >= before.events &&
                         before.events >= 1 && command.chain.size() >= before.events &&
                         command.chain[before.events - 1] == before.head;
    if (!extends) {
      return conflict(
          "Q-1", "head",
          i18n::Message("series.import.not_extending", {{"tournament", command.tournament},
                                                        {"events", before.events},
                                                        {"head", short_hex(before.head)}}));
    }
    if (command.events == before.events) {
      facts.unchanged = true;
      return Accepted<SeriesImportFacts>{at_series(*s), facts};
    }
    facts.replaced = true;
  }
  events::Draft d = authored(actor);
  auto imported = d.event().getPayload().initSeriesImported();
  imported.setTournament(command.tournament);
  imported.setServer(command.server);
  imported.setLog(capnp::Data::Reader(command.log.data(), command.log.size()));
  imported.setHead(capnp::Data::Reader(command.head.data(), command.head.size()));
  imported.setEvents(command.events);
  auto list =
      imported.initTournamentEvents(static_cast<unsigned>(command.tournament_events.size()));
  for (unsigned i = 0; i < list.size(); ++i) {
    const schema::StoredEvent& e = command.tournament_events[i];
    list[i].setSeq(e.seq());
    list[i].setHash(capnp::Data::Reader(e.hash().data(), e.hash().size()));
    auto bytes = e.bytes();
    list[i].setBytes(
        capnp::Data::Reader(reinterpret_cast<const capnp::byte*>(bytes.data()), bytes.size()));
  }
  imported.setVenueStandings(boost::json::serialize(command.venue_standings));
  Append a = at_series(*s);
  a.events.push_back(std::move(d));
  return Accepted<SeriesImportFacts>{std::move(a), facts};
}

Decision<AddedPerson> decide(const Series* s, const SeriesTournaments& tournaments,
                             const AddPerson& command, const Actor& actor) {
  if (s == nullptr) return series_not_found(command.series);
  std::string id = command.id;
  if (id.empty()) {
    for (std::size_t n = s->people.size() + 1;; ++n) {
      id = "p" + std::to_string(n);
      if (s->person(id) == nullptr) break;
    }
  } else if (s->person(id) != nullptr) {
    return conflict("Q-5", "id", i18n::Message("series.person.exists", {{"id", id}}));
  }
  const bool link = !command.from_tournament.empty();
  if (link) {
    if (auto refusal =
            find_series_player(*s, tournaments, command.from_tournament, command.from_player))
      return *refusal;
    if (const auto* other = s->person_of(command.from_tournament, command.from_player)) {
      return conflict("Q-5", "from.player",
                      i18n::Message("series.link.player_taken",
                                    {{"player", command.from_player}, {"person", other->name}}));
    }
  }
  Append a = at_series(*s);
  events::Draft d = authored(actor);
  auto added = d.event().getPayload().initPersonAdded();
  added.setId(id);
  added.setName(command.name);
  added.setClub(command.club);
  a.events.push_back(std::move(d));
  if (link) {
    a.events.push_back(link_event(actor, id, command.from_tournament, command.from_player, false));
  }
  return Accepted<AddedPerson>{std::move(a), AddedPerson{id}};
}

Decision<> decide(const Series* s, const SeriesTournaments& tournaments, const DecideLink& command,
                  const Actor& actor) {
  if (s == nullptr) return series_not_found(command.series);
  const projections::Person* person = s->person(command.person);
  if (person == nullptr) {
    Refusal r{RefusalKind::not_found,
              i18n::Message("series.person.not_found", {{"id", command.person}})};
    r.errors.push_back(error("Q-5", "person", r.message));
    return r;
  }
  const Tournament* t = nullptr;
  if (auto refusal = find_series_player(*s, tournaments, command.tournament, command.player, &t))
    return *refusal;
  const std::string& player_name = t->player(command.player)->name;
  if (!command.reject) {
    if (const auto* current = s->person_of(command.tournament, command.player)) {
      if (current->id == person->id) return at_series(*s);  // already so: nothing to append
      return conflict("Q-5", "player",
                      i18n::Message("series.link.player_taken",
                                    {{"player", player_name}, {"person", current->name}}));
    }
    if (const auto* other = s->link_of(person->id, command.tournament)) {
      const Tournament* same = tournaments(command.tournament);
      const auto* other_player = same ? same->player(other->player) : nullptr;
      return conflict("Q-5", "person",
                      i18n::Message("series.link.person_taken",
                                    {{"person", person->name},
                                     {"player", other_player ? other_player->name : other->player},
                                     {"tournament", command.tournament}}));
    }
  } else if (s->rejected(person->id, command.tournament, command.player)) {
    return at_series(*s);  // already rejected
  }
  Append a = at_series(*s);
  a.events.push_back(
      link_event(actor, person->id, command.tournament, command.player, command.reject));
  return a;
}

}  // namespace tally::deciders
