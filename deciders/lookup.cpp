#include "deciders/lookup.hpp"

#include <charconv>
#include <cstdint>

namespace tally::deciders {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

Append at_tournament(const projections::Tournament& t) {
  return Append{
      projections::tournament_stream(t.id), events::ExpectedVersion::exactly(t.version), {}};
}

Append at_tournament(const projections::Tournament& t, events::Draft event) {
  Append append = at_tournament(t);
  append.events.push_back(std::move(event));
  return append;
}

Refusal tournament_not_found(const std::string& id) {
  return Refusal{RefusalKind::not_found, i18n::Message("api.tournament.not_found", {{"id", id}})};
}

Refusal player_not_found(const std::string& player, const std::string& tournament) {
  return Refusal{
      RefusalKind::not_found,
      i18n::Message("api.player.not_found", {{"id", player}, {"tournament", tournament}})};
}

std::variant<const projections::Round*, Refusal> find_round(const projections::Tournament* t,
                                                            const RoundAddress& address) {
  if (t == nullptr) return tournament_not_found(address.tournament);
  auto number = parse_decimal(address.round);
  const projections::Round* round =
      number && *number <= UINT32_MAX ? t->round(static_cast<std::uint32_t>(*number)) : nullptr;
  if (round == nullptr) {
    return Refusal{RefusalKind::not_found,
                   i18n::Message("api.round.not_found",
                                 {{"round", address.round}, {"tournament", address.tournament}})};
  }
  return round;
}

std::optional<Refusal> find_table(const projections::Tournament* t, const TableAddress& address,
                                  FoundTable& found) {
  auto round = find_round(t, {address.tournament, address.round});
  if (auto* refusal = std::get_if<Refusal>(&round)) return std::move(*refusal);
  const projections::Round& r = *std::get<const projections::Round*>(round);
  auto number = parse_decimal(address.table);
  const projections::SeatedTable* seated =
      number && *number <= UINT32_MAX ? r.table(static_cast<std::uint32_t>(*number)) : nullptr;
  if (seated == nullptr) {
    return Refusal{
        RefusalKind::not_found,
        i18n::Message("api.table.not_found", {{"table", address.table}, {"round", address.round}})};
  }
  point_at_table(*t, r, *seated, found);
  return std::nullopt;
}

void point_at_table(const projections::Tournament& t, const projections::Round& round,
                    const projections::SeatedTable& seated, FoundTable& found) {
  found.tournament = &t;
  found.round = &round;
  found.seated = &seated;
  found.state = t.table(round.number, seated.number);
  if (found.state == nullptr) {
    found.blank = projections::blank_table(round.number, seated.number);
    found.state = &found.blank;
  }
}

}  // namespace tally::deciders
