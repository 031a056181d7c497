// Seating a big round by standings takes seconds (the search for fewest repeat meetings); the
// real tallyd must go on answering everyone else meanwhile — reads and writes of another
// tournament, on any connection — and the seating must still be of the tournament as it is when
// it is appended: a correction entered while it is computed is in it (it is computed again).
//
// The field starts at TALLY_SEATING_PLAYERS (a multiple of 4; default below, sized so that each
// case stays under a minute in the sanitized Debug build while the seating takes seconds) and
// doubles, in a new tournament each time, until its seating is slow enough to observe (over
// kObservable; for the correction, still under way when the correction is answered): a faster
// machine or a faster seating makes the field bigger instead of the test meaningless. At most
// kMaxDoublings times: a machine on which even that field is seated at once fails, saying so.
#include "tests/daemon/api_fixture.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace tally::testing {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

std::string str(const json::value& v) { return std::string(v.as_string()); }
std::uint64_t seq_of(const HttpReply& r) { return r.json().at("seq").to_number<std::uint64_t>(); }

int field_size() {
  if (const char* env = std::getenv("TALLY_SEATING_PLAYERS")) return std::atoi(env) / 4 * 4;
  return 400;
}

// A seating that takes longer than this shows a stall if there is one: every other request must
// be answered in a fifth of it (and at most a second).
constexpr Seconds kObservable{1.0};
// The field doubles at most this many times (400 → 6,400 players by default).
constexpr int kMaxDoublings = 4;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A valid four-player Catan table (the conformance "clear order": 10, 8, 6 and 5 VP), the sheet
// of place k going to seat (k + shift) % 4: different seats win at different tables.
json::object table_result(const std::vector<std::string>& seats, std::size_t shift,
                          const std::string& reason = "") {
  struct S {
    int settlements, cities, vp_cards, knights, roads, longest_road;
    bool largest_army, longest_road_holder;
  };
  static const S sheets[4] = {{2, 3, 0, 3, 6, 4, true, false},
                              {3, 1, 1, 1, 10, 6, false, true},
                              {4, 1, 0, 2, 7, 4, false, false},
                              {2, 1, 1, 0, 5, 3, false, false}};
  json::array players;
  for (std::size_t k = 0; k < 4; ++k) {
    const S& s = sheets[k];
    players.push_back(json::object{{"player", seats[(k + shift) % 4]},
                                   {"settlements", s.settlements},
                                   {"cities", s.cities},
                                   {"vp_cards", s.vp_cards},
                                   {"knights", s.knights},
                                   {"roads", s.roads},
                                   {"longest_road", s.longest_road},
                                   {"largest_army", s.largest_army},
                                   {"longest_road_holder", s.longest_road_holder}});
  }
  json::object body{{"players", std::move(players)}};
  if (!reason.empty()) body["reason"] = reason;
  return body;
}

using Tables = std::vector<std::vector<std::string>>;

Tables tables_of(const json::value& round) {
  Tables out;
  for (const auto& table : round.at("tables").as_array()) {
    out.emplace_back();
    for (const auto& p : table.at("players").as_array()) out.back().push_back(str(p));
  }
  return out;
}

std::string result_path(const std::string& t, int round, std::size_t table) {
  return "/v1/tournaments/" + t + "/rounds/" + std::to_string(round) + "/tables/" +
         std::to_string(table) + "/result";
}

class SeatingStall : public ApiFixture {
 protected:
  void create(const std::string& t, int players) {
    std::vector<std::pair<std::string, std::string>> list;
    for (int i = 1; i <= players; ++i)
      list.emplace_back("p" + std::to_string(i), "Player " + std::to_string(i));
    create_tournament(t, "catan", list);
  }

