"""Fuzzed save files: loading either rebuilds the match or raises SaveError, in one line naming the
file; nothing else may escape, whatever happened to the file on disk.

The seeds are real saves of every registered rule module, part-way through a match on a shipped
map. Mutations: field deletions, type changes, answer list edits (deleted, inserted, swapped,
repeated, foreign or garbage answers), truncations, byte flips and bad encodings.
``ESCARMOUCHE_FUZZ_CASES`` sets the cases per test (``tools/fuzz_long.py`` runs 10,000).
"""
from __future__ import annotations

import copy
import json
import os
import random
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.random_player import RandomPlayer
from game.engine.save import load_match, match_from_json, new_match, save_match, to_json
from game.errors import SaveError
from game.rules import names as rule_names

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "sky_deck.tmx"
CASES = int(os.environ.get("ESCARMOUCHE_FUZZ_CASES", "0"))
LONG = CASES > 0
STATS: Counter = Counter()
SLOWEST: dict[str, float] = {}
GENERIC: Counter = Counter()
# match_from_json's catch-alls for malformed fields: allowed, counted apart for the report
GENERIC_MARKS = ("missing or malformed field (", "cannot be set up (")
ANSWERS = 40


def fuzz_settings(ci_cases: int):
    return settings(max_examples=CASES or ci_cases, deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict]:
    """One real save per rule module, ``ANSWERS`` random legal answers into a match."""
    folder = tmp_path_factory.mktemp("save_fuzz")
    shutil.copy(MAP, folder / MAP.name)
    shutil.copy(MAP.with_name("terrain.tsx"), folder / "terrain.tsx")
    out = {}
    for name in rule_names():
        match = new_match(folder / MAP.name, name, seed=11)
        player = RandomPlayer(3)
        while match.pending is not None and len(match.answers) < ANSWERS:
            match.answer(match.ask(player))
        out[name] = to_json(match)
    return out


def record(kind: str, outcome: str, seconds: float) -> None:
    STATS[f"{kind}: {outcome}"] += 1
    STATS[f"{kind}: cases"] += 1
    SLOWEST[kind] = max(SLOWEST.get(kind, 0.0), seconds)


def check_loads_or_refuses(kind: str, path: Path) -> str:
    t0 = time.perf_counter()
    try:
        match = load_match(path)
    except SaveError as err:
        text = str(err)
        assert "\n" not in text, text
        assert str(path) in err.place, f"the place '{err.place}' does not name {path}"
        generic = any(mark in text for mark in GENERIC_MARKS)
        if generic:
            GENERIC[f"{kind}: {err.message[:160]}"] += 1
        record(kind, "refused with a generic field message" if generic else "refused", time.perf_counter() - t0)
        return "refused"
    again = match_from_json(to_json(match))     # what loads, saves and reloads to the same state
    assert again.digest() == match.digest()
    record(kind, "loaded", time.perf_counter() - t0)
    return "loaded"


# --- mutations ----------------------------------------------------------------------------------

ODD_VALUES = [None, True, False, 0, -1, 1, 2, 1.5, -0.0, "", "x", "é" * 50, [], {}, [1, 2], {"a": 1},
              10**30, -10**30, 2**63, float("inf"), float("nan"), "eisdrachen", "kolaps", "0", "1"]
# Drawn as copies: a list or dict of ODD_VALUES put into one case's document and edited there (its answers
# retyped to [1, 2], then an answer deleted) would change the next cases' draws (Hypothesis: "Inconsistent
# data generation").
ODD_VALUE = st.sampled_from(ODD_VALUES).map(copy.deepcopy)


