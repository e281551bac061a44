"""The rule-module interface: the one seam between the engine and each rule system.

A rule module is stateless; all game state lives in the object ``new_state`` returns, which
the Match owns. Every method below is called by the Match, the AI or the window alike.
"""
from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..engine.battlefield import Battlefield, Tile
from ..engine.decision import Decision, Option
from ..engine.dice import Dice
from ..engine.events import Event


@dataclass
class Army:
    """One side's roster as plain data: ``figures`` are dicts the module knows how to build."""

    side: int
    name: str
    figures: list[dict]

    def to_json(self) -> dict:
        return {"side": self.side, "name": self.name, "figures": self.figures}

    @classmethod
    def from_json(cls, data: dict) -> "Army":
        return cls(int(data["side"]), str(data["name"]), list(data["figures"]))


@dataclass
class FigureView:
    """What one viewer may see of a figure: the window draws this, never the module's state."""

    id: str
    side: int
    tile: Tile
    name: str
    health: tuple[int, int]
    markers: tuple[str, ...] = ()
    alive: bool = True


@dataclass
class TokenView:
    """A token on the ground as one viewer sees it: ``kind`` is "unknown" when face down to it."""

    id: str
    tile: Tile
    owner: int
    kind: str


@dataclass
class ObjectView:
    """A thing on the ground the rules know by id (an emplacement, an item…), as one viewer sees it."""

    id: str
    name: str
    tiles: tuple[Tile, ...]
    state: str = ""


@dataclass
class Odds:
    """Exact outcome distribution of an option, before commitment.

    ``outcomes`` maps a label key (e.g. "wounds:2" or "success") to its probability;
    ``details`` holds any other exact figures the window may show (expected loss…).
    """

    title: str
    outcomes: dict[str, Fraction]
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """The end of a match: ``winner`` is a side, or None for a draw."""

    winner: int | None
    reason: str


class RuleModule(ABC):
    id: str = ""
    version: str = "1"
    names: dict[str, str] = {}
    sides = (0, 1)
    default_max_turns: int = 12
    secret_markers: tuple[str, ...] = ("hidden",)   # figure markers only the figure's own side may see

    @property
    @abstractmethod
    def data_files(self) -> list[Path]:
        """The designer-editable data files this module reads (hashed into saves)."""

    def data_hash(self) -> str:
        h = hashlib.sha256()
        for p in sorted(self.data_files):
            h.update(p.name.encode())
            h.update(p.read_bytes())
        return h.hexdigest()[:16]

    @abstractmethod
    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        """The module's default roster for each side."""

    @abstractmethod
    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> Any:
        """Set figures on their spawn zones; no dice may be rolled here."""

    @abstractmethod
    def pending(self, state: Any) -> Decision | None:
        """The decision the game waits for, or None once the match is over."""

    @abstractmethod
    def apply(self, state: Any, option: Option, dice: Dice) -> list[Event]:
        """Carry out one legal option, rolling only ``dice``; return what happened."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The result, once the match is over."""

    @abstractmethod
    def figures(self, state: Any, viewer: int | None) -> list[FigureView]:
        """Figures as ``viewer`` may see them (None: everything, for tests and replays)."""

    def tokens(self, state: Any, viewer: int | None) -> list[TokenView]:
        return []

    def objects(self, state: Any, viewer: int | None) -> list[ObjectView]:
        """Objects on the field that options and events name by id."""
        return []

    def odds(self, state: Any, option: Option) -> Odds | None:
        """Exact odds of an option that rolls dice; None for one that does not."""
        return None

    def turn(self, state: Any) -> int:
        return state.turn

    def phase(self, state: Any) -> str:
        return getattr(state, "phase", "")

    def check_invariants(self, state: Any) -> list[str]:
        """Broken invariants, in words; used by ``sim --check-invariants``."""
        return []

    def digest_data(self, state: Any) -> Any:
        """Plain data that fully describes the state, for the replay digest."""
        return canonical(state)


def canonical(obj: Any) -> Any:
    """JSON-able form of a state: dataclasses, containers and numpy arrays, order-stable."""
    import dataclasses

    import numpy as np

    if isinstance(obj, Battlefield):
        return {"door": obj.door.tolist()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: canonical(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((canonical(v) for v in obj), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, float):
        return round(obj, 9)
    return obj
