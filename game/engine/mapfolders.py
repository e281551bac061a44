"""Where maps live: the shipped ``maps/`` folder and the player's own maps folder.

The menu lists both; reading a map's name, size and scale here is cheap (the map header and its
properties only), so a folder of large maps lists at once. Playing a map goes through load_map.
"""
from __future__ import annotations

import contextlib

import json
import os
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

import platformdirs

from .tiled import DEFAULT_CM_PER_TILE

APP = "escarmouche"
MAP_SUFFIXES = (".tmx", ".tmj", ".json")


@dataclass(frozen=True)
class MapEntry:
    """One map of a folder, as the menu shows it. ``os.fspath(entry)`` is its path."""

    path: Path
    name: str
    size: tuple[int, int]
    cm_per_tile: float
    shipped: bool = False
    error: str = ""

    def __fspath__(self) -> str:
        return str(self.path)


def shipped_maps_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "maps"


def user_maps_dir() -> Path:
    """The player's maps folder (ESCARMOUCHE_HOME redirects it, as it does every user folder)."""
    home = os.environ.get("ESCARMOUCHE_HOME")
    base = Path(home) / "data" if home else Path(platformdirs.user_data_dir(APP))
    return base / "maps"


def map_dirs(create_user_dir: bool = False) -> list[Path]:
    """Shipped folder first, then the user's; the user's is created on request so players find it."""
    user = user_maps_dir()
    if create_user_dir:
        with contextlib.suppress(OSError):      # a read-only home still lists the shipped maps
            user.mkdir(parents=True, exist_ok=True)
    return [d for d in (shipped_maps_dir(), user) if d.is_dir()]


def list_maps(create_user_dir: bool = False) -> list[MapEntry]:
    """Every map of every maps folder, sorted by name within each folder."""
    shipped = shipped_maps_dir()
    out = []
    for folder in map_dirs(create_user_dir):
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in MAP_SUFFIXES and path.is_file():
                entry = read_entry(path, shipped=folder == shipped)
                if entry is not None:
                    out.append(entry)
    return out


def read_entry(path: Path, shipped: bool = False) -> MapEntry | None:
    """Name, size and scale from the map's header; None for a JSON file that is not a map."""
    try:
        if path.suffix.lower() == ".tmx":
            root = ET.parse(path).getroot()
            props = {p.get("name"): p.get("value", p.text) for p in root.findall("properties/property")}
            size = (int(root.get("width", 0)), int(root.get("height", 0)))
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("type") != "map":
                return None
            props = {p.get("name"): p.get("value") for p in data.get("properties", []) if isinstance(p, dict)}
            size = (int(data.get("width", 0)), int(data.get("height", 0)))
    except (OSError, ValueError, ET.ParseError, UnicodeDecodeError) as exc:
        return MapEntry(path, path.stem, (0, 0), DEFAULT_CM_PER_TILE, shipped, f"cannot be read: {exc}")
    try:
        cm = float(props.get("cm_per_tile", DEFAULT_CM_PER_TILE))
    except (TypeError, ValueError):
        cm = DEFAULT_CM_PER_TILE
    if cm <= 0:
        cm = DEFAULT_CM_PER_TILE
    return MapEntry(path, str(props.get("name") or path.stem), size, cm, shipped)
