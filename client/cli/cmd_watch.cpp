// tally watch: live standings in the terminal, redrawn on every change.
#include "client/cli/command.hpp"
#include "client/cli/live_feed.hpp"
#include "client/cli/numbers.hpp"
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
      last_change_ = "#" + cell_text(e.at("seq")) + " " + text_member(e, "type") + " by " +
                     text_member(e, "by");
      return;
    }
    if (type == "error") {
      ctx_.err << "tally: the server says: " << text_member(m, "reason") << "\n";
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

  void on_status(const std::string& status) {
    if (status == "connected") {
      if (lost_) ctx_.err << "tally: connected again\n";
      lost_ = false;
      return;
    }
    lost_ = true;
    ctx_.err << "tally: " << status << "\n";
  }

 private:
  void draw() {
    // On a terminal each frame replaces the last; into a pipe or file frames follow each other.
    if (ctx_.stdout_is_terminal) ctx_.out << "\x1b[H\x1b[2J";
    ctx_.out << title_ << ": live standings after event #" << seq_ << " (updated " << clock_now()
             << ")\n";
    if (round_.is_object()) {
      const auto& r = round_.as_object();
      ctx_.out << "Round " << cell_text(r.at("round")) << ": " << cell_text(r.at("reported"))
               << " of " << cell_text(r.at("tables_total")) << " tables reported\n";
    }
    ctx_.out << "\n";
    print_standings(ctx_.out, standings_);
    if (!last_change_.empty()) ctx_.out << "\nLast change: " << last_change_ << "\n";
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
  if (n <= 0) throw usage_error("--" + name + " must be a positive whole number");
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
    ctx.err << "tally: " << f.what() << "; waiting for it\n";
  }
  std::optional<long long> updates = positive_option(ctx, "updates");
  std::optional<std::chrono::milliseconds> limit;
  if (auto seconds = positive_option(ctx, "timeout")) limit = std::chrono::seconds(*seconds);

  WatchScreen screen(ctx, title);
  LiveFeed* running = nullptr;
  LiveFeed feed(parse_server_url(ctx.settings.server), ctx.settings.token, ctx.settings.ca_file,
                tournament,
                {[&](const json::object& m) {
                   screen.on_message(m);
                   if (updates && screen.redraws() >= *updates) running->finish();
                 },
                 [&](const std::string& s) { screen.on_status(s); }});
  running = &feed;
  return feed.run(limit);
}

}  // namespace

std::vector<Command> watch_commands() {
  return {
      {"watch",
       "",
       "Live standings in the terminal, redrawn on every change (Ctrl-C ends)",
       "Follows the tournament's live feed. When the connection is lost it says so and\n"
       "reconnects (with since= the last event received). Into a pipe or a file each update is\n"
       "written after the previous one instead of redrawing the screen. --updates and --timeout\n"
       "end it (exit 0) for scripts and checks.",
       {{"updates", 0, "N", "stop after N changes (N redraws after the first screen)"},
        {"timeout", 0, "SECONDS", "stop after this many seconds"}},
       0,
       0,
       true,
       watch},
  };
}

}  // namespace tally::cli
