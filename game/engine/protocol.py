"""The rule-module protocol: the one seam between the engine, the window, the AI and each rule system.

A rule module is stateless; all game state lives in the object ``new_state`` returns, which the Match
owns. A module drives its turn through the engine's step stack (``steps.py``): ``pending`` is the
decision the stack waits for, ``apply`` hands the answer to the waiting step and runs on.

What a module shows is plain data the window draws without knowing the module: figures with named
gauges and markers, tokens, objects, overlays, side panels and outcome details. Every word in them is
an ASCII key with parameters that the window translates from the module's own ``i18n/`` tables.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import RulesError
from .battlefield import Battlefield, Tile
from .decision import Decision, Option
from .dice import Dice
from .events import Event
from .steps import Step


# --- words the window translates -------------------------------------------------------

@dataclass(frozen=True, init=False)
class Words:
    """An ASCII key and its parameters: ``Words("marker.morale", value=5)``; the window words it."""

    key: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, key: str, **params: Any):
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", tuple(sorted(params.items())))

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.params)


class Marker(Words):
    """A state shown on a figure ("hidden", "morale" with its value…): ``key`` is the marker's id, the
    window shows the icon and words of ``marker.<id>`` and its tooltip ``marker.<id>.tip``."""


# --- what a viewer may see ---------------------------------------------------------------

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


@dataclass(frozen=True)
class Gauge:
    """A named measure of a figure (``gauge.<id>`` in the module's words): PV, PE, a vital monitor.

    ``value`` None means the viewer does not know it. ``style`` says how it is drawn: "bar", "pips" or
    "boxes"; for boxes, ``boxes`` gives each box's mark ("" for a free box, else a mark id such as
    "shock" or "trauma").
    """

    id: str
    value: int | None
    max: int | None
    style: str = "bar"
    boxes: tuple[str, ...] = ()


@dataclass
class FigureView:
    """What one viewer may see of a figure: the window draws this, never the module's state.

    ``tile`` None: the figure is not on the map (a crew member at a transport's firing post). ``kind`` is
    the figure's type for its art and name (``kind.<id>`` in the module's words). ``facing`` is a
    direction 0..7 (0 = east, clockwise) where a rule uses it.
    """

    id: str
    side: int
    tile: Tile | None
    name: str
    gauges: tuple[Gauge, ...] = ()
    markers: tuple[Marker, ...] = ()
    alive: bool = True
    kind: str = ""
    facing: int | None = None

    @property
    def health(self) -> tuple[int, int]:
        """The first gauge this viewer knows: the figure's health in the module's own measure."""
        for g in self.gauges:
            if g.value is not None and g.max is not None:
                return g.value, g.max
        return (1 if self.alive else 0), 1

    @property
    def on_map(self) -> bool:
        return self.tile is not None

    def marked(self, marker_id: str) -> bool:
        return any(m.key == marker_id for m in self.markers)


@dataclass
class TokenView:
    """A token on the ground as one viewer sees it: ``kind`` is "unknown" when face down to it.

    ``radius`` is how near, in pas, a figure passing by sets it off (a trap token's trigger radius),
    for the path preview to warn of; None when the rules give none.
    """

    id: str
    tile: Tile
    owner: int
    kind: str
    radius: float | None = None


@dataclass
class ObjectView:
    """A thing on the ground the rules know by id (an emplacement, an item…), as one viewer sees it."""

    id: str
    name: str
    tiles: tuple[Tile, ...]
    state: str = ""


@dataclass(frozen=True)
class Overlay:
    """A shape the module asks the window to draw on the map.

    ``kind`` says how: "bubble" (a command bubble: an outlined area and the figures inside it),
    "zone" (a filled area), "template" (an area weapon's shape) or "path". ``label`` is a key of the
    module's words; ``figures`` are the figures it concerns (those a leader may activate with it).
    """

    kind: str
    tiles: tuple[Tile, ...]
    side: int | None = None
    label: str = ""
    figures: tuple[str, ...] = ()


@dataclass(frozen=True)
class Track:
    """A row of ``length`` cells holding pieces, drawn as a side panel (the aerial distance track).

    Each piece is (figure or object id, side, cell 1..length).
    """

    length: int
    pieces: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class Panel:
    """A side panel: a title key (``panel.<id>``), lines of words, and optionally a track."""

    id: str
    lines: tuple[Words, ...] = ()
    track: Track | None = None


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
    """The end of a match: ``winner`` is a side, or None for a draw; ``reason`` a key of the module's
    words (``reason.<id>``); ``details`` lines for the results screen (a post-battle summary)."""

    winner: int | None
    reason: str
    details: tuple[Words, ...] = ()


# --- the module --------------------------------------------------------------------------

class NoDice:
    """The dice of a module's opening run: nothing may be rolled before the first answer."""

    def __getattr__(self, name: str):
        raise RulesError("rules", "no die may be rolled before the first answer")


class RuleModule(ABC):
    """One rule system. Subclasses give its data, its state, its steps and what each side sees."""

    id: str = ""
    version: str = "1"
    sides = (0, 1)
    default_max_turns: int = 12
    secret_markers: tuple[str, ...] = ("hidden",)   # figure markers only the figure's own side may see
    keeps_secrets: bool = True      # the rules hide something from a side: hot-seat hands the screen over

    # --- data and words ------------------------------------------------------------------

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

    @property
    def folder(self) -> Path:
        """The module's package folder, where its data and its ``i18n/`` live."""
        return Path(sys.modules[type(self).__module__].__file__).parent

    def words(self, lang: str) -> dict[str, str]:
        """The module's own words in ``lang`` (terms, actions, markers, odds labels, log templates)."""
        path = self.folder / "i18n" / f"{lang}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    def name(self, lang: str) -> str:
        return self.words(lang).get("rules.name", self.id)

    def art(self) -> dict[str, dict[str, str]]:
        """Which picture the window draws for each of the module's figure kinds and markers, as
        ``{"kinds": {kind: picture}, "markers": {marker id: picture}}`` with pictures named by their stem
        in the game's icon set. Read from the module's ``art.json``; without one, plain tokens."""
        try:
            data = json.loads((self.folder / "art.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            data = {}
        return {part: {str(k): str(v) for k, v in dict(data.get(part) or {}).items()} for part in ("kinds", "markers")}

    # --- setup ---------------------------------------------------------------------------

    @abstractmethod
    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        """The module's default roster for each side."""

    @abstractmethod
    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> Any:
        """Set figures on their spawn zones and open the step stack (``begin``); no die is rolled."""

    def recruits(self, battlefield: Battlefield) -> list[dict] | None:
        """Figure templates a player may add to an army in New battle; None: those of the default armies."""
        return None

    def figure_choices(self, figure: dict) -> dict[str, list] | None:
        """The values each field of ``figure`` may take in New battle (its weapon, armour…); None: the
        values the default armies use."""
        return None

    def army_problems(self, army: Army) -> list[Words]:
        """Why ``army`` may not be played (too many leaders, a weapon it cannot hold…), in the module's
        words; empty when it may. New battle shows these and will not start until they are gone."""
        return []

    def begin(self, state: Any) -> Any:
        """Run the opening steps up to the first decision; a module's ``new_state`` ends with this."""
        game = self.context(state, NoDice())
        state.steps.run(game, self.refill)
        return state

    # --- the procedure -------------------------------------------------------------------

    @abstractmethod
    def context(self, state: Any, dice: Dice | NoDice) -> Any:
        """What the steps of one answer work with: the state, the dice and an ``events`` list."""

    @abstractmethod
    def refill(self, game: Any) -> bool:
        """The stack ran dry: push what comes next (an activation, the next turn) and return True, or
        return False once the match is over."""

    def pending(self, state: Any) -> Decision | None:
        """The decision the game waits for, or None once the match is over."""
        return state.steps.waiting

    def apply(self, state: Any, option: Option, dice: Dice) -> list[Event]:
        """Hand one legal answer to the waiting step and run on, rolling only ``dice``."""
        game = self.context(state, dice)
        state.steps.resume(option, game, self.refill)
        return game.events

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The result, once the match is over."""

    # --- what each side sees ---------------------------------------------------------------

    @abstractmethod
    def figures(self, state: Any, viewer: int | None) -> list[FigureView]:
        """Figures as ``viewer`` may see them (None: everything, for tests and replays)."""

    def tokens(self, state: Any, viewer: int | None) -> list[TokenView]:
        return []

    def objects(self, state: Any, viewer: int | None) -> list[ObjectView]:
        """Objects on the field that options and events name by id."""
        return []

    def overlays(self, state: Any, viewer: int | None) -> list[Overlay]:
        """Shapes to draw on the map now (command bubbles, zones)."""
        return []

    def preview(self, state: Any, option: Option) -> list[Overlay]:
        """Shapes an option would touch, drawn while the player considers it (a blast, a cone)."""
        return []

    def panels(self, state: Any, viewer: int | None) -> list[Panel]:
        """Side panels beside the map (a distance track, a reserve)."""
        return []

    def observe(self, state: Any, side: int) -> Any:
        """The state as ``side`` may know it, for its AI and its odds: what the rules hide from that side
        is replaced by what it believes. Modules with secrets override this; the default is a copy."""
        return copy.deepcopy(state)

    def disguise(self, state: Any, side: int, rng: Any) -> Any:
        """A copy of ``state`` in which what ``side`` may not know is drawn afresh with ``rng`` (a
        ``random.Random``), consistently with everything ``side`` has seen: which token is real, a hidden
        figure's tile, a secret bid or standing order. The secrecy test checks that ``side`` then sees,
        is offered and is told exactly the same. A module with no secrets returns a plain copy."""
        return copy.deepcopy(state)

    def odds(self, state: Any, option: Option) -> Odds | None:
        """Exact odds of an option that rolls dice, from ``state`` (an observation when a side asks);
        None for one that does not."""
        return None

    def notice(self, event: Event) -> Words | None:
        """What the window announces on screen, in plain words, for a notable event (a side change, a
        rout, a trap going off, an ambush firing, a critical), beside its line in the log; None for an
        event the log alone tells. By default an event is notable when it carries the fact
        ``notable=True``, and its words are ``notice.<kind>`` filled with its facts."""
        if isinstance(event.data, dict) and event.data.get("notable") is True:
            return Words(f"notice.{event.kind}", **event.data)
        return None

    def turn(self, state: Any) -> int:
        return state.turn

    def phase(self, state: Any) -> str:
        return getattr(state, "phase", "")

    # --- its AI --------------------------------------------------------------------------

    def tactical_ai(self, seed: int, level: str = "normal") -> Any:
        """The module's own AI player, which answers from observations only."""
        raise RulesError("--ai", f"no tactical AI for '{self.id}' yet; use --ai random")

    # --- checks --------------------------------------------------------------------------

    def check_invariants(self, state: Any) -> list[str]:
        """Broken invariants, in words; used by ``sim --check-invariants``."""
        return []

    def digest_data(self, state: Any) -> Any:
        """Plain data that fully describes the state, for the replay digest."""
        return canonical(state)


# --- digests -----------------------------------------------------------------------------

def canonical(obj: Any) -> Any:
    """JSON-able form of a state: dataclasses, containers and numpy arrays, order-stable."""
    if isinstance(obj, Battlefield):        # only its doors change during a match
        return {"door": obj.door.tolist()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {f.name: canonical(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
        if isinstance(obj, Step):
            out["step"] = type(obj).__name__
        return out
    if isinstance(obj, dict):
        return {str(k): canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((canonical(v) for v in obj), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(obj, (np.ndarray, np.generic)):
        return obj.tolist()
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, float):
        return round(obj, 9)
    return obj
