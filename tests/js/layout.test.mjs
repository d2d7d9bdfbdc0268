// The table's pure layout logic (majiang/server/static/layout.js and faces.js): where the
// seats sit for a viewer, rivers in rows of six, the hand's order, the claim bar's order,
// how melds lie, and tile notation to faces. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bambooLayout, dotLayout, faceKind, faceSvg, formatTiles, parseTiles, sortTiles, tileArt,
} from "../../majiang/server/static/faces.js";
import {
  claimOrder, handOrder, meldTiles, motionKey, newMotion, placeOf, pointerSeat, rows, seatAt, windIndex,
} from "../../majiang/server/static/layout.js";

test("the viewer sits at the bottom, 下家 right, 对家 top, 上家 left, for every seat", () => {
  for (let me = 0; me < 4; me++) {
    assert.equal(placeOf(me, me), "me");
    assert.equal(placeOf((me + 1) % 4, me), "right");
    assert.equal(placeOf((me + 2) % 4, me), "top");
    assert.equal(placeOf((me + 3) % 4, me), "left");
    for (const place of ["me", "right", "top", "left"]) assert.equal(placeOf(seatAt(place, me), me), place);
  }
});

test("winds count from the dealer: the dealer is 东, the next seat 南", () => {
  assert.equal(windIndex(2, 2), 0);
  assert.equal(windIndex(3, 2), 1);
  assert.equal(windIndex(1, 2), 3);
});

test("a river lies in rows of six, oldest first", () => {
  const river = parseTiles("123456789m1234p");
  const r = rows(river);
  assert.deepEqual(r.map((x) => x.length), [6, 6, 1]);
  assert.deepEqual(r[1], ["7m", "8m", "9m", "1p", "2p", "3p"]);
  assert.deepEqual(rows([]), []);
});

test("the hand is sorted 万 筒 条 honours, the drawn tile set apart", () => {
  const { tiles, drawn } = handOrder("19s5z3p2m1p7z", "5z");
  assert.deepEqual(tiles, ["2m", "1p", "3p", "1s", "9s", "7z"]);
  assert.equal(drawn, "5z");
  assert.deepEqual(handOrder("11m", "9p"), { tiles: ["1m", "1m"], drawn: null });
  assert.deepEqual(handOrder("11m", "1m").tiles, ["1m"]);
  assert.equal(formatTiles(sortTiles(["5p", "1m", "3z", "1f"])), "1m5p3z1f");
});

test("the claim bar: 胡 first, then 杠, 碰, 吃, 过 last; no discards", () => {
  const legal = [
    { type: "pass" }, { type: "chi", tiles: "23m" }, { type: "discard", tile: "1m" },
    { type: "peng" }, { type: "chi", tiles: "45m" }, { type: "hu" }, { type: "kong" },
  ];
  assert.deepEqual(claimOrder(legal).map((i) => legal[i].type), ["hu", "kong", "peng", "chi", "chi", "pass"]);
  assert.deepEqual(claimOrder(legal).slice(3), [1, 4, 0]); // two chi keep their order
});

test("a claimed meld turns the tile on the side it came from", () => {
  const turned = (source, seat) => meldTiles({ kind: "peng", tiles: "555p", source }, seat, 0).map((x) => x.turned);
  assert.deepEqual(turned(3, 0), [true, false, false]); // 上家: left
  assert.deepEqual(turned(2, 0), [false, true, false]); // 对家: middle
  assert.deepEqual(turned(1, 0), [false, false, true]); // 下家: right
  assert.deepEqual(turned(0, 1), [true, false, false]); // seat 1's 上家 is seat 0
  const kong = meldTiles({ kind: "kong", tiles: "5555p", source: 1 }, 0, 0);
  assert.deepEqual(kong.map((x) => x.turned), [false, false, false, true]);
});

