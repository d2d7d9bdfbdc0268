// A room in play: the WebSocket of docs/protocol.md 2, the View kept from its events, and
// the screens of a room: join, waiting room, table, settlement, final results.

import { api, dropSeat, heldSeat, keepName, keepSeat, lastName, variantInfo } from "./api.js";
import { botLevel, botNameMap, botSeatName, windDealer } from "./botnames.js";
import { errorSentence, getLang, optionList, pick, pickField, t, tileName, variantName } from "./i18n.js";
import { discardWhy, missedOffers, reasonText } from "./reasons.js";
import { finalHtml, settlementHtml } from "./settle.js";
import { claimOrder, motionKey, newMotion, pointerSeat } from "./layout.js";
import { hintsButton, hintsOn, playSound, soundButton, toggleHints, toggleSound } from "./sound.js";
import { esc, tableHtml, uniqueNames, windOf } from "./table.js";
import { formatTiles, parseTiles, sortTiles, tileSvg } from "./tiles.js";
import { confirmBox, countdownHtml, refreshRules, setWhere, showRulesButton, toast } from "./ui.js";

const LOG_KEEP = 40;
/** The buttons that ask the server for something: refused on the page while it is offline. */
const PLAY_ACTS = new Set(["action", "discard-selected", "ready", "auto", "dissolve-yes", "dissolve-no", "escape", "add-bot", "remove-bot"]);

/** Remove tiles (single tiles) from notation, as a hand event does to the viewer's hand. */
function removeTiles(hand, tiles) {
  const held = parseTiles(hand);
  for (const x of tiles) {
    const i = held.indexOf(x);
    if (i >= 0) held.splice(i, 1);
  }
  return formatTiles(held);
}

/** The game of one room in the page. */
export class Game {
  constructor(app, room) {
    this.app = app;
    this.number = room;
    this.held = heldSeat(room);
    this.ws = null;
    this.room = null; // public room state
    this.info = null; // the variant's declaration
    this.seat = null;
    this.view = null;
    this.legal = [];
    this.deadline = null;
    this.restrictions = []; // in force for this seat now: [{id, detail}] (docs/protocol.md)
    this.seq = -1;
    this.waitingSnapshot = false;
    this.lastDiscard = null;
    this.log = [];
    this.lapseAt = null; // the deadline of the open dissolve vote a redraw is set for
    this.handEnd = null; // the last hand_end message while between hands
    this.matchEnd = null;
    this.settlements = new Map(); // index -> explained settlement
    this.selected = null;
    this.waits = new Map(); // hand key -> hints (POST /api/waits)
    this.reserved = new Map(); // counters key -> reserved counts
    this.closedFor = null; // why the connection will not come back
    this.retry = 0;
    this.poller = null;
    this.renderQueued = false;
    this.acted = 0; // actions sent so far ...
    this.drawnActed = 0; // ... and how many of them the screen drawn last had seen
    this.stopped = false;
    this.offline = false; // the connection dropped: no action until a snapshot on a new socket
    this.legalGen = 0; // how many times `legal` was set from the server ...
    this.drawnGen = 0; // ... and which of them the buttons on screen were drawn for
    this.inert = false; // an action was sent: nothing more until the next `legal` arrives
    this.sentAt = 0; // when the last action was sent (Date.now())
    this.botChoice = {}; // seat -> the bot chosen in its select (kept across redraws)
    this.botNames = botNameMap([]); // bot id -> {zh, en} (GET /api/bots/names)
    this.dealer = null; // the dealer of the hand in play or just ended: bot seats' winds
    app.onclick = (e) => this.click(e);
    app.onchange = (e) => {
      const select = e.target.closest("select[data-bot-for]");
      if (select) this.botChoice[select.getAttribute("data-bot-for")] = select.value;
    };
  }

