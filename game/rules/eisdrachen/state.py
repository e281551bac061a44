"""Eisdrachen game state: plain dataclasses the Match deep-copies, digests and saves through answers.

Statuses are stored as the list of turns in which they are active (rules/eisdrachen.md 3.4), so
"next turn" windows need no bookkeeping beyond dropping expired entries at the end of a turn.
A status gained out of the enemy's sight (a prayer or an alarm while hidden) is also listed in
``unseen`` until it shows in something the enemy sees (a reroll, a doubled volley; an alert, when the
figure leaves its hiding place).
Which figure acts, and with how many actions left, lives in the steps of ``steps``.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...engine.battlefield import Battlefield, Tile
from ...engine.steps import StepStack
from ...engine.tokens import Token

DATA_FILE = Path(__file__).with_name("data") / "eisdrachen.json"

SIDE_PREFIX = ("a", "b")


@lru_cache(maxsize=1)
def data() -> dict:
    """The designer-editable profiles, arsenal, loadouts and rosters; each arsenal profile also carries
    its own id, which events name it by (the window words it)."""
    d = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for name, profile in d["arsenal"].items():
        profile["id"] = name
    return d


def const(name: str) -> int:
    return data()["constants"][name]


@dataclass
class Figure:
    id: str
    side: int
    name: str
    rank: str
    V: int
    I: int
    A: int
    F: int
    pv: int
    max_pv: int
    tile: Tile
    weapon: str
    blade: str | None = None
    grenades: int = 0
    medipack: bool = False
    scope: bool = False
    trap_kits: int = 0
    alive: bool = True
    hidden: bool = False
    hide_count: int = 0
    dug_in: bool = False
    statuses: dict[str, list[int]] = field(default_factory=dict)
    unseen: dict[str, list[int]] = field(default_factory=dict)
    pv_when_hidden: int = 0         # while hidden: its PV when it hid, the least the enemy knows it has
    vengeance_next: int = 0
    vengeance_now: int = 0
    alarm_used_turn: int = 0
    activated: bool = False
    allowance: int = 0

    def __deepcopy__(self, memo: dict) -> "Figure":
        """Every field is immutable but the status lists: copy those only (Match snapshots often)."""
        new = copy.copy(self)
        new.statuses = {k: list(v) for k, v in self.statuses.items()}
        new.unseen = {k: list(v) for k, v in self.unseen.items()}
        return new

    def has(self, status: str, turn: int) -> bool:
        return turn in self.statuses.get(status, ())

    def add_status(self, status: str, turns: list[int], unseen: bool = False) -> None:
        """Gain ``status`` for ``turns``; ``unseen``: out of the enemy's sight (turns it already knew of stay known)."""
        known = set(self.statuses.get(status, [])) - set(self.unseen.get(status, []))
        self.statuses[status] = sorted(set(self.statuses.get(status, [])) | set(turns))
        if unseen and set(turns) - known:
            self.unseen[status] = sorted(set(self.unseen.get(status, [])) | (set(turns) - known))

    def reveal(self, status: str) -> None:
        """The enemy has now seen ``status`` at work."""
        self.unseen.pop(status, None)

    def statuses_seen_by(self, viewer: int | None) -> dict[str, list[int]]:
        """The statuses ``viewer`` knows this figure has: all of them for its own side."""
        if viewer is None or viewer == self.side or not self.unseen:
            return self.statuses
        out = {k: [t for t in v if t not in self.unseen.get(k, ())] for k, v in self.statuses.items()}
        return {k: v for k, v in out.items() if v}

    def drop_statuses_before(self, turn: int) -> None:
        """End of turn: statuses (and what the enemy has not seen of them) whose last turn has passed go."""
        def keep(table: dict[str, list[int]]) -> dict[str, list[int]]:
            return {k: [t for t in v if t >= turn] for k, v in table.items() if any(t >= turn for t in v)}
        self.statuses, self.unseen = keep(self.statuses), keep(self.unseen)


@dataclass
class Emplacement:
    id: str
    name: str
    tiles: tuple[Tile, ...]
    weapon: dict
    working: bool


@dataclass
class Item:
    id: str
    name: str
    tile: Tile


@dataclass
class State:
    battlefield: Battlefield
    figures: list[Figure]
    tokens: list[Token] = field(default_factory=list)
    emplacements: list[Emplacement] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    traps: list[list[str]] = field(default_factory=list)     # ids of the tokens laid together, per trap
    turn: int = 1
    max_turns: int = 12
    steps: StepStack = field(default_factory=StepStack)
    next_id: int = 1
    over: bool = False
    winner: int | None = None
    reason: str = ""

    def figure(self, fid: str) -> Figure:
        for f in self.figures:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def living(self, side: int | None = None) -> list[Figure]:
        return [f for f in self.figures if f.alive and (side is None or f.side == side)]

    def occupant(self, tile: Tile) -> Figure | None:
        for f in self.figures:
            if f.alive and f.tile == tile:
                return f
        return None

    def new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}{self.next_id - 1}"
