"""A scripted hot-seat battle driven through the real loop with clicks and keys."""
from __future__ import annotations

import json

import pygame
import pytest

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.ui.battle import BattleScene
from game.ui.combatlog import describe
from game.ui.settings import autosave_path

from .driver import ready, button_at, click, eisdrachen_match, move_to, press, shot, steps, tile_pos
from tests.fake_rules import FakeRules


def start(app, match, mode="hotseat", human_side=0):
    scene = BattleScene(app, match, mode, human_side)
    app.push(scene)
    steps(app, 2)
    if mode == "hotseat":
        ready(app)          # the first player takes the screen
    return scene


def test_hotseat_select_move_shoot_and_end_turn_with_clicks_and_keys(app, home):
    match = eisdrachen_match(seed=5, width=14, height=10)
    scene = start(app, match)
    rules = match.rules
    assert match.pending.kind == "initiative"
    click(app, button_at(app, "Roll"))
    assert match.pending.kind == "activate"
    side = match.pending.side
    mine = [f for f in rules.figures(match.state, side) if f.alive]
    shooter = next(f for f in mine if f.name == "Fusilier")
    click(app, tile_pos(scene, shooter.tile))
    d = match.pending
    assert d.kind == "action" and d.figure == shooter.id
    # hover a reachable tile: the path and its length in pas and cm are shown
    move = min((o for o in d.options if o.action == "move" and o.tile[1] == shooter.tile[1]),
               key=lambda o: -abs(o.tile[0] - shooter.tile[0]))
    move_to(app, tile_pos(scene, move.tile))
    assert scene.hover_tile == move.tile
    assert scene.candidates(d, move.tile) == [move]
    shot(app, "hotseat_move_preview.png")
    click(app, tile_pos(scene, move.tile))
    moved = next(f for f in rules.figures(match.state, None) if f.id == shooter.id)
    assert tuple(moved.tile) == move.tile
    assert any(e.kind == "moved" for e in match.log)
    # choose the shoot group by its hotkey, hover an enemy: LOS, cover and exact odds are there
    d = match.pending
    groups = scene.bar_actions(d)
    assert "shoot" in groups, groups
    press(app, pygame.K_1 + groups.index("shoot"))
    assert scene.group == "shoot"
    target_opt = d.options[[o.action for o in d.options].index("shoot")]
    target = next(f for f in rules.figures(match.state, side) if f.id == target_opt.target)
    move_to(app, tile_pos(scene, target.tile))
    odds = scene.odds(target_opt)
    assert odds is not None and sum(odds.outcomes.values()) == 1
    shot(app, "hotseat_shoot_preview.png")
    dice_before = sum(1 for e in match.log if e.kind == "dice")
    click(app, tile_pos(scene, target.tile))
    assert match.answers[-1] == target_opt.key
    assert sum(1 for e in match.log if e.kind == "dice") > dice_before
    assert any("shoots" in line for line in scene.log_lines)
    # the rest of the turn: each side activates a figure by clicking it and ends it with the key
    turn = rules.turn(match.state)
    for _ in range(40):
        if rules.turn(match.state) != turn or match.over:
            break
        d = match.pending
        if d.kind == "activate":
            fig = next(f for f in rules.figures(match.state, d.side) if f.id == d.options[0].figure)
            click(app, tile_pos(scene, fig.tile))
        elif d.kind == "action":
            press(app, pygame.K_e)
        else:
            click(app, button_at(app, scene.option_label(d.options[0])))
    assert rules.turn(match.state) == turn + 1
    saved = json.loads(autosave_path().read_text())
    assert saved["answers"] == match.answers[:len(saved["answers"])]
    assert saved["turn"] >= turn
    shot(app, "hotseat_next_turn.png")