  // -- start ------------------------------------------------------------------------------
  async start() {
    setWhere(t("room", { room: this.number }));
    let state;
    try {
      state = await api(`/api/rooms/${encodeURIComponent(this.number)}`);
    } catch (err) {
      this.app.innerHTML = `<div class="card"><p>${esc(err.code === "not_found" ? t("not_found") : t("error", { m: err.message }))}</p>` +
        `<p><a href="/">${esc(t("back_lobby"))}</a></p></div>`;
      return;
    }
    this.room = state;
    this.info = await variantInfo(state.variant);
    api("/api/bots/names")
      .then((list) => {
        this.botNames = botNameMap(list);
        this.render();
      })
      .catch(() => {}); // bot seats are named by wind alone meanwhile
    showRulesButton(this.info, state.options, () => (this.seat != null && this.view ? this.restrictionItems() : null));
    if (this.held) {
      this.connect();
    } else {
      this.renderJoin();
    }
    this.poller = setInterval(() => this.poll(), 3000);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.poller);
    if (this.ws) this.ws.close(1000);
  }

  /** Connection flags are not pushed: the page reads them every few seconds. */
  async poll() {
    if (this.stopped || !this.room || !this.ws || document.hidden) return;
    try {
      const state = await api(`/api/rooms/${encodeURIComponent(this.number)}`);
      if (this.stopped) return;
      for (const s of state.seats) {
        const mine = this.room.seats[s.seat];
        if (mine) mine.connected = s.connected;
      }
      this.render();
    } catch {
      // the next poll tries again
    }
  }

  renderJoin() {
    const st = this.room;
    const open = st.status === "waiting" && st.seats.some((s) => s.name == null);
    const why = st.status !== "waiting" ? t("room_started") : t("room_full");
    const form = open
      ? `<form id="join-form" class="row"><label>${esc(t("your_name"))} <input name="name" maxlength="32" required value="${esc(lastName() || t("default_name"))}"></label>` +
        `<button type="submit" class="primary">${esc(t("join"))}</button></form>`
      : `<p>${esc(why)}</p>`;
    this.app.innerHTML = `<div class="card"><h2>${esc(t("room", { room: this.number }))} · ${esc(variantName(this.info))}</h2>${this.roomInfoHtml()}${form}` +
      `<p><button type="button" data-act="watch">${esc(t("watch"))}</button></p></div>`;
    const f = this.app.querySelector("#join-form");
    if (f) {
      f.onsubmit = async (e) => {
        e.preventDefault();
        const name = f.elements.name.value.trim() || t("default_name");
        try {
          const seat = await api(`/api/rooms/${this.number}/join`, { method: "POST", body: { name } });
          keepName(name);
          this.held = { seat: seat.seat, token: seat.token, name };
          keepSeat(this.number, this.held);
          this.connect();
        } catch (err) {
          toast(t("error", { m: err.message }));
        }
      };
    }
  }

  // -- the connection --------------------------------------------------------------------
  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.held ? `?token=${encodeURIComponent(this.held.token)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.number)}${q}`);
    this.ws = ws;
    this.seq = -1;
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onopen = () => {
      this.retry = 0;
      this.connected = true;
      this.render();
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.connected = false;
      if (this.stopped) return;
      this.offline = true;
      if (e.code === 4401) {
        dropSeat(this.number);
        this.held = null;
        this.renderJoin();
        return;
      }
      if (e.code === 4000) this.closedFor = t("replaced");
      else if (e.code === 4404) this.closedFor = t("not_found");
      else if (this.room && ["finished", "dissolved"].includes(this.room.status)) this.closedFor = "";
      if (this.closedFor != null) {
        this.render();
        return;
      }
      this.retry += 1;
      this.render();
      setTimeout(() => !this.stopped && this.ws === ws && this.connect(), Math.min(5000, 500 * this.retry));
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  // -- messages ----------------------------------------------------------------------------
  receive(msg) {
    if (msg.type === "error") {
      this.onError(msg);
      return;
    }
    if (msg.type === "snapshot") {
      this.onSnapshot(msg);
      this.render();
      return;
    }
    if (this.waitingSnapshot) return;
    if (msg.seq > this.seq + 1 && this.seq >= 0) {
      this.waitingSnapshot = true;
      this.send({ type: "snapshot" });
      return;
    }
    const fresh = msg.seq > this.seq;
    this.seq = Math.max(this.seq, msg.seq);
    if (msg.type === "event") this.onEvent(msg, fresh);
    else if (msg.type === "hand_end") this.onHandEnd(msg);
    else if (msg.type === "match_end") this.onMatchEnd(msg);
    this.render();
  }

  onError(msg) {
    const known = { rate_limited: true, already: true };
    if (!known[msg.code]) toast(t("error", { m: errorSentence(msg.code, msg.message) }));
    if (msg.code === "rate_limited" && this.waitingSnapshot) {
      setTimeout(() => this.send({ type: "snapshot" }), 1000); // the request itself was refused
    }
    if (["illegal", "bad_action", "no_hand", "auto_on", "wrong_seat"].includes(msg.code)) {
      this.send({ type: "snapshot" });
    }
  }

  onSnapshot(msg) {
    this.snapshots = (this.snapshots || 0) + 1;
    this.offline = false;
    this.newLegal();
    this.waitingSnapshot = false;
    this.seq = msg.seq;
    this.room = msg.room;
    this.seat = msg.seat;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.deadline = msg.deadline;
    this.restrictions = msg.restrictions || [];
    if (this.view) {
      this.handEnd = null;
      this.lastDiscard = this.view.window_from;
      if (!this.log.length) this.addLog(t("ev_resumed", { n: this.room.hand_index + 1 }));
    } else if (this.room.hand_index > 0 && this.room.status !== "waiting") {
      this.loadSettlements();
    }
    if (["finished", "dissolved"].includes(this.room.status) && !this.matchEnd) {
      this.matchEnd = { totals: this.room.totals, reason: this.room.status === "dissolved" ? "dissolved" : "hands" };
    }
  }

  /** The server set `legal` anew: the buttons drawn next may act again. */
  newLegal() {
    this.legalGen += 1;
    this.inert = false;
  }

  addLog(line) {
    this.log.push(line);
    if (this.log.length > LOG_KEEP) this.log.shift();
  }

  onEvent(msg, fresh) {
    const ev = msg.event;
    this.legal = msg.legal || [];
    this.newLegal();
    this.deadline = msg.deadline;
    if (fresh) this.restrictions = msg.restrictions || []; // an echo of an own decision tells none
    if (fresh && this.view && msg.table) this.view.turn_deadline = msg.table.turn_deadline ?? null; // 托管 on or off changes it
    if (ev.type === "hand_start") {
      this.view = ev.view;
      this.dealer = ev.dealer;
      this.handEnd = null;
      this.lastDiscard = null;
      this.selected = null;
      this.log = [];
      this.room.status = "playing";
      this.room.hand_index = ev.index;
      for (const s of this.room.seats) s.ready = false;
      this.addLog(t("ev_hand_start", { n: ev.index + 1, who: esc(this.who(ev.dealer)) }));
      return;
    }
    if (ev.type === "ready") {
      this.room.seats[ev.seat].ready = true;
      if (ev.seat !== this.seat) this.addLog(t("ev_ready", { who: esc(this.who(ev.seat)) }));
      return;
    }
    if (ev.type === "auto") {
      this.room.seats[ev.seat].auto = ev.on;
      if (ev.on && !this.view && !this.paced()) this.room.seats[ev.seat].ready = true;
      this.addLog(t(ev.on ? "ev_auto_on" : "ev_auto_off", { who: esc(this.who(ev.seat)) }));
      return;
    }
    if (ev.type === "dissolve") {
      const before = this.dissolveVote();
      const had = before ? before.votes[ev.seat] : null;
      this.room.dissolve = ev.request ?? null;
      let line = "ev_dissolve_yes";
      if (!before && ev.vote) line = "ev_dissolve";
      else if (!ev.vote) line = had ? "ev_dissolve_off" : "ev_dissolve_refused";
      this.addLog(t(line, { who: esc(this.who(ev.seat)) }));
      if (before && !this.room.dissolve && line !== "ev_dissolve_refused") this.addLog(t("ev_dissolve_over"));
      return;
    }
    if (!fresh) {
      // the seat's own decision in a window, not yet a room event
      this.addLog(ev.type === "pass" ? t("ev_own_pass") : t("ev_own_claim", { what: t(ev.type) }));
      return;
    }
    if (!this.view || !msg.table) return;
    this.applyHandEvent(ev);
    Object.assign(this.view, msg.table);
  }

  applyHandEvent(ev) {
    const view = this.view;
    const me = view.seat;
    const seat = view.seats[ev.seat];
    const own = ev.seat === me;
    const who = esc(this.who(ev.seat));
    const kind = ev.type;
    if (kind === "discard") {
      seat.discards.push(ev.tile);
      seat.hand_size -= 1;
      if (own) {
        seat.hand = removeTiles(seat.hand, [ev.tile]);
        seat.drawn = null;
        this.selected = null;
      }
      this.lastDiscard = ev.seat;
      this.addLog(t("ev_discard", { who, tile: this.tileWord(ev.tile) }));
    } else if (kind === "draw") {
      seat.hand_size += 1;
      if (own && ev.tile) {
        seat.hand = formatTiles([...parseTiles(seat.hand), ev.tile]);
        seat.drawn = ev.tile;
        this.addLog(t("ev_draw_own", { tile: this.tileWord(ev.tile) }));
      }
    } else if (kind === "flower") {
      seat.flowers.push(ev.tile); // a drawn flower never joins the hand: the replacement does
      this.addLog(t("ev_flower", { who, tile: this.tileWord(ev.tile) }));
    } else if (kind === "chi" || kind === "peng" || kind === "kong") {
      const meld = ev.meld;
      if (ev.from != null) {
        const taken = view.seats[ev.from].discards.pop();
        seat.melds.push(meld);
        const n = kind === "kong" ? 3 : 2;
        seat.hand_size -= n;
        if (own) {
          seat.hand = removeTiles(seat.hand, ev.tiles ? parseTiles(ev.tiles) : Array(n).fill(taken));
          seat.drawn = null;
        }
        if (this.lastDiscard === ev.from) this.lastDiscard = null;
      } else if (meld.kind === "kong_added") {
        const i = seat.melds.findIndex((m) => m.kind === "peng" && parseTiles(m.tiles)[0] === ev.tile);
        if (i >= 0) seat.melds[i] = meld;
        else seat.melds.push(meld);
        seat.hand_size -= 1;
        if (own) {
          seat.hand = removeTiles(seat.hand, ev.tiles ? parseTiles(ev.tiles) : [ev.tile]);
          seat.drawn = null;
        }
      } else {
        seat.melds.push(meld);
        seat.hand_size -= 4;
        if (own) {
          seat.hand = removeTiles(seat.hand, ev.tiles ? parseTiles(ev.tiles) : Array(4).fill(ev.tile));
          seat.drawn = null;
        }
      }
      const hidden = meld.kind === "kong_concealed" && !meld.tiles;
      const tiles = parseTiles(meld.tiles).map((x) => this.tileWord(x)).join(" ");
      this.addLog(hidden ? t("ev_kong_hidden", { who }) : t(`ev_${kind}`, { who, tiles }));
    } else if (kind === "hu") {
      playSound("win");
      this.addLog(t("ev_hu", { who }));
    } else if (kind === "pass") {
      this.addLog(t("ev_pass", { who }));
    } else if (kind === "escape") {
      this.addLog(t("ev_escape", { who }));
    }
  }

  onHandEnd(msg) {
    this.handEnd = msg;
    this.dealer = msg.result.dealer ?? this.dealer;
    this.view = null;
    this.legal = [];
    this.newLegal();
    this.restrictions = [];
    this.deadline = msg.deadline;
    this.room.totals = msg.totals;
    this.room.hand_index = msg.result.index + 1;
    for (const s of this.room.seats) s.ready = Boolean(s.bot || (s.auto && !this.paced()));
    this.loadSettlements();
  }

  onMatchEnd(msg) {
    this.matchEnd = msg;
    this.room.totals = msg.totals;
    this.room.status = msg.reason === "dissolved" ? "dissolved" : "finished";
    this.deadline = null;
    this.loadSettlements();
  }

  async loadSettlements() {
    try {
      const list = await api(`/api/rooms/${encodeURIComponent(this.number)}/settlements`);
      for (const s of list) this.settlements.set(s.index, s);
      this.render();
    } catch (err) {
      toast(t("error", { m: err.message }));
    }
  }

  // -- helpers -----------------------------------------------------------------------------
  who(seat) {
    if (seat === this.seat) return t("you");
    const name = this.room ? this.names()[seat] : null;
    return name || t("seat_n", { n: seat });
  }

  /** The seats' names as shown (shared names numbered); a bot seat by its wind in the
   * hand and its level (东家·机器人(普通)), never its id. */
  names() {
    const dealer = this.windsFrom();
    return uniqueNames(this.room.seats.map((s) => (s.bot ? botSeatName(s.seat, dealer, s.bot, this.botNames, t, getLang()) : s.name)));
  }

  /** The dealer the seats' winds count from now: the hand's, the last hand's, or the
   * room's fixed first dealer (botnames.js windDealer). */
  windsFrom() {
    return windDealer(this.view ? this.view.dealer : this.dealer, this.room.options);
  }

  /** Does the room hold back bot and 托管 decisions (its bot_delay_ms)? A 托管 seat is
   * then ready between hands only once the server says so. */
  paced() {
    const pace = this.room && this.room.bot_delay_ms;
    return Boolean(pace && pace[1] > 0);
  }

  /** On this seat's own screen while it is on 托管: 托管中 and a large 取消托管. */
  autoHtml() {
    const me = this.seat != null && this.room ? this.room.seats[this.seat] : null;
    if (!me || !me.auto || ["finished", "dissolved"].includes(this.room.status)) return "";
    return `<div class="auto-overlay" role="status"><div><b>${esc(t("auto_banner"))}</b> <span>${esc(t("auto_banner_why"))}</span></div>` +
      `<button type="button" class="primary auto-cancel" data-act="auto">${esc(t("auto_on"))}</button></div>`;
  }

  /** The restrictions in force for this seat now, as the rules panel and the table show
   * them: the declared name, and the declared sentence with its detail (tiles, seats). */
  restrictionItems() {
    const declared = (this.info && this.info.restrictions) || [];
    return this.restrictions.map((r) => {
      const d = declared.find((x) => x.id === r.id);
      const name = d ? esc(pick(d)) : esc(r.id);
      const words = d ? (d.now ? pick(d.now) : pickField(d, "rule")) : "";
      const parts = String(words).split("{}");
      const reason = parts.map((p) => esc(p)).join(this.detailHtml(r.detail));
      return { id: r.id, name, reason, short: d ? esc(pick(d)) : esc(r.id) };
    });
  }

  /** A restriction's detail in words: seats by name, tiles drawn. */
  detailHtml(detail) {
    const text = String(detail || "");
    if (/^S\d( S\d)*$/.test(text)) return text.split(" ").map((x) => esc(this.who(Number(x.slice(1))))).join(", ");
    try {
      const tiles = parseTiles(text);
      if (tiles.length) return tiles.map((x) => this.tileWord(x)).join("");
    } catch {
      // not tiles: shown as it is
    }
    return esc(text);
  }

  /** A restriction's detail as plain text (a toast): seats by name, tiles by name. */
  detailText(detail) {
    const text = String(detail || "");
    if (/^S\d( S\d)*$/.test(text)) return text.split(" ").map((x) => this.who(Number(x.slice(1)))).join(", ");
    const tiles = parseTiles(text);
    return tiles.length ? tiles.map((x) => tileName(x)).join("") : text;
  }

  declaredRestrictions() {
    return (this.info && this.info.restrictions) || [];
  }

  /** The wins and claims the seat might expect but is not offered now, each with why, in
   * a line under the buttons (reasons.js `missedOffers`). */
  missedHtml() {
    const view = this.view;
    if (!view || this.seat == null) return "";
    const mine = view.seats[this.seat];
    const hand = parseTiles(mine.hand);
    const found = this.hints();
    const hints = found || [];
    const declared = this.declaredRestrictions();
    const turn = view.phase === "turn";
    const entry = turn ? hints.find((h) => h.discard === mine.drawn) : hints.find((h) => h.discard == null);
    const missed = missedOffers({
      phase: view.phase,
      seat: this.seat,
      current: view.current,
      windowTile: view.window_tile,
      windowFrom: view.window_from,
      drawn: turn ? mine.drawn : null,
      hand,
      wild: view.wild,
      chi: !declared.some((d) => d.id === "no_chi"),
      legal: this.legal,
      inForce: this.restrictions,
      declared,
      waits: found == null ? null : entry ? entry.waits : [],
    });
    if (!missed.length) return "";
    const lines = missed.map((m) => {
      const why = m.reasons.map((r) => reasonText(r, getLang(), (d) => this.detailHtml(d), esc)).join("；");
      return `<div class="missed" data-missed="${esc(m.what)}">${t(`not_offered_${m.what}`, { why })}</div>`;
    });
    return `<div class="missed-offers">${lines.join("")}</div>`;
  }

  tileWord(tile) {
    return tileSvg(tile, { cls: "s inline", wild: this.view && tile === this.view.wild });
  }

  // -- the player's decisions ----------------------------------------------------------------
  /** Send one decision; at most one per `legal` the server sent (a double tap sends one). */
  act(action) {
    if (!action || this.inert || this.offline) return;
    this.send({ type: "action", action });
    this.inert = true;
    this.sentAt = Date.now();
    this.acted += 1;
    this.legal = [];
    this.selected = null;
    this.render();
  }

  click(e) {
    const tile = e.target.closest("[data-tile]");
    const own = tile && this.app.contains(tile) && tile.closest(".hand.own");
    const el = own ? null : e.target.closest("[data-act]");
    const what = el ? el.getAttribute("data-act") : null;
    if ((own || PLAY_ACTS.has(what)) && this.offline) {
      toast(t("offline_wait")); // the seat is not live: nothing would reach the server
      return;
    }
    if (own) {
      this.tapTile(tile.getAttribute("data-tile"));
      return;
    }
    if (!el) return;
    // a button drawn for an older `legal`, or the second click of a double click that
    // already sent, is not a new decision
    const stale = this.drawnGen !== this.legalGen || (e.detail > 1 && Date.now() - this.sentAt < 800);
    if ((what === "action" || what === "discard-selected") && stale) return;
    if (what === "action") this.act(this.legal[Number(el.getAttribute("data-i"))]);
    else if (what === "discard-selected") this.discard(this.selected);
    else if (what === "ready") this.send({ type: "ready" });
    else if (what === "auto") this.send({ type: "auto", on: !this.room.seats[this.seat].auto });
    else if (what === "dissolve-yes") this.send({ type: "dissolve", vote: true });
    else if (what === "dissolve-no") this.send({ type: "dissolve", vote: false });
    else if (what === "add-bot") this.addBot(Number(el.getAttribute("data-seat")));
    else if (what === "remove-bot") this.removeBot(Number(el.getAttribute("data-seat")));
    else if (what === "copy") this.copyLink();
    else if (what === "rules") document.getElementById("rules-btn").click();
    else if (what === "escape") this.escape();
    else if (what === "sound" || what === "hints") {
      if (what === "sound") toggleSound();
      else toggleHints();
      this.render();
    }
    else if (what === "watch") {
      this.held = null;
      this.connect();
    }
  }

  /** 逃跑 (RULES.md 0.9): allowed to a seat at any moment of a hand; asked first, saying
   * what it costs under the room's escape_penalty. */
  async escape() {
    if (!this.canEscape()) return;
    const pen = Number((this.view.options || {}).escape_penalty || 0);
    const cost = pen ? t("escape_cost", { pen, all: 3 * pen }) : t("escape_free");
    const sure = await confirmBox(
      `<h2>${esc(t("escape_title"))}</h2><p class="escape-cost">${esc(cost)}</p>`,
      esc(t("escape_yes")),
      esc(t("escape_no")),
    );
    if (sure && this.canEscape()) {
      this.send({ type: "action", action: { type: "escape" } });
      this.acted += 1;
    }
  }

  /** A seat may escape while a hand is in play (not once it has ended). */
  canEscape() {
    return this.seat != null && this.view != null && this.view.phase !== "end" && this.room.status === "playing";
  }

  tapTile(tile) {
    if (this.inert) return; // a discard or claim was just sent: the hand waits for the server
    const why = discardWhy(tile, this.legal, this.restrictions, this.declaredRestrictions());
    if (why) {
      // a greyed tile: say why it may not go now instead of selecting it
      const words = why.map((r) => reasonText(r, getLang(), (d) => this.detailText(d))).join("；");
      toast(words ? t("no_discard_now", { why: words }) : t("no_discard_plain"));
      return;
    }
    if (this.selected === tile && this.discardAction(tile)) {
      this.discard(tile);
      return;
    }
    this.selected = this.selected === tile ? null : tile;
    this.render();
  }

  discardAction(tile) {
    return this.legal.find((a) => a.type === "discard" && a.tile === tile);
  }

  discard(tile) {
    const action = this.discardAction(tile);
    if (action) this.act(action);
  }

  async addBot(seat) {
    const select = this.app.querySelector(`select[data-bot-for="${seat}"]`);
    const bot = select ? select.value : "greedy";
    try {
      await api(`/api/rooms/${this.number}/seats/${seat}`, { method: "PUT", body: { bot }, token: this.held.token });
    } catch (err) {
      toast(t("error", { m: err.message }));
    }
  }

  async removeBot(seat) {
    try {
      await api(`/api/rooms/${this.number}/seats/${seat}`, { method: "DELETE", token: this.held.token });
    } catch (err) {
      toast(t("error", { m: err.message }));
    }
  }

  shareLink() {
    return `${location.origin}/?room=${this.number}`;
  }

  async copyLink() {
    try {
      await navigator.clipboard.writeText(this.shareLink());
      toast(t("copied"));
    } catch {
      const input = this.app.querySelector("#share");
      if (input) input.select();
    }
  }

  /** 听牌提示 for the viewer's concealed tiles (asked once per hand state). */
  hints() {
    const view = this.view;
    if (!view || this.seat == null) return null;
    const mine = view.seats[this.seat];
    const key = `${mine.hand}|${mine.melds.length}|${view.wild || ""}`;
    if (this.waits.has(key)) return this.waits.get(key);
    this.waits.set(key, null);
    api("/api/waits", {
      method: "POST",
      body: { variant: view.variant, hand: mine.hand, melds: mine.melds.length, wild: view.wild },
    })
      .then((hints) => {
        this.waits.set(key, hints);
        this.render();
      })
      .catch(() => this.waits.set(key, []));
    return null;
  }

  /** Reserved tile counts (horses, birds) of the hand in play, asked once per counters. */
  reservedCounts() {
    const view = this.view;
    if (!view) return {};
    const key = JSON.stringify([view.counters]);
    if (this.reserved.has(key)) return this.reserved.get(key) || {};
    this.reserved.set(key, null);
    api("/api/reserved", {
      method: "POST",
      body: { variant: view.variant, options: view.options, counters: view.counters },
    })
      .then((counts) => {
        this.reserved.set(key, counts);
        this.render();
      })
      .catch(() => this.reserved.set(key, {}));
    return {};
  }

  /** Copies of a kind the viewer has not seen (its hand, rivers, melds, face-up tiles). */
  unseen(tile) {
    const view = this.view;
    let seen = 0;
    const count = (list) => {
      for (const x of list) if (x === tile) seen += 1;
    };
    count(parseTiles(view.seats[this.seat].hand));
    for (const s of view.seats) {
      count(s.discards);
      for (const m of s.melds) {
        const tiles = parseTiles(m.tiles);
        if (m.wilds && m.kind !== "chi") {
          const natural = tiles.length - m.wilds;
          if (tiles[0] === tile) seen += natural;
          if (tile === view.wild) seen += m.wilds;
        } else count(tiles);
      }
    }
    for (const tiles of Object.values(view.revealed || {})) count(parseTiles(tiles));
    return Math.max(0, 4 - seen);
  }

  // -- screens -----------------------------------------------------------------------------
  render() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      if (!this.stopped) this.draw();
    });
  }

  draw() {
    if (!this.room) return;
    this.drawnActed = this.acted;
    this.drawnGen = this.legalGen;
    if (!this.ws) {
      // the join form stays as the visitor left it (a redraw would reset a typed name)
      if (!this.app.querySelector("#join-form")) this.renderJoin();
      return;
    }
    setWhere(`${t("room", { room: this.number })} · ${variantName(this.info)}`);
    const banner = this.bannerHtml();
    let body;
    if (this.matchEnd && !this.view) body = this.finalScreen();
    else if (this.view) body = this.tableScreen();
    else if (this.room.status === "waiting") body = this.waitingScreen();
    else body = this.betweenScreen();
    this.app.innerHTML = banner + body;
    if (this.offline) this.markOffline();
    refreshRules();
    const vote = this.dissolveVote();
    if (vote && this.lapseAt !== vote.deadline) {
      this.lapseAt = vote.deadline; // a vote nobody closes lapses: draw the page again then
      setTimeout(() => this.render(), vote.deadline - Date.now() + 50);
    }
    const log = this.app.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  /** While the connection is down: what would act is disabled, the clock says so and the
   * prompt no longer says whose turn it is (the server may have moved on). */
  markOffline() {
    for (const b of this.app.querySelectorAll("button[data-act]")) {
      if (PLAY_ACTS.has(b.getAttribute("data-act"))) b.disabled = true;
    }
    for (const c of this.app.querySelectorAll(".countdown")) {
      c.removeAttribute("data-deadline");
      c.classList.add("offline");
      c.textContent = t("offline_clock");
    }
    const prompt = this.app.querySelector(".prompt");
    if (prompt) prompt.textContent = t("reconnecting");
  }

  bannerHtml() {
    if (this.closedFor) return `<div class="banner warn" role="alert">${esc(this.closedFor)}</div>`;
    if (this.offline && this.closedFor == null) {
      return `<div class="banner warn offline" role="alert">${esc(t("reconnecting"))}</div>`;
    }
    if (this.ws && this.seat == null && this.seq >= 0) return `<div class="banner">${esc(t("spectating"))}</div>`;
    return "";
  }

  seatRow(s) {
    const me = s.seat === this.seat;
    const owner = this.seat === 0;
    const badges = [];
    if (s.seat === 0 && s.name) badges.push(`<b class="badge">${esc(t("owner"))}</b>`);
    if (me) badges.push(`<b class="badge you">${esc(t("you"))}</b>`);
    if (s.bot) badges.push(`<b class="badge bot">${esc(t("bot"))}</b>`);
    if (s.auto) badges.push(`<b class="badge auto">${esc(t("auto_mark"))}</b>`);
    if (s.name && !s.bot) badges.push(`<b class="badge ${s.connected ? "on" : "off"}">${esc(t(s.connected ? "online" : "offline"))}</b>`);
    const vote = this.dissolveVote();
    const answer = vote ? vote.votes[s.seat] : null;
    if (answer != null) {
      badges.push(`<b class="badge ${answer ? "warn" : ""} vote-${answer ? "yes" : "no"}">${esc(t(answer ? "dissolve_mark_yes" : "dissolve_mark_no"))}</b>`);
    }
    const ready = s.name ? `<span class="ready ${s.ready ? "yes" : ""}">${esc(t(s.ready ? "is_ready" : "not_ready"))}</span>` : "";
    let tools = "";
    if (owner && this.room.status === "waiting") {
      if (s.name == null) {
        const chosen = this.botChoice[s.seat] || "greedy";
        const options = (this.bots || ["greedy"])
          .map((b) => `<option value="${esc(b)}"${b === chosen ? " selected" : ""}>${esc(botLevel(b, this.botNames, t, getLang()))}</option>`)
          .join("");
        tools = `<select data-bot-for="${s.seat}" aria-label="${esc(t("add_bot"))}">${options}</select>` +
          `<button type="button" data-act="add-bot" data-seat="${s.seat}">${esc(t("add_bot"))}</button>`;
      } else if (s.bot) {
        tools = `<button type="button" data-act="remove-bot" data-seat="${s.seat}">${esc(t("remove_bot"))}</button>`;
      }
    }
    const name = s.name == null ? `<i>${esc(t("free_seat"))}</i>` : esc(this.names()[s.seat]);
    return `<li class="seatrow" data-seat="${s.seat}"><span class="no">${esc(windOf(s.seat, this.windsFrom()))}</span><span class="name">${name}</span>${badges.join("")}${ready}<span class="grow"></span>${tools}</li>`;
  }

  waitingScreen() {
    if (!this.bots) {
      this.bots = ["greedy"];
      api("/api/bots").then((b) => {
        this.bots = b;
        this.render();
      }).catch(() => {});
    }
    const me = this.seat != null ? this.room.seats[this.seat] : null;
    const readyBtn = me && !me.ready ? `<button type="button" class="primary" data-act="ready">${esc(t("ready"))}</button>` : "";
    return `<div class="card room"><h2>${esc(t("room", { room: this.number }))} · ${esc(variantName(this.info))}</h2>` +
      `<p class="muted">${esc(t("waiting_players"))}</p>` + this.roomInfoHtml() +
      `<ul class="seats">${this.room.seats.map((s) => this.seatRow(s)).join("")}</ul>` +
      `<div class="row">${readyBtn}${this.dissolveButton()}</div>` +
      `<div class="row share"><label>${esc(t("share"))} <input id="share" readonly value="${esc(this.shareLink())}"></label>` +
      `<button type="button" data-act="copy">${esc(t("copy"))}</button></div></div>`;
  }

  /** What the waiting room says of the room: variant, 局数, the turn timer and every option
   * by name with its value by name (words.js optionText, as the lobby and the rules panel). */
  roomInfoHtml() {
    const st = this.room;
    const row = (name, value, cls = "") => `<div class="${cls}"><dt>${esc(name)}</dt><dd>${esc(value)}</dd></div>`;
    const timer = st.turn_seconds ? t("seconds", { n: st.turn_seconds }) : t("no_limit");
    const opts = optionList(this.info, st.options)
      .map((o) => row(o.name, o.value, o.isDefault ? "opt" : "opt changed"))
      .join("");
    return `<dl class="room-info">${row(t("variant"), variantName(this.info))}${row(t("hands"), String(st.hands))}` +
      `${row(t("turn_limit"), timer)}${opts}</dl>`;
  }

  /** The dissolve vote open now (the room state's, until its deadline), or null. */
  dissolveVote() {
    const vote = this.room && this.room.dissolve;
    if (!vote || ["finished", "dissolved"].includes(this.room.status) || Date.now() >= vote.deadline) return null;
    return vote;
  }

  /** With no vote open, the button that asks for one; else the vote itself (who asked,
   * every human's answer, the time left) and this seat's answer buttons. */
  dissolveButton() {
    if (["finished", "dissolved"].includes(this.room.status)) return "";
    const vote = this.dissolveVote();
    if (!vote) {
      return this.seat == null ? "" : `<button type="button" data-act="dissolve-yes" class="quiet">${esc(t("dissolve"))}</button>`;
    }
    const humans = this.room.seats.filter((s) => s.name != null && !s.bot).map((s) => s.seat);
    const named = (answer) => humans.filter((s) => vote.votes[s] === answer).map((s) => this.who(s)).join(", ");
    const lines = [
      [true, "dissolve_yes"],
      [false, "dissolve_no"],
      [null, "dissolve_open"],
    ].filter(([answer]) => humans.some((s) => vote.votes[s] === answer))
      .map(([answer, key]) => `<span class="vote-${String(answer)}">${esc(t(key, { names: named(answer) }))}</span>`);
    let buttons = "";
    if (this.seat != null && humans.includes(this.seat)) {
      const mine = vote.votes[this.seat];
      const yes = `<button type="button" data-act="dissolve-yes">${esc(t("dissolve_agree"))}</button>`;
      const no = `<button type="button" data-act="dissolve-no" class="quiet">${esc(t(mine ? "dissolve_cancel" : "dissolve_refuse"))}</button>`;
      buttons = mine == null ? yes + no : mine ? no : yes;
    }
    return `<div class="dissolve-vote"><b>${esc(t("dissolve_asked", { who: this.who(vote.by) }))}</b>` +
      `<div class="muted">${lines.join(" · ")} · ${esc(t("dissolve_left"))} ${countdownHtml(vote.deadline)}</div>` +
      `<div class="row">${buttons}</div></div>`;
  }

  tableModel() {
    const view = this.view;
    const room = this.room;
    const mine = this.seat ?? 0;
    const names = this.names();
    // at the table a bot seat's wind is its mark, so its name row says only the bot's level
    const named = (i) => (room.seats[i].bot ? botLevel(room.seats[i].bot, this.botNames, t, getLang()) : names[i]);
    const seats = view.seats.map((s, i) => ({ ...s, ...room.seats[i], name: named(i) }));
    const canPlay = this.seat != null;
    const discards = this.legal.filter((a) => a.type === "discard");
    const hints = canPlay && hintsOn() ? this.hints() : null;
    const tingTiles = new Set((hints || []).filter((h) => h.discard && discards.some((a) => a.tile === h.discard)).map((h) => h.discard));
    const vs = view.variant_state || {};
    const key = motionKey(view, room.hand_index, this.seat);
    const motion = newMotion(this.motionKey, key);
    this.motionKey = key;
    const turn = discards.length > 0;
    if (motion.meld != null) playSound("claim");
    else if (motion.discard != null) playSound("discard");
    if (turn && !this.wasTurn) playSound("turn");
    this.wasTurn = turn;
    const othersClock = view.phase === "turn" && view.current !== this.seat ? view.turn_deadline || null : null;
    return {
      info: this.info,
      seats,
      mine: this.seat,
      bottom: mine,
      dealer: view.dealer,
      current: view.current,
      phase: view.phase,
      wild: view.wild,
      revealed: view.revealed,
      counters: view.counters,
      liveTiles: view.live,
      handLabel: t("hand_of", { n: room.hand_index + 1, m: room.hands }),
      lastDiscard: this.lastDiscard,
      faceUp: false,
      live: true,
      canPlay,
      selected: this.selected,
      discardable: turn ? new Set(discards.map((a) => a.tile)) : null,
      tingTiles,
      // the viewer's own deadline while it decides, else the deadline of the seat whose turn
      // it is (public: docs/protocol.md TableState.turn_deadline)
      deadline: this.legal.length ? this.deadline : othersClock,
      clockSeat: this.legal.length ? this.seat : othersClock ? view.current : null,
      pointer: pointerSeat({ current: view.current, phase: view.phase, mine: this.seat, deciding: this.legal.length > 0 }),
      motion,
      variantState: vs,
      reservedCounts: this.reservedCounts(),
      hints,
    };
  }

  /** The claim bar: 胡 first and largest, then 杠, 碰, 吃 (its three tiles, the claimed
   * one marked), 过 last; and 打出 for a selected tile. */
  actionButtons() {
    const buttons = [];
    for (const i of claimOrder(this.legal)) {
      const a = this.legal[i];
      let tiles = "";
      if (a.type === "chi") {
        const window = this.view.window_tile;
        const all = sortTiles([...parseTiles(a.tiles), window]);
        tiles = all.map((x) => tileSvg(x, { cls: x === window ? "m claimed" : "m", wild: x === this.view.wild })).join("");
      } else if (a.type === "kong" && a.tile) {
        tiles = tileSvg(a.tile, { cls: "m", wild: a.tile === this.view.wild });
      } else if ((a.type === "peng" || a.type === "kong") && this.view.window_tile) {
        tiles = tileSvg(this.view.window_tile, { cls: "m", wild: this.view.window_tile === this.view.wild });
      }
      buttons.push(`<button type="button" class="act act-${a.type}" data-act="action" data-i="${i}"><span>${esc(t(a.type))}</span>${tiles}</button>`);
    }
    if (this.selected && this.discardAction(this.selected)) {
      buttons.push(`<button type="button" class="act act-discard" data-act="discard-selected"><span>${esc(t("discard"))}</span>${tileSvg(this.selected, { cls: "m" })}</button>`);
    }
    return buttons.join("");
  }

  promptHtml() {
    const view = this.view;
    const claims = this.legal.filter((a) => a.type !== "discard");
    const turn = this.legal.some((a) => a.type === "discard");
    if (view.phase === "claim" && claims.length) {
      return t("your_claim", { who: esc(this.who(view.window_from)), tile: this.tileWord(view.window_tile) });
    }
    if (view.phase === "rob" && claims.length) {
      return t("your_rob", { who: esc(this.who(view.window_from)), tile: this.tileWord(view.window_tile) });
    }
    if (view.phase === "declare" && claims.length) return t("your_declare");
    if (turn) return t("your_turn");
    if (view.phase === "claim" && view.window_tile) {
      return t("ev_discard", { who: esc(this.who(view.window_from)), tile: this.tileWord(view.window_tile) });
    }
    return t("waiting_for", { who: esc(this.who(view.current)) });
  }

  hintHtml(model) {
    const hints = model.hints;
    if (!hints || !hints.length) return "";
    const line = (h) => {
      const waits = h.waits.map((x) => `<span class="wait">${tileSvg(x, { cls: "s", wild: x === this.view.wild })}<small>${esc(t("unseen", { n: this.unseen(x) }))}</small></span>`).join("");
      const head = h.discard ? t("ting_after", { tile: this.tileWord(h.discard) }) : t("ting_now");
      return `<div class="ting-line${h.discard && h.discard === this.selected ? " sel" : ""}">${head}${waits}</div>`;
    };
    const discards = this.legal.some((a) => a.type === "discard");
    let shown;
    if (discards) {
      const playable = hints.filter((h) => h.discard && this.discardAction(h.discard));
      const chosen = playable.filter((h) => h.discard === this.selected);
      shown = chosen.length ? chosen : playable.slice(0, 3);
    } else {
      shown = hints.filter((h) => h.discard == null);
    }
    if (!shown.length) return "";
    return `<div class="hints"><b>${esc(t("ting"))}</b>${shown.map(line).join("")}</div>`;
  }

  tableScreen() {
    const model = this.tableModel();
    const bar = this.actionButtons();
    model.meExtra = `<div class="actions${bar ? " open" : ""}">${bar}</div>`;
    const center = `<div class="prompt">${this.promptHtml()}</div>`;
    const me = this.seat != null ? this.room.seats[this.seat] : null;
    const tools = (me && !me.auto ? `<button type="button" data-act="auto">${esc(t("auto"))}</button>` : "") +
      this.dissolveButton() +
      (this.canEscape() ? `<button type="button" data-act="escape" class="quiet danger">${esc(t("escape_btn"))}</button>` : "") +
      (this.seat != null ? hintsButton() : "") + soundButton();
    const log = `<details class="log"${this.logOpen === false ? "" : " open"}><summary>${esc(t("log"))}</summary><ol>${this.log.map((l) => `<li>${l}</li>`).join("")}</ol></details>`;
    const why = this.seat != null ? this.restrictionItems() : [];
    const whyHtml = why.length
      ? `<div class="why" data-act="rules"><b>${esc(t("why_now"))}</b> ${why.map((r) => `<span class="chip" title="${r.reason.replace(/<[^>]*>/g, "")}">${r.short}</span>`).join("")}</div>`
      : "";
    if (this.shownHand !== this.room.hand_index) {
      // a new hand: the table from its top, as much of it as fits, the own seat in view
      // (the page may be scrolled from the waiting room or the last settlement)
      this.shownHand = this.room.hand_index;
      requestAnimationFrame(() => {
        const own = this.app.querySelector(".seat.me");
        if (!own) return;
        window.scrollTo(0, 0);
        own.scrollIntoView({ block: "nearest" });
      });
    }
    return tableHtml(model, center) +
      `<div class="below">${this.missedHtml()}${whyHtml}${this.hintHtml(model)}` +
      `<div class="row tools">${tools}</div>${log}</div>${this.autoHtml()}`;
  }

  betweenScreen() {
    const index = this.room.hand_index - 1;
    const explained = this.settlements.get(index);
    const fallback = this.handEnd ? this.handEnd.result : null;
    const me = this.seat != null ? this.room.seats[this.seat] : null;
    let ready = "";
    if (me && this.room.status === "playing") {
      ready = me.ready
        ? `<p class="muted">${esc(t("waiting_next"))}</p>`
        : `<button type="button" class="primary" data-act="ready">${esc(t("next_hand"))}</button>` +
          (this.deadline ? ` <span class="muted">${esc(t("ready_in"))}</span>${countdownHtml(this.deadline)}` : "");
    }
    const seatsState = `<ul class="seats compact">${this.room.seats.map((s) => this.seatRow(s)).join("")}</ul>`;
    return `<div class="card settle">${settlementHtml(this.settleContext(), explained, fallback)}<div class="row">${ready}${this.dissolveButton()}</div>${seatsState}</div>${this.autoHtml()}`;
  }

  settleContext() {
    return {
      info: this.info,
      names: this.names().map((n, i) => {
        const name = n || t("seat_n", { n: i });
        return i === this.seat ? `${name}${t("you_after")}` : name;
      }),
      mine: this.seat,
      hands: this.room.hands,
    };
  }

  finalScreen() {
    const list = [...this.settlements.values()].sort((a, b) => a.index - b.index);
    const last = list.length ? list[list.length - 1] : null;
    const lastHand = last ? settlementHtml(this.settleContext(), last, null) : "";
    return `<div class="card settle">${finalHtml(this.settleContext(), list, this.matchEnd, this.number)}${lastHand}</div>`;
  }
}

