// The pages tallyd serves from its web root (client/web/ in the source tree): everything a venue
// needs offline, no third-party host. Routes:
//   /                   index.html        the tournaments
//   /t/{t}              standings.html    public standings, CSV, printable pairings and slips
//   /t/{t}/board        board.html        the venue screen
//   /t/{t}/judge        judge.html        result entry for judges
//   /static/{file}      static/{file}     scripts, styles, images (a flat folder)
//   /static/locale/{file} static/locale/{file}  the pages' message catalogs ({lang}.json)
// Pages get a strict Content-Security-Policy (scripts and styles only from this server, no inline
// code, connections only back to it) and headers that forbid framing and referrers.
//
// Thread safety: read-only after construction; serves from any thread.
#pragma once

#include "daemon/http/router.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace tally::daemon {

class Pages {
 public:
  // `web_root` empty: the installed share/tallyd/web next to the binary, else the source tree's.
  explicit Pages(const std::string& web_root);

  void add_routes(Router& router) const;
  const std::filesystem::path& root() const { return root_; }

  // The answer for a file under the root: 200 with its content type, 404 when it is missing or
  // the name is not a plain file name (no paths, no dot-dot, no hidden files).
  Response file(const Exchange& ex, const std::string& relative) const;

 private:
  std::filesystem::path root_;
};

// The security headers every page and static file carries.
void add_page_headers(Response& response);

}  // namespace tally::daemon
