#include "projections/catan/sheet.hpp"

namespace tally::projections::catan {

namespace {

// catan.md §2, as a table: what each item counts and how many VP one of it is worth.
struct VpSource {
  std::string_view rule;
  std::int64_t (*count)(const PlayerSheet&);
  std::int64_t vp_each;
};

constexpr VpSource kVpSources[] = {
    {"settlements", [](const PlayerSheet& s) -> std::int64_t { return s.settlements; }, 1},
    {"cities", [](const PlayerSheet& s) -> std::int64_t { return s.cities; }, 2},
    {"vp_cards", [](const PlayerSheet& s) -> std::int64_t { return s.vp_cards; }, 1},
    {"largest_army", [](const PlayerSheet& s) -> std::int64_t { return s.largest_army; }, 2},
    {"longest_road_holder",
     [](const PlayerSheet& s) -> std::int64_t { return s.longest_road_holder; }, 2},
};

}  // namespace

std::vector<VpLine> vp_lines(const PlayerSheet& sheet) {
  std::vector<VpLine> out;
  for (const auto& source : kVpSources) {
    std::int64_t count = source.count(sheet);
    if (count != 0) out.push_back({source.rule, count, count * source.vp_each});
  }
  return out;
}

std::int64_t vp_of(const PlayerSheet& sheet) {
  std::int64_t vp = 0;
  for (const auto& line : vp_lines(sheet)) vp += line.vp;
  return vp;
}

PlayerSheet read_sheet(schema::CatanPlayerResult::Reader r) {
  PlayerSheet s;
  s.player = std::string(r.getPlayer().cStr(), r.getPlayer().size());
  s.settlements = r.getSettlements();
  s.cities = r.getCities();
  s.vp_cards = r.getVpCards();
  s.knights = r.getKnights();
  s.roads = r.getRoads();
  s.longest_road = r.getLongestRoad();
  s.largest_army = r.getLargestArmy();
  s.longest_road_holder = r.getLongestRoadHolder();
  if (r.hasVp()) s.written_vp = r.getVp().getValue();
  s.claimed_win = r.getClaimedWin();
  return s;
}

std::vector<PlayerSheet> read_result(schema::CatanResult::Reader reader) {
  std::vector<PlayerSheet> out;
  for (auto p : reader.getPlayers()) out.push_back(read_sheet(p));
  return out;
}

}  // namespace tally::projections::catan
