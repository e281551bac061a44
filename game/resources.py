"""The files the game ships: maps and art, found through importlib.resources.

``maps/`` and ``assets/`` stay at the top of the repository for designers and artists; setup.py
ships them as the ``game.maps`` and ``game.assets`` packages, so an installed wheel and an editable
install both find them here, from any working folder. They are real folders on disk (pip and pipx
unpack wheels), which pytmx and pygame need: they open maps, tilesets and pictures by file name.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def maps_dir() -> Path:
    """The shipped maps and their tileset."""
    return Path(str(files("game.maps")))


def assets_dir() -> Path:
    """The shipped art and sounds (``icons/``, ``tiles/``) and their credits."""
    return Path(str(files("game.assets")))
