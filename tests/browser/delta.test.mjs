// The live feed's standings deltas applied in the page (client/web/static/live.js) exactly as the
// server made them (daemon/live/standings_delta.cpp; the same cases as tests/daemon/standings_delta-test.cpp).
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyStandingsDelta } from "../../client/web/static/live.js";

test("a move up: the moved row sent whole, the others copied with their ranks shifted as one range", () => {
  const before = { rows: [
    { rank: 1, player: "a", points: 9 }, { rank: 2, player: "b", points: 7 },
    { rank: 3, player: "c", points: 5 }, { rank: 4, player: "d", points: 3 }] };
  const delta = { rows: 4, order: [{ row: { rank: 1, player: "d", points: 10 } }, [0, 3]], ranks: [[1, 4, 1]], set: {}, unset: [] };
  assert.deepEqual(applyStandingsDelta(before, delta), { rows: [
    { rank: 1, player: "d", points: 10 }, { rank: 2, player: "a", points: 9 },
    { rank: 3, player: "b", points: 7 }, { rank: 4, player: "c", points: 5 }] });
  // What the client held is not changed by applying.
  assert.equal(before.rows[0].rank, 1);
});

test("other members set and unset, rows gone and new, ties kept as the server ranked them", () => {
  const before = { conqueror: ["a"], as_of: 3, rows: [
    { rank: 1, player: "a", points: 9 }, { rank: 2, player: "b", points: 7 },
    { rank: 2, player: "c", points: 7 }, { rank: 4, player: "d", points: 3 }] };
  const delta = { rows: 4, order: [[0, 1], { row: { rank: 1, player: "e", points: 9 } }, [2, 2]],
    ranks: [[2, 3, 1]], set: { conqueror: ["a", "e"] }, unset: ["as_of"] };
  assert.deepEqual(applyStandingsDelta(before, delta), { conqueror: ["a", "e"], rows: [
    { rank: 1, player: "a", points: 9 }, { rank: 1, player: "e", points: 9 },
    { rank: 3, player: "c", points: 7 }, { rank: 4, player: "d", points: 3 }] });
});

test("a delta that does not fit what the client holds gives null (the feed then reconnects)", () => {
  const small = { rows: [{ rank: 1, player: "a" }] };
  assert.equal(applyStandingsDelta(small, { rows: 2, order: [[0, 2]], ranks: [], set: {}, unset: [] }), null);
  assert.equal(applyStandingsDelta(small, { rows: 1, order: [[0, 1]], ranks: [[0, 3, 1]], set: {}, unset: [] }), null);
  assert.equal(applyStandingsDelta(small, { rows: 2, order: [[0, 1]], ranks: [], set: {}, unset: [] }), null);
});
