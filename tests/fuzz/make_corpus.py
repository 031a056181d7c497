#!/usr/bin/env python3
"""Writes the seed corpus of tests/fuzz/corpus/<target>/ from the public conformance vectors
(tests/conformance/*.json) and real API requests. Run once when the seeds should change;
the files are committed, and CI fuzzes a copy of them (tests/fuzz/run.sh)."""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "..", "conformance")
OUT = os.path.join(HERE, "corpus")


def load(game):
    with open(os.path.join(CONFORMANCE, game + ".json")) as f:
        return json.load(f)


def dump(value):
    return json.dumps(value, separators=(",", ":")).encode()


def write(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def slug(text):
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")[:48]


def http():
    org = "Authorization: Bearer fuzz-organizer-token\r\n"
    judge = "Authorization: Bearer fuzz-judge-token\r\n"

    def req(method, target, headers="", body=""):
        length = f"Content-Length: {len(body.encode())}\r\n" if body else ""
        return f"{method} {target} HTTP/1.1\r\nHost: localhost:8080\r\n{headers}{length}\r\n{body}"

    catan = load("catan")["tables"][0]
    write("http", "healthz", req("GET", "/healthz"))
    write("http", "create-tournament", req("POST", "/v1/tournaments",
          org + "Content-Type: application/json\r\n",
          dump({"id": "cup", "name": "Cup", "game": "catan", "rules": {"rounds": 3}}).decode()))
    write("http", "put-result", req("PUT", "/v1/tournaments/cup/rounds/1/tables/2/result",
          judge + 'If-Match: "3"\r\nIdempotency-Key: 7f3a-01\r\nContent-Type: application/json\r\n',
          dump({"players": catan["players"], "reason": "typo"}).decode()))
    write("http", "first-result", req("PUT", "/v1/tournaments/cup/rounds/1/tables/1/result",
          judge + "If-None-Match: *\r\n", dump({"players": []}).decode()))
    write("http", "events-query", req("GET", "/v1/tournaments/cup/events?from=3&limit=10&x=%41+b"))
    write("http", "revoke-judge", req("DELETE", "/v1/judges/j%2D1", org))
    write("http", "void", req("POST", "/v1/tournaments/cup/events/12/void", judge,
          dump({"reason": "entered twice"}).decode()))
    write("http", "method-not-allowed", req("PATCH", "/v1/tournaments/cup"))
    write("http", "unknown-token", req("GET", "/v1/judges", "Authorization: Bearer nope\r\n"))
    table_token = "Authorization: Bearer tt.cup.1.3.MflLDeXW48QQZND36n_U9Q\r\n"
    write("http", "table-token-proposal", req("POST", "/v1/tournaments/cup/rounds/1/tables/3/proposals",
          table_token + "Idempotency-Key: 5b1e\r\nContent-Type: application/json\r\n",
          dump({"players": catan["players"], "reason": "we agree"}).decode()))
    write("http", "table-token-malformed", req("GET", "/v1/tournaments/cup/rounds/1/tables/3/proposals",
          "Authorization: Bearer tt.cup..3.\r\n"))
    write("http", "approve-proposal", req("POST", "/v1/tournaments/cup/rounds/1/tables/3/proposals/17/approve",
          judge + 'If-Match: "2"\r\n', dump({"reason": "recounted"}).decode()))
    write("http", "self-reporting-on", req("PATCH", "/v1/tournaments/cup", org,
          dump({"self_reporting": True}).decode()))
    chunked = dump({"feature": "road", "complete": True, "tiles": 4,
                    "figures": [{"player": "red", "figure": "follower"}]}).decode()
    write("http", "score-chunked",
          "POST /v1/carcassonne/score HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
          "Expect: 100-continue\r\n\r\n"
          f"{len(chunked):x}\r\n{chunked}\r\n0\r\n\r\n")
    # Once a finding: the last chunk's size line without its terminating empty line.
    write("http", "chunked-final-chunk-cut-short",
          "POST /v1/carcassonne/score HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
          "Expect: 100-continue\r\n\r\n0\r\n")
    write("http", "pipelined", req("GET", "/v1/tournaments") + req("GET", "/v1/tournaments/cup/standings")
          + "GET /metrics HTTP/1.0\r\n\r\n")
    write("http", "body-too-large", "POST /v1/tournaments HTTP/1.1\r\nHost: x\r\n"
          "Content-Length: 70000\r\n\r\n{}")
    write("http", "headers-too-large", req("GET", "/healthz", "".join(
        f"X-Flood-{i}: {'v' * 80}\r\n" for i in range(100))))
    write("http", "websocket-upgrade", req("GET", "/v1/tournaments/cup/live",
          "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))


# Payload kinds in tally.capnp's union order: the first byte of an event-json input.
KINDS = ["tournament_created", "judge_added", "judge_revoked", "player_registered",
         "player_dropped", "round_seated", "catan_result", "agot_result", "carcassonne_result",
         "claimed_win", "house_pick", "carcassonne_scoring", "void"]


def event_json():
    def put(kind, name, body):
        write("event-json", f"{kind}-{name}", bytes([KINDS.index(kind)]) + dump(body))

    catan, agot, carc = load("catan"), load("agot"), load("carcassonne")
    put("tournament_created", "catan", {"id": "cup", "name": "Cup", "game": "catan",
                                        "locale": "de", "rules": {"round_points_4": [5, 3, 2, 1]}})
    put("judge_added", "judge", {"id": "j1", "name": "Jo", "role": "judge", "token_hash": "00ff" * 16})
    put("judge_revoked", "j1", {"id": "j1"})
    put("player_registered", "anna", {"id": "anna", "name": "Anna Ö"})
    put("player_dropped", "anna", {"id": "anna"})
    put("round_seated", "leagues", {"round": 2, "method": "standings", "seed": 7, "forced": False,
                                    "tables": [{"table": 1, "players": ["a", "b", "c"], "league": "A",
                                                "rating_leagues": ["A", "A", "B"]}]})
    put("catan_result", "clear-order", {"players": catan["tables"][0]["players"]})
    put("catan_result", "vp-claimed", {"players": [dict(catan["tables"][2]["players"][0], vp=10,
                                                        claimed_win=True)]})
    put("agot_result", "league-a", {"players": agot["games"][0]["players"]})
    put("carcassonne_result", "two", {"players": [{"player": "red", "score": 31},
                                                  {"player": "blue", "score": 27}]})
    # A number Boost.JSON cannot carry exactly through a JSON-text member (once a finding).
    put("carcassonne_scoring", "long-number", {"event": {"feature": "road", "tiles": 3 * 10**69 - 1}})
    write("event-json", "carcassonne_scoring-beyond-double",
          bytes([KINDS.index("carcassonne_scoring")]) + b'{"event":{"feature":"road","tiles":4e99999}}')
    put("claimed_win", "a", {"player": "a"})
    put("house_pick", "stark", {"player": "p1", "house": "stark"})
    put("carcassonne_scoring", "road", {"event": carc["events"][0]["event"]})
    put("void", "null", None)


def catan():
    cases = load("catan")["tables"]
    for c in cases[:8]:
        write("catan", slug(c["name"]), dump({"players": c["players"]}))
    for c in cases:
        if c.get("claims"):
            actions = [{"type": "claimed_win", "body": {"player": p}} for p in c["claims"]]
            actions.append({"type": "catan_result", "body": {"players": c["players"]}})
            write("catan", "claims-" + slug(c["name"]),
                  dump({"seated": [p["player"] for p in c["players"]], "actions": actions}))
    first = cases[0]["players"]
    write("catan", "correction-and-void", dump({
        "rules": {"round_points_4": [6, 4, 2, 0], "rounds": 4},
        "actions": [{"type": "catan_result", "body": {"players": first}},
                    {"type": "catan_result", "body": {"players": first[::-1]}, "supersedes": 0,
                     "reason": "order"},
                    {"type": "claimed_win", "body": {"player": "a"}},
                    {"type": "void", "supersedes": 2}]}))
    write("catan", "three-players", dump({"seated": ["a", "b", "c"],
                                          "actions": [{"type": "catan_result",
                                                       "body": {"players": first[:3]}}]}))


def agot():
    games = load("agot")["games"]
    for g in games:
        seated = [p["player"] for p in g["players"]]
        write("agot", slug(g["name"]), dump({"seated": seated, "league": g["table_league"],
              "actions": [{"type": "agot_result", "body": {"players": g["players"]}}]}))
    g = games[0]
    picks = [{"type": "house_pick", "body": {"player": p["player"], "house": p["house"]}}
             for p in g["players"][:3]]
    picks.append({"type": "agot_result", "body": {"players": g["players"]}})
    write("agot", "picks-then-result", dump({"seated": [p["player"] for p in g["players"]],
                                              "league": "A", "actions": picks}))
    write("agot", "bare-result", dump({"players": g["players"]}))
    # Two picks and no result: the automatic picks fill in the other four.
    write("agot", "picks-then-auto", dump({"seated": [p["player"] for p in g["players"]],
                                           "league": "B", "actions": picks[:2]}))


def carcassonne():
    events = load("carcassonne")["events"]
    for e in events:
        write("carcassonne-engine", slug(e["name"]), dump(e["event"]))
    extra = {
        "robber": {"feature": "road", "complete": True, "tiles": 5,
                   "figures": [{"player": "red", "figure": "follower"}],
                   "robbers": [{"player": "blue", "robs": "red"}]},
        "poverty-robber": {"feature": "road", "complete": True, "tiles": 2,
                           "figures": [{"player": "red", "figure": "follower"}],
                           "modifiers": {"surveyor": "poverty"},
                           "robbers": [{"player": "blue", "robs": "red"}]},
        "circus": {"event": "circus", "animal": 4, "followers": {"red": 2, "blue": 1}},
        "betting-office": {"event": "betting_office", "tiles": 4,
                           "bets": [{"player": "red", "token": "9"}]},
        "dispatch": {"event": "dispatch", "player": "red", "action": "pennants", "count": 3},
        "tower-ransom": {"event": "tower_ransom", "payer": "red", "captor": "blue"},
    }
    for name, e in extra.items():
        write("carcassonne-engine", name, dump(e))
    write("carcassonne-engine", "rules-c2", dump({"rules": {"edition": "c2"},
                                                  "event": events[4]["event"]}))

    def scoring(e):
        return {"type": "carcassonne_scoring", "body": {"event": e}}

    players = lambda e: sorted({f["player"] for f in e.get("figures", [])} | {"red", "blue"})
    for e in events[:6]:
        write("carcassonne-validation", "scoring-" + slug(e["name"]),
              dump({"seated": players(e["event"]), "actions": [scoring(e["event"])]}))
    write("carcassonne-validation", "result", dump({"players": [{"player": "red", "score": 31},
                                                                {"player": "blue", "score": 27}]}))
    write("carcassonne-validation", "scorings-then-result", dump({
        "seated": ["red", "blue"],
        "actions": [scoring(events[0]["event"]), scoring(extra["robber"]),
                    {"type": "void", "supersedes": 0},
                    {"type": "carcassonne_result",
                     "body": {"players": [{"player": "red", "score": 5},
                                          {"player": "blue", "score": 3}]}}]}))
    write("carcassonne-validation", "four-players", dump({
        "seated": ["red", "blue", "green", "black"], "rules": {"table_size": 4},
        "actions": [scoring(extra["circus"])]}))


if __name__ == "__main__":
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    for make in (http, event_json, catan, agot, carcassonne):
        make()
    for target in sorted(os.listdir(OUT)):
        print(target, len(os.listdir(os.path.join(OUT, target))), file=sys.stderr)
