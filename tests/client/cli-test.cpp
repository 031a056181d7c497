// The real `tally` binary against a real tallyd on loopback: every command a judge or an organizer
// uses, with the exact output where it is the point (points, orders, messages) and the exit codes
// of docs/cli.md. The tallyd is tallyd-test, so a Catan tournament here is the real game.
#include "tests/client/cli_runner.hpp"
#include "tests/support/catan_result.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/tallyd_process.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace tally::testing {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// The exit codes of docs/cli.md.
constexpr int kOk = 0, kUsage = 1, kInvalid = 2, kConflict = 3, kAuth = 4, kNotFound = 5,
              kUnavailable = 6;

// One Catan table of four: a 10 VP (Largest Army), b 8 (Longest Road), c and d 5 each, so c and
// d share third place and split its round points: (2 + 1) / 2 = 1.5.
const std::vector<std::string> kResultFlags = {
    "--player",
    "a:settlements=2,cities=3,vp_cards=0,knights=3,roads=6,longest_road=4,largest_army",
    "--player",
    "b:settlements=3,cities=1,vp_cards=1,knights=1,roads=7,longest_road=5,longest_road_holder",
    "--player",
    "c:settlements=3,cities=1,vp_cards=0,knights=0,roads=5,longest_road=3",
    "--player",
    "d:settlements=5,cities=0,vp_cards=0,knights=2,roads=4,longest_road=2"};

// The same result as a JSON body.
json::object result_body() {
  auto sheet = [](const char* p, int s, int c, int vp, int k, int r, int lr, bool la, bool lrh) {
    return json::object{{"player", p},        {"settlements", s},   {"cities", c},
                        {"vp_cards", vp},     {"knights", k},       {"roads", r},
                        {"longest_road", lr}, {"largest_army", la}, {"longest_road_holder", lrh}};
  };
  return json::object{{"players", json::array{sheet("a", 2, 3, 0, 3, 6, 4, true, false),
                                              sheet("b", 3, 1, 1, 1, 7, 5, false, true),
                                              sheet("c", 3, 1, 0, 0, 5, 3, false, false),
                                              sheet("d", 5, 0, 0, 2, 4, 2, false, false)}}};
}

const char* kResultTable =
    "  Place  Name           ID  VP  Round pts\n"
    "  -----  -------------  --  --  ---------\n"
    "  1      Anna Horáková  a   10       5.00\n"
    "  2      Boris Novák    b    8       3.00\n"
    "  3=     Cyril Černý    c    5       1.50\n"
    "  3=     Dana Veselá    d    5       1.50\n";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The strings of a JSON array joined with `separator`.
