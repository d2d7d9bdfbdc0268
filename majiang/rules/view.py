"""What a rule may read of a hand (DESIGN.md, the seam): the ``HandView`` protocol, and
``Position``, a frozen hand that implements it for the calculator and for settlement.

The engine's ``HandState`` satisfies ``HandView`` structurally; rule hooks receive it typed
as ``HandView``, so mypy refuses a hook that reads or writes anything else. What a hook
needs about the moment of the call (the discarder, the tile, the seat) comes as arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import repeat
from typing import Protocol, TypeVar

from majiang.values import Deal, Meld, Options, Phase, VariantState

__all__ = ["HandView", "Position"]

T = TypeVar("T")


class HandView(Protocol):
    """A read-only view of one hand: everything a rule hook may read.

    Seats are 0-3 and every per-seat sequence is indexed by seat. ``variant_state`` is the
    value the variant's own ``start`` / ``on_event`` hooks returned last (immutable).
    """

    @property
    def options(self) -> Options:
        """The room's options, every one resolved (RULES.md 0.8)."""
        ...

    @property
    def dealer(self) -> int:
        """The dealer (庄家) of this hand."""
        ...

    @property
    def counters(self) -> Mapping[str, int]:
        """The dealer counters the hand started with (连庄, 老庄 …)."""
        ...

    @property
    def wild(self) -> int | None:
        """The wild kind of this hand (财神, 红中, 得), or None."""
        ...

    @property
    def shapes(self) -> Mapping[str, bool]:
        """The winning shapes in force (``majiang.hand`` keyword flags)."""
        ...

    @property
    def deal(self) -> Deal:
        """The starting position: hands as dealt, the live wall, reserved tiles."""
        ...

    @property
    def reserved(self) -> Mapping[str, tuple[int, ...]]:
        """Reserved tiles by purpose (horses, birds, the wild indicator)."""
        ...

    @property
    def concealed(self) -> Sequence[Sequence[int]]:
        """Each seat's concealed tiles as 34 counts."""
        ...

    @property
    def melds(self) -> Sequence[Sequence[Meld]]:
        """Each seat's declared melds, in the order declared."""
        ...

    @property
    def discards(self) -> Sequence[Sequence[int]]:
        """Each seat's discards still in front of it (a claimed tile leaves)."""
        ...

    @property
    def flowers(self) -> Sequence[Sequence[int]]:
        """Each seat's exposed flowers, in the order exposed (RULES.md 3.1)."""
        ...

    @property
    def kongs(self) -> Sequence[tuple[Meld, int]]:
        """Every kong that stands, with its owner, in the order made."""
        ...

    @property
    def claims_count(self) -> Sequence[Sequence[int]]:
        """``claims_count[a][b]``: chi, peng and direct kongs seat a made on b's discards."""
        ...

    @property
    def seat_log(self) -> Sequence[Sequence[str]]:
        """Each seat's own actions: D draw, K kong, P wild discard, X discard, C chi/peng."""
        ...

    @property
    def missed_win(self) -> Sequence[Set[int]]:
        """Kinds each seat may not win on until its next draw (漏胡, RULES.md D8)."""
        ...

    @property
    def missed_peng(self) -> Sequence[Set[int]]:
        """Kinds each seat may not peng until its next draw (漏碰, RULES.md D8)."""
        ...

    @property
    def live(self) -> int:
        """R: tiles left in the live wall."""
        ...

    @property
    def phase(self) -> Phase:
        """Turn, a claim, rob or declare window, or end."""
        ...

    @property
    def current(self) -> int:
        """The seat whose turn it is (or was, during a window)."""
        ...

    @property
    def drawn(self) -> int | None:
        """The tile the current seat just drew, if its turn began with a draw."""
        ...

    @property
    def last_turn(self) -> bool:
        """The current turn's discard may only be won on (RULES.md 1.2, 2.2)."""
        ...

    @property
    def final_turn(self) -> bool:
        """The current seat may only win or pass (hainan's last tile, RULES.md 3.2)."""
        ...

    @property
    def last_drawer(self) -> int:
        """The seat that drew last (the next dealer after a draw in some variants)."""
        ...

    @property
    def window_tile(self) -> int | None:
        """The tile of the open window (a discard or an added kong's), else None."""
        ...

    @property
    def window_from(self) -> int | None:
        """The discarder or konger of the open window, else None."""
        ...

    @property
    def pending_kong(self) -> Meld | None:
        """An added kong awaiting its robbing window."""
        ...

    @property
    def ended(self) -> bool:
        """Has the hand ended?"""
        ...

    @property
    def variant_state(self) -> VariantState | None:
        """The variant's own state, as its hooks last returned it."""
        ...

    def hand_tiles(self, seat: int) -> list[int]:
        """The seat's concealed tiles, ascending."""
        ...

    def full_hand(self, seat: int, extra: int | None = None) -> list[int]:
        """All tiles of the seat (melds as the kinds they stand for), plus ``extra``."""
        ...


