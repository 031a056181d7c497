#include "deciders/unreported.hpp"

#include <string>

namespace tally::deciders {

std::vector<std::uint32_t> unreported_tables(const projections::Tournament& t,
                                             const projections::Game& game,
                                             const projections::Round& round) {
  std::vector<std::uint32_t> open;
  for (const auto& seated : round.tables) {
    const auto* table = t.table(round.number, seated.number);
    auto blank = projections::blank_table(round.number, seated.number);
    if (!game.table_result(t, table ? *table : blank)) open.push_back(seated.number);
  }
  return open;
}

namespace {

// "3, 5 and 7" is the catalog's to say; the numbers themselves are the same in every language.
std::string list_numbers(const std::vector<std::uint32_t>& numbers) {
  std::string out;
  for (auto n : numbers) out += (out.empty() ? "" : ", ") + std::to_string(n);
  return out;
}

}  // namespace

Refusal unreported_refusal(std::uint32_t round, const std::vector<std::uint32_t>& open,
                           const char* detail_key) {
  boost::json::array tables;
  for (auto n : open) tables.emplace_back(n);
  return Refusal{RefusalKind::conflict,
                 i18n::Message(detail_key, {{"round", round}, {"count", open.size()}}),
                 {RefusalError{"round.unreported", "", "force",
                               i18n::Message("api.seating.previous_unreported",
                                             {{"tables", list_numbers(open)}}),
                               boost::json::object{{"tables", std::move(tables)}}}}};
}

}  // namespace tally::deciders
