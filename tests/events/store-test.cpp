#include "events/store.hpp"

#include "tests/support/stored_record.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace tally::events {
namespace {

using tally::testing::TempDir;

// A claim by `player`: the smallest real payload, enough to tell events apart.
Draft claim(const std::string& player, const std::string& author = "eva") {
  Draft d;
  auto e = d.event();
  e.setAuthor(author);
  e.getPayload().initClaimedWin().setPlayer(player);
  return d;
}

AppendRequest request(const std::string& stream, ExpectedVersion expected,
                      std::vector<std::string> players, std::string key = "") {
  AppendRequest r;
  r.stream = stream;
  r.expected = expected;
  for (auto& p : players) r.events.push_back(claim(p));
  r.idempotency_key = std::move(key);
  return r;
}

std::string player_of(const StoredEvent& e) {
  return e.event().getPayload().getClaimedWin().getPlayer();
}

TEST(EventStore, FirstAppendCreatesTheStreamAtVersionOne) {
  TempDir dir;
  EventStore store(dir.str());
  auto r = store.append(request("t/a", ExpectedVersion::no_stream(), {"p1"}));
  ASSERT_EQ(r.status, AppendStatus::appended);
  EXPECT_EQ(r.first_seq, 1u);
  EXPECT_EQ(r.last_seq, 1u);
  EXPECT_EQ(r.stream_version, 1u);
  auto events = store.read_view().stream("t/a");
  ASSERT_EQ(events.size(), 1u);
  auto e = events[0].event();
  EXPECT_EQ(e.getSeq(), 1u);
  EXPECT_EQ(e.getVersion(), 1u);
  EXPECT_EQ(std::string(e.getStream().cStr()), "t/a");
  EXPECT_EQ(std::string(e.getAuthor().cStr()), "eva");
  EXPECT_GT(e.getRecordedAt(), 1700000000000000);
  EXPECT_EQ(e.getPrevHash().size(), 32u);
}

TEST(EventStore, NoStreamExpectationFailsOnAnExistingStream) {
  TempDir dir;
  EventStore store(dir.str());
  ASSERT_EQ(store.append(request("t/a", ExpectedVersion::no_stream(), {"p1", "p2"})).status,
            AppendStatus::appended);
  auto r = store.append(request("t/a", ExpectedVersion::no_stream(), {"p3"}));
  EXPECT_EQ(r.status, AppendStatus::version_conflict);
  EXPECT_EQ(r.stream_version, 2u);
  EXPECT_EQ(store.head().seq, 2u);
}

TEST(EventStore, ExactVersionAppendsOnlyWhenTheStreamIsThere) {
  TempDir dir;
  EventStore store(dir.str());
  store.append(request("t/a", ExpectedVersion::no_stream(), {"p1"}));

  auto stale = store.append(request("t/a", ExpectedVersion::exactly(0), {"x"}));
  EXPECT_EQ(stale.status, AppendStatus::version_conflict);
  EXPECT_EQ(stale.stream_version, 1u);

  auto ahead = store.append(request("t/a", ExpectedVersion::exactly(5), {"x"}));
  EXPECT_EQ(ahead.status, AppendStatus::version_conflict);
  EXPECT_EQ(ahead.stream_version, 1u);

  auto ok = store.append(request("t/a", ExpectedVersion::exactly(1), {"p2", "p3"}));
  EXPECT_EQ(ok.status, AppendStatus::appended);
  EXPECT_EQ(ok.first_seq, 2u);
  EXPECT_EQ(ok.last_seq, 3u);
  EXPECT_EQ(ok.stream_version, 3u);

  auto events = store.read_view().stream("t/a");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(player_of(events[2]), "p3");  // the conflicts appended nothing
}

TEST(EventStore, ExactVersionOnAMissingStreamConflictsWithVersionZero) {
  TempDir dir;
  EventStore store(dir.str());
  auto r = store.append(request("t/new", ExpectedVersion::exactly(3), {"p1"}));
  EXPECT_EQ(r.status, AppendStatus::version_conflict);
  EXPECT_EQ(r.stream_version, 0u);
  EXPECT_EQ(store.head().seq, 0u);
}

TEST(EventStore, AnyVersionAlwaysAppends) {
  TempDir dir;
  EventStore store(dir.str());
  EXPECT_EQ(store.append(request("s", ExpectedVersion::any(), {"a"})).stream_version, 1u);
  EXPECT_EQ(store.append(request("s", ExpectedVersion::any(), {"b"})).stream_version, 2u);
}

TEST(EventStore, BadRequestsAreRefusedWithoutWriting) {
  TempDir dir;
  EventStore store(dir.str());
  EXPECT_EQ(store.append(request("", ExpectedVersion::any(), {"a"})).status, AppendStatus::invalid);
  EXPECT_EQ(store.append(request(std::string("a\0b", 3), ExpectedVersion::any(), {"a"})).status,
            AppendStatus::invalid);
  EXPECT_EQ(store.append(request("s", ExpectedVersion::any(), {})).status, AppendStatus::invalid);
  EXPECT_EQ(store.head().seq, 0u);
}

TEST(EventStore, SameIdempotencyKeyAndContentReturnsTheOriginalSeqs) {
  TempDir dir;
  EventStore store(dir.str());
  auto first = store.append(request("t/a", ExpectedVersion::no_stream(), {"p1", "p2"}, "k-1"));
  ASSERT_EQ(first.status, AppendStatus::appended);
  // The retry's expectation no longer holds, but the key wins: it is the same request.
  auto retry = store.append(request("t/a", ExpectedVersion::no_stream(), {"p1", "p2"}, "k-1"));
  EXPECT_EQ(retry.status, AppendStatus::duplicate);
  EXPECT_EQ(retry.first_seq, first.first_seq);
  EXPECT_EQ(retry.last_seq, first.last_seq);
  EXPECT_EQ(retry.stream_version, 2u);
  EXPECT_EQ(store.head().seq, 2u);
  auto events = store.read_view().stream("t/a");
  EXPECT_EQ(std::string(events[0].event().getEventId().cStr()), "k-1");
}

TEST(EventStore, SameIdempotencyKeyWithOtherContentIsRefused) {
  TempDir dir;
  EventStore store(dir.str());
  store.append(request("t/a", ExpectedVersion::any(), {"p1"}, "k-1"));
  auto other = store.append(request("t/a", ExpectedVersion::any(), {"p9"}, "k-1"));
  EXPECT_EQ(other.status, AppendStatus::idempotency_mismatch);
  auto other_stream = store.append(request("t/b", ExpectedVersion::any(), {"p1"}, "k-1"));
  EXPECT_EQ(other_stream.status, AppendStatus::idempotency_mismatch);
  EXPECT_EQ(store.head().seq, 1u);
}

TEST(EventStore, ExplicitContentDigestDecidesWhatIsTheSameRequest) {
  TempDir dir;
  EventStore store(dir.str());
  auto a = request("t/a", ExpectedVersion::any(), {"p1"}, "k");
  a.content_digest = sha256("PUT /x {body}");
  ASSERT_EQ(store.append(std::move(a)).status, AppendStatus::appended);
  auto b = request("t/a", ExpectedVersion::any(), {"p1"}, "k");
  b.content_digest = sha256("PUT /x {other body}");
  EXPECT_EQ(store.append(std::move(b)).status, AppendStatus::idempotency_mismatch);
}

TEST(EventStore, IdempotencyKeysSurviveAReopen) {
  TempDir dir;
  AppendResult first;
  {
    EventStore store(dir.str());
    first = store.append(request("t/a", ExpectedVersion::no_stream(), {"p1"}, "retry-me"));
    ASSERT_EQ(first.status, AppendStatus::appended);
  }
  EventStore store(dir.str());
  auto retry = store.append(request("t/a", ExpectedVersion::no_stream(), {"p1"}, "retry-me"));
  EXPECT_EQ(retry.status, AppendStatus::duplicate);
  EXPECT_EQ(retry.first_seq, first.first_seq);
  EXPECT_EQ(retry.stream_version, 1u);
  auto mismatch = store.append(request("t/a", ExpectedVersion::any(), {"p2"}, "retry-me"));
  EXPECT_EQ(mismatch.status, AppendStatus::idempotency_mismatch);
  EXPECT_EQ(store.head().seq, 1u);
}

TEST(EventStore, ReopenFindsHeadAndStreamVersionsWithoutLosingAnything) {
  TempDir dir;
  Head before;
  {
    EventStore store(dir.str());
    for (int i = 0; i < 10; ++i) {
      store.append(request("t/a/r/1/table/" + std::to_string(i % 3), ExpectedVersion::any(),
                           {"p" + std::to_string(i)}));
    }
    before = store.head();
  }
  EventStore store(dir.str());
  EXPECT_EQ(store.head().seq, before.seq);
  EXPECT_EQ(store.head().hash, before.hash);
  // table 0 got appends 0, 3, 6, 9: version 4
  auto r = store.append(request("t/a/r/1/table/0", ExpectedVersion::exactly(4), {"next"}));
  EXPECT_EQ(r.status, AppendStatus::appended);
  EXPECT_EQ(r.first_seq, 11u);
  EXPECT_EQ(r.stream_version, 5u);
  auto events = store.read_view().stream("t/a/r/1/table/0");
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[4].event().getPrevHash(),
            capnp::Data::Reader(before.hash.data(), before.hash.size()));
  EXPECT_TRUE(store.verify().ok);
}

