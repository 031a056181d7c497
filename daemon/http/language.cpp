#include "daemon/http/language.hpp"

#include "daemon/live_state.hpp"

namespace tally::daemon {

namespace http = boost::beast::http;

i18n::Lang answer_language(const http::fields& request, const LiveState& state,
                           std::string_view tournament_id) {
  if (auto header = request.find(http::field::accept_language); header != request.end()) {
    if (auto accepted = i18n::negotiate(header->value())) return *accepted;
  }
  if (!tournament_id.empty()) {
    auto locale = state.read([&](const LiveState& s) -> std::optional<i18n::Lang> {
      const projections::Tournament* t = s.tournament(tournament_id);
      return t == nullptr ? std::nullopt : i18n::parse_language(t->locale);
    });
    if (locale) return *locale;
  }
  return i18n::Lang::en;
}

i18n::Namer player_names(const projections::Tournament& t) {
  return [&t](std::string_view id) {
    const projections::Player* p = t.player(id);
    return p != nullptr ? p->name : std::string(id);
  };
}

void set_language(http::fields& response, i18n::Lang lang) {
  response.set(http::field::content_language, i18n::code(lang));
  response.set(http::field::vary, "Accept-Language");
}

}  // namespace tally::daemon
