"""``simulate --backend ray`` (issue 20): the same bytes as one process and as a process
pool, for every variant; a lost worker's chunk retried and counted once; joining a cluster."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majiang.cli import main
from majiang.cli.backends import Backend, run_chunks
from majiang.cli.simulate import SimConfig, SimStats, _play_units, run_simulation
from majiang.errors import MajiangError
from majiang.rules import VARIANTS

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
import ray

ALL = sorted(VARIANTS)
BOTS = "random,greedy,random,greedy"


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """One local Ray runtime for the module (2 CPUs, no dashboard), as the issue asks; the
    backend uses a runtime that is already up instead of starting its own."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()


def simulate(*argv: str) -> tuple[int, str, str]:
    """``majiang simulate ARGV`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["simulate", *argv])
        except SystemExit as stop:  # argparse's own refusals
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("variant", ALL)
def test_ray_prints_the_same_json_bytes_as_one_process_and_a_pool(variant: str) -> None:
    """--json of one process, two processes and Ray are byte for byte equal."""
    base = ["--variant", variant, "--hands", "60", "--bots", BOTS, "--seed", "3", "--json"]
    outs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--backend", "ray", "--chunk", "7"]):
        code, out, err = simulate(*base, *extra)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    summary = json.loads(outs[0])
    assert summary["hands"] == 60
    assert "seconds" not in summary  # the timing goes to stderr: it differs run to run


def arena(*argv: str) -> tuple[int, str, str]:
    """``majiang arena ARGV`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["arena", *argv])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("variant", ALL)
def test_the_arena_on_ray_prints_the_same_json_bytes_as_one_process_and_a_pool(
    variant: str,
) -> None:
    """majiang arena: one process, two processes and Ray agree byte for byte."""
    base = ["--variant", variant, "--bots", "greedy,random", "--hands", "6", "--seed", "4",
            "--json"]
    outs = []
    for extra in (["--workers", "1"], ["--workers", "2", "--chunk", "1"],
                  ["--backend", "ray", "--chunk", "2"]):
        code, out, err = arena(*base, *extra)
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    assert json.loads(outs[0])


def test_ray_writes_the_same_records_as_one_process(tmp_path: Path) -> None:
    """--records: the same files with the same bytes, written by the driver."""
    dirs = []
    for name, extra in (("one", ["--workers", "1"]), ("ray", ["--backend", "ray"])):
        out = tmp_path / name
        code, _, err = simulate(
            "--variant", "hainan", "--matches", "5", "--match-hands", "2", "--bots", BOTS,
            "--records", str(out), "--chunk", "2", "--json", *extra,
        )
        assert code == 0, err
        dirs.append(out)
    names = sorted(p.name for p in dirs[0].iterdir())
    assert len(names) == 5 and names == sorted(p.name for p in dirs[1].iterdir())
    for n in names:
        assert (dirs[0] / n).read_bytes() == (dirs[1] / n).read_bytes()


@pytest.mark.parametrize("chunk", [1, 4, 30])
def test_the_chunk_size_never_changes_the_numbers(chunk: int) -> None:
    config = SimConfig("hongzhong", {}, ("greedy", "random", "greedy", "random"), 5, hands=30)
    one, _ = run_simulation(config, workers=1, progress=False)
    other, _ = run_simulation(config, progress=False, backend=Backend("ray"), chunk=chunk)
    assert one == other


def _same(a: SimStats, b: SimStats) -> bool:
    return a == b and a.hands == b.hands


def test_a_killed_ray_worker_is_retried_and_counted_once(tmp_path: Path) -> None:
    """The worker running the fourth chunk dies mid-run (os._exit, as a lost node would):
    Ray runs that chunk again and the totals equal an undisturbed run's."""
    marker = tmp_path / "killed"
    config = SimConfig("guangdong", {}, ("greedy",) * 4, seed=11, hands=48)
    chunks = [(s, 6) for s in range(0, 48, 6)]

    def dies_once(config: SimConfig, chunk: tuple[int, int]) -> SimStats:
        if chunk[0] == 18:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os._exit(1)
        return _play_units(config, chunk)

    seen: list[int] = []
    parts = run_chunks(dies_once, config, chunks, Backend("ray"), lambda p: seen.append(p.hands))
    assert marker.exists()  # the worker did die
    assert sum(seen) == 48 and len(seen) == len(chunks)  # the lost chunk counted once
    got = SimStats()
    for p in parts:
        got.merge(p)
    want, _ = run_simulation(config, workers=1, progress=False)
    assert _same(got, want)


def _pool_dies_once(config: tuple[str, SimConfig], chunk: tuple[int, int]) -> SimStats:
    marker, sim = config
    if chunk[0] == 12:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            pass
        else:
            os._exit(1)
    return _play_units(sim, chunk)


def test_a_killed_pool_worker_is_retried_and_counted_once(tmp_path: Path) -> None:
    """The process backend too: a dead worker breaks the pool; a new pool runs the chunks
    that had not come back, and nothing is counted twice."""
    marker = tmp_path / "killed"
    sim = SimConfig("taizhou", {}, ("random",) * 4, seed=2, hands=40)
    chunks = [(s, 4) for s in range(0, 40, 4)]
    seen: list[int] = []
    parts = run_chunks(
        _pool_dies_once, (str(marker), sim), chunks, Backend("process", 2),
        lambda p: seen.append(p.hands),
    )
    assert marker.exists()
    assert sum(seen) == 40
    got = SimStats()
    for p in parts:
        got.merge(p)
    want, _ = run_simulation(sim, workers=1, progress=False)
    assert _same(got, want)


def test_an_error_in_the_work_is_the_projects_error_not_retried() -> None:
    """A MajiangError raised in a Ray task reaches the user as itself, once."""

    def refuses(config: int, chunk: int) -> int:
        raise MajiangError(f"chunk {chunk} refused")

    with pytest.raises(MajiangError, match="chunk 0 refused"):
        run_chunks(refuses, 0, [0], Backend("ray"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_joining_a_ray_cluster_by_address_gives_the_same_numbers() -> None:
    """A head node started by ``ray start --head`` on loopback; ``--address host:port``
    joins it (in a separate process, as a user would) and prints the one-process bytes."""
    port = _free_port()
    temp = Path(f"/tmp/mjray{os.getpid()}")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    ray_bin = Path(sys.executable).parent / "ray"
    head = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
         "--port", str(port), "--num-cpus", "2", "--include-dashboard", "false",
         "--temp-dir", str(temp), "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert head.poll() is None, head.stderr.read().decode()[-2000:] if head.stderr else ""
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            assert time.monotonic() < deadline, "ray start --head did not listen"
            time.sleep(0.5)
        argv = ["--variant", "hangzhou", "--hands", "30", "--bots", BOTS, "--json"]
        joined = subprocess.run(
            [sys.executable, "-m", "majiang", "simulate", *argv, "--backend", "ray",
             "--address", f"127.0.0.1:{port}"],
            env=env, capture_output=True, text=True, timeout=240,
        )
        assert joined.returncode == 0, joined.stderr[-3000:]
        assert "on ray (127.0.0.1:" in joined.stderr
        code, local, err = simulate(*argv, "--workers", "1")
        assert code == 0, err
        assert joined.stdout == local
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--address", "auto"], "--address joins a Ray cluster: it needs --backend ray"),
        (["--backend", "ray", "--address", "nowhere"], "--address takes auto, ray://host:port"),
        (["--backend", "ray", "--address", "http://h:1"], "--address takes auto"),
        (["--backend", "ray", "--address", "ray://h:port"], "--address takes auto"),
        (["--chunk", "0"], "--chunk must be at least 1, got 0"),
        (["--backend", "ray", "--workers", "0"], "--workers must be at least 1, got 0"),
        (["--backend", "spark"], "invalid choice: 'spark'"),
    ],
)
def test_bad_backend_arguments_are_one_line_and_run_nothing(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    records = tmp_path / "out"
    code, out, err = simulate("--hands", "5", "--records", str(records), *argv)
    assert code == 2 and out == ""
    assert message in err
    assert "Traceback" not in err
    assert not records.exists()


def test_an_address_with_nothing_listening_is_refused_before_any_work(tmp_path: Path) -> None:
    records = tmp_path / "out"
    code, _, err = simulate(
        "--hands", "5", "--backend", "ray", "--address", f"ray://127.0.0.1:{_free_port()}",
        "--records", str(records),
    )
    assert code == 2
    assert "no Ray cluster answers at 127.0.0.1:" in err
    assert not records.exists()


def test_run_chunks_keeps_chunk_order_whatever_finishes_first() -> None:
    """Results come back in chunk order; ``done`` sees every one exactly once."""

    def double(config: Any, chunk: int) -> int:
        return chunk * 2

    seen: list[int] = []
    got = run_chunks(double, None, list(range(40)), Backend("ray"), seen.append)
    assert got == [2 * i for i in range(40)]
    assert sorted(seen) == got


EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "ray"


def test_the_ray_up_cluster_file_is_one_ray_up_accepts() -> None:
    """examples/ray/cluster.yaml passes the checks ``ray up`` makes (Ray's own defaults and
    schema); a key Ray does not know is refused by the same checks."""
    import jsonschema
    import yaml
    from ray.autoscaler._private.util import prepare_config, validate_config

    config = yaml.safe_load((EXAMPLES / "cluster.yaml").read_text())
    prepared = prepare_config(config)
    validate_config(prepared)
    assert prepared["provider"]["type"] == "local"
    assert prepared["max_workers"] == len(config["provider"]["worker_ips"])
    with pytest.raises(jsonschema.ValidationError):
        validate_config({**prepared, "min_workers": 3})


def test_the_kuberay_job_runs_the_same_command_line() -> None:
    """examples/ray/raycluster.yaml: a RayJob whose entrypoint is a majiang simulate command
    line that the CLI accepts, on Ray, joining its cluster."""
    import shlex

    import yaml

    from majiang.cli import _parser

    job = yaml.safe_load((EXAMPLES / "raycluster.yaml").read_text())
    assert (job["apiVersion"], job["kind"]) == ("ray.io/v1", "RayJob")
    argv = shlex.split(job["spec"]["entrypoint"])
    assert argv[0] == "majiang"
    args = _parser().parse_args(argv[1:])
    assert (args.command, args.backend, args.address) == ("simulate", "ray", "auto")
    cluster = job["spec"]["rayClusterSpec"]
    assert cluster["workerGroupSpecs"][0]["replicas"] >= 1
    images = {
        c["image"]
        for group in [cluster["headGroupSpec"], *cluster["workerGroupSpecs"]]
        for c in group["template"]["spec"]["containers"]
    }
    assert len(images) == 1  # the driver's majiang and Ray on every node