def _frozen_rows(rows: Sequence[Sequence[T]]) -> tuple[tuple[T, ...], ...]:
    return tuple(tuple(r) for r in rows)


@dataclass(frozen=True, slots=True)
class Position:
    """A hand frozen at one moment: a ``HandView`` the calculator builds from a description
    and the engine takes of itself to settle, so both score the same way. Fields left out
    describe a quiet moment of play: nothing discarded, melded, claimed, logged or missed,
    R = 0, seat 0's turn with no last or final turn, the hand not ended."""

    options: Options
    dealer: int
    counters: Mapping[str, int]
    wild: int | None
    shapes: Mapping[str, bool]
    deal: Deal
    reserved: Mapping[str, tuple[int, ...]]
    concealed: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    discards: tuple[tuple[int, ...], ...] = ((), (), (), ())
    flowers: tuple[tuple[int, ...], ...] = ((), (), (), ())
    kongs: tuple[tuple[Meld, int], ...] = ()
    claims_count: tuple[tuple[int, ...], ...] = ((0,) * 4,) * 4
    seat_log: tuple[tuple[str, ...], ...] = ((), (), (), ())
    missed_win: tuple[frozenset[int], ...] = (frozenset(),) * 4
    missed_peng: tuple[frozenset[int], ...] = (frozenset(),) * 4
    live: int = 0
    phase: Phase = Phase.TURN
    current: int = 0
    drawn: int | None = None
    last_turn: bool = False
    final_turn: bool = False
    last_drawer: int = 0
    window_tile: int | None = None
    window_from: int | None = None
    pending_kong: Meld | None = None
    ended: bool = False
    variant_state: VariantState | None = None

    @staticmethod
    def of(view: HandView) -> Position:
        """A frozen copy of ``view``."""
        return Position(
            options=dict(view.options),
            dealer=view.dealer,
            counters=dict(view.counters),
            wild=view.wild,
            shapes=dict(view.shapes),
            deal=view.deal,
            reserved=dict(view.reserved),
            concealed=_frozen_rows(view.concealed),
            melds=_frozen_rows(view.melds),
            discards=_frozen_rows(view.discards),
            flowers=_frozen_rows(view.flowers),
            kongs=tuple(view.kongs),
            claims_count=_frozen_rows(view.claims_count),
            seat_log=_frozen_rows(view.seat_log),
            missed_win=tuple(frozenset(s) for s in view.missed_win),
            missed_peng=tuple(frozenset(s) for s in view.missed_peng),
            live=view.live,
            phase=view.phase,
            current=view.current,
            drawn=view.drawn,
            last_turn=view.last_turn,
            final_turn=view.final_turn,
            last_drawer=view.last_drawer,
            window_tile=view.window_tile,
            window_from=view.window_from,
            pending_kong=view.pending_kong,
            ended=view.ended,
            variant_state=view.variant_state,
        )

    def hand_tiles(self, seat: int) -> list[int]:
        """The seat's concealed tiles, ascending."""
        out: list[int] = []
        for t, n in enumerate(self.concealed[seat]):
            out.extend(repeat(t, n))
        return out

    def full_hand(self, seat: int, extra: int | None = None) -> list[int]:
        """All tiles of the seat (melds as the kinds they stand for), plus ``extra``."""
        tiles = self.hand_tiles(seat)
        if extra is not None:
            tiles.append(extra)
        for m in self.melds[seat]:
            tiles.extend(m.tiles[:3])
        return tiles
