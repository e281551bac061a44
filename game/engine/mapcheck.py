"""The map validator behind ``escarmouche validate-map``: every problem with its place and a fix.

Errors mean the map cannot be played; warnings mean it plays, but probably not as intended.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import MapError
from . import objectives
from .battlefield import Battlefield, Door
from .areas import connected_labels
from .tiled import KNOWN_HAZARDS, corner_blockers, load_map, walkable


@dataclass(frozen=True)
class Problem:
    file: str
    place: str
    message: str
    fix: str = ""
    severity: str = "warning"      # "error" | "warning"

    def line(self) -> str:
        """The one line the command prints: ``file: place: message``."""
        text = f"{self.file}: {self.place}: {self.message}" if self.place else f"{self.file}: {self.message}"
        return f"{text} (fix: {self.fix})" if self.fix else text


def check_map(path: str | Path) -> list[Problem]:
    """Every problem of one map, errors first."""
    path = Path(path)
    try:
        lm = load_map(path)
    except MapError as exc:
        file, _, place = exc.place.partition(": ")
        file, _, line = file.partition(", ")
        return [Problem(file or path.name, place or line or "map", exc.message, _fix_for(exc.message), "error")]
    name = path.name
    problems = [Problem(name, i.place, i.message, i.fix, "warning") for i in lm.issues]
    bf = lm.battlefield
    problems += _spawn_problems(name, bf)
    problems += _door_problems(name, bf)
    problems += _feature_problems(name, bf)
    return sorted(problems, key=lambda p: p.severity != "error")


def _fix_for(message: str) -> str:
    if "orientation" in message:
        return "in Tiled, Map > Map Properties > Orientation: Orthogonal, then redraw the map"
    if message.startswith("map '"):
        return "check the path and name of the map file"
    if "not found" in message:
        return "put the missing file back beside the map, or re-link it in Tiled"
    if "malformed" in message:
        return "the file is damaged: open and save it again in Tiled, or restore a copy"
    return "open the map in Tiled, check it and save it again"


def _tiles(mask: np.ndarray) -> list[tuple[int, int]]:
    return [(int(x), int(y)) for y, x in zip(*np.nonzero(mask))]


def _spawn_problems(name: str, bf: Battlefield) -> list[Problem]:
    out = []
    stand = np.zeros((bf.height, bf.width), dtype=bool)
    for side in (0, 1):
        tiles = bf.spawn.get(side, [])
        good = [t for t in tiles if bf.can_stand(t)]
        place = f"spawn side {side}"
        if not good:
            out.append(Problem(name, place, "no tile of this spawn zone can be stood on",
                               "draw the spawn object over open ground", "error"))
        elif len(good) < len(tiles):
            bad = [t for t in tiles if not bf.can_stand(t)]
            out.append(Problem(name, place, f"{len(bad)} spawn tile(s) cannot be stood on, e.g. tile "
                                            f"{bad[0]}", "move the spawn object off walls and water"))
        elif len(good) < 5:
            out.append(Problem(name, place, f"only {len(good)} tile(s) to deploy on",
                               "make the spawn zone larger (about 10 tiles per side)"))
        for t in good:
            stand[t[1], t[0]] = True
    if bf.spawn.get(0) and bf.spawn.get(1) and stand.any():
        labels = connected_labels(walkable(bf), corner_blockers(bf, shut_from=3))
        reach = {side: {int(labels[y, x]) for x, y in bf.spawn[side] if labels[y, x]} for side in (0, 1)}
        if reach[0] and reach[1] and not reach[0] & reach[1]:
            out.append(Problem(name, "spawn side 0", "no path on foot leads to the spawn zone of side 1",
                               "open a gap, a door or a crawl gap between the two sides"))
    overlap = set(bf.spawn.get(0, [])) & set(bf.spawn.get(1, []))
    if overlap:
        out.append(Problem(name, "spawn side 1", f"{len(overlap)} tile(s) belong to both spawn zones, "
                                                 f"e.g. {sorted(overlap)[0]}", "separate the two spawn objects"))
    return out


def _door_problems(name: str, bf: Battlefield) -> list[Problem]:
    out = []
    wall = np.pad(bf.blocks_move | bf.climbable, 1, constant_values=True)
    for x, y in _tiles(bf.door != Door.NONE):
        left, right = wall[y + 1, x], wall[y + 1, x + 2]
        up, down = wall[y, x + 1], wall[y + 2, x + 1]
        if not ((left and right) or (up and down)):
            out.append(Problem(name, f"tile ({x}, {y})", "door is not between two walls, so figures "
                                                          "can walk around it", "put wall tiles on both sides "
                                                                                "of the door"))
        if bf.blocks_move[y, x]:
            out.append(Problem(name, f"tile ({x}, {y})", "door tile also blocks movement, so it never opens "
                                                          "a way", "paint the door on a floor tile, not a wall"))
    return out


def _feature_problems(name: str, bf: Battlefield) -> list[Problem]:
    out = []
    for x, y in _tiles(bf.perch & ~bf.climbable)[:5]:
        out.append(Problem(name, f"tile ({x}, {y})", "perch is not climbable, so no Climb can end there",
                           "add climbable=true (the 'tree' terrain does both)"))
    for x, y in _tiles(bf.trap_spot & (bf.blocks_move | bf.deep_water))[:5]:
        out.append(Problem(name, f"tile ({x}, {y})", "trap spot on a tile no one can walk on",
                           "put trap spots on floor tiles such as doorways"))
    for code, hazard in sorted(bf.properties.get("hazard_ids", {}).items()):
        if hazard not in KNOWN_HAZARDS and (bf.hazard == code).any():
            x, y = _tiles(bf.hazard == code)[0]
            out.append(Problem(name, f"tile ({x}, {y})", f"hazard '{hazard}' is not one of the known "
                                                          f"hazards", f"use one of: {', '.join(KNOWN_HAZARDS)}"))
    for obj in bf.objects:
        if obj.kind == "emplacement" and not obj.properties.get("weapon"):
            out.append(Problem(name, f"object '{obj.name or obj.kind}'", "emplacement has no weapon property",
                               "add a 'weapon' property naming a weapon of the rules' arsenal"))
        if obj.kind == "item" and not obj.properties.get("item"):
            out.append(Problem(name, f"object '{obj.name or obj.kind}'", "item has no item property",
                               "add an 'item' property naming the item lying there"))
    out += [Problem(name, place, message, fix) for place, message, fix in objectives.problems(bf)]
    return out
