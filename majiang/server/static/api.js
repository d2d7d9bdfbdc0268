// The server's HTTP calls (docs/protocol.md, docs/web.md) and where a seat's token is kept.

import { errorSentence } from "./i18n.js";

/** A refused call: its code, the code's sentence in the page's language as `message` (the
 * server's own detail follows it on the English page), never its raw JSON. */
export class ApiError extends Error {
  constructor(code, detail, status) {
    super(errorSentence(code, detail));
    this.code = code;
    this.detail = detail;
    this.status = status;
  }
}

/** Call the server; the parsed JSON answer, or ApiError with the server's message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", "", 0);
  }
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(err && err.code ? err.code : "http", err && err.message ? err.message : `HTTP ${res.status}`, res.status);
  }
  return data;
}

let variantsCache = null;

/** GET /api/variants, fetched once: the declarations every name comes from. */
export async function variants() {
  if (!variantsCache) variantsCache = api("/api/variants");
  return variantsCache;
}

/** The declaration of one variant. */
export async function variantInfo(id) {
  return (await variants()).find((v) => v.id === id);
}

// A seat's token: sessionStorage keeps it for this tab across reloads; localStorage lets a
// closed tab come back to its seat.
const KEY = (room) => `majiang.seat.${room}`;

/** The seat this browser holds in a room: {seat, token, name}, or null. */
export function heldSeat(room) {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const raw = store.getItem(KEY(room));
      if (raw) {
        const held = JSON.parse(raw);
        if (held && typeof held.token === "string") return held;
      }
    } catch {
      // a value another version wrote: ignored
    }
  }
  return null;
}

/** Every room this browser holds a seat's token for (localStorage, newest room number
 * first): `[{room, seat, token, name}]`; values another version wrote are skipped. */
export function heldRooms(store = localStorage) {
  const out = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    const m = key && key.match(/^majiang\.seat\.(.+)$/);
    if (!m) continue;
    try {
      const held = JSON.parse(store.getItem(key));
      if (held && typeof held.token === "string") out.push({ room: m[1], seat: held.seat, token: held.token, name: held.name });
    } catch {
      // not ours to read
    }
  }
  return out.sort((a, b) => (a.room < b.room ? 1 : a.room > b.room ? -1 : 0));
}

/** Remember a seat's token for this tab and this browser. */
export function keepSeat(room, held) {
  const text = JSON.stringify(held);
  sessionStorage.setItem(KEY(room), text);
  localStorage.setItem(KEY(room), text);
}

/** Forget a seat (its token is no longer valid). */
export function dropSeat(room) {
  sessionStorage.removeItem(KEY(room));
  localStorage.removeItem(KEY(room));
}

/** The name used last time. */
export function lastName() {
  return localStorage.getItem("majiang.name") || "";
}

export function keepName(name) {
  localStorage.setItem("majiang.name", name);
}
