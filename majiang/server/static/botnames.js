// Bot seats as players read them: the seat's wind in the hand (门风, from the dealer: the
// wind the table marks the seat with) and the bot's display name from GET /api/bots/names
// (东家·机器人(普通), East · Bot (normal)), never the bot's id. Pure (the labels come
// through `t`), so node can import it (tests/js/botnames.test.mjs).

/** {id: {zh, en}} from GET /api/bots/names' list (no inherited keys). */
export function botNameMap(list) {
  const map = Object.create(null); // no inherited keys: a player named "toString" is no bot
  for (const b of list || []) map[b.id] = { zh: b.zh, en: b.en };
  return map;
}

/** The bot's level as shown: 机器人(普通); 机器人 alone for a bot without a display name. */
export function botLevel(bot, names, t, lang) {
  const named = names && names[bot];
  return named ? t("bot_level_name", { level: lang === "en" ? named.en : named.zh }) : t("bot_plain");
}

/** The dealer the seats' winds count from: the hand's, else a fixed first dealer (the
 * room's `first_dealer` option), else seat 0 (before a drawn first dealer is known). */
export function windDealer(dealer, options) {
  if (Number.isInteger(dealer)) return dealer;
  const first = options ? options.first_dealer : null;
  return Number.isInteger(first) ? first : 0;
}

/** A bot seat's name: its wind from `dealer` (the dealer 东家 … 北家) and its level. */
export function botSeatName(seat, dealer, bot, names, t, lang) {
  const wind = t("seat_winds").split(",")[(seat - dealer + 4) % 4];
  return t("bot_seat", { wind, bot: botLevel(bot, names, t, lang) });
}
