"""majiang.store on SQLite and PostgreSQL: migrations, rooms, seats, the event log, records."""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgkit import postgres_schema
from sqlalchemy import create_engine, inspect, text

from majiang.store import (
    MatchSummary,
    RoomNumberTaken,
    RoomRow,
    SeatRow,
    Store,
    StoreError,
    default_url,
)
from majiang.store.schema import metadata
from majiang.values import JSON

BACKENDS = ("sqlite", "postgresql")
_numbers = itertools.count(100000)


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a fresh SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
    else:
        with postgres_schema() as pg_url:
            yield pg_url


@pytest.fixture
def opened(url: str) -> Iterator[Callable[[], Store]]:
    """Open Stores on ``url``, all closed at the end (before a PostgreSQL schema is dropped)."""
    stores: list[Store] = []

    def open_store() -> Store:
        stores.append(Store(url))
        return stores[-1]

    yield open_store
    for store in stores:
        store.close()


@pytest.fixture
def store(opened: Callable[[], Store]) -> Store:
    return opened()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_room(store: Store, number: str | None = None, **changes: object) -> RoomRow:
    """A room with two humans and a bot, under a fresh number unless ``number`` is given."""
    fields: dict[str, object] = {
        "number": number if number is not None else str(next(_numbers)),
        "variant": "guangdong",
        "options": {"fan_cap": 8, "flowers": True, "wild": "none"},
        "hands": 8,
        "turn_seconds": 15,
        "seed": 2**63 - 1,
        "creator_addr": "203.0.113.7",
        "seats": [
            SeatRow(0, "Ann", None, token_hash("tok-ann")),
            SeatRow(1, "小明", None, token_hash("tok-ming")),
            SeatRow(2, "greedy", "greedy", None),
        ],
    }
    fields.update(changes)
    return store.create_room(**fields)  # type: ignore[arg-type]


def head_revision() -> str:
    config = Config()
    config.set_main_option("script_location", "majiang.store:migrations")
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


# Migrations


def test_migrates_an_empty_database_and_reopens_idempotently(url: str) -> None:
    first = Store(url)
    room = new_room(first)
    first.append(room.id, [(1, "start", {})])
    first.close()
    for _ in range(2):  # re-open: no migration runs again, nothing is lost
        again = Store(url)
        assert again.room(room.number) == room
        assert [e.seq for e in again.events(room.id)] == [1]
        again.close()
    engine = create_engine(url)
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        versions = connection.execute(text("SELECT version_num FROM majiang_alembic_version"))
        assert [row[0] for row in versions] == [head_revision()]
    engine.dispose()
    assert tables == {
        "rooms",
        "seats",
        "events",
        "records",
        "nodes",
        "room_leases",
        "majiang_alembic_version",
    }


def test_the_migrated_schema_is_the_schema_the_code_uses(store: Store, url: str) -> None:
    """Alembic's autogenerate finds nothing to add, drop or change: the revisions and
    majiang/store/schema.py describe the same tables, indexes and columns."""
    engine = create_engine(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "version_table": "majiang_alembic_version"}
        )
        diff = compare_metadata(context, metadata)
        indexes = {
            ix["name"]: (ix["column_names"], ix["unique"])
            for ix in inspect(connection).get_indexes("rooms")
        }
    engine.dispose()
    assert diff == []
    assert indexes["ux_rooms_open_number"] == (["number"], True)


def test_sqlite_settings_are_applied_to_every_connection(tmp_path: Path) -> None:
    """WAL, synchronous=NORMAL, a busy timeout and foreign keys (docs/store.md, SQLite)."""
    with Store(f"sqlite:///{tmp_path / 'x.db'}") as store:
        engine = store._engine
        with engine.connect() as connection:
            pragma = {
                name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
            }
    assert pragma == {
        "journal_mode": "wal",
        "synchronous": 1,
        "busy_timeout": 10000,
        "foreign_keys": 1,
    }


