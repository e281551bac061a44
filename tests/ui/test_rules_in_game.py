"""The rules explained where a newcomer meets them: a primer from New battle and F1, the glossary
behind the terms of the log and the tooltips, notable events announced on screen, and the path
preview warning of the hidden tokens a move would set off."""
from __future__ import annotations

import pygame

from game.engine import events as ev
from game.engine.tokens import Token
from game.rules import get as get_rules
from game.ui import glossary
from game.ui.battle import BattleScene
from game.ui.primer import PrimerScene
from game.ui.scenes import MenuScene, SetupScene

from .driver import button_at, click, eisdrachen_match, first_figure_activated, move_to, press, ready, shot, steps, tile_pos


def texts(app) -> list[str]:
    return [d.text for d in app.ui.drawn if d.kind == "text"]


def test_new_battle_opens_the_chosen_rule_system_s_primer_and_back_returns(app, home):
    app.push(MenuScene(app))
    app.push(SetupScene(app))
    setup = app.scene
    steps(app, 3)
    click(app, button_at(app, "KOLAPS"))
    click(app, button_at(app, "How to play"))
    primer = app.scene
    assert isinstance(primer, PrimerScene) and primer.rules.id == "kolaps"
    shown = " ".join(texts(app))
    assert "KOLAPS: Ground Zero: how to play" in shown and "Goal" in shown and "What kills" in shown
    assert "offensive mode" in shown        # the module's own primer, in the player's language
    shot(app, "primer_kolaps.png")
    click(app, button_at(app, "Glossary"))
    assert texts(app)[2:4] == ["Glossary", "ambush"]      # by headword, from the top
    assert ("more fear than harm", 20) in [(text, size) for text, size, _, _ in primer.lines(600)]
    click(app, button_at(app, "Back"))
    assert app.scene is setup


def test_a_rules_term_in_the_log_shows_its_meaning_and_a_click_opens_the_glossary_there(app):
    match = eisdrachen_match(seed=4, width=12, height=8)        # close enough to shoot at once
    scene = first_figure_activated(app, match)
    shooter = match.pending.figure
    shoot = next(o for o in match.pending.options if o.action == "shoot")
    scene.answer(shoot)         # the target gains vengeance: a rules term in the log
    steps(app, 2)
    spots = [b for b in app.ui.buttons if not b.drawn and "vengeance" in b.tooltip]
    assert spots, scene.log_lines[-4:]
    move_to(app, spots[-1].rect.center)
    notes = [d.text for d in app.ui.drawn if d.layer == "tooltip" and d.kind == "text"]
    assert any(t.startswith("vengeance: Each time a figure is shot at") for t in notes), notes
    shot(app, "log_glossary.png")
    first = glossary.spans(spots[-1].tooltip)[0][2]       # the line's first term: its rank, or vengeance
    click(app, spots[-1].rect.center)
    opened = app.scene
    assert isinstance(opened, PrimerScene) and opened.tab == "glossary" and opened.focus == first.id
    steps(app, 1)
    assert first.headword in texts(app)         # the glossary scrolled to it
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene and match.answers[-1] == shoot.key and shooter


def test_a_button_s_tooltip_waits_for_the_pointer_and_says_what_its_terms_mean(app):
    match = eisdrachen_match(seed=4)
    scene = first_figure_activated(app, match)
    hide = next(b for b in app.ui.buttons if b.label == "Dig in")
    move_to(app, hide.rect.center)
    shown = [d.text for d in app.ui.drawn if d.layer == "tooltip"]
    assert any(t.startswith("Dig in: Dig in: shooters") for t in shown)
    assert any(t.startswith("dug in: A figure that dug in halves") for t in shown), shown
    press(app, pygame.K_LEFT)       # a key: what the pointer rests on may have changed under it
    assert not [d for d in app.ui.drawn if d.layer == "tooltip"]
    move_to(app, (hide.rect.centerx + 1, hide.rect.centery))
    assert [d for d in app.ui.drawn if d.layer == "tooltip"] and scene


