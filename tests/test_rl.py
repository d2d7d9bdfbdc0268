"""majiang.rl (issue 18): PettingZoo and Gymnasium conformance, masks, rewards, no leak."""

from __future__ import annotations

import functools
import pickle
import random
import types
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import majiang.rl as rl
from majiang.bots import BOTS, make_bot
from majiang.engine import Match
from majiang.errors import IllegalActionError, MajiangError, OptionError
from majiang.rl.actions import ACTION_NAMES, HU, legal_indices
from majiang.rl.features import CONSTANT_NAMES, VARIANT_STATE_KEYS
from majiang.rules import get_variant
from majiang.testing import hidden_permuted

VARIANTS = rl.VARIANTS


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_seed_and_parallel_tests_pass(variant: str) -> None:
    api_test(rl.env(variant), num_cycles=200)
    seed_test(functools.partial(rl.env, variant), num_cycles=150)
    parallel_api_test(rl.parallel_env(variant), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_max_cycles_test_passes_on_the_parallel_env_and_its_aec_form(variant: str) -> None:
    # max_cycles_test samples actions without the mask, hence illegal="penalty"
    mod = types.SimpleNamespace(
        parallel_env=functools.partial(rl.parallel_env, variant, illegal="penalty"),
        env=lambda **kw: parallel_to_aec(rl.parallel_env(variant, illegal="penalty", **kw)),
    )
    max_cycles_test(mod)


def test_env_is_order_enforcing_and_observations_are_fresh_arrays() -> None:
    """``env()`` is PettingZoo's order-enforcing wrapper (a subclass reading the env
    directly): per-episode data and stepping before reset are refused as PettingZoo
    does; every ``observe``/``last`` gives arrays of its own."""
    env = rl.env("hongzhong")
    assert isinstance(env, OrderEnforcingWrapper) and env.unwrapped is env.env
    for name in ("agent_selection", "agents", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="private attribute"):
        _ = env._rng
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))  # the wrapper's forwarding survives a round trip
    assert copy.agent_selection == env.agent_selection
    bare = rl.aec.OrderEnforcing.__new__(rl.aec.OrderEnforcing)  # no env wrapped yet
    assert not hasattr(bare, "metadata_of_nothing")
    first, *_ = env.last()
    again = env.observe(env.agent_selection)
    assert first is not None and again is not None
    first["observation"][:] = 9.0
    first["action_mask"][:] = 0
    fresh, *_ = env.last()
    assert fresh is not None
    assert (fresh["observation"] == again["observation"]).all()
    assert (fresh["action_mask"] == again["action_mask"]).all() and fresh["action_mask"].any()
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps > 4 and env.agents == []
    with pytest.raises(AssertionError, match="need to call step"):
        env.reset(seed=4)
        it = iter(env.agent_iter())
        next(it)
        next(it)


def test_the_aec_env_truncates_after_max_cycles_moments_like_the_parallel_env() -> None:
    aec = rl.raw_env("hangzhou", max_cycles=7)
    aec.reset(seed=5)
    par = rl.parallel_env("hangzhou", max_cycles=7)
    obs, _ = par.reset(seed=5)
    steps = 0
    while not any(aec.truncations.values()):
        o, *_ = aec.last()
        aec.step(int(np.flatnonzero(o["action_mask"])[0]))
        steps += 1
    assert aec.table.moments == 7
    for _ in range(7):
        acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
        obs, _r, _t, trunc, _i = par.step(acts)
    assert all(trunc.values()) and par.agents == []
    assert par.table.steps == aec.table.steps == steps


