"""Bots, the arena and majiang simulate (issue: bots and simulate)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import Bot, GreedyBot, RandomBot, play_hand
from majiang.bots.arena import arena, mean_ci
from majiang.cli import main
from majiang.cli.simulate import SimConfig, parse_option, run_simulation
from majiang.engine import Action, Match
from majiang.engine.state import HandState
from majiang.observation import Observation
from majiang.records import load, replay
from majiang.rules import VARIANTS
from majiang.testing import check_variant, hidden_permuted

ALL = sorted(VARIANTS)


@pytest.mark.parametrize("variant", ALL)
def test_greedy_beats_random_in_the_arena(variant: str) -> None:
    """Duplicate deals: greedy's mean points per hand are above zero, CI clear of it."""
    result = arena(variant, ["greedy", "random", "greedy", "random"], deals=20, seed=5)
    greedy, rand = result.scores
    assert result.hands == 80
    assert greedy.mean - greedy.ci > 0, result.table()
    assert rand.mean + rand.ci < 0, result.table()


def test_arena_is_duplicate_every_bot_in_every_seat() -> None:
    """Two identical bots share the points of a deal exactly, so both means are equal."""
    result = arena("guangdong", ["random", "random", "random", "random"], deals=3, seed=1)
    score = result.scores[0]
    assert len(result.scores) == 1 and len(score.points) == 48 and len(score.per_deal) == 3
    assert sum(result.scores[0].points) == 0


def test_mean_ci() -> None:
    mean, ci = mean_ci([1.0, 3.0])
    assert mean == 2.0 and ci == pytest.approx(1.96 * 1.0)


class Recorder:
    """A bot that checks it is offered its own legal actions and an observation that
    tiles hidden from it cannot change (DESIGN.md, information sets); picks the first."""

    name = "recorder"

    def __init__(self, state: HandState) -> None:
        self.seen = 0
        self.state = state
        self.rng = random.Random(7)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        assert observation.seat == seat
        assert observation == self.state.observation(seat)
        assert list(observation.legal) == list(legal) == self.state.legal_actions(seat)
        assert list(observation.hand) == self.state.hand_tiles(seat)
        other = hidden_permuted(self.state, seat, self.rng)
        assert other.observation(seat) == observation
        self.seen += 1
        return legal[0]


@pytest.mark.parametrize("variant", ALL)
def test_greedy_and_custom_bots_pick_legal_actions(variant: str) -> None:
    """Every bot's choice applies (play_hand would raise on an illegal one)."""
    for seed in range(3):
        rng = random.Random(seed)
        match = Match(variant, {}, seed)
        state = match.new_hand()
        rec = Recorder(state)
        bots: list[Bot] = [GreedyBot(rng), RandomBot(rng), rec, GreedyBot(rng)]
        decisions = play_hand(state, bots)
        assert decisions > 0 and rec.seen > 0
        assert sum(state.result().deltas) == 0


class WinChecker:
    """Greedy, checked: whenever a win is among its legal actions it takes it."""

    name = "checked"

    def __init__(self, rng: random.Random) -> None:
        self.inner = GreedyBot(rng)
        self.wins_offered = 0

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        choice = self.inner.act(observation, legal)
        if any(a.type == "hu" for a in legal):
            self.wins_offered += 1
            assert choice == Action(observation.seat, "hu"), (legal, choice)
        return choice


@pytest.mark.parametrize("variant", ALL)
def test_greedy_takes_a_legal_win(variant: str) -> None:
    rng = random.Random(2)
    bots = [WinChecker(rng) for _ in range(4)]
    for seed in range(6):
        play_hand(Match(variant, {}, seed).new_hand(), bots)
    assert sum(b.wins_offered for b in bots) > 0


def test_parse_option() -> None:
    assert parse_option("horses=false") == ("horses", False)
    assert parse_option("base_score=3") == ("base_score", 3)
    assert parse_option("wild_mode=flipped") == ("wild_mode", "flipped")


@pytest.mark.parametrize("variant", ALL)
def test_simulated_records_replay_identically(variant: str, tmp_path: Path) -> None:
    """Records written by simulate replay to the same points the simulation counted."""
    config = SimConfig(
        variant,
        {},
        ("greedy", "random", "greedy", "random"),
        seed=3,
        matches=3,
        match_hands=3,
        records=str(tmp_path),
    )
    stats, _ = run_simulation(config, workers=1, progress=False)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    totals = [0, 0, 0, 0]
    hands = 0
    for f in files:
        result = replay(load(f))
        hands += len(result["hands"])
        for s in range(4):
            totals[s] += result["totals"][s]
    assert hands == stats.hands
    assert totals == [sum(p) for p in stats.points]
    assert sum(totals) == 0


def test_simulate_workers_agree_with_one_process() -> None:
    config = SimConfig("hongzhong", {}, ("greedy",) * 4, seed=9, hands=60)
    one, _ = run_simulation(config, workers=1, progress=False)
    two, _ = run_simulation(config, workers=2, progress=False)
    assert one.points == two.points and one.patterns == two.patterns


def test_simulate_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "--variant",
            "taizhou",
            "--hands",
            "20",
            "--workers",
            "1",
            "--option",
            "settlement=winner_only",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 20 and out["options"]["settlement"] == "winner_only"
    assert len(out["seats"]) == 4 and sum(s["wins"] for s in out["seats"]) <= 20


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--option", "horses=maybe"], "horses"),
        (["--option", "nonsense=1"], "no option 'nonsense'"),
        (["--bots", "greedy,random"], "four bots"),
        (["--bots", "greedy,greedy,greedy,oracle"], "unknown bot 'oracle'"),
        (["--variant", "riichi"], "unknown variant"),
        (["--hands", "5", "--matches", "5"], "either --hands"),
    ],
)
def test_simulate_bad_input_runs_nothing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = tmp_path / "out"
    code = main(["simulate", *argv, "--records", str(records), "--workers", "1"])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not records.exists()


@pytest.mark.parametrize("variant", ALL)
def test_games_between_bots_keep_every_invariant(variant: str) -> None:
    """The conformance checks hold in games played by greedy and random bots."""
    steps = check_variant(variant, {}, games=8, seed=2, bots=["greedy", "random"] * 2)
    assert steps > 8 * 20


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32),
    size=st.sampled_from([2, 5, 8, 11, 14]),
    melded=st.booleans(),
)
def test_each_discard_and_each_draw_are_the_shanten_of_each_hand(
    variant: str, seed: int, size: int, melded: bool
) -> None:
    """The bots' one-call shanten of every discard and every draw (C, majiang.hand) give
    what the bots computed hand by hand before: _sh of the hand less, or plus, a tile."""
    from majiang.bots.greedy import _sh, each_discard, each_draw, variant_shapes

    rng = random.Random(seed)
    flags = variant_shapes(variant)
    if melded:
        flags = flags._replace(seven_pairs=False, thirteen_orphans=False)
    wild = rng.choice([None, 31, rng.randrange(34)])
    pool = [t for t in range(34) for _ in range(4)]
    rng.shuffle(pool)
    hand = pool[:size]
    every = each_discard(hand, wild, flags)
    for t in range(34):
        rest = list(hand)
        if t in rest:
            rest.remove(t)
            assert every[t] == _sh(rest, wild, flags), (hand, wild, t)
        else:
            assert every[t] == -2
    rest = hand[1:]
    kinds = [k for k in range(34) if rest.count(k) < 4 and rng.random() < 0.5]
    after = each_draw(rest, wild, flags, kinds)
    for k in kinds:
        assert after[k] == _sh([*rest, k], wild, flags), (rest, wild, k)