def test_undo_takes_back_a_move_but_not_a_roll(app):
    match = eisdrachen_match(seed=2, width=14, height=10)
    scene = start(app, match)
    click(app, button_at(app, "Roll"))
    ready(app)
    d = match.pending
    fig = next(f for f in match.rules.figures(match.state, d.side) if f.id == d.options[0].figure)
    click(app, tile_pos(scene, fig.tile))
    move = next(o for o in match.pending.options if o.action == "move")
    click(app, tile_pos(scene, move.tile))
    n = len(match.answers)
    press(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert len(match.answers) == n - 1
    press(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert len(match.answers) == n - 1, "only the last answer may be undone"
    other = [o for o in match.pending.options if o.action == "move" and o.key != move.key][-1]
    click(app, tile_pos(scene, other.tile))
    steps(app, 1)
    assert scene.log_lines == [describe(e, scene.names) for e in match.events_for(scene.viewer)]
    assert any(f"{other.tile[0]},{other.tile[1]}" in line for line in scene.log_lines[-2:])


def fake_match(seed=1):
    bf = Battlefield.open_ground(12, 8)
    bf.spawn = {0: [(1, 2), (1, 5)], 1: [(10, 2), (10, 5)]}
    rules = FakeRules()
    return Match(bf, rules, rules.default_armies(bf), seed)


def test_handover_hides_the_battlefield_when_a_secret_decision_changes_hands_and_ctrl_s_still_saves(app):
    match = fake_match()
    scene = start(app, match)
    assert match.pending.kind == "bid" and match.pending.secret
    assert scene.handover_to is None and scene.viewer == 0
    click(app, button_at(app, "Bid 2"))
    assert match.pending.side == 1
    steps(app, 2)
    assert scene.handover_to == 1
    path = shot(app, "handover.png")
    picture = pygame.image.load(str(path))
    # nothing of the battlefield is drawn: no figure colour appears anywhere below the top stripe
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(0, 1280, 8) for y in range(60, 720, 8)}
    assert (70, 130, 230) not in colours and (220, 70, 60) not in colours
    assert scene.log_lines == [] or all("2" not in line for line in scene.log_lines if "Bid" in line)
    press(app, pygame.K_s, pygame.KMOD_LCTRL)      # saving reveals nothing, so it works here too
    assert scene.handover_to == 1 and scene.save_path is not None and scene.save_path.is_file()
    assert json.loads(scene.save_path.read_text())["answers"] == match.answers
    click(app, button_at(app, "I am ready"))
    assert scene.handover_to is None and scene.viewer == 1
    steps(app, 1)
    # side 1 sees its own token face up and the enemy one face down; side 0's bid is not in its log
    kinds = {t.owner: t.kind for t in scene.tokens}
    assert kinds == {1: "real", 0: "unknown"}
    assert not any(e.kind == "bid" and e.data["side"] == 0 for e in match.events_for(scene.viewer))
    assert not any("bid" in line.lower() and "side blue" in line.lower() for line in scene.log_lines)


def test_unknown_decision_kind_gets_a_generic_chooser(app):
    match = fake_match()
    scene = start(app, match)
    click(app, button_at(app, "Bid 1"))
    steps(app, 2)
    if scene.handover_to is not None:
        click(app, button_at(app, "I am ready"))
    click(app, button_at(app, "Bid 0"))
    steps(app, 2)
    if scene.handover_to is not None:
        click(app, button_at(app, "I am ready"))
    assert match.pending.kind == "activate"
    fig = next(f for f in match.rules.figures(match.state, None) if f.id == match.pending.options[0].figure)
    click(app, tile_pos(scene, fig.tile))
    assert match.pending.kind == "action"
    click(app, button_at(app, "omen"))
    assert match.pending.kind == "omen"
    steps(app, 1)
    labels = [b.label for b in app.ui.buttons]
    assert any("left" in label for label in labels), labels
    press(app, pygame.K_2)
    assert match.answers[-1] == "omen:right"


@pytest.mark.parametrize("lang,word", [("fr", "Tour"), ("en", "Turn")])
def test_turn_indicator_speaks_the_chosen_language(app, lang, word):
    from game.rules import get as get_rules
    from game.ui.i18n import set_language, tr, use_rules
    set_language(lang)
    use_rules(get_rules("eisdrachen"))
    assert tr("hud.turn", n=1, max=12).startswith(word)
    assert tr("action.melee") == ("Corps à corps" if lang == "fr" else "Melee")
    set_language("en")


def test_wheel_zooms_and_arrows_and_drag_pan_the_map(app):
    match = eisdrachen_match(seed=3, width=40, height=30)
    scene = start(app, match)
    view = scene.view
    zoom = view.zoom
    centre = (scene.map_rect.x + 150, scene.map_rect.y + 120)   # clear of the initiative chooser
    move_to(app, centre)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.step()
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.step()
    assert view.zoom > zoom
    before = view.centre
    press(app, pygame.K_RIGHT)
    assert view.centre[0] > before[0]
    before = view.centre
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(centre[0] + 60, centre[1] + 40), rel=(60, 40),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(centre[0] + 60, centre[1] + 40), button=1))
    answers = len(match.answers)
    app.step()
    assert view.centre[0] < before[0] and view.centre[1] < before[1]
    assert len(match.answers) == answers, "a drag is not a click"
    shot(app, "zoomed.png")


def test_a_click_on_nothing_does_nothing(app):
    match = eisdrachen_match(seed=3)
    scene = start(app, match)
    click(app, button_at(app, "Roll"))
    n = len(match.answers)
    click(app, (scene.map_rect.x + 2, scene.map_rect.bottom - 2))
    click(app, (5, scene.map_rect.bottom + 30))
    assert len(match.answers) == n


