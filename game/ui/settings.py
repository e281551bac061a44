"""Player settings (language, AI speed, UI scale, sound, camera, animations, key bindings) persisted in the user's config folder."""
from __future__ import annotations

import json
import locale
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs

from ..engine.save import write_atomic

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
        try:
            data = json.loads(settings_path().read_text(encoding="utf-8"))
            s = cls()
            if data.get("language") in ("fr", "en"):
                s.language = data["language"]
            if data.get("ai_speed") in AI_SPEEDS:
                s.ai_speed = data["ai_speed"]
            if float(data.get("ui_scale", 1.0)) in UI_SCALES:
                s.ui_scale = float(data.get("ui_scale", 1.0))
            if data.get("volume") in VOLUMES and not isinstance(data.get("volume"), bool):
                s.volume = int(data["volume"])
            if data.get("animations") in ANIMATIONS:
                s.animations = data["animations"]
            for flag in ("muted", "camera_follow"):
                if isinstance(data.get(flag), bool):
                    setattr(s, flag, data[flag])
            keys = data.get("keys") or {}
            s.keys.update({k: str(v) for k, v in keys.items() if k in DEFAULT_KEYS})
            return s
        except (OSError, ValueError, TypeError, AttributeError):
            return cls()
