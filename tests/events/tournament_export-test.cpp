// A tournament's export for a series and its verification: an export made from a real store
// verifies and gives back exactly the tournament's events; one byte changed, a line removed, two
// lines swapped, the end cut off or a header that lies are each refused naming the first bad line.
#include "events/tournament_export.hpp"

#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace tally::events {
namespace {

using tally::testing::TempDir;

Draft created(const std::string& id) {
  Draft d;
  auto c = d.event().getPayload().initTournamentCreated();
  c.setId(id);
  c.setName(id);
  c.setGame("catan");
  return d;
}

Draft player(const std::string& id) {
  Draft d;
  auto p = d.event().getPayload().initPlayerRegistered();
  p.setId(id);
  p.setName("Player " + id);
  return d;
}

void append(EventStore& store, const std::string& stream, Draft d) {
  AppendRequest r;
  r.stream = stream;
  r.events.push_back(std::move(d));
  ASSERT_EQ(store.append(std::move(r)).status, AppendStatus::appended);
}

// A log of two tournaments whose events interleave: 9 events, 5 of them brno's.
std::string two_tournaments_export(TempDir& dir) {
  EventStore store(dir.str());
  append(store, "t/brno", created("brno"));
  append(store, "t/zlin", created("zlin"));
  append(store, "t/brno", player("p1"));
  append(store, "t/zlin", player("z1"));
  append(store, "t/brno", player("p2"));
  append(store, "t/brno-open", created("brno-open"));  // a prefix of "brno", not brno's
  append(store, "t/brno", player("p3"));
  append(store, "t/zlin", player("z2"));
  append(store, "t/brno", player("p4"));
  std::ostringstream out;
  TournamentExportHeader header{
      "brno", "venue-laptop", 1234,
      boost::json::array{boost::json::object{{"player", "p1"}, {"place", 1}}}, true};
  auto result = export_tournament(store.read_view(), header, out);
  EXPECT_EQ(result.events, 9u);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

BrokenTournamentExport broken(const std::string& text) {
  auto v = verify_tournament_export(text);
  if (!std::holds_alternative<BrokenTournamentExport>(v)) {
    ADD_FAILURE() << "verified, expected a refusal";
    return {};
  }
  return std::get<BrokenTournamentExport>(v);
}

TEST(TournamentExport, AnExportVerifiesAndGivesTheTournamentsOwnEventsInOrder) {
  TempDir dir;
  std::string text = two_tournaments_export(dir);
  auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 10u);  // the header and all 9 events of the log
  auto header = boost::json::parse(lines[0]).as_object();
  EXPECT_EQ(header.at("format"), "tallyd-tournament-export");
  EXPECT_EQ(header.at("events"), 9);

  auto v = verify_tournament_export(text);
  ASSERT_TRUE(std::holds_alternative<VerifiedTournamentExport>(v))
      << std::get<BrokenTournamentExport>(v).problem;
  auto& ok = std::get<VerifiedTournamentExport>(v);
  EXPECT_EQ(ok.header.tournament, "brno");
  EXPECT_EQ(ok.header.server, "venue-laptop");
  EXPECT_EQ(ok.events, 9u);
  ASSERT_EQ(ok.chain.size(), 9u);
  EXPECT_EQ(ok.head, ok.chain.back());
  EXPECT_EQ(ok.log, ok.chain.front());
  std::vector<std::uint64_t> seqs;
  for (const auto& e : ok.tournament_events) seqs.push_back(e.seq());
  EXPECT_EQ(seqs, (std::vector<std::uint64_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(ok.header.standings.size(), 1u);
}

TEST(TournamentExport, OneByteChangedIsRefusedAtItsLine) {
  TempDir dir;
  auto lines = lines_of(two_tournaments_export(dir));
  // Line 6 is seq 5 (p2): its readable name changed — and, separately, one byte of its bytes.
  std::string& line = lines[5];
  auto at = line.find("Player p2");
  ASSERT_NE(at, std::string::npos);
  line[at + 7] = 'q';
  auto b = broken(joined(lines));
  EXPECT_EQ(b.line, 6u);
  EXPECT_EQ(b.problem, "the readable event differs from the event's bytes");

  TempDir second;
  auto original = lines_of(two_tournaments_export(second));
  auto bytes_at = original[5].find("\"bytes\":\"") + 12;
  original[5][bytes_at] = original[5][bytes_at] == 'A' ? 'B' : 'A';
  auto b2 = broken(joined(original));
  EXPECT_EQ(b2.line, 6u);
  EXPECT_EQ(b2.problem, "the hash does not match the event's bytes");
}

TEST(TournamentExport, ALineRemovedIsRefusedAtTheLineAfterIt) {
  TempDir dir;
  auto lines = lines_of(two_tournaments_export(dir));
  lines.erase(lines.begin() + 4);  // seq 4, another tournament's: a gap all the same
  auto b = broken(joined(lines));
  EXPECT_EQ(b.line, 5u);
  EXPECT_EQ(b.problem, "seq 5 where 4 was expected");
}

TEST(TournamentExport, TwoLinesSwappedAreRefusedAtTheFirstOfThem) {
  TempDir dir;
  auto lines = lines_of(two_tournaments_export(dir));
  std::swap(lines[3], lines[4]);
  auto b = broken(joined(lines));
  EXPECT_EQ(b.line, 4u);
  EXPECT_EQ(b.problem, "seq 4 where 3 was expected");
}

TEST(TournamentExport, ACutOffEndOrAHeaderThatLiesIsRefused) {
  TempDir dir;
  auto lines = lines_of(two_tournaments_export(dir));
  auto cut = lines;
  cut.pop_back();
  auto b = broken(joined(cut));
  EXPECT_EQ(b.line, 10u);
  EXPECT_EQ(b.problem,
            "the export ends at seq 8 but its header's head is seq 9: lines are missing");

  auto other_head = lines;
  auto header = boost::json::parse(other_head[0]).as_object();
  header["head"] = std::string(64, 'a');
  other_head[0] = boost::json::serialize(header);
  EXPECT_EQ(broken(joined(other_head)).problem, "the last line's hash is not the header's head");

  auto no_such = lines;
  header = boost::json::parse(no_such[0]).as_object();
  header["tournament"] = "olomouc";
  no_such[0] = boost::json::serialize(header);
  auto b3 = broken(joined(no_such));
  EXPECT_EQ(b3.line, 1u);
  EXPECT_EQ(b3.problem, "the log holds no tournament olomouc");

  EXPECT_EQ(broken("").line, 1u);
  EXPECT_EQ(broken("{\"seq\":1}\n").problem.substr(0, 24), "the header's format is n");
}

}  // namespace
}  // namespace tally::events