@pytest.mark.parametrize("gym_id", rl.GYM_IDS)
def test_gymnasium_check_env_passes(gym_id: str) -> None:
    # check_env steps with unmasked samples: the penalty keeps the state unchanged
    check_env(gymnasium.make(gym_id, illegal="penalty").unwrapped, skip_render_check=True)


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_gymnasium_vector_envs_with_explicit_autoreset(vector: type, mode: AutoresetMode) -> None:
    venv = vector(
        [lambda: gymnasium.make("majiang/Hainan-v1", opponents="greedy") for _ in range(2)],
        autoreset_mode=mode,
    )
    try:
        obs, _ = venv.reset(seed=11)
        gen = np.random.default_rng(0)
        ended = 0
        prev_done = np.zeros(2, bool)
        for _ in range(120):
            mask = obs["action_mask"]
            for i in range(2):
                # a live observation always has a choice; after an end (next-step mode) none
                assert mask[i].any() or (mode is AutoresetMode.NEXT_STEP and prev_done[i])
            acts = np.array([gen.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
            obs, _r, term, trunc, _info = venv.step(acts)
            prev_done = term | trunc
            ended += int(term.sum())
        assert obs["observation"].shape == (2, rl.PLANES, 34)
        assert ended >= 2
    finally:
        venv.close()


def _legal_set(table: rl.table.Table) -> set[int]:  # type: ignore[name-defined]
    obs = table.state.observation(table.seat)
    return set(legal_indices(obs.legal, obs.window_tile, obs.wild))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_thousand_random_masked_hands(variant: str) -> None:
    """Random masked play: the mask is exactly the legal actions, every masked action is
    taken without error, and each seat's rewards add up to the engine's deltas."""
    env = rl.raw_env(variant, reward_scale=2.0)
    rng = random.Random(variant)
    wins = 0
    for hand in range(1000):
        env.reset(seed=hand)
        totals = dict.fromkeys(rl.AGENTS, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if hand % 50 == 0:
                table = env.table
                state_legal = table.state.observation(table.seat).legal
                assert set(legal) == _legal_set(table)
                assert len(legal) == len(state_legal)
                for i in legal:
                    assert rl.action_to_index(
                        rl.index_to_action(int(i), table.observation()), table.observation()
                    ) == i
            # random over the mask, taking a win when offered (so hands pay something)
            pick = HU if HU in legal else legal[rng.randrange(len(legal))]
            env.step(int(pick))
        state = env.table.state
        deltas = state.result().deltas
        wins += any(deltas)
        assert [totals[a] * 2.0 for a in rl.AGENTS] == deltas
    assert wins > 0  # seeded: guangdong random play wins a few hands in 1,000


def test_claims_are_asked_one_seat_at_a_time_and_none_sees_another_claim() -> None:
    """A window where two seats may claim: asked in turn order from the discarder, and
    the second's observation (array and mask) is the same whatever the first chose."""
    found = 0
    for seed in range(400):
        env = rl.raw_env("hangzhou")
        env.reset(seed=seed)
        rng = random.Random(seed)
        taken: list[int] = []
        while not any(env.terminations.values()):
            table = env.table
            waiting = table.waiting()
            if table.state.phase == "claim" and len(waiting) >= 2:
                src = table.state.window_from
                assert waiting == sorted(waiting, key=lambda s: (s - src) % 4)
                assert table.seat == waiting[0]
                first, second = waiting
                legal = np.flatnonzero(env.observe(rl.AGENTS[first])["action_mask"])
                outs = []
                for choice in (legal[0], legal[-1]):  # its best claim, and pass
                    twin = rl.raw_env("hangzhou")
                    twin.reset(seed=seed)
                    for a in taken:
                        twin.step(a)
                    assert twin.agent_selection == rl.AGENTS[first]
                    twin.step(int(choice))
                    assert twin.agent_selection == rl.AGENTS[second]
                    outs.append(twin.observe(rl.AGENTS[second]))
                assert np.array_equal(outs[0]["observation"], outs[1]["observation"])
                assert np.array_equal(outs[0]["action_mask"], outs[1]["action_mask"])
                found += 1
                break
            o, *_ = env.last()
            lg = np.flatnonzero(o["action_mask"])
            a = int(lg[rng.randrange(len(lg))])
            taken.append(a)
            env.step(a)
        if found >= 3:
            break
    assert found >= 3


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 120),
    shuffle=st.integers(0, 2**32 - 1),
)
def test_no_leak_permuting_hidden_tiles_changes_no_observation(
    variant: str, seed: int, steps: int, shuffle: int
) -> None:
    state = Match(variant, {}, seed=seed).new_hand()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.phase != "turn":
            state.auto_pass()
            if state.phase == "turn" or state.is_terminal():
                continue
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))])
    for seat in range(4):
        mine = state.observation(seat)
        other = hidden_permuted(state, seat, random.Random(shuffle)).observation(seat)
        assert np.array_equal(rl.encode(mine), rl.encode(other))
        assert legal_indices(mine.legal, mine.window_tile, mine.wild) == legal_indices(
            other.legal, other.window_tile, other.wild
        )


def test_the_encoding_reads_another_seats_hand_size_but_never_its_tiles() -> None:
    """Two deals that differ only in seat 1's concealed tiles encode alike for seat 0."""
    state = Match("guangdong", {}, seed=3).new_hand()
    twin = hidden_permuted(state, 0, random.Random(1))
    assert twin.hand_tiles(1) != state.hand_tiles(1)
    assert np.array_equal(rl.encode(state.observation(0)), rl.encode(twin.observation(0)))
    assert not np.array_equal(rl.encode(state.observation(1)), rl.encode(twin.observation(1)))


