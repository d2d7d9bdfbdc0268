// The replay viewer: a stored match (/replay/{room}) or an uploaded record file, stepped
// through frame by frame with every hand face up and each hand's settlement.

import { api, variantInfo } from "./api.js";
import { botNameMap, botSeatName } from "./botnames.js";
import { getLang, t, variantName } from "./i18n.js";
import { settlementHtml } from "./settle.js";
import { esc, tableHtml, uniqueNames } from "./table.js";
import { parseTiles, tileSvg } from "./tiles.js";
import { setWhere, showRulesButton, toast } from "./ui.js";

/** The viewer of one replay (GET /api/rooms/{room}/replay or POST /api/replay). */
export class Replay {
  constructor(app, room) {
    this.app = app;
    this.room = room;
    this.data = null;
    this.info = null;
    this.hand = 0;
    this.step = 0;
    this.keys = (e) => this.key(e);
  }

  async start() {
    setWhere(this.room ? t("replay_of", { room: this.room }) : t("replay_file"));
    showRulesButton(null);
    document.addEventListener("keydown", this.keys);
    this.app.onclick = (e) => this.click(e);
    if (this.room) {
      try {
        await this.load(await api(`/api/rooms/${encodeURIComponent(this.room)}/replay`));
      } catch (err) {
        this.app.innerHTML = `<div class="card"><p>${esc(t("error", { m: err.message }))}</p><p><a href="/">${esc(t("back_lobby"))}</a></p></div>`;
      }
    } else {
      this.drawUpload();
    }
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
  }

