#include "projections/agot/ledger.hpp"

#include "projections/agot/wording.hpp"

namespace tally::projections::agot {

namespace {

using Which = schema::Event::Payload::Which;

}  // namespace

std::string bonus_league(const projections::SeatedTable& table, std::size_t index) {
  if (table.rating_leagues.size() == table.players.size() && index < table.rating_leagues.size() &&
      !table.rating_leagues[index].empty()) {
    return table.rating_leagues[index];
  }
  return table.league;
}

Ledger::Ledger(const projections::Tournament& tournament, Detail detail)
    : tournament_(tournament), rules_(rules_of(tournament.rules)) {
  for (std::size_t i = 0; i < tournament.players.size(); ++i)
    index_.emplace(tournament.players[i].id, i);
  seats_.assign(tournament.players.size(), std::vector<Seat>(tournament.rounds.size()));
  for (const auto& round : tournament.rounds) {
    if (round.number == 0 || round.number > tournament.rounds.size()) continue;
    for (const auto& table : round.tables) {
      const projections::TableState* state = tournament.table(round.number, table.number);
      const projections::Action* result = state ? state->result() : nullptr;
      if (result && result->payload().which() != Which::AGOT_RESULT) result = nullptr;
      const std::vector<PlayerResult>* parsed = nullptr;
      if (result && detail == Detail::kResults) {
        parsed = &(results_[{round.number, table.number}] =
                       read_result(result->payload().getAgotResult()));
      }
      for (std::size_t i = 0; i < table.players.size(); ++i) {
        auto row = index_.find(table.players[i]);
        if (row == index_.end()) continue;
        Seat& seat = seats_[row->second][round.number - 1];
        seat.round = round.number;
        seat.table = &table;
        seat.bonus_league = agot::bonus_league(table, i);
        if (parsed) {
          for (const auto& line : *parsed) {
            if (line.player == table.players[i]) seat.result = &line;
          }
        }
        // The house: from the result in effect, else from the newest accepted pick.
        std::optional<House> house;
        if (result) {
          for (auto line : result->payload().getAgotResult().getPlayers()) {
            if (text_view(line.getPlayer()) == table.players[i]) house = line.getHouse();
          }
        } else if (state) {
          for (const auto& a : state->actions) {
            if (a.payload().which() != Which::HOUSE_PICK) continue;
            auto pick = a.payload().getHousePick();
            if (text_view(pick.getPlayer()) == table.players[i]) house = pick.getHouse();
          }
        }
        if (house && is_house(*house)) seat.house = house;
      }
    }
  }
}

const Seat* Ledger::seat(const std::string& player, std::uint32_t round) const {
  auto row = index_.find(player);
  if (row == index_.end() || round == 0 || round > seats_[row->second].size()) return nullptr;
  const Seat& seat = seats_[row->second][round - 1];
  return seat.round == 0 ? nullptr : &seat;
}

HouseHistory Ledger::history(const std::string& player, std::uint32_t excluding_round,
                             std::uint32_t before_round) const {
  HouseHistory out;
  auto row = index_.find(player);
  if (row == index_.end()) return out;
  for (const Seat& seat : seats_[row->second]) {
    if (seat.round == 0 || seat.round == excluding_round) continue;
    if (before_round != 0 && seat.round >= before_round) continue;
    if (seat.house) out.games.emplace_back(seat.round, *seat.house);
  }
  return out;
}

const std::vector<PlayerResult>* Ledger::result(std::uint32_t round, std::uint32_t table) const {
  auto it = results_.find({round, table});
  return it == results_.end() ? nullptr : &it->second;
}

std::map<std::string, House> Ledger::picks(std::uint32_t round, std::uint32_t table,
                                           std::uint64_t ignored_seq) const {
  std::map<std::string, House> out;
  const projections::TableState* state = tournament_.table(round, table);
  if (!state) return out;
  for (const projections::Action* a : state->of_kind(Which::HOUSE_PICK)) {
    if (a->seq() == ignored_seq) continue;
    auto pick = a->payload().getHousePick();
    out[text(pick.getPlayer())] = pick.getHouse();  // oldest first: the newest stays
  }
  return out;
}

}  // namespace tally::projections::agot
