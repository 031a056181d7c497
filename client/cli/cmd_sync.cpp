// tally sync: sends the outbox (outbox.hpp) to the server, oldest entry first, each with the
// Idempotency-Key and precondition it was kept with — so an entry whose first send reached the
// server is answered with the original answer and not applied twice. Nothing leaves the outbox
// but by an answer that applied it or by the judge's choice:
//   - 412 (another judge entered the table meanwhile): both entries are shown, by player name,
//     and the judge chooses — theirs stands (mine is dropped), mine stands (sent as a correction
//     of their version, with a reason), or later (kept);
//   - 400/422 (the entry breaks a rule, e.g. one changed meanwhile), 404, 409: the errors are
//     shown by rule, player and field; the entry stays until the judge discards it
//     (`tally sync --discard ID`) — later entries for the same table wait behind it;
//   - 401/403 (a token revoked meanwhile), 5xx, 429, no connection: said plainly, and the sync
//     stops with everything kept.
// `tally sync --list` shows what waits, without the server.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/offline_copy.hpp"
#include "client/cli/outbox.hpp"
#include "client/cli/private_file.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/say.hpp"
#include "client/cli/text.hpp"
#include "client/cli/text_table.hpp"
#include "client/cli/views.hpp"

#include <map>
#include <ostream>
#include <set>
#include <tuple>

namespace tally::cli {

namespace json = boost::json;

namespace {

// "Round 1, table 2: …".
std::string at_table(Context& ctx, const OutboxEntry& e, const i18n::Message& what) {
  return ctx.say(i18n::Message("cli.result.at_table",
                               {{"round", e.round}, {"table", e.table}, {"what", ctx.say(what)}}));
}

std::string round_table(Context& ctx, const OutboxEntry& e) {
  return round_and_table(ctx.lang, e.round, e.table);
}

const json::array& players_of(const OutboxEntry& e) {
  static const json::array kNone;
  auto it = e.body.find("players");
  return it != e.body.end() && it->value().is_array() ? it->value().as_array() : kNone;
}

// "first entry" / "correction of version 2".
std::string sent_as(Context& ctx, const OutboxEntry& e) {
  return e.correction()
             ? ctx.say(i18n::Message("cli.sync.as_correction", {{"version", e.if_match}}))
             : ctx.say("cli.sync.as_first_entry");
}

int list(Context& ctx, const Outbox& outbox) {
  std::vector<OutboxEntry> entries = outbox.entries();
  if (entries.empty()) {
    ctx.out << ctx.say("cli.sync.empty") << "\n";
    return kOk;
  }
  TextTable table({{"#", TextTable::Align::right},
                   {ctx.say("cli.sync.column.entered")},
                   {ctx.say("cli.sync.column.by")},
                   {ctx.say("cli.sync.column.tournament")},
                   {ctx.say("cli.sync.column.round"), TextTable::Align::right},
                   {ctx.say("cli.sync.column.table"), TextTable::Align::right},
                   {ctx.say("cli.sync.column.sent_as")},
                   {ctx.say("cli.sync.column.server")}});
  for (const auto& e : entries) {
    table.add_row({std::to_string(e.id), local_time(e.entered_at), printable(e.entered_by),
                   printable(e.tournament), std::to_string(e.round), std::to_string(e.table),
                   sent_as(ctx, e), printable(e.server)});
  }
  table.print(ctx.out);
  ctx.out << ctx.say(i18n::Message("cli.sync.waiting",
                                   {{"count", entries.size()}, {"path", outbox.file().string()}}))
          << "\n";
  return kOk;
}

int discard(Context& ctx, Outbox& outbox, const std::string& which) {
  std::uint64_t id = 0;
  bool ok = !which.empty() && which.size() <= 9;
  for (char c : which) ok = ok && c >= '0' && c <= '9';
  if (ok) id = std::stoull(which);
  std::optional<OutboxEntry> found;
  for (auto& e : outbox.entries()) {
    if (e.id == id) found = e;
  }
  if (!found || !outbox.remove(id)) {
    throw usage_error(i18n::Message("cli.sync.no_such_entry", {{"id", which}}));
  }
  ctx.out << ctx.say(i18n::Message("cli.sync.discarded", {{"id", id},
                                                          {"tournament", found->tournament},
                                                          {"round", found->round},
                                                          {"table", found->table}}))
          << "\n";
  return kOk;
}

class Sync {
 public:
  Sync(Context& ctx, Outbox& outbox) : ctx_(ctx), outbox_(outbox) {}
  int run();

