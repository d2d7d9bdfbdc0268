// reasons.js: why a tile may not be discarded, and which expected wins and claims are
// missing and why, from restriction declarations shaped like GET /api/variants'.
import "./shim.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";
import { blockedTiles, canChi, discardWhy, limiting, missedOffers, reasonText } from "../../majiang/server/static/reasons.js";

const DECLARED = [
  { id: "zhuada", zh: "抓打", en: "wild thrown", limits: ["discard", "win", "claim", "kong"],
    now: { zh: "{} 打了财神：只能打摸到的牌", en: "{} discarded a wild: discard the tile you drew" } },
  { id: "missed_win", zh: "漏胡", en: "passed win", limits: ["win"],
    now: { zh: "你放过了 {} 的胡", en: "you passed a win on {}" } },
  { id: "missed_peng", zh: "漏碰", en: "passed peng", limits: ["claim"],
    now: { zh: "你放过了 {} 的碰", en: "you passed a peng of {}" } },
  { id: "no_discard_win", zh: "有番才能胡", en: "a discard win needs 番", limits: ["win"],
    now: { zh: "你的牌加上 {} 已成胡，但没有番", en: "complete with {}, but no 番" } },
  { id: "sheng", zh: "生牌阶段", en: "raw-tile phase", limits: [], now: { zh: "生张", en: "raw" } },
  { id: "no_chi", zh: "不能吃", en: "no chi", limits: ["claim"] },
];
const discards = (...tiles) => tiles.map((tile) => ({ seat: 0, type: "discard", tile }));

test("limiting keeps the restrictions in force that limit the choice, with their declaration", () => {
  const inForce = [{ id: "zhuada", detail: "S1" }, { id: "sheng", detail: "" }, { id: "missed_win", detail: "5p" }];
  assert.deepEqual(limiting(inForce, DECLARED, "discard").map((r) => r.id), ["zhuada"]);
  assert.deepEqual(limiting(inForce, DECLARED, "win").map((r) => [r.id, r.detail]), [["zhuada", "S1"], ["missed_win", "5p"]]);
  assert.deepEqual(limiting(inForce, DECLARED, "claim").map((r) => r.id), ["zhuada"]);
  assert.deepEqual(limiting([{ id: "odd", detail: "" }], DECLARED, "win").map((r) => r.declared), [null]);
  assert.deepEqual(limiting(null, DECLARED, "win"), []);
});

test("only the seat's discard turn greys tiles: those no legal discard names", () => {
  const hand = ["1m", "2m", "5z", "7p"];
  assert.deepEqual([...blockedTiles(hand, discards("7p"))], ["1m", "2m", "5z"]);
  assert.deepEqual([...blockedTiles(hand, [{ type: "peng" }, { type: "pass" }])], []);
  assert.deepEqual([...blockedTiles(hand, [])], []);
  assert.deepEqual([...blockedTiles(hand, discards(...hand))], []);
});

test("a tile that may not go says the discard restrictions in force", () => {
  const legal = discards("7p");
  const inForce = [{ id: "zhuada", detail: "S3" }, { id: "missed_peng", detail: "2m" }];
  assert.equal(discardWhy("7p", legal, inForce, DECLARED), null);
  assert.deepEqual(discardWhy("1m", legal, inForce, DECLARED).map((r) => r.id), ["zhuada"]);
  assert.deepEqual(discardWhy("1m", legal, [], DECLARED), []); // refused, no declared reason
  assert.equal(discardWhy("1m", [{ type: "pass" }], inForce, DECLARED), null); // not a discard turn
});

test("a discard the hand waits on with no 胡 offered is told, with the win restrictions in force", () => {
  const base = { phase: "claim", seat: 0, current: 1, windowTile: "5p", windowFrom: 1, hand: ["5p", "6p"],
    wild: null, declared: DECLARED, waits: ["4p", "7p", "5p"] };
  const passed = missedOffers({ ...base, legal: [{ type: "pass" }], inForce: [{ id: "missed_win", detail: "5p" }] });
  assert.deepEqual(passed.map((m) => [m.what, m.tile, m.reasons.map((r) => r.id)]), [["hu", "5p", ["missed_win"]]]);
  // nothing in force: the declared standing rule (a discard win needs 番)
  const standing = missedOffers({ ...base, legal: [{ type: "pass" }], inForce: [] });
  assert.deepEqual(standing.map((m) => m.reasons.map((r) => r.id)), [["no_discard_win"]]);
  // offered: nothing to explain; not waited on: nothing expected; decided already: nothing
  assert.deepEqual(missedOffers({ ...base, legal: [{ type: "hu" }, { type: "pass" }], inForce: [] }), []);
  assert.deepEqual(missedOffers({ ...base, waits: ["4p"], legal: [{ type: "pass" }], inForce: [] }), []);
  assert.deepEqual(missedOffers({ ...base, legal: [], inForce: [{ id: "missed_win", detail: "5p" }] }), []);
  assert.deepEqual(missedOffers({ ...base, waits: null, legal: [{ type: "pass" }], inForce: [] }), []);
  // the seat's own discard is no window for it
  assert.deepEqual(missedOffers({ ...base, windowFrom: 0, legal: [{ type: "pass" }], inForce: [] }), []);
});

