// A table set up in the page from the client's own modules, for test_web.py's 听牌提示 test:
// guangdong, the seat's turn with a nine-gates hand and a drawn 5p; some tiles in the rivers.
async () => {
    const { Game } = await import("/static/game.js");
    const { variantInfo } = await import("/static/api.js");
    const g = new Game(document.getElementById("app"), "100000");
    g.info = await variantInfo("guangdong");
    const seat = (i) => ({ seat: i, name: `P${i}`, bot: null, connected: true, ready: false, auto: false });
    g.room = { room: "100000", variant: "guangdong", hands: 8, hand_index: 0, status: "playing",
               totals: [0, 0, 0, 0], seats: [0, 1, 2, 3].map(seat) };
    g.seat = 0;
    g.ws = { readyState: 1, send() {} };
    const other = (i, discards) => ({ seat: i, hand: null, drawn: null, hand_size: 13, melds: [], discards, flowers: [] });
    const mine = { seat: 0, hand: "1112345678999m5p", drawn: "5p", hand_size: 14, melds: [],
                   discards: [], flowers: [] };
    g.view = { seat: 0, variant: "guangdong", options: {}, dealer: 0, counters: { dealer_run: 1 },
               wild: null, revealed: {}, variant_state: {}, live: 60, phase: "turn", current: 0,
               window_tile: null, window_from: null,
               seats: [mine, other(1, ["9m"]), other(2, ["5m", "5m"]), other(3, [])] };
    const tiles = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p"];
    g.legal = tiles.map((tile) => ({ seat: 0, type: "discard", tile }));
    window.majiang = g;
    g.draw();
}
