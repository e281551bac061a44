"""Victory by points at the turn limit, the project default of every rule system (docs/maps.md, Objectives).

A battle still undecided when its last turn ends goes to the side with more points: what it has taken
of the enemy's figures (each module says what a figure is worth and how much of it is lost) and the
scenario objectives drawn on the map that it holds then. Objectives are ``objective`` map objects:

- a control zone (``kind`` ``control``, the default) scores its ``worth`` for the side with more
  figures standing on its tiles than the other;
- an exit (``kind`` ``exit``) scores its ``worth`` for each figure of its ``side`` standing on it: the
  edge that side must break through to.

``worth`` counts in figures: an objective worth 1 is worth one whole standard figure of the rule system.
(The property is not called ``points``: the Tiled reader takes that name for a polygon's points.)
Everything here is derived from the map and the figures; no module keeps a score.
"""
from __future__ import annotations

from dataclasses import dataclass

from .battlefield import Battlefield, Tile
from .protocol import FigureView, Overlay, Panel, Words

TURN_LIMIT = "points"       # the Outcome reason of a battle decided at the turn limit
KINDS = ("control", "exit")


@dataclass(frozen=True)
class Objective:
    name: str
    name_fr: str                # its French name (``name_fr`` property), for the French window; else its name
    kind: str                   # "control" or "exit"
    tiles: frozenset[Tile]
    worth: int                  # in standard figures
    side: int | None = None     # whose exit it is; None for a control zone


@dataclass(frozen=True)
class Piece:
    """One figure as the score sees it: ``value`` is what it is worth whole, in the module's own measure,
    and ``lost`` what the enemy has taken of it (its whole value once it is out of the battle)."""

    side: int
    tile: Tile | None           # None: not on the map (fled, withdrawn, off the field)
    value: int
    lost: int

    @property
    def standing(self) -> bool:
        return self.tile is not None and self.lost < self.value


def _whole(text, default: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        return default
    return value if value >= 0 else default


def objectives(bf: Battlefield) -> list[Objective]:
    """The map's objectives, read from its ``objective`` objects; a value the map gets wrong falls back to
    its default (the validator names it)."""
    out = []
    for o in bf.objects_of("objective"):
        kind = str(o.properties.get("kind", "control")).strip().lower()
        kind = kind if kind in KINDS else "control"
        side = None
        if kind == "exit":
            side = _whole(o.properties.get("side", 0), 0)
            if side not in (0, 1):
                side = 0
        tiles = frozenset(t for t in o.tiles if bf.inside(t))
        name_fr = str(o.properties.get("name_fr", "")).strip() or o.name
        out.append(Objective(o.name, name_fr, kind, tiles, _whole(o.properties.get("worth", 1), 1), side))
    return out


def problems(bf: Battlefield) -> list[tuple[str, str, str]]:
    """(place, message, fix) for each objective property the map gets wrong, for the validator."""
    out = []
    for o in bf.objects_of("objective"):
        place = f"objective '{o.name}'"
        kind = str(o.properties.get("kind", "control")).strip().lower()
        if kind not in KINDS:
            out.append((place, f"kind '{kind}' is not an objective kind; read as 'control'",
                        "use kind=control or kind=exit"))
        if "worth" in o.properties and _whole(o.properties["worth"], -1) < 0:
            out.append((place, f"worth '{o.properties['worth']}' is not a whole number of 0 or more; read as 1",
                        "give worth as an int property"))
        if kind == "exit" and str(o.properties.get("side", "0")).strip() not in ("0", "1"):
            out.append((place, f"side '{o.properties.get('side')}' is not 0 or 1; read as 0", "set side to 0 or 1"))
    return out


def holder(objective: Objective, pieces: list[Piece]) -> int | None:
    """The side holding a control zone: more figures standing on it than the other side; None on a tie."""
    count = [0, 0]
    for p in pieces:
        if p.standing and p.tile in objective.tiles:
            count[p.side] += 1
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def objective_points(objectives_: list[Objective], pieces: list[Piece], figure_value: int) -> list[int]:
    """Each side's points from the objectives it holds, in the module's measure."""
    out = [0, 0]
    for o in objectives_:
        if o.kind == "control":
            side = holder(o, pieces)
            if side is not None:
                out[side] += o.worth * figure_value
        else:
            out[o.side] += o.worth * figure_value * sum(
                1 for p in pieces if p.side == o.side and p.standing and p.tile in o.tiles)
    return out


@dataclass(frozen=True)
class Score:
    """Both sides' points at the turn limit: ``taken`` from the enemy's figures, ``held`` from objectives."""

    taken: tuple[int, int]
    held: tuple[int, int]

    @property
    def points(self) -> tuple[int, int]:
        return (self.taken[0] + self.held[0], self.taken[1] + self.held[1])

    @property
    def winner(self) -> int | None:
        p = self.points
        return None if p[0] == p[1] else (0 if p[0] > p[1] else 1)

    def lines(self) -> tuple[Words, ...]:
        """Each side's points for the results screen (``result.points`` in the module's words)."""
        return tuple(Words("result.points", side=s, points=self.points[s], taken=self.taken[s], held=self.held[s])
                     for s in (0, 1))


def score(bf: Battlefield, pieces: list[Piece], figure_value: int) -> Score:
    taken = [sum(p.lost for p in pieces if p.side != s) for s in (0, 1)]
    held = objective_points(objectives(bf), pieces, figure_value)
    return Score((taken[0], taken[1]), (held[0], held[1]))


# --- what the window shows of them ----------------------------------------------------------------

def overlays(bf: Battlefield) -> list[Overlay]:
    """The objectives as zones on the map: control zones for everyone, an exit in its side's colour."""
    return [Overlay("zone", tuple(sorted(o.tiles)), o.side, "objective" if o.kind == "control" else "exit_objective")
            for o in objectives(bf)]


def panel(bf: Battlefield, figures: list[FigureView]) -> Panel | None:
    """A side panel of the map's objectives and who holds each now, from the figures a viewer sees (so it
    tells no secret); None on a map without objectives."""
    found = objectives(bf)
    if not found:
        return None
    pieces = [Piece(f.side, f.tile, 1, 0) for f in figures if f.alive and f.tile is not None]
    lines = []
    for o in found:
        if o.kind == "control":
            lines.append(Words("objective.control", name=o.name, name_fr=o.name_fr, worth=o.worth,
                               side=holder(o, pieces)))
        else:
            there = sum(1 for p in pieces if p.side == o.side and p.tile in o.tiles)
            lines.append(Words("objective.exit", name=o.name, name_fr=o.name_fr, worth=o.worth, side=o.side,
                               n=there))
    return Panel("objectives", tuple(lines))
