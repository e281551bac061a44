"""The KOLAPS character sheet (§2.3) and match state, as plain dataclasses the Match deep-copies."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine.battlefield import Tile
from ...engine.steps import StepStack
from ...errors import RulesError

DATA_FILE = Path(__file__).parent / "data" / "kolaps.json"

ZONES = ("left_arm", "right_arm", "legs", "belly", "chest", "head")
ZONE_MAX = {"left_arm": 3, "right_arm": 3, "legs": 3, "belly": 2, "chest": 1, "head": 1}
TOTAL_BOXES = sum(ZONE_MAX.values())
# modifier to the next hit's severity by the zone's current wounds (§5.24, A43)
ZONE_MODIFIER = {"left_arm": (0, 1, 1, 2), "right_arm": (0, 1, 1, 2), "legs": (0, 1, 2, 2),
                 "belly": (0, 1, 2), "chest": (0, 2), "head": (0, 3)}

NORMAL, PINNED, WITHDRAWING, SHELTERED, ROUTING, MUTINOUS = (
    "normal", "pinned", "withdrawing", "sheltered", "routing", "mutinous")


def load_data(path: Path = DATA_FILE) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RulesError(str(path), f"cannot read the KOLAPS data file ({exc})") from None
    for name, weapon in data.get("weapons", {}).items():
        if "range" not in weapon or "traits" not in weapon:
            raise RulesError(f"{path}: weapons.{name}", "a weapon needs 'range' and 'traits'")
    for name, arch in data.get("archetypes", {}).items():
        for w in [arch.get("ready")] + list(arch.get("carried", [])):
            if w not in data["weapons"]:
                raise RulesError(f"{path}: archetypes.{name}", f"unknown weapon '{w}'")
    return data


@dataclass(frozen=True)
class Order:
    """A standing ambush order (§5.15), stipulated in secret when the ambush is declared: it fires by itself
    at the first moment of an enemy activation that meets it. ``trigger`` is "first" (the first enemy that
    offers a shot or a strike), "near" (the first within ``within`` cm), "only" (only ``target``) or
    "after" (once the enemy's action is resolved)."""

    trigger: str
    within: int | None = None
    target: str | None = None


@dataclass
class Character:
    id: str
    name: str
    archetype: str
    side: int
    tile: Tile
    is_avatar: bool
    rng_initial: int
    mvt_initial: int
    cib_initial: int
    rng_mod: int = 0
    mvt_mod: int = 0
    cib_mod: int = 0
    morale: int = 6
    fatigue: int = 0
    fatigue_gained_this_turn: bool = False
    fatigue_locked_at_6: bool = False
    exhausted_from_turn: int | None = None
    no_recovery_turn: int | None = None
    cannot_activate_turn: int | None = None
    ko_activations_left: int = 0
    wounds: dict = field(default_factory=lambda: {z: 0 for z in ZONES})
    hemorrhage: dict = field(default_factory=dict)      # zone -> turn caused
    critical: list = field(default_factory=list)        # zones with the C box
    aff: int | None = None
    offensive: bool = False
    directive_lost: bool = False
    did_offensive_action_this_turn: bool = False
    commitment_excused_this_turn: bool = False
    activated_this_turn: bool = False
    prone: bool = False
    permanently_prone: bool = False
    huddled: bool = False
    ambush_armed: bool = False
    ambush_declared_turn: int | None = None
    ambush_order: Order | None = None
    quiet_turn: int | None = None                       # public: see ``may_lie_in_ambush``
    no_two_handed_next_activation: bool = False
    no_offensive_next_activation: bool = False
    no_offensive_turn: int | None = None
    never_offensive: bool = False
    right_arm_malus: bool = False
    morale_state: str = NORMAL
    weapons: list = field(default_factory=list)
    ready_weapon: str = "unarmed"
    left_hand: str | None = None                        # a carried one-handed item held in the left hand
    jammed: list = field(default_factory=list)
    uses_left: dict = field(default_factory=dict)
    specialisations: list = field(default_factory=list)
    in_play: bool = True
    casualty: str = ""
    ignores: list = field(default_factory=list)         # attackers it declined to answer (A16)
    knife_foes: list = field(default_factory=list)      # enemies adjacent at the start of the turn
    morale_preset: bool = False                         # a scenario fixed it: no initial roll
    catch_breath_declared: bool = False
    rally_declared: bool = False

    def may_lie_in_ambush(self) -> bool:
        """What the enemy knows of its ambush: its last activation (turn ``quiet_turn``) offered one and ended
        with nothing to see, so it may have declared one; None once something public rules it in or out."""
        return self.quiet_turn is not None

    def total_wounds(self) -> int:
        return sum(self.wounds.values())

    def crippled_arm(self) -> bool:
        return "left_arm" in self.critical or "right_arm" in self.critical

    def rank(self, turn: int) -> int:
        """Modified rank, or 0 while exhausted (§2.2, §5.18)."""
        if self.exhausted_from_turn is not None and turn >= self.exhausted_from_turn:
            return 0
        return self.rng_mod


@dataclass
class KolapsState:
    bf: Any
    width: int
    height: int
    cm_per_tile: float
    max_turns: int
    chars: dict                                          # id -> Character
    turn: int = 0
    phase: str = "setup"
    attacker: int | None = None
    defender: int | None = None
    first_speaker: int | None = None
    barred: int | None = None
    next_aff: int = 1
    last_actor_side: int | None = None
    to_play: int | None = None
    steps: StepStack = field(default_factory=StepStack)
    auction: dict = field(default_factory=dict)
    ground: list = field(default_factory=list)           # [tile, weapon] lying on the battlefield
    finished: bool = False
    winner: int | None = None
    end_reason: str = ""

    def __deepcopy__(self, memo):
        """The battlefield is shared (KOLAPS never changes it); the rest is copied."""
        new = copy.copy(self)
        for name in self.__dataclass_fields__:
            if name != "bf":
                setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        return new
