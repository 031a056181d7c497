// Small helpers for the messages judges and organizers read: houses as catalog terms
// ("agot.house.stark" → "Старк"), lists of houses as one argument per house (a catalog pattern
// joins them in its language), players by id (rendered by name), the league solver's tables.
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"
#include "projections/agot/houses.hpp"
#include "projections/tournament.hpp"
#include "schema/text.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tally::projections::agot {

// The house's name in the reader's language.
i18n::Term house_term(House h);

// A set of houses as arguments of `message`: `name` (how many, 0..6) and `name1` … `nameN` (each
// a house_term, in board order). A house list has at most six items, so a catalog pattern lists
// them with `{name, plural, =0 {…} =1 {{name1}} =2 {{name1} or {name2}} …}`: ICU's list format
// is for players only (i18n::PlayerList), and a Term has no arguments to nest a list in.
void add_houses(i18n::Message& message, std::string_view name, HouseSet houses);

i18n::PlayerList player_list(const std::vector<std::string>& ids);

// The league solver's tables as arguments of `message`: `leagues` (how many) and one PlayerList
// per league named by the league, `A` … `F` (the solver names leagues A, B, … in table order);
// `more` counts the leagues past F, which a pattern only counts.
void add_league_tables(i18n::Message& message, const std::vector<projections::SeatedTable>& tables);
inline constexpr std::size_t kLeaguesListed = 6;

// A stored Text as a std::string / a view of it.
using schema::text;
using schema::text_view;

}  // namespace tally::projections::agot