def test_a_move_near_a_hidden_trap_is_marked_and_the_trap_going_off_is_announced_to_both_players(app):
    match = eisdrachen_match(seed=4)
    scene = first_figure_activated(app, match)
    d = match.pending
    mover = next(f for f in match.rules.figures(match.state, None) if f.id == d.figure)
    moves = sorted((o for o in d.options if o.action == "move" and o.path), key=lambda o: -len(o.path))
    way = moves[0]
    x, y = way.path[len(way.path) // 2]
    trap = (x, y + 1) if (x, y + 1) != tuple(mover.tile) else (x, y - 1)
    match.state.tokens.append(Token("t9", trap, 1 - d.side, True))      # the enemy's trap, unknown here
    scene.version += 1
    click(app, button_at(app, "Move"))
    scene.view.centre = (way.tile[0] + 0.5, way.tile[1] + 0.5)
    scene.view.pan_pixels(0, 0)
    steps(app, 1)
    move_to(app, tile_pos(scene, way.tile))
    assert [t.id for t in scene.tokens_in_reach(way.path)] == ["t9"]
    assert "Passes within reach of 1 face-down token(s)" in texts(app)
    assert [t.kind for t in scene.tokens] == ["unknown"] and scene.tokens[0].radius == 2
    shot(app, "trap_warning.png")
    click(app, tile_pos(scene, way.tile))
    assert any(e.kind == "trap" for e in match.log)
    steps(app, 1)
    announced = [t for t in texts(app) if t.startswith("A hidden trap goes off under")]
    assert announced, scene.log_lines[-5:]
    shot(app, "trap_notice.png")
    while match.pending.side == d.side:
        press(app, pygame.K_e)
    steps(app, 2)
    click(app, button_at(app, "I am ready"))        # the other player sees it too when it takes the screen
    assert [t for t in texts(app) if t.startswith("A hidden trap goes off under")] == announced


def test_an_event_only_one_side_may_see_is_announced_to_that_side_alone(app):
    match = eisdrachen_match(seed=4)
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    ready(app)
    secret = ev.Event("trap", {"figure": "a1", "kind": "emp"}, visible_to=1)
    assert match.rules.notice(secret) is not None
    scene.viewer = 0
    scene.announce([e for e in [secret] if e.seen_by(scene.viewer)])
    scene.announce([ev.Event("trap", {"figure": "a1", "kind": "emp"})])
    scene.viewer = 0
    steps(app, 1)
    shown = [t for t in texts(app) if t.startswith("A hidden trap goes off")]
    assert len(shown) == 1
    scene.notices.append({"text": "only red knows", "side": 1, "visible_to": 1, "shown": {}})
    steps(app, 1)
    assert "only red knows" not in texts(app)
    scene.viewer = 1            # what red would see when it takes the screen
    assert [n["text"] for n in scene.live_notices()][-1] == "only red knows"


def test_every_module_says_which_of_its_events_are_notable_in_its_own_words():
    from game.ui.i18n import has, set_language, use_rules

    cases = {"eisdrachen": ev.Event("trap", {"figure": "a1", "kind": "emp"}),
             "kolaps": ev.Event("morale_state", {"figure": "A4", "state": "mutinous", "controller": 1}),
             "mordgrave": ev.Event("horrible", {"figure": "s0n1"}),
             "passe_d_armes": ev.Event("out", {"figure": "a1", "puissance": 2}),
             "voyageurs": ev.attack("a1", "b1", "melee", True, critical=True)}
    for rid, event in cases.items():
        rules = get_rules(rid)
        words = rules.notice(event)
        assert words is not None, rid
        use_rules(rules)
        for lang in ("fr", "en"):
            set_language(lang)
            assert has(words.key), (rid, lang, words.key)
        assert rules.notice(ev.Event("activation_end", {"figure": "a1"})) is None
    set_language("en")