def test_reset_with_a_seed_is_reproducible_and_seeds_differ() -> None:
    def trajectory(seed: int) -> list[int]:
        env = rl.raw_env("taizhou")
        env.reset(seed=seed)
        out = []
        for _ in range(60):
            o, *_ = env.last()
            a = int(np.flatnonzero(o["action_mask"])[-1])
            out.append(a)
            env.step(a)
            if any(env.terminations.values()):
                break
        return out

    assert trajectory(4) == trajectory(4)
    assert trajectory(4) != trajectory(5)


def test_a_match_episode_plays_its_hands_and_pays_the_match_totals() -> None:
    env = rl.raw_env("guangdong", episode="match", hands=3)
    env.reset(seed=2)
    totals = dict.fromkeys(rl.AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    match = env.table.match
    assert match is not None and len(match.finished) == 3
    assert [totals[a] for a in rl.AGENTS] == match.totals


def test_an_illegal_action_is_refused_naming_it_and_changes_nothing() -> None:
    env = rl.raw_env("hongzhong")
    env.reset(seed=1)
    before = env.observe(env.agent_selection)
    history = list(env.table.state.history)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=ACTION_NAMES[illegal]):
        env.step(illegal)
    for junk in (-1, 217, 2.5, "3", None, True):
        with pytest.raises(MajiangError):
            env.step(junk)  # type: ignore[arg-type]
    assert env.table.state.history == history
    after = env.observe(env.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])


def test_bad_constructor_arguments_get_majiang_errors() -> None:
    with pytest.raises(OptionError, match="unknown variant"):
        rl.env("riichi")
    with pytest.raises(OptionError, match="horses"):
        rl.env("guangdong", {"horses": "many"})
    with pytest.raises(OptionError, match="episode"):
        rl.raw_env("guangdong", episode="season")
    with pytest.raises(OptionError, match="reward_scale"):
        rl.raw_env("guangdong", reward_scale=0)
    with pytest.raises(OptionError, match="opponents"):
        rl.MajiangGymEnv("guangdong", opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        rl.MajiangGymEnv("guangdong", opponents="nobody")
    with pytest.raises(OptionError, match="tables"):
        rl.VectorEnv("guangdong", 0)


def test_every_legal_action_has_its_own_index_and_comes_back() -> None:
    seen: set[str] = set()
    for variant in VARIANTS:
        options = {"wild_in_melds": True} if variant == "hangzhou" else {}
        for seed in range(30):
            state = Match(variant, options, seed=seed).new_hand()
            bots = [make_bot("greedy", random.Random(s)) for s in range(4)]
            while not state.is_terminal():
                if state.phase != "turn":
                    state.auto_pass()
                    if state.phase == "turn" or state.is_terminal():
                        continue
                for seat in state.to_act()[-1:]:
                    obs = state.observation(seat)
                    idx = legal_indices(obs.legal, obs.window_tile, obs.wild)
                    assert len(set(idx)) == len(idx) == len(obs.legal)
                    for a, i in zip(obs.legal, idx, strict=True):
                        assert rl.index_to_action(i, obs) == a
                        seen.add(ACTION_NAMES[i].split("_")[0])
                    state.apply(bots[seat].act(obs, obs.legal))
    assert {"discard", "peng", "kong", "chi", "hu", "pass"} <= seen
    with pytest.raises(IllegalActionError, match="outside"):
        rl.index_to_action(217, state.observation(0))


def test_batch_encoding_equals_one_by_one_and_every_value_is_in_range() -> None:
    state = Match("taizhou", {}, seed=9).new_hand()
    rng = random.Random(0)
    views = []
    while not state.is_terminal() and len(views) < 200:
        if state.phase != "turn":
            state.auto_pass()
            if state.phase == "turn" or state.is_terminal():
                continue
        seat = state.to_act()[0]
        views.extend(state.observation(s) for s in range(4))
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))])
    batch = rl.encode_batch(views)
    assert batch.shape == (len(views), rl.PLANES, 34)
    for i in range(0, len(views), 17):
        assert np.array_equal(batch[i], rl.encode(views[i]))
    assert batch.min() >= 0.0 and batch.max() <= 1.0


def test_the_encoding_covers_every_variants_state_and_counters() -> None:
    for variant in VARIANTS:
        v = get_variant(variant)
        state = Match(variant, {}, seed=0).new_hand()
        for key in state.observation(0).variant_state:
            assert key in VARIANT_STATE_KEYS, (variant, key)
        for name in v.counters:
            assert f"counter_{name}" in CONSTANT_NAMES, (variant, name)


