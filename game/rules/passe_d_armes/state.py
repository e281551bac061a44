"""Passe d'armes state: plain dataclasses the Match deep-copies, digests and replays through answers.

A combatant's scores are derived from its profile, its protection and its monitor whenever a roll needs
them (rules/passe_d_armes.md 2.1, 3.1): only the profile and what happened to it are stored.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ...engine.battlefield import Battlefield, Tile
from ...engine.steps import StepStack
from .rolls import Monitor, wound_modifier

DATA_FILE = Path(__file__).with_name("data") / "passe_d_armes.json"
SIDE_PREFIX = ("a", "b")
HANDS = "hands"
SKILLS = ("lutte", "escrime", "tir", "reflexe", "resister")


@lru_cache(maxsize=1)
def data() -> dict:
    """The designer-editable weapons, protections, roles, hazards, manoeuvres and armies."""
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def weapon(name: str) -> dict:
    return data()["weapons"][name]


def hand_weapon(name: str) -> bool:
    """Bare hands and the weapons fought with in reach, as opposed to firearms."""
    return weapon(name)["range"] == 0


@dataclass
class Combatant:
    id: str
    side: int
    name: str
    role: str
    pui: int
    adr: int
    res: int
    skills: dict[str, int]
    weapons: list[str]              # carried, the one in hand among them; bare hands are always at hand
    in_hand: str
    protection: str
    mov: int
    tile: Tile | None
    monitor: Monitor = field(default_factory=Monitor)
    withdrawn: bool = False
    knocked_down: bool = False
    held_by: str | None = None
    feinted_until: int = 0          # the passe at whose end an unspent feint lapses; 0: not feinted

    # --- derived ---------------------------------------------------------------------------

    @property
    def on_field(self) -> bool:
        return not self.withdrawn and not self.monitor.dead

    @property
    def active(self) -> bool:
        """Able to act: on the field, neither KO nor out (4.1)."""
        return self.on_field and not self.monitor.helpless

    @property
    def helpless(self) -> bool:
        return self.on_field and self.monitor.helpless

    def attribute(self, skill: str) -> int:
        return getattr(self, data()["skills"][skill]["attribute"])

    def modifier(self, monitor: Monitor | None = None) -> int:
        return wound_modifier(monitor or self.monitor, data()["monitor"]["modifiers"])

    def score(self, skill: str, monitor: Monitor | None = None) -> int:
        """Attribute + skill + wound modifier (2.1)."""
        return self.attribute(skill) + self.skills[skill] + self.modifier(monitor)

    @property
    def defence(self) -> int:
        return data()["protections"][self.protection]["defence"]

    @property
    def encumbrance(self) -> int:
        return data()["protections"][self.protection]["encumbrance"]

    def difficulty(self, skill: str, attack: bool = False, defence: bool = False, passe: int = 0) -> int:
        """The difficulties this combatant's own state adds to a roll of ``skill``: encumbrance (5.15) and
        the conditions of 5.17. Those of the action (a manoeuvre, cover, a hazard) are added by it."""
        cond = data()["conditions"]
        total = self.encumbrance if data()["skills"][skill]["encumbered"] else 0
        if self.knocked_down and (skill == "reflexe" or attack):
            total += cond["knocked_down"]
        if self.held_by is not None and skill != "resister":
            total += cond["held"]
        if defence and self.feinted_until >= passe > 0:
            total += cond["feinted"]
        return total

    def net(self, skill: str, extra: int = 0, attack: bool = False, defence: bool = False, passe: int = 0,
            monitor: Monitor | None = None) -> int:
        """Score minus every difficulty: the die must not exceed it for the roll to succeed."""
        return self.score(skill, monitor) - self.difficulty(skill, attack, defence, passe) - extra


@dataclass
class Item:
    """A weapon lying on the ground (dropped by a disarm), that anyone may pick up."""

    id: str
    weapon: str
    tile: Tile


@dataclass
class State:
    battlefield: Battlefield
    figures: list[Combatant]
    max_turns: int
    steps: StepStack = field(default_factory=StepStack)
    turn: int = 0                                    # the passe in play; 0 before the first
    phase: str = "start"
    initiative: dict[str, list] = field(default_factory=dict)       # figure -> [margin, exploit] this passe
    order: list[list[str]] = field(default_factory=list)            # this passe's groups, first first
    declarations: dict[str, list[str]] = field(default_factory=dict)  # figure -> declared option keys
    foresight: list[int] = field(default_factory=list)              # sides that see every declaration
    buffer: list[dict] | None = None                 # effects held back until a simultaneous group ends
    active: str | None = None
    activated: list[str] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    truce_offer: int | None = None
    over: bool = False
    winner: int | None = None
    reason: str = ""
    next_item: int = 1

    def figure(self, fid: str) -> Combatant:
        for f in self.figures:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def side_figures(self, side: int) -> list[Combatant]:
        return [f for f in self.figures if f.side == side]

    def active_of(self, side: int) -> list[Combatant]:
        return [f for f in self.figures if f.side == side and f.active]

    def standing_at(self, tile: Tile) -> Combatant | None:
        """The figure on a tile (a dead one no longer holds its tile)."""
        for f in self.figures:
            if f.on_field and f.tile == tile:
                return f
        return None

    def occupied(self, but: str | None = None) -> set[Tile]:
        return {f.tile for f in self.figures if f.on_field and f.tile is not None and f.id != but}
