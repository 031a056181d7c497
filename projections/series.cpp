#include "projections/series.hpp"

#include "schema/text.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace tally::projections {

namespace {

using schema::text;
using Which = schema::Event::Payload::Which;

schema::Digest digest(capnp::Data::Reader data) {
  schema::Digest d{};
  if (data.size() == d.size()) std::copy(data.begin(), data.end(), d.begin());
  return d;
}

ImportedTournament fold_import(const schema::StoredEvent& stored) {
  auto event = stored.event();
  auto imported = event.getPayload().getSeriesImported();
  std::vector<schema::StoredEvent> events;
  for (auto e : imported.getTournamentEvents()) {
    auto bytes = e.getBytes();
    events.emplace_back(
        e.getSeq(), digest(e.getHash()),
        std::string_view(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
  }
  ImportedTournament out;
  if (auto folded = Tournament::fold(events)) out.tournament = std::move(*folded);
  out.origin.server = text(imported.getServer());
  out.origin.log = digest(imported.getLog());
  out.origin.head = digest(imported.getHead());
  out.origin.events = imported.getEvents();
  out.origin.imported_by = text(event.getAuthor());
  out.origin.imported_at = event.getRecordedAt();
  out.origin.seq = stored.seq();
  auto standings = imported.getVenueStandings();
  if (standings.size() > 0) {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(standings.cStr(), ec);
    if (!ec && parsed.is_array()) out.origin.venue_standings = std::move(parsed.as_array());
  }
  return out;
}

}  // namespace

std::string series_stream(std::string_view id) { return "s/" + std::string(id); }

std::string_view series_of_stream(std::string_view stream) {
  if (!stream.starts_with("s/")) return {};
  stream.remove_prefix(2);
  return stream.find('/') == std::string_view::npos ? stream : std::string_view{};
}

bool Series::has_tournament(std::string_view tournament) const {
  return std::find(tournaments.begin(), tournaments.end(), tournament) != tournaments.end() ||
         imports.find(tournament) != imports.end();
}

const Person* Series::person(std::string_view person_id) const {
  for (const Person& p : people) {
    if (p.id == person_id) return &p;
  }
  return nullptr;
}

const Person* Series::person_of(std::string_view tournament, std::string_view player) const {
  for (const Link& l : links) {
    if (!l.rejected && l.tournament == tournament && l.player == player) return person(l.person);
  }
  return nullptr;
}

const Link* Series::link_of(std::string_view person_id, std::string_view tournament) const {
  for (const Link& l : links) {
    if (!l.rejected && l.person == person_id && l.tournament == tournament) return &l;
  }
  return nullptr;
}

bool Series::rejected(std::string_view person_id, std::string_view tournament,
                      std::string_view player) const {
  for (const Link& l : links) {
    if (l.rejected && l.person == person_id && l.tournament == tournament && l.player == player)
      return true;
  }
  return false;
}

bool Series::apply(const schema::StoredEvent& stored) {
  auto event = stored.event();
  auto payload = event.getPayload();
  switch (payload.which()) {
    case Which::SERIES_CREATED: {
      auto created = payload.getSeriesCreated();
      id = text(created.getId());
      name = text(created.getName());
      game = text(created.getGame());
      locale = text(created.getLocale());
      boost::system::error_code ec;
      auto parsed = boost::json::parse(created.getScoring().cStr(), ec);
      scoring = !ec && parsed.is_object() ? std::move(parsed.as_object()) : boost::json::object{};
      created_seq = stored.seq();
      break;
    }
    case Which::SERIES_TOURNAMENT_ADDED:
      tournaments.push_back(text(payload.getSeriesTournamentAdded().getTournament()));
      break;
    case Which::SERIES_IMPORTED: {
      std::string tournament = text(payload.getSeriesImported().getTournament());
      imports.insert_or_assign(tournament, fold_import(stored));  // a longer chain replaces
      break;
    }
    case Which::PERSON_ADDED: {
      auto added = payload.getPersonAdded();
      people.push_back(
          Person{text(added.getId()), text(added.getName()), text(added.getClub()), stored.seq()});
      break;
    }
    case Which::PERSON_LINKED: {
      auto linked = payload.getPersonLinked();
      Link link{text(linked.getPerson()),
                text(linked.getTournament()),
                text(linked.getPlayer()),
                linked.getRejected(),
                text(event.getAuthor()),
                event.getRecordedAt(),
                stored.seq()};
      std::erase_if(links, [&](const Link& l) {
        return l.person == link.person && l.tournament == link.tournament &&
               l.player == link.player;
      });
      links.push_back(std::move(link));
      break;
    }
    default:
      return false;
  }
  version = event.getVersion();
  last_seq = stored.seq();
  return true;
}

}  // namespace tally::projections
