#include "daemon/http/router.hpp"

namespace tally::daemon {

namespace {

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    std::size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash);
  }
  return out;
}

bool is_param(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

Response problem(const Exchange& ex, http::status status, const i18n::Message& detail,
                 const ErrorEntries& errors, json::object extra) {
  return problem(ex.request, ex.audience(), status, detail, errors, std::move(extra));
}

Response tournament_not_found(const Exchange& ex, std::string_view id) {
  return problem(ex, http::status::not_found,
                 i18n::Message("api.tournament.not_found", {{"id", std::string(id)}}));
}

void Router::add(http::verb method, std::string pattern, Access access, Handler handler) {
  Route route{method, pattern, {}, access, std::move(handler)};
  for (auto s : split(pattern)) route.segments.emplace_back(s);
  routes_.push_back(std::move(route));
}

void Router::add_upgrade(std::string pattern, Access access) {
  add(http::verb::get, std::move(pattern), access, nullptr);
  routes_.back().upgrade = true;
}

Router::Match Router::match(http::verb method, std::string_view path) const {
  Match out;
  auto segments = split(path);
  for (const auto& route : routes_) {
    if (route.segments.size() != segments.size()) continue;
    // The fixed segments first: most routes differ there, and comparing allocates nothing.
    bool ok = true;
    for (std::size_t i = 0; i < segments.size() && ok; ++i) {
      if (!is_param(route.segments[i])) ok = route.segments[i] == segments[i];
    }
    if (!ok) continue;
    // Parameters are kept only for the route taken; the others (same path, another method)
    // only need to match, for the 405's Allow.
    const bool taken = route.method == method && out.route == nullptr;
    std::map<std::string, std::string> params;
    for (std::size_t i = 0; i < segments.size() && ok; ++i) {
      const std::string& want = route.segments[i];
      if (!is_param(want)) continue;
      auto decoded = percent_decode(segments[i]);
      if (!decoded || decoded->empty()) {
        ok = false;
      } else if (taken) {
        params.emplace(want.substr(1, want.size() - 2), std::move(*decoded));
      }
    }
    if (!ok) continue;
    out.allowed.push_back(route.method);
    if (taken) {
      out.route = &route;
      out.params = std::move(params);
    }
  }
  return out;
}

}  // namespace tally::daemon