  drawUpload() {
    this.app.innerHTML = `<div class="card"><h2>${esc(t("replay_file"))}</h2>` +
      `<label class="button">${esc(t("choose_file"))} <input type="file" id="record-file" accept=".json,application/json"></label></div>` +
      `<div id="viewer"></div>`;
    this.app.querySelector("#record-file").onchange = async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      let record;
      try {
        record = JSON.parse(await file.text());
      } catch {
        toast(t("bad_file", { m: t("not_json") })); // the browser's own message is English
        return;
      }
      try {
        await this.load(await api("/api/replay", { method: "POST", body: record }));
      } catch (err) {
        toast(t("bad_file", { m: err.message }));
      }
    };
  }

  async load(data) {
    this.data = data;
    this.info = await variantInfo(data.variant);
    this.botNames = botNameMap(await api("/api/bots/names").catch(() => []));
    showRulesButton(this.info, data.options);
    this.hand = 0;
    this.step = 0;
    this.draw();
  }

  /** The players' names; a bot seat (the server names it by its bot id) by its wind in the
   * hand shown and its level, never the id. */
  names() {
    const players = this.data.players || [];
    const hand = this.data.hands[this.hand];
    const dealer = hand ? hand.dealer : 0;
    const named = (i) => (this.botNames && this.botNames[players[i]] ? botSeatName(i, dealer, players[i], this.botNames, t, getLang()) : players[i]);
    return uniqueNames([0, 1, 2, 3].map((i) => named(i) || t("seat_n", { n: i })));
  }

  key(e) {
    if (!this.data || e.target.closest("input, select, textarea")) return;
    const moves = { ArrowRight: ["step", 1], ArrowLeft: ["step", -1], ArrowDown: ["hand", 1], ArrowUp: ["hand", -1], Home: ["first"], End: ["last"] };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    this.move(...move);
  }

  click(e) {
    const el = e.target.closest("[data-move]");
    if (!el || !this.data) return;
    const [what, n] = el.getAttribute("data-move").split(":");
    this.move(what, Number(n));
  }

  move(what, n) {
    const hands = this.data.hands;
    if (!hands.length) return;
    const frames = () => hands[this.hand].frames.length;
    if (what === "step") {
      const next = this.step + n;
      if (next >= 0 && next < frames()) this.step = next;
      else if (next >= frames() && this.hand + 1 < hands.length) {
        this.hand += 1;
        this.step = 0;
      } else if (next < 0 && this.hand > 0) {
        this.hand -= 1;
        this.step = frames() - 1;
      }
    } else if (what === "hand") {
      this.hand = Math.min(hands.length - 1, Math.max(0, this.hand + n));
      this.step = 0;
    } else if (what === "first") this.step = 0;
    else if (what === "last") this.step = frames() - 1;
    this.draw();
  }

  describe(frame, index) {
    const names = this.names();
    const a = frame.action;
    if (!a) {
      if (index === 0) return t("deal");
      if (frame.phase === "end") return t("hand_over");
      if (frame.phase === "turn") return t("ev_draw", { who: esc(names[frame.current]) });
      return t("window_closed");
    }
    const who = esc(names[a.seat]);
    const tile = (x) => tileSvg(x, { cls: "s inline" });
    if (a.type === "discard") return t("ev_discard", { who, tile: tile(a.tile) });
    if (a.type === "chi") return t("ev_chi", { who, tiles: parseTiles(a.tiles).map(tile).join("") });
    if (a.type === "peng") return t("ev_peng", { who, tiles: "" });
    if (a.type === "kong") return t("ev_kong", { who, tiles: tile(a.tile) });
    if (a.type === "hu") return t("ev_hu", { who });
    if (a.type === "pass") return t("ev_pass", { who });
    return t("ev_escape", { who });
  }

  draw() {
    const root = this.room ? this.app : this.app.querySelector("#viewer") || this.app;
    const data = this.data;
    if (!data.hands.length) {
      root.innerHTML = `<div class="card"><p>${esc(t("no_hands"))}</p></div>`;
      return;
    }
    const hand = data.hands[this.hand];
    const frame = hand.frames[this.step];
    const names = this.names();
    const last = this.step === hand.frames.length - 1;
    const seats = frame.seats.map((s, i) => ({
      ...s,
      name: names[i],
      hand_size: parseTiles(s.hand).length,
      bot: null,
      auto: false,
      connected: true,
    }));
    const lastDiscard = frame.action && frame.action.type === "discard" ? frame.action.seat : null;
    const model = {
      info: this.info,
      seats,
      mine: null,
      bottom: 0,
      dealer: hand.dealer,
      current: frame.current,
      phase: frame.phase,
      wild: hand.wild,
      revealed: hand.revealed,
      counters: hand.counters,
      liveTiles: frame.live,
      handLabel: t("hand_of", { n: hand.index + 1, m: data.hands.length }),
      lastDiscard,
      faceUp: true,
      variantState: frame.variant_state,
    };
    const center = `<div class="prompt">${this.describe(frame, this.step)}</div>` +
      `<div class="muted">${esc(t("step", { i: this.step + 1, n: hand.frames.length }))}</div>`;
    const nav = `<div class="row replay-nav">` +
      `<button type="button" data-move="hand:-1" title="↑">${esc(t("prev_hand"))}</button>` +
      `<button type="button" data-move="first:0">${esc(t("first"))}</button>` +
      `<button type="button" data-move="step:-1" title="←" id="prev">${esc(t("prev"))}</button>` +
      `<button type="button" data-move="step:1" title="→" id="next" class="primary">${esc(t("next"))}</button>` +
      `<button type="button" data-move="last:0">${esc(t("last"))}</button>` +
      `<button type="button" data-move="hand:1" title="↓">${esc(t("next_hand_r"))}</button></div>` +
      `<p class="muted keys">${esc(t("keys_hint"))}</p>`;
    const ctx = { info: this.info, names, mine: null, hands: data.hands.length };
    const settle = last ? `<div class="card settle">${settlementHtml(ctx, hand.settlement, null)}</div>` : "";
    root.innerHTML = `<div class="replay">${nav}${tableHtml(model, center)}${settle}</div>`;
    setWhere(`${this.room ? t("replay_of", { room: this.room }) : t("replay_file")} · ${variantName(this.info)}`);
  }
}