def test_default_url_is_a_file_under_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/.majiang/majiang.db"
    assert (tmp_path / ".majiang").is_dir()
    with Store() as store:
        assert store.url == default_url()
        new_room(store, "424242")
    with Store("sqlite:///~/.majiang/majiang.db") as store:  # ~ expanded
        assert store.room("424242") is not None
    assert sqlite3.connect(tmp_path / ".majiang" / "majiang.db").execute(
        "SELECT number FROM rooms"
    ).fetchall() == [("424242",)]


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        ("not a url", "bad database URL not a url"),
        ("mysql://root:hunter2@db.example/mj", "unsupported database mysql://root:***@"),
        (
            "postgresql+nodriver://u:hunter2@h/d",
            "cannot open database postgresql+nodriver://u:***@",
        ),
        ("sqlite:////no/such/dir/x.db", "cannot open database sqlite:////no/such/dir/x.db:"),
        (
            "postgresql://mj:hunter2@127.0.0.1:1/mj",
            "cannot open database postgresql+psycopg://mj:***@127.0.0.1:1/mj: connection failed",
        ),
    ],
)
def test_a_bad_or_unreachable_database_is_one_line_naming_the_url(bad: str, shown: str) -> None:
    with pytest.raises(StoreError) as caught:
        Store(bad)
    message = str(caught.value)
    assert message.startswith(shown)
    assert "\n" not in message and "hunter2" not in message
    error = caught.value  # no chained driver traceback behind the one line
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)


# Rooms and seats


def test_create_room_reads_back_everywhere(store: Store) -> None:
    before = datetime.now(UTC)
    room = new_room(store, "482913")
    assert room.status == "waiting" and room.finished_at is None
    assert before <= room.created_at <= datetime.now(UTC)
    assert room.created_at.tzinfo is not None
    assert store.room("482913") == room
    assert store.room("999999") is None
    assert store.rooms_in_play() == [room]
    assert store.seats(room.id) == [
        SeatRow(0, "Ann", None, token_hash("tok-ann")),
        SeatRow(1, "小明", None, token_hash("tok-ming")),
        SeatRow(2, "greedy", "greedy", None),
    ]
    assert room.seed == 2**63 - 1 and room.options == {
        "fan_cap": 8,
        "flowers": True,
        "wild": "none",
    }


def test_set_seat_inserts_or_replaces_and_clear_seat_frees(store: Store) -> None:
    room = new_room(store)
    store.set_seat(room.id, SeatRow(3, "Dee", None, token_hash("tok-dee")))
    store.set_seat(room.id, SeatRow(2, "random", "random", None))  # replaces the greedy bot
    store.clear_seat(room.id, 1)
    store.clear_seat(room.id, 1)  # already free: nothing happens
    assert store.seats(room.id) == [
        SeatRow(0, "Ann", None, token_hash("tok-ann")),
        SeatRow(2, "random", "random", None),
        SeatRow(3, "Dee", None, token_hash("tok-dee")),
    ]
    with pytest.raises(StoreError, match="no room with id 9999"):
        store.set_seat(9999, SeatRow(0, "X"))


def test_token_hashes_are_stored_as_given_and_tokens_refused(store: Store) -> None:
    digest = token_hash("a secret token of 128 bits or more")
    room = new_room(store, seats=[SeatRow(0, "Ann", None, digest)])
    assert store.seats(room.id)[0].token_hash == digest
    raw_token = "Xb3k9Qy1m2LrT8vZcN4pWq7sDfGh0JkE"  # what a client holds: never stored
    with pytest.raises(StoreError, match="never tokens"):
        store.set_seat(room.id, SeatRow(1, "Bo", None, raw_token))
    with pytest.raises(StoreError, match="never tokens"):
        new_room(store, seats=[SeatRow(0, "Ann", None, raw_token)])
    assert store.seats(room.id) == [SeatRow(0, "Ann", None, digest)]


def test_an_unfinished_room_number_is_unique_and_free_again_once_finished(store: Store) -> None:
    waiting = new_room(store, "111111")
    with pytest.raises(RoomNumberTaken, match="111111"):
        new_room(store, "111111")
    store.set_status(waiting.id, "playing")
    with pytest.raises(RoomNumberTaken):
        new_room(store, "111111", creator_addr="198.51.100.1")
    store.set_status(waiting.id, "finished")
    second = new_room(store, "111111")
    assert store.room("111111") == second  # the unfinished one wins
    store.set_status(second.id, "dissolved")
    third = new_room(store, "111111")
    with pytest.raises(RoomNumberTaken, match="cannot reopen"):
        store.set_status(second.id, "waiting")
    store.set_status(third.id, "finished")
    newest = store.room("111111")  # all finished: the newest
    assert newest is not None and newest.id == third.id and newest.status == "finished"
    assert len(store.seats(waiting.id)) == 3  # a refused room left no seats behind


def test_set_status_stamps_finished_at(store: Store) -> None:
    room = new_room(store)
    store.set_status(room.id, "playing")
    playing = store.room(room.number)
    assert playing is not None and playing.status == "playing" and playing.finished_at is None
    store.set_status(room.id, "finished")
    done = store.room(room.number)
    assert done is not None and done.finished_at is not None
    assert timedelta(0) <= done.finished_at - room.created_at < timedelta(minutes=1)
    assert store.rooms_in_play() == []
    with pytest.raises(StoreError, match="not one of"):
        store.set_status(room.id, "paused")
    with pytest.raises(StoreError, match="no room with id 9999"):
        store.set_status(9999, "finished")


