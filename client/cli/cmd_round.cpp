// tally round seat | show.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/offline_copy.hpp"
#include "client/cli/say.hpp"
#include "client/cli/views.hpp"

#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

namespace {

void print_round(Context& ctx, const json::object& round, const TournamentInfo& info) {
  for (const auto& t : round.at("tables").as_array()) {
    print_table(ctx.out, t.as_object(), info, ctx.lang);
  }
  for (const char* list : {"variant", "moved"}) {
    if (!round.contains(list) || !round.at(list).is_array() || round.at(list).as_array().empty())
      continue;
    ctx.out << ctx.say(std::string(list) == "variant" ? "cli.round.variant" : "cli.round.moved")
            << "\n";
    const auto& items = round.at(list).as_array();
    // The variant's lines by their catalog keys ("variant_labels"), in the CLI's language; the
    // server's English text where a line has no key.
    const json::value* labels = round.if_contains(std::string(list) + "_labels");
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& item = items[i];
      if (item.is_string()) {
        bool keyed = labels && labels->is_array() && i < labels->as_array().size() &&
                     labels->as_array()[i].is_string();
        ctx.out << "  - "
                << (keyed ? ctx.say(i18n::Message(std::string(labels->as_array()[i].as_string())))
                          : std::string(item.as_string()))
                << "\n";
      } else {
        const auto& o = item.as_object();
        ctx.out << "  - "
                << ctx.say(i18n::Message("cli.round.moved_player",
                                         {{"player", info.label_of(text_member(o, "player"))},
                                          {"table", cell_text(o.at("table"))},
                                          {"table_league", text_member(o, "table_league")},
                                          {"rating_league", text_member(o, "rating_league")}}))
                << "\n";
      }
    }
  }
}

std::string heading(Context& ctx, const json::object& round) {
  i18n::Message heading(round.contains("seed") ? "cli.round.heading_seed" : "cli.round.heading",
                        {{"round", cell_text(round.at("round"))},
                         {"method", text_member(round, "method")},
                         {"progress", round_progress(ctx.lang, round)}});
  if (round.contains("seed")) heading.with("seed", cell_text(round.at("seed")));
  std::string out = ctx.say(heading);
  if (round.contains("forced") && round.at("forced").as_bool()) {
    out += ctx.say("cli.round.forced");
  }
  return out;
}

int seat(Context& ctx) {
  json::object body;
  auto method = ctx.args.value("method");
  std::vector<std::string> tables = ctx.args.values("table");
  if (!tables.empty() && !method) method = "manual";
  if (method) body["method"] = *method;
  if (auto seed = ctx.args.value("seed")) {
    try {
      std::size_t used = 0;
      unsigned long long n = std::stoull(*seed, &used);
      if (used != seed->size() || (*seed)[0] == '-') throw std::invalid_argument("seed");
      body["seed"] = n;
    } catch (const std::exception&) {
      throw usage_error("cli.round.bad_seed");
    }
  }
  if (!tables.empty()) {
    json::array list;
    for (const auto& t : tables) {
      json::array players;
      std::stringstream in(t);
      for (std::string id; std::getline(in, id, ',');) {
        if (!id.empty()) players.emplace_back(id);
      }
      list.push_back(std::move(players));
    }
    body["tables"] = std::move(list);
  }
  if (ctx.args.has("force")) {
    body["force"] = true;
    if (!ctx.args.has("reason")) throw usage_error("cli.round.force_needs_reason");
  }
  if (auto reason = ctx.args.value("reason")) body["reason"] = *reason;

  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::value answer = ctx.session().expect(ctx.session().send(
      tally::net::http::verb::post, "/v1/tournaments/" + url_encode(info.id) + "/rounds", body));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& round = answer.as_object();
  if (round.contains("superseded")) {
    ctx.out << ctx.say(i18n::Message(
                   "cli.round.withdrawn",
                   {{"round", cell_text(round.at("round"))}, {"seq", cell_text(round.at("seq"))}}))
            << "\n";
    return kOk;
  }
  ctx.out << heading(ctx, round)
          << ctx.say(i18n::Message("cli.round.event", {{"seq", cell_text(round.at("seq"))}}))
          << "\n";
  print_round(ctx, round, info);
  return kOk;
}

int show(Context& ctx) {
  std::uint64_t number = ctx.number_argument(0, "ROUND");
  // What a judge looks at before the Wi-Fi goes is what `result enter` works from without it.
  auto copy = std::make_shared<OfflineCopy>(OfflineCopy::default_path());
  ctx.session().use_offline_copy(copy);
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::object round = load_round(ctx.session(), info.id, number);
  // The game's fields too, once: prompts and --player flags are built from them.
  if (!ctx.session().offline() && !copy->recall(ctx.session().address().url, "/v1/games")) {
    try {
      ctx.session().get("/v1/games");
    } catch (const Unreachable&) {
      // gone just now: the round is shown all the same
    }
  }
  if (ctx.session().offline() && !ctx.session().copy_saved_at().empty()) {
    ctx.err << "tally: " << ctx.say(ctx.session().unreachable().message()) << "\n  "
            << ctx.say(i18n::Message("cli.outbox.showing_copy",
                                     {{"time", local_time(ctx.session().copy_saved_at())}}))
            << "\n";
  }
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(round) << "\n";
    return kOk;
  }
  ctx.out << heading(ctx, round) << "\n";
  print_round(ctx, round, info);
  return kOk;
}

}  // namespace

std::vector<Command> round_commands() {
  return {
      {"round seat",
       "[--method random|standings|manual] [--seed N] [--table IDS]... [--force --reason TEXT]",
       "cli.cmd.round_seat.summary",
       "cli.cmd.round_seat.details",
       {{"method", 0, "METHOD", "cli.option.method"},
        {"seed", 0, "N", "cli.option.seed"},
        {"table", 0, "IDS", "cli.option.table_ids", true},
        {"force", 0, "", "cli.option.force"},
        {"reason", 0, "TEXT", "cli.option.reason_seat"},
        {"json", 0, "", "cli.option.json"}},
       0,
       0,
       true,
       seat},
      {"round show",
       "ROUND [--json]",
       "cli.cmd.round_show.summary",
       "",
       {{"json", 0, "", "cli.option.json"}},
       1,
       1,
       true,
       show},
  };
}

}  // namespace tally::cli
