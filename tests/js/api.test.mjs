// api.js: where a seat's token is kept, and the rooms this browser holds a seat in (the
// lobby's 回到我的房间).
import { MemoryStorage } from "./shim.mjs";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { dropSeat, heldRooms, heldSeat, keepSeat } from "../../majiang/server/static/api.js";

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

test("a kept seat is held in this tab and this browser until dropped", () => {
  keepSeat("123456", { seat: 0, token: "tok", name: "Ann" });
  assert.deepEqual(heldSeat("123456"), { seat: 0, token: "tok", name: "Ann" });
  sessionStorage.clear(); // a closed tab: the browser still holds it
  assert.equal(heldSeat("123456").token, "tok");
  dropSeat("123456");
  assert.equal(heldSeat("123456"), null);
});

test("held rooms list every kept token, newest room number first, skipping other values", () => {
  keepSeat("100001", { seat: 0, token: "a", name: "Ann" });
  keepSeat("200002", { seat: 2, token: "b", name: "Bo" });
  localStorage.setItem("majiang.seat.300003", "not json");
  localStorage.setItem("majiang.seat.400004", JSON.stringify({ seat: 1 })); // no token
  localStorage.setItem("majiang.name", "Ann");
  assert.deepEqual(heldRooms(), [
    { room: "200002", seat: 2, token: "b", name: "Bo" },
    { room: "100001", seat: 0, token: "a", name: "Ann" },
  ]);
  assert.deepEqual(heldRooms(new MemoryStorage()), []);
});