test("a pair of the discarded tile with no 碰 offered is told only with a reason (弃碰)", () => {
  const base = { phase: "claim", seat: 2, current: 1, windowTile: "3s", windowFrom: 1, hand: ["3s", "3s", "9m"],
    wild: null, declared: DECLARED, waits: [] , legal: [{ type: "pass" }] };
  const told = missedOffers({ ...base, inForce: [{ id: "missed_peng", detail: "3s" }] });
  assert.deepEqual(told.map((m) => [m.what, m.reasons.map((r) => r.id)]), [["peng", ["missed_peng"]]]);
  assert.deepEqual(missedOffers({ ...base, inForce: [] }), []);
  assert.deepEqual(missedOffers({ ...base, legal: [{ type: "peng" }, { type: "pass" }], inForce: [{ id: "missed_peng", detail: "3s" }] }), []);
});

test("in the seat's turn a drawn tile that completes the hand with no 胡 offered is told", () => {
  const base = { phase: "turn", seat: 0, current: 0, windowTile: null, windowFrom: null, drawn: "8s",
    hand: ["8s"], wild: "5z", declared: DECLARED, legal: discards("8s"), inForce: [{ id: "zhuada", detail: "S2" }] };
  assert.deepEqual(missedOffers({ ...base, waits: ["8s"] }).map((m) => [m.what, m.tile]), [["hu", "8s"]]);
  assert.deepEqual(missedOffers({ ...base, drawn: "5z", waits: ["1m"] }).map((m) => m.tile), ["5z"]); // a wild
  assert.deepEqual(missedOffers({ ...base, waits: ["1m"] }), []);
  assert.deepEqual(missedOffers({ ...base, waits: ["8s"], inForce: [] }), []); // no reason: nothing said
  assert.deepEqual(missedOffers({ ...base, current: 1, waits: ["8s"] }), []);
});

test("a reason reads the declared sentence in the language, its detail filled in", () => {
  const [r] = limiting([{ id: "zhuada", detail: "S1" }], DECLARED, "discard");
  const fill = (d) => (d === "S1" ? "Bob" : "?");
  assert.equal(reasonText(r, "zh", fill), "Bob 打了财神：只能打摸到的牌");
  assert.equal(reasonText(r, "en", fill), "Bob discarded a wild: discard the tile you drew");
  const [plain] = limiting([{ id: "no_chi", detail: "" }], DECLARED, "claim");
  assert.equal(reasonText(plain, "zh", fill), "不能吃");
  assert.equal(reasonText({ id: "odd", detail: "", declared: null }, "zh", fill), "odd");
  const escaped = reasonText({ id: "x", detail: "1m", declared: { zh: "<b>", en: "b", now: { zh: "<{}>", en: "" } } },
    "zh", () => "<i>", (x) => x.replace(/</g, "&lt;"));
  assert.equal(escaped, "&lt;<i>>");
});

test("a run or three of a kind of the discarded tile with no 吃 or 杠 offered is told with the claim restrictions in force", () => {
  const zhuada = [{ id: "zhuada", detail: "S3" }];
  const base = { phase: "claim", seat: 2, current: 1, windowTile: "5s", windowFrom: 1, wild: null, declared: DECLARED,
    waits: [], legal: [{ type: "pass" }] };
  const three = missedOffers({ ...base, hand: ["5s", "5s", "5s", "9m"], inForce: zhuada });
  assert.deepEqual(three.map((m) => m.what), ["kong", "peng"]);
  const run = missedOffers({ ...base, hand: ["3s", "4s", "9m"], inForce: zhuada });
  assert.deepEqual(run.map((m) => [m.what, m.reasons.map((r) => r.id)]), [["chi", ["zhuada"]]]);
  // 吃 only of the previous seat's discard, only where the variant has it, only with a reason
  assert.deepEqual(missedOffers({ ...base, windowFrom: 0, hand: ["3s", "4s"], inForce: zhuada }), []);
  assert.deepEqual(missedOffers({ ...base, chi: false, hand: ["3s", "4s"], inForce: zhuada }), []);
  assert.deepEqual(missedOffers({ ...base, hand: ["3s", "4s"], inForce: [] }), []);
  assert.deepEqual(missedOffers({ ...base, hand: ["3s", "4s"], legal: [{ type: "chi" }, { type: "pass" }], inForce: zhuada }), []);
});

test("canChi finds the three runs a suit tile can join, and none for honours", () => {
  assert.ok(canChi(["3s", "4s"], "5s") && canChi(["4s", "6s"], "5s") && canChi(["6s", "7s"], "5s"));
  assert.ok(!canChi(["4s", "7s"], "5s") && !canChi(["3m", "4m"], "5s") && !canChi(["8p", "9p"], "1p"));
  assert.ok(!canChi(["1z", "2z"], "3z") && !canChi([], "5s"));
});
