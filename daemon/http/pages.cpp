#include "daemon/http/pages.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace tally::daemon {

namespace {

// A plain file name: letters, digits, '.', '-', '_'; not hidden, no "..".
bool plain_name(std::string_view name) {
  if (name.empty() || name.size() > 100 || name.front() == '.') return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_';
    if (!ok) return false;
  }
  return name.find("..") == std::string_view::npos;
}

std::string_view content_type(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".json") return "application/json";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

std::filesystem::path default_root() {
  // Installed: <prefix>/bin/tallyd and <prefix>/share/tallyd/web.
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto installed = exe.parent_path().parent_path() / "share" / "tallyd" / "web";
    if (std::filesystem::exists(installed / "index.html", ec)) return installed;
  }
  return TALLY_SOURCE_WEB_ROOT;
}

}  // namespace

void add_page_headers(Response& response) {
  response.set("Content-Security-Policy",
               "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
  response.set("X-Frame-Options", "DENY");
  response.set("Referrer-Policy", "no-referrer");
  response.set("X-Content-Type-Options", "nosniff");
}

Pages::Pages(const std::string& web_root)
    : root_(web_root.empty() ? default_root() : std::filesystem::path(web_root)) {}

Response Pages::file(const Exchange& ex, const std::string& relative) const {
  const Request& request = ex.request;
  std::filesystem::path path = root_;
  std::string_view rest = relative;
  // The folders of a route ("static/app.js", "static/vendor/qrcode.js"), each part a plain name.
  while (!rest.empty()) {
    auto slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    if (!plain_name(part)) return problem(ex, http::status::not_found, "api.page.not_found");
    path /= std::string(part);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return problem(ex, http::status::not_found, "api.page.not_found");
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  Response response(http::status::ok, request.version());
  response.set(http::field::content_type, content_type(path));
  response.keep_alive(request.keep_alive());
  response.body() = content.str();
  response.prepare_payload();
  add_page_headers(response);
  return response;
}

void Pages::add_routes(Router& router) const {
  auto page = [this](std::string file) {
    return [this, file](const ExchangePtr& ex) {
      Response r = this->file(*ex, file);
      r.set(http::field::cache_control, "no-cache");
      ex->respond(std::move(r));
    };
  };
  router.add(http::verb::get, "/", Access::page, page("index.html"));
  router.add(http::verb::get, "/t/{t}", Access::page, page("standings.html"));
  router.add(http::verb::get, "/t/{t}/board", Access::page, page("board.html"));
  router.add(http::verb::get, "/t/{t}/judge", Access::page, page("judge.html"));
  router.add(http::verb::get, "/t/{t}/console", Access::page, page("console.html"));
  // A table's self-reporting page, opened from the QR code on its slip (the token in the fragment).
  router.add(http::verb::get, "/t/{t}/report", Access::page, page("report.html"));
  // registration before the day, and the registrant's private link (the key in the fragment).
  router.add(http::verb::get, "/t/{t}/register", Access::page, page("register.html"));
  // A series' public page (docs/pages.md, "The series pages"); a person's is the same page with
  // ?person={p}.
  router.add(http::verb::get, "/s/{s}", Access::page, page("series.html"));
  auto asset = [this](std::string folder) {
    return [this, folder](const ExchangePtr& ex) {
      const std::string& name = ex->params.at("file");
      Response r = file(*ex, folder + name);
      r.set(http::field::cache_control, "max-age=300");
      // The pages' service worker keeps /t/{t}/judge and /t/{t}/report for a reload offline
      // (docs/pages.md, "Offline: the outbox"): its scope, /t/, is above its own folder.
      if (folder == "static/" && name == "offline-worker.js")
        r.set("Service-Worker-Allowed", "/t/");
      ex->respond(std::move(r));
    };
  };
  router.add(http::verb::get, "/static/{file}", Access::page, asset("static/"));
  // The pages' message catalogs (static/locale/{en,cs,it,ru}.json, loaded by i18n.js).
  router.add(http::verb::get, "/static/locale/{file}", Access::page, asset("static/locale/"));
  // Libraries copied unmodified from Debian packages (static/vendor/README.md): the QR codes'.
  router.add(http::verb::get, "/static/vendor/{file}", Access::page, asset("static/vendor/"));
}

}  // namespace tally::daemon
