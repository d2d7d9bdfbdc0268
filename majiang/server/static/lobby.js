// The lobby: create a room (variant, its options as a form generated from GET /api/variants,
// 局数, bot seats, turn timer), join one by number, recent matches.

import { api, dropSeat, heldRooms, keepName, keepSeat, lastName, variants } from "./api.js";
import { botLevel, botNameMap } from "./botnames.js";
import { getLang, optionLabel, optionValueName, pick, pickField, t, variantName } from "./i18n.js";
import { esc } from "./table.js";
import { setWhere, showRulesButton, toast } from "./ui.js";

const DEFAULT_BOTS = { 1: "greedy", 2: "greedy", 3: "greedy" };

/** One option's input, generated from its declaration: its name, its choices by name and
 * its hint, in the page's language (never an id). */
function optionField(o) {
  const label = optionLabel(o);
  const id = `opt-${o.id}`;
  const hint = `<small class="muted">${esc(pickField(o, "doc"))} · ${esc(t("default_is", { v: optionValueName(o, o.default) }))}</small>`;
  let input;
  if (o.kind === "bool") {
    input = `<input type="checkbox" id="${id}" data-opt="${esc(o.id)}" data-kind="bool"${o.default ? " checked" : ""}>`;
  } else if (o.kind === "choice") {
    const choices = o.choices
      .map((c, i) => `<option value="${i}"${c === o.default ? " selected" : ""}>${esc(optionValueName(o, c))}</option>`)
      .join("");
    input = `<select id="${id}" data-opt="${esc(o.id)}" data-kind="choice">${choices}</select>`;
  } else {
    const min = o.min != null ? ` min="${o.min}"` : "";
    const max = o.max != null ? ` max="${o.max}"` : "";
    input = `<input type="number" id="${id}" data-opt="${esc(o.id)}" data-kind="int" value="${o.default}"${min}${max} step="1">`;
  }
  return `<div class="field ${o.kind}"><label for="${id}">${esc(label)}</label>${input}${hint}</div>`;
}

// -- 回到我的房间: the rooms this browser holds a seat in ----------------------------------

/** The rooms this browser holds a seat's token for that are still waiting or in play (GET
 * /api/rooms/{room} each): `[{room, variant, status, seat}]`; a room the server no longer
 * knows is forgotten. */
async function myRooms() {
  const out = [];
  await Promise.all(heldRooms().map(async (held) => {
    try {
      const state = await api(`/api/rooms/${encodeURIComponent(held.room)}`);
      if (state.status === "waiting" || state.status === "playing") {
        out.push({ room: held.room, variant: state.variant, status: state.status, seat: held.seat });
      }
    } catch (err) {
      if (err.code === "not_found") dropSeat(held.room);
    }
  }));
  return out.sort((a, b) => (a.room < b.room ? -1 : 1));
}

/** The 回到我的房间 card, or "" when there is no room to go back to. */
function myRoomsHtml(rooms, list) {
  if (!rooms || !rooms.length) return "";
  const items = rooms.map((r) => {
    const v = list.find((x) => x.id === r.variant);
    const line = t("back_room_line", { room: r.room, variant: v ? variantName(v) : "", status: t(`status_${r.status}`) });
    return `<li><a class="button primary" href="/?room=${esc(r.room)}" data-room="${esc(r.room)}">${esc(t("back_to_room"))}</a> <span>${esc(line)}</span></li>`;
  }).join("");
  return `<section class="card my-rooms"><h2>${esc(t("back_to_room"))}</h2><ul class="recent">${items}</ul></section>`;
}

/** The lobby screen. */
export class Lobby {
  constructor(app) {
    this.app = app;
    this.list = [];
    this.variant = localStorage.getItem("majiang.variant") || "guangdong";
    this.bots = ["greedy"];
    this.botNames = botNameMap([]); // bot id -> {zh, en} (GET /api/bots/names)
    this.matches = [];
  }

  async start() {
    setWhere("");
    showRulesButton(null);
    try {
      let names;
      [this.list, this.bots, this.matches, names] = await Promise.all([
        variants(),
        api("/api/bots"),
        api("/api/matches?limit=10"),
        api("/api/bots/names"),
      ]);
      this.botNames = botNameMap(names);
    } catch (err) {
      this.app.innerHTML = `<div class="card"><p>${esc(t("error", { m: err.message }))}</p></div>`;
      return;
    }
    if (!this.list.some((v) => v.id === this.variant)) this.variant = this.list[0].id;
    this.draw();
    myRooms().then((rooms) => {
      this.mine = rooms;
      this.drawMine();
    });
  }

  /** Put the 回到我的房间 card at the top of the lobby (drawn apart from the form). */
  drawMine() {
    const lobby = this.app.querySelector(".lobby");
    const old = this.app.querySelector(".my-rooms");
    if (old) old.remove();
    const html = myRoomsHtml(this.mine, this.list);
    if (lobby && html) lobby.insertAdjacentHTML("afterbegin", html);
  }

  stop() {}

  info() {
    return this.list.find((v) => v.id === this.variant);
  }

