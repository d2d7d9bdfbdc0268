from collections.abc import Callable

from majiang.engine.state import HandState
from majiang.values import Action

def init(turn: object, claim: object, discard_event: object, draw_event: object,
         others: tuple[tuple[int, ...], ...], discards: tuple[tuple[Action, ...], ...],
         hu: tuple[Action, ...], pass_: tuple[Action, ...],
         winning: Callable[..., bool], peng: object, discard: object,
         fallback: Callable[[HandState, Action], None]) -> None: ...
def play_listed(state: HandState, action: Action) -> None: ...
def turn_actions(state: HandState, seat: int) -> list[Action]: ...
