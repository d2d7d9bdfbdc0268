// Words a player reads that come from the variant declarations (GET /api/variants) or the
// server's codes: option values by name, payment notes with their seat and tile marks filled,
// bot levels, and every error code as a sentence. Pure functions of their arguments and a
// language ("zh" or "en"): no DOM, so node can import and test them (tests/js).

/** One of a [zh, en] pair or a {zh, en} object in `lang`. */
export function inLang(pair, lang) {
  if (!pair) return "";
  if (Array.isArray(pair)) return pair[lang === "zh" ? 0 : 1] ?? "";
  return (lang === "zh" ? pair.zh : pair.en) ?? "";
}

const YES_NO = { true: ["是", "yes"], false: ["否", "no"] };

/** An option value in words: a choice's declared name, 是/否 for a bool, the number for an
 * int. A value the declaration does not name is shown as it is (never expected). */
export function choiceName(option, value, lang) {
  if (option.kind === "bool") return inLang(YES_NO[Boolean(value)], lang);
  if (option.kind === "choice") {
    const i = (option.choices || []).findIndex((c) => c === value);
    if (i >= 0 && option.choice_names && option.choice_names[i]) return inLang(option.choice_names[i], lang);
  }
  return String(value);
}

/** An option's name in `lang`. */
export function optionName(option, lang) {
  return lang === "zh" ? option.zh : option.en;
}

/** An option's hint (its doc line) in `lang`. */
export function optionHint(option, lang) {
  return lang === "zh" ? option.doc_zh || "" : option.doc || "";
}

/** Every option of a variant with the room's value (its default when `options` leaves it
 * out), in words: [{id, name, value, hint, isDefault}]. The lobby, the waiting room and the
 * rules panel all show options through this. */
export function optionText(info, options, lang) {
  return ((info && info.options) || []).map((o) => {
    const value = options && Object.prototype.hasOwnProperty.call(options, o.id) ? options[o.id] : o.default;
    return {
      id: o.id,
      name: optionName(o, lang),
      value: choiceName(o, value, lang),
      hint: optionHint(o, lang),
      isDefault: value === o.default,
    };
  });
}

const MARK = /\{(S[0-3]|[1-9][mpszf])\}/g;

/** A payment or reserved-tile note with its marks filled: `{S2}` by `seatName(2)`, `{5m}`
 * by `tileName("5m")` (docs/protocol.md, settlements). */
export function fillNote(text, seatName, tileName) {
  return String(text || "").replace(MARK, (_, mark) => (mark[0] === "S" ? seatName(Number(mark[1])) : tileName(mark)));
}

/** A payment item's note in `lang` (its `notes`); the neutral `note` only from a server
 * that sends no `notes`. */
export function itemNote(item, lang) {
  if (item.notes) return inLang(item.notes, lang);
  return item.note || "";
}

/** The sentence of every error code the server sends (docs/protocol.md, errors), [zh, en]. */
export const ERRORS = {
  // HTTP
  not_found: ["没有这个房间", "No such room"],
  forbidden: ["只有房主可以这样做", "Only the room's owner may do that"],
  bad_variant: ["没有这个玩法", "There is no such rule set"],
  bad_option: ["房间选项不对", "A room option is not allowed"],
  bad_seat: ["机器人只能坐 1、2、3 号位", "Bots sit in seats 1, 2 or 3 only"],
  bad_bot: ["没有这种机器人", "There is no such bot"],
  too_many_rooms: ["你开的房间太多了，请先结束一些", "You hold too many open rooms; finish some first"],
  no_number: ["暂时没有空闲的房间号，请再试一次", "No free room number just now; try again"],
  invalid: ["填写的内容不对，请检查后再试", "Something in the form is not valid; check and try again"],
  method_not_allowed: ["不支持这个操作", "That request is not supported"],
  http: ["请求失败", "The request failed"],
  internal: ["服务器出错了，请稍后再试", "The server failed; try again later"],
  store: ["服务器暂时无法保存，请稍后再试", "The server cannot save right now; try again later"],
  moved: ["房间换了服务器，请再试一次", "The room moved to another server; try again"],
  unavailable: ["房间暂时无法访问，请稍后再试", "The room cannot be reached right now; try again later"],
  bus: ["服务器之间连接中断，请稍后再试", "The servers lost touch with each other; try again later"],
  network: ["连不上服务器", "Cannot reach the server"],
  bad_record: ["文件不是能回放的对局记录", "The file is not a record that replays"],
  // seats and rooms
  room_full: ["房间已满", "The room is full"],
  started: ["对局已开始，座位不能再改", "The match has started: seats are fixed"],
  seat_taken: ["这个座位已经有人了", "That seat is taken"],
  not_a_bot: ["这个座位上不是机器人", "That seat holds no bot"],
  bad_token: ["这个座位的凭证无效", "This seat's token is not valid"],
  // the table (WebSocket)
  spectator: ["观战时不能操作", "Spectators cannot act"],
  closed: ["房间已经结束", "The room is closed"],
  in_hand: ["牌局进行中，准备要等这一局结束", "A hand is in play: getting ready is for between hands"],
  already: ["已经这样做过了", "That is already done"],
  bad_message: ["消息格式不对", "The message was not understood"],
  no_hand: ["现在没有进行中的牌局", "No hand is in play"],
  wrong_seat: ["这不是你的座位", "That is not your seat"],
  bad_action: ["这个操作不对", "That action is not valid"],
  auto_on: ["托管中：先取消托管再操作", "Auto-play is on: turn it off first"],
  illegal: ["现在不能这样做", "That is not allowed now"],
  rate_limited: ["操作太快了，请稍等", "Too many actions at once; wait a moment"],
  too_large: ["消息太大", "The message is too large"],
  bad_log: ["房间记录损坏", "The room's record is damaged"],
};

/** What a refused call or message says to a player: the code's sentence in `lang`; on the
 * English page the server's own detail follows it (it names the field or value). */
export function errorText(code, message, lang) {
  const words = ERRORS[code] || (lang === "zh" ? ["出错了", ""] : ["", "Something went wrong"]);
  const head = inLang(words, lang);
  if (lang === "zh" || !message || message === head) return head;
  return `${head} (${message})`;
}
