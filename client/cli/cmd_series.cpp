// tally series export | import | standings: a season across venues (docs/series.md). The venue's
// organizer exports a tournament; the federation's imports it into a series (the server checks
// the hash chain, Q-1) and reads the series standings.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

// GET /v1/export?tournament=T, written as it comes to FILE (or stdout).
int export_tournament(Context& ctx) {
  auto reply = ctx.session().get("/v1/export?tournament=" + url_encode(ctx.tournament()));
  if (reply.status >= 400) ctx.session().expect(reply);  // prints the problem, throws
  if (ctx.args.positionals.empty() || ctx.args.positionals[0] == "-") {
    ctx.out << reply.body;
    return kOk;
  }
  const std::string& path = ctx.args.positionals[0];
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << reply.body;
  if (!file.flush()) {
    throw usage_error(i18n::Message("cli.error.cannot_write",
                                    {{"path", path}, {"problem", std::strerror(errno)}}));
  }
  ctx.out << ctx.say(i18n::Message("cli.series.exported", {{"tournament", ctx.tournament()},
                                                           {"events", reply.header("Tally-Seq")},
                                                           {"path", path}}))
          << "\n";
  return kOk;
}

// POST /v1/series/{s}/imports with the export's text as the body.
int import_export(Context& ctx) {
  const std::string& series = ctx.args.positionals.at(0);
  std::string text = read_input_file(ctx, ctx.args.positionals.at(1));
  json::value answer = ctx.session().expect(ctx.session().send_text(
      tally::net::http::verb::post, "/v1/series/" + url_encode(series) + "/imports",
      std::move(text), "application/x-ndjson"));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const json::object& a = answer.as_object();
  const std::string key = a.at("unchanged").as_bool()  ? "cli.series.unchanged"
                          : a.at("replaced").as_bool() ? "cli.series.replaced"
                                                       : "cli.series.imported";
  ctx.out << ctx.say(
                 i18n::Message(key, {{"tournament", text_member(a, "id")},
                                     {"server", text_member(a.at("origin").as_object(), "server")},
                                     {"events", cell_text(a.at("origin").at("events"))},
                                     {"size", cell_text(a.at("size"))}}))
          << "\n";
  // where the venue's standings and this server's differ, never hidden.
  for (const auto& d : a.at("differences").as_array()) {
    ctx.out << ctx.say(i18n::Message(
                   "cli.series.difference",
                   {{"name", d.at("name").is_string() ? text_member(d.as_object(), "name")
                                                      : text_member(d.as_object(), "player")},
                    {"venue_place", cell_text(d.at("venue_place"))},
                    {"place", cell_text(d.at("place"))}}))
            << "\n";
  }
  return kOk;
}

int standings(Context& ctx) {
  const std::string& series = ctx.args.positionals.at(0);
  std::string target = "/v1/series/" + url_encode(series) + "/standings";
  if (auto as_of = ctx.args.value("as-of")) target += "?as_of=" + url_encode(*as_of);
  json::value answer = ctx.session().read(target);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const json::object& a = answer.as_object();
  ctx.out << ctx.say(i18n::Message("cli.series.heading",
                                   {{"series", series}, {"seq", cell_text(a.at("seq"))}}))
          << "\n";
  TextTable table({{ctx.say(i18n::Message("cli.series.column.rank")), TextTable::Align::right},
                   {ctx.say(i18n::Message("cli.series.column.name"))},
                   {ctx.say(i18n::Message("cli.series.column.status"))},
                   {ctx.say(i18n::Message("cli.series.column.points")), TextTable::Align::right}});
  for (const auto& row : a.at("rows").as_array()) {
    const json::object& r = row.as_object();
    std::string status;
    if (r.at("status").is_string()) {
      status = ctx.say(i18n::Message("cli.series.status." + text_member(r, "status"),
                                     {{"tournament", text_member(r, "qualified_at")}}));
    } else if (text_member(a, "kind") == "qualification") {
      status = ctx.say(i18n::Message(
          "cli.series.missing", {{"count", r.at("points_missing").to_number<std::int64_t>()}}));
    }
    table.add_row(
        {cell_text(r.at("rank")), text_member(r, "name"), status, shown(ctx.lang, r.at("points"))});
  }
  table.print(ctx.out);
  return kOk;
}

}  // namespace

std::vector<Command> series_commands() {
  const OptionSpec json_option{"json", 0, "", "cli.option.json"};
  return {
      {"series export",
       "[FILE]",
       "cli.cmd.series_export.summary",
       "cli.cmd.series_export.details",
       {},
       0,
       1,
       true,
       export_tournament},
      {"series import",
       "SERIES FILE [--json]",
       "cli.cmd.series_import.summary",
       "cli.cmd.series_import.details",
       {json_option},
       2,
       2,
       false,
       import_export},
      {"series standings",
       "SERIES [--as-of SEQ] [--json]",
       "cli.cmd.series_standings.summary",
       "cli.cmd.series_standings.details",
       {{"as-of", 0, "SEQ", "cli.option.as_of"}, json_option},
       1,
       1,
       false,
       standings},
  };
}

}  // namespace tally::cli
