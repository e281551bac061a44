"""Starting the window: the settings file, the system's language on a first start, and what a
killed run left behind."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.ui.app import App
from game.ui.settings import DEFAULT_KEYS, Settings, settings_path

from ..engine.test_bounds_fuzz import CPU_S, MEMORY_MB, fuzz, record
from ..limits import run_limited
from .driver import click, steps


@pytest.fixture
def start(home):
    """Open a window as a player would (its settings read from disk); closed afterwards."""
    opened = []

    def open_window(**options):
        opened.append(App({"fps": 0, **options}))
        return opened[-1]
    yield open_window
    pygame.quit()


def write_settings(text: str) -> None:
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(text, encoding="utf-8")


@pytest.mark.parametrize("text,fields", [
    ("{}", "language, ai_speed, ui_scale, volume, animations, muted, camera_follow, keys"),
    ('{"language": "en", "ai_speed": "fast", "keys": {}}', "ui_scale"),
    ('{"language": "en", "ai_speed": "fast", "ui_scale": "big", "keys": {}}', "ui_scale"),
    ('{"language": "de", "ai_speed": 3, "ui_scale": true, "keys": []}', "language, ai_speed, ui_scale"),
    ('{"volume": true, "muted": 0, "animations": ["off"], "camera_follow": "yes"}',
     "volume, animations, muted, camera_follow"),
])
def test_a_settings_file_with_missing_or_wrong_fields_keeps_the_good_ones_and_says_so_once(start, text, fields):
    """Found by the attack: a settings file without ui_scale (or {}) stopped the game at start-up
    with KeyError."""
    write_settings(text)
    app = start(lang="en")
    steps(app, 2)
    assert fields in app.message and str(settings_path()) in app.message
    if '"ai_speed": "fast"' in text:
        assert app.settings.ai_speed == "fast"
    assert app.settings.ui_scale == 1.0 and app.settings.keys == DEFAULT_KEYS
    click(app, (5, 5))                     # the message goes with the player's first click
    assert app.message == ""
    pygame.quit()
    again = start(lang="en")              # and the file was written whole again: nothing more to say
    assert again.message == ""
    assert os.path.exists(str(settings_path()) + ".bak")


@pytest.mark.parametrize("text", ["{ broken", "[1, 2]", '"text"', "\xff\xfe", "{" * 100_000])
def test_a_settings_file_that_cannot_be_read_gives_the_defaults_and_says_so(start, text):
    write_settings(text)
    app = start(lang="en")
    assert "cannot be read" in app.message and app.settings.ui_scale == 1.0


def test_a_settings_file_that_is_a_folder_or_a_pipe_never_stops_the_start(start):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings_path())
    app = start(lang="en")
    assert "cannot be read" in app.message
    assert settings_path().is_fifo()           # never replaced: it is not a regular file


def test_the_message_is_in_the_players_language(start):
    write_settings('{"language": "fr", "ai_speed": "fast", "keys": {}}')
    app = start()
    assert app.settings.language == "fr" and "absent ou erroné" in app.message


@pytest.mark.parametrize("environment,language", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "fr_CA.UTF-8", "LC_ALL": "C.UTF-8"}, "en"), ({"LC_ALL": "fr_BE.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
    ({}, "en"), ({"LANG": "fr"}, "fr"),
])
def test_the_first_start_follows_the_system_locale(start, monkeypatch, environment, language):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    app = start()
    assert app.settings.language == language and app.message == ""
    assert Settings().language == language


def test_a_settings_file_beats_the_locale(start, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    write_settings(json.dumps({"language": "en", "ai_speed": "normal", "ui_scale": 1.0, "keys": DEFAULT_KEYS}))
    assert start().settings.language == "en"


def test_a_killed_writer_leaves_a_temporary_the_next_start_removes(start, home):
    """SIGKILL between writing the temporary and renaming it, then a new window opens."""
    folder = home / "data" / "saves"
    folder.mkdir(parents=True)
    code = ("import os, sys\nfrom game.engine import files\n"
            "files.os.replace = lambda *a: os.kill(os.getpid(), 9)\n"
            "files.write_atomic(sys.argv[1], 'half')\n")
    subprocess.run([sys.executable, "-c", code, str(folder / "autosave.json")], timeout=60)
    assert any(n.endswith(".tmp") for n in os.listdir(folder)), "the killed writer should leave its temporary"
    start()
    assert not any(n.endswith(".tmp") for n in os.listdir(folder))


# --- the settings class of the fuzz harness (tests/engine/test_bounds_fuzz.py) -------------------------

def read_settings(path: str) -> tuple:
    os.environ["ESCARMOUCHE_HOME"] = path
    s, wrong = Settings.read()
    return s.language, s.ai_speed, s.ui_scale, sorted(s.keys), wrong


JSONISH = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
                       lambda c: st.one_of(st.lists(c, max_size=3),
                                           st.dictionaries(st.text(max_size=8), c, max_size=3)), max_leaves=6)


@pytest.mark.long
@fuzz(60)
@given(doc=st.dictionaries(st.sampled_from(["language", "ai_speed", "ui_scale", "keys", "other"]),
                           st.one_of(JSONISH, st.sampled_from(["fr", "en", "fast", 1.25, {"end": "f"}])), max_size=5))
def test_settings_files_of_any_shape_fall_back_field_by_field(tmp_path_factory, doc):
    home = tmp_path_factory.getbasetemp() / "settings_fuzz"
    shutil.rmtree(home, ignore_errors=True)
    (home / "config").mkdir(parents=True)
    (home / "config" / "settings.json").write_text(json.dumps(doc))
    outcome = run_limited(read_settings, str(home), cpu_s=CPU_S, memory_mb=MEMORY_MB)
    assert outcome.ok, outcome
    language, speed, scale, keys, wrong = outcome.value
    assert language in ("fr", "en") and speed in ("instant", "fast", "normal", "slow")
    assert scale in (0.8, 1.0, 1.25, 1.5)
    assert ("language" in wrong) == (doc.get("language") not in ("fr", "en"))
    if doc.get("ui_scale") == 1.25:
        assert scale == 1.25
    record("settings", outcome, "fell back" if wrong else "read whole")