test("a concealed kong: two backs two faces, all faces to its owner, four backs when hidden", () => {
  const kong = { kind: "kong_concealed", tiles: "7777s", source: null };
  assert.deepEqual(meldTiles(kong, 2, 0).map((x) => x.back), [true, false, false, true]);
  assert.deepEqual(meldTiles(kong, 2, 2).map((x) => x.back), [false, false, false, false]);
  const hidden = meldTiles({ kind: "kong_concealed", tiles: "", source: null }, 1, 0);
  assert.equal(hidden.length, 4);
  assert.ok(hidden.every((x) => x.back));
});

test("the pointer lights the viewer while it decides, else the seat to act", () => {
  assert.equal(pointerSeat({ current: 2, phase: "claim", mine: 0, deciding: true }), 0);
  assert.equal(pointerSeat({ current: 2, phase: "turn", mine: 0, deciding: false }), 2);
  assert.equal(pointerSeat({ current: 2, phase: "end", mine: 0, deciding: false }), null);
});

test("what moved since the last screen: a discard, a draw, a meld", () => {
  const seat = (discards, melds, extra = {}) => ({ discards, melds, hand_size: 13, drawn: null, ...extra });
  const view = (a, b) => ({ seats: [a, seat([], []), b, seat([], [])] });
  const before = motionKey(view(seat([], []), seat(["1m"], [])), 0, 0);
  const after = motionKey(view(seat([], [], { hand_size: 14, drawn: "2m" }), seat(["1m", "3p"], [])), 0, 0);
  assert.deepEqual(newMotion(before, after), { discard: 2, draw: true, meld: null });
  const claimed = motionKey(view(seat([], [{ kind: "peng", tiles: "333p" }]), seat(["1m"], [])), 0, 0);
  assert.deepEqual(newMotion(after, claimed), { discard: null, draw: false, meld: 0 });
  assert.deepEqual(newMotion(null, after), { discard: null, draw: false, meld: null });
  const nextHand = motionKey(view(seat([], []), seat(["1m"], [])), 1, 0);
  assert.equal(newMotion(after, nextHand).discard, null); // a new hand animates nothing
});

test("notation names every face: dots, bamboo, characters, winds, dragons, flowers", () => {
  assert.deepEqual(faceKind("5p"), { kind: "dots", n: 5 });
  assert.equal(faceKind("1s").kind, "bamboo");
  assert.equal(faceKind("9m").glyph, "九");
  assert.equal(faceKind("1z").glyph, "东");
  assert.equal(faceKind("4z").glyph, "北");
  assert.equal(faceKind("7z").glyph, "中");
  assert.equal(faceKind("6z").glyph, "发");
  assert.equal(faceKind("5z").kind, "dragon"); // 白: an empty frame
  assert.deepEqual([faceKind("1f").glyph, faceKind("5f").glyph, faceKind("8f").number], ["春", "梅", 4]);
  assert.throws(() => faceKind("8z"));
  assert.throws(() => faceKind("0m"));
});

test("筒 shows its number of circles, 条 its number of sticks, inside the face", () => {
  for (let n = 1; n <= 9; n++) {
    const dots = dotLayout(n);
    assert.equal(dots.length, n);
    for (const [x, y, r] of dots) assert.ok(x - r >= 1 && x + r <= 29 && y - r >= 1 && y + r <= 37, `${n}p`);
    assert.equal((faceSvg(`${n}p`).match(/<circle/g) || []).length >= n, true);
  }
  for (let n = 2; n <= 9; n++) {
    const sticks = bambooLayout(n);
    assert.equal(sticks.length, n);
    for (const [x, y, h] of sticks) assert.ok(x - 2 >= 1 && x + 2 <= 29 && y - h / 2 >= 1 && y + h / 2 <= 37, `${n}s`);
  }
});

test("a wild carries a corner badge, a back shows no face", () => {
  assert.ok(tileArt("5p", { wild: true }).includes("#d97706"));
  assert.ok(!tileArt("5p").includes("#d97706"));
  assert.ok(!tileArt("5p", { back: true }).includes("<circle"));
  assert.ok(faceSvg("2m").includes("萬"));
  assert.ok(faceSvg("5z").includes("<rect") && !faceSvg("5z").includes("<text"));
});