  Tables seat(const std::string& t, const json::object& body) {
    auto r = org().post("/v1/tournaments/" + t + "/rounds", body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? tables_of(r.json()) : Tables{};
  }

  Tables seat_manual(const std::string& t, const Tables& tables) {
    json::array list;
    for (const auto& table : tables) {
      json::array players;
      for (const auto& p : table) players.emplace_back(p);
      list.push_back(std::move(players));
    }
    return seat(t, json::object{{"method", "manual"}, {"tables", std::move(list)}});
  }

  // Enters every table's result of `round`, four clients at once (tables never conflict).
  void report(const std::string& t, int round, const Tables& tables) {
    std::atomic<int> failures = 0;
    std::vector<std::thread> clients;
    for (std::size_t c = 0; c < 4; ++c) {
      clients.emplace_back([&, c] {
        HttpClient client = daemon_->organizer();
        for (std::size_t i = c; i < tables.size(); i += 4) {
          auto r = client.put(result_path(t, round, i + 1), table_result(tables[i], i),
                              {{"If-None-Match", "*"}});
          if (r.status != 201) {
            ++failures;
            ADD_FAILURE() << "table " << i + 1 << ": " << r.status << " " << r.body;
          }
        }
      });
    }
    for (auto& c : clients) c.join();
    ASSERT_EQ(failures.load(), 0);
  }

  // A field of `players`, round 1 drawn and fully reported: round 2 is seated by standings.
  Tables big_tournament(const std::string& t, int players) {
    create(t, players);
    Tables round1 = seat(t, json::object{{"method", "random"}, {"seed", 20260418}});
    EXPECT_EQ(round1.size(), std::size_t(players / 4));
    report(t, 1, round1);
    return round1;
  }

  // Round 2 seats every player of the field exactly once, four to a table.
  static void expect_everyone_seated(const Tables& tables, int players) {
    std::set<std::string> seated;
    for (const auto& table : tables) {
      EXPECT_EQ(table.size(), 4u);
      seated.insert(table.begin(), table.end());
    }
    EXPECT_EQ(seated.size(), std::size_t(players));
    EXPECT_EQ(tables.size(), std::size_t(players / 4));
  }
};

// Between two requests of one of the other clients (a screen polls, a judge types): they share
// the machine's cores with the seating.
constexpr auto kPause = std::chrono::milliseconds(10);

struct Latencies {
  int count = 0;
  double max = 0;
  void add(Seconds took) {
    ++count;
    max = std::max(max, took.count());
  }
};

// One seating of round 2 of `big` (a field whose round 1 is reported) while other clients read
// and write the tournament `small` (round 1 seated, its first table reported): the seating's
// answer and time, and the others' requests, each measured from its start to its answer.
struct StallRun {
  HttpReply seated;
  Seconds seating_took{};
  std::vector<Latencies> reads = std::vector<Latencies>(2);
  Latencies writes;
  int failures = 0;
};

// Seats round 2 of `big` by standings (Idempotency-Key "seat-{big}-2") while two clients read the
// standings of `small_id` and one enters its second table's result and corrects it again and
// again, each pausing kPause between two requests.
StallRun seat_while_others_work(const TallydProcess& daemon, const std::string& big,
                                const std::string& small_id, const Tables& small) {
  StallRun run;
  std::atomic<bool> seating_done = false;
  std::atomic<int> failures = 0;
  const auto seating_started = Clock::now();
  std::thread organizer([&] {
    HttpClient client = daemon.organizer();
    try {
      run.seated =
          client.post("/v1/tournaments/" + big + "/rounds", json::object{{"method", "standings"}},
                      {{"Idempotency-Key", "seat-" + big + "-2"}});
    } catch (const std::exception& e) {
      // Said as a failure of its own, not as an abort of the whole binary.
      ADD_FAILURE() << "seating the big round: " << e.what();
    }
    run.seating_took = Clock::now() - seating_started;
    seating_done = true;
  });
  std::vector<std::thread> others;
  for (auto& latencies : run.reads) {
    others.emplace_back([&] {
      HttpClient client = daemon.organizer();
      while (!seating_done) {
        auto started = Clock::now();
        auto r = client.get("/v1/tournaments/" + small_id + "/standings");
        latencies.add(Clock::now() - started);
        if (r.status != 200) ++failures;
        std::this_thread::sleep_for(kPause);
      }
    });
  }
  others.emplace_back([&] {
    HttpClient client = daemon.organizer();
    // The second table's result, then one correction after another.
    std::string etag;
    for (int n = 0; !seating_done; ++n) {
      auto started = Clock::now();
      auto r = etag.empty() ? client.put(result_path(small_id, 1, 2), table_result(small[1], 0),
                                         {{"If-None-Match", "*"}})
                            : client.put(result_path(small_id, 1, 2),
                                         table_result(small[1], static_cast<std::size_t>(n),
                                                      "recount " + std::to_string(n)),
                                         {{"If-Match", etag}});
      run.writes.add(Clock::now() - started);
      if (r.status != 201 && r.status != 200) {
        ++failures;
        ADD_FAILURE() << r.status << " " << r.body;
        return;
      }
      etag = r.header("ETag");
      std::this_thread::sleep_for(kPause);
    }
  });
  organizer.join();
  for (auto& t : others) t.join();
  run.failures = failures;
  return run;
}

TEST_F(SeatingStall, WhileABigFieldIsSeatedOtherTournamentsAreReadAndWrittenAtOnce) {
  int players = field_size();
  std::string big;
  StallRun run;
  for (int doubling = 0;; ++doubling, players *= 2) {
    big = "big" + std::to_string(players);
    const std::string small_id = "small" + std::to_string(players);
    big_tournament(big, players);
    // The small tournament other clients use meanwhile: two tables, the first one reported.
    create(small_id, 8);
    const Tables small =
        seat_manual(small_id, {{"p1", "p2", "p3", "p4"}, {"p5", "p6", "p7", "p8"}});
    ASSERT_EQ(small.size(), 2u);
    ASSERT_EQ(
        org()
            .put(result_path(small_id, 1, 1), table_result(small[0], 0), {{"If-None-Match", "*"}})
            .status,
        201);
    ASSERT_FALSE(HasFailure());
    run = seat_while_others_work(*daemon_, big, small_id, small);
    ASSERT_EQ(run.seated.status, 201) << run.seated.body;
    double max_read = std::max(run.reads[0].max, run.reads[1].max);
    std::cout << "seating " << players << " players by standings took " << run.seating_took.count()
              << " s; meanwhile " << run.reads[0].count + run.reads[1].count
              << " standings reads (max " << max_read << " s) and " << run.writes.count
              << " result writes (max " << run.writes.max << " s)\n";
    if (run.seating_took > kObservable) break;
    ASSERT_LT(doubling, kMaxDoublings)
        << "seating " << players << " players took only " << run.seating_took.count()
        << " s, too quick to show a stall, after doubling the field " << kMaxDoublings
        << " times (start bigger: TALLY_SEATING_PLAYERS)";
  }

  const json::value seated = run.seated.json();
  EXPECT_EQ(run.failures, 0);
  EXPECT_EQ(seated.at("round"), 2);
  EXPECT_EQ(seated.at("method"), "standings");
  expect_everyone_seated(tables_of(seated), players);
  // Nothing waited for the seating: every other request was answered in a small fraction of it.
  EXPECT_GE(run.reads[0].count + run.reads[1].count, 10);
  EXPECT_GE(run.writes.count, 5);
  const double bound = std::min(1.0, run.seating_took.count() / 5);
  EXPECT_LT(std::max(run.reads[0].max, run.reads[1].max), bound);
  EXPECT_LT(run.writes.max, bound);

  // Appended once: round 2 is the one answered, and there is no round 3.
  const std::string path = "/v1/tournaments/" + big;
  auto round2 = org().get(path + "/rounds/2");
  ASSERT_EQ(round2.status, 200) << round2.body;
  EXPECT_EQ(tables_of(round2.json()), tables_of(seated));
  // The organizer's retry (same Idempotency-Key) is answered from the seating, not seated again.
  auto retry = org().post(path + "/rounds", json::object{{"method", "standings"}},
                          {{"Idempotency-Key", "seat-" + big + "-2"}});
  ASSERT_EQ(retry.status, 201) << retry.body;
  EXPECT_EQ(seq_of(retry), seq_of(run.seated));
  EXPECT_EQ(retry.json().at("round"), 2);
  EXPECT_EQ(org().get(path + "/rounds/3").status, 404);
  auto tournament = org().get(path);
  ASSERT_EQ(tournament.status, 200);
  // Two rounds seated, no third (check-in's `round` names the round to be seated next: 3).
  EXPECT_EQ(tournament.json().at("rounds").as_array().size(), 2u);
}

TEST_F(SeatingStall, ACorrectionEnteredWhileTheRoundIsSeatedIsInTheSeating) {
  int players = field_size();
  std::string big;
  Tables round1;
  HttpReply corrected, seated;
  std::size_t discarded_before = 0;
  for (int doubling = 0;; ++doubling, players *= 2) {
    big = "big" + std::to_string(players);
    round1 = big_tournament(big, players);
    ASSERT_FALSE(round1.empty());
    discarded_before = occurrences(daemon_->log(), "seating discarded");

    // The organizer seats round 2 by standings; while that is computed, a judge corrects table
    // 1 of round 1: its last place wins instead.
    std::atomic<bool> seating_done = false;
    std::thread organizer([&] {
      HttpClient client = daemon_->organizer();
      try {
        seated = client.post("/v1/tournaments/" + big + "/rounds",
                             json::object{{"method", "standings"}});
      } catch (const std::exception& e) {
        ADD_FAILURE() << "seating the big round: " << e.what();
      }
      seating_done = true;
    });
    // The seating's request on its way (tallyd says nothing when it starts one).
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    HttpClient judge = daemon_->organizer();
    corrected = judge.put(result_path(big, 1, 1), table_result(round1[0], 3, "recount"),
                          {{"If-Match", "\"1\""}});
    const bool corrected_first = !seating_done;
    organizer.join();
    ASSERT_EQ(corrected.status, 200) << corrected.body;
    ASSERT_EQ(seated.status, 201) << seated.body;
    if (corrected_first) break;
    std::cout << "seating " << players
              << " players was answered before the correction: the field doubles\n";
    ASSERT_LT(doubling, kMaxDoublings)
        << "the seating of " << players << " players was answered before the correction, "
        << "after doubling the field " << kMaxDoublings
        << " times (start bigger: TALLY_SEATING_PLAYERS)";
  }
  // The correction came first in the log, so the seating is of the corrected standings.
  EXPECT_LT(seq_of(corrected), seq_of(seated));
  const Tables round2 = tables_of(seated.json());
  expect_everyone_seated(round2, players);
  EXPECT_GT(occurrences(daemon_->log_once([&](const std::string& log) {
              return occurrences(log, "seating discarded") > discarded_before;
            }),
                        "seating discarded"),
            discarded_before)
      << "the seating was not computed again after the correction";

  // The same field with the correction entered before the seating seats round 2 the same way.
  create("reference", players);
  ASSERT_EQ(seat_manual("reference", round1), round1);
  report("reference", 1, round1);
  auto ref_corrected = org().put(result_path("reference", 1, 1),
                                 table_result(round1[0], 3, "recount"), {{"If-Match", "\"1\""}});
  ASSERT_EQ(ref_corrected.status, 200) << ref_corrected.body;
  EXPECT_EQ(seat("reference", json::object{{"method", "standings"}}), round2);
}

}  // namespace
}  // namespace tally::testing
