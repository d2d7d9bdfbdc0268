// The page's frame: the header, the toast, the rules panel and the countdown ticker.

import { getLang, setLang, t } from "./i18n.js";
import { rulesHtml } from "./rules.js";

let rulesFor = null;
let onLang = () => {};

/** A short message at the bottom of the screen (server refusals, copy confirmations). */
export function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    el.hidden = true;
  }, 4000);
}

/** The header's place text (room number, variant). */
export function setWhere(text) {
  document.getElementById("where").textContent = text;
}

/** Offer the rules panel of a variant (and a room's options); null hides the button.
 * `now`, when given, returns the restrictions in force for the viewer now (rendered items
 * `{name, reason}` in HTML), shown at the top of the panel. */
export function showRulesButton(info, options, now = null) {
  rulesFor = info ? { info, options, now } : null;
  const btn = document.getElementById("rules-btn");
  btn.hidden = !info;
  btn.textContent = t("rules");
}

function openRules() {
  if (!rulesFor) return;
  const overlay = document.getElementById("overlay");
  overlay.innerHTML = `<div class="panel" role="dialog" aria-label="${t("rules")}">` +
    `<button type="button" class="close" data-close>${t("close")}</button>` +
    `${rulesHtml(rulesFor.info, rulesFor.options, rulesFor.now ? rulesFor.now() : null)}</div>`;
  overlay.hidden = false;
}

/** Ask before something that cannot be undone: `html` says what it costs; resolves true
 * for `yes`, false for `no`, a tap outside the box or Escape. */
export function confirmBox(html, yes, no) {
  const overlay = document.getElementById("overlay");
  overlay.innerHTML = `<div class="panel confirm" role="alertdialog" aria-label="${yes}">${html}` +
    `<div class="row"><button type="button" class="danger" data-confirm="yes">${yes}</button>` +
    `<button type="button" class="primary" data-confirm="no" data-close>${no}</button></div></div>`;
  overlay.hidden = false;
  return new Promise((resolve) => {
    const done = (answer) => {
      overlay.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
      resolve(answer);
    };
    const onClick = (e) => {
      if (e.target.closest("[data-confirm=yes]")) {
        overlay.hidden = true;
        overlay.innerHTML = "";
        done(true);
      } else if (e.target === overlay || e.target.closest("[data-close]")) done(false);
    };
    const onKey = (e) => {
      if (e.key === "Escape") done(false);
    };
    overlay.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
  });
}

/** Draw the rules panel again if it is open (what is in force has changed). */
export function refreshRules() {
  const overlay = document.getElementById("overlay");
  if (!overlay.hidden && rulesFor && rulesFor.now && overlay.querySelector(".panel .in-force")) {
    const scroll = overlay.querySelector(".panel").scrollTop;
    openRules();
    overlay.querySelector(".panel").scrollTop = scroll;
  }
}

function closeOverlay() {
  const overlay = document.getElementById("overlay");
  overlay.hidden = true;
  overlay.innerHTML = "";
}

/** The header's buttons; `redraw` is called after the language changes. */
export function initFrame(redraw) {
  onLang = redraw;
  const langBtn = document.getElementById("lang-btn");
  const label = () => {
    langBtn.textContent = t("lang_switch");
    document.getElementById("home").textContent = t("app");
    document.getElementById("rules-btn").textContent = t("rules");
  };
  label();
  langBtn.onclick = () => {
    setLang(getLang() === "zh" ? "en" : "zh");
    label();
    if (!document.getElementById("overlay").hidden && rulesFor) openRules();
    onLang();
  };
  document.getElementById("rules-btn").onclick = openRules;
  const overlay = document.getElementById("overlay");
  overlay.onclick = (e) => {
    if (e.target === overlay || e.target.closest("[data-close]")) closeOverlay();
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !overlay.hidden) closeOverlay();
  });
  setInterval(tick, 250);
}

/** Whole seconds left to `deadline` (epoch ms) at `now`, rounded up, never below 0. */
export function secondsLeft(deadline, now = Date.now()) {
  return Math.max(0, Math.ceil((Number(deadline) - now) / 1000));
}

/** A countdown to `deadline` (epoch ms), kept up to date by the ticker. */
export function countdownHtml(deadline, cls = "") {
  const left = secondsLeft(deadline);
  const urgent = left <= 5 ? " urgent" : "";
  return `<span class="countdown ${cls}${urgent}" data-deadline="${Number(deadline)}">${t("seconds", { n: left })}</span>`;
}

/** Every countdown on the page: seconds left to its data-deadline. */
function tick() {
  for (const el of document.querySelectorAll(".countdown[data-deadline]")) {
    const left = secondsLeft(el.getAttribute("data-deadline"));
    const text = t("seconds", { n: left });
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", left <= 5);
  }
}

