"""What pyproject.toml cannot say: the top-level ``maps/`` and ``assets/`` folders, where designers and
artists work, ship inside the package as ``game/maps`` and ``game/assets``.

A wheel copies them there; an editable install maps the two package names onto the folders, so the
game finds them the same way (``game.resources``) in both. Every other package under ``game/`` is
found by itself, rule modules and their data folders included.
"""
from setuptools import find_namespace_packages, setup

SHIPPED_FOLDERS = {"game.maps": "maps", "game.assets": "assets"}

setup(
    packages=find_namespace_packages(include=["game", "game.*"], exclude=["*.__pycache__"])
    + list(SHIPPED_FOLDERS),
    package_dir=SHIPPED_FOLDERS,
)
