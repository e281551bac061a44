"""10,000 random clicks, drags, wheel turns and keys on every screen: nothing may raise."""
from __future__ import annotations

import random

import pygame
import pytest

from game.engine.match import Match
from game.rules import get as get_rules
from game.ui.battle import BattleScene
from game.ui.scenes import MenuScene

from .driver import field, write_map

KEYS = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_9, pygame.K_e, pygame.K_z, pygame.K_s,
        pygame.K_t, pygame.K_ESCAPE, pygame.K_SPACE, pygame.K_TAB, pygame.K_RETURN, pygame.K_BACKSPACE,
        pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_EQUALS, pygame.K_MINUS, pygame.K_a]


def random_event(rng: random.Random, size) -> pygame.event.Event:
    w, h = size
    pos = (rng.randrange(w), rng.randrange(h))
    r = rng.random()
    if r < 0.35:
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN if rng.random() < 0.5 else pygame.MOUSEBUTTONUP,
                                  pos=pos, button=rng.choice((1, 1, 1, 2, 3)))
    if r < 0.55:
        return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(rng.randint(-30, 30), rng.randint(-30, 30)),
                                  buttons=(rng.random() < 0.3, 0, rng.random() < 0.1))
    if r < 0.62:
        return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False)
    if r < 0.66:
        return pygame.event.Event(pygame.TEXTINPUT, text=rng.choice("0123456789abc/."))
    if r < 0.67:
        return pygame.event.Event(pygame.VIDEORESIZE, w=rng.randint(500, 1400), h=rng.randint(300, 900))
    mod = pygame.KMOD_LCTRL if rng.random() < 0.15 else 0
    return pygame.event.Event(pygame.KEYDOWN, key=rng.choice(KEYS), mod=mod, unicode="", scancode=0)


def monkey(app, rng: random.Random, events: int, per_frame: int = 25, keep=None) -> set[str]:
    """Post random input; return the names of the screens it went through. ``keep`` is a scene the
    monkey is brought back to whenever it leaves it (so a battle gets most of the input)."""
    seen = set()
    for _ in range(events // per_frame):
        for _ in range(per_frame):
            pygame.event.post(random_event(rng, app.screen.get_size()))
        app.step()
        app.running = True          # the monkey may press Quit: keep playing
        if app.scene is None:
            app.push(MenuScene(app))
        if keep is not None and app.scene is not keep and rng.random() < 0.5:
            app.scenes = [MenuScene(app), keep]
        seen.add(type(app.scene).__name__)
    return seen


@pytest.mark.long
def test_ten_thousand_random_inputs_raise_nothing(app, home, tmp_path):
    write_map(home / "data" / "maps" / "monkey.tmx", 14, 9)
    rng = random.Random(2026)
    app.push(MenuScene(app))
    seen = monkey(app, rng, 4000)
    assert {"MenuScene", "SetupScene", "SettingsScene"} <= seen, seen
    rules = get_rules("eisdrachen")
    answered = 0
    for mode in ("hotseat", "vs-ai"):
        bf = field(14, 10)
        match = Match(bf, rules, rules.default_armies(bf), rng.randrange(100), max_turns=3)
        app.scenes = [MenuScene(app), BattleScene(app, match, mode, human_side=0)]
        monkey(app, rng, 3000, per_frame=10, keep=app.scenes[-1])
        answered += len(match.answers)
    assert answered > 5
