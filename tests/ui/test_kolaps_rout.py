"""A hot-seat KOLAPS battle in the real window ended by the rout (docs/rules-kolaps.md): the results screen
names it and gives each side's points, in French and in English."""
from __future__ import annotations

import pygame
import pytest

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.engine.protocol import Army
from game.engine.steps import StepStack
from game.rules import get as get_rules
from game.ui.battle import BattleScene
from game.ui.scenes import ResultsScene

from .driver import click, shot, steps, tile_pos, until_results

WORDS = {"fr": ("L'adversaire est en déroute", "Camp bleu : 26 points"), "en": ("The enemy is routed", "Blue side: 26 points")}


def last_turn_of_a_rout() -> Match:
    """Turn 3's action phase: side 1 has lost two of its three characters this turn, one out of action and
    one fled: more than half, so the turn's assessment routs it."""
    rules = get_rules("kolaps")
    bf = Battlefield.open_ground(20, 12)
    armies = [Army(0, "A", [{"id": "A1", "archetype": "veteran", "tile": [3, 4], "morale": 5},
                            {"id": "A2", "archetype": "trooper", "tile": [3, 7], "morale": 5}]),
              Army(1, "B", [{"id": f"B{i}", "archetype": "trooper", "tile": [16, 2 + 3 * i], "morale": 5}
                            for i in (1, 2, 3)])]
    match = Match(bf, rules, armies, seed=3)
    state = match.state
    state.turn, state.phase, state.to_play, state.attacker, state.defender = 3, "action", 0, 0, 1
    state.chars["B2"].in_play, state.chars["B2"].casualty = False, "out_of_action"
    state.chars["B3"].in_play, state.chars["B3"].casualty = False, "fled"
    state.steps = StepStack()
    state.steps.run(rules.context(state, match.dice), rules.refill)
    return match


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_battle_ended_by_the_rout_names_it_on_the_results_screen(app, lang):
    app.settings.language = lang
    app.apply_settings()
    match = last_turn_of_a_rout()
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    end_key = pygame.key.key_code(app.settings.keys["end"])
    for _ in range(60):                 # every figure is activated by a click and ends at once, by its key
        if match.over:
            break
        steps(app, 1)
        d = match.pending
        if scene.handover_to is not None:
            click(app, scene.map_rect.center)
        elif d is not None and d.kind == "action":
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=end_key, mod=0, unicode="", scancode=0))
            steps(app, 1)
        elif d is not None and d.options[0].figure in match.state.chars:
            click(app, tile_pos(scene, match.state.chars[d.options[0].figure].tile))
    until_results(app, match)
    assert isinstance(app.scene, ResultsScene)
    assert (match.outcome.winner, match.outcome.reason) == (0, "routed")
    ended = [e.data.get("figure") for e in match.log if e.kind == "action" and e.data.get("action") == "end"]
    assert sorted(ended) == ["A1", "A2", "B1"], ended          # each played its turn in the window first
    steps(app, 1)
    path = shot(app, f"kolaps_rout_results_{lang}.png")
    assert path.exists()
    shown = drawn_text(app)
    assert any(t.startswith(WORDS[lang][0]) for t in shown) and any(t.startswith(WORDS[lang][1]) for t in shown)


def drawn_text(app) -> list[str]:
    """Every text the results screen draws in one frame."""
    seen: list[str] = []
    draw = app.ui.text

    def spy(surface, text, *args, **kwargs):
        seen.append(text)
        return draw(surface, text, *args, **kwargs)

    app.ui.text = spy
    try:
        steps(app, 1)
    finally:
        app.ui.text = draw
    return seen
