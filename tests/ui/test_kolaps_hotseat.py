"""A hot-seat KOLAPS battle in the real window: an ambush is stipulated in secret with its standing order,
and fires by itself in the middle of the enemy's walk, with no hand-over in that activation."""
from __future__ import annotations

import pygame

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.engine.protocol import Army
from game.engine.steps import StepStack
from game.rules import get as get_rules
from game.ui.battle import BattleScene

from .driver import click, press, shot, steps, tile_pos


def action_phase_match() -> Match:
    """A1 (veteran, offensive) behind a wall of heavy cover; B1 (trooper) across open ground."""
    rules = get_rules("kolaps")
    bf = Battlefield.open_ground(20, 12)
    bf.cover[4:8, 6] = 2
    armies = [Army(0, "A", [{"id": "A1", "archetype": "veteran", "tile": [5, 6], "morale": 5, "offensive": True}]),
              Army(1, "B", [{"id": "B1", "archetype": "trooper", "tile": [17, 6], "morale": 5}])]
    match = Match(bf, rules, armies, seed=3)
    state = match.state
    state.turn, state.phase, state.to_play, state.attacker, state.defender = 1, "action", 0, 0, 1
    state.steps = StepStack()
    state.steps.run(rules.context(state, match.dice), rules.refill)
    return match


def frames_until_human(app, scene, seen: list) -> None:
    """Step the loop, noting each frame's (deciding side, hand-over screen shown) and clearing any hand-over
    the way a player does: a click on the hand-over screen."""
    for _ in range(4):
        steps(app, 1)
        seen.append((scene.match.pending.side if scene.match.pending else None, scene.handover_to))
        if scene.handover_to is not None:
            click(app, scene.map_rect.center)


def test_an_ambush_order_fires_in_the_enemy_walk_without_a_hand_over(app):
    match = action_phase_match()
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    seen: list = []
    frames_until_human(app, scene, seen)
    a1 = next(f for f in scene.figs if f.id == "A1")
    click(app, tile_pos(scene, a1.tile))                          # side 0 activates A1 ...
    d = match.pending
    assert d.kind == "action" and d.figure == "A1" and d.secret
    press(app, pygame.K_1 + scene.bar_actions(d).index("ambush"))  # ... and stipulates "first enemy in sight"
    assert match.state.chars["A1"].ambush_armed
    frames_until_human(app, scene, seen)
    assert seen[-1] == (1, None) and any(h == 1 for _, h in seen)   # the screen went over to side 1
    assert not any("ambush" in line.lower() for line in scene.log_lines)
    shot(app, "kolaps_after_handover_to_red.png")
    b1 = next(f for f in scene.figs if f.id == "B1")
    click(app, tile_pos(scene, b1.tile))                          # side 1 activates B1 ...
    d = match.pending
    assert d.kind == "action" and d.figure == "B1" and scene.handover_to is None
    walk = min((o for o in d.options if o.action == "walk"), key=lambda o: o.tile[0])
    answered = len(match.answers)
    click(app, tile_pos(scene, walk.tile))                        # ... and walks west, into A1's sights
    assert match.answers[answered:] == [walk.key]
    fired = next(i for i, e in enumerate(match.log) if e.kind == "ambush_fired")
    assert any(e.kind == "moved" and e.data["figure"] == "B1" for e in match.log[fired:])
    assert match.pending.kind == "bid" and match.pending.side == 1 and scene.handover_to is None
    assert any(line.startswith("Ambush order fires") for line in scene.log_lines)
    steps(app, 30)                                                # the walk is drawn tile by tile
    shot(app, "kolaps_ambush_order_fired.png")
