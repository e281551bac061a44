"""Sound effects and the menu ambience, made by tools/make_sounds.py; silent where there is no device.

SDL's audio backends print to the process's standard error themselves (ALSA's "cannot find card"),
below Python, when no device exists. So the mixer is started only where a device may exist, and with
file descriptor 2 pointed at /dev/null while it starts; a failure leaves the game silent, never noisy.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

import pygame

from ..resources import assets_dir

SOUND_DIR = assets_dir() / "sounds"
NAMES = ("step", "shot", "blast", "melee", "dice", "wound", "death", "handover", "end", "throw", "puff")
AMBIENCE = "ambience"
AMBIENCE_SHARE = 0.35        # the menu ambience plays well under the effects


def device_may_exist() -> bool:
    """Whether starting the mixer may find a sound device (an explicit SDL_AUDIODRIVER is always tried)."""
    if os.environ.get("SDL_AUDIODRIVER") or not sys.platform.startswith("linux"):
        return True
    run = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.environ.get("PULSE_SERVER") or (run and any((Path(run) / p).exists() for p in ("pulse/native", "pipewire-0"))):
        return True
    snd = Path("/dev/snd")
    return snd.is_dir() and any(snd.glob("pcm*"))


@contextmanager
def quiet_stderr():
    """Standard error at the file-descriptor level goes to /dev/null for the block (C libraries too)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Sound:
    """Plays effects by name at the player's volume; every method is a no-op without a device."""

    def __init__(self):
        self.ready = False
        self.effects: dict[str, pygame.mixer.Sound] = {}
        self.volume = 1.0
        self.muted = False
        self.ambient = False
        self.played: list[str] = []          # what was asked to play, newest last (kept short)
        self._ambience: pygame.mixer.Sound | None = None
        self._channel = None

    def start(self) -> bool:
        if not device_may_exist():
            return False
        with quiet_stderr():
            try:
                pygame.mixer.pre_init(22050, -16, 1, 512)
                pygame.mixer.init()
                pygame.mixer.set_num_channels(16)
                self.effects = {n: pygame.mixer.Sound(str(SOUND_DIR / f"{n}.wav")) for n in NAMES}
                self._ambience = pygame.mixer.Sound(str(SOUND_DIR / f"{AMBIENCE}.wav"))
            except (pygame.error, FileNotFoundError, OSError):
                self.effects, self._ambience = {}, None
                if pygame.mixer.get_init():
                    pygame.mixer.quit()
                return False
        self.ready = True
        self._apply()
        return True

    def configure(self, volume_percent: int, muted: bool) -> None:
        self.volume = max(0, min(100, int(volume_percent))) / 100
        self.muted = bool(muted)
        self._apply()

    def _apply(self) -> None:
        level = 0.0 if self.muted else self.volume
        for s in self.effects.values():
            s.set_volume(level)
        if self._ambience is not None:
            self._ambience.set_volume(level * AMBIENCE_SHARE)

    def play(self, name: str) -> None:
        self.played = (self.played + [name])[-50:]
        effect = self.effects.get(name)
        if self.ready and effect is not None and not self.muted and self.volume > 0:
            effect.play()

    def ambience(self, on: bool) -> None:
        """The quiet loop of the menus: on while a menu shows, off in battle."""
        if on == self.ambient:
            return
        self.ambient = on
        if not self.ready or self._ambience is None:
            return
        if on:
            self._channel = self._ambience.play(loops=-1, fade_ms=800)
        else:
            self._ambience.fadeout(400)
            self._channel = None
