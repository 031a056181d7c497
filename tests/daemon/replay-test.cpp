// replay() — the two-thread fold of the log at start — against folding the same log one event
// at a time (what the store's subscriber does after start): the projections must come out the
// same, over many batches. And a log holding an event that does not decode stops replay() with an
// error naming that event.
#include "daemon/replay.hpp"

#include "daemon/live_state.hpp"
#include "projections/games.hpp"
#include "tests/support/stored_record.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>

namespace tally::daemon {
namespace {

using tally::testing::TempDir;

events::Draft draft(const std::function<void(schema::Event::Builder)>& fill) {
  events::Draft d;
  fill(d.event());
  return d;
}

// Appends the drafts together; returns the seq of the first.
std::uint64_t append(events::EventStore& store, const std::string& stream,
                     std::vector<events::Draft> drafts) {
  events::AppendRequest request;
  request.stream = stream;
  request.events = std::move(drafts);
  auto result = store.append(std::move(request));
  EXPECT_EQ(result.status, events::AppendStatus::appended) << result.error;
  return result.first_seq;
}

std::uint64_t append(events::EventStore& store, const std::string& stream, events::Draft d) {
  std::vector<events::Draft> drafts;
  drafts.push_back(std::move(d));
  return append(store, stream, std::move(drafts));
}

std::vector<std::string> seats(unsigned table, unsigned round) {
  std::vector<std::string> players;
  for (unsigned s = 0; s < 4; ++s)
    players.push_back("p" + std::to_string((table * 4 + s + round) % 8 + 1));
  return players;
}

events::Draft result(const std::vector<std::string>& players, int variant) {
  return draft([&](schema::Event::Builder e) {
    auto list = e.getPayload().initCatanResult().initPlayers(static_cast<unsigned>(players.size()));
    for (unsigned i = 0; i < players.size(); ++i) {
      list[i].setPlayer(players[i]);
      list[i].setSettlements(2 + static_cast<int>((i + static_cast<unsigned>(variant)) % 3));
      list[i].setCities(1);
    }
  });
}

events::Draft judge_added(const std::string& id) {
  return draft([&](schema::Event::Builder e) {
    auto judge = e.getPayload().initJudgeAdded();
    judge.setId(id);
    judge.setName("Judge " + id);
    judge.setRole(schema::Role::JUDGE);
    judge.initTokenHash(32)[0] = static_cast<kj::byte>(id.size());
  });
}

// Tournaments whose events interleave (so the fold switches between them), several thousand
// events in all (several of replay's batches), with judges, corrections, voids, a drop, a
// re-seating and events that belong to no tournament.
void build_log(events::EventStore& store, int tournaments) {
  append(store, "judges", judge_added("anna"));
  append(store, "t/ghost/r/1/table/1", result(seats(0, 1), 0));  // before any creation
  for (int t = 0; t < tournaments; ++t) {
    std::string id = "t" + std::to_string(t);
    std::vector<events::Draft> setup;
    setup.push_back(draft([&](schema::Event::Builder e) {
      auto created = e.getPayload().initTournamentCreated();
      created.setId(id);
      created.setName("Cup " + id);
      created.setGame("catan");
      created.setRules("{}");
    }));
    for (int p = 1; p <= 8; ++p) {
      setup.push_back(draft([&](schema::Event::Builder e) {
        auto registered = e.getPayload().initPlayerRegistered();
        registered.setId("p" + std::to_string(p));
        registered.setName("Hráč " + std::to_string(p));
      }));
    }
    append(store, "t/" + id, std::move(setup));
  }
  append(store, "judges", judge_added("bert"));
  for (unsigned round = 1; round <= 3; ++round) {
    for (int t = 0; t < tournaments; ++t) {
      std::string id = "t" + std::to_string(t);
      append(store, "t/" + id, draft([&](schema::Event::Builder e) {
               auto seated = e.getPayload().initRoundSeated();
               seated.setRound(round);
               seated.setSeed(round * 31 + static_cast<unsigned>(t));
               auto tables = seated.initTables(2);
               for (unsigned n = 0; n < 2; ++n) {
                 tables[n].setTable(n + 1);
                 auto players = seats(n, round);
                 auto list = tables[n].initPlayers(4);
                 for (unsigned s = 0; s < 4; ++s) list.set(s, players[s]);
               }
             }));
    }
    for (int t = 0; t < tournaments; ++t) {
      std::string id = "t" + std::to_string(t);
      for (unsigned n = 1; n <= 2; ++n) {
        std::string table = projections::table_stream(id, round, n);
        std::uint64_t first = append(store, table, result(seats(n - 1, round), t));
        if ((t + static_cast<int>(n)) % 3 == 0) {
          auto fix = result(seats(n - 1, round), t + 1);
          fix.event().setSupersedes(first);
          fix.event().setReason("miscounted");
          append(store, table, std::move(fix));
        }
        if ((t + static_cast<int>(n)) % 5 == 0) {
          std::uint64_t claim = append(store, table, draft([&](schema::Event::Builder e) {
                                         e.getPayload().initClaimedWin().setPlayer("p1");
                                       }));
          append(store, table, draft([&](schema::Event::Builder e) {
                   e.setSupersedes(claim);
                   e.setReason("withdrawn");
                   e.getPayload().setVoid();
                 }));
        }
      }
    }
    if (round == 1) {
      append(store, "t/t1", draft([](schema::Event::Builder e) {
               e.getPayload().initPlayerDropped().setId("p3");
             }));
      append(store, "judges", draft([](schema::Event::Builder e) {
               e.getPayload().initJudgeRevoked().setId("anna");
             }));
    }
  }
  append(store, "t/t2", draft([&](schema::Event::Builder e) {  // re-seats round 3
           auto seated = e.getPayload().initRoundSeated();
           seated.setRound(3);
           seated.setSeed(7);
           auto tables = seated.initTables(1);
           tables[0].setTable(1);
           auto list = tables[0].initPlayers(4);
           for (unsigned s = 0; s < 4; ++s) list.set(s, "p" + std::to_string(s + 5));
         }));
}

// Everything the projections hold, as text, so that two states compare with one EXPECT_EQ.
std::string describe(const LiveState& state) {
  return state.read([](const LiveState& s) {
    std::ostringstream out;
    out << "seq " << s.seq() << " judges v" << s.judges_version() << "\n";
    for (const auto& j : s.judges()) {
      out << "judge " << j.id << " " << j.name << " " << j.revoked << " " << j.added_seq << " "
          << int(j.token_hash[0]) << "\n";
    }
    for (const auto& [key, t] : s.tournaments()) {
      out << key << ": " << t.id << " " << t.name << " " << t.game << " created " << t.created_seq
          << " last " << t.last_seq << " v" << t.version << "\n";
      for (const auto& p : t.players) {
        out << " player " << p.id << " " << p.name << " " << p.dropped << " "
            << p.dropped_after_round << "\n";
      }
      for (const auto& r : t.rounds) {
        out << " round " << r.number << " seed " << r.seed << " seq " << r.seq << ":";
        for (const auto& table : r.tables) {
          out << " [" << table.number;
          for (const auto& p : table.players) out << " " << p;
          out << "]";
        }
        out << "\n";
      }
      for (const auto& [at, table] : t.tables) {
        out << " table " << at.first << "/" << at.second << " v" << table.version << ":";
        for (const auto& a : table.actions) out << " " << a.seq();
        out << "\n";
      }
      out << " standings " << boost::json::serialize(s.standings(t)) << "\n";
    }
    return out.str();
  });
}

TEST(Replay, EqualsFoldingTheLogOneEventAtATime) {
  TempDir dir;
  events::EventStore store(dir.str(), events::StoreOptions{.sync = false});
  build_log(store, 300);
  ASSERT_GT(store.head().seq, 5000u);  // several batches

  auto games = projections::standard_games();
  LiveState replayed(*games);
  EXPECT_EQ(replay(store, replayed), store.head().seq);

  LiveState one_by_one(*games);
  store.read_view().scan(1, [&](const schema::StoredEvent& e) {
    one_by_one.apply(e);
    return true;
  });
  std::string expected = describe(one_by_one);
  EXPECT_NE(expected.find("t299: t299"), std::string::npos);
  EXPECT_EQ(describe(replayed), expected);
}

TEST(Replay, AnEmptyLogFoldsNothing) {
  TempDir dir;
  events::EventStore store(dir.str());
  auto games = projections::standard_games();
  LiveState state(*games);
  EXPECT_EQ(replay(store, state), 0u);
}

// Overwrites the stored bytes of `seq` so that they are no Cap'n Proto message: a segment table
// announcing more segments than there are bytes.
void corrupt(const std::string& dir, std::uint64_t seq) {
  tally::testing::rewrite_stored_record(dir, seq, [](std::string& record) {
    record.replace(32, 8, std::string("\xff\xff\x00\x00\xff\xff\x00\x00", 8));
  });
}

// Damage anywhere in the log is named: the first event (in the folder's first batch), one past the
// first batches (while the reader is still busy) and the one before the last (in the last batch,
// after the reader has closed). A damaged newest event stops the store's open before any replay
// (store-test).
TEST(Replay, AnEventThatDoesNotDecodeStopsReplayNamingIt) {
  TempDir built;
  std::uint64_t head = 0;
  {
    events::EventStore store(built.str(), events::StoreOptions{.sync = false});
    build_log(store, 200);
    head = store.head().seq;
  }
  ASSERT_GT(head, 3000u);
  for (std::uint64_t damaged_seq : {std::uint64_t{1}, std::uint64_t{3000}, head - 1}) {
    SCOPED_TRACE("damaged event " + std::to_string(damaged_seq));
    TempDir dir;
    std::filesystem::copy(built.path(), dir.path(), std::filesystem::copy_options::recursive);
    corrupt(dir.str(), damaged_seq);
    events::EventStore store(dir.str());
    auto games = projections::standard_games();
    LiveState state(*games);
    try {
      replay(store, state);
      ADD_FAILURE() << "replay() folded a damaged log";
    } catch (const DamagedLog& e) {
      EXPECT_NE(std::string(e.what()).find("the log is damaged: event " +
                                           std::to_string(damaged_seq) + " cannot be read"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace tally::daemon
