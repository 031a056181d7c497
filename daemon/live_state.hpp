// The daemon's projections: every tournament and the judges, folded from the log at start and
// then kept current by the store's subscriber, so that a read after one's own write sees it.
//
// Thread safety: apply() is called by the store's writer thread (one event at a time, in seq
// order) and takes the lock exclusively for a few microseconds; readers go through read(), which
// holds the lock shared while their function runs — keep those functions short and never append
// from inside one (the lock spins briefly before it sleeps: BriefSharedMutex). Standings are
// cached per tournament and recomputed when it changes.
#pragma once

#include "daemon/brief_shared_mutex.hpp"
#include "projections/game.hpp"
#include "projections/judges.hpp"
#include "projections/series.hpp"
#include "projections/tournament.hpp"
#include "schema/stored_event.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace tally::daemon {

using projections::Judge;
using projections::Role;

// The one table a table token (self-reporting) speaks for.
struct TableScope {
  std::string tournament;
  std::uint32_t round = 0;
  std::uint32_t table = 0;
};

// Who is asking: resolved from the bearer token on every request.
struct Identity {
  std::string id;  // judge id, "organizer"; empty when anonymous or a table token
  std::string name;
  Role role = Role::judge;
  // A table token's table: proposals there, and nothing else (authenticated() stays false, so
  // every judge's or organizer's route refuses it).
  std::optional<TableScope> table;
  bool table_round_closed = false;  // the table token's round is closed: it is refused

  bool authenticated() const { return !id.empty(); }
  bool organizer() const { return authenticated() && role == Role::organizer; }
};

class LiveState {
 public:
  using Tournaments = std::map<std::string, projections::Tournament, std::less<>>;
  using SeriesMap = std::map<std::string, projections::Series, std::less<>>;

  explicit LiveState(const projections::GameRegistry& games) : games_(games) {}

  // Folds one appended event. REQUIRES: called in seq order, from one thread at a time.
  void apply(const schema::StoredEvent& event);
  // Folds consecutive events under one lock (replay folds the log a batch at a time).
  // REQUIRES: as above.
  void apply(std::span<const schema::StoredEvent> events);

  // Runs `f(const LiveState&)` under the shared lock and returns what it returns.
  template <typename F>
  auto read(F&& f) const {
    std::shared_lock lock(mutex_);
    return f(*this);
  }

  // --- Accessors. REQUIRES: called inside read(). ---
  std::uint64_t seq() const { return seq_; }
  const projections::Tournament* tournament(std::string_view id) const;
  const Tournaments& tournaments() const { return tournaments_; }
  // A series (docs/series.md), or null.
  const projections::Series* series(std::string_view id) const;
  const SeriesMap& all_series() const { return series_; }
  // A tournament of `series`: one of this server's that joined it, or one of its imports
  // (read-only, folded from the venue's events); null when it is neither.
  const projections::Tournament* series_tournament(const projections::Series& series,
                                                   std::string_view id) const;
  const std::vector<Judge>& judges() const { return judges_; }
  // The same with the stream's version, as the deciders take them.
  projections::Judges judges_view() const { return {judges_, judges_version_}; }
  std::uint64_t judges_version() const { return judges_version_; }
  // How many times this log's primary has been replaced (`tallyd promote`): 0 until the first.
  std::uint64_t epoch() const { return epoch_; }
  const Judge* judge(std::string_view id) const;
  // The identity whose token hashes to `token_hash`, comparing every stored hash in constant
  // time; nullopt for an unknown or revoked token.
  std::optional<Identity> identify(const schema::Digest& token_hash) const;
  const projections::Game* game_of(const projections::Tournament& t) const {
    return games_.find(t.game);
  }
  // The game this server serves under `id`, or null.
  const projections::Game* game(std::string_view id) const { return games_.find(id); }
  // The tournament's standings at its current state (cached). REQUIRES: inside read().
  boost::json::object standings(const projections::Tournament& t) const;

 private:
  void apply_locked(const schema::StoredEvent& event);
  Tournaments::iterator find_tournament(std::string_view id);
  void apply_judges(const schema::StoredEvent& event);
  // Registers a judge (or the organizer) whose token hashes to `token_hash`, added by event `seq`.
  void add_judge(Judge judge, capnp::Data::Reader token_hash, std::uint64_t seq);

  const projections::GameRegistry& games_;
  mutable BriefSharedMutex mutex_;
  std::uint64_t seq_ = 0;
  Tournaments tournaments_;
  SeriesMap series_;
  // The tournament of the last event folded (end(): none). The log comes in runs of one
  // tournament's events (a seating, a table's result and its claim), so most lookups stop here.
  Tournaments::iterator last_tournament_ = tournaments_.end();
  std::vector<Judge> judges_;
  std::uint64_t judges_version_ = 0;  // the `judges` stream's version
  std::uint64_t epoch_ = 0;           // the newest `primary_promoted` epoch
  // A token's hash → its judge in judges_. Its first 8 bytes are the bucket hash: SHA-256 output
  // is uniform, and a lookup's timing tells a caller nothing about a token it does not have
  // (finding a hash that shares leading bytes with a valid one gives no way to its token).
  struct TokenHashBucket {
    std::size_t operator()(const schema::Digest& d) const {
      std::size_t h = 0;
      std::memcpy(&h, d.data(), sizeof h);
      return h;
    }
  };
  std::unordered_map<schema::Digest, std::size_t, TokenHashBucket> judge_by_token_;

  struct CachedStandings {
    std::uint64_t seq = 0;
    boost::json::object value;
  };
  mutable std::mutex cache_mutex_;
  mutable std::map<std::string, CachedStandings, std::less<>>
      standings_cache_;  // GUARDED_BY(cache_mutex_)
};

}  // namespace tally::daemon
