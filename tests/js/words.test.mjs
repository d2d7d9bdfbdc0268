// words.js: option values by name, payment notes with their marks filled, bots by level and
// error codes as sentences, in each language (issue 34 item 2).
import assert from "node:assert/strict";
import { test } from "node:test";

import { choiceName, ERRORS, errorText, fillNote, itemNote, optionText } from "../../majiang/server/static/words.js";

const FIRST = {
  id: "first_dealer",
  kind: "choice",
  default: "random",
  choices: ["random", 0, 1, 2, 3],
  choice_names: [
    { zh: "随机", en: "random" },
    { zh: "房主（0号位）", en: "the room owner (seat 0)" },
    { zh: "房主下家（1号位）", en: "seat 1, after the owner" },
    { zh: "房主对家（2号位）", en: "seat 2, opposite the owner" },
    { zh: "房主上家（3号位）", en: "seat 3, before the owner" },
  ],
  zh: "首局庄家",
  en: "first dealer",
  doc: "the first dealer",
  doc_zh: "第一局的庄家",
};
const INFO = {
  options: [
    { id: "horses", kind: "bool", default: true, zh: "买马", en: "buy horses", doc: "horses", doc_zh: "买马" },
    { id: "base_score", kind: "int", default: 1, zh: "基础分", en: "base score", doc: "B", doc_zh: "基数" },
    FIRST,
  ],
};

test("a choice is named, never shown as its value; a seat is not a bare number", () => {
  assert.equal(choiceName(FIRST, 2, "zh"), "房主对家（2号位）");
  assert.equal(choiceName(FIRST, 2, "en"), "seat 2, opposite the owner");
  assert.equal(choiceName(FIRST, "random", "zh"), "随机");
  // 0 and "0" are different values: only the declared one is named
  assert.equal(choiceName(FIRST, 0, "zh"), "房主（0号位）");
});

test("bools read yes/no, ints their number", () => {
  assert.equal(choiceName(INFO.options[0], false, "zh"), "否");
  assert.equal(choiceName(INFO.options[0], true, "en"), "yes");
  assert.equal(choiceName(INFO.options[1], 3, "zh"), "3");
});

test("optionText lists every option with the room's value, or its default, by name", () => {
  const zh = optionText(INFO, { first_dealer: 1, horses: false }, "zh");
  assert.deepEqual(zh.map((o) => [o.name, o.value, o.hint, o.isDefault]), [
    ["买马", "否", "买马", false],
    ["基础分", "1", "基数", true],
    ["首局庄家", "房主下家（1号位）", "第一局的庄家", false],
  ]);
  const en = optionText(INFO, {}, "en");
  assert.deepEqual(en.map((o) => o.value), ["yes", "1", "random"]);
  assert.deepEqual(optionText(null, {}, "zh"), []);
});

test("notes name seats and tiles by what the page passes, in the page's language", () => {
  const item = { note: "马 1z on S1, who pays S2 2", notes: { zh: "马 {1z} 中 {S1}：{S1} 付给 {S2} 2", en: "horse {1z} on {S1}, who pays {S2} 2" } };
  const seat = (s) => ["甲", "乙", "丙", "丁"][s];
  const tile = (x) => (x === "1z" ? "东" : x);
  assert.equal(fillNote(itemNote(item, "zh"), seat, tile), "马 东 中 乙：乙 付给 丙 2");
  assert.equal(fillNote(itemNote(item, "en"), (s) => `P${s}`, () => "East"), "horse East on P1, who pays P2 2");
  // an old server's item without notes still shows its note
  assert.equal(itemNote({ note: "3 x 1" }, "zh"), "3 x 1");
  assert.equal(fillNote("no marks {x} S1", seat, tile), "no marks {x} S1");
});


test("every error code has a sentence in each language; the detail only on the English page", () => {
  for (const [code, [zh, en]] of Object.entries(ERRORS)) {
    assert.doesNotMatch(zh, /[A-Za-z]/, code);
    assert.doesNotMatch(en, /[\u3400-\u9fff]/, code);
  }
  assert.equal(errorText("room_full", "room 123456 is full", "zh"), "房间已满");
  assert.equal(errorText("room_full", "room 123456 is full", "en"), "The room is full (room 123456 is full)");
  assert.equal(errorText("who_knows", "detail", "zh"), "出错了");
  assert.equal(errorText("who_knows", "detail", "en"), "Something went wrong (detail)");
});
