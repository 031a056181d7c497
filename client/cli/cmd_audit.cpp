// tally audit: who did what, when and why, with the chains of corrections; tally verify: the
// hash chain of the whole log.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/result_form.hpp"
#include "client/cli/views.hpp"

#include <map>
#include <ostream>
#include <sstream>

namespace tally::cli {

namespace json = boost::json;

namespace {

// "t/brno/r/1/table/2" → "round 1, table 2"; the tournament's own stream → "".
std::string place_of(const std::string& stream) {
  auto r = stream.find("/r/");
  auto t = stream.find("/table/");
  if (r == std::string::npos || t == std::string::npos) return "";
  return "round " + stream.substr(r + 3, t - r - 3) + ", table " + stream.substr(t + 7);
}

std::string seq_text(const json::value& v) { return "#" + cell_text(v); }

class AuditView {
 public:
  AuditView(const json::array& events, std::map<std::string, std::string> judges,
            const TournamentInfo& info)
      : events_(events), judges_(std::move(judges)), info_(info) {
    for (const auto& e : events_) by_seq_[e.at("seq").to_number<std::uint64_t>()] = &e.as_object();
  }

  void print(std::ostream& out) const {
    for (const auto& e : events_) print_event(out, e.as_object());
    print_chains(out);
  }

 private:
  std::string who(const json::object& e) const {
    std::string id = text_member(e, "by");
    auto it = judges_.find(id);
    return it == judges_.end() ? id : it->second + " (" + id + ")";
  }

  std::string kind(const json::object& e) const {
    std::string type = text_member(e, "type");
    if (type.size() > 7 && type.substr(type.size() - 7) == "_result") return "result";
    if (type == "claimed_win") return "claim";
    if (type == "house_pick") return "pick";
    if (type == "carcassonne_scoring") return "scoring";
    if (type == "round_seated") return "seating";
    return type;
  }

  // What the event did, in a line (and, for results, one line per player below it).
  void describe(std::ostream& out, const json::object& e) const {
    std::string type = text_member(e, "type");
    const json::value& payload = e.at("payload");
    const json::object empty;
    const json::object& p = payload.is_object() ? payload.as_object() : empty;
    bool corrects = !e.at("supersedes").is_null();
    std::string replaces = corrects ? " (replaces " + seq_text(e.at("supersedes")) + ")" : "";
    if (type == "tournament_created") {
      out << "created the tournament \"" << text_member(p, "name") << "\" ("
          << text_member(p, "game") << ")\n";
    } else if (type == "player_registered") {
      out << "registered " << text_member(p, "name") << " as " << text_member(p, "id") << "\n";
    } else if (type == "player_dropped") {
      out << "dropped " << info_.label_of(text_member(p, "id")) << "\n";
    } else if (type == "round_seated") {
      out << "seated round " << cell_text(p.at("round")) << " (" << cell_text(p.at("method"));
      if (text_member(p, "method") == "random") out << ", seed " << cell_text(p.at("seed"));
      if (p.contains("forced") && p.at("forced").as_bool()) out << ", forced";
      out << ")";
      if (p.contains("tables")) {
        for (const auto& t : p.at("tables").as_array()) {
          out << "; table " << cell_text(t.at("table")) << ": " << cell_text(t.at("players"));
        }
      }
      out << "\n";
    } else if (kind(e) == "result") {
      out << (corrects ? "corrected the result" + replaces : "entered the result") << "\n";
      if (p.contains("players")) {
        std::ostringstream players;
        print_entry(players, p.at("players").as_array(), info_);
        std::string line;
        for (std::istringstream in(players.str()); std::getline(in, line);) {
          out << "      " << line << "\n";
        }
      }
    } else if (type == "claimed_win") {
      out << "recorded the claimed win of " << info_.label_of(text_member(p, "player")) << replaces
          << "\n";
    } else if (type == "house_pick") {
      out << "recorded the pick of " << info_.label_of(text_member(p, "player")) << ": "
          << text_member(p, "house") << replaces << "\n";
    } else if (type == "carcassonne_scoring") {
      const json::value& event = p.contains("event") ? p.at("event") : payload;
      out << "recorded a scoring" << replaces << ": "
          << (event.is_string() ? std::string(event.as_string()) : json::serialize(event)) << "\n";
    } else if (type == "void") {
      out << "voided " << seq_text(e.at("supersedes")) << "\n";
    } else {
      out << type << ": " << json::serialize(payload) << "\n";
    }
  }

  void print_event(std::ostream& out, const json::object& e) const {
    out << seq_text(e.at("seq")) << "  " << local_time(text_member(e, "at")) << "  " << who(e);
    std::string place = place_of(text_member(e, "stream"));
    if (!place.empty()) out << "  " << place;
    out << "\n    ";
    describe(out, e);
    if (std::string reason = text_member(e, "reason"); !reason.empty()) {
      out << "    why: " << reason << "\n";
    }
    if (e.contains("superseded_by") && !e.at("superseded_by").is_null()) {
      const json::object* later = find(e.at("superseded_by"));
      bool voided = later != nullptr && text_member(*later, "type") == "void";
      out << "    " << (voided ? "voided by " : "superseded by ") << seq_text(e.at("superseded_by"))
          << "\n";
    }
  }

