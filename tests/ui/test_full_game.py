"""Whole battles played only through the window's input (clicks and keys), to the results screen."""
from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from game.engine.match import Match
from game.rules import get as get_rules
from game.rules import names
from game.ui.battle import BattleScene
from game.ui.maprender import load_map_picture
from game.ui.scenes import ResultsScene

from .driver import button_at, click, press, shot, steps, tile_pos, until_results

MAP = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"


def play_by_input(app, scene, rng: random.Random, spare: tuple[str, ...] = ()) -> None:
    """One person's move, chosen at random among what the screen offers, made with the mouse or keys;
    never an action named in ``spare`` where another is offered (a player who never surrenders)."""
    if scene.handover_to is not None:
        click(app, button_at(app, "I am ready"))
        return
    d = scene.match.pending
    if scene.chooser:
        shown = scene.chooser[:9]
        press(app, pygame.K_1 + rng.choice([i for i, o in enumerate(shown) if o.action not in spare] or [0]))
        return
    if d.kind == "action":
        r = rng.random()
        if r < 0.3 and scene.end_option(d) is not None:
            press(app, pygame.K_e)
            return
        groups = scene.bar_actions(d)
        action = rng.choice([g for g in groups if g not in spare] or groups)
        if scene.group != action:
            press(app, pygame.K_1 + groups.index(action))
        if scene.chooser:
            return
        _click_one_on_the_map(app, scene, d, scene.groups(d)[action], rng)
        return
    if not _click_one_on_the_map(app, scene, d, d.options, rng):
        groups = scene.bar_actions(d)
        kept = [i for i, g in enumerate(groups) if g not in spare]
        press(app, pygame.K_1 + (kept[0] if kept else 0))


def _click_one_on_the_map(app, scene, d, options, rng) -> bool:
    """Centre the view on one of the options that point at the map and click it; False if none does."""
    pointing = [o for o in options if scene.points_at(d, o) is not None]
    if not pointing:
        return False
    tile = scene.points_at(d, rng.choice(pointing))
    scene.view.centre = (tile[0] + 0.5, tile[1] + 0.5)
    scene.view.pan_pixels(0, 0)
    app.step()
    click(app, tile_pos(scene, tile))
    return True


@pytest.mark.parametrize("rules_name", names())
def test_a_hotseat_battle_is_played_to_the_end_with_mouse_and_keys_only(app, rules_name):
    rules = get_rules(rules_name)
    loaded, bf = load_map_picture(MAP)
    match = Match(bf, rules, rules.default_armies(bf), 17, max_turns=2)
    scene = BattleScene(app, match, "hotseat", loaded=loaded)
    app.push(scene)
    steps(app, 2)
    rng = random.Random(5)
    for _ in range(3000):
        if isinstance(app.scene, ResultsScene):
            break
        n = len(match.answers)
        if match.pending is not None:
            play_by_input(app, scene, rng)
        else:
            app.step()
        if len(match.answers) == n:
            app.step()
    until_results(app, match)
    assert isinstance(app.scene, ResultsScene), (match.pending and match.pending.kind, len(match.answers))
    assert match.outcome is not None
    steps(app, 1)
    shot(app, f"full_game_{rules_name}_results.png")
