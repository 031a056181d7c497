// tally watch: live standings in the terminal, redrawn on every change.
#include "client/cli/command.hpp"
#include "client/cli/live_feed.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/standings_view.hpp"
#include "client/cli/views.hpp"

#include <chrono>
#include <ctime>
#include <optional>
#include <ostream>

namespace tally::cli {

namespace json = boost::json;

namespace {

std::string clock_now() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%H:%M:%S", &local);
  return buffer;
}

// What the screen shows: the newest standings and round progress, and the last change.
class WatchScreen {
 public:
  WatchScreen(Context& ctx, std::string title) : ctx_(ctx), title_(std::move(title)) {}

  // The number of screens drawn after the first one (each change redraws).
  int redraws() const { return draws_ > 0 ? draws_ - 1 : 0; }

  void on_message(const json::object& m) {
    std::string type = text_member(m, "type");
    if (type == "event" && m.contains("event") && m.at("event").is_object()) {
      const auto& e = m.at("event").as_object();
      last_change_ = ctx_.say(i18n::Message("cli.watch.change", {{"seq", cell_text(e.at("seq"))},
                                                                 {"type", text_member(e, "type")},
                                                                 {"by", text_member(e, "by")}}));
      return;
    }
    if (type == "error") {
      ctx_.err << "tally: "
               << ctx_.say(i18n::Message("cli.watch.server_says",
                                         {{"reason", text_member(m, "reason")}}))
               << "\n";
      return;
    }
    if (type != "snapshot" && type != "standings") return;
    if (m.contains("round")) round_ = m.at("round");
    if (m.contains("standings") && m.at("standings").is_object()) {
      standings_ = m.at("standings").as_object();
    }
    seq_ = cell_text(m.at("seq"));
    draw();
  }

  void on_connected() {
    if (lost_) ctx_.err << "tally: " << ctx_.say("cli.watch.connected_again") << "\n";
    lost_ = false;
  }

  void on_trouble(const std::string& what) {
    lost_ = true;
    ctx_.err << "tally: " << what << "\n";
  }

 private:
  void draw() {
    // On a terminal each frame replaces the last; into a pipe or file frames follow each other.
    if (ctx_.stdout_is_terminal) ctx_.out << "\x1b[H\x1b[2J";
    ctx_.out << ctx_.say(
                    i18n::Message("cli.watch.heading",
                                  {{"tournament", title_}, {"seq", seq_}, {"time", clock_now()}}))
             << "\n";
    if (round_.is_object()) {
      const auto& r = round_.as_object();
      ctx_.out << ctx_.say(
                      i18n::Message("cli.round.line", {{"round", cell_text(r.at("round"))},
                                                       {"progress", round_progress(ctx_.lang, r)}}))
               << "\n";
    }
    ctx_.out << "\n";
    print_standings(ctx_.out, standings_, ctx_.lang);
    if (!last_change_.empty()) {
      ctx_.out << "\n"
               << ctx_.say(i18n::Message("cli.watch.last_change", {{"change", last_change_}}))
               << "\n";
    }
    if (!ctx_.stdout_is_terminal) ctx_.out << "\n";
    ctx_.out << std::flush;
    ++draws_;
  }

  Context& ctx_;
  std::string title_;
  json::object standings_;
  json::value round_;
  std::string seq_;
  std::string last_change_;
  bool lost_ = false;
  int draws_ = 0;
};

// A positive whole number from option `name`, or nullopt when the option is absent.
std::optional<long long> positive_option(Context& ctx, const std::string& name) {
  auto text = ctx.args.value(name);
  if (!text) return std::nullopt;
  long long n = 0;
  try {
    std::size_t used = 0;
    n = std::stoll(*text, &used);
    if (used != text->size()) n = 0;
  } catch (const std::exception&) {
    n = 0;
  }
  if (n <= 0) {
    throw usage_error(i18n::Message("cli.watch.not_positive", {{"option", "--" + name}}));
  }
  return n;
}

int watch(Context& ctx) {
  const std::string& tournament = ctx.tournament();
  // The title from the tournament; a server that is down now is waited for by the feed.
  std::string title = tournament;
  try {
    title = load_tournament(ctx.session(), tournament).name;
  } catch (const Failure& f) {
    if (f.code() != kUnavailable) throw;
    ctx.err << "tally: "
            << ctx.say(i18n::Message("cli.watch.waiting", {{"problem", ctx.say(f.message())}}))
            << "\n";
  }
  std::optional<long long> updates = positive_option(ctx, "updates");
  std::optional<std::chrono::milliseconds> limit;
  if (auto seconds = positive_option(ctx, "timeout")) limit = std::chrono::seconds(*seconds);

  WatchScreen screen(ctx, title);
  LiveFeed* running = nullptr;
  LiveFeed feed(
      parse_server_url(ctx.settings.server), ctx.settings.token, ctx.settings.ca_file, tournament,
      ctx.lang,
      {[&](const json::object& m) {
         screen.on_message(m);
         if (updates && screen.redraws() >= *updates) running->finish();
       },
       [&] { screen.on_connected(); }, [&](const std::string& what) { screen.on_trouble(what); }});
  running = &feed;
  return feed.run(limit);
}

}  // namespace

std::vector<Command> watch_commands() {
  return {
      {"watch",
       "",
       "cli.cmd.watch.summary",
       "cli.cmd.watch.details",
       {{"updates", 0, "N", "cli.option.updates"}, {"timeout", 0, "SECONDS", "cli.option.timeout"}},
       0,
       0,
       true,
       watch},
  };
}

}  // namespace tally::cli
