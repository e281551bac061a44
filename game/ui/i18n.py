"""Localised UI text: one JSON table per language, keys shared; English fills any gap."""
from __future__ import annotations

import json
from pathlib import Path

LANGUAGES = ("fr", "en")
_DIR = Path(__file__).parent / "i18n"
_tables: dict[str, dict[str, str]] = {}
_current = {"lang": "en"}


def _table(lang: str) -> dict[str, str]:
    if lang not in _tables:
        _tables[lang] = json.loads((_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return _tables[lang]


def set_language(lang: str) -> None:
    _current["lang"] = lang if lang in LANGUAGES else "en"


def language() -> str:
    return _current["lang"]


def has(key: str) -> bool:
    return key in _table(language()) or key in _table("en")


def tr(key: str, default: str | None = None, **values) -> str:
    """The text for ``key`` in the current language; unknown keys show ``default`` or the key itself."""
    text = _table(language()).get(key) or _table("en").get(key)
    if text is None:
        text = default if default is not None else key
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def key_label(name: str) -> str:
    """A key as printed on the keyboard: letters in capitals, named keys in the player's language."""
    return name.upper() if len(name) == 1 else tr(f"keyname.{name}", name.capitalize())
