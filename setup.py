"""What pyproject.toml cannot say: the top-level ``maps/`` and ``assets/`` folders, where designers and
artists work, ship inside the package as ``game/maps`` and ``game/assets``.

A wheel copies them there; an editable install maps the two package names onto the folders, so the
game finds them the same way (``game.resources``) in both. Every other package under ``game/`` is
found by itself, rule modules and their data folders included.
"""
from setuptools import find_namespace_packages, setup

SHIPPED_FOLDERS = {"game.maps": "maps", "game.assets": "assets"}
NOT_PACKAGES = ["__pycache__", "*.__pycache__"]


def shipped_packages(package: str, folder: str) -> list[str]:
    """The package a folder ships as, and one per subfolder (icons, tiles…) so their files ship too."""
    return [package] + [f"{package}.{sub}" for sub in find_namespace_packages(where=folder, exclude=NOT_PACKAGES)]


setup(
    packages=find_namespace_packages(include=["game", "game.*"], exclude=NOT_PACKAGES)
    + [name for package, folder in SHIPPED_FOLDERS.items() for name in shipped_packages(package, folder)],
    package_dir=SHIPPED_FOLDERS,
)
