// The browser game's entry: which screen the address asks for (the lobby at /, a room at
// /?room=N, a replay at /replay/{room} or /replay), and the header's frame around it.

import { Game } from "./game.js";
import { Lobby } from "./lobby.js";
import { Replay } from "./replay.js";
import { initFrame } from "./ui.js";

function route(app) {
  const replay = location.pathname.match(/^\/replay(?:\/([^/]+))?\/?$/);
  if (replay) return new Replay(app, replay[1] ? decodeURIComponent(replay[1]) : null);
  const room = new URLSearchParams(location.search).get("room");
  if (room) return new Game(app, room);
  return new Lobby(app);
}

const app = document.getElementById("app");
const screen = route(app);
initFrame(() => {
  if (screen.draw) screen.draw();
});
window.majiang = screen;
screen.start();
