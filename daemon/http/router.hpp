// Routes: (method, path pattern) → handler, with the access each route needs. Patterns name their
// parameters in braces: "/v1/tournaments/{t}/rounds/{r}". The pattern is also the route's label
// in metrics and logs, so those never carry ids.
//
// Thread safety: routes are added before the server starts; match() is const and safe from any
// thread afterwards.
#pragma once

#include "daemon/http/http.hpp"
#include "daemon/live_state.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tally::daemon {

enum class Access {
  page,         // anyone, always: the pages themselves (the data they fetch is checked as usual)
  open,         // anyone, never a token, no rate limit: /healthz and /metrics (probes, scrapers)
  public_read,  // anyone (unless the config makes reads need a token)
  registrant,   // anyone, no token needed (Q-7: registering before the day, the private link);
                // a POST also takes from the address's registration bucket
  token,        // any valid token: a judge or the organizer
  table,        // a judge, the organizer, or the table token of the path's {t}/{r}/{n}
  replica,      // a follower's token (or the organizer's): the replication log, nothing else
  organizer,    // the organizer only
};

// One request on its way through a handler. Handlers may answer later, from any thread:
// respond() is called exactly once.
struct Exchange {
  Request request;
  std::map<std::string, std::string> params;  // from the path pattern, percent-decoded
  std::map<std::string, std::string> query;
  Identity identity;
  std::string request_id;
  std::string route;  // the matched pattern
  std::function<void(Response)> respond;
  // The connection's I/O thread: work that finishes elsewhere (a store completion) is posted
  // here, so that the answer is rendered and sent without another hop.
  boost::asio::any_io_executor executor;
  // The language of the answer's texts for people (answer_language(): Accept-Language, else the
  // tournament's locale, else English); set by the dispatcher before the handler runs.
  i18n::Lang lang = i18n::Lang::en;

  // For texts that name no player of a tournament (an id is shown as given) …
  Audience audience() const { return {lang}; }
  // … and for texts about `t`'s players, by name. REQUIRES: `t` outlives the Audience's use.
  Audience audience(const projections::Tournament& t) const { return {lang, player_names(t)}; }
};
using ExchangePtr = std::shared_ptr<Exchange>;

// Who gives a request's command: the author of its events.
inline deciders::Actor actor_of(const Exchange& ex) {
  return deciders::Actor{ex.identity.id, ex.identity.organizer()};
}

// A handler's problem+json, in the exchange's language (players, if any, by id as given; a
// problem about a tournament's players is problem(ex.request, ex.audience(t), …)).
Response problem(const Exchange& ex, http::status status, const i18n::Message& detail,
                 const ErrorEntries& errors = {}, json::object extra = {});
// 404 for a tournament id that names none.
Response tournament_not_found(const Exchange& ex, std::string_view id);

using Handler = std::function<void(const ExchangePtr&)>;

struct Route {
  http::verb method;
  std::string pattern;
  std::vector<std::string> segments;  // "{t}" for a parameter
  Access access;
  Handler handler;       // null for an upgrade route
  bool upgrade = false;  // a WebSocket endpoint: reached by an upgrade, never by a plain request
};

class Router {
 public:
  void add(http::verb method, std::string pattern, Access access, Handler handler);
  // A WebSocket endpoint (GET with Upgrade): the server hands such requests to its upgrade
  // handlers with the matched parameters; a plain GET there is answered 426.
  void add_upgrade(std::string pattern, Access access);

  struct Match {
    const Route* route = nullptr;  // null: no route for this method
    std::map<std::string, std::string> params;
    std::vector<http::verb> allowed;  // methods the path has (for 405)
  };
  Match match(http::verb method, std::string_view path) const;

 private:
  std::vector<Route> routes_;
};

}  // namespace tally::daemon
