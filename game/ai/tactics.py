"""The decision framework every rule module's tactical AI is built on.

A module's AI knows its own rules: it lists what its figures threaten (``Threat``) and scores each option
of a decision by its expected value, from the module's exact odds, in the module's own measure of harm
(PV, wound boxes, boxes of a vital monitor). This framework holds what is the same in every system:

- the pick (``Tactician.pick``): the best score, ties broken on the player's own seeded generator, never
  on the match's dice;
- the threat map (``ThreatMap``): for a tile, the harm the enemy could do to a figure standing there, from
  its lines of fire now (range, line of sight, cover);
- focus fire (``Tactician.worth``): harm on a figure already hurt is worth more, and a kill its value;
- falling back (``Tactician.caution``): a wounded or outmatched figure fears danger more and closes in less;
- the score (``Tactician.posture``): a side ahead on points keeps what it has, one level or behind grows
  bolder as the turn limit nears, so battles are fought out rather than sat out;
- objectives (``Objectives``): the control zones and exits of the map pull figures, more as the turn
  limit nears, since they count in the points that decide a battle then (engine/objectives.py);
- levels (``LEVELS``): easy, normal and hard differ in how well they play, never in what they see.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from ..engine import space
from ..engine.battlefield import Battlefield, Tile
from ..engine.decision import Decision
from ..engine.match import Observation
from ..engine.objectives import objectives as map_objectives

EPS = 1e-9
COVER_FACTOR = (1.0, 0.6, 0.35)     # harm that still gets through no, light and heavy cover, as a default


@dataclass(frozen=True)
class Level:
    """How well a tactician plays. ``noise`` blurs every score by this share of the module's scale (an easy
    player misjudges, even between options far apart); ``margin`` makes options within this share of the
    scale of the best look alike, one of them drawn (a normal player hesitates between close options and
    sometimes takes the lesser, never a clearly worse one; a hard one always takes the best); ``caution``
    weighs danger and ``focus`` the damage a target already has; ``objectives`` weighs the map's objectives;
    ``foresight`` multiplies how many candidates get the full (costly) look; ``reads_score`` plays for the
    points that would decide the battle at its turn limit."""

    name: str
    noise: float
    margin: float
    caution: float
    focus: float
    objectives: float
    foresight: float
    reads_score: bool


LEVELS = {level.name: level for level in (
    Level("easy", noise=0.25, margin=0.0, caution=0.3, focus=0.0, objectives=0.0, foresight=0.5, reads_score=False),
    Level("normal", noise=0.0, margin=0.25, caution=1.0, focus=0.5, objectives=1.0, foresight=0.5, reads_score=True),
    Level("hard", noise=0.0, margin=0.0, caution=1.0, focus=0.75, objectives=1.0, foresight=3.0, reads_score=True))}


# --- what the enemy threatens -----------------------------------------------------------------

@dataclass(frozen=True)
class Threat:
    """One enemy figure as a danger to a given figure of ours. ``harm`` is the expected harm of its attack
    on that figure, in the module's measure; ``reach`` how far (pas) that attack goes from where it stands
    (1.5 for a contact attack: the eight tiles round it); ``sighted`` whether the attack needs a line of
    sight (a gun does, a blade in contact does not)."""

    tile: Tile
    harm: float
    reach: float
    sighted: bool = True


class Sight:
    """Line of sight and cover on one battlefield with its doors as they are now; cover is remembered by pair."""

    def __init__(self, bf: Battlefield):
        self.bf = bf
        self.doors = bf.door.tobytes()
        self.covers: dict = {}

    def __call__(self, a: Tile, b: Tile) -> bool:
        return space.line_of_sight(self.bf, a, b)      # the battlefield's own cache answers (engine/sight.py)

    def cover(self, origin: Tile, target: Tile) -> int:
        """The cover level of ``target`` against a shot from ``origin`` (space.cover_level)."""
        key = (origin, target)
        level = self.covers.get(key)
        if level is None:
            level = self.covers[key] = int(space.cover_level(self.bf, origin, target))
        return level


class ThreatMap:
    """The harm the enemy threatens on each tile for one figure of ours, worked out on demand and kept.

    A threat whose attack reaches the tile now (within range and, for a sighted attack, in line of sight)
    counts in full, lessened by the tile's cover against it. (Counting too the enemies that could move into
    range next activation, at 40 %, was tried at the hard level: no stronger, and warier in the wrong place,
    since it took from a safe tile's worth as much as from an exposed one.)"""

    def __init__(self, threats: Iterable[Threat], sees: Callable[[Tile, Tile], bool],
                 cover: Callable[[Tile, Tile], int] | None = None, cover_factor=COVER_FACTOR):
        self.threats = [t for t in threats if t.harm > 0]
        self.sees = sees
        self.cover = cover
        self.cover_factor = cover_factor
        self._danger: dict[Tile, float] = {}

    def fire(self, t: Threat, tile: Tile) -> float:
        """The share of ``t``'s harm that reaches ``tile`` now (0 when it cannot)."""
        if not space.within(t.tile, tile, t.reach) or (t.sighted and not self.sees(t.tile, tile)):
            return 0.0
        if self.cover is None or not t.sighted:
            return 1.0
        return self.cover_factor[min(int(self.cover(t.tile, tile)), len(self.cover_factor) - 1)]

    def danger(self, tile: Tile) -> float:
        value = self._danger.get(tile)
        if value is None:
            value = self._danger[tile] = sum(self.fire(t, tile) * t.harm for t in self.threats)
        return value

    def lines_of_fire(self, tile: Tile) -> int:
        """How many enemies could attack a figure on ``tile`` now."""
        return sum(1 for t in self.threats if self.fire(t, tile) > 0)


