// Operations over the API: an online backup (a consistent RocksDB checkpoint taken while judges
// write) and an export of the whole log as JSON Lines. Organizer only.
#include "daemon/api/api.hpp"
#include "daemon/api/views.hpp"
#include "events/archive.hpp"
#include "events/sha256.hpp"
#include "events/tournament_export.hpp"
#include "projections/series_scoring.hpp"

#include <boost/asio/ip/host_name.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <random>
#include <sstream>

namespace tally::daemon {

namespace {

std::string utc_stamp() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M%S", &utc);
  return buffer;
}

}  // namespace

std::filesystem::path Api::backup_dir() const {
  return config_.backup_dir.empty() ? std::filesystem::path(config_.data) / "backups"
                                    : std::filesystem::path(config_.backup_dir);
}

void Api::backup(const ExchangePtr& ex) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path root = backup_dir();
  fs::create_directories(root, ec);
  fs::permissions(root, fs::perms::owner_all, fs::perm_options::replace, ec);
  // Taken under a temporary name, renamed once we know which seq it holds.
  fs::path partial = root / (".partial-" + std::to_string(std::random_device{}()));
  fs::create_directories(partial, ec);
  auto result = store_.checkpoint((partial / "store").string());
  if (!result.ok) {
    fs::remove_all(partial, ec);
    return ex->respond(problem(*ex, http::status::internal_server_error,
                               i18n::Message("api.backup.failed", {{"error", result.error}})));
  }
  // The organizer's token file goes along, so that a restored server opens with the same token,
  // and the table tokens' secret, so that the printed slips' QR codes still work after a restore.
  for (const char* file : {"organizer.token", "table-keys.secret"}) {
    fs::path secret = fs::path(config_.data) / file;
    if (fs::exists(secret, ec)) fs::copy_file(secret, partial / file, ec);
  }
  // Two backups within a second at the same seq would get the same name: the later gets "-2", ….
  fs::path base = root / ("tallyd-" + utc_stamp() + "-seq" + std::to_string(result.head.seq));
  fs::path final_path = base;
  for (int n = 2; fs::exists(final_path, ec); ++n) {
    final_path = base.string() + "-" + std::to_string(n);
  }
  fs::rename(partial, final_path, ec);
  if (ec) {
    std::string why = ec.message();  // remove_all below resets ec
    fs::remove_all(partial, ec);
    return ex->respond(problem(*ex, http::status::internal_server_error,
                               i18n::Message("api.backup.not_named", {{"error", why}})));
  }
  json::object body{{"path", final_path.string()},
                    {"seq", result.head.seq},
                    {"head", events::hex(result.head.hash)},
                    {"restore", "tallyd --data " + final_path.string()}};
  ex->respond(json_response(ex->request, http::status::created, body));
}

void Api::export_log(const ExchangePtr& ex) {
  auto view = store_.read_view();
  std::ostringstream out;
  events::ExportResult result;
  std::string filename = "tallyd-export-seq";
  if (auto t = ex->query.find("tournament"); t != ex->query.end()) {
    // One tournament's export for a series: its final standings as of the view, folded
    // from the same view the lines come from, so the header and the lines agree.
    auto tournament =
        projections::Tournament::fold(view.tree(projections::tournament_stream(t->second)));
    const projections::Game* game = tournament ? games_.find(tournament->game) : nullptr;
    if (!tournament || !game) return ex->respond(tournament_not_found(*ex, t->second));
    auto order = projections::final_order(*tournament, *game);
    events::TournamentExportHeader header{tournament->id, boost::asio::ip::host_name(),
                                          std::chrono::duration_cast<std::chrono::microseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count(),
                                          projections::final_order_json(*tournament, order),
                                          order.final};
    result = events::export_tournament(view, header, out);
    filename = "tallyd-" + tournament->id + "-seq";
  } else {
    result = events::export_log(view, out);
  }
  Response response(http::status::ok, ex->request.version());
  response.set(http::field::content_type, "application/x-ndjson");
  response.set(http::field::content_disposition,
               "attachment; filename=\"" + filename + std::to_string(result.events) + ".jsonl\"");
  response.set("Tally-Seq", std::to_string(result.events));
  response.set("Tally-Head", events::hex(result.head));
  response.keep_alive(ex->request.keep_alive());
  response.body() = std::move(out).str();
  response.prepare_payload();
  ex->respond(std::move(response));
}

}  // namespace tally::daemon
