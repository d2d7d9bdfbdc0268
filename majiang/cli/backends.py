"""Where chunks of seeded work run: in this process, in a process pool, or on Ray.

``simulate`` and ``arena`` cut their work into chunks whose results depend only on the
configuration and the chunk (the seeds are derived from the chunk's indices), so whichever
backend runs them, and in whatever order they finish, the merged results are the same: they
are merged in chunk order (docs/scaling.md).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from majiang.errors import MajiangError

__all__ = ["BACKENDS", "Backend", "add_backend_arguments", "run_chunks"]

BACKENDS = ("process", "ray")
"""``process``: this machine's cores (one process when --workers 1); ``ray``: Ray tasks."""

RETRIES = 3
"""A chunk whose worker died (a killed process, a lost node) is run again up to this often."""

C = TypeVar("C")
K = TypeVar("K")
R = TypeVar("R")


@dataclass(frozen=True)
class Backend:
    """A validated choice of backend, worker count and (for Ray) cluster address."""

    name: str = "process"
    workers: int | None = None
    address: str | None = None

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise MajiangError(
                f"--backend must be one of {', '.join(BACKENDS)}, got {self.name!r}"
            )
        if self.workers is not None and self.workers < 1:
            raise MajiangError(f"--workers must be at least 1, got {self.workers}")
        if self.address is not None:
            if self.name != "ray":
                raise MajiangError("--address joins a Ray cluster: it needs --backend ray")
            _check_address(self.address)

    @property
    def processes(self) -> int:
        """Worker processes of the process backend (default: the machine's cores)."""
        return self.workers or os.cpu_count() or 1

    def check(self) -> None:
        """Refuse, before any work starts, what cannot run: Ray not installed, a cluster
        address with nothing listening."""
        if self.name != "ray":
            return
        try:
            import ray  # noqa: F401
        except ImportError:
            raise MajiangError(
                "--backend ray needs Ray: pip install 'majiang[scale]'"
            ) from None
        if self.address is not None and self.address != "auto":
            host, port = _host_port(self.address)
            try:
                socket.create_connection((host, port), timeout=5).close()
            except OSError as err:
                raise MajiangError(
                    f"--address {self.address}: no Ray cluster answers at {host}:{port} "
                    f"({err.strerror or err})"
                ) from None

    @classmethod
    def of(cls, args: Any) -> Backend:
        """The backend the arguments of ``add_backend_arguments`` name."""
        return cls(args.backend, args.workers, args.address)

    def describe(self) -> str:
        """One line for the progress output: where the work runs."""
        if self.name == "ray":
            where = self.address or f"a local Ray runtime, {self.processes} CPUs"
            return f"ray ({where})"
        n = self.processes
        return "one process" if n == 1 else f"{n} processes"


def add_backend_arguments(p: Any, unit: str, chunk: int) -> None:
    """``--workers``, ``--backend``, ``--address`` and ``--chunk`` (``unit`` per task, default
    ``chunk``), the same for every command that runs seeded chunks; read by ``Backend.of``."""
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes, or with --backend ray the CPUs of the local runtime / tasks in flight "
        "(default: the machine's cores)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="process: this machine (default); ray: Ray tasks, locally or on a cluster "
        "(extra scale; the same numbers either way)",
    )
    p.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: join a cluster (auto, ray://host:port or host:port) "
        "instead of starting a local runtime",
    )
    p.add_argument(
        "--chunk",
        type=int,
        default=chunk,
        metavar="N",
        help=f"{unit} per task (default {chunk}); never changes the results",
    )


def _check_address(address: str) -> None:
    if address == "auto":
        return
    _host_port(address)


def _host_port(address: str) -> tuple[str, int]:
    """``ray://host:port`` or ``host:port``; MajiangError naming the address otherwise."""
    text = address if "://" in address else f"ray://{address}"
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "ray" or not parts.hostname or port is None or parts.path:
        raise MajiangError(
            f"--address takes auto, ray://host:port or host:port, got {address!r}"
        )
    return parts.hostname, port


def run_chunks(
    fn: Callable[[C, K], R],
    config: C,
    chunks: Sequence[K],
    backend: Backend,
    done: Callable[[R], None] | None = None,
) -> list[R]:
    """``[fn(config, chunk) for chunk in chunks]`` on the backend, in chunk order; ``done``
    sees each result as it arrives (for a progress bar). ``fn`` must be a top-level function
    whose result depends only on its arguments: a chunk run twice after a lost worker counts
    once."""
    if backend.name == "ray":
        return _run_ray(fn, config, chunks, backend, done)
    if backend.processes == 1 or len(chunks) <= 1:
        results = []
        for chunk in chunks:
            result = fn(config, chunk)
            if done is not None:
                done(result)
            results.append(result)
        return results
    return _run_pool(fn, config, chunks, backend.processes, done)


def _run_pool(
    fn: Callable[[C, K], R],
    config: C,
    chunks: Sequence[K],
    processes: int,
    done: Callable[[R], None] | None,
) -> list[R]:
    """A process pool; when a worker dies the pool is made anew and the unfinished chunks
    run again (at most RETRIES times each)."""
    results: dict[int, R] = {}
    tries = [0] * len(chunks)
    while len(results) < len(chunks):
        todo = [i for i in range(len(chunks)) if i not in results]
        for i in todo:
            tries[i] += 1
            if tries[i] > RETRIES + 1:
                raise MajiangError(
                    f"chunk {i} was lost {RETRIES + 1} times (its worker process died)"
                )
        with ProcessPoolExecutor(max_workers=min(processes, len(todo))) as pool:
            futures: dict[Future[R], int] = {pool.submit(fn, config, chunks[i]): i for i in todo}
            pending = set(futures)
            try:
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        result = fut.result()
                        results[futures[fut]] = result
                        if done is not None:
                            done(result)
            except BrokenProcessPool:
                for fut in pending:
                    fut.cancel()
    return [results[i] for i in range(len(chunks))]


def _run_ray(
    fn: Callable[[C, K], R],
    config: C,
    chunks: Sequence[K],
    backend: Backend,
    done: Callable[[R], None] | None,
) -> list[R]:
    """Ray tasks, retried by Ray when their worker or node is lost (never on an error of
    the work itself: that would fail again); at most two per CPU in flight."""
    backend.check()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import logging

    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
            "configure_logging": True,
        }
        if backend.address is None:
            kwargs["num_cpus"] = backend.processes
        try:
            ray.init(address=backend.address, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = backend.address or "a local runtime"
            raise MajiangError(f"--backend ray: cannot start or join {where}: {err}") from None
        started = True
    try:
        task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(fn)
        shared = ray.put(config)
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        limit = 2 * (backend.workers or max(1, cpus))
        results: dict[int, R] = {}
        index: dict[Any, int] = {}
        queue = list(range(len(chunks)))
        queue.reverse()
        while queue or index:
            while queue and len(index) < limit:
                i = queue.pop()
                index[task.remote(shared, chunks[i])] = i
            ready, _ = ray.wait(list(index), num_returns=1)
            for ref in ready:
                i = index.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as err:
                    cause = err.as_instanceof_cause()  # type: ignore[no-untyped-call]
                    if isinstance(cause, MajiangError):
                        raise MajiangError(str(cause)) from None
                    raise
                except ray.exceptions.RayError as err:
                    raise MajiangError(
                        f"chunk {i} was lost {RETRIES + 1} times on Ray: {type(err).__name__}"
                    ) from None
                results[i] = result
                if done is not None:
                    done(result)
        return [results[i] for i in range(len(chunks))]
    finally:
        if started:
            ray.shutdown()
