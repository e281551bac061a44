"""Every screen holds at 100, 125, 150 and 200 % interface size, in windows from 1024×600 to
2560×1440, in French and in English: no text is cut short or cut off, nothing lies on top of
something else of its layer, nothing is drawn outside the window (by the rectangles the widgets
report). The in-between windows are the long run's."""
from __future__ import annotations

import pygame
import pytest

from game.ui.app import App
from game.ui.i18n import set_language
from game.ui.settings import Settings

from .driver import shot
from .layout import layout_problems, resize
from .screens import Screens, battle_matches

SCALES = (1.0, 1.25, 1.5, 2.0)
WINDOWS = ((1024, 600), (1280, 720), (2560, 1440))
MORE_WINDOWS = ((1024, 768), (1366, 768), (1600, 900), (1920, 1080))
LOOKED_AT = {((1280, 720), 1.5), ((1024, 600), 2.0), ((2560, 1440), 1.0)}      # screenshots kept for a person


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One window for the whole module, its user folder private, and each screen built once per language."""
    with pytest.MonkeyPatch.context() as mp:
        home = tmp_path_factory.mktemp("layout-home")
        mp.setenv("ESCARMOUCHE_HOME", str(home))
        app = App({"fps": 0}, Settings(language="en", ai_speed="instant"))
        screens = {lang: Screens(app, battle_matches(), home) for lang in ("fr", "en")}
        yield app, screens
        pygame.quit()


def check_every_screen(world, window, scale) -> None:
    app, screens = world
    resize(app, window)
    app.settings.ui_scale = scale
    app.ui.set_scale(scale)
    problems = []
    for lang, screen in screens.items():
        set_language(lang)
        for name in screen.names():
            screen.show(name)
            found = layout_problems(app)
            problems += [f"{name} {window[0]}x{window[1]} {int(scale * 100)} % {lang}: {p}" for p in found[:3]]
            if (window, scale) in LOOKED_AT and (name.startswith(("setup-kolaps", "battle-kolaps", "settings",
                                                                  "load", "results-passe", "primer-eis"))):
                shot(app, f"layout/{name}-{window[0]}x{window[1]}-{int(scale * 100)}-{lang}.png")
    assert problems == []


@pytest.mark.parametrize("scale", SCALES, ids=lambda s: f"{int(s * 100)}%")
@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}")
def test_every_screen_holds_in_both_languages(world, window, scale):
    check_every_screen(world, window, scale)


@pytest.mark.long
@pytest.mark.parametrize("scale", SCALES, ids=lambda s: f"{int(s * 100)}%")
@pytest.mark.parametrize("window", MORE_WINDOWS, ids=lambda w: f"{w[0]}x{w[1]}")
def test_every_screen_holds_in_the_windows_between(world, window, scale):
    check_every_screen(world, window, scale)


def test_a_window_too_small_for_the_chosen_size_shows_the_largest_that_holds(world):
    app, _ = world
    resize(app, (1024, 600))
    app.ui.set_scale(2.0)
    app.draw()
    assert app.ui.chosen == 2.0 and app.ui.scale == 1.25       # 1024×600 holds 800×480 at 125 %, not 200 %
    resize(app, (2560, 1440))
    app.draw()
    assert app.ui.scale == 2.0
