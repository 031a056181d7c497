// Small helpers for the messages judges and organizers read: houses as catalog terms
// ("agot.house.stark" → "Старк"), sets of houses as one list in the language, players by id
// (rendered by name), the league solver's tables.
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

// A set of houses as one argument, in board order, joined in the language: "Stark, Tyrell, or
// Martell" (Joiner::or_: any one of them) or "… and …" (Joiner::and_: all of them). An empty
// set renders as nothing: a pattern that can meet one says so with a count (`{n, plural, =0 …}`).
i18n::TermList house_list(HouseSet houses, i18n::Joiner joiner);

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
