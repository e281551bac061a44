"""Saves and replays: a match is its setup plus its answers, written as versioned JSON.

Writing is atomic and keeps the previous save as ``<name>.bak`` (``files.write_atomic``), so a
crash while saving never costs the last good save. Reading is bounded: a save is a regular file
of at most ``files.MAX_INPUT_BYTES``, nested at most ``MAX_DEPTH`` deep, all of its text valid
Unicode, and its map a regular file too; anything else is a SaveError naming the file.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import __version__
from ..errors import EscarmoucheError, OutputError, RulesError, SaveError, printable
from .files import FileRefused, read_bounded, regular_size, write_atomic
from .registry import rules_named as get_rules
from .battlefield import Battlefield
from .protocol import Army
from .match import Match

FORMAT = "escarmouche-save"
SAVE_VERSION = 1
MAX_DEPTH = 32          # records and lists within each other; a real save nests 5 deep
MAX_WHOLE = 2**63       # every whole number of a save lies within ±MAX_WHOLE (a seed, a side, a turn)
MAX_ANSWERS = 200_000   # no game goes on longer (sim stops one there); a real one has a few hundred


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
    """The first 16 hex digits of the file's SHA-256; FileRefused for anything but a regular file
    within the input bound."""
    return hashlib.sha256(read_bounded(path)).hexdigest()[:16]


def to_json(match: Match) -> dict:
    return {
        "format": FORMAT,
        "version": SAVE_VERSION,
        "game_version": __version__,
        "rules": {"id": match.rules.id, "version": match.rules.version, "data_hash": match.rules.data_hash()},
        "map": {"path": match.map_path, "hash": _map_hash(match.map_path)},
        "armies": [a.to_json() for a in match.armies],
        "seed": match.seed,
        "max_turns": match.max_turns,
        "answers": list(match.answers),
        "turn": match.rules.turn(match.state),
        "digest": match.digest(),
    }


def _map_hash(map_path: str) -> str:
    if not map_path:
        return ""
    try:
        return file_hash(map_path)
    except FileRefused as e:
        raise OutputError(map_path, f"the match's map {e.reason}, so the save cannot name it") from None


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
        text = read_bounded(path).decode("utf-8")
        data = json.loads(text, parse_constant=_no_constant)
    except FileRefused as e:
        raise SaveError(place, "no such file" if e.reason == "not found" else e.reason) from None
    except UnicodeDecodeError as e:
        raise SaveError(place, f"not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise SaveError(place, f"not valid JSON at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise SaveError(place, f"nests records or lists more than {MAX_DEPTH} deep") from None
    except ValueError as e:     # NaN or Infinity, or a whole number of thousands of digits
        raise SaveError(place, str(e) if isinstance(e, _Constant) else "holds a number too long to read") from None
    _check_tree(data, place)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(place, "not an Escarmouche save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(place, f"save format version {data.get('version')!r} cannot be read by this game, "
                               f"which reads version {SAVE_VERSION}")
    return data


class _Constant(ValueError):
    pass


def _no_constant(name: str):
    raise _Constant(f"holds {name}, which is not a number a save can hold")


def _check_tree(data, place: str) -> None:
    """Every record and list at most MAX_DEPTH deep, every whole number within ±MAX_WHOLE and every
    text valid Unicode, so nothing that later walks, writes or draws the save can fail on it (a
    lone surrogate from a ``\\ud800`` escape cannot be encoded, so no screen could draw it)."""
    stack = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise SaveError(place, f"nests records or lists more than {MAX_DEPTH} deep (at '{where}')")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                if isinstance(k, str):
                    _check_text(k, where or "the top record", place)
                stack.append((v, f"{where}.{k}" if where else str(k), depth + 1))
        elif isinstance(value, str):
            _check_text(value, where, place)
        elif isinstance(value, int) and not -MAX_WHOLE <= value < MAX_WHOLE:
            raise SaveError(place, f"field '{where}' holds a whole number beyond ±2⁶³")


def _check_text(text: str, where: str, place: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise SaveError(place, f"field '{where}' holds text that is not valid Unicode (a lone surrogate)") from None


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
    map_text = str(map_override or _field(data, "map.path", str, place))
    if not map_text:
        raise SaveError(place, "field 'map.path' is empty")
    map_path = Path(map_text)
    armies = _armies(data, place)
    seed, max_turns = _field(data, "seed", int, place), _field(data, "max_turns", int, place)
    if max_turns < 0:
        raise SaveError(place, f"field 'max_turns' should be 0 or more, not {max_turns}")
    answers = _field(data, "answers", list, place)
    if not all(isinstance(a, str) for a in answers):
        raise SaveError(place, "field 'answers' should hold texts only")
    if len(answers) > MAX_ANSWERS:
        raise SaveError(place, f"holds {len(answers):,} answers; no game has more than {MAX_ANSWERS:,}")
    from .tiled import load_battlefield

    try:
        regular_size(map_path)
        now = file_hash(map_path)
    except FileRefused as e:
        shown = printable(map_path, 120)
        raise SaveError(place, f"its map {shown} is missing" if e.reason == "not found"
                        else f"its map {shown} {e.reason}") from None
    if not map_override and str(map_info.get("hash")) != now:
        raise SaveError(place, f"its map {map_path} has changed since the save (map {map_info.get('hash')}, "
                               f"now {now}): its answers would not replay the same game")
    try:
        battlefield = load_battlefield(map_path)
        match = Match(battlefield, rules, armies, seed, max_turns, str(map_path.resolve()))
    except EscarmoucheError as e:
        raise SaveError(place, str(e)) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        raise SaveError(place, f"its armies cannot be set up ({e.__class__.__name__}: {e})") from None
    for i, key in enumerate(answers, 1):
        try:
            match.answer(key, undoable=i == len(answers))     # the last one may still be taken back
        except EscarmoucheError as e:
            raise SaveError(place, f"answer {i} of {len(answers)} does not replay: {e.message}") from None
    return match


def load_match(path: str | Path) -> Match:
    return match_from_json(read_save(path), str(path))