TEST(EventStore, EventTimesNeverGoBackwards) {
  TempDir dir;
  EventStore store(dir.str());
  for (int i = 0; i < 50; ++i) store.append(request("s", ExpectedVersion::any(), {"p"}));
  std::int64_t last = 0;
  for (auto& e : store.read_view().log(1)) {
    EXPECT_GE(e.event().getRecordedAt(), last);
    last = e.event().getRecordedAt();
  }
}

TEST(EventStore, ReadsByStreamFromVersionAndLogFromSeq) {
  TempDir dir;
  EventStore store(dir.str());
  for (int i = 1; i <= 6; ++i) {
    store.append(
        request(i % 2 ? "odd" : "even", ExpectedVersion::any(), {"p" + std::to_string(i)}));
  }
  auto view = store.read_view();
  auto odd = view.stream("odd", 2);
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(player_of(odd[0]), "p3");
  EXPECT_EQ(player_of(odd[1]), "p5");
  EXPECT_EQ(view.stream("odd", 1, 1).size(), 1u);
  EXPECT_TRUE(view.stream("nothing").empty());

  auto log = view.log(4, 2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].seq(), 4u);
  EXPECT_EQ(log[1].seq(), 5u);
  EXPECT_EQ(view.stream_version("even"), 3u);
  EXPECT_EQ(view.stream_version("none"), 0u);
  ASSERT_TRUE(view.event(6).has_value());
  EXPECT_EQ(player_of(*view.event(6)), "p6");
  EXPECT_FALSE(view.event(7).has_value());
  EXPECT_FALSE(view.event(0).has_value());
}

