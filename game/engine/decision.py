"""Decisions: who must decide what, with the legal options. Every answer is one option key."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .battlefield import Tile


@dataclass(frozen=True)
class Option:
    """One legal answer. ``key`` is stable and unique in its decision: it is what saves record.

    ``action`` names the rule's action ("move", "shoot", "activate", "end", "bid"…); ``figure`` is
    the acting figure, ``tile`` and ``target`` what it aims at, ``path`` the steps a move takes.
    ``ends`` is "activation" or "turn" for the option that ends the figure's activation or the side's
    turn (the window gives it its own button and key), else "".
    """

    key: str
    action: str
    figure: str | None = None
    tile: Tile | None = None
    target: str | None = None
    path: tuple[Tile, ...] = ()
    value: Any = None
    cost: float = 0.0
    ends: str = ""

    def __deepcopy__(self, memo: dict) -> "Option":
        return self         # never changed once made: snapshots share it


@dataclass(frozen=True)
class Decision:
    """``side`` decides; ``kind`` says what ("activate", "action", "riposte", "bid"…).

    ``secret`` marks a choice the other side must not see while it is made (a bid, which token is
    real): the hot-seat view hands the screen over before showing it.

    ``default`` is the key of the answer that lets the battle go on as it stands (stay rather than flee,
    refuse a truce), where a decision has one: what a player with no judgment of its own answers.
    """

    side: int
    kind: str
    options: tuple[Option, ...]
    figure: str | None = None
    secret: bool = False
    info: dict = field(default_factory=dict)
    default: str | None = None

    def __deepcopy__(self, memo: dict) -> "Decision":
        return self         # never changed once made: snapshots share it

    def option(self, key: str) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None
