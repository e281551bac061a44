"""Where maps live: the shipped maps (inside the installed package) and the player's own maps folder.

The menu lists both; reading a map's name, size and scale here is cheap (the map header and its
properties only), so a folder of large maps lists at once. Playing a map goes through load_map.
The command line names maps here too, so this module imports the loader only to read a header.
"""
from __future__ import annotations

import contextlib

import json
import os
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

import platformdirs

from ..resources import maps_dir

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
    titles: tuple[tuple[str, str], ...] = ()      # (language, title) from ``title_<lang>`` properties

    def __fspath__(self) -> str:
        return str(self.path)

    def title(self, lang: str) -> str:
        """The map's title in ``lang``: its ``title_<lang>`` property, else its ``title`` (or older
        ``name``), else the file name."""
        return dict(self.titles).get(lang, self.name)


def shipped_maps_dir() -> Path:
    return maps_dir()


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


def map_names(folder: Path) -> list[str]:
    """The file names, without suffix, of a folder's maps: what ``--map`` accepts besides a path."""
    if not folder.is_dir():
        return []
    return sorted({p.stem for p in folder.iterdir() if p.suffix.lower() in MAP_SUFFIXES and p.is_file()})


def find_map(text: str) -> Path | None:
    """The map a command line names: a file path, else a map of the maps folders by its file name,
    with or without suffix (``ruined_town``, ``ruined_town.tmx``), shipped maps first; else None."""
    path = Path(text).expanduser()
    if path.is_file():
        return path
    if not text.strip() or path.name != text:        # a path with folders names one file, not a map name
        return None
    names = [text] if path.suffix.lower() in MAP_SUFFIXES else []
    names += [text + suffix for suffix in MAP_SUFFIXES]
    for folder in map_dirs():
        for name in names:
            if (folder / name).is_file():
                return folder / name
    return None


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
    from .tiled import DEFAULT_CM_PER_TILE

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
    titles = tuple(sorted((str(k)[6:], str(v)) for k, v in props.items()
                          if isinstance(k, str) and k.startswith("title_") and len(k) > 6 and v))
    return MapEntry(path, str(props.get("title") or props.get("name") or path.stem), size, cm, shipped, "", titles)
