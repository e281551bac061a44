"""Player settings (language, AI speed, UI scale, sound, camera, animations, key bindings) persisted in the
user's config folder.

The first start follows the system's locale (French for ``fr_*``, English otherwise). A settings
file with missing or wrong fields keeps its good ones: the others fall back to their defaults, and
``Settings.read`` names them once so the window can say so.
"""
from __future__ import annotations

import json
import locale
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs

from ..engine.files import FileRefused, read_bounded, write_atomic

APP = "escarmouche"
AI_SPEEDS = {"instant": 0, "fast": 250, "normal": 700, "slow": 1500}
UI_SCALES = (0.8, 1.0, 1.25, 1.5, 2.0)
VOLUMES = (0, 25, 50, 75, 100)
ANIMATIONS = ("normal", "fast", "off")
DEFAULT_KEYS = {
    "end": "e", "undo": "z", "save": "s", "skip": "space", "terrain": "t", "cancel": "escape",
    "zoom_in": "=", "zoom_out": "-", "next_figure": "tab", "log": "l",
}


def _root(kind: str) -> Path:
    """User folders; ESCARMOUCHE_HOME redirects them all (tests, portable installs)."""
    home = os.environ.get("ESCARMOUCHE_HOME")
    if home:
        return Path(home) / kind
    if kind == "config":
        return Path(platformdirs.user_config_dir(APP))
    return Path(platformdirs.user_data_dir(APP))


def data_dir() -> Path:
    return _root("data")


def saves_dir() -> Path:
    return data_dir() / "saves"


def user_maps_dir() -> Path:
    return data_dir() / "maps"


def autosave_path() -> Path:
    return saves_dir() / "autosave.json"


def settings_path() -> Path:
    return _root("config") / "settings.json"


SETTINGS_BYTES = 64 * 1024        # a real settings file is under 1 KB


def system_language() -> str:
    """The language of a first start: French when the system speaks it (fr_FR, fr_CA.UTF-8, Windows'
    French_France), English otherwise. The POSIX variables come first, in the order the C library
    reads them; a system without them (Windows) says it through ``locale``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:      # a locale Python cannot parse: not a French one it knows
        code = ""
    return "fr" if code.lower().startswith("fr") else "en"


def _one_of(value, allowed: tuple):
    """``value`` as the allowed entry it equals, of the same type (True is not 1, "1" is not 1.0), else None."""
    for choice in allowed:
        same_kind = type(value) is type(choice) or (type(choice) is float and type(value) is int)
        if same_kind and value == choice:
            return choice
    return None


@dataclass
class Settings:
    language: str = field(default_factory=system_language)
    ai_speed: str = "normal"
    ui_scale: float = 1.0
    volume: int = 75
    muted: bool = False
    camera_follow: bool = True
    animations: str = "normal"
    keys: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_KEYS))

    @property
    def ai_delay_ms(self) -> int:
        return AI_SPEEDS.get(self.ai_speed, AI_SPEEDS["normal"])

    def save(self) -> None:
        write_atomic(settings_path(), json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls) -> "Settings":
        """Settings from disk; a missing or damaged file gives the defaults (never an error)."""
        return cls.read()[0]

    @classmethod
    def read(cls) -> tuple["Settings", list[str]]:
        """Settings from disk and the fields that fell back to their defaults ("*" for the whole
        file when it cannot be read); no file at all is a first start, with nothing to report."""
        s = cls()
        try:
            data = json.loads(read_bounded(settings_path(), SETTINGS_BYTES).decode("utf-8"))
        except FileRefused as e:
            return s, [] if e.reason == "not found" else ["*"]
        except (ValueError, RecursionError):
            return s, ["*"]
        if not isinstance(data, dict):
            return s, ["*"]
        wrong = []
        for name, allowed in (("language", ("fr", "en")), ("ai_speed", tuple(AI_SPEEDS)), ("ui_scale", UI_SCALES),
                              ("volume", VOLUMES), ("animations", ANIMATIONS), ("muted", (False, True)),
                              ("camera_follow", (False, True))):
            value = _one_of(data.get(name), allowed)
            if value is None:
                wrong.append(name)
            else:
                setattr(s, name, value)
        keys = data.get("keys")
        if not isinstance(keys, dict):
            wrong.append("keys")
            keys = {}
        for action in DEFAULT_KEYS:
            value = keys.get(action)
            if isinstance(value, str) and 0 < len(value) <= 32 and value.isprintable():
                s.keys[action] = value
            elif "keys" not in wrong:
                wrong.append(f"keys.{action}")
        return s, wrong
