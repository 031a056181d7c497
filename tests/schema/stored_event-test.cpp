// StoredEvent: the bytes of one logged event, read back as the envelope they encode — for a
// message of one segment (read unchecked after one whole check) and of several (a checked
// reader kept beside the bytes), in copies that outlive the original, and refusing bytes that
// are no message.
#include "schema/stored_event.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <gtest/gtest.h>
#include <kj/exception.h>

#include <cstring>
#include <optional>
#include <string>

namespace tally::schema {
namespace {

// An event with a 4-player Catan result, encoded as the store writes it (segment table first).
// `first_segment_words` small enough forces the message into several segments.
std::string encoded_event(unsigned first_segment_words) {
  capnp::MallocMessageBuilder message(first_segment_words, capnp::AllocationStrategy::FIXED_SIZE);
  auto event = message.initRoot<Event>();
  event.setSeq(41);
  event.setStream("t/open/r/2/table/3");
  event.setVersion(2);
  event.setAuthor("judge-7");
  event.setReason("the judge misread the longest road");
  auto players = event.getPayload().initCatanResult().initPlayers(4);
  for (unsigned i = 0; i < 4; ++i) {
    players[i].setPlayer("p" + std::to_string(i + 1));
    players[i].setSettlements(i + 1);
  }
  auto words = capnp::messageToFlatArray(message);
  auto bytes = words.asChars();
  return std::string(bytes.begin(), bytes.size());
}

void expect_the_event(const StoredEvent& stored) {
  auto event = stored.event();
  EXPECT_EQ(event.getSeq(), 41u);
  EXPECT_EQ(std::string(event.getStream().cStr()), "t/open/r/2/table/3");
  EXPECT_EQ(std::string(event.getReason().cStr()), "the judge misread the longest road");
  ASSERT_TRUE(event.getPayload().isCatanResult());
  auto players = event.getPayload().getCatanResult().getPlayers();
  ASSERT_EQ(players.size(), 4u);
  EXPECT_EQ(std::string(players[3].getPlayer().cStr()), "p4");
  EXPECT_EQ(players[3].getSettlements(), 4u);
}

std::uint32_t segment_count(const std::string& encoded) {
  std::uint32_t count_minus_one = 0;
  std::memcpy(&count_minus_one, encoded.data(), sizeof count_minus_one);
  return count_minus_one + 1;
}

TEST(StoredEvent, OneSegmentReadsBackItsEnvelope) {
  std::string encoded = encoded_event(1024);
  ASSERT_EQ(segment_count(encoded), 1u);
  Digest hash{};
  hash[0] = 0xab;
  StoredEvent stored(41, hash, encoded);
  EXPECT_EQ(stored.seq(), 41u);
  EXPECT_EQ(stored.hash()[0], 0xab);
  EXPECT_EQ(stored.bytes().substr(0, encoded.size()), encoded);
  expect_the_event(stored);
}

TEST(StoredEvent, SeveralSegmentsReadBackTheirEnvelope) {
  std::string encoded = encoded_event(8);
  ASSERT_GT(segment_count(encoded), 1u);
  StoredEvent stored(41, Digest{}, encoded);
  expect_the_event(stored);
}

TEST(StoredEvent, ACopyOutlivesTheOriginal) {
  for (unsigned words : {1024u, 8u}) {
    std::optional<StoredEvent> copy;
    {
      StoredEvent original(41, Digest{}, encoded_event(words));
      copy.emplace(original);
    }
    expect_the_event(*copy);
  }
}

TEST(StoredEvent, BytesThatAreNoMessageAreRefused) {
  std::string encoded = encoded_event(1024);
  // A struct pointer of the root pointing far past the end of the one segment.
  std::string broken = encoded;
  broken[8] = '\x7c';
  broken[9] = '\x7f';
  EXPECT_THROW(StoredEvent(1, Digest{}, broken), kj::Exception);
  // A segment table announcing more segments than there are bytes.
  std::string truncated = encoded;
  truncated[0] = '\x05';
  EXPECT_THROW(StoredEvent(1, Digest{}, truncated), kj::Exception);
}

}  // namespace
}  // namespace tally::schema
