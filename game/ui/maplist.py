"""Which maps the New-battle screen offers (the shipped ones and the player's own maps folder), and saves."""
from __future__ import annotations

from pathlib import Path

from ..engine.mapfolders import MapEntry, read_entry
from ..engine.mapfolders import list_maps as folder_maps
from ..engine.tiled import DEFAULT_CM_PER_TILE
from .settings import saves_dir


def list_maps() -> list[MapEntry]:
    """Shipped maps first, then the user's (whose folder is created so players find it)."""
    return folder_maps(create_user_dir=True)


def entry_for(path: str | Path) -> MapEntry:
    """The menu's entry for a map picked by path; a file that is not a map says so instead of a size."""
    p = Path(path)
    entry = read_entry(p)
    return entry if entry is not None else MapEntry(p, p.stem, (0, 0), DEFAULT_CM_PER_TILE, error="not a Tiled map")


def list_saves() -> list[Path]:
    """The saves folder's JSON files, newest first; a link to nowhere or a file that vanishes
    meanwhile is listed last rather than stopping the screen."""
    folder = saves_dir()
    if not folder.is_dir():
        return []

    def age(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return float("-inf")
    return sorted(folder.glob("*.json"), key=age, reverse=True)
