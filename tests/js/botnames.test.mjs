// botnames.js: a bot seat is named by its seat's wind and the bot's display name, in the
// page's language, never by the bot's id.
import assert from "node:assert/strict";
import { test } from "node:test";

import { botLevel, botNameMap, botSeatName, windDealer } from "../../majiang/server/static/botnames.js";

const LABELS = {
  zh: { bot_plain: "机器人", bot_level_name: "机器人({level})", bot_seat: "{wind}·{bot}", seat_winds: "东家,南家,西家,北家" },
  en: { bot_plain: "Bot", bot_level_name: "Bot ({level})", bot_seat: "{wind} · {bot}", seat_winds: "East,South,West,North" },
};
const tr = (lang) => (key, vars = {}) => LABELS[lang][key].replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));
const names = botNameMap([
  { id: "greedy", zh: "普通", en: "normal" },
  { id: "greedy+", zh: "高手", en: "expert" },
]);

test("a bot seat is its wind in the hand and its level in the page's language", () => {
  assert.equal(botSeatName(0, 0, "greedy", names, tr("zh"), "zh"), "东家·机器人(普通)");
  assert.equal(botSeatName(3, 0, "greedy+", names, tr("zh"), "zh"), "北家·机器人(高手)");
  assert.equal(botSeatName(1, 0, "greedy", names, tr("en"), "en"), "South · Bot (normal)");
  // the wind counts from the dealer, as the table's wind marks do
  assert.equal(botSeatName(2, 2, "greedy", names, tr("zh"), "zh"), "东家·机器人(普通)");
  assert.equal(botSeatName(1, 2, "greedy", names, tr("zh"), "zh"), "北家·机器人(普通)");
});

test("the dealer the winds count from: the hand's, a fixed first dealer, else seat 0", () => {
  assert.equal(windDealer(3, { first_dealer: 1 }), 3);
  assert.equal(windDealer(null, { first_dealer: 1 }), 1);
  assert.equal(windDealer(null, { first_dealer: "random" }), 0);
  assert.equal(windDealer(undefined, null), 0);
});

test("a bot without a display name (or before they load) is never shown by its id", () => {
  assert.equal(botSeatName(2, 0, "mystery", names, tr("zh"), "zh"), "西家·机器人");
  assert.equal(botSeatName(2, 0, "greedy", {}, tr("en"), "en"), "West · Bot");
  assert.equal(botLevel("greedy", null, tr("zh"), "zh"), "机器人");
  for (const lang of ["zh", "en"]) {
    assert.ok(!botSeatName(1, 0, "mystery", names, tr(lang), lang).includes("mystery"));
  }
});

test("the add-bot list shows the level", () => {
  assert.equal(botLevel("greedy+", names, tr("zh"), "zh"), "机器人(高手)");
  assert.equal(botLevel("greedy+", names, tr("en"), "en"), "Bot (expert)");
});

test("a name that is no bot id is no bot, inherited object keys included", () => {
  assert.equal(names.toString, undefined);
  assert.equal(names.constructor, undefined);
  assert.equal(names.greedy.zh, "普通");
});
