"""Mordgrave in the window: a battle against the AI played with the mouse and keys to the results
screen, with a Leader phase in which the player activates the Leader and friends of its bubble."""
from __future__ import annotations

import pygame

from game.engine import space
from game.engine.match import Match
from game.rules import get as get_rules
from game.ui.battle import BattleScene
from game.ui.scenes import ResultsScene

from .driver import click, field, press, shot, steps, tile_pos, until_results


def show(app, scene, tile) -> None:
    """Bring a tile into view, as a player scrolls the map to it."""
    scene.view.centre = (tile[0] + 0.5, tile[1] + 0.5)
    scene.view.pan_pixels(0, 0)
    app.step()


def click_tile(app, scene, tile) -> None:
    show(app, scene, tile)
    click(app, tile_pos(scene, tile))


def play_human(app, scene, match, shots: list) -> None:
    """A plain player: activates the figures of each phase in turn, walks them at the nearest enemy,
    fights or shoots what it can reach, and ends the activation otherwise."""
    d = match.pending
    if scene.chooser:
        press(app, pygame.K_1)
        return
    if d.kind not in ("activate", "action"):
        pointing = [o for o in d.options if scene.points_at(d, o) is not None]
        if pointing:                              # a follow-up: click where to step
            click_tile(app, scene, scene.points_at(d, pointing[0]))
        else:                                     # its list of choices shows on the next frame
            app.step()
        return
    rules = match.rules
    if d.kind == "activate":
        if not shots and d.info.get("leader"):
            shots.append(shot(app, "mordgrave_leader_phase.png"))
        picks = [o for o in d.options if o.action == "activate"]
        click_tile(app, scene, picks[0].tile)
        return
    views = {f.id: f for f in rules.figures(match.state, d.side)}
    me = views[d.figure]
    foes = [f for f in views.values() if f.side != d.side and f.alive]
    groups = scene.bar_actions(d)
    for action in ("fight", "shoot"):
        targets = [o for o in d.options if o.action == action]
        if targets and action in groups:
            press(app, pygame.K_1 + groups.index(action))
            if not scene.chooser:
                click_tile(app, scene, views[targets[0].target].tile)
            return
    moves = [o for o in d.options if o.action in ("move", "run")]
    if moves and foes:
        best = min(moves, key=lambda o: (min(space.distance(o.tile, f.tile) for f in foes), o.key))
        if min(space.distance(best.tile, f.tile) for f in foes) < min(space.distance(me.tile, f.tile) for f in foes):
            if scene.group != best.action:
                press(app, pygame.K_1 + groups.index(best.action))
            click_tile(app, scene, best.tile)
            return
    press(app, pygame.K_e)


def test_a_battle_against_the_ai_is_played_to_the_results_with_a_leader_phase_of_several_figures(app):
    rules = get_rules("mordgrave")
    bf = field(20, 14)
    match = Match(bf, rules, rules.default_armies(bf), 21, max_turns=3)
    scene = BattleScene(app, match, "vs-ai", human_side=0)
    app.push(scene)
    steps(app, 2)
    shots: list = []
    for _ in range(6000):
        if isinstance(app.scene, ResultsScene):
            break
        n = len(match.answers)
        if match.pending is not None and scene.human_turn():
            play_human(app, scene, match, shots)
        else:
            app.step()
        if len(match.answers) == n:
            app.step()
    until_results(app, match)
    assert isinstance(app.scene, ResultsScene), (match.pending and match.pending.kind, len(match.answers))
    assert match.outcome is not None
    phases, current = [], None
    for e in match.log:
        if e.kind == "phase":
            current = {e.data.get("leader")} if e.data["phase"] == "leader" and e.data["side"] == 0 else None
            if current is not None:
                phases.append(current)
        elif e.kind == "activation" and current is not None:
            current.add(e.data["figure"])
    assert phases and max(len(p) for p in phases) >= 2, phases
    assert any(e.kind == "melee" for e in match.log) or any(e.kind == "shot" for e in match.log)
    steps(app, 2)
    shots.append(shot(app, "mordgrave_results.png"))
    assert all(p.exists() for p in shots) and len(shots) == 2
