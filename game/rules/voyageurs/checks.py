"""The test (2.1): 2d6 + two characteristics + modifiers against a difficulty; double six always
succeeds (critical success), double one always fails. Rolled here, and its exact chances."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction

from ...engine import events as ev
from ...engine.dice import Dist, sum_of_dice
from ...engine.events import Event
from .model import Combatant, Game, data

NATURAL: Dist = sum_of_dice(data()["test"]["dice"], data()["test"]["sides"])
CRITICAL = data()["test"]["critical"]
FUMBLE = data()["test"]["fumble"]


def succeeds(natural: int, bonus: int, difficulty: int) -> bool:
    if natural >= CRITICAL:
        return True
    if natural <= FUMBLE:
        return False
    return natural + bonus >= difficulty


def needed(bonus: int, difficulty: int) -> int:
    """The natural roll a success needs, within what the dice can show (3 to 12)."""
    return min(CRITICAL, max(FUMBLE + 1, difficulty - bonus))


@lru_cache(maxsize=4096)
def success_chance(bonus: int, difficulty: int) -> Fraction:
    return sum((p for n, p in NATURAL.items() if succeeds(n, bonus, difficulty)), Fraction(0))


def critical_chance() -> Fraction:
    return NATURAL[CRITICAL]


def total_dist(bonus: int) -> Dist:
    """The total of a test used as a number (initiative): 2d6 + bonus."""
    return {n + bonus: p for n, p in NATURAL.items()}


@dataclass(frozen=True)
class Result:
    faces: tuple[int, ...]
    total: int
    success: bool
    critical: bool


def roll_test(game: Game, who: Combatant | str, purpose: str, bonus: int, difficulty: int | None, rule: str,
              secret_about: Combatant | None = None, **facts) -> Result:
    """Roll one test and log its dice; ``difficulty`` None for a test used as a number (initiative).

    ``secret_about``: the roll's total and the natural it needed would show a characteristic the other
    side may not know (CON of an enemy of unknown type). The dice are shown to both sides once, and the
    total and the natural needed to its own side only, in a ``test_total`` event.
    """
    d = data()["test"]
    faces = tuple(game.dice.roll(d["dice"], d["sides"], rule))
    natural = sum(faces)
    total = natural + bonus
    who_id = who.id if isinstance(who, Combatant) else who
    if difficulty is None:
        game.emit(ev.dice(who_id, faces, purpose, rule, total=total, **facts))
        return Result(faces, total, False, False)
    success = succeeds(natural, bonus, difficulty)
    critical = natural >= CRITICAL
    told = {"needed": needed(bonus, difficulty), "total": total}
    if secret_about is not None and not game.state.knows(1 - secret_about.side, secret_about):
        game.emit(ev.dice(who_id, faces, purpose, rule, difficulty=difficulty, success=success, critical=critical,
                          **facts))
        game.emit(Event("test_total", {"figure": who_id, "purpose": purpose, **told}, secret_about.side, rule))
    else:
        game.emit(ev.dice(who_id, faces, purpose, rule, difficulty=difficulty, success=success, critical=critical,
                          **told, **facts))
    return Result(faces, total, success, critical)


def roll_damage(game: Game, who: str, dice: list[int], critical: bool, rule: str, **facts) -> int:
    """A weapon's damage dice, summed; a critical rolls them twice and adds both rolls (5.6)."""
    n, sides = dice
    amount = 0
    for purpose in (("damage", "damage_critical") if critical else ("damage",)):
        faces = game.dice.roll(n, sides, rule)
        amount += sum(faces)
        game.emit(ev.dice(who, faces, purpose, rule, sides=sides, **facts))
    return amount


def damage_dist(dice: list[int], critical: bool) -> Dist:
    """The damage of a hit: a critical's two rolls are one sum of twice the dice. Shared: do not change it."""
    return _dice_sum(dice[0] * (2 if critical else 1), dice[1])


@lru_cache(maxsize=64)
def _dice_sum(n: int, sides: int) -> Dist:
    return sum_of_dice(n, sides)
