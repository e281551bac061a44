"""Mordgrave's state as plain data: figures with their profile, loadout and tokens, the turn's order of
phases, and the group of figures acting in the current activation phase (rules/mordgrave.md 2, 3)."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...engine.battlefield import Battlefield, Tile
from ...engine.dice import Dice
from ...engine.steps import StepStack

DATA_FILE = Path(__file__).parent / "data" / "mordgrave.json"
PROFILE = ("Mouv", "Comb", "Tir", "Def", "Brav", "Psy", "Vit")
LEADERS = ("chief", "champion")


@lru_cache(maxsize=1)
def data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def rule(name: str) -> Any:
    """A number of the rules, from the data file (one place for each)."""
    return data()["rules"][name]


@dataclass
class Carried:
    """A ranged weapon carried; a weapon with Reload is unloaded once fired (4.20)."""

    weapon: str
    loaded: bool = True


@dataclass
class Figure:
    id: str
    side: int
    name: str
    faction: str
    role: str                       # chief, champion or henchman
    tile: Tile
    Mouv: int
    Comb: int
    Tir: int
    Def: int
    Brav: int
    Psy: int
    Vit: int                        # the profile's Vitality; ``vit`` is what is left
    vit: int
    main: str | None = None         # melee weapon (None: unarmed)
    second: str | None = None       # second melee weapon (4.18)
    shield: str = "none"
    armour: str = "none"
    cloak: str = "none"
    hands_free: str | None = None   # Hydra's Head
    ranged: list[Carried] = field(default_factory=list)
    modes: bool = False             # the special rule that gives combat modes (4.19)
    tokens: list[int] = field(default_factory=list)   # per Great difficulty token, the turn it ends with
    out: bool = False
    horrible: int = 0               # Horrible wounds, for the campaign
    out_turn: int = 0               # the turn it was put Out of action (0: standing)
    activated: bool = False         # this turn (3.2)
    actions: int = 0                # actions taken in its activation
    done: bool = False              # its activation is over
    first: str = ""                 # its first action: move, stay, concentrate or reload
    stepped: bool = False           # its first action's Move made at least one step (Run, 4.13.4)
    charges: list[str] = field(default_factory=list)   # enemies its Move brought it into contact with (4.4)

    def put_out(self, turn: int) -> None:
        """Out of action in ``turn``: the rout test asks which turn a warband lost its figures in."""
        self.out, self.vit, self.out_turn = True, 0, turn

    def __deepcopy__(self, memo: dict) -> "Figure":
        """Undo snapshots and observations copy every figure: its only mutable parts are three lists."""
        twin = copy.copy(self)
        twin.ranged = [Carried(c.weapon, c.loaded) for c in self.ranged]
        twin.tokens, twin.charges = list(self.tokens), list(self.charges)
        return twin

    @property
    def alive(self) -> bool:
        return not self.out

    @property
    def leader(self) -> bool:
        return self.role in LEADERS


@dataclass
class Group:
    """The figures of one activation phase (3.2–3.4): a Leader and those in its bubble when the phase
    began, or every figure of a side not yet activated. ``current`` is the one whose action is asked."""

    side: int
    leader: str | None
    origin: Tile | None             # the Leader's tile when its phase began: the bubble's centre
    members: list[str]
    current: str | None = None


@dataclass
class State:
    battlefield: Battlefield
    figures: list[Figure]
    max_turns: int
    turn: int = 1
    phase: str = "initiative"       # initiative, leaders, troops or over
    initiative: int | None = None   # the side that has the initiative this turn
    order: list[int] = field(default_factory=list)
    leaders_left: dict[int, list[str]] = field(default_factory=dict)
    cursor: int = 0                 # where the alternation of Leader phases has got to in ``order``
    troops_next: int = 0            # the next side (index in ``order``) whose troops phase comes
    group: Group | None = None
    steps: StepStack = field(default_factory=StepStack)
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

    def at(self, tile: Tile) -> Figure | None:
        for f in self.figures:
            if f.alive and f.tile == tile:
                return f
        return None


@dataclass
class Game:
    """What the steps of one answer work with."""

    state: State
    dice: Dice
    events: list = field(default_factory=list)
