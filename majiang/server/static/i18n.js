// Every label of the client in Chinese and English. Pattern, payment, counter and option
// names are not here: they come from the variant declarations (GET /api/variants), through
// words.js, whose pure helpers these wrap with the page's language.

import { choiceName, errorText, fillNote, inLang, itemNote, optionName, optionText } from "./words.js";

const STRINGS = {
  app: ["麻将", "Mahjong"],
  lang_switch: ["EN", "中文"],
  rules: ["规则", "Rules"],
  in_force: ["现在对你生效的限制", "In force for you now"],
  none_in_force: ["目前没有：你可以做规则允许的一切", "None right now: everything the rules allow is open to you"],
  why_now: ["限制", "Restricted"],
  close: ["关闭", "Close"],
  // lobby
  create_room: ["创建房间", "Create a room"],
  variant: ["玩法", "Rule set"],
  options: ["房间选项", "Room options"],
  hands: ["局数", "Hands"],
  turn_seconds: ["出牌时限（秒，0 为不限）", "Turn timer (seconds, 0 = none)"],
  your_name: ["你的名字", "Your name"],
  default_name: ["玩家", "Player"],
  seat_n: ["{n}号位", "Seat {n}"],
  human: ["真人", "Human"],
  bot_named: ["机器人 {bot}", "Bot {bot}"],
  bot_level: ["机器人 {level}（{bot}）", "Bot {level} ({bot})"],
  bot_level_name: ["机器人({level})", "Bot ({level})"],
  bot_plain: ["机器人", "Bot"],
  bot_seat: ["{wind}·{bot}", "{wind} · {bot}"],
  seat_winds: ["东家,南家,西家,北家", "East,South,West,North"],
  level_easy: ["简单", "Easy"],
  level_normal: ["普通", "Normal"],
  level_hard: ["困难", "Hard"],
  create: ["创建", "Create"],
  join_room: ["加入房间", "Join a room"],
  room_number: ["房间号", "Room number"],
  join: ["加入", "Join"],
  recent: ["最近对局", "Recent matches"],
  no_recent: ["还没有结束的对局", "No finished match yet"],
  replay: ["回放", "Replay"],
  open_record: ["打开对局记录文件", "Open a record file"],
  yes: ["是", "yes"],
  no: ["否", "no"],
  random: ["随机", "random"],
  default_is: ["默认 {v}", "default {v}"],
  at_least: ["至少 {v}", "at least {v}"],
  // room
  room: ["房间 {room}", "Room {room}"],
  share: ["分享链接", "Share link"],
  copy: ["复制", "Copy"],
  copied: ["已复制", "Copied"],
  free_seat: ["空位", "Free seat"],
  ready: ["准备", "Ready"],
  is_ready: ["已准备", "Ready"],
  not_ready: ["未准备", "Not ready"],
  online: ["在线", "online"],
  offline: ["离线", "offline"],
  bot: ["机器人", "bot"],
  add_bot: ["加机器人", "Add a bot"],
  remove_bot: ["移除", "Remove"],
  owner: ["房主", "owner"],
  you: ["你", "You"],
  you_after: ["（你）", " (you)"],
  dissolve: ["申请解散", "Ask to dissolve"],
  dissolve_cancel: ["撤回同意", "Withdraw my yes"],
  dissolve_agree: ["同意解散", "Agree to dissolve"],
  dissolve_refuse: ["拒绝解散", "Refuse"],
  dissolve_asked: ["{who} 申请解散房间，所有真人同意即解散，一人拒绝即继续对局", "{who} asks to dissolve the room; it closes when every human agrees, and one refusal ends the vote"],
  dissolve_yes: ["同意：{names}", "Agreed: {names}"],
  dissolve_no: ["拒绝：{names}", "Refused: {names}"],
  dissolve_open: ["未表态：{names}", "Not answered: {names}"],
  dissolve_left: ["投票剩余", "Vote closes in"],
  dissolve_mark_yes: ["同意解散", "agrees to dissolve"],
  dissolve_mark_no: ["拒绝解散", "refuses to dissolve"],
  waiting_players: ["等待玩家加入，人齐且都准备后开始", "Waiting for players; the match starts when all four are seated and ready"],
  spectating: ["观战中（只看公开信息）", "Watching (public information only)"],
  join_as: ["以新玩家加入", "Join as a new player"],
  room_started: ["对局已开始，可以观战", "The match has started; you can watch"],
  room_full: ["房间已满，可以观战", "The room is full; you can watch"],
  watch: ["观战", "Watch"],
  reconnecting: ["连接断开，正在重连…", "Connection lost, reconnecting…"],
  replaced: ["这个座位已在另一个窗口打开", "This seat was opened in another window"],
  not_found: ["没有这个房间", "No such room"],
  status_waiting: ["等待开始", "waiting"],
  status_playing: ["对局中", "playing"],
  status_finished: ["已结束", "finished"],
  status_dissolved: ["已解散", "dissolved"],
  // table
  hand_of: ["第 {n}/{m} 局", "Hand {n}/{m}"],
  tiles_left: ["余 {n} 张", "{n} tiles left"],
  dealer: ["庄", "Dealer"],
  winds: ["东南西北", "ESWN"],
  wind_names: ["东,南,西,北", "East,South,West,North"],
  auto: ["托管", "Auto-play"],
  auto_on: ["取消托管", "Stop auto-play"],
  auto_mark: ["托管中", "auto"],
  auto_banner: ["托管中", "Auto-play on"],
  auto_banner_why: ["机器人正按本桌节奏替你出牌，随时可以收回", "A bot is playing for you at the table's pace; take your seat back at any time"],
  hu: ["胡", "Win"],
  kong: ["杠", "Kong"],
  peng: ["碰", "Peng"],
  chi: ["吃", "Chi"],
  pass: ["过", "Pass"],
  discard: ["打出", "Discard"],
  escape: ["逃跑", "Leave"],
  your_turn: ["轮到你出牌：点一张牌选中，再点一次打出", "Your turn: tap a tile to select it, tap again to discard"],
  your_claim: ["{who} 打出 {tile}，你可以：", "{who} discarded {tile}; you may:"],
  your_rob: ["{who} 补杠 {tile}，你可以：", "{who} adds a kong of {tile}; you may:"],
  your_declare: ["你可以起手胡：", "You may declare an instant win:"],
  waiting_for: ["等待 {who}", "Waiting for {who}"],
  wild: ["赖子", "Wild"],
  indicator: ["翻牌", "Indicator"],
  flowers: ["花", "Flowers"],
  melds: ["副露", "Melds"],
  discards: ["牌河", "Discards"],
  ting: ["听牌提示", "Ready hints"],
  ting_after: ["打 {tile} 听：", "Discard {tile}, wait on:"],
  ting_now: ["听：", "Waiting on:"],
  unseen: ["剩 {n}", "{n} left"],
  log: ["记录", "Log"],
  in_hand: ["{n}张", "{n} tiles"],
  seconds: ["{n} 秒", "{n}s"],
  from_seat: ["来自 {who}", "from {who}"],
  hidden_kong: ["暗杠", "concealed kong"],
  zhuada: ["抓打：{who}", "Wild thrown by {who}"],
  known: ["熟张", "Seen tiles"],
  may_not_win: ["不能胡", "may not win"],
  threw_wild: ["打过{w}", "threw a {w}"],
  reserved_count: ["{name} {n}", "{name} {n}"],
  // log lines
  ev_discard: ["{who} 打出 {tile}", "{who} discards {tile}"],
  ev_draw: ["{who} 摸牌", "{who} draws"],
  ev_draw_own: ["你摸到 {tile}", "You draw {tile}"],
  ev_flower: ["{who} 补花 {tile}", "{who} exposes flower {tile}"],
  ev_chi: ["{who} 吃 {tiles}", "{who} chis {tiles}"],
  ev_peng: ["{who} 碰 {tiles}", "{who} pengs {tiles}"],
  ev_kong: ["{who} 杠 {tiles}", "{who} kongs {tiles}"],
  ev_kong_hidden: ["{who} 暗杠", "{who} declares a concealed kong"],
  ev_hu: ["{who} 胡了！", "{who} wins!"],
  ev_pass: ["{who} 过", "{who} passes"],
  ev_own_pass: ["你选择了过", "You passed"],
  ev_own_claim: ["你选择了 {what}", "You chose {what}"],
  ev_escape: ["{who} 逃跑", "{who} left the table"],
  escape_btn: ["逃跑（离开牌桌）", "Leave the table"],
  escape_title: ["确定离开牌桌？", "Leave the table?"],
  escape_cost: ["牌局进行中离开就是逃跑：你付给其他每家 {pen} 分（共 {all} 分），本局作废，整场对局结束。", "Mid-hand this is an escape (逃跑): you pay {pen} to each other seat ({all} in all), the hand is void and the match ends."],
  escape_free: ["牌局进行中离开就是逃跑：本房间的逃跑扣分为 0，谁也不付分，但本局作废，整场对局结束。", "Mid-hand this is an escape (逃跑): this room's escape penalty is 0, so nobody is paid, but the hand is void and the match ends."],
  escape_yes: ["确认逃跑", "Leave"],
  escape_no: ["留下继续", "Stay"],
  ev_hand_start: ["第 {n} 局开始，{who} 坐庄", "Hand {n} starts, {who} deals"],
  ev_resumed: ["回到第 {n} 局", "Back at hand {n}"],
  ev_ready: ["{who} 已准备", "{who} is ready"],
  ev_auto_on: ["{who} 进入托管", "{who} is on auto-play"],
  ev_auto_off: ["{who} 取消托管", "{who} is back"],
  ev_dissolve: ["{who} 申请解散", "{who} asks to dissolve the room"],
  ev_dissolve_yes: ["{who} 同意解散", "{who} agrees to dissolve"],
  ev_dissolve_no: ["{who} 拒绝解散", "{who} refuses to dissolve"],
  ev_dissolve_off: ["{who} 撤回同意", "{who} withdraws the yes"],
  ev_dissolve_over: ["解散投票结束，继续对局", "The dissolve vote is over; play goes on"],
  ev_dissolve_refused: ["{who} 拒绝解散，投票结束，继续对局", "{who} refuses: the dissolve vote is over and play goes on"],
  // settlement
  settlement: ["第 {n} 局结算", "Hand {n} settlement"],
  final: ["总结算", "Final results"],
  wins_by: ["{who} {how}", "{who}: {how}"],
  from_who: ["（{who} 放铳）", " (from {who})"],
  draw_hand: ["流局", "Drawn hand"],
  escaped: ["{who} 逃跑，本局作废，对局结束", "{who} left: the hand is void and the match ends"],
  winning_tile: ["和牌", "Winning tile"],
  patterns: ["牌型", "Patterns"],
  payments: ["结算明细", "Payments"],
  no_payments: ["无", "none"],
  pays: ["{a} → {b}", "{a} → {b}"],
  points: ["{n} 分", "{n} pts"],
  delta: ["本局", "This hand"],
  total: ["总分", "Total"],
  next_hand: ["下一局", "Next hand"],
  waiting_next: ["等待其他玩家…", "Waiting for the others…"],
  ready_in: ["自动准备倒计时", "auto-ready in"],
  all_hands: ["所有玩家的牌", "Everyone's tiles"],
  big_winner: ["大赢家", "Big winner"],
  wins: ["胡牌", "Wins"],
  self_draws: ["自摸", "Self-draws"],
  deal_ins: ["放铳", "Deal-ins"],
  player: ["玩家", "Player"],
  reason_hands: ["打满 {n} 局", "Hands played: {n}"],
  reason_escape: ["有人逃跑", "A player left"],
  reason_dissolved: ["房间解散", "Room dissolved"],
  back_lobby: ["返回大厅", "Back to the lobby"],
  watch_replay: ["观看回放", "Watch the replay"],
  // replay
  replay_of: ["对局回放 {room}", "Replay of {room}"],
  replay_file: ["对局记录回放", "Record replay"],
  step: ["第 {i}/{n} 步", "Step {i}/{n}"],
  prev: ["上一步", "Back"],
  next: ["下一步", "Forward"],
  prev_hand: ["上一局", "Previous hand"],
  next_hand_r: ["下一局", "Next hand"],
  first: ["开头", "Start"],
  last: ["结尾", "End"],
  keys_hint: ["键盘：← → 单步，↑ ↓ 换局", "Keys: ← → step, ↑ ↓ change hand"],
  deal: ["发牌", "Deal"],
  window_closed: ["吃碰杠的时机已过", "The claim window closed"],
  hand_over: ["本局结束", "The hand is over"],
  choose_file: ["选择文件", "Choose a file"],
  no_hands: ["还没有打完的局", "No finished hand yet"],
  // rules panel
  summary: ["一句话规则", "In one line"],
  restrictions: ["限制", "Restrictions"],
  pattern_values: ["牌型与分值", "Patterns and values"],
  options_now: ["本房间选项", "This room's options"],
  turn_limit: ["出牌时限", "Turn timer"],
  no_limit: ["不限", "none"],
  readings: ["本项目的解读", "How this project reads the rules"],
  // errors
  error: ["出错了：{m}", "Error: {m}"],
  net_error: ["连不上服务器", "Cannot reach the server"],
  bad_file: ["文件不是对局记录：{m}", "Not a record file: {m}"],
  not_json: ["内容读不出来", "its text cannot be read as a record"],
  room_number_bad: ["房间号是 6 位数字", "A room number has 6 digits"],
  // client
  offline_wait: ["正在重新连接，连上之前不能操作", "Reconnecting: nothing can be done until the seat is back"],
  offline_clock: ["重连中", "Reconnecting"],
  no_discard_now: ["这张现在不能打：{why}", "You may not discard this tile now: {why}"],
  no_discard_plain: ["这张现在不能打", "You may not discard this tile now"],
  not_offered_hu: ["没有胡：{why}", "No win offered: {why}"],
  not_offered_peng: ["没有碰：{why}", "No peng offered: {why}"],
  not_offered_kong: ["没有杠：{why}", "No kong offered: {why}"],
  not_offered_chi: ["没有吃：{why}", "No chi offered: {why}"],
  back_to_room: ["回到我的房间", "Back to my room"],
  back_room_line: ["房间 {room} · {variant} · {status}", "Room {room} · {variant} · {status}"],
  // table
  sound_on: ["声音：开", "Sound: on"],
  sound_off: ["声音：关", "Sound: off"],
  hints_on: ["听牌提示：开", "Hints: on"],
  hints_off: ["听牌提示：关", "Hints: off"],
};