def test_rooms_in_play_and_open_rooms_by(store: Store) -> None:
    a = new_room(store)
    b = new_room(store)
    c = new_room(store, creator_addr="2001:db8::1")
    d = new_room(store)
    store.set_status(b.id, "playing")
    store.set_status(d.id, "dissolved")
    assert [r.id for r in store.rooms_in_play()] == [a.id, b.id, c.id]
    assert store.open_rooms_by("203.0.113.7") == 2
    assert store.open_rooms_by("2001:db8::1") == 1
    assert store.open_rooms_by("192.0.2.1") == 0


# The event log


def test_events_come_back_by_seq_and_equal(store: Store) -> None:
    room = new_room(store)
    other = new_room(store)
    deal: dict[str, JSON] = {
        "dealer": 0,
        "hands": [["1m", "2m", "3m"], ["5z"], [], ["中", "發"]],
        "wall": ["9s"] * 3,
    }
    store.append(room.id, [(1, "start", {}), (3, "hand_start", {"hand": 0, "deal": deal})])
    store.append(other.id, [(1, "start", {})])
    store.append(room.id, [(2, "auto", {"seat": 2, "on": True})])
    store.append(room.id, [])
    unicode = {"names": ["小明", "Zoë", "🀄"], "ratio": 0.1, "big": 2**62, "none": None}
    store.append(room.id, [(4, "match_end", {"totals": [-3, 1, 2, 0], "x": unicode})])
    got = store.events(room.id)
    assert [(e.seq, e.kind) for e in got] == [
        (1, "start"),
        (2, "auto"),
        (3, "hand_start"),
        (4, "match_end"),
    ]
    assert got[2].data == {"hand": 0, "deal": deal}
    assert got[3].data == {"totals": [-3, 1, 2, 0], "x": unicode}
    assert got[0].at <= got[1].at and all(e.at.tzinfo is not None for e in got)
    assert [e.seq for e in store.events(other.id)] == [1]


def test_a_batch_with_a_duplicate_seq_commits_nothing(store: Store) -> None:
    room = new_room(store)
    store.append(room.id, [(1, "start", {}), (2, "ready", {"seat": 0})])
    before = store.events(room.id)
    with pytest.raises(StoreError, match=f"room {room.id}"):
        store.append(room.id, [(3, "ready", {"seat": 1}), (4, "ready", {"seat": 2}), (2, "x", {})])
    with pytest.raises(StoreError, match="repeats"):
        store.append(room.id, [(3, "ready", {"seat": 1}), (3, "ready", {"seat": 1})])
    with pytest.raises(StoreError):  # not JSON: refused on both databases
        store.append(room.id, [(3, "ready", {"x": float("nan")})])
    with pytest.raises(StoreError, match="no room with id 9999"):
        store.append(9999, [(1, "start", {})])
    assert store.events(room.id) == before
    store.append(room.id, [(3, "ready", {"seat": 1})])  # the store still works
    assert [e.seq for e in store.events(room.id)] == [1, 2, 3]


def test_append_many_stores_every_room_in_one_go_and_isolates_a_bad_batch(store: Store) -> None:
    """The server's group commit: good batches land even when one room's batch is refused
    (a seat already stored, a room that does not exist), and the refused ones change nothing."""
    rooms = [new_room(store, number=f"70000{i}") for i in range(3)]
    assert store.append_many([(r.id, [(1, "start", {"n": r.id})]) for r in rooms]) == [None] * 3
    errors = store.append_many(
        [
            (rooms[0].id, [(2, "ready", {"seat": 0})]),
            (rooms[1].id, [(1, "again", {})]),  # seq 1 is stored already
            (9999, [(1, "start", {})]),
            (rooms[2].id, [(2, "ready", {"seat": 3}), (3, "ready", {"seat": 2})]),
        ]
    )
    assert errors[0] is None and errors[3] is None
    assert isinstance(errors[1], StoreError) and f"room {rooms[1].id}" in str(errors[1])
    assert isinstance(errors[2], StoreError) and "no room with id 9999" in str(errors[2])
    assert [e.seq for e in store.events(rooms[0].id)] == [1, 2]
    assert [(e.seq, e.kind) for e in store.events(rooms[1].id)] == [(1, "start")]
    assert [e.seq for e in store.events(rooms[2].id)] == [1, 2, 3]
    # two batches of one room racing for a seq: the first is stored, the second refused
    first, second = store.append_many(
        [(rooms[1].id, [(2, "x", {})]), (rooms[1].id, [(2, "y", {})])]
    )
    assert first is None and isinstance(second, StoreError)
    assert [e.kind for e in store.events(rooms[1].id)] == ["start", "x"]