TEST(EventStore, TreeReadsATournamentAndItsTablesButNotItsNamesakes) {
  TempDir dir;
  EventStore store(dir.str());
  store.append(request("t/brno", ExpectedVersion::any(), {"1"}));
  store.append(request("t/brno-2", ExpectedVersion::any(), {"x"}));
  store.append(request("t/brno/r/1/table/2", ExpectedVersion::any(), {"2"}));
  store.append(request("t/brnox/r/1/table/1", ExpectedVersion::any(), {"y"}));
  store.append(request("t/brno/r/1/table/1", ExpectedVersion::any(), {"3"}));
  store.append(request("t/brno", ExpectedVersion::any(), {"4"}));
  auto events = store.read_view().tree("t/brno");
  std::vector<std::string> players;
  for (auto& e : events) players.push_back(player_of(e));
  EXPECT_EQ(players, (std::vector<std::string>{"1", "2", "3", "4"}));
}

TEST(EventStore, AReadViewIsASnapshot) {
  TempDir dir;
  EventStore store(dir.str());
  store.append(request("s", ExpectedVersion::any(), {"before"}));
  auto view = store.read_view();
  store.append(request("s", ExpectedVersion::any(), {"after"}));
  EXPECT_EQ(view.head().seq, 1u);
  EXPECT_EQ(view.stream("s").size(), 1u);
  EXPECT_EQ(view.log(1).size(), 1u);
  EXPECT_EQ(view.stream_version("s"), 1u);
  EXPECT_EQ(store.read_view().stream("s").size(), 2u);
}

TEST(EventStore, ManyThreadsOnOneStreamLoseNoUpdate) {
  TempDir dir;
  EventStore store(dir.str());
  constexpr int kThreads = 16, kPerThread = 40;
  std::atomic<int> conflicts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        // Read, decide, append with the version read: retry on conflict (optimistic concurrency).
        for (;;) {
          std::uint64_t v = store.read_view().stream_version("table");
          auto r = store.append(request("table", ExpectedVersion::exactly(v),
                                        {std::to_string(t) + "/" + std::to_string(i)}));
          if (r.status == AppendStatus::appended) break;
          ASSERT_EQ(r.status, AppendStatus::version_conflict);
          ++conflicts;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  auto events = store.read_view().stream("table");
  ASSERT_EQ(events.size(), std::size_t(kThreads * kPerThread));
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].event().getVersion(), i + 1);
    EXPECT_EQ(events[i].seq(), i + 1);
    distinct.insert(player_of(events[i]));
  }
  EXPECT_EQ(distinct.size(), events.size());  // every update is there exactly once
  EXPECT_TRUE(store.verify().ok);
}

