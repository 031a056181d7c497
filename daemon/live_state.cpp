#include "daemon/live_state.hpp"

#include "projections/stage_progress.hpp"
#include "schema/text.hpp"

#include <algorithm>

namespace tally::daemon {

namespace {
using schema::text;
}  // namespace

void LiveState::apply(const schema::StoredEvent& event) {
  std::unique_lock lock(mutex_);
  apply_locked(event);
}

void LiveState::apply(std::span<const schema::StoredEvent> events) {
  std::unique_lock lock(mutex_);
  for (const auto& event : events) apply_locked(event);
}

void LiveState::apply_locked(const schema::StoredEvent& event) {
  seq_ = event.seq();
  auto stream_text = event.event().getStream();  // each get checks bounds again: once is enough
  std::string_view stream(stream_text.cStr(), stream_text.size());
  if (stream == "judges") {
    apply_judges(event);
    return;
  }
  if (stream == "replication") {
    auto payload = event.event().getPayload();
    if (payload.isPrimaryPromoted()) {
      epoch_ = std::max<std::uint64_t>(epoch_, payload.getPrimaryPromoted().getEpoch());
    }
    return;
  }
  if (auto series = projections::series_of_stream(stream); !series.empty()) {
    auto it = series_.find(series);
    if (it == series_.end()) {
      if (event.event().getPayload().which() != schema::Event::Payload::SERIES_CREATED) return;
      it = series_.emplace(std::string(series), projections::Series{}).first;
    }
    it->second.apply(event);
    return;
  }
  auto name = projections::parse_stream(stream);
  if (name.tournament.empty()) return;
  auto it = find_tournament(name.tournament);
  if (it == tournaments_.end()) {
    if (event.event().getPayload().which() != schema::Event::Payload::TOURNAMENT_CREATED) return;
    it = last_tournament_ = tournaments_.emplace(name.tournament, projections::Tournament{}).first;
  }
  it->second.apply(event, name);
}

LiveState::Tournaments::iterator LiveState::find_tournament(std::string_view id) {
  if (last_tournament_ == tournaments_.end() || last_tournament_->first != id) {
    last_tournament_ = tournaments_.find(id);
  }
  return last_tournament_;
}

void LiveState::add_judge(Judge judge, capnp::Data::Reader token_hash, std::uint64_t seq) {
  if (token_hash.size() == judge.token_hash.size()) {
    std::copy(token_hash.begin(), token_hash.end(), judge.token_hash.begin());
  }
  judge.added_seq = seq;
  judge_by_token_[judge.token_hash] = judges_.size();
  judges_.push_back(std::move(judge));
}

void LiveState::apply_judges(const schema::StoredEvent& event) {
  judges_version_ = event.event().getVersion();
  auto payload = event.event().getPayload();
  if (payload.isJudgeAdded()) {
    auto added = payload.getJudgeAdded();
    Judge judge;
    judge.id = text(added.getId());
    judge.name = text(added.getName());
    judge.role = added.getRole() == schema::Role::ORGANIZER ? Role::organizer
                 : added.getRole() == schema::Role::REPLICA ? Role::replica
                                                            : Role::judge;
    judge.standby = added.getStandby();
    add_judge(std::move(judge), added.getTokenHash(), event.seq());
  } else if (payload.isJudgeRevoked()) {
    for (auto& judge : judges_) {
      if (judge.id == text(payload.getJudgeRevoked().getId())) judge.revoked = true;
    }
  } else if (payload.isOrganizerToken()) {
    // The organizer's token from now on: every earlier organizer token stops working at once.
    for (auto& judge : judges_) {
      if (judge.role == Role::organizer) judge.revoked = true;
    }
    Judge organizer;
    organizer.id = "organizer";
    organizer.name = "Organizer";
    organizer.role = Role::organizer;
    add_judge(std::move(organizer), payload.getOrganizerToken().getTokenHash(), event.seq());
  }
}

const projections::Tournament* LiveState::tournament(std::string_view id) const {
  auto it = tournaments_.find(id);
  return it == tournaments_.end() ? nullptr : &it->second;
}

const projections::Series* LiveState::series(std::string_view id) const {
  auto it = series_.find(id);
  return it == series_.end() ? nullptr : &it->second;
}

const projections::Tournament* LiveState::series_tournament(const projections::Series& series,
                                                            std::string_view id) const {
  if (auto it = series.imports.find(id); it != series.imports.end()) return &it->second.tournament;
  if (std::find(series.tournaments.begin(), series.tournaments.end(), id) ==
      series.tournaments.end())
    return nullptr;
  return tournament(id);
}

const Judge* LiveState::judge(std::string_view id) const {
  // The newest with that id: after a rotation, the organizer's current entry.
  for (auto it = judges_.rbegin(); it != judges_.rend(); ++it) {
    if (it->id == id) return &*it;
  }
  return nullptr;
}

std::optional<Identity> LiveState::identify(const schema::Digest& token_hash) const {
  auto it = judge_by_token_.find(token_hash);
  if (it == judge_by_token_.end() || judges_[it->second].revoked) return std::nullopt;
  const Judge& match = judges_[it->second];
  return Identity{match.id, match.name, match.role};
}

boost::json::object LiveState::standings(const projections::Tournament& t) const {
  {
    std::lock_guard lock(cache_mutex_);
    auto it = standings_cache_.find(t.id);
    if (it != standings_cache_.end() && it->second.seq == t.last_seq) return it->second.value;
  }
  const projections::Game* game = game_of(t);
  boost::json::object value = game ? projections::tournament_standings(t, *game)
                                   : boost::json::object{{"rows", boost::json::array()}};
  std::lock_guard lock(cache_mutex_);
  standings_cache_[t.id] = CachedStandings{t.last_seq, value};
  return value;
}

}  // namespace tally::daemon
