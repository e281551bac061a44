"""Saves and replays: a match is its setup plus its answers, written as versioned JSON.

Writing is atomic (temporary file, flush, fsync, rename) and keeps the previous save as
``<name>.bak``, so a crash while saving never costs the last good save.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from .. import __version__
from ..errors import EscarmoucheError, RulesError, SaveError
from .registry import rules_named as get_rules
from .battlefield import Battlefield
from .protocol import Army
from .match import Match

FORMAT = "escarmouche-save"
SAVE_VERSION = 1


def new_match(map_path: str | Path, rules_name: str, seed: int, armies: list[Army] | None = None,
              max_turns: int = 0, battlefield: Battlefield | None = None) -> Match:
    """A match on a map file with the module's default armies unless others are given; a caller that
    has just loaded the map passes its battlefield so the file is not read twice."""
    from .tiled import load_battlefield

    battlefield = battlefield or load_battlefield(map_path)
    rules = get_rules(rules_name)
    armies = armies or rules.default_armies(battlefield)
    try:
        return Match(battlefield, rules, armies, seed, max_turns, str(Path(map_path).resolve()))
    except RulesError as e:
        if e.place == "map":
            raise RulesError(str(map_path), e.message) from None
        raise


def file_hash(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def to_json(match: Match) -> dict:
    return {
        "format": FORMAT,
        "version": SAVE_VERSION,
        "game_version": __version__,
        "rules": {"id": match.rules.id, "version": match.rules.version, "data_hash": match.rules.data_hash()},
        "map": {"path": match.map_path, "hash": file_hash(match.map_path) if match.map_path else ""},
        "armies": [a.to_json() for a in match.armies],
        "seed": match.seed,
        "max_turns": match.max_turns,
        "answers": list(match.answers),
        "turn": match.rules.turn(match.state),
        "digest": match.digest(),
    }


def write_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    if path.exists():
        _keep_previous(path)
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _keep_previous(path: Path) -> None:
    """Hard-link the current save as ``.bak`` so the save itself never disappears, even for a moment."""
    bak, staging = path.with_name(path.name + ".bak"), path.with_name(f".{path.name}.bak.tmp")
    staging.unlink(missing_ok=True)
    try:
        os.link(path, staging)
    except OSError:
        shutil.copy2(path, staging)
    os.replace(staging, bak)


def save_match(match: Match, path: str | Path, window: dict | None = None) -> None:
    """Write the match; ``window`` is what the window keeps of its view (its zoom), which loading the
    match ignores and the window reads back."""
    data = to_json(match)
    if window:
        data["window"] = window
    write_atomic(path, json.dumps(data, indent=1))


def read_save(path: str | Path) -> dict:
    place = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError(place, "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SaveError(place, f"cannot be read ({e.__class__.__name__})") from None
    except json.JSONDecodeError as e:
        raise SaveError(place, f"not valid JSON at line {e.lineno} column {e.colno}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(place, "not an Escarmouche save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(place, f"save format version {data.get('version')!r} cannot be read by this game, "
                               f"which reads version {SAVE_VERSION}")
    return data


_KIND_NAMES = {dict: "a record", list: "a list", str: "a text", int: "a whole number"}


def _field(data, dotted: str, kind: type, place: str):
    """The value at a dotted path of the save, or a SaveError naming the field and what it should be."""
    value = data
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            raise SaveError(place, f"field '{dotted}' is missing")
        value = value[part]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(place, f"field '{dotted}' should be {_KIND_NAMES[kind]}, not {type(value).__name__}")
    return value


def _armies(data: dict, place: str) -> list[Army]:
    armies = []
    for i, army in enumerate(_field(data, "armies", list, place)):
        where = f"armies.{i}"
        if not isinstance(army, dict):
            raise SaveError(place, f"field '{where}' should be a record")
        figures = _field(army, "figures", list, f"{place}: {where}")
        if not all(isinstance(f, dict) for f in figures):
            raise SaveError(place, f"field '{where}.figures' should hold records")
        armies.append(Army(_field(army, "side", int, f"{place}: {where}"),
                           _field(army, "name", str, f"{place}: {where}"), figures))
    return armies


def match_from_json(data: dict, place: str = "save", map_override: str | Path | None = None) -> Match:
    """Rebuild a match by replaying every answer; each must be legal where it stands."""
    try:
        rules = get_rules(_field(data, "rules.id", str, place))
    except EscarmoucheError as e:
        raise SaveError(place, e.message) from None
    rules_info, map_info = data["rules"], _field(data, "map", dict, place)
    if str(rules_info.get("version")) != rules.version:
        raise SaveError(place, f"made with {rules.id} rules version {rules_info.get('version')}, "
                               f"this game has version {rules.version}")
    if str(rules_info.get("data_hash")) != rules.data_hash():
        raise SaveError(place, f"made with {rules.id} data files {rules_info.get('data_hash')}, this game's "
                               f"are {rules.data_hash()}: its answers would not replay the same game")
    map_path = Path(map_override or _field(data, "map.path", str, place))
    armies = _armies(data, place)
    seed, max_turns = _field(data, "seed", int, place), _field(data, "max_turns", int, place)
    if max_turns < 0:
        raise SaveError(place, f"field 'max_turns' should be 0 or more, not {max_turns}")
    answers = _field(data, "answers", list, place)
    if not all(isinstance(a, str) for a in answers):
        raise SaveError(place, "field 'answers' should hold texts only")
    from .tiled import load_battlefield

    if not map_path.exists():
        raise SaveError(place, f"its map {map_path} is missing")
    if not map_override and str(map_info.get("hash")) != file_hash(map_path):
        raise SaveError(place, f"its map {map_path} has changed since the save (map {map_info.get('hash')}, "
                               f"now {file_hash(map_path)}): its answers would not replay the same game")
    try:
        battlefield = load_battlefield(map_path)
        match = Match(battlefield, rules, armies, seed, max_turns, str(map_path.resolve()))
    except EscarmoucheError as e:
        raise SaveError(place, str(e)) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        raise SaveError(place, f"its armies cannot be set up ({e.__class__.__name__}: {e})") from None
    for i, key in enumerate(answers, 1):
        try:
            match.answer(key, undoable=i == len(answers))     # the last one may still be taken back
        except EscarmoucheError as e:
            raise SaveError(place, f"answer {i} of {len(answers)} does not replay: {e.message}") from None
    return match


def load_match(path: str | Path) -> Match:
    return match_from_json(read_save(path), str(path))
