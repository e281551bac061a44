"""Range bands, difficulties, severity dice and legal targets of KOLAPS offensive actions (§5.17–§5.35)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...engine import space
from ...engine.battlefield import Battlefield, Tile
from ...engine.dice import keep_best, keep_worst, uniform_die
from .model import ZONE_MODIFIER, ZONES, Character, KolapsState
from .pools import AUTOMATIC, IMPOSSIBLE, clamp_difficulty

ENGAGEMENT_CM = 25
POINT_BLANK_CM = 5

CONTACT, POINT_BLANK, EFFECTIVE, LONG, EXTREME = "contact", "point_blank", "effective", "long", "extreme"
BAND_MODIFIER = {POINT_BLANK: -2, EFFECTIVE: 0, LONG: 1, EXTREME: 2}


def traits(weapon: dict) -> list:
    return weapon.get("traits", [])


def shot_band(origin: Tile, target: Tile, weapon: dict, cm_per_tile: float) -> str | None:
    """Band of a shot (§5.33, §5.34.6, A58–A61); None when out of range."""
    if space.adjacent(origin, target):
        return CONTACT
    if space.within_cm(origin, target, POINT_BLANK_CM, cm_per_tile):
        return POINT_BLANK
    r = weapon["range"]
    if space.within_cm(origin, target, r, cm_per_tile):
        return EFFECTIVE
    if "explosion" in traits(weapon):
        return None
    if "fragmentation" in traits(weapon):
        return EXTREME if space.within_cm(origin, target, 2 * r, cm_per_tile) else None
    return LONG if space.within_cm(origin, target, 2 * r, cm_per_tile) else EXTREME


def band_modifier(band: str, weapon: dict) -> int:
    if band == EXTREME and "fragmentation" in traits(weapon):
        return 1
    return BAND_MODIFIER[band]


def blast_band(impact: Tile, tile: Tile, size: int, cm_per_tile: float) -> str | None:
    """Blast band from the impact point (§5.34.5): point-blank, effective, extreme, or None."""
    if space.within_cm(impact, tile, POINT_BLANK_CM, cm_per_tile):
        return POINT_BLANK
    if space.within_cm(impact, tile, size, cm_per_tile):
        return EFFECTIVE
    if space.within_cm(impact, tile, 2 * size, cm_per_tile):
        return EXTREME
    return None


BLAST_MODIFIER = {POINT_BLANK: -2, EFFECTIVE: 0, EXTREME: 1}
FRAGMENT_SEVERITY = {POINT_BLANK: (3, "C"), EFFECTIVE: (2, "C"), EXTREME: (2, "M")}


def severity_dice(weapon: dict, band: str, strike: bool) -> tuple[int, str]:
    """(number of dice, "D"/"C"/"M") per §5.35 for a non-critical hit."""
    t = traits(weapon)
    if "explosion" in t or "fragmentation" in t:
        return FRAGMENT_SEVERITY[POINT_BLANK if band == CONTACT else band]
    if strike:
        return (2, "C") if "pistol" in t else (1, "D")
    if "heavy" in t or band in (POINT_BLANK, CONTACT):
        return (2, "C")
    return (1, "D")


def severity_distribution(n: int, mode: str) -> dict[int, Fraction]:
    """Exact distribution of the kept severity value (C keeps the best, the engine's default)."""
    if mode == "D":
        return uniform_die()
    return keep_best(n) if mode == "C" else keep_worst(n)


def zone_modifier(ch: Character, zone: str) -> int:
    mods = ZONE_MODIFIER[zone]
    return mods[min(ch.wounds[zone], len(mods) - 1)]


def severity_row(s: int) -> int:
    return min(s, 6)


def hit_rows(ch: Character, n: int, mode: str, burst: bool = False) -> dict[int, Fraction]:
    """Exact distribution of the severity row of a non-critical hit on ch.

    A C roll keeps its best die; a burst swaps severity and location whenever that gives the higher severity.
    """
    return dict(_hit_rows(tuple(zone_modifier(ch, z) for z in ZONES), n, mode, burst))


@lru_cache(maxsize=4096)
def _hit_rows(mods: tuple, n: int, mode: str, burst: bool) -> tuple:
    out: dict[int, Fraction] = {}
    for s, ps in severity_distribution(n, mode).items():
        for loc in range(1, 7):
            severity = s + mods[loc - 1]
            if burst:
                severity = max(severity, loc + mods[s - 1])
            row = severity_row(severity)
            out[row] = out.get(row, Fraction(0)) + ps / 6
    return tuple(sorted(out.items()))


line_of_sight = space.line_of_sight     # the battlefield keeps its own cache (engine/sight.py)


# --- cover ------------------------------------------------------------------------

def effective_cover(bf: Battlefield, origin: Tile, target: Character) -> int:
    """§5.5 / A22: base cover, −1 in offensive mode without an armed ambush, +1 huddled."""
    base = int(space.cover_level(bf, origin, target.tile))
    level = base
    if target.offensive and not target.ambush_armed:
        level -= 1
    if target.huddled and base >= 1:
        level += 1
    return max(0, level)


def behind_cover(bf: Battlefield, tile: Tile) -> bool:
    """On, or adjacent to, a tile with light or heavy cover (Take cover, Ambush)."""
    for t in [tile] + space.neighbours(tile):
        if bf.inside(t) and bf.cover[t[1], t[0]] >= 1:
            return True
    return False


# --- difficulty -------------------------------------------------------------------

@dataclass(frozen=True)
class Difficulty:
    raw: int
    value: int | str
    terms: tuple[tuple[str, int], ...]
    band: str | None = None

    @property
    def possible(self) -> bool:
        return self.value != IMPOSSIBLE

    @property
    def automatic(self) -> bool:
        return self.value == AUTOMATIC


def make_difficulty(terms: list[tuple[str, int]], band: str | None = None) -> Difficulty:
    raw = sum(v for _, v in terms)
    return Difficulty(raw, clamp_difficulty(raw), tuple(terms), band)


def action_malus(attacker: Character) -> list[tuple[str, int]]:
    if attacker.right_arm_malus and "ambidextrous" not in attacker.specialisations:
        return [("crippled right arm", 2)]
    return []


def shot_difficulty(bf: Battlefield, state: KolapsState, attacker: Character, origin: Tile,
                    target: Character, weapon: dict, moving: bool) -> Difficulty | None:
    band = shot_band(origin, target.tile, weapon, state.cm_per_tile)
    if band is None or band == CONTACT:
        return None
    terms = [("target CIB", target.cib_mod)]
    if target.prone:
        terms.append(("target prone", 1))
    if attacker.prone:
        terms.append(("shooter prone", -1))
    if moving:
        terms.append(("move and shoot", 2))
    terms.append((band, band_modifier(band, weapon)))
    cover = effective_cover(bf, origin, target)
    if cover:
        terms.append(("cover", cover))
    return make_difficulty(terms + action_malus(attacker), band)


def strike_difficulty(attacker: Character, target: Character, weapon: dict, moving: bool) -> Difficulty:
    terms = [("target prone", 0) if target.prone else ("target CIB", target.cib_mod)]
    if attacker.prone:
        terms.append(("striker prone", 2))
    if moving:
        terms.append(("move to strike", 2))
    if "pistol" in traits(weapon):
        terms.append(("pistol in melee", 2))
    return make_difficulty(terms + action_malus(attacker), CONTACT)


def blast_difficulty(bf: Battlefield, impact: Tile, victim: Character, size: int,
                     cm_per_tile: float) -> Difficulty | None:
    band = blast_band(impact, victim.tile, size, cm_per_tile)
    if band is None:
        return None
    terms = [("target CIB", victim.cib_mod), (band, BLAST_MODIFIER[band])]
    cover = effective_cover(bf, impact, victim)
    if cover:
        terms.append(("cover", cover))
    if victim.prone:
        terms.append(("target prone", 1))
    return make_difficulty(terms, band)


def total_wound_penalty(total: int) -> tuple[int | None, int | None, int | None]:
    """(MVT, CIB, RNG) penalties by total wounds (§5.30); None means "set to 0"."""
    table = {0: (0, 0, 0), 1: (1, 0, 0), 2: (1, 1, 0), 3: (2, 1, 1), 4: (2, 2, 2), 5: (3, 3, 3)}
    if total >= 6:
        return (None, None, None)
    return table[total]


def modified_values(ch: Character) -> tuple[int, int, int]:
    pm, pc, pr = total_wound_penalty(ch.total_wounds())
    def apply(initial: int, penalty: int | None) -> int:
        return 0 if penalty is None else max(0, initial - penalty)
    return apply(ch.mvt_initial, pm), apply(ch.cib_initial, pc), apply(ch.rng_initial, pr)