  draw() {
    const info = this.info();
    showRulesButton(info, null);
    const variantOptions = this.list
      .map((v) => `<option value="${esc(v.id)}"${v.id === this.variant ? " selected" : ""}>${esc(variantName(v))}</option>`)
      .join("");
    const seatRows = [1, 2, 3]
      .map((s) => {
        const choices = [`<option value="">${esc(t("human"))}</option>`]
          .concat(this.bots.map((b) => `<option value="${esc(b)}"${DEFAULT_BOTS[s] === b ? " selected" : ""}>${esc(botLevel(b, this.botNames, t, getLang()))}</option>`))
          .join("");
        return `<div class="field"><label for="seat-${s}">${esc(t("seat_n", { n: s }))}</label><select id="seat-${s}" data-seat="${s}">${choices}</select></div>`;
      })
      .join("");
    const recent = this.matches.length
      ? `<ul class="recent">${this.matches.map((m) => {
          const v = this.list.find((x) => x.id === m.variant);
          const when = new Date(m.finished_at).toLocaleString(getLang() === "zh" ? "zh-CN" : "en");
          const scores = m.names.map((n, i) => `${esc(m.bots && m.bots[i] ? botLevel(m.bots[i], this.botNames, t, getLang()) : n)} ${m.totals[i] > 0 ? "+" : ""}${m.totals[i]}`).join(" · ");
          return `<li><a href="/replay/${esc(m.room)}">${esc(t("replay"))} ${esc(m.room)}</a> <span class="muted">${esc(v ? variantName(v) : m.variant)} · ${esc(when)}</span><br><small>${scores}</small></li>`;
        }).join("")}</ul>`
      : `<p class="muted">${esc(t("no_recent"))}</p>`;
    this.app.innerHTML = `<div class="lobby">
<form id="create" class="card" data-variant="${esc(this.variant)}">
  <h2>${esc(t("create_room"))}</h2>
  <div class="field"><label for="variant">${esc(t("variant"))}</label><select id="variant">${variantOptions}</select>
  <small class="muted summary">${esc(pick(info.summary))}</small></div>
  <fieldset><legend>${esc(t("options"))}</legend>${info.options.map(optionField).join("")}</fieldset>
  <div class="grid2">
    <div class="field"><label for="hands">${esc(t("hands"))}</label><input id="hands" type="number" min="1" max="64" value="8"></div>
    <div class="field"><label for="turn">${esc(t("turn_seconds"))}</label><input id="turn" type="number" min="0" max="600" value="15"></div>
  </div>
  ${seatRows}
  <div class="field"><label for="name">${esc(t("your_name"))}</label><input id="name" maxlength="32" value="${esc(lastName() || t("default_name"))}"></div>
  <button type="submit" class="primary" id="create-btn">${esc(t("create"))}</button>
</form>
<form id="join" class="card">
  <h2>${esc(t("join_room"))}</h2>
  <div class="row"><input id="room-no" inputmode="numeric" maxlength="6" placeholder="${esc(t("room_number"))}" aria-label="${esc(t("room_number"))}">
  <button type="submit">${esc(t("join"))}</button></div>
</form>
<section class="card">
  <h2>${esc(t("recent"))}</h2>${recent}
  <p><a href="/replay">${esc(t("open_record"))}</a></p>
</section>
</div>`;
    this.app.querySelector("#variant").onchange = (e) => {
      this.variant = e.target.value;
      localStorage.setItem("majiang.variant", this.variant);
      this.draw();
    };
    this.app.querySelector("#create").onsubmit = (e) => {
      e.preventDefault();
      this.create();
    };
    this.app.querySelector("#join").onsubmit = (e) => {
      e.preventDefault();
      const number = this.app.querySelector("#room-no").value.trim();
      if (!/^\d{6}$/.test(number)) {
        toast(t("room_number_bad"));
        return;
      }
      location.assign(`/?room=${number}`);
    };
    this.drawMine();
  }

  readOptions() {
    const info = this.info();
    const options = {};
    for (const el of this.app.querySelectorAll("[data-opt]")) {
      const o = info.options.find((x) => x.id === el.getAttribute("data-opt"));
      if (o.kind === "bool") options[o.id] = el.checked;
      else if (o.kind === "choice") options[o.id] = o.choices[Number(el.value)];
      else options[o.id] = Number.parseInt(el.value, 10);
    }
    return options;
  }

  async create() {
    const name = this.app.querySelector("#name").value.trim() || t("default_name");
    const bots = {};
    for (const el of this.app.querySelectorAll("select[data-seat]")) {
      if (el.value) bots[el.getAttribute("data-seat")] = el.value;
    }
    const body = {
      variant: this.variant,
      options: this.readOptions(),
      hands: Number.parseInt(this.app.querySelector("#hands").value, 10),
      turn_seconds: Number.parseInt(this.app.querySelector("#turn").value, 10),
      name,
      bots,
    };
    try {
      const made = await api("/api/rooms", { method: "POST", body });
      keepName(name);
      keepSeat(made.room, { seat: made.seat, token: made.token, name });
      location.assign(`/?room=${made.room}`);
    } catch (err) {
      toast(t("error", { m: err.message }));
    }
  }
}
