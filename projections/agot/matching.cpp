#include "projections/agot/matching.hpp"

#include <algorithm>

namespace tally::projections::agot {

namespace {

class Kuhn {
 public:
  Kuhn(const std::vector<std::vector<int>>& options, const std::vector<int>& capacity)
      : options_(options), capacity_(capacity), occupants_(capacity.size()) {}

  Assignment run(const std::vector<int>& start) {
    Assignment out;
    out.slot_of.assign(options_.size(), -1);
    slot_of_ = &out.slot_of;
    for (std::size_t p = 0; p < start.size() && p < options_.size(); ++p) {
      int s = start[p];
      if (s >= 0 && static_cast<std::size_t>(s) < capacity_.size() &&
          std::find(options_[p].begin(), options_[p].end(), s) != options_[p].end() &&
          static_cast<int>(occupants_[s].size()) < capacity_[s]) {
        take(p, s);
      }
    }
    for (std::size_t p = 0; p < options_.size(); ++p) {
      if (out.slot_of[p] >= 0) continue;
      visited_.assign(capacity_.size(), false);
      if (augment(p)) continue;
      // The failed search visited every slot p can reach; they are all full, and the players
      // reached (p and the occupants of those slots) are more than they seat.
      out.blocked_players.push_back(p);
      for (std::size_t s = 0; s < visited_.size(); ++s) {
        if (!visited_[s]) continue;
        out.blocked_slots.push_back(static_cast<int>(s));
        for (std::size_t q : occupants_[s]) out.blocked_players.push_back(q);
      }
      std::sort(out.blocked_players.begin(), out.blocked_players.end());
      break;
    }
    return out;
  }

 private:
  bool augment(std::size_t p) {
    for (int s : options_[p]) {
      if (visited_[s]) continue;
      visited_[s] = true;
      if (static_cast<int>(occupants_[s].size()) < capacity_[s]) {
        take(p, s);
        return true;
      }
      for (std::size_t i = 0; i < occupants_[s].size(); ++i) {
        std::size_t q = occupants_[s][i];
        if (augment(q)) {  // q moved elsewhere (and left s)
          take(p, s);
          return true;
        }
      }
    }
    return false;
  }

  void take(std::size_t p, int s) {
    int old = (*slot_of_)[p];
    if (old >= 0) std::erase(occupants_[old], p);
    occupants_[s].push_back(p);
    (*slot_of_)[p] = s;
  }

  const std::vector<std::vector<int>>& options_;
  const std::vector<int>& capacity_;
  std::vector<std::vector<std::size_t>> occupants_;
  std::vector<bool> visited_;
  std::vector<int>* slot_of_ = nullptr;
};

}  // namespace

Assignment assign(const std::vector<std::vector<int>>& options, const std::vector<int>& capacity,
                  const std::vector<int>& start) {
  return Kuhn(options, capacity).run(start);
}

HouseMatch match_houses(const std::vector<HouseSet>& available, int tables) {
  std::vector<std::vector<int>> options(available.size());
  for (std::size_t p = 0; p < available.size(); ++p) {
    for (House h : kHouses) {
      if (available[p].contains(h)) options[p].push_back(house_index(h));
    }
  }
  Assignment a = assign(options, std::vector<int>(kHouseCount, tables));
  HouseMatch out;
  if (a.complete()) {
    for (int s : a.slot_of) out.houses.push_back(kHouses[s]);
    return out;
  }
  out.short_players = std::move(a.blocked_players);
  for (int s : a.blocked_slots) out.short_houses = out.short_houses.with(kHouses[s]);
  return out;
}

}  // namespace tally::projections::agot
