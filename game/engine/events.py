"""Events: plain data describing what happened, with every die and the rule that used it.

The core events below are built by every rule module through these constructors, so the window
animates and logs them without knowing the module. A module adds facts of its own as keyword
arguments, and emits module-specific events (``Event(kind, data)``) on top.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

Tile = tuple[int, int]


@dataclass(frozen=True)
class Event:
    """``kind`` names what happened ("moved", "dice", "damaged"…); ``data`` holds JSON-able facts.

    ``visible_to`` is None when both sides may see the event, otherwise the only side that may
    (a secret bid, the real token among decoys). ``rule`` cites the rule section applied.
    """

    kind: str
    data: dict = field(default_factory=dict)
    visible_to: int | None = None
    rule: str = ""

    def seen_by(self, side: int | None) -> bool:
        return self.visible_to is None or side is None or self.visible_to == side

    def to_json(self) -> dict:
        return {"kind": self.kind, "data": self.data, "visible_to": self.visible_to, "rule": self.rule}


CORE = ("moved", "dice", "damaged", "healed", "removed", "attack", "thrown", "blast", "revealed",
        "turn", "phase", "game_over")


def _tile(t: Iterable[int] | None) -> list[int] | None:
    return None if t is None else [int(v) for v in t]


def moved(figure: str, frm: Tile, path: Iterable[Tile], rule: str = "", visible_to: int | None = None,
          **facts: Any) -> Event:
    """A figure went from ``frm`` along ``path`` (the tiles entered, in order; empty: it stayed)."""
    steps = [_tile(t) for t in path]
    return Event("moved", {"figure": figure, "from": _tile(frm), "path": steps,
                           "to": steps[-1] if steps else _tile(frm), **facts}, visible_to, rule)


def dice(who: str | int | None, faces: Iterable[int], purpose: str, rule: str = "", sides: int = 6,
         needed: int | str | None = None, visible_to: int | None = None, **facts: Any) -> Event:
    """Dice rolled by ``who`` (a figure id, a side, or None for a roll-off of one die per side, side 0's
    first), for ``purpose`` (a key of the module's words), with the score ``needed`` when one is."""
    data = {"who": who, "faces": [int(v) for v in faces], "sides": sides, "purpose": purpose, **facts}
    if needed is not None:
        data["needed"] = needed
    return Event("dice", data, visible_to, rule)


def damaged(figure: str, gauge: str, amount: int, left: int | None, rule: str = "",
            visible_to: int | None = None, **facts: Any) -> Event:
    """``figure`` lost ``amount`` on its gauge ``gauge``; ``left`` is what remains (None: not told)."""
    return Event("damaged", {"figure": figure, "gauge": gauge, "amount": amount, "left": left, **facts},
                 visible_to, rule)


def healed(figure: str, gauge: str, amount: int, left: int | None, rule: str = "",
           visible_to: int | None = None, **facts: Any) -> Event:
    """``figure`` won back ``amount`` on its gauge ``gauge``; ``left`` is what it has now."""
    return Event("healed", {"figure": figure, "gauge": gauge, "amount": amount, "left": left, **facts},
                 visible_to, rule)


def removed(figure: str, why: str, rule: str = "", visible_to: int | None = None, **facts: Any) -> Event:
    """``figure`` left the battle: ``why`` is a key of the module's words ("killed", "fled", "out"…)."""
    return Event("removed", {"figure": figure, "why": why, **facts}, visible_to, rule)


def attack(figure: str, target: str | None, style: str, hit: bool | None, rule: str = "",
           visible_to: int | None = None, tile: Tile | None = None, **facts: Any) -> Event:
    """``figure`` attacked ``target`` (or the tile ``tile``): ``style`` is "ranged" or "melee", ``hit``
    whether it struck home (None: not settled by this roll)."""
    data = {"figure": figure, "target": target, "style": style, "hit": hit, **facts}
    if tile is not None:
        data["tile"] = _tile(tile)
    return Event("attack", data, visible_to, rule)


def thrown(figure: str, frm: Tile, aim: Tile, lands: Tile, rule: str = "", visible_to: int | None = None,
           **facts: Any) -> Event:
    """Something thrown from ``frm`` at ``aim`` came to rest on ``lands`` (after any bounce)."""
    return Event("thrown", {"figure": figure, "from": _tile(frm), "aim": _tile(aim), "lands": _tile(lands),
                            **facts}, visible_to, rule)


def blast(tile: Tile, radius: float, rule: str = "", visible_to: int | None = None, **facts: Any) -> Event:
    """An explosion centred on ``tile`` reaching ``radius`` pas."""
    return Event("blast", {"tile": _tile(tile), "radius": radius, **facts}, visible_to, rule)


def revealed(token: str, tile: Tile, real: bool, rule: str = "", visible_to: int | None = None,
             **facts: Any) -> Event:
    """A face-down token was turned over: a real one goes off, a decoy is taken away."""
    return Event("revealed", {"token": token, "tile": _tile(tile), "real": real, **facts}, visible_to, rule)


def turn(n: int, rule: str = "", **facts: Any) -> Event:
    """Turn (or round, or passe) ``n`` begins."""
    return Event("turn", {"turn": n, **facts}, None, rule)


def phase(name: str, rule: str = "", visible_to: int | None = None, **facts: Any) -> Event:
    """A phase of the turn begins: ``name`` is a key of the module's words (``phase.<name>``)."""
    return Event("phase", {"phase": name, **facts}, visible_to, rule)


def game_over(winner: int | None, reason: str, rule: str = "", **facts: Any) -> Event:
    """The match is over: ``winner`` a side or None for a draw, ``reason`` a key (``reason.<id>``)."""
    return Event("game_over", {"winner": winner, "reason": reason, **facts}, None, rule)
