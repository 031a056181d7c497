// Builds a projections::Tournament from events made in memory, the way the daemon would append
// them (same envelopes, same payload encoding through the JSON codec), for testing the pure
// rules without a store or a server.
#pragma once

#include "projections/tournament.hpp"
#include "schema/json_codec.hpp"
#include "schema/stored_event.hpp"
#include "schema/tally.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <boost/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tally::testing {

class TournamentBuilder {
 public:
  using Which = schema::Event::Payload::Which;
  using Fill = std::function<void(schema::Event::Builder)>;

  TournamentBuilder(std::string id, std::string game, std::string locale = "",
                    boost::json::object rules = {})
      : id_(std::move(id)) {
    append(projections::tournament_stream(id_), [&](schema::Event::Builder e) {
      auto c = e.getPayload().initTournamentCreated();
      c.setId(id_);
      c.setName(id_);
      c.setGame(game);
      c.setLocale(locale);
      c.setRules(boost::json::serialize(rules));
    });
  }

  TournamentBuilder& player(const std::string& id, const std::string& name) {
    append(projections::tournament_stream(id_), [&](schema::Event::Builder e) {
      auto p = e.getPayload().initPlayerRegistered();
      p.setId(id);
      p.setName(name);
    });
    return *this;
  }

  TournamentBuilder& drop(const std::string& id) {
    append(projections::tournament_stream(id_), [&](schema::Event::Builder e) {
      e.getPayload().initPlayerDropped().setId(id);
      e.setReason("left");
    });
    return *this;
  }

  // Seats the next round with these tables (numbered 1…), optionally with leagues.
  TournamentBuilder& seat(const std::vector<std::vector<std::string>>& tables,
                          const std::vector<std::string>& leagues = {}) {
    std::vector<projections::SeatedTable> seated;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      seated.push_back(
          {static_cast<std::uint32_t>(i + 1), tables[i], i < leagues.size() ? leagues[i] : "", {}});
    }
    return seat(seated);
  }

  TournamentBuilder& seat(const std::vector<projections::SeatedTable>& tables,
                          schema::SeatingMethod method = schema::SeatingMethod::MANUAL,
                          std::uint64_t seed = 0) {
    std::uint32_t round = ++rounds_;
    append(projections::tournament_stream(id_), [&](schema::Event::Builder e) {
      auto r = e.getPayload().initRoundSeated();
      r.setRound(round);
      r.setMethod(method);
      r.setSeed(seed);
      auto list = r.initTables(static_cast<unsigned>(tables.size()));
      for (unsigned i = 0; i < tables.size(); ++i) {
        list[i].setTable(tables[i].number);
        auto players = list[i].initPlayers(static_cast<unsigned>(tables[i].players.size()));
        for (unsigned j = 0; j < tables[i].players.size(); ++j)
          players.set(j, tables[i].players[j]);
        list[i].setLeague(tables[i].league);
        auto leagues =
            list[i].initRatingLeagues(static_cast<unsigned>(tables[i].rating_leagues.size()));
        for (unsigned j = 0; j < tables[i].rating_leagues.size(); ++j) {
          leagues.set(j, tables[i].rating_leagues[j]);
        }
      }
    });
    return *this;
  }

  // A table action whose payload is `kind`, decoded from `body` by the schema codec exactly as
  // the daemon does for a request. Throws when the body does not fit the schema.
  std::uint64_t action(std::uint32_t round, std::uint32_t table, Which kind,
                       const boost::json::value& body, std::uint64_t supersedes = 0,
                       const std::string& reason = "") {
    return append(projections::table_stream(id_, round, table), [&](schema::Event::Builder e) {
      e.setSupersedes(supersedes);
      e.setReason(reason);
      fill_payload(e, kind, body);
    });
  }

  // The event as the daemon would append it, without appending it (for Game::check_action).
  std::unique_ptr<capnp::MallocMessageBuilder> proposed(Which kind, const boost::json::value& body,
                                                        std::uint64_t supersedes = 0,
                                                        const std::string& reason = "") {
    auto message = std::make_unique<capnp::MallocMessageBuilder>();
    auto e = message->initRoot<schema::Event>();
    e.setAuthor("judge");
    e.setSupersedes(supersedes);
    e.setReason(reason);
    fill_payload(e, kind, body);
    return message;
  }

  std::uint64_t void_event(std::uint32_t round, std::uint32_t table, std::uint64_t seq,
                           const std::string& reason) {
    return append(projections::table_stream(id_, round, table), [&](schema::Event::Builder e) {
      e.setSupersedes(seq);
      e.setReason(reason);
      e.getPayload().setVoid();
    });
  }

  // Any event, for what the helpers above do not cover.
  std::uint64_t append(const std::string& stream, const Fill& fill) {
    capnp::MallocMessageBuilder message;
    auto e = message.initRoot<schema::Event>();
    e.setSeq(++seq_);
    e.setStream(stream);
    e.setVersion(++versions_[stream]);
    e.setRecordedAt(1764500000000000 + static_cast<std::int64_t>(seq_) * 1000000);
    e.setAuthor("organizer");
    fill(e);
    store(message);
    return seq_;
  }

  // An event a decider made, appended as the store would: stamped with the next seq, the
  // stream's next version and a time (the evolve half of a decide → evolve test).
  std::uint64_t append_decided(const std::string& stream, schema::Event::Reader decided) {
    capnp::MallocMessageBuilder message;
    message.setRoot(decided);
    auto e = message.getRoot<schema::Event>();
    e.setSeq(++seq_);
    e.setStream(stream);
    e.setVersion(++versions_[stream]);
    e.setRecordedAt(1764500000000000 + static_cast<std::int64_t>(seq_) * 1000000);
    store(message);
    return seq_;
  }

  // The version of `stream` (0: no event yet).
  std::uint64_t version(const std::string& stream) const {
    auto it = versions_.find(stream);
    return it == versions_.end() ? 0 : it->second;
  }

  const std::vector<schema::StoredEvent>& events() const { return events_; }
  std::uint64_t last_seq() const { return seq_; }

  // The tournament as its events so far make it.
  projections::Tournament tournament() const {
    auto t = projections::Tournament::fold(events_);
    if (!t) throw std::logic_error("no tournament_created event");
    return *t;
  }

 private:
  void store(capnp::MallocMessageBuilder& message) {
    auto words = capnp::messageToFlatArray(message);
    auto bytes = words.asBytes();
    events_.emplace_back(
        seq_, schema::Digest{},
        std::string_view(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
  }

  static void fill_payload(schema::Event::Builder e, Which kind, const boost::json::value& body) {
    auto errors = schema::decode_payload(body, e.getPayload(), kind);
    if (!errors.empty()) {
      // The key and its arguments' names: enough to find the fault, without the renderer.
      std::ostringstream why;
      why << "body does not fit the schema: " << errors[0].path << " " << errors[0].message;
      throw std::invalid_argument(why.str());
    }
  }

  std::string id_;
  std::uint64_t seq_ = 0;
  std::uint32_t rounds_ = 0;
  std::map<std::string, std::uint64_t> versions_;
  std::vector<schema::StoredEvent> events_;
};

}  // namespace tally::testing
