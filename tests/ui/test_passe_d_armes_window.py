"""Passe d'armes in the real window, driven with posted clicks and keys: in hot-seat, an attack hands the
screen over to the defender's player, whose dodge-or-absorb answer the battle then plays out."""
from __future__ import annotations

import pygame

from game.engine.match import Match
from game.engine.protocol import Army
from game.rules import get as get_rules
from game.ui.battle import BattleScene

from .driver import button_at, click, field, move_to, press, ready, shot, steps, tile_pos


def duel(seed: int) -> Match:
    rules = get_rules("passe_d_armes")
    bf = field(14, 10)
    armies = [Army(0, "Les Lames", [{"role": "fencer", "name": "Aurèle", "tile": [4, 6]}]),
              Army(1, "La Garde", [{"role": "guard", "name": "Hortense", "weapon": "club", "tile": [5, 6]}])]
    return Match(bf, rules, armies, seed)


def plain_opening_seed() -> int:
    """A seed whose first initiative has no Exploit (no declarations) and no tie, and whose first attack
    rolls no Exploit either: one combatant attacks, the other absorbs, and the blow lands."""
    for seed in range(200):
        m = duel(seed)
        m.answer("roll")
        if m.state.phase != "activations" or len(m.state.order) != 2:
            continue
        attacker = m.pending.figure
        target = next(f.id for f in m.state.figures if f.id != attacker)
        m.answer(f"attack:{target}")
        m.answer("absorb")
        if m.pending is not None and m.pending.kind == "action" and m.pending.figure == attacker:
            return seed
    raise AssertionError("no plain opening among 200 seeds")


def test_hotseat_an_attack_hands_the_screen_to_the_defender_who_chooses_to_absorb(app, home):
    match = duel(plain_opening_seed())
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    ready(app)
    assert match.pending.kind == "initiative"
    click(app, button_at(app, "Roll initiative"))
    d = match.pending
    assert d.kind == "action"
    if scene.handover_to is not None:                # the attacker's player takes the screen
        click(app, button_at(app, "Ready"))
    steps(app, 1)
    attacker = match.state.figure(d.figure)
    defender = next(f for f in match.state.figures if f.side != attacker.side)
    assert scene.viewer == attacker.side
    # hover the enemy with the attack chosen: the exact odds against a dodge and an absorb are there
    attack = d.option(f"attack:{defender.id}")
    assert attack is not None
    odds = scene.odds(attack)
    assert set(odds.outcomes) == {"wins:dodge", "wins:absorb"}
    assert sum(odds.details["dodge"].values()) == 1 and sum(odds.details["absorb"].values()) == 1
    click(app, tile_pos(scene, defender.tile))       # the first click on an enemy picks the attack group
    if match.pending is d:
        assert scene.group == "attack"
        move_to(app, tile_pos(scene, defender.tile))
        shot(app, "passe_attack_preview.png")
        click(app, tile_pos(scene, defender.tile))
    assert match.answers[-1] == attack.key
    # the defender's side is asked, out of the attacker's sight: the screen is handed over
    steps(app, 2)
    d = match.pending
    assert d.kind == "defence" and d.side == defender.side and d.secret
    assert scene.handover_to == defender.side
    shot(app, "passe_handover_to_defender.png")
    press(app, pygame.K_RETURN)
    steps(app, 1)
    assert scene.handover_to is None and scene.viewer == defender.side
    assert scene.chooser is not None and {o.key for o in scene.chooser} == {"dodge", "absorb"}
    shot(app, "passe_defender_choice.png")
    dice_before = sum(1 for e in match.log if e.kind == "dice")
    click(app, button_at(app, "Absorb"))
    assert match.answers[-1] == "absorb"
    assert [e.data["defence"] for e in match.log if e.kind == "defence"] == ["absorb"]
    rolled = [e.data["purpose"] for e in match.log if e.kind == "dice"][dice_before:]
    assert rolled == ["attack", "absorb"]
    hurt = next(f for f in match.rules.figures(match.state, None) if f.id == defender.id)
    monitor = hurt.gauges[0]
    assert monitor.style == "boxes" and monitor.value < 10          # absorbing always costs a wound (5.7)
    assert sum(1 for b in monitor.boxes if b) == 10 - monitor.value
    # the attacker's activation goes on, back on the attacker's screen; the log says what the blow did
    steps(app, 3)
    assert match.pending.kind == "action" and match.pending.figure == attacker.id
    if scene.handover_to is not None:
        press(app, pygame.K_RETURN)
    move_to(app, tile_pos(scene, defender.tile))
    shot(app, "passe_after_absorb.png")
    damaged = [e for e in match.log if e.kind == "damaged"]
    assert [e.data["figure"] for e in damaged] == [defender.id]
    assert any(defender.name in line and str(damaged[0].data["amount"]) in line for line in scene.log_lines)