std::string joined(const json::value& list, const std::string& separator,
                   const std::string& skip = "") {
  std::string out;
  for (const auto& v : list.as_array()) {
    if (v.as_string() == skip.c_str()) continue;
    out += (out.empty() ? "" : separator) + std::string(v.as_string());
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<TallydProcess>(dir_.sub("data"));
    daemon_->start();
    fs::create_directories(home());
  }

  std::string server() const { return "http://127.0.0.1:" + std::to_string(daemon_->port()); }
  std::string home() const { return dir_.sub("home"); }
  std::string organizer_token() const { return daemon_->organizer_token(); }

  // A user's environment: an isolated HOME, this server, `token` (none when empty) and the
  // tournament brno.
  std::map<std::string, std::string> env(const std::string& token) const {
    std::map<std::string, std::string> e = {
        {"HOME", home()}, {"TALLY_SERVER", server()}, {"TALLY_TOURNAMENT", "brno"}};
    if (!token.empty()) e["TALLY_TOKEN"] = token;
    return e;
  }

  // `tally args…` as the organizer.
  CliResult tally(const std::vector<std::string>& args, const std::string& input = "") {
    return run_cli(args, env(organizer_token()), input);
  }
  // `tally args…` with `token`.
  CliResult tally_as(const std::string& token, const std::vector<std::string>& args,
                     const std::string& input = "") {
    return run_cli(args, env(token), input);
  }

  std::string new_judge(const std::string& name) {
    auto r = daemon_->organizer().post("/v1/judges", json::object{{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return std::string(r.json().at("token").as_string());
  }

  // The Catan tournament brno with a, b, c, d registered over HTTP; round 1 seated as one table
  // when `seat`.
  void catan_tournament(bool seat = true) {
    auto org = daemon_->organizer();
    auto r = org.post(
        "/v1/tournaments",
        json::object{{"id", "brno"}, {"name", "Brno Open"}, {"game", "catan"}, {"locale", "cs"}});
    ASSERT_EQ(r.status, 201) << r.body;
    for (auto [id, name] : std::vector<std::pair<const char*, const char*>>{{"a", "Anna Horáková"},
                                                                            {"b", "Boris Novák"},
                                                                            {"c", "Cyril Černý"},
                                                                            {"d", "Dana Veselá"}}) {
      r = org.post("/v1/tournaments/brno/players", json::object{{"id", id}, {"name", name}});
      ASSERT_EQ(r.status, 201) << r.body;
    }
    if (!seat) return;
    r = org.post("/v1/tournaments/brno/rounds",
                 json::object{{"method", "manual"}, {"tables", json::array{{"a", "b", "c", "d"}}}});
    ASSERT_EQ(r.status, 201) << r.body;
  }

  json::object table_now() {
    return daemon_->organizer()
        .get("/v1/tournaments/brno/rounds/1")
        .json()
        .at("tables")
        .at(0)
        .as_object();
  }
  std::uint64_t head_seq() {
    return daemon_->organizer().get("/healthz").json().at("seq").to_number<std::uint64_t>();
  }

  // The server's description of `game` (GET /v1/games), and of a field of its result.
  json::object game_description(const std::string& game) {
    json::value games = daemon_->organizer().get("/v1/games").json();
    for (const auto& g : games.as_array()) {
      if (g.at("game") == game.c_str()) return g.as_object();
    }
    ADD_FAILURE() << "the server does not describe " << game;
    return {};
  }
  json::object result_field(const std::string& game, const std::string& name) {
    json::object described = game_description(game);
    for (const auto& f : described.at("actions").at("result").at("fields").as_array()) {
      if (f.at("name") == name.c_str()) return f.as_object();
    }
    ADD_FAILURE() << game << " has no result field " << name;
    return {};
  }

  TempDir dir_;
  std::unique_ptr<TallydProcess> daemon_;
};

// --- help and exit codes ------------------------------------------------------------------------

TEST_F(Cli, EveryCommandHasHelpAndBadCommandLinesAreUsageErrors) {
  CliResult overview = run_cli({"--help"}, {{"HOME", home()}});
  ASSERT_EQ(overview.exit_code, kOk) << overview.err;
  // Every command of the overview answers --help with its own usage.
  std::istringstream lines(overview.out.substr(overview.out.find("Commands:\n") + 10));
  int commands = 0;
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    std::string path = line.substr(2, line.find("  ", 2) - 2);
    std::vector<std::string> args;
    std::istringstream words(path);
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    CliResult help = run_cli(args, {{"HOME", home()}});
    EXPECT_EQ(help.exit_code, kOk) << path << ": " << help.err;
    EXPECT_EQ(help.out.rfind("Usage: tally " + path, 0), 0u) << help.out;
    ++commands;
  }
  EXPECT_GE(commands, 24);
  for (const char* wanted : {"backup", "export", "watch", "verify", "audit", "score", "claim"}) {
    EXPECT_TRUE(contains(overview.out, std::string("\n  ") + wanted + " ")) << wanted;
  }

  EXPECT_EQ(run_cli({}, {{"HOME", home()}}).exit_code, kUsage);
  CliResult unknown = run_cli({"frobnicate"}, {{"HOME", home()}});
  EXPECT_EQ(unknown.exit_code, kUsage);
  EXPECT_TRUE(contains(unknown.err, "unknown command \"frobnicate\"")) << unknown.err;
  CliResult bad_option = tally({"standings", "--bogus"});
  EXPECT_EQ(bad_option.exit_code, kUsage);
  EXPECT_TRUE(contains(bad_option.err, "unknown option --bogus")) << bad_option.err;
  EXPECT_EQ(tally({"result", "enter", "1"}).exit_code, kUsage);  // TABLE missing
}

TEST_F(Cli, ServerProblemsMapToTheirExitCodes) {
  CliResult down =
      run_cli({"tournament", "list", "--server", "http://127.0.0.1:1"}, {{"HOME", home()}});
  EXPECT_EQ(down.exit_code, kUnavailable);
  EXPECT_TRUE(contains(down.err, "cannot reach tallyd at http://127.0.0.1:1")) << down.err;

  CliResult missing = tally({"tournament", "show", "nowhere"});
  EXPECT_EQ(missing.exit_code, kNotFound) << missing.err;
  EXPECT_TRUE(contains(missing.err, "(HTTP 404)")) << missing.err;

  catan_tournament();
  std::string eva = new_judge("Eva");
  CliResult forbidden = tally_as(eva, {"player", "add", "Eve", "--id", "e"});
  EXPECT_EQ(forbidden.exit_code, kAuth);
  EXPECT_TRUE(contains(forbidden.err, "(HTTP 403)")) << forbidden.err;
  CliResult bad_token = tally_as("tly_" + std::string(64, '0'), {"audit"});
  EXPECT_EQ(bad_token.exit_code, kAuth);
  EXPECT_TRUE(contains(bad_token.err, "tally login")) << bad_token.err;
}

// --- login ----------------------------------------------------------------------------------

TEST_F(Cli, LoginChecksTheTokenAndStoresItReadableOnlyByTheUser) {
  std::map<std::string, std::string> fresh = {{"HOME", home()}};
  CliResult wrong = run_cli({"login", "--server", server(), "--token", "tly_nope"}, fresh);
  EXPECT_EQ(wrong.exit_code, kAuth) << wrong.err;
  std::string path = home() + "/.config/tally/config";
  EXPECT_FALSE(fs::exists(path));

  CliResult ok = run_cli({"login", "--server", server(), "-t", "brno"}, fresh,
                         organizer_token() + "\n");  // the token from stdin
  ASSERT_EQ(ok.exit_code, kOk) << ok.err;
  EXPECT_EQ(ok.out, "Logged in to " + server() + " as the organizer.\nTournament: brno\nSaved in " +
                        path + " (readable only by you).\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((home() + "/.config/tally").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(contains(read_text(path), "token = " + organizer_token()));

  // Later commands need neither the server, nor the token, nor -t.
  catan_tournament();
  CliResult show = run_cli({"tournament", "show"}, fresh);
  EXPECT_EQ(show.exit_code, kOk) << show.err;
  EXPECT_TRUE(contains(show.out, "Brno Open (brno): catan")) << show.out;
  EXPECT_EQ(run_cli({"audit"}, fresh).exit_code, kOk);  // the audit needs the stored token

  // XDG_CONFIG_HOME wins over HOME; a judge's login says so.
  std::string eva = new_judge("Eva");
  std::map<std::string, std::string> xdg = {{"HOME", home()}, {"XDG_CONFIG_HOME", dir_.sub("xdg")}};
  CliResult judge = run_cli({"login", "--server", server(), "--token", eva}, xdg);
  ASSERT_EQ(judge.exit_code, kOk) << judge.err;
  EXPECT_TRUE(contains(judge.out, "as a judge")) << judge.out;
  ASSERT_EQ(::stat(dir_.sub("xdg/tally/config").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(contains(read_text(dir_.sub("xdg/tally/config")), "token = " + eva));

  CliResult out = run_cli({"logout"}, xdg);
  EXPECT_EQ(out.exit_code, kOk);
  EXPECT_FALSE(contains(read_text(dir_.sub("xdg/tally/config")), "token ="));
}

TEST_F(Cli, JudgesAreAddedWithATokenShownOnceListedAndRevoked) {
  catan_tournament();
  CliResult added = tally({"judge", "add", "Eva"});
  ASSERT_EQ(added.exit_code, kOk) << added.err;
  EXPECT_TRUE(contains(added.out, "Judge Eva is j1 (event #")) << added.out;
  std::string marker = "for `tally login`): ";
  std::size_t at = added.out.find(marker);
  ASSERT_NE(at, std::string::npos) << added.out;
  std::string token = added.out.substr(at + marker.size());
  token.pop_back();  // the line end
  EXPECT_EQ(token.rfind("tly_", 0), 0u) << token;

  // The token works: Eva enters a result.
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  ASSERT_EQ(tally_as(token, args).exit_code, kOk);

  CliResult list = tally({"judge", "list"});
  ASSERT_EQ(list.exit_code, kOk) << list.err;
  EXPECT_EQ(list.out, "ID  Name  Status\n--  ----  ------\nj1  Eva   active\n");

  CliResult revoked = tally({"judge", "revoke", "j1"});
  ASSERT_EQ(revoked.exit_code, kOk) << revoked.err;
  EXPECT_TRUE(contains(revoked.out, "Judge j1's token no longer works")) << revoked.out;
  EXPECT_EQ(tally({"judge", "revoke", "j1"}).exit_code, kConflict);  // already revoked
  EXPECT_EQ(tally({"judge", "revoke", "j9"}).exit_code, kNotFound);
  EXPECT_EQ(tally_as(token, {"audit"}).exit_code, kAuth);
  EXPECT_TRUE(contains(tally({"judge", "list"}).out, "j1  Eva   revoked\n"));
  EXPECT_EQ(tally_as(token, {"judge", "list"}).exit_code, kAuth);
}

// --- tournaments, players, rounds ---------------------------------------------------------------

TEST_F(Cli, TournamentCreateListShow) {
  CliResult created = tally({"tournament", "create", "brno", "--name", "Brno Open", "--game",
                             "catan", "--locale", "cs", "--rules", "{\"rounds\":3}"});
  ASSERT_EQ(created.exit_code, kOk) << created.err;
  EXPECT_TRUE(
      contains(created.out, "Created tournament brno \"Brno Open\" (catan, locale cs, event #"))
      << created.out;
  EXPECT_TRUE(contains(created.out, "\"rounds\":3")) << created.out;
  ASSERT_EQ(
      tally({"tournament", "create", "cup", "--name", "Carcassonne Cup", "--game", "carcassonne"})
          .exit_code,
      kOk);

  CliResult again = tally({"tournament", "create", "brno", "--name", "x", "--game", "catan"});
  EXPECT_EQ(again.exit_code, kConflict) << again.err;
  CliResult bad_rules = tally(
      {"tournament", "create", "x", "--name", "x", "--game", "catan", "--rules", "{\"colour\":1}"});
  EXPECT_EQ(bad_rules.exit_code, kInvalid);
  EXPECT_TRUE(contains(bad_rules.err, "rules (field colour)")) << bad_rules.err;

  CliResult list = tally({"tournament", "list"});
  ASSERT_EQ(list.exit_code, kOk) << list.err;
  EXPECT_EQ(list.out,
            "ID    Name             Game         Players  Rounds\n"
            "----  ---------------  -----------  -------  ------\n"
            "brno  Brno Open        catan              0       0\n"
            "cup   Carcassonne Cup  carcassonne        0       0\n");

  CliResult show = tally({"tournament", "show", "brno"});
  ASSERT_EQ(show.exit_code, kOk) << show.err;
  EXPECT_TRUE(contains(show.out, "Brno Open (brno): catan, locale cs")) << show.out;
  EXPECT_TRUE(contains(show.out, "Players: 0 (0 active)")) << show.out;
  CliResult json_show = tally({"tournament", "show", "--json"});
  ASSERT_EQ(json_show.exit_code, kOk);
  EXPECT_EQ(json::parse(json_show.out).at("id"), "brno");
}

TEST_F(Cli, PlayersAreAddedDroppedAndImportedFromCsv) {
  ASSERT_EQ(
      tally({"tournament", "create", "brno", "--name", "Brno Open", "--game", "catan"}).exit_code,
      kOk);
  CliResult added = tally({"player", "add", "Anna Horáková", "--id", "a"});
  ASSERT_EQ(added.exit_code, kOk) << added.err;
  EXPECT_TRUE(contains(added.out, "Added Anna Horáková as a (event #")) << added.out;

  // A bad line: nothing of the file is sent, the line is named, exit 2.
  std::string bad = dir_.sub("bad.csv");
  std::ofstream(bad) << "id,name\nb,Boris Novák\nc,Cyril,Černý\nd,\n";
  CliResult refused = tally({"player", "import", bad});
  EXPECT_EQ(refused.exit_code, kInvalid);
  EXPECT_EQ(refused.err,
            "tally: Nothing was imported: the file has problems (HTTP 422)\n"
            "  csv (field csv): line 3: 3 fields, the header has 2\n"
            "  csv (field csv): line 4: the name is empty\n");
  std::string broken = dir_.sub("broken.csv");
  std::ofstream(broken) << "id,name\nb,\"Boris\n";
  CliResult unclosed = tally({"player", "import", broken});
  EXPECT_EQ(unclosed.exit_code, kInvalid);
  EXPECT_TRUE(contains(unclosed.err, "line 2: a quoted field is not closed")) << unclosed.err;
  EXPECT_EQ(daemon_->organizer().get("/v1/tournaments/brno").json().at("players").as_array().size(),
            1u);

  std::string good = dir_.sub("players.csv");
  std::ofstream(good) << "name,id\r\nBoris Novák,b\r\n\"Černý, Cyril\",c\r\nDana Veselá,d\r\n";
  CliResult imported = tally({"player", "import", good});
  ASSERT_EQ(imported.exit_code, kOk) << imported.err;
  EXPECT_EQ(imported.out,
            "Line  ID  Name          Status\n"
            "----  --  ------------  ------\n"
            "2     b   Boris Novák   added\n"
            "3     c   Černý, Cyril  added\n"
            "4     d   Dana Veselá   added\n"
            "Imported 3 players.\n");
  // Running it again (after an interruption, say) registers nobody twice.
  CliResult rerun = tally({"player", "import", good});
  ASSERT_EQ(rerun.exit_code, kOk) << rerun.err;
  EXPECT_TRUE(contains(rerun.out, "Imported 0 players; 3 were already registered.")) << rerun.out;

  // An updated file, without ids, in a spreadsheet's semicolons: the same names are the same
  // people, a name spelt without its accents waits for the organizer, a new name is added.
  std::string updated = dir_.sub("updated.csv");
  std::ofstream(updated) << "name;club\nBoris Novák;x\n";
  EXPECT_EQ(tally({"player", "import", updated}).exit_code, kInvalid);  // unknown column "club"
  std::ofstream(updated) << "name\nBoris Novák\nDana Vesela\nEma Malá\n";
  CliResult dry = tally({"player", "import", updated, "--dry-run"});
  ASSERT_EQ(dry.exit_code, kOk) << dry.err;
  EXPECT_EQ(dry.out,
            "Line  ID  Name         Status\n"
            "----  --  -----------  ---------------------------------------\n"
            "2     b   Boris Novák  already registered\n"
            "3     p5  Dana Vesela  not added: same name as Dana Veselá (d)\n"
            "4     p6  Ema Malá     added\n"
            "Nothing was written. The import would add 1, rename 0, leave 1 as they are, and "
            "not add 1 whose name is already registered.\n");
  EXPECT_EQ(daemon_->organizer().get("/v1/tournaments/brno").json().at("players").as_array().size(),
            4u);
  CliResult update = tally({"player", "import", updated});
  ASSERT_EQ(update.exit_code, kOk) << update.err;
  EXPECT_TRUE(contains(update.out,
                       "Imported 1 player; 1 was already registered; 1 not added: the name is "
                       "already registered (if it is another person, run again with "
                       "--add-possible-duplicates)."))
      << update.out;
  auto players = daemon_->organizer().get("/v1/tournaments/brno").json().at("players").as_array();
  ASSERT_EQ(players.size(), 5u);
  EXPECT_EQ(players[4].at("name"), "Ema Malá");

  CliResult dropped = tally({"player", "drop", "d", "--reason", "went home"});
  ASSERT_EQ(dropped.exit_code, kOk) << dropped.err;
  EXPECT_EQ(tally({"player", "drop", "d"}).exit_code, kUsage);  // no reason
  CliResult show = tally({"tournament", "show"});
  EXPECT_TRUE(contains(show.out, "Players: 5 (4 active)")) << show.out;
  EXPECT_TRUE(contains(show.out, "d   Dana Veselá    dropped")) << show.out;
}

TEST_F(Cli, SeriesExportImportAndStandings) {
  catan_tournament();
  auto org = daemon_->organizer();
  json::array rows{catan_row("a", 2, 4), catan_row("b", 2, 3), catan_row("c", 2, 2),
                   catan_row("d", 2, 1)};
  ASSERT_EQ(org.put("/v1/tournaments/brno/rounds/1/tables/1/result",
                    json::object{{"players", rows}}, {{"If-None-Match", "*"}})
                .status,
            201);
  ASSERT_EQ(org.post("/v1/tournaments/brno/rounds/1/close", json::object{{"final", true}}).status,
            201);
  ASSERT_EQ(org.post("/v1/series", json::object{{"id", "ctt"},
                                                {"name", "Tour"},
                                                {"game", "catan"},
                                                {"scoring", json::object{{"kind", "qualification"},
                                                                         {"min_players", 4}}}})
                .status,
            201);

  const std::string file = dir_.sub("brno.jsonl");
  auto exported = tally({"series", "export", file});
  ASSERT_EQ(exported.exit_code, kOk) << exported.err;
  EXPECT_TRUE(contains(read_text(file), "\"format\":\"tallyd-tournament-export\""));

  auto imported = tally({"series", "import", "ctt", file});
  ASSERT_EQ(imported.exit_code, kOk) << imported.err;
  EXPECT_TRUE(contains(imported.out, "imported brno from")) << imported.out;
  EXPECT_TRUE(contains(imported.out, "size 4")) << imported.out;
  auto again = tally({"series", "import", "ctt", file});
  EXPECT_TRUE(contains(again.out, "was imported already")) << again.out;

  // One byte changed: refused whole, naming the line.
  std::string text = read_text(file);
  text[text.find("\"bytes\":\"") + 20] ^= 1;
  const std::string bad = dir_.sub("bad.jsonl");
  std::ofstream(bad, std::ios::binary) << text;
  auto refused = tally({"series", "import", "ctt", bad});
  EXPECT_NE(refused.exit_code, kOk);
  EXPECT_TRUE(contains(refused.err, "line 2")) << refused.err;

  auto standings = tally({"series", "standings", "ctt"});
  ASSERT_EQ(standings.exit_code, kOk) << standings.err;
  // 4 players by Q-2 with min_players 4: the first bracket (from 12) is not reached: nobody.
  EXPECT_TRUE(contains(standings.out, "Anna Horáková")) << standings.out;
  EXPECT_TRUE(contains(standings.out, "2 more points needed")) << standings.out;
}

TEST_F(Cli, RoundSeatManualAndRandom) {
  catan_tournament(false);
  CliResult seated = tally({"round", "seat", "--table", "a,b,c,d"});
  ASSERT_EQ(seated.exit_code, kOk) << seated.err;
  EXPECT_TRUE(contains(seated.out, "Round 1 (manual): 0 of 1 tables reported; event #"))
      << seated.out;
  EXPECT_TRUE(contains(seated.out,
                       "Table 1: open\n  Anna Horáková (a)\n  Boris Novák (b)\n  Cyril Černý (c)\n"
                       "  Dana Veselá (d)\n"))
      << seated.out;

  // Round 2 waits for round 1's result, unless forced with a reason.
  CliResult early = tally({"round", "seat", "--method", "random", "--seed", "7"});
  EXPECT_EQ(early.exit_code, kConflict);
  EXPECT_TRUE(contains(early.err, "round.unreported")) << early.err;
  EXPECT_EQ(tally({"round", "seat", "--force"}).exit_code, kUsage);  // --force needs --reason
  CliResult forced = tally({"round", "seat", "--method", "random", "--seed", "7", "--force",
                            "--reason", "table 1 plays on"});
  ASSERT_EQ(forced.exit_code, kOk) << forced.err;
  EXPECT_TRUE(
      contains(forced.out, "Round 2 (random, seed 7): 0 of 1 tables reported; seated by force"))
      << forced.out;
  CliResult shown = tally({"round", "show", "2", "--json"});
  ASSERT_EQ(shown.exit_code, kOk);
  EXPECT_EQ(json::parse(shown.out).at("seed"), 7);
}

// --- results -------------------------------------------------------------------------------------

TEST_F(Cli, ResultEnteredByFlagsShowsPlacesAndSharedPoints) {
  catan_tournament();
  std::uint64_t seq = head_seq() + 1;
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  CliResult r = tally(args);
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_EQ(r.out, "Round 1, table 1: result entered (version 1, event #" + std::to_string(seq) +
                       ").\n" + kResultTable);
  EXPECT_EQ(table_now().at("status"), "reported");
}

TEST_F(Cli, ResultEnteredFromAJsonFile) {
  catan_tournament();
  std::string file = dir_.sub("result.json");
  std::ofstream(file) << json::serialize(result_body());
  CliResult r = tally({"result", "enter", "1", "1", "--file", file});
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_TRUE(contains(r.out, kResultTable)) << r.out;

  // The same table again, from stdin as a bare list of players: refused, it is entered.
  CliResult again = tally({"result", "enter", "1", "1", "--file", "-"},
                          json::serialize(result_body().at("players")));
  EXPECT_EQ(again.exit_code, kConflict) << again.err;
}

TEST_F(Cli, ResultEnteredByPromptsPerPlayer) {
  catan_tournament();
  // The questions are the server's description of a Catan result, in its order. Per player:
  // settlements, cities, VP cards, knights, roads, longest road, claimed the win (Enter: no), VP
  // on the score sheet (Enter skips); then who holds Largest Army and Longest Road; then "Send?".
  std::string answers =
      "2\n3\n0\n3\n6\n4\n\n\n"
      "3\n1\n1\n1\n7\n5\n\n8\n"
      "7\n3\n1\n0\n0\n5\n3\n\n\n"     // 7 settlements is out of the described range: asked again
      "five\n5\n0\n0\n2\n4\n2\n\n\n"  // "five" is asked again
      "a\nb\n";

  // A judge who answers no at the end sends nothing; the server's check recorded nothing either.
  std::uint64_t before = head_seq();
  CliResult declined = tally({"result", "enter", "1", "1"}, answers + "n\n");
  EXPECT_EQ(declined.exit_code, kUsage);
  EXPECT_TRUE(contains(declined.err, "tally: nothing was sent\n")) << declined.err;
  EXPECT_EQ(table_now().at("status"), "open");
  EXPECT_EQ(head_seq(), before);

  CliResult r = tally({"result", "enter", "1", "1"}, answers + "y\n");
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_TRUE(contains(r.out, kResultTable)) << r.out;
  // The hint is the range the server describes.
  json::object settlements = result_field("catan", "settlements");
  std::string hint =
      json::serialize(settlements.at("min")) + "–" + json::serialize(settlements.at("max"));
  EXPECT_EQ(hint, "0–5");
  EXPECT_TRUE(contains(r.err, "Dana Veselá (d)\n  settlements (" + hint + "): ")) << r.err;
  EXPECT_TRUE(contains(r.err, "  settlements (0–5): \n  0–5, please\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "  VP cards (0–5): ")) << r.err;
  EXPECT_TRUE(contains(r.err, "  knights (0 or more): ")) << r.err;
  EXPECT_TRUE(contains(r.err, "  claimed the win? [y/N]: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "  VP on the score sheet (0 or more) (Enter to skip): ")) << r.err;
  EXPECT_TRUE(contains(r.err, "\"five\" is not a whole number")) << r.err;
  EXPECT_TRUE(contains(r.err, "Who holds Largest Army? (a/b/c/d/none) [none]: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "Who holds Longest Road? (a/b/c/d/none) [none]: ")) << r.err;
  EXPECT_FALSE(contains(r.err, "Who holds claimed")) << r.err;  // not a one-holder title
  // The entry, then what the server computes from it (POST …/result/check), then the question.
  EXPECT_TRUE(
      contains(r.err,
               "About to send:\n"
               "  Anna Horáková (a): settlements 2, cities 3, vp_cards 0, knights 3, roads 6, "
               "longest_road 4, largest_army\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "The server computes (as of event #" + std::to_string(before) +
                                  "):\n" + kResultTable + "Send this result? [Y/n]: "))
      << r.err;

  // A table already entered is said before any question is asked.
  CliResult again = tally({"result", "enter", "1", "1"}, "");
  EXPECT_EQ(again.exit_code, kConflict);
  EXPECT_TRUE(contains(again.err, "round 1, table 1: already entered by Organizer at"))
      << again.err;

  // A correction by prompts: the check carries the reason, and shows the new places.
  std::string fixed =
      "2\n3\n0\n3\n6\n4\n\n\n"
      "3\n1\n1\n1\n7\n5\n\n8\n"
      "4\n1\n0\n0\n5\n3\n\n\n"
      "5\n0\n0\n2\n4\n2\n\n\n"
      "a\nb\ny\n";
  CliResult corrected = tally({"correct", "1", "1", "--reason", "c had 4 settlements"}, fixed);
  ASSERT_EQ(corrected.exit_code, kOk) << corrected.err;
  EXPECT_TRUE(contains(corrected.err, "The server computes (as of event #")) << corrected.err;
  std::string shown = corrected.err.substr(corrected.err.find("The server computes"));
  EXPECT_TRUE(contains(shown, "  3      Cyril Černý    c    6       2.00\n")) << shown;
  EXPECT_TRUE(contains(corrected.out, "result replaced (version 2")) << corrected.out;
}

TEST_F(Cli, AnEntryTheCheckRefusesIsShownByRuleAndFieldAndCanBeChanged) {
  catan_tournament();
  // a holds Largest Army with 1 knight: the server's check refuses it (C-7).
  std::string answers =
      "2\n3\n0\n1\n6\n4\n\n\n"
      "3\n1\n1\n1\n7\n5\n\n8\n"
      "3\n1\n0\n0\n5\n3\n\n\n"
      "5\n0\n0\n2\n4\n2\n\n\n"
      "a\nb\n";
  std::uint64_t before = head_seq();
  CliResult given_up = tally({"result", "enter", "1", "1"}, answers + "n\n");
  EXPECT_EQ(given_up.exit_code, kInvalid) << given_up.err;
  EXPECT_TRUE(contains(given_up.err,
                       "The server would refuse it: the result breaks the rules\n"
                       "  C-7 (player a, field largest_army): "))
      << given_up.err;
  EXPECT_TRUE(contains(given_up.err, "Change the entry (your answers are the defaults)? [Y/n]: "))
      << given_up.err;
  EXPECT_FALSE(contains(given_up.err, "Send this result?")) << given_up.err;
  EXPECT_TRUE(contains(given_up.err, "tally: nothing was sent\n")) << given_up.err;
  EXPECT_EQ(head_seq(), before);
  EXPECT_EQ(table_now().at("status"), "open");

  // Changed: the earlier answers are the defaults, only a's knights are typed again.
  std::string enter = "\n";
  std::string change = "y\n" + enter + enter + enter + "3\n" + std::string(4, '\n') +
                       std::string(3 * 8, '\n') + enter + enter;
  CliResult fixed = tally({"result", "enter", "1", "1"}, answers + change + "y\n");
  ASSERT_EQ(fixed.exit_code, kOk) << fixed.err;
  EXPECT_TRUE(contains(fixed.err, "  knights (0 or more) [1]: ")) << fixed.err;
  EXPECT_TRUE(contains(fixed.err, "Who holds Largest Army? (a/b/c/d/none) [a]: ")) << fixed.err;
  EXPECT_TRUE(contains(fixed.err, "The server computes (as of event #" + std::to_string(before) +
                                      "):\n" + kResultTable))
      << fixed.err;
  EXPECT_TRUE(contains(fixed.out, kResultTable)) << fixed.out;
}

TEST_F(Cli, CheckShowsWhatTheServerWouldComputeAndSendsNothing) {
  catan_tournament();
  std::uint64_t before = head_seq();
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  args.push_back("--check");
  CliResult checked = tally(args);
  ASSERT_EQ(checked.exit_code, kOk) << checked.err;
  EXPECT_EQ(checked.out, "Round 1, table 1: nothing sent.\nThe server computes (as of event #" +
                             std::to_string(before) + "):\n" + kResultTable);
  EXPECT_EQ(head_seq(), before);
  EXPECT_EQ(table_now().at("status"), "open");

  args.push_back("--json");
  CliResult as_json = tally(args);
  ASSERT_EQ(as_json.exit_code, kOk) << as_json.err;
  json::value answer = json::parse(as_json.out);
  EXPECT_EQ(answer.at("ok"), true);
  EXPECT_EQ(answer.at("result").at("players").at(2).at("points").at("exact"), "3/2");

  args.pop_back();
  args[5] = "a:settlements=2,cities=3,vp_cards=0,knights=1,roads=6,longest_road=4,largest_army";
  CliResult refused = tally(args);
  EXPECT_EQ(refused.exit_code, kInvalid);
  EXPECT_EQ(refused.out, "Round 1, table 1: nothing sent.\n");
  EXPECT_TRUE(contains(refused.err, "  C-7 (player a, field largest_army): ")) << refused.err;
  EXPECT_EQ(head_seq(), before);
}

TEST_F(Cli, AValidationErrorNamesRulePlayerAndField) {
  catan_tournament();
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  args[5] =
      "a:settlements=2,cities=3,vp_cards=0,knights=1,roads=6,longest_road=4,largest_army,vp=9";
  CliResult r = tally(args);
  EXPECT_EQ(r.exit_code, kInvalid);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "tally: the result breaks the rules (HTTP 422)\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "  C-7 (player a, field largest_army): ")) << r.err;
  EXPECT_TRUE(contains(r.err, "  C-10 (player a, field vp): ")) << r.err;
  EXPECT_EQ(table_now().at("status"), "open");

  // A field the game does not have is caught before anything is sent.
  args[5] = "a:castles=3";
  CliResult unknown = tally(args);
  EXPECT_EQ(unknown.exit_code, kUsage);
  EXPECT_TRUE(contains(unknown.err, "catan has no field \"castles\"")) << unknown.err;
  std::string fields;
  json::object catan = game_description("catan");
  for (const auto& f : catan.at("actions").at("result").at("fields").as_array()) {
    fields += (fields.empty() ? "" : ", ") + std::string(f.at("name").as_string());
  }
  EXPECT_TRUE(contains(unknown.err, "(fields: " + fields + ")\n")) << unknown.err;
  EXPECT_TRUE(contains(fields, "largest_army, longest_road_holder")) << fields;
}

TEST_F(Cli, ASecondEntryIsRefusedSayingWhoEnteredTheTableAndWhen) {
  catan_tournament();
  std::string eva = new_judge("Eva");
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  ASSERT_EQ(tally_as(eva, args).exit_code, kOk);

  std::string at = std::string(table_now().at("entered_at").as_string());  // TZ=UTC in the CLI
  CliResult second = tally(args);
  EXPECT_EQ(second.exit_code, kConflict);
  EXPECT_EQ(second.out, "");
  std::string headline =
      "tally: round 1, table 1: already entered by Eva at " + at.substr(11, 5) + "\n";
  EXPECT_EQ(second.err.substr(0, headline.size()), headline) << second.err;
  EXPECT_TRUE(contains(second.err, kResultTable)) << second.err;  // the entry in effect
  EXPECT_TRUE(contains(second.err, "tally correct 1 1 --version 1 --reason TEXT")) << second.err;
}

TEST_F(Cli, CorrectVoidAndTheAuditShowsTheChain) {
  catan_tournament();
  std::string eva = new_judge("Eva");
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  ASSERT_EQ(tally_as(eva, args).exit_code, kOk);
  std::uint64_t entered = head_seq();

  // c had 4 settlements, not 3: c alone is third now.
  std::vector<std::string> fix = {"correct", "1", "1"};
  fix.insert(fix.end(), kResultFlags.begin(), kResultFlags.end());
  fix[8] = "c:settlements=4,cities=1,vp_cards=0,knights=0,roads=5,longest_road=3";
  CliResult no_reason = tally(fix);
  EXPECT_EQ(no_reason.exit_code, kUsage);
  EXPECT_TRUE(contains(no_reason.err, "a correction needs --reason")) << no_reason.err;
  fix.insert(fix.end(), {"--reason", "c had 4 settlements"});
  CliResult corrected = tally(fix);
  ASSERT_EQ(corrected.exit_code, kOk) << corrected.err;
  EXPECT_TRUE(contains(corrected.out, "result replaced (version 2")) << corrected.out;
  EXPECT_TRUE(contains(corrected.out, "  3      Cyril Černý    c    6       2.00\n"))
      << corrected.out;
  std::uint64_t correction = head_seq();

  // A stale version is a conflict that shows the table as it is now.
  std::vector<std::string> stale = fix;
  stale.insert(stale.end(), {"--version", "1"});
  CliResult late = tally_as(eva, stale);
  EXPECT_EQ(late.exit_code, kConflict);
  EXPECT_TRUE(contains(late.err, "the table is at version 2, not 1")) << late.err;

  // A claim, voided with a reason.
  CliResult claim = tally_as(eva, {"claim", "1", "1", "a"});
  ASSERT_EQ(claim.exit_code, kOk) << claim.err;
  std::uint64_t claim_seq = head_seq();
  EXPECT_EQ(claim.out,
            "Round 1, table 1: the claimed win of Anna Horáková (a) is recorded (event #" +
                std::to_string(claim_seq) + ", version 3).\n");
  // The round sheet marks the claim under the table's result.
  CliResult sheet = tally({"round", "show", "1"});
  ASSERT_EQ(sheet.exit_code, kOk) << sheet.err;
  EXPECT_TRUE(contains(sheet.out, "Anna Horáková (a) claimed the win\n")) << sheet.out;
  EXPECT_EQ(tally({"void", std::to_string(claim_seq)}).exit_code, kUsage);  // no reason
  CliResult voided = tally({"void", std::to_string(claim_seq), "--reason", "entered by mistake"});
  ASSERT_EQ(voided.exit_code, kOk) << voided.err;
  EXPECT_EQ(voided.out, "Event #" + std::to_string(claim_seq) + " is voided (event #" +
                            std::to_string(claim_seq + 1) + ").\n");

  CliResult audit = tally({"audit", "--round", "1", "--table", "1"});
  ASSERT_EQ(audit.exit_code, kOk) << audit.err;
  auto s = [](std::uint64_t n) { return std::to_string(n); };
  std::string eva_id =
      std::string(daemon_->organizer().get("/v1/judges").json().at(0).at("id").as_string());
  EXPECT_TRUE(contains(audit.out, "    corrected the result (replaces #" + s(entered) + ")\n"))
      << audit.out;
  EXPECT_TRUE(contains(audit.out, "    why: c had 4 settlements\n")) << audit.out;
  EXPECT_TRUE(contains(audit.out, "    superseded by #" + s(correction) + "\n")) << audit.out;
  EXPECT_TRUE(contains(audit.out, "    voided by #" + s(claim_seq + 1) + "\n")) << audit.out;
  EXPECT_TRUE(contains(audit.out,
                       "Correction chains:\n"
                       "  round 1, table 1: result #" +
                           s(entered) + " by Eva (" + eva_id + ") → corrected by organizer in #" +
                           s(correction) + " (\"c had 4 settlements\"); in effect: #" +
                           s(correction) +
                           "\n"
                           "  round 1, table 1: claim #" +
                           s(claim_seq) + " by Eva (" + eva_id + ") → voided by organizer in #" +
                           s(claim_seq + 1) + " (\"entered by mistake\"); nothing in effect\n"))
      << audit.out;
  // The audit needs a token.
  CliResult anonymous = run_cli({"audit"}, env(""));
  EXPECT_EQ(anonymous.exit_code, kAuth) << anonymous.err;
}

TEST_F(Cli, TheAuditShowsASelfReportedResultFromProposalToApproval) {
  catan_tournament();
  auto org = daemon_->organizer();
  ASSERT_EQ(org.request(boost::beast::http::verb::patch, "/v1/tournaments/brno",
                        R"({"self_reporting":true})")
                .status,
            200);
  std::string table = "/v1/tournaments/brno/rounds/1/tables/1";
  auto key = org.get(table + "/key");
  ASSERT_EQ(key.status, 200) << key.body;
  HttpClient phone = daemon_->client(std::string(key.json().at("token").as_string()));
  json::array players;
  for (auto [id, cities] :
       std::vector<std::pair<const char*, int>>{{"a", 4}, {"b", 1}, {"c", 1}, {"d", 0}}) {
    players.push_back(catan_row(id, 2, cities));
  }
  auto proposed = phone.post(table + "/proposals", json::object{{"players", players}});
  ASSERT_EQ(proposed.status, 201) << proposed.body;
  std::string id = std::to_string(proposed.json().at("seq").to_number<std::uint64_t>());
  ASSERT_EQ(
      phone.post(table + "/proposals/" + id + "/flag", json::object{{"note", "Dana had a city"}})
          .status,
      201);
  std::string eva = new_judge("Eva");
  ASSERT_EQ(
      daemon_->client(eva)
          .post(table + "/proposals/" + id + "/approve", json::object{}, {{"If-None-Match", "*"}})
          .status,
      201);

  CliResult audit = tally({"audit", "--round", "1", "--table", "1"});
  ASSERT_EQ(audit.exit_code, kOk) << audit.err;
  EXPECT_TRUE(contains(audit.out,
                       "the table (its QR code)  round 1, table 1\n"
                       "    result proposed (waiting for a judge):\n"))
      << audit.out;
  EXPECT_TRUE(contains(audit.out, "    flagged proposal #" + id +
                                      " as wrong\n"
                                      "    why: Dana had a city\n"))
      << audit.out;
  EXPECT_TRUE(
      contains(audit.out, "    approved proposal #" + id + ": it is the table's result above\n"))
      << audit.out;
  EXPECT_TRUE(contains(audit.out, "Anna Horáková")) << audit.out;
}

TEST_F(Cli, CarcassonneScoringsThenTheFinalScoreOfferedFromTheirTotals) {
  auto org = daemon_->organizer();
  ASSERT_EQ(org.post("/v1/tournaments",
                     json::object{{"id", "brno"}, {"name", "Brno Cup"}, {"game", "carcassonne"}})
                .status,
            201);
  for (const char* id : {"p1", "p2"}) {
    ASSERT_EQ(org.post("/v1/tournaments/brno/players",
                       json::object{{"id", id}, {"name", std::string("Player ") + id}})
                  .status,
              201);
  }
  ASSERT_EQ(org.post("/v1/tournaments/brno/rounds",
                     json::object{{"method", "manual"}, {"tables", json::array{{"p1", "p2"}}}})
                .status,
            201);

  // A road of three tiles completed during play: 1 point a tile.
  CliResult road = tally(
      {"score", "1", "1", "--feature", "road", "--complete", "--tiles", "3", "--figure", "p1"});
  ASSERT_EQ(road.exit_code, kOk) << road.err;
  EXPECT_TRUE(contains(road.out, "Round 1, table 1: scoring recorded (event #")) << road.out;
  EXPECT_TRUE(contains(road.out, "Points: Player p1 (p1) 3")) << road.out;
  CliResult half = tally({"score", "1", "1", "--feature", "road", "--tiles", "3"});
  EXPECT_EQ(half.exit_code, kUsage);  // neither --complete nor --final
  EXPECT_TRUE(contains(half.err, "--complete (during play) or --final")) << half.err;

  // The final score: p1's prompt offers the scorings' total (Enter takes it).
  CliResult final_score = tally({"result", "enter", "1", "1", "--yes"}, "\n0\n");
  ASSERT_EQ(final_score.exit_code, kOk) << final_score.err;
  EXPECT_TRUE(contains(final_score.err, "  final score [3]: ")) << final_score.err;
  EXPECT_TRUE(contains(final_score.out, "Round 1, table 1: result entered")) << final_score.out;

  // The calculator stores nothing: a city of 5 tiles and 2 pennants during play is 14.
  std::uint64_t before = head_seq();
  CliResult calc = run_cli({"score", "calc", "--feature", "city", "--complete", "--tiles", "5",
                            "--pennants", "2", "--figure", "red"},
                           env(""));
  ASSERT_EQ(calc.exit_code, kOk) << calc.err;
  EXPECT_TRUE(contains(calc.out, "Points: red 14\n")) << calc.out;
  EXPECT_EQ(head_seq(), before);
}

TEST_F(Cli, AGoTPicksARefusedPickNamesTheHousesAcceptedAndAutoAssignsTheRest) {
  auto org = daemon_->organizer();
  ASSERT_EQ(org.post("/v1/tournaments",
                     json::object{{"id", "brno"}, {"name", "Brno Thrones"}, {"game", "agot"}})
                .status,
            201);
  for (int i = 1; i <= 6; ++i) {
    std::string id = "p" + std::to_string(i);
    ASSERT_EQ(org.post("/v1/tournaments/brno/players",
                       json::object{{"id", id}, {"name", "Lord " + std::to_string(i)}})
                  .status,
              201);
  }
  auto seated = org.post("/v1/tournaments/brno/rounds",
                         json::object{{"method", "random"}, {"seed", 1}});  // one table of six
  ASSERT_EQ(seated.status, 201) << seated.body;

  CliResult stark = tally({"pick", "1", "1", "p1", "Stark"});
  ASSERT_EQ(stark.exit_code, kOk) << stark.err;
  EXPECT_TRUE(contains(stark.out, "Round 1, table 1: Lord 1 (p1) plays stark (event #"))
      << stark.out;
  EXPECT_TRUE(contains(stark.out, "  Lord 1 (p1): stark\n")) << stark.out;

  CliResult taken = tally({"pick", "1", "1", "p2", "stark"});
  EXPECT_EQ(taken.exit_code, kInvalid);
  EXPECT_TRUE(contains(taken.err, "(player p2, field house)")) << taken.err;
  EXPECT_TRUE(contains(taken.err, "[accepted: lannister, baratheon, greyjoy, tyrell, martell]"))
      << taken.err;

  // The houses are the server's (its description of the game's picks), not the CLI's.
  CliResult unknown = tally({"pick", "1", "1", "p2", "dragons"});
  EXPECT_EQ(unknown.exit_code, kUsage);
  json::value houses_described;
  json::object agot = game_description("agot");
  for (const auto& f : agot.at("actions").at("picks").at("fields").as_array()) {
    if (f.at("name") == "house") houses_described = f.at("choices");
  }
  EXPECT_TRUE(contains(
      unknown.err, "HOUSE must be one of " + joined(houses_described, ", ") + ", not \"dragons\""))
      << unknown.err;

  CliResult rest = tally({"pick", "auto", "1", "1", "--json"});
  ASSERT_EQ(rest.exit_code, kOk) << rest.err;
  json::value houses = table_now().at("houses");
  EXPECT_EQ(houses.as_object().size(), 6u) << houses;
  EXPECT_EQ(houses.at("p1"), "stark");
}

TEST_F(Cli, AGoTPromptsOfferTheServersHousesAndNeverAskTheWinner) {
  auto org = daemon_->organizer();
  ASSERT_EQ(org.post("/v1/tournaments",
                     json::object{{"id", "brno"}, {"name", "Brno Thrones"}, {"game", "agot"}})
                .status,
            201);
  for (int i = 1; i <= 6; ++i) {
    std::string id = "p" + std::to_string(i);
    ASSERT_EQ(org.post("/v1/tournaments/brno/players",
                       json::object{{"id", id}, {"name", "Lord " + std::to_string(i)}})
                  .status,
              201);
  }
  ASSERT_EQ(org.post("/v1/tournaments/brno/rounds", json::object{{"method", "random"}, {"seed", 1}})
                .status,
            201);
  ASSERT_EQ(tally({"pick", "1", "1", "p1", "stark"}).exit_code, kOk);

  json::object house = result_field("agot", "house");
  json::object place = result_field("agot", "place");
  json::object captured = result_field("agot", "capitals_captured");
  EXPECT_EQ(captured.at("excludes_own"), "house");
  EXPECT_TRUE(result_field("agot", "winner").contains("derived"));
  std::vector<std::string> houses;
  for (const auto& h : house.at("choices").as_array()) houses.emplace_back(h.as_string());
  ASSERT_EQ(houses.size(), 6u);

  // Per seated player: house (p1 takes the one picked: Enter), place, castles, capitals captured
  // (the winner takes the second player's), capitals held, lands captured.
  std::vector<std::string> seated;
  json::object table = table_now();
  for (const auto& p : table.at("players").as_array()) seated.emplace_back(p.as_string());
  ASSERT_EQ(seated.size(), 6u);
  std::vector<std::string> free_houses;
  for (const auto& h : houses) {
    if (h != "stark") free_houses.push_back(h);
  }
  std::vector<std::string> house_of;
  for (const auto& id : seated) {
    if (id == "p1") {
      house_of.push_back("stark");
    } else {
      house_of.push_back(free_houses.front());
      free_houses.erase(free_houses.begin());
    }
  }
  const int castles[] = {7, 5, 4, 3, 2, 1};
  std::string answers;
  for (std::size_t i = 0; i < seated.size(); ++i) {
    answers += (seated[i] == "p1" ? "" : house_of[i]) + "\n";
    answers += std::to_string(i + 1) + "\n" + std::to_string(castles[i]) + "\n";
    answers += (i == 0 ? house_of[1] : "") + "\n";
    answers += "1\n" + std::string(i == 0 ? "2" : "0") + "\n";
  }
  CliResult r = tally({"result", "enter", "1", "1"}, answers + "y\n");
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_TRUE(contains(r.out, "Round 1, table 1: result entered")) << r.out;

  // The houses offered are the server's; p1 is offered the house picked.
  EXPECT_TRUE(contains(r.err, "Lord 1 (p1)\n  " + std::string(house.at("text").as_string()) + " (" +
                                  joined(house.at("choices"), "/") + ") [stark]: "))
      << r.err;
  // The range hint is the described one.
  std::string place_hint =
      json::serialize(place.at("min")) + "–" + json::serialize(place.at("max"));
  EXPECT_TRUE(contains(r.err, "  place (" + place_hint + "): ")) << r.err;
  // A player's own house is not offered as a capital captured.
  EXPECT_TRUE(contains(r.err, "  capitals captured (among " +
                                  joined(captured.at("choices"), ", ", "stark") +
                                  "; joined with +, Enter for none): "))
      << r.err;
  // The winner is derived from place 1, never asked.
  EXPECT_FALSE(contains(r.err, "  winner")) << r.err;
  EXPECT_TRUE(contains(
      r.err, "capitals_captured " + house_of[1] + ", capitals_held 1, lands_captured 2, winner\n"))
      << r.err;
  // What the server says of the entry comes before the question.
  std::size_t said = r.err.find("The server ");
  ASSERT_NE(said, std::string::npos) << r.err;
  EXPECT_LT(said, r.err.find("Send this result?")) << r.err;
}

TEST_F(Cli, GamesShowsTheServersDescription) {
  CliResult all = run_cli({"games", "--json"}, env(""));  // public
  ASSERT_EQ(all.exit_code, kOk) << all.err;
  EXPECT_EQ(json::parse(all.out), daemon_->organizer().get("/v1/games").json());

  CliResult agot = run_cli({"games", "agot"}, env(""));
  ASSERT_EQ(agot.exit_code, kOk) << agot.err;
  EXPECT_EQ(agot.out.rfind("agot\n  result (per player):\n", 0), 0u) << agot.out;
  EXPECT_TRUE(contains(agot.out, "derived: place = 1")) << agot.out;
  EXPECT_TRUE(contains(agot.out, "not the player's own house")) << agot.out;
  EXPECT_TRUE(contains(agot.out, joined(result_field("agot", "house").at("choices"), "|")))
      << agot.out;
  EXPECT_TRUE(contains(agot.out, "  picks:\n")) << agot.out;
  EXPECT_TRUE(contains(agot.out, "  rules (defaults):\n")) << agot.out;

  CliResult nope = run_cli({"games", "chess"}, env(""));
  EXPECT_EQ(nope.exit_code, kNotFound);
  EXPECT_TRUE(contains(nope.err, "the server has no game \"chess\" (games: catan")) << nope.err;
}

// --- standings ----------------------------------------------------------------------------------

TEST_F(Cli, StandingsAsATableAsJsonAndAsCsv) {
  catan_tournament();
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  ASSERT_EQ(tally(args).exit_code, kOk);
  std::uint64_t seq = head_seq();

  // VP shares: 10/28, 8/28, 5/28; c and d equal on every criterion share place 3, c listed
  // first by name (cs collation).
  CliResult table = tally({"standings"});
  ASSERT_EQ(table.exit_code, kOk) << table.err;
  EXPECT_EQ(table.out, "Brno Open: standings after event #" + std::to_string(seq) +
                           "\n"
                           "#  Name           ID  Games  Round pts  VP  VP share\n"
                           "-  -------------  --  -----  ---------  --  --------\n"
                           "1  Anna Horáková  a       1       5.00  10    35.71%\n"
                           "2  Boris Novák    b       1       3.00   8    28.57%\n"
                           "3  Cyril Černý    c       1       1.50   5    17.86%\n"
                           "3  Dana Veselá    d       1       1.50   5    17.86%\n");

  CliResult csv = tally({"standings", "--csv"});
  ASSERT_EQ(csv.exit_code, kOk) << csv.err;
  EXPECT_EQ(csv.out,
            "rank,player,name,games,round_points,vp,vp_share_percent,dropped\n"
            "1,a,Anna Horáková,1,5.00,10,35.71,false\n"
            "2,b,Boris Novák,1,3.00,8,28.57,false\n"
            "3,c,Cyril Černý,1,1.50,5,17.86,false\n"
            "3,d,Dana Veselá,1,1.50,5,17.86,false\n");

  CliResult js = tally({"standings", "--json"});
  ASSERT_EQ(js.exit_code, kOk) << js.err;
  json::value standings = json::parse(js.out);
  const auto& rows = standings.at("rows").as_array();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2].at("player"), "c");
  EXPECT_EQ(rows[2].at("round_points").at("exact"), "3/2");
  EXPECT_EQ(rows[0].at("vp_share").at("exact"), "5/14");

  // As they were before the result: everyone at zero, all sharing place 1, in name order.
  CliResult before = tally({"standings", "--as-of", std::to_string(seq - 1), "--csv"});
  ASSERT_EQ(before.exit_code, kOk) << before.err;
  EXPECT_EQ(before.out,
            "rank,player,name,games,round_points,vp,vp_share_percent,dropped\n"
            "1,a,Anna Horáková,0,0.00,0,0.00,false\n"
            "1,b,Boris Novák,0,0.00,0,0.00,false\n"
            "1,c,Cyril Černý,0,0.00,0,0.00,false\n"
            "1,d,Dana Veselá,0,0.00,0,0.00,false\n");
  EXPECT_EQ(tally({"standings", "--json", "--csv"}).exit_code, kUsage);
}

// --- languages ---------------------------------------------------------------------------------

// The standings of the Catan table above (kResultFlags), as the English table shows them.
const char* kEnglishStandings =
    "#  Name           ID  Games  Round pts  VP  VP share\n"
    "-  -------------  --  -----  ---------  --  --------\n"
    "1  Anna Horáková  a       1       5.00  10    35.71%\n"
    "2  Boris Novák    b       1       3.00   8    28.57%\n"
    "3  Cyril Černý    c       1       1.50   5    17.86%\n"
    "3  Dana Veselá    d       1       1.50   5    17.86%\n";

TEST_F(Cli, StandingsSpeakTheUsersLanguageAndTheCsvAndJsonNever) {
  catan_tournament();
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  ASSERT_EQ(tally(args).exit_code, kOk);
  std::string seq = std::to_string(head_seq());

  // --lang cs: Czech headings, decimal commas, "35,71 %".
  CliResult czech = tally({"standings", "--lang", "cs"});
  ASSERT_EQ(czech.exit_code, kOk) << czech.err;
  EXPECT_EQ(czech.out, "Brno Open: celkové pořadí po události #" + seq +
                           "\n"
                           "#  Jméno          ID  Hry  Body za kolo  VB  Podíl VB\n"
                           "-  -------------  --  ---  ------------  --  --------\n"
                           "1  Anna Horáková  a     1          5,00  10   35,71 %\n"
                           "2  Boris Novák    b     1          3,00   8   28,57 %\n"
                           "3  Cyril Černý    c     1          1,50   5   17,86 %\n"
                           "3  Dana Veselá    d     1          1,50   5   17,86 %\n");

  // LANG=ru_RU.UTF-8, no --lang: Russian.
  auto russian_env = env(organizer_token());
  russian_env["LANG"] = "ru_RU.UTF-8";
  CliResult russian = run_cli({"standings"}, russian_env);
  ASSERT_EQ(russian.exit_code, kOk) << russian.err;
  EXPECT_EQ(russian.out, "Brno Open: турнирная таблица после события #" + seq +
                             "\n"
                             "#  Имя            ID  Партии  Очки за тур  ПО  Доля ПО\n"
                             "-  -------------  --  ------  -----------  --  -------\n"
                             "1  Anna Horáková  a        1         5,00  10  35,71 %\n"
                             "2  Boris Novák    b        1         3,00   8  28,57 %\n"
                             "3  Cyril Černý    c        1         1,50   5  17,86 %\n"
                             "3  Dana Veselá    d        1         1,50   5  17,86 %\n");

  // English by default (LANG=C), and whenever the environment names no language of ours.
  auto c_env = env(organizer_token());
  c_env["LANG"] = "C";
  CliResult plain = run_cli({"standings"}, c_env);
  ASSERT_EQ(plain.exit_code, kOk) << plain.err;
  EXPECT_EQ(plain.out, "Brno Open: standings after event #" + seq + "\n" + kEnglishStandings);
  c_env["LANG"] = "de_DE.UTF-8";
  EXPECT_EQ(run_cli({"standings"}, c_env).out, plain.out);

  // Machine output is the same in every language: CSV headers and values, and the JSON.
  CliResult csv = run_cli({"standings", "--csv"}, c_env);
  CliResult js = run_cli({"standings", "--json"}, c_env);
  ASSERT_EQ(csv.exit_code, kOk) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "rank,player,name,games,round_points,vp,vp_share_percent,dropped");
  for (const char* lang : {"en", "cs", "it", "ru"}) {
    EXPECT_EQ(tally({"standings", "--csv", "--lang", lang}).out, csv.out) << lang;
    EXPECT_EQ(tally({"standings", "--json", "--lang", lang}).out, js.out) << lang;
  }
  EXPECT_EQ(run_cli({"standings", "--csv"}, russian_env).out, csv.out);
}

TEST_F(Cli, TheLanguageComesFromLangThenLcAllThenLcMessagesThenLang) {
  catan_tournament();
  auto with = [&](std::map<std::string, std::string> extra, std::vector<std::string> args) {
    auto e = env(organizer_token());
    for (auto& [k, v] : extra) e[k] = v;
    return run_cli(args, e).out;
  };
  std::vector<std::string> list = {"tournament", "list"};
  std::string english = with({}, list);
  EXPECT_EQ(english.substr(0, english.find('\n')), "ID    Name       Game   Players  Rounds");
  std::string czech = with({{"LANG", "cs_CZ.UTF-8"}}, list);
  EXPECT_EQ(czech.substr(0, czech.find('\n')), "ID    Jméno      Hra    Hráči  Kola");
  std::string italian = with({{"LANG", "ru_RU.UTF-8"}, {"LC_MESSAGES", "it_IT.UTF-8"}}, list);
  EXPECT_EQ(italian.substr(0, italian.find('\n')), "ID    Nome       Gioco  Giocatori  Turni");
  // LC_ALL=C decides before LC_MESSAGES and LANG; --lang before all of them.
  EXPECT_EQ(with({{"LANG", "cs_CZ.UTF-8"}, {"LC_MESSAGES", "it_IT"}, {"LC_ALL", "C"}}, list),
            english);
  EXPECT_EQ(with({{"LC_ALL", "ru_RU.UTF-8"}}, {"tournament", "list", "--lang", "en"}), english);
  EXPECT_EQ(with({{"LC_ALL", "ru_RU.UTF-8"}}, {"tournament", "list", "--lang=cs"}), czech);
  CliResult bad = run_cli({"tournament", "list", "--lang", "xx"}, env(organizer_token()));
  EXPECT_EQ(bad.exit_code, kUsage);
  EXPECT_EQ(bad.err, "tally: --lang must be cs, it, ru or en, not \"xx\"\n");
}

TEST_F(Cli, ARefusedResultComesBackInTheUsersLanguage) {
  catan_tournament();
  // a holds Largest Army with 1 knight: the server refuses it (C-7).
  std::vector<std::string> args = {"result", "enter", "1", "1"};
  args.insert(args.end(), kResultFlags.begin(), kResultFlags.end());
  args[5] = "a:settlements=2,cities=3,vp_cards=0,knights=1,roads=6,longest_road=4,largest_army";
  json::object body = result_body();
  body["players"].as_array()[0].as_object()["knights"] = 1;

  // The server's own answer to that entry in each language (POST …/result/check).
  auto problem = [&](const char* lang) {
    auto r = daemon_->organizer().post("/v1/tournaments/brno/rounds/1/tables/1/result/check", body,
                                       {{"Accept-Language", lang}});
    EXPECT_EQ(r.status, 422) << r.body;
    json::value answer = r.json();
    std::string c7;
    for (const auto& e : answer.at("errors").as_array()) {
      if (e.at("rule") == "C-7") c7 = std::string(e.at("message").as_string());
    }
    EXPECT_FALSE(c7.empty()) << r.body;
    return std::make_pair(std::string(answer.at("detail").as_string()), c7);
  };
  auto [english_detail, english_c7] = problem("en");
  auto [czech_detail, czech_c7] = problem("cs");
  auto [russian_detail, russian_c7] = problem("ru");
  // The server speaks Czech and Russian (and names Anna, not "a").
  EXPECT_NE(czech_c7, english_c7);
  EXPECT_NE(russian_c7, english_c7);
  EXPECT_NE(czech_detail, english_detail);
  EXPECT_TRUE(contains(czech_c7, "Anna Horáková")) << czech_c7;

  // The CLI asks in the user's language and shows the server's texts as they came, its own words
  // around them in the same language; the machine fields (rule, player id, field) as they are.
  args.insert(args.end(), {"--lang", "cs"});
  CliResult czech = tally(args);
  EXPECT_EQ(czech.exit_code, kInvalid);
  EXPECT_TRUE(contains(czech.err, "tally: " + czech_detail + " (HTTP 422)\n")) << czech.err;
  EXPECT_TRUE(contains(czech.err, "  C-7 (hráč a, pole largest_army): " + czech_c7 + "\n"))
      << czech.err;

  args.resize(args.size() - 2);
  auto russian_env = env(organizer_token());
  russian_env["LANG"] = "ru_RU.UTF-8";
  CliResult russian = run_cli(args, russian_env);
  EXPECT_EQ(russian.exit_code, kInvalid);
  EXPECT_TRUE(contains(russian.err, "tally: " + russian_detail + " (HTTP 422)\n")) << russian.err;
  EXPECT_TRUE(contains(russian.err, "  C-7 (игрок a, поле largest_army): " + russian_c7 + "\n"))
      << russian.err;

  CliResult english = tally(args);
  EXPECT_TRUE(contains(english.err, "  C-7 (player a, field largest_army): " + english_c7 + "\n"))
      << english.err;
  EXPECT_EQ(table_now().at("status"), "open");
}

TEST_F(Cli, PromptsAskInTheUsersLanguageWithTheServersFieldTexts) {
  catan_tournament();
  // The field labels are the server's, in the language asked for (GET /v1/games).
  auto described =
      daemon_->organizer().request(http::verb::get, "/v1/games", "", {{"Accept-Language", "cs"}});
  ASSERT_EQ(described.status, 200);
  std::string settlements;
  json::value games = described.json();  // kept alive for the loop
  for (const auto& g : games.as_array()) {
    if (g.at("game") != "catan") continue;
    for (const auto& f : g.at("actions").at("result").at("fields").as_array()) {
      if (f.at("name") == "settlements") settlements = std::string(f.at("text").as_string());
    }
  }
  ASSERT_FALSE(settlements.empty());
  EXPECT_NE(settlements, std::string(result_field("catan", "settlements").at("text").as_string()));

  std::string answers =
      "2\n3\n0\n3\n6\n4\n\n\n"
      "3\n1\n1\n1\n7\n5\n\n8\n"
      "3\n1\n0\n0\n5\n3\nne\n\n"
      "5\n0\n0\n2\n4\n2\n\n\n"
      "a\nb\nano\n";
  CliResult r = tally({"result", "enter", "1", "1", "--lang", "cs"}, answers);
  ASSERT_EQ(r.exit_code, kOk) << r.err;
  EXPECT_TRUE(contains(
      r.err, "Brno Open: kolo 1, stůl 1 (catan)\nAnna Horáková (a)\n  " + settlements + " (0–5): "))
      << r.err;
  EXPECT_TRUE(contains(r.err, "? [a/N]: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "Kdo má ")) << r.err;
  EXPECT_TRUE(contains(r.err, "(a/b/c/d/nikdo) [nikdo]: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "K odeslání:\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "Server spočítá (ke stavu po události #")) << r.err;
  EXPECT_TRUE(contains(r.err, "Odeslat tento výsledek? [A/n]: ")) << r.err;
  EXPECT_TRUE(contains(r.out, "Kolo 1, stůl 1: výsledek zapsán (verze 1, událost #")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "  Místo  Jméno          ID  VB  Body za kolo\n"
                       "  -----  -------------  --  --  ------------\n"
                       "  1      Anna Horáková  a   10          5,00\n"))
      << r.out;
}

TEST_F(Cli, ImportSaysHowManyWithTheLanguagesOwnPlurals) {
  ASSERT_EQ(
      tally({"tournament", "create", "brno", "--name", "Brno Open", "--game", "catan"}).exit_code,
      kOk);
  std::string five = dir_.sub("five.csv");
  std::ofstream(five) << "id,name\na,Anna\nb,Boris\nc,Cyril\nd,Dana\ne,Eva\n";
  CliResult czech = tally({"player", "import", five, "--lang", "cs"});
  ASSERT_EQ(czech.exit_code, kOk) << czech.err;
  EXPECT_EQ(czech.out,
            "Řádek  ID  Jméno  Stav\n"
            "-----  --  -----  ------\n"
            "2      a   Anna   přidán\n"
            "3      b   Boris  přidán\n"
            "4      c   Cyril  přidán\n"
            "5      d   Dana   přidán\n"
            "6      e   Eva    přidán\n"
            "Importováno 5 hráčů.\n");

  auto russian_env = env(organizer_token());
  russian_env["LANG"] = "ru_RU.UTF-8";
  std::string two = dir_.sub("two.csv");
  std::ofstream(two) << "id,name\nf,Fedor\ng,Galina\n";
  CliResult russian = run_cli({"player", "import", two}, russian_env);
  ASSERT_EQ(russian.exit_code, kOk) << russian.err;
  EXPECT_TRUE(contains(russian.out, "Импортировано 2 игрока.\n")) << russian.out;
  CliResult again = run_cli({"player", "import", two}, russian_env);
  EXPECT_TRUE(contains(again.out, "Импортировано 0 игроков; 2 уже были зарегистрированы.\n"))
      << again.out;

  std::string one = dir_.sub("one.csv");
  std::ofstream(one) << "id,name\nh,Hana\n";
  CliResult italian = tally({"player", "import", one, "--lang", "it"});
  EXPECT_TRUE(contains(italian.out, "Importato 1 giocatore.\n")) << italian.out;
  CliResult english = tally({"player", "import", five});
  EXPECT_TRUE(contains(english.out, "Imported 0 players; 5 were already registered.\n"))
      << english.out;

  // A bad file is named line by line in the user's language.
  std::string bad = dir_.sub("bad.csv");
  std::ofstream(bad) << "id,name\nx,Xaver,Extra\ny,\n";
  CliResult refused = tally({"player", "import", bad, "--lang", "cs"});
  EXPECT_EQ(refused.exit_code, kInvalid);
  EXPECT_EQ(refused.err,
            "tally: Nic nebylo importováno: soubor má chyby (HTTP 422)\n"
            "  csv (pole csv): řádek 2: 3 pole, hlavička jich má 2\n"
            "  csv (pole csv): řádek 3: jméno je prázdné\n");
}

// --- live standings -----------------------------------------------------------------------------

TEST_F(Cli, WatchRedrawsWhenAResultArrives) {
  catan_tournament();
  CliProcess watch({"watch", "--updates", "1"}, env(""));  // the live feed is public
  ASSERT_TRUE(watch.wait_for(
      [](const std::string& out) { return contains(out, "Round 1: 0 of 1 tables reported"); },
      std::chrono::seconds(20)))
      << watch.out() << watch.err();

  auto r = daemon_->organizer().put("/v1/tournaments/brno/rounds/1/tables/1/result", result_body(),
                                    {{"If-None-Match", "*"}});
  ASSERT_EQ(r.status, 201) << r.body;
  std::optional<int> code = watch.wait_exit(std::chrono::seconds(20));
  ASSERT_TRUE(code.has_value()) << watch.out() << watch.err();
  EXPECT_EQ(*code, kOk) << watch.err();
  // The second screen: the round reported and the new standings.
  std::string last = watch.out().substr(watch.out().rfind("Brno Open: live standings"));
  EXPECT_TRUE(contains(last, "Round 1: 1 of 1 tables reported\n")) << last;
  EXPECT_TRUE(contains(last, "1  Anna Horáková  a       1       5.00  10    35.71%\n")) << last;
  EXPECT_TRUE(contains(last, "3  Cyril Černý    c       1       1.50   5    17.86%\n")) << last;
}

TEST_F(Cli, WatchSaysWhenTheConnectionIsLostAndCatchesUpAfterARestart) {
  catan_tournament();
  CliProcess watch({"watch"}, env(""));
  ASSERT_TRUE(watch.wait_for(
      [](const std::string& out) { return contains(out, "Round 1: 0 of 1 tables reported"); },
      std::chrono::seconds(20)))
      << watch.out() << watch.err();

  // tallyd restarts on the same port; a result is entered before the screen is back.
  std::uint16_t port = daemon_->port();
  ASSERT_EQ(daemon_->stop(), 0);
  daemon_ = std::make_unique<TallydProcess>(
      dir_.sub("data"), std::vector<std::string>{"--listen", "127.0.0.1:" + std::to_string(port)});
  daemon_->start();
  ASSERT_EQ(daemon_->port(), port);
  auto r = daemon_->organizer().put("/v1/tournaments/brno/rounds/1/tables/1/result", result_body(),
                                    {{"If-None-Match", "*"}});
  ASSERT_EQ(r.status, 201) << r.body;

  // Whether the screen came back before or after the result, it ends up showing it.
  ASSERT_TRUE(watch.wait_for(
      [](const std::string& out) { return contains(out, "Round 1: 1 of 1 tables reported"); },
      std::chrono::seconds(20)))
      << watch.out() << watch.err();
  EXPECT_EQ(watch.terminate(), kOk) << watch.err();  // SIGTERM ends it cleanly
  EXPECT_TRUE(contains(watch.err(), "tally: connection lost")) << watch.err();
  EXPECT_TRUE(contains(watch.err(), "tally: connected again")) << watch.err();
  std::string last = watch.out().substr(watch.out().rfind("Brno Open: live standings"));
  EXPECT_TRUE(contains(last, "Round 1: 1 of 1 tables reported\n")) << last;
  EXPECT_TRUE(contains(last, "1  Anna Horáková  a       1       5.00  10    35.71%\n")) << last;
}

TEST_F(Cli, WatchEndsAtItsTimeoutAndRefusesAnUnknownTournament) {
  catan_tournament();
  CliResult timed = run_cli({"watch", "--timeout", "1"}, env(""));
  EXPECT_EQ(timed.exit_code, kOk) << timed.err;
  EXPECT_TRUE(contains(timed.out, "Brno Open: live standings after event #")) << timed.out;
  CliResult missing = run_cli({"watch", "-t", "nowhere", "--timeout", "5"}, env(""));
  EXPECT_EQ(missing.exit_code, kNotFound) << missing.err;
}

// --- the organizer's checks and copies ---------------------------------------------------------

TEST_F(Cli, VerifyBackupAndExport) {
  catan_tournament();
  json::value check = daemon_->organizer().get("/v1/verify").json();
  CliResult verify = tally({"verify"});
  ASSERT_EQ(verify.exit_code, kOk) << verify.err;
  EXPECT_EQ(verify.out, "The hash chain is intact: " + json::serialize(check.at("events")) +
                            " events, head " + std::string(check.at("head").as_string()) + ".\n");

  CliResult backup = tally({"backup", "--json"});
  ASSERT_EQ(backup.exit_code, kOk) << backup.err;
  json::value taken = json::parse(backup.out);
  EXPECT_EQ(taken.at("head"), check.at("head"));
  EXPECT_TRUE(fs::exists(std::string(taken.at("path").as_string()) + "/store"));
  CliResult told = tally({"backup"});
  ASSERT_EQ(told.exit_code, kOk) << told.err;
  EXPECT_TRUE(contains(told.out, "Backup taken at event #" + json::serialize(check.at("events"))))
      << told.out;
  EXPECT_TRUE(contains(told.out, "To restore: stop tallyd, then tallyd --data ")) << told.out;

  std::string exported = daemon_->organizer().get("/v1/export").body;
  CliResult to_stdout = tally({"export"});
  ASSERT_EQ(to_stdout.exit_code, kOk) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, exported);
  std::string file = dir_.sub("log.jsonl");
  CliResult to_file = tally({"export", "--out", file});
  ASSERT_EQ(to_file.exit_code, kOk) << to_file.err;
  EXPECT_EQ(to_file.out, "Exported " + json::serialize(check.at("events")) + " events (head " +
                             std::string(check.at("head").as_string()) + ") to " + file +
                             ".\nRebuild a store from it with: tallyd import --data DIR --in " +
                             file + "\n");
  EXPECT_EQ(read_text(file), exported);

  std::string eva = new_judge("Eva");
  EXPECT_EQ(tally_as(eva, {"backup"}).exit_code, kAuth);
  EXPECT_EQ(tally_as(eva, {"export", "--out", dir_.sub("no.jsonl")}).exit_code, kAuth);
  EXPECT_FALSE(fs::exists(dir_.sub("no.jsonl")));
  EXPECT_EQ(tally_as(eva, {"verify"}).exit_code, kAuth);
}

// --- https ------------------------------------------------------------------------------------

TEST(CliTls, HttpsAndWssWithTheServersCertificate) {
  TempDir dir;
  std::string make_certificate =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
      " -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout " +
      dir.sub("key.pem") + " -out " + dir.sub("cert.pem") + " 2>/dev/null";
  ASSERT_EQ(std::system(make_certificate.c_str()), 0);
  TallydProcess daemon(dir.sub("data"),
                       {"--tls-cert", dir.sub("cert.pem"), "--tls-key", dir.sub("key.pem")});
  daemon.start();
  std::string server = "https://127.0.0.1:" + std::to_string(daemon.port());
  std::map<std::string, std::string> env = {{"HOME", dir.str()},
                                            {"TALLY_SERVER", server},
                                            {"TALLY_TOKEN", daemon.organizer_token()},
                                            {"TALLY_CA_FILE", dir.sub("cert.pem")}};

  CliResult created =
      run_cli({"tournament", "create", "brno", "--name", "Brno Open", "--game", "catan"}, env);
  ASSERT_EQ(created.exit_code, kOk) << created.err;
  CliResult watched = run_cli({"watch", "-t", "brno", "--timeout", "1"}, env);
  EXPECT_EQ(watched.exit_code, kOk) << watched.err;
  EXPECT_TRUE(contains(watched.out, "Brno Open: live standings after event #")) << watched.out;

  // A certificate nobody said to trust is refused.
  env.erase("TALLY_CA_FILE");
  CliResult untrusted = run_cli({"tournament", "list"}, env);
  EXPECT_EQ(untrusted.exit_code, kUnavailable);
  EXPECT_TRUE(contains(untrusted.err, "cannot reach tallyd at " + server)) << untrusted.err;
}

}  // namespace
}  // namespace tally::testing
