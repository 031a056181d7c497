// The queries of registration before the day: queries.hpp declares them. E-mail
// addresses appear in the organizer's list only (opened there with the server's seal).
#include "daemon/api/queries.hpp"

#include "deciders/registrations.hpp"
#include "projections/registration.hpp"
#include "projections/registrations.hpp"

namespace tally::daemon::queries {

namespace {

using projections::Registration;
using projections::Tournament;

Viewed registration_not_found(const std::string& id) {
  return deciders::Refusal{deciders::RefusalKind::not_found,
                           i18n::Message("api.registration.not_found", {{"id", id}})};
}

json::value capacity_json(const Tournament& t) {
  const std::uint32_t capacity = t.registrations.capacity();
  return capacity == 0 ? json::value(nullptr) : json::value(capacity);
}

// What the registrant (and anyone holding the private link) sees of a registration.
json::object public_json(const Tournament& t, const Registration& r) {
  json::object out{
      {"id", r.id},         {"name", r.name},
      {"club", r.club},     {"status", projections::registration_status_name(r.status)},
      {"player", r.player}, {"tournament", json::object{{"id", t.id}, {"name", t.name}}}};
  if (const std::size_t position = t.registrations.position(r.id); position != 0)
    out["position"] = position;
  return out;
}

}  // namespace

Viewed registration_status(const LiveState& s, const std::string& tournament) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const std::size_t holding = t->registrations.holding();
  const std::uint32_t capacity = t->registrations.capacity();
  json::value left = capacity == 0 ? json::value(nullptr)
                                   : json::value(capacity > holding ? capacity - holding : 0);
  return View{.body = json::object{{"tournament", json::object{{"id", t->id}, {"name", t->name}}},
                                   {"open", t->registrations.open()},
                                   {"capacity", capacity_json(*t)},
                                   {"registered", holding},
                                   {"waiting", t->registrations.waiting().size()},
                                   {"places_left", std::move(left)}},
              .seq = t->last_seq};
}

Viewed registration(const LiveState& s, const std::string& tournament, const std::string& id,
                    const std::optional<std::string>& key_hash) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const Registration* r =
      key_hash ? deciders::registration_for_key(*t, id, *key_hash) : t->registrations.find(id);
  if (r == nullptr) return registration_not_found(id);
  return View{.body = public_json(*t, *r), .seq = t->last_seq};
}

Viewed registration_received(const LiveState& s, const std::string& tournament,
                             const std::string& id, std::uint64_t seq, const std::string& key) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const Registration* r = t->registrations.find(id);
  if (r == nullptr) return registration_not_found(id);
  json::object out = public_json(*t, *r);
  out["seq"] = seq;
  if (!key.empty()) {
    out["key"] = key;
    out["link"] = "/t/" + t->id + "/register#r=" + r->id + "&key=" + key;
  }
  return View{.body = std::move(out), .status = http::status::created, .seq = seq};
}

Viewed registration_cancelled(const LiveState& s, const std::string& tournament,
                              const std::string& id, const std::string& moved_up,
                              std::uint64_t seq) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  const Registration* r = t->registrations.find(id);
  if (r == nullptr) return registration_not_found(id);
  json::object out = public_json(*t, *r);
  out["seq"] = seq;
  const Registration* up = moved_up.empty() ? nullptr : t->registrations.find(moved_up);
  // who moved up into the place, by name (the organizer's console says so).
  out["moved_up"] = up == nullptr ? json::value(nullptr)
                                  : json::value(json::object{{"id", up->id}, {"name", up->name}});
  return View{.body = std::move(out), .seq = seq};
}

Viewed registrations(const LiveState& s, const std::string& tournament, const EmailSeal& seal) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  json::array list;
  std::size_t counts[3] = {0, 0, 0};
  for (const Registration& r : t->registrations.all()) {
    ++counts[static_cast<int>(r.status)];
    json::object row{{"id", r.id},
                     {"name", r.name},
                     {"club", r.club},
                     {"person", r.person},
                     {"status", projections::registration_status_name(r.status)},
                     {"player", r.player},
                     {"present", t->present(r.id)},
                     {"seq", r.seq},
                     {"recorded_at", r.recorded_at}};
    if (const std::size_t position = t->registrations.position(r.id); position != 0)
      row["position"] = position;
    json::value email = nullptr;
    if (!r.email_sealed.empty()) {
      auto opened = seal.open(t->id, r.email_sealed);
      // Sealed under another server's secret (a copy without DATA/table-keys.secret): unknown.
      email = opened ? json::value(*opened) : json::value(false);
    }
    row["email"] = std::move(email);
    list.push_back(std::move(row));
  }
  return View{.body = json::object{{"open", t->registrations.open()},
                                   {"capacity", capacity_json(*t)},
                                   {"registered", counts[0]},
                                   {"waiting", counts[1]},
                                   {"cancelled", counts[2]},
                                   {"to_admit", !projections::admission_csv(*t).empty()},
                                   {"registrations", std::move(list)}},
              .seq = t->last_seq};
}

Viewed registration_settings(const LiveState& s, const std::string& tournament, std::uint64_t seq) {
  const Tournament* t = s.tournament(tournament);
  if (t == nullptr) return deciders::tournament_not_found(tournament);
  return View{.body = json::object{{"seq", seq != 0 ? seq : s.seq()},
                                   {"registration", t->registrations.open() ? "open" : "closed"},
                                   {"capacity", capacity_json(*t)}}};
}

}  // namespace tally::daemon::queries
