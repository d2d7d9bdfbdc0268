// ui.js's countdown: whole seconds left, rounded up, never negative; urgent at 5 s.
import "./shim.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";
import { countdownHtml, secondsLeft } from "../../majiang/server/static/ui.js";

test("seconds left round up and stop at zero", () => {
  assert.equal(secondsLeft(10_000, 0), 10);
  assert.equal(secondsLeft(10_000, 9_001), 1);
  assert.equal(secondsLeft(10_000, 10_000), 0);
  assert.equal(secondsLeft(10_000, 12_000), 0);
  assert.equal(secondsLeft("10000", 0), 10); // a data-deadline attribute is text
});

test("a countdown carries its deadline for the ticker and is urgent from 5 s", () => {
  const far = Date.now() + 60_000;
  const html = countdownHtml(far, "big");
  assert.match(html, new RegExp(`data-deadline="${far}"`));
  assert.match(html, /class="countdown big"/);
  assert.match(countdownHtml(Date.now() + 3_000), /urgent/);
});
