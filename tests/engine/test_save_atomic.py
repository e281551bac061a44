"""Saves are written atomically: killing the writer at any moment never loses the last good save."""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.engine.save import FORMAT, SAVE_VERSION, load_match, read_save, write_atomic
from game.errors import SaveError

WRITER = r"""
import json, sys
from game.engine.save import write_atomic
path = sys.argv[1]
i = 0
while True:
    i += 1
    doc = {"format": "%s", "version": %d, "answers": ["a%%d" %% k for k in range(i %% 400)], "n": i}
    write_atomic(path, json.dumps(doc))
    if i == 1:
        print("first save written", flush=True)
"""


@pytest.mark.long
def test_sigkill_during_saving_never_loses_the_last_good_save(tmp_path):
    path = tmp_path / "match.json"
    runs = int(os.environ.get("ESCARMOUCHE_SIGKILL_RUNS", "25"))
    rng = random.Random(1)
    code = WRITER % (FORMAT, SAVE_VERSION)
    last = 0
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "first save written"
        time.sleep(rng.random() * 0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        n = read_save(path)["n"]
        assert n >= 1
        last = max(last, n)
    assert last > 1


MATCH_WRITER = r"""
import sys
from game.ai.random_player import RandomPlayer
from game.engine.save import new_match, save_match
path, map_path = sys.argv[1], sys.argv[2]
player = RandomPlayer(2)
match = new_match(map_path, "eisdrachen", seed=5)
save_match(match, path)
print("first save written", flush=True)
while True:
    if match.pending is None:
        match = new_match(map_path, "eisdrachen", seed=len(match.answers))
    match.answer(match.ask(player))
    save_match(match, path)
"""


@pytest.mark.long
def test_sigkill_during_save_match_of_a_real_match_leaves_a_save_that_replays(tmp_path):
    """The real writer on a real match: after every kill both the save and its .bak replay to the
    digest they recorded."""
    path = tmp_path / "match.json"
    map_path = Path(__file__).resolve().parents[2] / "maps" / "sky_deck.tmx"
    runs = max(3, int(os.environ.get("ESCARMOUCHE_SIGKILL_RUNS", "25")) // 3)
    rng = random.Random(2)
    answers = set()
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, "-c", MATCH_WRITER, str(path), str(map_path)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "first save written"
        time.sleep(rng.random() * 0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for saved in (path, path.with_name(path.name + ".bak")):
            if saved.exists():
                assert load_match(saved).digest() == read_save(saved)["digest"]
        answers.add(len(read_save(path)["answers"]))
    assert len(answers) > 1


def test_previous_save_is_kept_beside_the_new_one(tmp_path):
    path = tmp_path / "s.json"
    write_atomic(path, json.dumps({"format": FORMAT, "version": SAVE_VERSION, "n": 1}))
    write_atomic(path, json.dumps({"format": FORMAT, "version": SAVE_VERSION, "n": 2}))
    assert read_save(path)["n"] == 2
    assert read_save(path.with_name("s.json.bak"))["n"] == 1


@pytest.mark.parametrize("text,message", [
    ("{not json", "not valid JSON at line 1"),
    ('{"format": "other"}', "not an Escarmouche save"),
    ('[1, 2]', "not an Escarmouche save"),
    ('{"format": "escarmouche-save", "version": 99}', "version 99 cannot be read by this game, which reads version 1"),
])
def test_a_bad_save_gives_one_line_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SaveError) as err:
        read_save(path)
    assert message in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)


def _saved_match(tmp_path):
    from pathlib import Path

    from game.engine.save import new_match, to_json

    src = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"
    tmx = tmp_path / "ruined_town.tmx"
    tmx.write_text(src.read_text(encoding="utf-8").replace('source="', f'source="{src.parent}/'),
                   encoding="utf-8")
    match = new_match(tmx, "eisdrachen", 3)
    return tmx, to_json(match)


def test_a_save_whose_rule_data_changed_is_refused_naming_both(tmp_path):
    from game.engine.save import match_from_json

    _, data = _saved_match(tmp_path)
    data["rules"]["data_hash"] = "0123456789abcdef"
    with pytest.raises(SaveError, match="data files 0123456789abcdef, this game's are"):
        match_from_json(data, "s.json")


def test_a_save_whose_map_changed_is_refused_naming_both(tmp_path):
    from game.engine.save import match_from_json

    tmx, data = _saved_match(tmp_path)
    assert match_from_json(data, "s.json").digest() == data["digest"]
    tmx.write_text(tmx.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(SaveError, match="has changed since the save"):
        match_from_json(data, "s.json")


@pytest.mark.parametrize("edit,message", [
    (lambda d: d.pop("seed"), "field 'seed' is missing"),
    (lambda d: d.update(seed="7"), "field 'seed' should be a whole number, not str"),
    (lambda d: d["map"].pop("path"), "field 'map.path' is missing"),
    (lambda d: d.update(armies=[1]), "field 'armies.0' should be a record"),
    (lambda d: d["armies"][0].update(side=None), "armies.0: field 'side' should be a whole number"),
    (lambda d: d.update(answers=[1]), "field 'answers' should hold texts only"),
    (lambda d: d.update(max_turns=-1), "field 'max_turns' should be 0 or more"),
])
def test_a_malformed_save_names_the_field_that_is_wrong(tmp_path, edit, message):
    from game.engine.save import match_from_json

    _, data = _saved_match(tmp_path)
    edit(data)
    with pytest.raises(SaveError, match=message):
        match_from_json(data, "s.json")


def test_the_window_s_view_rides_along_in_a_save_and_loading_ignores_it(tmp_path):
    from game.engine.save import new_match, save_match

    match = new_match(Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx", "eisdrachen", 3)
    match.answer(match.pending.options[0].key)
    plain, kept = tmp_path / "plain.json", tmp_path / "kept.json"
    save_match(match, plain)
    save_match(match, kept, window={"zoom": 2.0})
    assert "window" not in read_save(plain) and read_save(kept)["window"] == {"zoom": 2.0}
    assert load_match(kept).digest() == load_match(plain).digest() == match.digest()
