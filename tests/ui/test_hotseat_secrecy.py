"""Hot-seat secrecy in the real window (issue 10): two people share the screen, and the rhythm of the
hand-overs must not tell one of them what the other keeps secret.

A KOLAPS battle is played through the loop with clicks and keys, both players declaring ambushes
whenever they may: the screen is handed over at the start of a side's activations and turn phases, or
for a decision the rules openly ask of the other side (a crossfire, a reaction, a knife interrupt), never
while the enemy's move or attack is still under way, where an ambush trigger would once have asked for it.
"""
from __future__ import annotations

import random

import pygame

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.engine.protocol import Army
from game.rules import get as get_rules
from game.rules.kolaps.steps import AmbushWindow, Attack, MoveStep
from game.ui.battle import BattleScene

from .driver import button_at, click, field, press, shot, steps, tile_pos

OPEN_QUESTIONS = ("crossfire", "reaction", "knife")      # asked of the other side by the rules, for all to see


def kolaps_battle(seed: int) -> Match:
    """Three veterans against three troopers, each line behind a wall of heavy cover, whole from the start:
    the auction, the offensive boxes, then activations in which both sides may lie in ambush."""
    bf = Battlefield.open_ground(22, 12)
    bf.cover[1:11, 4] = 2
    bf.cover[1:11, 17] = 2
    armies = [Army(0, "A", [{"id": f"A{i + 1}", "archetype": "veteran", "tile": [3, 2 + 3 * i], "morale": 5}
                            for i in range(3)]),
              Army(1, "B", [{"id": f"B{i + 1}", "archetype": "trooper", "tile": [18, 2 + 3 * i], "morale": 5}
                            for i in range(3)])]
    return Match(bf, get_rules("kolaps"), armies, seed)


def under_way(match: Match, side: int) -> list[str]:
    """What is still to be carried out of the other side's moves and attacks (a step of a walk, a moment of
    it when an ambush may fire, a shot)."""
    chars = match.state.chars
    out = []
    for step in match.state.steps.steps:
        fid = step.fig if isinstance(step, MoveStep) else step.enemy if isinstance(step, AmbushWindow) \
            else step.a if isinstance(step, Attack) else None
        if fid is not None and chars[fid].side != side:
            out.append(f"{type(step).__name__}({fid})")
    return out


def play_one(app, scene, match, rng: random.Random) -> None:
    """What a person does with the decision on the screen: activate a figure by clicking it; lie in ambush
    when it may (most of the time), else walk towards the enemy or end the activation; bid high; else the
    first choice."""
    d = match.pending
    if d.kind == "activate":
        fig = next(f for f in scene.figs if f.id == d.options[0].figure)
        click(app, tile_pos(scene, fig.tile))
        return
    if d.kind == "action":
        groups = scene.bar_actions(d)
        if "ambush" in groups and rng.random() < 0.7:
            press(app, pygame.K_1 + groups.index("ambush"))
            return
        walks = [o for o in d.options if o.action == "walk"]
        if walks and rng.random() < 0.8:
            enemies = [f.tile for f in scene.figs if f.side != d.side and f.alive and f.tile is not None]
            target = min(walks, key=lambda o: (min(abs(o.tile[0] - e[0]) + abs(o.tile[1] - e[1]) for e in enemies),
                                               rng.random()))
            if scene.group != "walk":
                press(app, pygame.K_1 + groups.index("walk"))
            click(app, tile_pos(scene, target.tile))
            return
        press(app, pygame.K_e)
        return
    if d.kind == "bid" and scene.chooser:
        press(app, pygame.K_1 + min(len(scene.chooser), 10) - 1)
        return
    press(app, pygame.K_1)


def test_a_hot_seat_kolaps_battle_with_ambushes_hands_over_between_activations_only(app):
    rng = random.Random(11)
    match = kolaps_battle(seed=4)
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    handovers, stuck = [], 0
    while match.pending is not None and match.state.turn <= 3 and stuck < 20:
        steps(app, 1)
        if scene.handover_to is not None:
            d = match.pending
            handovers.append((len(match.answers), d.kind, d.side, under_way(match, d.side)))
            if len(handovers) == 4:
                shot(app, "kolaps_hotseat_secrecy_handover.png")
            click(app, button_at(app, "I am ready"))
            steps(app, 1)
            continue
        before = len(match.answers)
        play_one(app, scene, match, rng)
        stuck = stuck + 1 if len(match.answers) == before else 0
    assert stuck < 20, f"the window took no answer for {match.pending.kind} of side {match.pending.side}"
    log = match.log
    declared = {e.visible_to for e in log if e.kind == "ambush_declared"}
    fired = [e for e in log if e.kind == "ambush_fired"]
    assert declared == {0, 1} and fired, "both sides lie in ambush and an ambush fires in an enemy's activation"
    assert len(handovers) > 10
    mid = [h for h in handovers if h[3] and h[1] not in OPEN_QUESTIONS]
    assert not mid, f"hand-overs in the middle of an enemy's move or attack: {mid}"
    assert all(kind != "ambush" for _, kind, _, _ in handovers)
    steps(app, 5)
    shot(app, "kolaps_hotseat_secrecy_end.png")


def opening_with_a_secret(rules_id: str) -> Match:
    """A seeded match whose first decisions, answered with their first choice, are all one side's until a
    secret one (a Passe d'armes declaration before anyone else has decided)."""
    rules = get_rules(rules_id)
    for seed in range(40):
        trial = Match(field(), rules, rules.default_armies(field()), seed)
        first = trial.pending.side
        while trial.pending is not None and trial.pending.side == first and not trial.pending.secret:
            trial.answer(trial.pending.options[0].key)
        if trial.pending is not None and trial.pending.side == first:
            return Match(field(), rules, rules.default_armies(field()), seed)
    raise AssertionError(f"no seed opens {rules_id} with a secret decision before the other side decides")


def test_the_first_player_of_a_hot_seat_game_takes_the_screen_behind_a_hand_over_before_a_secret(app):
    match = opening_with_a_secret("passe_d_armes")
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    shown = False
    for _ in range(12):
        if scene.handover_to is not None and not shown:
            shot(app, "passe_first_handover.png")
        shown |= scene.handover_to is not None
        if match.pending.secret:
            break
        if scene.handover_to is None:
            press(app, pygame.K_1)          # the first choice, as the seed was picked for (the initiative roll)
        else:
            click(app, button_at(app, "I am ready"))
        steps(app, 1)
    assert match.pending.secret and match.pending.side == scene.viewer
    shot(app, "passe_first_declaration_after_handover.png")
    assert shown, "the first player makes a secret declaration on a screen that was never handed over to them"