const TILE_NUM = "一二三四五六七八九";
const SUIT_ZH = { m: "万", p: "筒", s: "条" };
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
const HONOR_ZH = ["东", "南", "西", "北", "白", "发", "中"];
const HONOR_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const FLOWER_ZH = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const FLOWER_EN = ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];

let lang = localStorage.getItem("majiang.lang") === "en" ? "en" : "zh";

/** The language in use: "zh" or "en". */
export function getLang() {
  return lang;
}

/** Switch the language (kept across visits). */
export function setLang(value) {
  lang = value === "en" ? "en" : "zh";
  localStorage.setItem("majiang.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

/** A label in the current language with {name} placeholders filled in. */
export function t(key, vars = {}) {
  const pair = STRINGS[key];
  if (!pair) return key;
  const text = pair[lang === "zh" ? 0 : 1];
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

/** Pick from a [zh, en] pair or a {zh, en} object. */
export function pick(pair) {
  return inLang(pair, lang);
}

/** A declared name (pattern, payment kind or reason, counter, purpose) of a variant, from
 * GET /api/variants; the id itself when the variant declares none. */
export function term(info, id) {
  if (!info || id == null) return String(id ?? "");
  const pattern = (info.patterns || []).find((p) => p.id === id);
  if (pattern) return pick(pattern);
  const named = info.terms && info.terms[id];
  return named ? pick(named) : String(id);
}

/** An option's label: its Chinese name, or in English its id in words ("base score"). */
export function optionLabel(option) {
  return optionName(option, lang);
}

/** An option value in words in the page's language (words.js choiceName). */
export function optionValueName(option, value) {
  return choiceName(option, value, lang);
}

/** Every option of a variant with the room's values, in words (words.js optionText). */
export function optionList(info, options) {
  return optionText(info, options, lang);
}

/** A declared rule, reading or pattern value in the page's language: `zhField` holds the
 * Chinese, `field` the English. */
export function pickField(obj, field, zhField = `${field}_zh`) {
  if (!obj) return "";
  return lang === "zh" ? obj[zhField] || "" : obj[field] || "";
}

/** A payment item's or reserved tile's note in the page's language, its seat marks named
 * by `seatName(seat)` and tile marks by the tile's name. */
export function noteText(item, seatName) {
  return fillNote(itemNote(item, lang), seatName, tileName);
}

/** A reserved tile's note ({zh, en}) with its marks filled. */
export function marksFilled(text, seatName) {
  return fillNote(text, seatName, tileName);
}


/** A refusal (an error code and the server's detail) as a sentence in the page's language. */
export function errorSentence(code, message) {
  return errorText(code, message, lang);
}

/** A variant's name (GET /api/variants gives `zh` and the English `name`). */
export function variantName(info) {
  if (!info) return "";
  return lang === "zh" ? info.zh : info.name;
}

/** A tile's name: 五筒 / "5 Dots". */
export function tileName(tile) {
  const n = Number(tile[0]);
  const suit = tile[1];
  if (suit === "z") return lang === "zh" ? HONOR_ZH[n - 1] : HONOR_EN[n - 1];
  if (suit === "f") return lang === "zh" ? FLOWER_ZH[n - 1] : FLOWER_EN[n - 1];
  return lang === "zh" ? TILE_NUM[n - 1] + SUIT_ZH[suit] : `${n} ${SUIT_EN[suit]}`;
}

export const GLYPHS = { TILE_NUM, SUIT_ZH, HONOR_ZH, FLOWER_ZH };

setLang(lang);