# --- the map's objectives ----------------------------------------------------------------------

class Objectives:
    """The control zones and exits of the map, as a pull on a figure of ``side``: standing on a zone, or on
    an exit of its side, is worth the objective's points (in the module's measure), growing from a third to
    the whole as the last turn nears; a figure away from them is drawn by the nearest."""

    APPROACH = 0.03             # per pas to the nearest objective, as a share of its points

    def __init__(self, bf: Battlefield, side: int, figure_value: float, turn: int, max_turns: int):
        self.zones = [o for o in map_objectives(bf) if o.kind == "control" or o.side == side]
        self.figure_value = figure_value
        share = min(1.0, max(0.0, turn / max_turns)) if max_turns else 1.0
        self.urgency = (1 + 2 * share) / 3

    def __bool__(self) -> bool:
        return bool(self.zones)

    def pull(self, tile: Tile) -> float:
        best = 0.0
        for o in self.zones:
            points = o.worth * self.figure_value * self.urgency
            if tile in o.tiles:
                return points
            gap = min(space.distance(tile, t) for t in o.tiles)
            best = max(best, points * (1 - min(1.0, self.APPROACH * gap)) * 0.5)
        return best


# --- the player --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Posture:
    """What the score asks of a side: ``caution`` multiplies its fear of danger, ``drive`` its will to close
    in and to take the objectives."""

    caution: float
    drive: float


