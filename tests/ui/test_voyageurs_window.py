"""Voyageurs in the window, played only through posted mouse and key events: both modes to the results
screen, hot-seat and versus the AI; a boarding fought on the deck map; screenshots of each."""
from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from game.engine.match import Match
from game.rules import get as get_rules
from game.ui.battle import BattleScene
from game.ui.maprender import load_map_picture
from game.ui.scenes import ResultsScene

from .driver import press, shot, steps, until_results
from .test_full_game import play_by_input

MAPS = Path(__file__).resolve().parents[2] / "maps"
MODES = [("voyageurs", "ruined_town"), ("voyageurs_aerial", "sky_deck")]


def battle(app, rules_id: str, map_name: str, mode: str, seed: int, max_turns: int) -> BattleScene:
    rules = get_rules(rules_id)
    loaded, bf = load_map_picture(MAPS / f"{map_name}.tmx")
    match = Match(bf, rules, rules.default_armies(bf), seed, max_turns=max_turns)
    scene = BattleScene(app, match, mode, human_side=0, loaded=loaded)
    app.push(scene)
    steps(app, 2)
    return scene


def to_the_results(app, scene, rng: random.Random, frames: int = 12000, shot_name: str = "",
                   spare: tuple[str, ...] = ()) -> int:
    """Play every human decision by input (the hand-over screen included), never an action in ``spare``,
    let the AI play its own; return how many answers the AI gave."""
    match = scene.match
    ai_answers = 0
    for i in range(frames):
        if isinstance(app.scene, ResultsScene):
            return ai_answers
        d = match.pending
        n = len(match.answers)
        if d is not None and (scene.human_turn() or scene.handover_to is not None):
            play_by_input(app, scene, rng, spare)
        else:
            app.step()
            ai_answers += d is not None and len(match.answers) > n
        if len(match.answers) == n:
            app.step()
        if shot_name and i == 40:
            shot(app, shot_name)
    until_results(app, match)
    if isinstance(app.scene, ResultsScene):
        return ai_answers
    raise AssertionError(f"no results screen: {match.pending and match.pending.kind}, {len(match.answers)} answers")


@pytest.mark.parametrize("rules_id, map_name", MODES)
def test_a_hotseat_battle_is_played_to_the_results_screen_with_mouse_and_keys(app, rules_id, map_name):
    scene = battle(app, rules_id, map_name, "hotseat", seed=5, max_turns=2)
    to_the_results(app, scene, random.Random(3), shot_name=f"{rules_id}_hotseat.png")
    assert scene.match.outcome is not None
    steps(app, 2)
    shot(app, f"{rules_id}_results.png")


@pytest.mark.parametrize("rules_id, map_name", MODES)
def test_a_battle_against_the_ai_is_played_to_the_results_screen(app, rules_id, map_name):
    """The person plays on to the end (never surrenders), so that the AI has its turns to play."""
    scene = battle(app, rules_id, map_name, "vs-ai", seed=9, max_turns=3)
    ai = to_the_results(app, scene, random.Random(4), shot_name=f"{rules_id}_vs_ai.png", spare=("forfeit",))
    assert scene.match.outcome is not None and ai > 0


def test_a_boarding_is_fought_on_the_deck_map_in_the_window(app):
    """The human's transport closes in and boards through the action bar; the boarders then stand on the
    deck map and the crews left at their posts are listed off the map."""
    scene = battle(app, "voyageurs_aerial", "sky_deck", "hotseat", seed=2, max_turns=8)
    match = scene.match
    for _ in range(400):
        if match.state.boarding is not None and match.state.deck is not None:
            break
        if scene.handover_to is not None:
            scene.finish_handover()
            app.step()
            continue
        d = match.pending
        groups = scene.bar_actions(d) if d.kind == "action" else []
        wanted = next((a for a in ("board", "approach") if a in groups), None)
        if wanted is not None:
            press(app, pygame.K_1 + groups.index(wanted))
        elif d.kind == "action":
            press(app, pygame.K_e)
        elif scene.chooser:
            keys = [o.key for o in scene.chooser]
            pick = next((k for k in keys if k.startswith("defend:") or k == "stay"), keys[0])
            press(app, pygame.K_1 + keys.index(pick))
        else:
            app.step()
    st = match.state
    assert st.boarding is not None and st.deck is not None
    on_deck = {f.id for f in scene.on_map()}
    assert set(st.boarding.boarders + st.boarding.defenders) <= on_deck
    steps(app, 3)
    shot(app, "voyageurs_aerial_boarding.png")
