"""Which maps the New-battle screen offers: the shipped ones and the player's own maps folder."""
from __future__ import annotations

from pathlib import Path

from .settings import saves_dir, user_maps_dir

SHIPPED_MAPS = Path(__file__).resolve().parents[2] / "maps"


def list_maps() -> list[Path]:
    """Shipped maps first, then the user's; the engine's own listing wins once it exists."""
    try:
        from ..engine.mapfolders import list_maps as engine_list
    except ImportError:
        engine_list = None
    if engine_list is not None:
        try:
            return [Path(p) for p in engine_list()]
        except Exception:  # a broken helper must not close the menu
            pass
    found: list[Path] = []
    for folder in (SHIPPED_MAPS, user_maps_dir()):
        if folder.is_dir():
            found.extend(sorted(folder.glob("*.tmx")))
    return found


def list_saves() -> list[Path]:
    folder = saves_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