TEST(EventStore, ManyThreadsOnTheirOwnStreamsGetContiguousSeqsAndVersions) {
  TempDir dir;
  EventStore store(dir.str());
  constexpr int kThreads = 32, kPerThread = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::string stream = "t/x/r/1/table/" + std::to_string(t);
      for (int i = 0; i < kPerThread; ++i) {
        auto r = store.append(request(stream, ExpectedVersion::exactly(i), {std::to_string(i)}));
        ASSERT_EQ(r.status, AppendStatus::appended);
        ASSERT_EQ(r.stream_version, std::uint64_t(i + 1));
      }
    });
  }
  for (auto& th : threads) th.join();
  auto view = store.read_view();
  auto log = view.log(1);
  ASSERT_EQ(log.size(), std::size_t(kThreads * kPerThread));
  for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i].seq(), i + 1);  // no gap, no dup
  for (int t = 0; t < kThreads; ++t) {
    auto events = view.stream("t/x/r/1/table/" + std::to_string(t));
    ASSERT_EQ(events.size(), std::size_t(kPerThread));
    for (int i = 0; i < kPerThread; ++i) {
      EXPECT_EQ(events[i].event().getVersion(), std::uint64_t(i + 1));
      EXPECT_EQ(player_of(events[i]), std::to_string(i));
    }
  }
  EXPECT_TRUE(store.verify().ok);
}

TEST(EventStore, SubscribersSeeEveryEventOnceInSeqOrderBeforeTheAck) {
  TempDir dir;
  EventStore store(dir.str());
  std::mutex m;
  std::vector<std::uint64_t> seen;
  store.subscribe([&](const StoredEvent& e) {
    std::lock_guard lock(m);
    seen.push_back(e.seq());
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        auto r = store.append(request("s" + std::to_string(t), ExpectedVersion::any(), {"p"}));
        std::lock_guard lock(m);
        // Acknowledged means already published.
        EXPECT_NE(std::find(seen.begin(), seen.end(), r.first_seq), seen.end());
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_EQ(seen.size(), 200u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i + 1);
}

TEST(EventStore, FlushReturnsOnceEveryQueuedAppendIsAnswered) {
  TempDir dir;
  EventStore store(dir.str());
  constexpr int kAppends = 300;
  std::atomic<int> answered{0};
  for (int i = 0; i < kAppends; ++i) {
    store.append_async(request("s" + std::to_string(i % 7), ExpectedVersion::any(), {"p"}),
                       [&](AppendResult r) {
                         EXPECT_EQ(r.status, AppendStatus::appended);
                         ++answered;
                       });
  }
  store.flush();
  EXPECT_EQ(answered.load(), kAppends);
  EXPECT_EQ(store.head().seq, static_cast<std::uint64_t>(kAppends));
}

TEST(EventStore, UnsubscribedListenersHearNothingMore) {
  TempDir dir;
  EventStore store(dir.str());
  int heard = 0;
  auto id = store.subscribe([&](const StoredEvent&) { ++heard; });
  store.append(request("s", ExpectedVersion::any(), {"a"}));
  store.unsubscribe(id);
  store.append(request("s", ExpectedVersion::any(), {"b"}));
  EXPECT_EQ(heard, 1);
}

TEST(EventStore, VerifyAcceptsAnIntactChainAndReportsItsHead) {
  TempDir dir;
  EventStore store(dir.str());
  for (int i = 0; i < 20; ++i) store.append(request("s", ExpectedVersion::any(), {"p"}));
  auto v = store.verify();
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.events, 20u);
  EXPECT_EQ(v.head, store.head().hash);
}

// Flips one bit of the stored record of `seq` at `offset`.
void flip_byte(const std::string& dir, std::uint64_t seq, std::size_t offset) {
  tally::testing::rewrite_stored_record(dir, seq, [&](std::string& record) {
    ASSERT_LT(offset, record.size());
    record[offset] = static_cast<char>(record[offset] ^ 0x01);
  });
}

class VerifyDetectsAFlippedByte : public ::testing::TestWithParam<std::size_t> {};

TEST_P(VerifyDetectsAFlippedByte, AndNamesItsSeq) {
  TempDir dir;
  {
    EventStore store(dir.str());
    for (int i = 0; i < 30; ++i) {
      store.append(request("s", ExpectedVersion::any(), {"player-" + std::to_string(i)}));
    }
  }
  flip_byte(dir.str(), 17, GetParam());
  EventStore store(dir.str());
  auto v = store.verify();
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_bad, 17u) << v.problem;
}

