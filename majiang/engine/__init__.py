"""The game engine: one hand as a state machine, and matches of hands."""

from majiang.engine.match import Match
from majiang.engine.state import Action, Deal, HandResult, HandState, Meld, WinInfo

__all__ = ["Action", "Deal", "HandResult", "HandState", "Match", "Meld", "WinInfo"]
