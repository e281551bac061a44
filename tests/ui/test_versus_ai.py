"""Versus the AI to the end, AI against AI in showcase mode, and the results screen."""
from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from game.engine.match import Match
from game.engine.save import new_match
from game.rules import get as get_rules
from game.ui.app import run
from game.ui.battle import BattleScene
from game.ui.scenes import ResultsScene

from .driver import field, play_human, press, shot, steps, until_results, write_map

MAP = Path(__file__).resolve().parents[2] / "maps" / "ruined_town.tmx"


def test_versus_ai_game_is_played_to_the_results_screen(app):
    rules = get_rules("eisdrachen")
    bf = field(14, 10)
    match = Match(bf, rules, rules.default_armies(bf), 11, max_turns=2)
    scene = BattleScene(app, match, "vs-ai", human_side=0)
    app.push(scene)
    ai_answers = 0
    for _ in range(5000):
        if isinstance(app.scene, ResultsScene):
            break
        d = match.pending
        if d is not None and d.side == 0 and scene.handover_to is None and scene.human_turn():
            play_human(app, scene, match)
        else:
            n = len(match.answers)
            app.step()
            ai_answers += len(match.answers) > n and d is not None and d.side == 1
    until_results(app, match)
    assert isinstance(app.scene, ResultsScene)
    assert match.outcome is not None
    assert ai_answers > 0
    steps(app, 2)
    shot(app, "versus_ai_results.png")


def test_ai_keeps_the_window_drawing_while_it_thinks(app):
    rules = get_rules("eisdrachen")
    bf = field(14, 10)
    match = Match(bf, rules, rules.default_armies(bf), 3)
    scene = BattleScene(app, match, "ai-vs-ai")

    class SlowPlayer:
        """Answers only when released, like an AI that thinks for a long time."""
        def __init__(self):
            import threading
            self.release = threading.Event()

        def choose(self, m, decision):
            self.release.wait(5)
            return decision.options[0].key

    slow = SlowPlayer()
    scene.ai_players = {0: slow, 1: slow}
    app.push(scene)
    frames = app.frames
    steps(app, 20)
    assert app.frames == frames + 20 and not match.answers
    assert scene.ai_job is not None
    slow.release.set()
    deadline = time.monotonic() + 10
    while not match.answers and time.monotonic() < deadline:
        app.step()
    assert match.answers


def test_showcase_mode_runs_the_loop_and_saves_a_screenshot(home, tmp_path):
    tmx = write_map(tmp_path / "arena.tmx", 16, 10)
    png = tmp_path / "showcase.png"
    code = run({"map": str(tmx), "rules": "eisdrachen", "mode": "ai-vs-ai", "seed": 4, "lang": "fr",
                "human_side": None, "frames": 90, "screenshot": str(png), "fps": 0})
    assert code == 0
    picture = pygame.image.load(str(png))
    assert picture.get_size() == (1280, 720)


def test_showcase_with_a_bad_map_reports_and_exits(home, tmp_path, capsys):
    bad = tmp_path / "bad.tmx"
    bad.write_text("<map orientation='isometric'", encoding="utf-8")
    code = run({"map": str(bad), "rules": "eisdrachen", "mode": "ai-vs-ai", "seed": 1, "lang": "en",
                "human_side": None, "frames": 5, "screenshot": None, "fps": 0})
    assert code == 2
    assert "bad.tmx" in capsys.readouterr().err


def test_ai_answers_come_one_by_one_at_the_set_speed_and_skip_runs_them_on(app):
    rules = get_rules("eisdrachen")
    bf = field(14, 10)
    match = Match(bf, rules, rules.default_armies(bf), 5)
    app.settings.ai_speed = "fast"                  # 250 ms between AI answers
    scene = BattleScene(app, match, "ai-vs-ai")
    app.push(scene)
    start = time.monotonic()
    while time.monotonic() - start < 1.0:
        app.step()
    paced = len(match.answers)
    assert 1 <= paced <= 1.0 / 0.25 + 1
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    start = time.monotonic()
    while time.monotonic() - start < 3.0 and len(match.answers) < paced + 10 and not match.over:
        app.step()
    assert match.over or len(match.answers) >= paced + 10


def test_the_view_follows_an_ai_figure_that_moves_off_screen(app):
    rules = get_rules("eisdrachen")
    bf = field(90, 12)
    match = Match(bf, rules, rules.default_armies(bf), 4)
    scene = BattleScene(app, match, "vs-ai", human_side=0)
    app.push(scene)
    steps(app, 2)
    scene.view.zoom = 2.0
    scene.view.centre = (2, 6)      # the human's edge; the AI's army stands 85 tiles away
    scene.view.pan_pixels(0, 0)
    followed = []
    for _ in range(3000):
        d = match.pending
        if d is not None and d.side == 0:
            press(app, pygame.K_TAB)        # as a player would: back to one's own figures, then act
            play_human(app, scene, match)
            continue
        before = len(match.answers)
        app.step()
        o = scene.last_ai
        if len(match.answers) > before and o is not None and o.figure is not None and o.path:
            mover = scene.figure(o.figure)
            followed.append(scene.map_rect.collidepoint(scene.view.tile_centre(mover.tile)))
            if len(followed) >= 3:
                break
    assert followed and all(followed)


@pytest.mark.parametrize("seed", [2, 4, 5])     # battles in which the AI answers a listed decision
def test_after_an_ai_answer_the_human_never_sees_a_list_of_the_ai_decision(app, seed):
    match = new_match(MAP, "kolaps", seed, max_turns=2)
    scene = BattleScene(app, match, "vs-ai", human_side=0)
    app.push(scene)
    ai_kinds = set()
    for _ in range(3000):
        d = match.pending
        if d is None:
            break
        if scene.chooser:
            keys = {o.key for o in d.options}
            assert all(o.key in keys for o in scene.chooser), (d.kind, [o.key for o in scene.chooser])
        if d.side == 0 and scene.human_turn():
            play_human(app, scene, match)
        else:
            ai_kinds.add(d.kind)
            app.step()
    assert "first_player" in ai_kinds or "offensive" in ai_kinds      # the AI did answer a listed decision