// Offsets: inside the stored hash, at the start of the event's bytes, deep in its payload.
INSTANTIATE_TEST_SUITE_P(Offsets, VerifyDetectsAFlippedByte, ::testing::Values(0, 20, 40, 100));

// A damaged event in the middle of the log: every read that decodes it throws DamagedEvent naming
// it (Cap'n Proto's own exception would end tallyd: nothing up the stack catches it), the events
// around it read as before, and the writer, asked again for the append that made it (its
// idempotency key), answers that one request `failed` and goes on appending.
TEST(EventStore, ADamagedEventIsNamedByEveryReadAndTheWriterGoesOn) {
  TempDir dir;
  {
    EventStore store(dir.str());
    for (int i = 1; i <= 5; ++i) {
      store.append(request("s", ExpectedVersion::any(), {"p" + std::to_string(i)},
                           "key-" + std::to_string(i)));
    }
  }
  tally::testing::rewrite_stored_record(dir.str(), 3, [](std::string& record) {
    record.replace(32, 8, std::string("\xff\xff\x00\x00\xff\xff\x00\x00", 8));
  });
  EventStore store(dir.str());
  auto names_event_3 = [](const DamagedEvent& e) {
    EXPECT_EQ(e.seq(), 3u);
    EXPECT_NE(std::string(e.what()).find("the log is damaged: event 3 cannot be read"),
              std::string::npos)
        << e.what();
  };
  auto view = store.read_view();
  try {
    view.event(3);
    ADD_FAILURE() << "event(3) read a damaged event";
  } catch (const DamagedEvent& e) {
    names_event_3(e);
  }
  std::vector<std::uint64_t> visited;
  try {
    view.scan(1, [&](const StoredEvent& e) {
      visited.push_back(e.seq());
      return true;
    });
    ADD_FAILURE() << "scan() went past a damaged event";
  } catch (const DamagedEvent& e) {
    names_event_3(e);
  }
  EXPECT_EQ(visited, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_THROW(view.stream("s"), DamagedEvent);
  EXPECT_EQ(player_of(*view.event(4)), "p4");

  auto again = store.append(request("s", ExpectedVersion::any(), {"p3"}, "key-3"));
  EXPECT_EQ(again.status, AppendStatus::failed);
  EXPECT_NE(again.error.find("the log is damaged: event 3 cannot be read"), std::string::npos)
      << again.error;
  auto next = store.append(request("s", ExpectedVersion::any(), {"p6"}, "key-6"));
  ASSERT_EQ(next.status, AppendStatus::appended) << next.error;
  EXPECT_EQ(next.first_seq, 6u);
  EXPECT_EQ(store.append(request("s", ExpectedVersion::any(), {"p5"}, "key-5")).status,
            AppendStatus::duplicate);
}

// The store reads its newest event when it opens (event times never go backwards): when that
// event does not decode, the open fails with an error naming it, not with Cap'n Proto's
// exception (no std::exception: tallyd would die without a word), and a second open after the
// first failed finds the database closed properly.
TEST(EventStore, ADamagedNewestEventStopsTheOpenNamingIt) {
  TempDir dir;
  {
    EventStore store(dir.str());
    for (int i = 0; i < 5; ++i) store.append(request("s", ExpectedVersion::any(), {"p"}));
  }
  tally::testing::rewrite_stored_record(dir.str(), 5, [](std::string& record) {
    record.replace(32, 8, std::string("\xff\xff\x00\x00\xff\xff\x00\x00", 8));
  });
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      EventStore store(dir.str());
      ADD_FAILURE() << "a store whose newest event is damaged opened";
    } catch (const DamagedEvent& e) {
      EXPECT_EQ(e.seq(), 5u);
      EXPECT_NE(std::string(e.what()).find("the log is damaged: event 5 cannot be read"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(EventStore, DraftsWithTheSameContentHaveTheSameDefaultDigest) {
  auto a = request("t/a", ExpectedVersion::any(), {"p1", "p2"});
  auto b = request("t/a", ExpectedVersion::no_stream(), {"p1", "p2"});
  auto c = request("t/a", ExpectedVersion::any(), {"p1", "p3"});
  auto d = request("t/b", ExpectedVersion::any(), {"p1", "p2"});
  EXPECT_EQ(EventStore::default_digest(a), EventStore::default_digest(b));
  EXPECT_NE(EventStore::default_digest(a), EventStore::default_digest(c));
  EXPECT_NE(EventStore::default_digest(a), EventStore::default_digest(d));
}

// --- A batch whose write fails ------------------------------------------------------------------

// Fault injection in the group commit (StoreOptions::fail_write_for_testing): while `on`, every
// batch's write fails with an I/O error before it reaches RocksDB. `writes` counts the batches
// that got as far as the write (so a test can tell that its appends formed one batch).
struct WriteFault {
  std::atomic<bool> on{false};
  std::atomic<int> writes{0};

  StoreOptions options() {
    StoreOptions o;
    o.fail_write_for_testing = [this]() -> std::optional<std::string> {
      ++writes;
      if (on) return "injected write fault";
      return std::nullopt;
    };
    return o;
  }
};

// Keeps the writer thread busy (in the completion of an append that writes nothing) until
// release(), so that every append queued meanwhile is taken into one batch after it.
class HoldTheWriter {
 public:
  explicit HoldTheWriter(EventStore& store) {
    auto entered = std::make_shared<std::promise<void>>();
    auto inside = entered->get_future();
    store.append_async(AppendRequest{},
                       [entered, released = released_.get_future().share()](AppendResult) {
                         entered->set_value();
                         released.wait();
                       });
    inside.wait();
  }
  ~HoldTheWriter() { release(); }
  HoldTheWriter(const HoldTheWriter&) = delete;
  HoldTheWriter& operator=(const HoldTheWriter&) = delete;

  void release() {
    if (!let_go_) released_.set_value();
    let_go_ = true;
  }

 private:
  std::promise<void> released_;
  bool let_go_ = false;
};

std::future<AppendResult> queue(EventStore& store, AppendRequest r) {
  auto promise = std::make_shared<std::promise<AppendResult>>();
  auto result = promise->get_future();
  store.append_async(std::move(r),
                     [promise](AppendResult answer) { promise->set_value(std::move(answer)); });
  return result;
}

// Queues `requests` so that they form one batch, lets the writer take them, and returns the
// answers in order.
template <typename... Requests>
std::vector<AppendResult> one_batch(EventStore& store, Requests... requests) {
  std::vector<std::future<AppendResult>> answers;
  {
    HoldTheWriter hold(store);
    (answers.push_back(queue(store, std::move(requests))), ...);
  }
  std::vector<AppendResult> out;
  for (auto& a : answers) out.push_back(a.get());
  return out;
}

// Every seq an answer names as appended or duplicate is in the log, and a failed answer names
// none.
void expect_answers_name_only_stored_seqs(EventStore& store,
                                          const std::vector<AppendResult>& answers) {
  auto view = store.read_view();
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const AppendResult& a = answers[i];
    SCOPED_TRACE("answer " + std::to_string(i));
    if (a.status == AppendStatus::appended || a.status == AppendStatus::duplicate) {
      ASSERT_GE(a.first_seq, 1u);
      ASSERT_LE(a.first_seq, a.last_seq);
      for (std::uint64_t seq = a.first_seq; seq <= a.last_seq; ++seq) {
        EXPECT_TRUE(view.event(seq).has_value()) << "seq " << seq << " is not in the log";
      }
    } else {
      EXPECT_EQ(a.first_seq, 0u);
      EXPECT_EQ(a.last_seq, 0u);
    }
  }
}

void expect_failed(const AppendResult& r) {
  EXPECT_EQ(r.status, AppendStatus::failed);
  EXPECT_EQ(r.first_seq, 0u);
  EXPECT_EQ(r.last_seq, 0u);
  EXPECT_EQ(r.stream_version, 0u);
  EXPECT_NE(r.error.find("injected write fault"), std::string::npos) << r.error;
}

TEST(FailedBatch, ADuplicateOfAnAppendInTheSameBatchFailsWithIt) {
  TempDir dir;
  WriteFault fault;
  EventStore store(dir.str(), fault.options());
  ASSERT_EQ(store.append(request("t/a", ExpectedVersion::no_stream(), {"p0"})).status,
            AppendStatus::appended);
  std::vector<std::uint64_t> heard;
  store.subscribe([&](const StoredEvent& e) { heard.push_back(e.seq()); });
  Head before = store.head();
  int writes_before = fault.writes;

  fault.on = true;
  auto answers = one_batch(store, request("t/a", ExpectedVersion::any(), {"p1"}, "k"),
                           request("t/a", ExpectedVersion::any(), {"p1"}, "k"));
  EXPECT_EQ(fault.writes - writes_before, 1);  // one batch, one (failed) write
  ASSERT_EQ(answers.size(), 2u);
  expect_failed(answers[0]);
  expect_failed(answers[1]);  // not "duplicate" of an append that is not there
  expect_answers_name_only_stored_seqs(store, answers);
  EXPECT_EQ(store.head().seq, before.seq);
  EXPECT_EQ(store.head().hash, before.hash);
  EXPECT_EQ(store.read_view().stream_version("t/a"), 1u);
  EXPECT_FALSE(store.read_view().idempotency("k").has_value());
  EXPECT_TRUE(heard.empty());

  fault.on = false;
  // The store's own idea of the version is back at 1 too: an exact expectation of 1 holds.
  auto retry = store.append(request("t/a", ExpectedVersion::exactly(1), {"p1"}, "k"));
  ASSERT_EQ(retry.status, AppendStatus::appended);
  EXPECT_EQ(retry.first_seq, 2u);
  EXPECT_EQ(retry.last_seq, 2u);
  EXPECT_EQ(retry.stream_version, 2u);
  auto again = store.append(request("t/a", ExpectedVersion::exactly(1), {"p1"}, "k"));
  EXPECT_EQ(again.status, AppendStatus::duplicate);
  EXPECT_EQ(again.first_seq, 2u);
  EXPECT_EQ(again.last_seq, 2u);
  EXPECT_EQ(again.stream_version, 2u);
  expect_answers_name_only_stored_seqs(store, {retry, again});
  EXPECT_EQ(store.head().seq, 2u);
  EXPECT_EQ(store.read_view().stream("t/a").size(), 2u);
  EXPECT_EQ(heard, (std::vector<std::uint64_t>{2}));
  auto v = store.verify();
  EXPECT_TRUE(v.ok) << v.problem;
}

TEST(FailedBatch, AMismatchWithAnAppendInTheSameBatchFailsWithIt) {
  TempDir dir;
  WriteFault fault;
  EventStore store(dir.str(), fault.options());
  fault.on = true;
  auto answers = one_batch(store, request("t/a", ExpectedVersion::any(), {"p1"}, "k"),
                           request("t/a", ExpectedVersion::any(), {"p9"}, "k"));
  EXPECT_EQ(fault.writes, 1);
  expect_failed(answers[0]);
  expect_failed(answers[1]);  // the key was never used: nothing to mismatch
  EXPECT_EQ(store.head().seq, 0u);
  EXPECT_FALSE(store.read_view().idempotency("k").has_value());

  fault.on = false;
  // Whichever comes first now owns the key.
  auto second = store.append(request("t/a", ExpectedVersion::any(), {"p9"}, "k"));
  ASSERT_EQ(second.status, AppendStatus::appended);
  EXPECT_EQ(second.first_seq, 1u);
  EXPECT_EQ(store.append(request("t/a", ExpectedVersion::any(), {"p1"}, "k")).status,
            AppendStatus::idempotency_mismatch);
  auto events = store.read_view().stream("t/a");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(player_of(events[0]), "p9");
}

TEST(FailedBatch, AnswersThatDependOnlyOnWhatIsStoredStand) {
  TempDir dir;
  WriteFault fault;
  EventStore store(dir.str(), fault.options());
  auto stored = store.append(request("t/a", ExpectedVersion::no_stream(), {"p0"}, "old"));
  ASSERT_EQ(stored.status, AppendStatus::appended);

  fault.on = true;
  auto answers = one_batch(store, request("t/a", ExpectedVersion::exactly(1), {"p1"}),
                           // conflicts only because of the append above
                           request("t/a", ExpectedVersion::exactly(1), {"p2"}),
                           // a retry of the stored append: its seq is on disk
                           request("t/a", ExpectedVersion::any(), {"p0"}, "old"),
                           request("t/a", ExpectedVersion::any(), {"zz"}, "old"),
                           // conflicts with what is stored
                           request("t/b", ExpectedVersion::exactly(3), {"p3"}),
                           request("", ExpectedVersion::any(), {"p4"}));
  EXPECT_EQ(fault.writes, 2);  // the stored append, then this batch
  ASSERT_EQ(answers.size(), 6u);
  expect_failed(answers[0]);
  expect_failed(answers[1]);  // not a conflict with a version 2 that does not exist
  EXPECT_EQ(answers[2].status, AppendStatus::duplicate);
  EXPECT_EQ(answers[2].first_seq, stored.first_seq);
  EXPECT_EQ(answers[2].stream_version, 1u);
  EXPECT_EQ(answers[3].status, AppendStatus::idempotency_mismatch);
  EXPECT_EQ(answers[4].status, AppendStatus::version_conflict);
  EXPECT_EQ(answers[4].stream_version, 0u);
  EXPECT_EQ(answers[5].status, AppendStatus::invalid);
  expect_answers_name_only_stored_seqs(store, answers);
  EXPECT_EQ(store.head().seq, 1u);
  EXPECT_EQ(store.read_view().stream_version("t/a"), 1u);
}

TEST(FailedBatch, TheChainStaysVerifiableAfterAGoodBatchAndAReopen) {
  TempDir dir;
  Head before_failure;
  std::vector<AppendResult> good;
  {
    WriteFault fault;
    EventStore store(dir.str(), fault.options());
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(
          store.append(request("t/a", ExpectedVersion::any(), {"a" + std::to_string(i)})).status,
          AppendStatus::appended);
    }
    before_failure = store.head();
    std::vector<std::uint64_t> heard;
    store.subscribe([&](const StoredEvent& e) { heard.push_back(e.seq()); });

    fault.on = true;
    auto failed = one_batch(store, request("t/a", ExpectedVersion::exactly(3), {"x1", "x2"}, "k1"),
                            request("t/b", ExpectedVersion::no_stream(), {"x3"}, "k2"),
                            request("t/a", ExpectedVersion::any(), {"x1", "x2"}, "k1"),
                            request("t/b", ExpectedVersion::exactly(1), {"x4"}));
    for (auto& r : failed) expect_failed(r);
    EXPECT_EQ(store.head().seq, before_failure.seq);
    EXPECT_EQ(store.head().hash, before_failure.hash);
    EXPECT_TRUE(heard.empty());

    fault.on = false;
    good = one_batch(store, request("t/a", ExpectedVersion::exactly(3), {"g1", "g2"}, "k1"),
                     request("t/b", ExpectedVersion::no_stream(), {"g3"}, "k2"),
                     request("t/a", ExpectedVersion::any(), {"g1", "g2"}, "k1"),
                     request("t/b", ExpectedVersion::exactly(1), {"g4"}));
    ASSERT_EQ(good[0].status, AppendStatus::appended);
    EXPECT_EQ(good[0].first_seq, 4u);
    EXPECT_EQ(good[0].last_seq, 5u);
    EXPECT_EQ(good[0].stream_version, 5u);
    ASSERT_EQ(good[1].status, AppendStatus::appended);
    EXPECT_EQ(good[1].first_seq, 6u);
    EXPECT_EQ(good[1].stream_version, 1u);
    EXPECT_EQ(good[2].status, AppendStatus::duplicate);
    EXPECT_EQ(good[2].first_seq, 4u);
    EXPECT_EQ(good[2].last_seq, 5u);
    EXPECT_EQ(good[2].stream_version, 5u);
    ASSERT_EQ(good[3].status, AppendStatus::appended);
    EXPECT_EQ(good[3].first_seq, 7u);
    EXPECT_EQ(good[3].stream_version, 2u);
    expect_answers_name_only_stored_seqs(store, good);
    EXPECT_EQ(heard, (std::vector<std::uint64_t>{4, 5, 6, 7}));

    auto log = store.read_view().log(1);
    ASSERT_EQ(log.size(), 7u);
    EXPECT_EQ(log[3].event().getPrevHash(),
              capnp::Data::Reader(before_failure.hash.data(), before_failure.hash.size()));
    std::int64_t last_time = 0;
    for (std::size_t i = 0; i < log.size(); ++i) {
      EXPECT_EQ(log[i].seq(), i + 1);
      EXPECT_GE(log[i].event().getRecordedAt(), last_time);
      last_time = log[i].event().getRecordedAt();
    }
    auto v = store.verify();
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_EQ(v.events, 7u);
  }

  EventStore store(dir.str());
  EXPECT_EQ(store.head().seq, 7u);
  auto v = store.verify();
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.events, 7u);
  EXPECT_EQ(v.head, store.head().hash);
  auto view = store.read_view();
  EXPECT_EQ(view.stream_version("t/a"), 5u);
  EXPECT_EQ(view.stream_version("t/b"), 2u);
  std::vector<std::string> players;
  for (auto& e : view.log(1)) players.push_back(player_of(e));
  EXPECT_EQ(players, (std::vector<std::string>{"a0", "a1", "a2", "g1", "g2", "g3", "g4"}));
  auto k1 = view.idempotency("k1");
  ASSERT_TRUE(k1.has_value());
  EXPECT_EQ(k1->first_seq, 4u);
  EXPECT_EQ(k1->last_seq, 5u);
  auto retry = store.append(request("t/b", ExpectedVersion::any(), {"g3"}, "k2"));
  EXPECT_EQ(retry.status, AppendStatus::duplicate);
  EXPECT_EQ(retry.first_seq, 6u);
  EXPECT_EQ(store.append(request("t/a", ExpectedVersion::exactly(5), {"n"})).first_seq, 8u);
  EXPECT_TRUE(store.verify().ok);
}

}  // namespace
}  // namespace tally::events
