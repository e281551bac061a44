"""Face-down tokens (traps among decoys) and hidden figures: who may see what, and what a step triggers.

Rule modules keep these in their state and ask here, so every system shares one meaning of
"a token triggers within N" and "an enemy within N discovers a hidden figure".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .battlefield import Tile
from .space import within


@dataclass
class Token:
    """A token on the ground; ``real`` False is a decoy. ``owner`` -1 is a token set by the map."""

    id: str
    tile: Tile
    owner: int
    real: bool

    def seen_as(self, viewer: int | None) -> str:
        """"real" or "decoy" for its owner (and for the all-seeing viewer None), "unknown" for others."""
        if viewer is None or viewer == self.owner:
            return "real" if self.real else "decoy"
        return "unknown"


def triggered(tokens: Iterable[Token], tile: Tile, radius: float) -> list[Token]:
    """Tokens within ``radius`` of a figure that has just ended a step, landed or been placed on ``tile``."""
    return [t for t in tokens if within(t.tile, tile, radius)]


def discovers(hidden_tile: Tile, enemy_tiles: Iterable[Tile], radius: float) -> bool:
    """A hidden figure is found as soon as any enemy stands within ``radius`` (no line of sight needed)."""
    return any(within(hidden_tile, t, radius) for t in enemy_tiles)