def test_append_many_writes_a_good_group_through_the_driver(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group the database takes goes in one driver call, not room by room (``append`` is
    only the fallback that finds a refused batch), and reads back as ``append`` writes it."""
    rooms = [new_room(store, number=f"71000{i}") for i in range(2)]

    def refuse(*_: object) -> None:
        raise AssertionError("append_many fell back to append for a good group")

    monkeypatch.setattr(store, "append", refuse)
    before = datetime.now(UTC)
    data: dict[str, JSON] = {
        "action": {"seat": 0, "type": "discard", "tile": "东"},
        "n": [1.5, None],
    }
    assert store.append_many(
        [(rooms[0].id, [(1, "action", data)]), (rooms[1].id, [(1, "ready", {})])]
    ) == [
        None,
        None,
    ]
    for _ in range(3):  # the kept connection serves the next groups too
        assert store.append_many([(rooms[1].id, [(2 + _, "x", {"i": _})])]) == [None]
    (event,) = store.events(rooms[0].id)
    assert (event.seq, event.kind, event.data) == (1, "action", data)
    assert event.at.tzinfo is not None and before - timedelta(
        seconds=1
    ) <= event.at <= datetime.now(UTC)
    assert [e.seq for e in store.events(rooms[1].id)] == [1, 2, 3, 4]


def test_group_appends_leave_checkpoints_to_checkpoint(store: Store, url: str) -> None:
    """The appends a server makes on its event loop never checkpoint SQLite's log (that
    would fsync on the loop); checkpoint() copies what they wrote, and nothing is lost."""
    room = new_room(store)
    for n in range(1, 51):  # ~5 MB: past SQLite's automatic checkpoint at 1,000 pages
        assert store.append_many([(room.id, [(n, "action", {"pad": "x" * 100_000})])]) == [None]
    copied = store.checkpoint()
    if url.startswith("sqlite"):
        assert copied > 1000  # all of it: no commit checkpointed on its own
    else:
        assert copied == 0  # PostgreSQL checkpoints itself
    assert [e.seq for e in store.events(room.id)] == list(range(1, 51))


JSON_VALUES: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
BATCHES = st.lists(
    st.lists(
        st.tuples(
            st.sampled_from(["action", "auto", "ready"]),
            st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=3),
        ),
        max_size=5,
    ),
    max_size=6,
)


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(batches=BATCHES)
def test_random_appends_read_back_identically(
    store: Store, batches: list[list[tuple[str, dict[str, JSON]]]]
) -> None:
    room = new_room(store)  # a fresh room per example
    seq = itertools.count(1)
    expected: list[tuple[int, str, dict[str, JSON]]] = []
    for batch in batches:
        numbered = [(next(seq), kind, data) for kind, data in batch]
        store.append(room.id, numbered)
        expected += numbered
    assert [(e.seq, e.kind, e.data) for e in store.events(room.id)] == expected


# Records and history


def test_save_record_and_read_it_back(store: Store) -> None:
    room = new_room(store)
    assert store.record(room.id) is None
    record: dict[str, JSON] = {
        "format": "majiang-record/1",
        "variant": "guangdong",
        "players": ["Ann", "小明", "greedy", "random"],
        "hands": [
            {"deal": {"dealer": 0}, "actions": [{"seat": 0, "type": "discard", "tile": "1m"}]}
        ],
    }
    store.save_record(room.id, record, ["Ann", "小明", "greedy", "random"], [3, -1, -1, -1])
    assert store.record(room.id) == record
    store.save_record(
        room.id, {**record, "hands": []}, ["Ann", "小明", "greedy", "random"], [0] * 4
    )
    assert store.record(room.id) == {**record, "hands": []}
    with pytest.raises(StoreError, match="no room with id 9999"):
        store.save_record(9999, record, [], [])


def test_finished_matches_newest_first_with_limit(store: Store) -> None:
    rooms = [new_room(store) for _ in range(4)]
    for i, room in enumerate(rooms[:3]):
        store.set_status(room.id, "finished")
        store.save_record(room.id, {"n": i}, [f"p{i}", "b", "c", "d"], [i, -i, 0, 0])
    got = store.finished_matches(2)
    assert [m.room for m in got] == [rooms[2].number, rooms[1].number]
    assert got[0] == MatchSummary(
        room=rooms[2].number,
        variant="guangdong",
        finished_at=got[0].finished_at,
        names=["p2", "b", "c", "d"],
        totals=[2, -2, 0, 0],
        bots=[None, None, "greedy", None],
    )
    assert got[0].finished_at >= got[1].finished_at
    assert [m.room for m in store.finished_matches(10)] == [r.number for r in rooms[2::-1]]
    assert store.finished_matches(0) == []


# Several Stores, threads and processes on one database


def test_two_stores_see_each_others_commits(opened: Callable[[], Store]) -> None:
    a, b = opened(), opened()
    room = new_room(a)
    assert b.room(room.number) == room
    b.append(room.id, [(1, "start", {})])
    assert a.events(room.id) == b.events(room.id) and len(a.events(room.id)) == 1
    a.set_status(room.id, "playing")
    b.set_seat(room.id, SeatRow(3, "Dee", "random"))
    seen = a.room(room.number)
    assert seen is not None and seen.status == "playing"
    assert a.seats(room.id) == b.seats(room.id)
    with pytest.raises(RoomNumberTaken):
        new_room(b, room.number)


def run_together(workers: list[Callable[[], None]]) -> list[BaseException | None]:
    """Start ``workers`` in threads at one barrier; each one's exception or None."""
    barrier = threading.Barrier(len(workers))
    outcome: list[BaseException | None] = [None] * len(workers)

    def run(i: int) -> None:
        barrier.wait()
        try:
            workers[i]()
        except BaseException as exc:
            outcome[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcome


def test_concurrent_creates_of_one_number_admit_exactly_one(opened: Callable[[], Store]) -> None:
    stores = [opened() for _ in range(4)]
    outcome = run_together([lambda s=s: new_room(s, "777777") for s in stores])  # type: ignore[misc]
    assert sum(e is None for e in outcome) == 1
    assert all(isinstance(e, RoomNumberTaken) for e in outcome if e is not None)
    assert len(stores[0].rooms_in_play()) == 1


def test_concurrent_appends_from_two_stores(opened: Callable[[], Store]) -> None:
    """Interleaved appends all land in seq order; racing for the same seqs, each seq is
    stored once, whole batches win or lose, and every loser gets a StoreError."""
    a, b = opened(), opened()
    room = new_room(a)

    def odd() -> None:
        for n in range(1, 60, 2):
            a.append(room.id, [(n, "action", {"by": "a"})])

    def even() -> None:
        for n in range(2, 61, 2):
            b.append(room.id, [(n, "action", {"by": "b"})])

    assert run_together([odd, even]) == [None, None]
    assert [e.seq for e in a.events(room.id)] == list(range(1, 61))
    race = new_room(a)
    lost: list[int] = []

    def contend(store: Store, by: str) -> Callable[[], None]:
        def go() -> None:
            for n in range(1, 41, 2):
                try:
                    store.append(
                        race.id, [(n, "action", {"by": by}), (n + 1, "action", {"by": by})]
                    )
                except StoreError:
                    lost.append(n)

        return go

    assert run_together([contend(a, "a"), contend(b, "b")]) == [None, None]
    got = b.events(race.id)
    assert [e.seq for e in got] == list(range(1, 41))
    assert sorted(lost) == list(range(1, 41, 2))  # every pair lost exactly once
    assert all(got[i].data == got[i + 1].data for i in range(0, 40, 2))  # batches whole


def test_a_second_process_shares_the_database(store: Store, url: str) -> None:
    """Another process (a second server) appends while this one does, and sees our room."""
    mine = new_room(store, "313131")
    child = textwrap.dedent(
        f"""
        from majiang.store import RoomNumberTaken, Store
        with Store({url!r}) as store:
            try:
                store.create_room(number="313131", variant="v", options={{}}, hands=1,
                                  turn_seconds=5, seed=1, creator_addr="c", seats=[])
            except RoomNumberTaken:
                print("taken")
            theirs = store.create_room(number="424242", variant="v", options={{}}, hands=1,
                                       turn_seconds=5, seed=1, creator_addr="c", seats=[])
            for n in range(1, 41):
                store.append(theirs.id, [(n, "action", {{"n": n}})])
            print(theirs.id)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    for n in range(1, 41):
        store.append(mine.id, [(n, "action", {"n": n})])
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    taken, theirs = out.split()
    assert taken == "taken"
    assert [e.data for e in store.events(int(theirs))] == [{"n": n} for n in range(1, 41)]
    assert [e.seq for e in store.events(mine.id)] == list(range(1, 41))
    assert {r.number for r in store.rooms_in_play()} == {"313131", "424242"}
