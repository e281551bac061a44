"""KOLAPS dice pools (§4): rank sets the threshold, difficulty sets the number of dice, every die must pass.

Pure functions: they read dice values and return results, so the test vectors and the exact odds
use the very code that resolves the rolls in play.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from collections import Counter
from itertools import combinations_with_replacement
from math import factorial, prod

THRESHOLD = {0: 5, 1: 4, 2: 4, 3: 3, 4: 2}
AUTOMATIC = "automatic"
IMPOSSIBLE = "impossible"


def threshold(rank: int) -> int:
    """Minimum die value for a rank, clamped to 0..4 (A1, A2)."""
    return THRESHOLD[max(0, min(4, rank))]


def clamp_difficulty(raw: int) -> int | str:
    """§4.3 / A3: ≤ −3 automatic, −2..−1 → 0, 6..10 → 5, ≥ 11 impossible."""
    if raw <= -3:
        return AUTOMATIC
    if raw >= 11:
        return IMPOSSIBLE
    return max(0, min(5, raw))


def dice_count(difficulty: int) -> int:
    return 2 if difficulty == 0 else difficulty


def notation(difficulty: int | str) -> str:
    if difficulty in (AUTOMATIC, IMPOSSIBLE):
        return str(difficulty)
    return "2C6" if difficulty == 0 else f"{difficulty}D6"


@dataclass(frozen=True)
class RollResult:
    success: bool
    critical_success: bool
    critical_failure: bool
    ones: int
    kept: tuple[int, ...]


def judge(dice: list[int] | tuple[int, ...], difficulty: int, need: int,
          two_handed_contact: bool = False) -> RollResult:
    """Success, criticals and the count of 1s for one roll (§4.4, A4, A6, A7)."""
    dice = list(dice)
    if difficulty == 0:
        kept = max(dice)
        ones = 2 if dice.count(1) == 2 else 0
        return RollResult(kept >= need, kept == 6, ones == 2, ones, (kept,))
    failures = sorted(d for d in dice if d < need)
    cancelled = min(dice.count(6), len(failures)) if two_handed_contact else 0
    failures = failures[cancelled:]
    success = not failures
    critical = success and cancelled == 0 and all(d == 6 for d in dice)
    ones = failures.count(1)
    return RollResult(success, critical, ones > 0, ones, tuple(dice))


@lru_cache(maxsize=None)
def rolls(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of ``n`` D6 up to the order of the dice, with how many of the 6ⁿ ordered rolls it stands
    for: a roll is judged on its faces alone, so the odds are exact from these few (462 for 6 dice)."""
    out = []
    for faces in combinations_with_replacement(range(1, 7), n):
        out.append((faces, factorial(n) // prod(factorial(k) for k in Counter(faces).values())))
    return tuple(out)


@lru_cache(maxsize=None)
def roll_odds(difficulty: int | str, need: int, two_handed_contact: bool = False) -> dict[str, Fraction]:
    """Exact chances of success, critical success and critical failure, by enumeration."""
    if difficulty == AUTOMATIC:
        return {"success": Fraction(1), "critical_success": Fraction(0), "critical_failure": Fraction(0)}
    if difficulty == IMPOSSIBLE:
        return {"success": Fraction(0), "critical_success": Fraction(0), "critical_failure": Fraction(0)}
    n = dice_count(difficulty)
    total = 6 ** n
    s = cs = cf = 0
    for d, ways in rolls(n):
        r = judge(d, difficulty, need, two_handed_contact)
        s += ways * r.success
        cs += ways * r.critical_success
        cf += ways * r.critical_failure
    return {"success": Fraction(s, total), "critical_success": Fraction(cs, total),
            "critical_failure": Fraction(cf, total)}



@lru_cache(maxsize=None)
def critical_failure_table(difficulty: int | str, need: int, two_hands: bool = False) -> dict[str, Fraction]:
    """Exact chances of each §5.32 result: 1D6 minus the roll's uncancelled 1s."""
    counts = {"more_fear_than_harm": 0, "minor_incident": 0, "major_incident": 0}
    if difficulty in (AUTOMATIC, IMPOSSIBLE):
        return {key: Fraction(0) for key in counts}
    n = dice_count(difficulty)
    for d, ways in rolls(n):
        r = judge(d, difficulty, need, two_hands)
        if not r.critical_failure:
            continue
        for die in range(1, 7):
            score = die - r.ones
            key = "more_fear_than_harm" if score >= 1 else "minor_incident" if score == 0 else "major_incident"
            counts[key] += ways
    return {key: Fraction(k, 6 ** n * 6) for key, k in counts.items()}