def test_a_hidden_figure_never_shows_on_the_enemy_screen_nor_in_its_log(app):
    from game.rules import get as get_rules
    from .driver import field
    rules = get_rules("eisdrachen")
    bf = field(22, 10)
    match = Match(bf, rules, rules.default_armies(bf), 8)
    hider = rules.figures(match.state, 0)[0]
    bf.hiding[hider.tile[1], hider.tile[0]] = True
    scene = start(app, match)
    click(app, button_at(app, "Roll"))
    ready(app)
    if match.pending.side != 0:                     # let side 1 activate one figure first
        d = match.pending
        fig = next(f for f in rules.figures(match.state, 1) if f.id == d.options[0].figure)
        click(app, tile_pos(scene, fig.tile))
        press(app, pygame.K_e)
        ready(app)
    sneaky = next(f for f in rules.figures(match.state, 0) if f.id == hider.id)
    click(app, tile_pos(scene, sneaky.tile))
    assert match.pending.figure == sneaky.id
    click(app, button_at(app, "Hide"))
    assert next(f for f in rules.figures(match.state, 0) if f.id == sneaky.id).marked("hidden")
    while not match.over and match.pending.side == 0:
        steps(app, 1)
        if scene.handover_to is None and match.pending.side == 0:
            press(app, pygame.K_e)
    steps(app, 2)
    assert scene.handover_to == 1
    click(app, button_at(app, "I am ready"))
    steps(app, 1)
    assert scene.viewer == 1
    assert sneaky.id not in {f.id for f in scene.figs}
    secret = [describe(e, scene.names) for e in match.log if e.visible_to == 0]
    assert secret, "the module reports the hiding to its owner only"
    hiding = next(line for line in secret if "hidden" in line)
    assert hiding not in scene.log_lines
    assert scene.log_lines == [describe(e, scene.names) for e in match.log if e.seen_by(1)]
    shot(app, "hidden_from_red.png")


def test_the_next_player_cannot_undo_the_previous_players_answer(app):
    match = fake_match()
    scene = start(app, match)
    click(app, button_at(app, "Bid 1"))
    steps(app, 2)
    click(app, button_at(app, "I am ready"))
    assert match.pending.side == 1 and match.can_undo
    assert not scene.can_undo()
    press(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert match.answers == ["bid:1"]


def test_help_opens_the_rules_then_lists_the_bound_keys_and_escape_returns_to_the_battle(app):
    from game.ui.primer import PrimerScene

    app.settings.keys["end"] = "f"
    scene = start(app, eisdrachen_match(seed=4))
    click(app, button_at(app, "Help"))
    primer = app.scene
    assert isinstance(primer, PrimerScene) and primer.tab == "rules"
    click(app, button_at(app, "Controls"))
    texts = [d.text for d in app.ui.drawn if d.kind == "text"]
    shot(app, "help.png")
    assert any("F: end the activation" in t for t in texts), texts
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene
    press(app, pygame.K_F1)
    assert isinstance(app.scene, PrimerScene)
    press(app, pygame.K_F1)
    assert app.scene is scene


def test_trap_tokens_laid_in_secret_show_only_as_unknown_to_the_enemy(app):
    match = eisdrachen_match(seed=8, width=16, height=10)
    scene = start(app, match)
    click(app, button_at(app, "Roll"))
    ready(app)
    d = match.pending
    layer = d.side
    fig = next(f for f in match.rules.figures(match.state, layer) if f.id == d.options[0].figure)
    click(app, tile_pos(scene, fig.tile))
    click(app, button_at(app, "Trap tokens"))
    while match.pending.kind in ("trap_token", "trap_real", "flee"):
        d = match.pending
        if d.kind == "flee":    # a choice that moves a figure is made on the map; its key lists it too
            assert not scene.chooser and scene.group == "flee"
            press(app, pygame.K_1)
        assert scene.chooser, "every map choice also has a list"
        assert not any(scene.chooser_box.collidepoint(tile_pos(scene, o.tile)) for o in d.options), \
            "the list leaves the map choices it lists in view"
        click(app, tile_pos(scene, d.options[-1].tile))
    assert {t.kind for t in scene.tokens} == {"real", "decoy"}
    while match.pending.side == layer:
        press(app, pygame.K_e)
    steps(app, 2)
    assert scene.handover_to == 1 - layer
    click(app, button_at(app, "I am ready"))
    steps(app, 1)
    assert len(scene.tokens) == 3 and {t.kind for t in scene.tokens} == {"unknown"}
    real = [describe(e, scene.names) for e in match.log if e.kind == "trap_real"]
    assert real and not set(real) & set(scene.log_lines)
    shot(app, "tokens_seen_by_the_enemy.png")


def test_a_click_on_the_minimap_moves_the_view_there(app):
    match = eisdrachen_match(seed=3, width=80, height=60)
    scene = start(app, match)
    scene.view.zoom = 2.0
    scene.view.centre = (10, 10)
    scene.view.pan_pixels(0, 0)
    steps(app, 1)
    r = scene.minimap_rect
    assert r is not None
    click(app, (r.right - 3, r.bottom - 3))
    assert scene.view.centre[0] > 40 and scene.view.centre[1] > 30
    assert match.answers == []
    shot(app, "minimap.png")
