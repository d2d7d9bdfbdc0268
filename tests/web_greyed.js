// A table set up in the page from the client's own modules, for test_web_client.py's
// greyed-tile test: hangzhou, the seat's turn under 抓打 (seat 1 threw a wild), so only
// the tile just drawn may be discarded; the hand would also win on that tile.
async () => {
    const { Game } = await import("/static/game.js");
    const { variantInfo } = await import("/static/api.js");
    const g = new Game(document.getElementById("app"), "100000");
    g.info = await variantInfo("hangzhou");
    const names = ["Ann", "Bo", "Cy", "Di"];
    const seat = (i) => ({ seat: i, name: names[i], bot: null, connected: true, ready: false, auto: false });
    g.room = { room: "100000", variant: "hangzhou", hands: 8, hand_index: 0, status: "playing",
               totals: [0, 0, 0, 0], seats: [0, 1, 2, 3].map(seat) };
    g.seat = 0;
    g.ws = { readyState: 1, send() {} };
    const other = (i, discards) => ({ seat: i, hand: null, drawn: null, hand_size: 13, melds: [], discards, flowers: [] });
    const mine = { seat: 0, hand: "123m456p789s1122z9m", drawn: "9m", hand_size: 14, melds: [],
                   discards: [], flowers: [] };
    g.view = { seat: 0, variant: "hangzhou", options: {}, dealer: 0, counters: { lao: 1 },
               wild: "5z", revealed: {}, variant_state: { zhuada: 1 }, live: 60, phase: "turn", current: 0,
               window_tile: null, window_from: null,
               seats: [mine, other(1, ["5z"]), other(2, []), other(3, [])] };
    g.legal = [{ seat: 0, type: "discard", tile: "9m" }];
    g.restrictions = [{ id: "zhuada", detail: "S1" }];
    window.majiang = g;
    g.draw();
}
