"""Headless window fixtures: the dummy SDL driver and a private user folder for every test."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402

from game.ui.app import App  # noqa: E402
from game.ui.settings import Settings  # noqa: E402


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ESCARMOUCHE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def app(home):
    settings = Settings(language="en", ai_speed="instant", animations="off")   # tests of the animations turn them on
    a = App({"fps": 0}, settings)
    yield a
    import pygame
    pygame.quit()