def test_vector_env_steps_tables_and_pays_deltas() -> None:
    venv = rl.VectorEnv("hangzhou", 8, seed=3)
    out = venv.reset()
    assert out.obs.shape == (8, rl.PLANES, 34) and out.mask.shape == (8, rl.ACTION_COUNT)
    totals = np.zeros((8, 4))
    ends = 0
    gen = np.random.default_rng(0)
    for _ in range(600):
        assert out.mask.any(axis=1).all()
        for i, obs in enumerate(venv.observations()):
            assert obs.seat == out.seat[i]
            assert np.array_equal(out.obs[i], rl.encode(obs))
        tables_before = [t.state for t in venv.tables]
        out = venv.step(np.argmax(gen.random(out.mask.shape) * out.mask, axis=1))
        totals += out.rewards
        for i in np.flatnonzero(out.dones):
            assert list(out.rewards[i]) == tables_before[i].result().deltas
            ends += 1
    assert ends > 0
    assert np.allclose(totals.sum(axis=1), 0)
    bad = np.zeros(8, np.int64)
    bad[:] = [int(np.flatnonzero(m == 0)[0]) for m in out.mask]
    history = [list(t.state.history) for t in venv.tables]
    with pytest.raises(IllegalActionError, match="table 0"):
        venv.step(bad)
    assert [list(t.state.history) for t in venv.tables] == history


def test_the_examples_arena_evaluation_runs_on_the_shipped_weights() -> None:
    """examples/rl/train.py's evaluation (the duplicate arena against three random bots)
    on the shipped weights: the paired difference over the deals and its CI."""
    import argparse
    import importlib.util
    from pathlib import Path

    from majiang.rl.policy import DEFAULT_WEIGHTS

    path = Path(__file__).resolve().parents[1] / "examples" / "rl" / "train.py"
    spec = importlib.util.spec_from_file_location("rl_train_example", path)
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    figures = train.evaluate(DEFAULT_WEIGHTS, argparse.Namespace(variant="guangdong", deals=6,
                                                                 seed=0))
    assert figures["hands"] == 24
    assert figures["ci_low"] <= figures["diff"] <= figures["ci_high"]
    # the policy's mean less the random seats' mean (the pooled three), deal by deal
    assert figures["diff"] == pytest.approx(figures["rl_mean"] - figures["random_mean"])


def test_the_trained_policy_is_a_registered_bot_that_plays_legal_moves() -> None:
    assert "rl" in BOTS
    bot = make_bot("rl", random.Random(0))
    state = Match("guangdong", {}, seed=1).new_hand()
    from majiang.bots import play_hand

    play_hand(state, [bot, make_bot("random", random.Random(1)), make_bot("greedy",
              random.Random(2)), bot])
    assert state.is_terminal()


def test_policy_weights_round_trip_and_bad_files_are_refused(tmp_path: object) -> None:
    from pathlib import Path

    from majiang.rl.policy import Policy, PolicyError

    path = Path(str(tmp_path)) / "p.npz"
    policy = Policy.new(8, 0, "guangdong")
    policy.save(path)
    back = Policy.load(path)
    assert np.array_equal(back.w1, policy.w1) and back.meta == policy.meta
    junk = Path(str(tmp_path)) / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(PolicyError, match=r"junk\.npz"):
        Policy.load(junk)


def test_the_readme_examples_run_as_written() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = text.split("## Reinforcement learning", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2
    for block in blocks:
        assert len(block.strip().splitlines()) <= 14
        exec(compile(block, "README.md", "exec"), {})


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(sorted(rl.VARIANTS)),
    seed=st.integers(0, 2**32 - 1),
)
def test_play_applies_what_check_then_act_applies(variant: str, seed: int) -> None:
    """Table.play's one look-up (the engine's listed action for a legal int) plays the
    same hand as the checked path given the index as a numpy integer, step for step."""
    from majiang.rl.table import Table

    fast, slow = Table(variant), Table(variant)
    fast.start(seed)
    slow.start(seed)
    rng = random.Random(seed)
    while not fast.done:
        assert slow.seat == fast.seat and slow.legal() == fast.legal()
        index = rng.choice(fast.legal())
        deltas = fast.play(index)
        assert slow.act(slow.seat, slow.check(slow.seat, np.int64(index))) == deltas
        assert slow.state.history == fast.state.history
    assert slow.done and slow.state.result() == fast.state.result()