  const json::object* find(const json::value& seq) const {
    auto it = by_seq_.find(seq.to_number<std::uint64_t>());
    return it == by_seq_.end() ? nullptr : it->second;
  }

  // Every chain of corrections: the first action, each replacement (who, why), and what is in
  // effect now.
  void print_chains(std::ostream& out) const {
    bool any = false;
    for (const auto& v : events_) {
      const json::object& first = v.as_object();
      if (!first.at("supersedes").is_null() || !first.contains("superseded_by") ||
          first.at("superseded_by").is_null()) {
        continue;
      }
      if (!any) out << "\nCorrection chains:\n";
      any = true;
      std::string place = place_of(text_member(first, "stream"));
      out << "  " << (place.empty() ? "" : place + ": ") << kind(first) << " "
          << seq_text(first.at("seq")) << " by " << who(first);
      const json::object* link = &first;
      while (link->contains("superseded_by") && !link->at("superseded_by").is_null()) {
        const json::object* next = find(link->at("superseded_by"));
        if (next == nullptr) {
          out << " → " << seq_text(link->at("superseded_by")) << " (not shown)";
          break;
        }
        bool voided = text_member(*next, "type") == "void";
        out << " → " << (voided ? "voided" : "corrected") << " by " << who(*next) << " in "
            << seq_text(next->at("seq"));
        if (std::string reason = text_member(*next, "reason"); !reason.empty()) {
          out << " (\"" << reason << "\")";
        }
        link = next;
      }
      bool withdrawn = text_member(*link, "type") == "void";
      out << (withdrawn ? "; nothing in effect" : "; in effect: " + seq_text(link->at("seq")))
          << "\n";
    }
  }

  const json::array& events_;
  std::map<std::string, std::string> judges_;
  const TournamentInfo& info_;
  std::map<std::uint64_t, const json::object*> by_seq_;
};

int audit(Context& ctx) {
  std::string query;
  auto add = [&](const char* key, const char* option) {
    if (auto v = ctx.args.value(option))
      query += (query.empty() ? "?" : "&") + std::string(key) + "=" + url_encode(*v);
  };
  add("round", "round");
  add("table", "table");
  add("player", "player");
  TournamentInfo info = load_tournament(ctx.session(), ctx.tournament());
  json::value answer =
      ctx.session().read("/v1/tournaments/" + url_encode(info.id) + "/audit" + query);
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  // Judges' names, when the token may read them (the organizer's); ids otherwise.
  std::map<std::string, std::string> judges;
  client::HttpReply list = ctx.session().get("/v1/judges");
  if (list.status == 200) {
    json::value listed = list.json();  // kept alive for the loop
    for (const auto& j : listed.as_array()) {
      judges[text_member(j.as_object(), "id")] = text_member(j.as_object(), "name");
    }
  }
  const json::array& events = answer.at("events").as_array();
  ctx.out << info.name << ": " << events.size() << " event(s)"
          << (query.empty() ? "" : " matching the filter") << ", log at event #"
          << cell_text(answer.at("seq")) << "\n\n";
  AuditView(events, judges, info).print(ctx.out);
  return kOk;
}

int verify(Context& ctx) {
  json::value answer = ctx.session().read("/v1/verify");
  if (ctx.args.has("json")) ctx.out << json::serialize(answer) << "\n";
  if (answer.at("ok").as_bool()) {
    if (!ctx.args.has("json")) {
      ctx.out << "The hash chain is intact: " << cell_text(answer.at("events")) << " events, head "
              << cell_text(answer.at("head")) << ".\n";
    }
    return kOk;
  }
  ctx.err << "tally: the hash chain is BROKEN at event #" << cell_text(answer.at("first_bad"))
          << ": " << cell_text(answer.at("problem")) << " (" << cell_text(answer.at("events"))
          << " events checked)\n";
  return kInvalid;
}

}  // namespace

std::vector<Command> audit_commands() {
  return {
      {"audit",
       "[--round R] [--table N] [--player ID] [--json]",
       "Show the history: who did what, when, why, and what corrected it (token)",
       "Events oldest first, each with its number (#seq), time, author and place, the reason\n"
       "given, and the event that superseded or voided it; then every chain of corrections\n"
       "and what is in effect at its end. --table keeps a table's history (its seating first).",
       {{"round", 0, "R", "only this round"},
        {"table", 0, "N", "only this table (with --round)"},
        {"player", 0, "ID", "only events naming this player"},
        {"json", 0, "", "print the server's JSON answer"}},
       0,
       0,
       true,
       audit},
      {"verify",
       "[--json]",
       "Recompute the hash chain of the whole log (organizer)",
       "Exit 0 when every event's hash matches, 2 when the log was changed (the first bad\n"
       "event is named).",
       {{"json", 0, "", "print the server's JSON answer"}},
       0,
       0,
       false,
       verify},
  };
}

}  // namespace tally::cli