 private:
  enum class Outcome { sent, dropped, kept, stop };
  enum class Choice { theirs, mine, later };

  Outcome send(OutboxEntry entry);
  Choice settle_conflict(OutboxEntry& entry, const json::object& theirs);
  void show_mine(const OutboxEntry& entry);
  Outcome refused(const OutboxEntry& entry, const tally::net::HttpReply& reply);
  const TournamentInfo& info(const std::string& tournament);
  void keep_back(int code) {
    if (code_ == kOk) code_ = code;
  }
  std::string label(const std::string& tournament, const std::string& player) {
    return info(tournament).label_of(player);
  }

  Context& ctx_;
  Outbox& outbox_;
  std::map<std::string, TournamentInfo> infos_;
  int code_ = kOk;  // the first kept-back entry's exit code, or what stopped the sync
  std::size_t sent_ = 0, dropped_ = 0;
};

// The tournament's players, for names; the id alone when the server will not say (the PUT
// then tells what is wrong).
const TournamentInfo& Sync::info(const std::string& tournament) {
  auto it = infos_.find(tournament);
  if (it != infos_.end()) return it->second;
  TournamentInfo info;
  info.id = tournament;
  info.name = tournament;
  tally::net::HttpReply reply = ctx_.session().get(tournament_path(tournament));
  if (reply.status == 200) {
    try {
      info = tournament_info(reply.json());
    } catch (const std::exception&) {
    }
  }
  return infos_.emplace(tournament, std::move(info)).first->second;
}

int Sync::run() {
  std::vector<OutboxEntry> entries = outbox_.entries();
  if (entries.empty()) {
    ctx_.out << ctx_.say("cli.sync.empty") << "\n";
    return kOk;
  }
  // One sync at a time: a second would ask the same questions about the same entries.
  FileLock running(std::filesystem::path(outbox_.file()) += ".sync", false);
  if (!running.locked()) throw Failure(kConflict, "cli.sync.running");
  entries = outbox_.entries();
  ctx_.session().use_offline_copy(std::make_shared<OfflineCopy>(OfflineCopy::default_path()));

  const std::string server = ctx_.session().address().url;
  std::set<std::tuple<std::string, std::uint64_t, std::uint64_t>> held;  // tables kept back
  std::size_t other_server = 0;
  bool stopped = false;
  for (const auto& e : entries) {
    if (e.server != server) {
      ++other_server;
      continue;
    }
    auto table = std::make_tuple(e.tournament, e.round, e.table);
    if (stopped) break;
    if (held.count(table)) {
      ctx_.err << "tally: " << round_table(ctx_, e) << ": "
               << ctx_.say(i18n::Message("cli.sync.waits_behind", {{"id", e.id}})) << "\n";
      continue;
    }
    Outcome outcome = Outcome::stop;
    try {
      outcome = send(e);
    } catch (const Unreachable& why) {
      ctx_.err << "tally: " << ctx_.say(why.message()) << "\n  " << ctx_.say("cli.sync.stopped")
               << "\n";
      code_ = kUnavailable;
    }
    if (outcome == Outcome::kept) held.insert(table);
    if (outcome == Outcome::stop) stopped = true;
  }

  std::size_t waiting = outbox_.entries().size();
  ctx_.out << ctx_.say(
                  i18n::Message("cli.sync.summary",
                                {{"sent", sent_}, {"dropped", dropped_}, {"waiting", waiting}}))
           << "\n";
  if (other_server > 0) {
    ctx_.out << ctx_.say(i18n::Message("cli.sync.other_server", {{"count", other_server}})) << "\n";
  }
  return code_;
}

Sync::Outcome Sync::send(OutboxEntry entry) {
  for (;;) {
    const TournamentInfo& tournament = info(entry.tournament);
    if (!entry.token.empty() && entry.token != token_fingerprint(ctx_.settings.token)) {
      ctx_.err << "tally: " << round_table(ctx_, entry) << ": "
               << ctx_.say(i18n::Message("cli.sync.other_token",
                                         {{"id", entry.id}, {"token", entry.token}}))
               << "\n";
    }
    tally::net::HttpReply reply =
        ctx_.session().send(tally::net::http::verb::put, entry.target(), entry.body, entry.headers());
    if (reply.status < 400) {
      json::value answer = ctx_.session().expect(reply);
      outbox_.remove(entry.id);
      ++sent_;
      const auto& o = answer.as_object();
      ctx_.out << at_table(ctx_, entry,
                           i18n::Message(
                               reply.status == 201 ? "cli.result.entered" : "cli.result.replaced",
                               {{"version", cell_text(o.at("version"))},
                                {"seq", cell_text(o.at("seq"))}}))
               << "\n";
      if (o.contains("result")) print_result(ctx_.out, o.at("result"), tournament, ctx_.lang);
      return Outcome::sent;
    }
    if (reply.status == 412) {
      json::value problem;
      try {
        problem = reply.json();
      } catch (const std::exception&) {
      }
      const json::value* table =
          problem.is_object() ? problem.as_object().if_contains("table") : nullptr;
      if (table == nullptr || !table->is_object()) return refused(entry, reply);
      switch (settle_conflict(entry, table->as_object())) {
        case Choice::theirs:
          outbox_.remove(entry.id);
          ++dropped_;
          ctx_.out << at_table(ctx_, entry, i18n::Message("cli.sync.dropped", {{"id", entry.id}}))
                   << "\n";
          return Outcome::dropped;
        case Choice::mine:
          continue;  // sent again, now as a correction (kept so in the outbox first)
        case Choice::later:
          keep_back(kConflict);
          ctx_.err << "tally: " << round_table(ctx_, entry) << ": "
                   << ctx_.say(i18n::Message("cli.sync.kept", {{"id", entry.id}})) << "\n";
          return Outcome::kept;
      }
    }
    return refused(entry, reply);
  }
}

// Their entry beside this one, then the choice. "Mine" turns the entry into a correction of
// their version with the judge's reason and a new key (a new body is a new request), stored in
// the outbox before it is sent, so a lost answer is safe to retry again.
Sync::Choice Sync::settle_conflict(OutboxEntry& entry, const json::object& theirs) {
  const TournamentInfo& tournament = info(entry.tournament);
  ctx_.err << "tally: " << round_table(ctx_, entry) << ": "
           << ctx_.say(i18n::Message("cli.result.already_entered",
                                     {{"by_at", entered_by_at(theirs, ctx_.lang)}}))
           << "\n";
  ctx_.err << ctx_.say(
                  i18n::Message("cli.sync.theirs", {{"entry", entry_summary(theirs, ctx_.lang)}}))
           << "\n";
  if (theirs.contains("result") && theirs.at("result").is_object()) {
    print_result(ctx_.err, theirs.at("result"), tournament, ctx_.lang);
  }
  show_mine(entry);

  std::string version = cell_text(theirs.at("version"));
  ctx_.err << ctx_.say(i18n::Message("cli.sync.choices", {{"version", version}})) << "\n";
  Prompter ask = ctx_.prompter();
  try {
    std::string choice = ask.choice(ctx_.say("cli.sync.choose"), {"1", "2", "3"});
    if (choice == "1") return Choice::theirs;
    if (choice == "3") return Choice::later;
    std::optional<std::string> earlier;
    if (auto it = entry.body.find("reason"); it != entry.body.end() && it->value().is_string()) {
      earlier = std::string(it->value().as_string());
    }
    std::string reason;
    while (reason.empty()) reason = ask.text(ctx_.say("cli.sync.ask_reason"), earlier);
    entry.body["reason"] = reason;
    entry.if_match = version;
    entry.idempotency_key = new_idempotency_key();
    if (!outbox_.replace(entry)) return Choice::later;  // gone meanwhile: nothing to send
    return Choice::mine;
  } catch (const Failure& f) {
    if (f.code() != kUsage) throw;
    return Choice::later;  // no answer (the input ended): the entry stays
  }
}

// This computer's entry, with what the server would compute from it as a correction (a check
// records nothing; it needs some reason, the judge's comes only if theirs is replaced).
void Sync::show_mine(const OutboxEntry& entry) {
  const TournamentInfo& tournament = info(entry.tournament);
  ctx_.err << ctx_.say(i18n::Message("cli.sync.yours", {{"id", entry.id},
                                                        {"who", printable(entry.entered_by)},
                                                        {"time", local_time(entry.entered_at)}}))
           << "\n";
  print_entry(ctx_.err, players_of(entry), tournament, ctx_.lang);
  json::object body = entry.body;
  if (!body.contains("reason")) body["reason"] = ctx_.say("cli.sync.check_reason");
  tally::net::HttpReply reply = ctx_.session().check(entry.target() + "/check", body);
  if (reply.status == 200) {
    json::value answer = reply.json();
    const json::value* result =
        answer.is_object() ? answer.as_object().if_contains("result") : nullptr;
    if (result != nullptr && result->is_object()) {
      ctx_.err << ctx_.say("cli.sync.yours_would_give") << "\n";
      print_result(ctx_.err, *result, tournament, ctx_.lang);
    }
  } else if (reply.status == 422) {
    ctx_.err << ctx_.say("cli.sync.yours_refused") << "\n";
    print_problem_errors(reply, ctx_.err, ctx_.lang, "  ",
                         [&](const std::string& p) { return label(entry.tournament, p); });
  }
}

// Any other refusal: said plainly; a token or server problem stops the sync, an entry the
// server will not take stays (by rule, player and field) until the judge discards it.
Sync::Outcome Sync::refused(const OutboxEntry& entry, const tally::net::HttpReply& reply) {
  int status = reply.status;
  if (status == 401) {
    ctx_.err << "tally: " << ctx_.say("cli.sync.token_refused") << "\n";
    code_ = kAuth;
    return Outcome::stop;
  }
  std::string detail = problem_detail(reply);
  if (detail.empty()) detail = ctx_.say("cli.problem.refused");
  ctx_.err << "tally: " << round_table(ctx_, entry) << ": "
           << ctx_.say(i18n::Message("cli.problem.headline",
                                     {{"detail", detail}, {"status", std::to_string(status)}}))
           << "\n";
  print_problem_errors(reply, ctx_.err, ctx_.lang, "  ",
                       [&](const std::string& p) { return label(entry.tournament, p); });
  ExitCode code = exit_code_for_status(status);
  if (status == 403 || code == kUnavailable) {
    ctx_.err << "  " << ctx_.say("cli.sync.stopped") << "\n";
    code_ = code;
    return Outcome::stop;
  }
  ctx_.err << ctx_.say(i18n::Message("cli.sync.yours", {{"id", entry.id},
                                                        {"who", printable(entry.entered_by)},
                                                        {"time", local_time(entry.entered_at)}}))
           << "\n";
  print_entry(ctx_.err, players_of(entry), info(entry.tournament), ctx_.lang);
  ctx_.err << ctx_.say(
                  i18n::Message("cli.sync.stays",
                                {{"id", entry.id}, {"round", entry.round}, {"table", entry.table}}))
           << "\n";
  keep_back(code);
  return Outcome::kept;
}

int sync(Context& ctx) {
  Outbox outbox(Outbox::default_path());
  if (ctx.args.has("list")) {
    if (ctx.args.has("discard")) throw usage_error("cli.sync.list_or_discard");
    return list(ctx, outbox);
  }
  if (auto which = ctx.args.value("discard")) return discard(ctx, outbox, *which);
  return Sync(ctx, outbox).run();
}

}  // namespace

std::vector<Command> sync_commands() {
  return {
      {"sync",
       "[--list | --discard ID]",
       "cli.cmd.sync.summary",
       "cli.cmd.sync.details",
       {{"list", 0, "", "cli.option.sync_list"}, {"discard", 0, "ID", "cli.option.sync_discard"}},
       0,
       0,
       false,
       sync},
  };
}

}  // namespace tally::cli
