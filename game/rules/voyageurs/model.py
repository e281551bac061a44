"""Voyageurs state as plain data: combatants, transports, fights, and the context steps work in.

A combatant's ``status`` is kept beside its PV because an observation may hide the PV (5.15) while the
side still sees who stands, who lies unconscious and who is dead; ``set_pv`` keeps the two in step.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...engine.battlefield import Battlefield, Tile
from ...engine.dice import Dice
from ...engine.events import Event
from ...engine.protocol import NoDice
from ...engine.steps import StepStack
from ...errors import RulesError

DATA_FILE = Path(__file__).parent / "data" / "voyageurs.json"

GROUND, AERIAL = "ground", "aerial"
UP, UNCONSCIOUS, DEAD, FLED, CAPTURED, LOST = "up", "unconscious", "dead", "fled", "captured", "lost"
FLYING, DESTROYED = "flying", "destroyed"


@lru_cache(maxsize=1)
def data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def difficulty(value: Any, place: str) -> int:
    """A difficulty given by its name on the ladder (2.2) or as a number."""
    ladder = data()["difficulties"]
    if isinstance(value, str) and value.strip().lower() in ladder:
        return ladder[value.strip().lower()]
    try:
        number = int(str(value).strip())
    except ValueError:
        raise RulesError(place, f"difficulty '{value}' is neither a number nor one of: "
                                f"{', '.join(ladder)}") from None
    if not 2 <= number <= 40:
        raise RulesError(place, f"difficulty {number} is outside 2..40")
    return number


@dataclass
class Combatant:
    """A character (voyageur) or an enemy. ``kind`` is its roster id, the "type" knowledge tests learn.

    In an observation, what the viewer does not know is None: ``pv``, ``level``, ``abilities`` and the
    CON that PV max is derived from (5.15).
    """

    id: str
    side: int
    kind: str
    name: str
    traits: dict[str, int | None]
    pv: int | None
    pe: int
    level: int | None
    abilities: list[str] | None
    weapon: str | None
    carried: str | None
    items: list[str]
    mov: int
    tile: Tile | None = None
    status: str = UP
    initiative: int = 0
    observed: int | None = None          # Observe's result, used from the next round (5.4)
    protecting: bool = False
    interception: bool = False           # the one interception of the current Protect (5.5)
    tested: list[str] = field(default_factory=list)     # enemy types it has tested (5.15)
    woke: int = -1                       # round it regained consciousness in; it acts from the next
    transport: str | None = None         # aerial mode: the transport it crews
    pilot: bool = False
    on_deck: bool = False                # aerial mode: fighting a boarding on the deck

    @property
    def max_pv(self) -> int | None:
        con = self.traits.get("CON")
        return None if con is None else data()["pools"]["pv_base"] + con

    @property
    def max_pe(self) -> int:
        return data()["pools"]["pe_base"] + self.traits["ESP"]

    def stat(self, name: str) -> int:
        value = self.traits[name]
        if value is None:
            raise RulesError(self.id, f"{name} is not known to this viewer")
        return value

    def pair(self, test: str) -> int:
        """The sum of the two characteristics a test names (``tests`` in the data)."""
        return sum(self.stat(t) for t in data()["tests"][test])

    @property
    def conscious(self) -> bool:
        return self.status == UP

    @property
    def present(self) -> bool:
        """Still in the battle: standing or lying unconscious (dead, fled and captured are gone)."""
        return self.status in (UP, UNCONSCIOUS)


@dataclass
class Transport:
    """A ship of the aerial mode (5.16): its profile comes from the data by ``kind``."""

    id: str
    side: int
    kind: str
    name: str
    case: int
    speed: int
    pv: int
    pe: int
    crew: list[str]
    status: str = FLYING

    @property
    def profile(self) -> dict:
        return data()["transports"][self.kind]

    @property
    def max_pv(self) -> int:
        return self.profile["pv"]

    @property
    def max_pe(self) -> int:
        return self.profile["pe"]

    @property
    def flying(self) -> bool:
        return self.status == FLYING


@dataclass
class Fight:
    """One round-by-round battle: of combatants (ground, or a boarding on the deck) or of transports.

    ``slots`` is what is left of this round's order, each slot one id or a simultaneous group (4.4);
    ``group`` the members of the group being played who have still to act, ``buffer`` the effects on
    others it holds back until it has acted.
    """

    members: list[str]
    round: int = 0
    slots: list[list[str]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)        # this round's order as it was announced
    group: list[str] = field(default_factory=list)
    grouped: bool = False
    group_side: int = 0
    buffer: list[dict] = field(default_factory=list)
    truce: list[int] = field(default_factory=list)        # sides that proposed a truce this round
    penalised: list[int] = field(default_factory=list)    # sides whose flight failed: −1 next round
    fleeing: list[int] = field(default_factory=lambda: [0, 1])   # sides that may flee (5.12, 5.16.6)


@dataclass
class Boarding:
    """A boarding in progress (5.16.6): the transport that boards, the one boarded, who fights."""

    boarder: str
    boarded: str
    boarders: list[str]
    defenders: list[str] = field(default_factory=list)


@dataclass
class GroundItem:
    """An item or weapon lying on the map, to be picked up (5.8)."""

    id: str
    thing: str
    tile: Tile


@dataclass
class Gadget:
    """An interactive map object (5.8): ``effect`` heal:N, energy:N or doors; ``test`` [X, Y, difficulty]."""

    id: str
    name: str
    tiles: tuple[Tile, ...]
    effect: str
    test: list | None = None
    used: bool = False


@dataclass
class State:
    battlefield: Battlefield
    mode: str
    combatants: dict[str, Combatant]
    max_turns: int
    transports: dict[str, Transport] = field(default_factory=dict)
    turn: int = 0
    phase: str = "setup"
    battle: Fight | None = None
    deck: Fight | None = None
    boarding: Boarding | None = None
    known: dict[int, list[str]] = field(default_factory=lambda: {0: [], 1: []})
    surprise: int | None = None
    side_a: int = 0                  # first in the odd rounds of a tie, in case 1 of the track: rolled off (4.4)
    knowledge_difficulty: int | None = None
    landscape: str = "wild"
    objective: str = "defeat"
    items: list[GroundItem] = field(default_factory=list)
    gadgets: list[Gadget] = field(default_factory=list)
    active: str | None = None
    over: bool = False
    winner: int | None = None
    reason: str = ""
    steps: StepStack = field(default_factory=StepStack)

    def fig(self, cid: str) -> Combatant:
        return self.combatants[cid]

    def side_of(self, side: int) -> list[Combatant]:
        return [c for c in self.combatants.values() if c.side == side]

    def owner(self, mid: str) -> int:
        """The side of a combatant or a transport."""
        return self.transports[mid].side if mid in self.transports else self.combatants[mid].side

    def knows(self, side: int, c: Combatant) -> bool:
        """Whether ``side`` knows ``c``'s level, PV and abilities: its own, or a type it has learnt."""
        return c.side == side or c.kind in self.known[side]

    @property
    def fight(self) -> Fight | None:
        """The fight of combatants under way: the ground battle, or the boarding on the deck."""
        return self.battle if self.mode == GROUND else self.deck

    def on_map(self) -> list[Combatant]:
        return [c for c in self.combatants.values() if c.present and c.tile is not None]

    def occupied(self) -> dict[Tile, Combatant]:
        return {c.tile: c for c in self.on_map()}


@dataclass
class Game:
    """What the steps of one answer work with."""

    state: State
    dice: Dice | NoDice
    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def tell(self, event: Event, about: Combatant, secret: tuple[str, ...]) -> None:
        """An event about ``about`` whose ``secret`` facts are blanked unless the other side knows
        ``about``'s type (5.15): one event for everyone, so no one reads the same fact twice."""
        if not self.state.knows(1 - about.side, about):
            event = Event(event.kind, {k: (None if k in secret else v) for k, v in event.data.items()},
                          event.visible_to, event.rule)
        self.emit(event)
