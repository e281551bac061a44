"""Sound: the project's own synthesised effects, played where a device exists, and silence (nothing
printed, no traceback) where none does; volume, mute and the camera are Settings that persist."""
from __future__ import annotations

import os
import subprocess
import sys
import wave
from pathlib import Path

import pygame

from game.ui.settings import Settings
from game.ui.sound import NAMES, SOUND_DIR, Sound, quiet_stderr

from .driver import button_at, click, steps

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_sounds  # noqa: E402


def test_the_shipped_sounds_are_what_the_script_makes():
    for name in ("dice", "step", "ambience"):
        with wave.open(str(SOUND_DIR / f"{name}.wav")) as w:
            assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (make_sounds.RATE, 1, 2)
            assert w.readframes(w.getnframes()) == make_sounds.render(name)
    assert set(NAMES) | {"ambience"} == set(make_sounds.SOUNDS)


def test_a_window_without_a_sound_device_is_silent_and_prints_nothing(tmp_path):
    """No SDL audio driver chosen, no sound server, and (on this machine) no sound card: the play command
    says nothing on either stream and exits 0."""
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_AUDIODRIVER", "PULSE_SERVER")}
    env.update(SDL_VIDEODRIVER="dummy", XDG_RUNTIME_DIR=str(tmp_path), ESCARMOUCHE_HOME=str(tmp_path / "home"))
    run = subprocess.run([sys.executable, "-m", "game", "play", "--map", "ruined_town", "--rules", "eisdrachen",
                          "--mode", "ai-vs-ai", "--seed", "1", "--frames", "90"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")


def test_what_a_c_library_prints_while_the_mixer_starts_goes_nowhere():
    code = ("import os\nfrom game.ui.sound import quiet_stderr\n"
            "with quiet_stderr():\n    os.write(2, b'ALSA lib noise\\n')\nos.write(2, b'after\\n')\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=60)
    assert run.stderr == b"after\n"


def test_a_muted_or_silent_mixer_plays_nothing_and_never_fails():
    s = Sound()              # never started: as on a machine without a device
    s.configure(50, False)
    s.play("shot")
    s.ambience(True)
    assert s.played == ["shot"] and not s.ready
    with quiet_stderr():
        pass


def test_volume_mute_and_camera_are_set_in_settings_and_kept(app, home):
    from game.ui.scenes import SettingsScene
    app.push(SettingsScene(app))
    steps(app, 1)
    click(app, button_at(app, "25 %"))
    click(app, button_at(app, "Muted"))
    buttons = [b for b in app.ui.buttons if b.label == "Off"]
    click(app, buttons[-1].rect.center)          # the camera row is the last with an Off
    again = Settings.load()
    assert (again.volume, again.muted, again.camera_follow) == (25, True, False)
    assert (app.sound.volume, app.sound.muted) == (0.25, True)


def test_settings_with_odd_sound_values_fall_back_to_the_defaults(home):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"volume": 33, "muted": "yes", "camera_follow": 1, "animations": "wild"}')
    s = Settings.load()
    assert (s.volume, s.muted, s.camera_follow, s.animations) == (75, False, True, "normal")


def test_the_menus_play_the_ambience_and_a_battle_stops_it(app):
    from game.ui.app import start_battle
    from game.ui.scenes import MenuScene
    app.push(MenuScene(app))
    steps(app, 1)
    assert app.sound.ambient
    app.push(start_battle(app, "maps/ruined_town.tmx", "eisdrachen", "hotseat", 1))
    steps(app, 1)
    assert not app.sound.ambient
    pygame.event.pump()