def paths(doc, prefix=()) -> list[tuple]:
    """Every place in a JSON document, as the keys and indexes that lead there."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, prefix + (i,))
    return out


def at(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def edit_answers(data, answers: list, others: list[str]) -> None:
    op = data.draw(st.sampled_from(["delete", "insert", "swap", "repeat", "foreign", "garbage", "truncate",
                                    "reverse", "shuffle"]))
    n = len(answers)
    if op == "delete" and n:
        del answers[data.draw(st.integers(0, n - 1))]
    elif op == "insert":
        answers.insert(data.draw(st.integers(0, n)), data.draw(st.sampled_from(answers or others)))
    elif op == "swap" and n > 1:
        i, j = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
        answers[i], answers[j] = answers[j], answers[i]
    elif op == "repeat" and n:
        answers.extend(answers[-data.draw(st.integers(1, n)):])
    elif op == "foreign":
        answers.insert(data.draw(st.integers(0, n)), data.draw(st.sampled_from(others)))
    elif op == "garbage" and n:
        answers[data.draw(st.integers(0, n - 1))] = data.draw(st.one_of(st.text(max_size=20),
                                                                        ODD_VALUE))
    elif op == "truncate":
        del answers[data.draw(st.integers(0, n)):]
    elif op == "reverse":
        answers.reverse()
    elif op == "shuffle":
        random.Random(data.draw(st.integers(0, 1000))).shuffle(answers)


def mutate_doc(data, doc: dict, others: list[str]) -> None:
    places = paths(doc)[1:]
    place = data.draw(st.sampled_from(places))
    parent, key = at(doc, place[:-1]), place[-1]
    op = data.draw(st.sampled_from(["delete", "retype", "retype", "answers", "answers", "answers", "army"]))
    if op == "delete":
        del parent[key]
    elif op == "retype":
        parent[key] = data.draw(st.one_of(ODD_VALUE, st.integers(), st.text(max_size=8)))
    elif op == "answers" and isinstance(doc.get("answers"), list):
        edit_answers(data, doc["answers"], others)
    elif op == "army" and isinstance(doc.get("armies"), list) and doc["armies"]:
        army = doc["armies"][data.draw(st.integers(0, len(doc["armies"]) - 1))]
        figures = army.get("figures") if isinstance(army, dict) else None
        if isinstance(figures, list) and figures:
            if data.draw(st.booleans()):
                figures.extend(figures[:data.draw(st.integers(1, len(figures)))])    # too many figures
            else:
                del figures[data.draw(st.integers(0, len(figures) - 1)):]


def damage_text(data, raw: bytes) -> bytes:
    op = data.draw(st.sampled_from(["truncate", "flip", "latin1", "utf16", "bom", "empty", "nul"]))
    at_ = data.draw(st.integers(0, max(0, len(raw) - 1)))
    if op == "truncate":
        return raw[:at_]
    if op == "flip":
        return raw[:at_] + bytes([raw[at_] ^ data.draw(st.integers(1, 255))]) + raw[at_ + 1:]
    if op == "latin1":
        return raw.replace(b'"', "\u00e9\"".encode("latin-1"), 1)
    if op == "utf16":
        return raw.decode().encode("utf-16")
    if op == "bom":
        return b"\xef\xbb\xbf" + raw
    if op == "empty":
        return b""
    return raw[:at_] + b"\x00" + raw[at_:]


# --- the properties -------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", rule_names())
def test_every_seed_save_loads_to_its_digest(saves, rules, tmp_path):
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(saves[rules]))
    assert check_loads_or_refuses("unchanged saves", path) == "loaded"
    assert load_match(path).digest() == saves[rules]["digest"]


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
@fuzz_settings(150)
@given(data=st.data())
def test_edited_save_fields_and_answers_load_or_raise_save_error_naming_the_file(saves, rules, tmp_path, data):
    doc = json.loads(json.dumps(saves[rules]))
    others = [a for name, s in saves.items() for a in s["answers"] if name != rules] or ["x"]
    for _ in range(data.draw(st.integers(1, 3))):
        mutate_doc(data, doc, others)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    check_loads_or_refuses(f"{rules} saves, fields and answers edited", path)


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
@fuzz_settings(100)
@given(data=st.data())
def test_damaged_save_bytes_load_or_raise_save_error_naming_the_file(saves, rules, tmp_path, data):
    raw = json.dumps(saves[rules], indent=1).encode()
    path = tmp_path / "damaged.json"
    path.write_bytes(damage_text(data, raw))
    check_loads_or_refuses(f"{rules} saves, bytes damaged", path)


def test_a_save_replays_after_being_written_by_save_match(saves, tmp_path):
    """The fuzz seeds go through the real writer too: save, load, same digest, previous kept."""
    for rules, doc in saves.items():
        path = tmp_path / f"{rules}.json"
        match = match_from_json(doc)
        save_match(match, path)
        save_match(match, path)
        assert load_match(path).digest() == load_match(path.with_name(path.name + ".bak")).digest() == doc["digest"]


@pytest.mark.parametrize("rules", rule_names())
@pytest.mark.parametrize("figure", ["", 3, None, ["Soldat"]])
def test_a_figure_that_is_not_a_record_is_refused_naming_the_file(saves, rules, figure, tmp_path):
    """Found by the fuzzer: a figure written as a string made Eisdrachen raise AttributeError."""
    doc = json.loads(json.dumps(saves[rules]))
    doc["armies"][0]["figures"][0] = figure
    path = tmp_path / "figure.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as err:
        load_match(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("field", ["seed", "max_turns", "side"])
def test_an_infinite_number_is_refused_naming_the_file(saves, field, tmp_path):
    """Found by the long fuzzing run: ``int(inf)`` raised OverflowError out of ``load_match``."""
    doc = json.loads(json.dumps(saves["eisdrachen"]))
    (doc["armies"][0] if field == "side" else doc)[field] = float("inf")
    path = tmp_path / "infinite.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as err:
        load_match(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