class Tactician:
    """The base of every module's tactical player: ``choose`` asks the module's ``score_<decision kind>``
    for each option's value and picks the best. A module whose decision kind has no scorer answers with its
    first option (a single button, a formality).

    ``SCALE`` is the module's typical value of a good action, in its own measure: the easy level's noise
    is a share of it. ``MARGIN`` gives a level a wider margin than the framework's, in a module whose levels
    it spaces too little (a share of ``SCALE``, by level name); nothing else of a level is a module's."""

    name = "tactical"
    SCALE = 1.0
    MARGIN: dict[str, float] = {}
    FALL_BACK = 2.0             # how much more a figure at death's door fears danger than a whole one
    OUTMATCHED = 1.0            # … and one that faces twice the harm its side can answer with

    def __init__(self, seed: int = 0, level: str = "normal"):
        self.rng = random.Random(seed)
        self.level = replace(LEVELS[level], margin=self.MARGIN[level]) if level in self.MARGIN else LEVELS[level]
        if level != "normal":
            self.name = f"tactical:{level}"
        self._sight: Sight | None = None

    def sight(self, bf: Battlefield) -> Sight:
        """Line of sight and cover on ``bf``, kept across decisions while its doors stay as they are."""
        s = self._sight
        if s is None or s.bf is not bf or s.doors != bf.door.tobytes():
            s = self._sight = Sight(bf)
        return s

    def choose(self, observation: Observation, decision: Decision) -> str:
        scorer = getattr(self, f"score_{decision.kind}", None)
        if scorer is None or len(decision.options) == 1:
            return decision.options[0].key
        return self.pick(scorer(observation, decision))

    def pick(self, scores: dict[str, float]) -> str:
        """The best-scored key, drawn on the seeded generator among those the level cannot tell from it: the
        easy level blurs the scores first, the normal one takes the options within its margin as alike."""
        if self.level.noise:
            sigma = self.level.noise * self.SCALE
            scores = {k: v + self.rng.gauss(0.0, sigma) for k, v in scores.items()}
        best = max(scores.values())
        alike = self.alike + EPS
        return self.rng.choice(sorted(k for k, v in scores.items() if v >= best - alike))

    @property
    def alike(self) -> float:
        """The level's margin in the module's measure: options this close to the best look as good."""
        return self.level.margin * self.SCALE

    # --- what every module's scores share ------------------------------------------------------

    def worth(self, health: float) -> float:
        """What one unit of harm on a target is worth, for focus fire: more the less health it has left
        (``health`` is the share left, 1 when whole)."""
        return 1.0 + self.level.focus * (1.0 - max(0.0, min(1.0, health)))

    def caution(self, health: float, danger_to_us: float = 0.0, harm_we_answer: float = 0.0,
                posture: "Posture | None" = None) -> float:
        """How much a figure weighs danger: the level's caution, more for one whose side is outmatched where it
        stands (``danger_to_us`` against ``harm_we_answer``), bent by the ``posture`` the score asks for, and
        more for a wounded figure whatever the score (losing it would cost the rest of its value)."""
        ratio = danger_to_us / harm_we_answer if harm_we_answer > 0 else (2.0 if danger_to_us > 0 else 0.0)
        outmatched = 1.0 + self.OUTMATCHED * max(0.0, min(1.0, ratio / 2 - 0.5))
        wounded = self.FALL_BACK * (1.0 - max(0.0, min(1.0, health)))
        return self.level.caution * (outmatched * (posture.caution if posture else 1.0) + wounded)

    def posture(self, lead: float, figure_value: float, turn: int, max_turns: int) -> "Posture":
        """How the points that would decide the battle now bend a side's play (engine/objectives.py): far
        ahead (two figures or more) it presses on to finish the enemy; ahead by a figure it keeps what it
        has; level or behind, it must take points before the last turn, and grows bolder as turns pass and
        the more it is behind. An easy player does not count."""
        if not self.level.reads_score:
            return Posture(1.0, 1.0)
        share = max(0.0, min(1.0, turn / max_turns)) if max_turns else 1.0
        if lead >= 2 * figure_value:
            return Posture(1.0, 1.5 + share)
        if lead >= figure_value:
            return Posture(1.25, 0.75)
        behind = max(0.0, min(2.0, -lead / figure_value)) if figure_value else 0.0
        bold = (0.25 + share) * (1.0 + behind)
        return Posture(1.0 / (1.0 + bold), 1.0 + 2.0 * bold)

    def threat_map(self, threats: Iterable[Threat], sees, cover=None, cover_factor=COVER_FACTOR) -> ThreatMap:
        return ThreatMap(threats, sees, cover, cover_factor)

    def objectives(self, observation: Observation, side: int, figure_value: float, turn: int) -> Objectives:
        return Objectives(observation.battlefield, side, figure_value * self.level.objectives, turn,
                          observation.max_turns)

    def foresight(self, base: int) -> int:
        """How many candidates get the full look at this level, from the module's own number (one at least)."""
        return max(1, round(base * self.level.foresight))


def nearest(tile: Tile, tiles: Iterable[Tile]) -> float:
    """Distance from ``tile`` to the nearest of ``tiles`` (infinite when there are none)."""
    return min((space.distance(tile, t) for t in tiles), default=math.inf)
