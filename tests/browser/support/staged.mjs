// A staged Carcassonne event for the stage tests (stages.test.mjs, layout.test.mjs), set up
// through tallyd's API: two-player games, 8 players, 2 Swiss rounds, a cut of 4 and a knockout
// (semi-finals 1–4 and 2–3, then the final and the game for 3rd place, seated by the server).
//
//   const event = await stagedEvent(tallyd, judge, "cwc", names);
//   await event.playRound(1);                     // seated and every table reported
//   await event.reportRound(3, { except: [2] });  // the knockout's round 3 but table 2
//
// Every score is distinct and the first seated player scores more, so no game is level.

export const STAGED_RULES = {
  table_size: 2,
  stages: [{ kind: "rounds", rounds: 2 }, { kind: "cut", top: 4 }, { kind: "knockout" }],
};

export async function stagedEvent(tallyd, judge, id, names, { locale = "en", name = `${id} championship` } = {}) {
  await tallyd.must(201, "POST", "/v1/tournaments", { id, name, game: "carcassonne", locale, rules: STAGED_RULES });
  for (const [i, player] of names.entries()) {
    await tallyd.must(201, "POST", `/v1/tournaments/${id}/players`, { id: `p${i + 1}`, name: player });
  }
  const nameOf = Object.fromEntries(names.map((n, i) => [`p${i + 1}`, n]));
  const path = `/v1/tournaments/${id}`;

  // The round's tables with a result, but those `except` (table numbers); answers the last seq.
  async function reportRound(round, { except = [], scores = (k) => [120 - k, 60 + k] } = {}) {
    const sheet = await tallyd.must(200, "GET", `${path}/rounds/${round}`);
    let seq = 0;
    for (const [k, table] of sheet.tables.entries()) {
      if (except.includes(table.table) || table.status === "reported") continue;
      const [first, second] = scores(k);
      const answer = await tallyd.must(201, "PUT", `${path}/rounds/${round}/tables/${table.table}/result`, {
        players: [{ player: table.players[0], score: first }, { player: table.players[1], score: second }],
      }, { token: judge.token, headers: { "If-None-Match": "*" } });
      seq = Math.max(seq, answer.seq || 0);
    }
    return seq;
  }

  async function playRound(round, options) {
    await tallyd.must(201, "POST", `${path}/rounds`, round === 1 ? { method: "random", seed: 7 } : {});
    return reportRound(round, options);
  }

  const standings = () => tallyd.must(200, "GET", `${path}/standings`);
  return { id, nameOf, reportRound, playRound, standings };
}
