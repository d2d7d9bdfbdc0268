// Sounds made by the page itself (Web Audio: short synthesized tones, no audio files):
// a discard's click, a claim's knock, a win's chord, a chime when it is your turn. Off by
// default; the table's toggle turns them on, remembered in this browser. The table's other
// switch lives here too: 听牌提示, on by default.

import { t } from "./i18n.js";

const KEY = "majiang.sound";
let ctx = null;

/** Whether sounds are on (off unless the player turned them on). */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** Turn sounds on or off (kept in localStorage); the first tap also unlocks audio. */
export function toggleSound() {
  const on = !soundOn();
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // private mode: on for this page only
  }
  if (on) {
    audio();
    playSound("turn", true);
  }
  return on;
}

/** The toggle as a tools-row button. */
export function soundButton() {
  const on = soundOn();
  return `<button type="button" data-act="sound" class="${on ? "on" : "quiet"}" aria-pressed="${on}">${t(on ? "sound_on" : "sound_off")}</button>`;
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

/** Notes of each sound: [frequency Hz, start s, length s, wave, volume]. */
const SOUNDS = {
  discard: [[880, 0, 0.06, "triangle", 0.25], [440, 0.01, 0.08, "square", 0.05]],
  claim: [[330, 0, 0.09, "square", 0.12], [495, 0.08, 0.12, "square", 0.12]],
  turn: [[660, 0, 0.12, "sine", 0.2], [990, 0.1, 0.16, "sine", 0.16]],
  win: [[523, 0, 0.3, "triangle", 0.2], [659, 0.08, 0.3, "triangle", 0.2], [784, 0.16, 0.4, "triangle", 0.2], [1047, 0.24, 0.5, "sine", 0.15]],
};

/** Play one of the sounds above if sounds are on (`force`: even if off, for the toggle). */
export function playSound(name, force = false) {
  if (!force && !soundOn()) return;
  const a = audio();
  const notes = SOUNDS[name];
  if (!a || !notes) return;
  const now = a.currentTime;
  for (const [freq, start, length, wave, volume] of notes) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(volume, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(a.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

const HINTS = "majiang.hints";

/** Whether 听牌提示 is shown (on unless the player turned it off). */
export function hintsOn() {
  try {
    return localStorage.getItem(HINTS) !== "off";
  } catch {
    return true;
  }
}

/** Show or hide 听牌提示 (kept in localStorage). */
export function toggleHints() {
  try {
    localStorage.setItem(HINTS, hintsOn() ? "off" : "on");
  } catch {
    // private mode: nothing kept
  }
}

/** The 听牌提示 switch as a tools-row button. */
export function hintsButton() {
  const on = hintsOn();
  return `<button type="button" data-act="hints" class="${on ? "on" : "quiet"}" aria-pressed="${on}">${t(on ? "hints_on" : "hints_off")}</button>`;
}
