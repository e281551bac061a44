"""What a player reads: every event, choice and chance in words of their language, nothing hidden under a list."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pygame
import pytest

from game.ai import make_player
from game.engine.save import new_match, save_match
from game.rules import names as rule_names
from game.ui.battle import BattleScene
from game.ui.combatlog import describe, sentence
from game.engine import events as ev
from game.engine.protocol import Gauge, Marker
from game.rules import get as get_rules
from game.ui.hud import action_label, fmt_number, fmt_percent, gauge_label, marker_label
from game.ui.i18n import has, set_language, use_rules
from game.ui.scenes import LoadScene

from .driver import button_at, click, eisdrachen_match, first_figure_activated, press, ready, steps

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "ruined_town.tmx"
EMITTED = re.compile(r"""(?:\bev|\bEvent)\(\s*["']([a-z_]+)["']""")
OFFERED = re.compile(r'\bOption\(\s*f?"[^"]*",\s*"([a-z_]+)"')
POSED = re.compile(r'\bDecision\(\s*[^,()]+,\s*"([a-z_]+)"|\bsub = \{"kind": "([a-z_]+)"')


def module_sources():
    """Each registered module with its own source: a module's words are looked up in its own table."""
    for rid in rule_names():
        module = get_rules(rid)
        yield module, "\n".join(path.read_text() for path in module.folder.rglob("*.py"))


@pytest.fixture(autouse=True)
def module_words_restored():
    """Each test starts with the window's words alone, whatever module an earlier test played."""
    from game.ui import i18n
    saved = dict(i18n._module)
    i18n._module.clear()
    yield
    i18n._module.clear()
    i18n._module.update(saved)


def played(rules: str, seed: int):
    """A short battle between random players: the events and decisions a real game produces."""
    match = new_match(MAP, rules, seed, max_turns=3)
    players = {s: make_player("random", rules, seed * 7 + s) for s in match.rules.sides}
    while match.pending is not None:
        d = match.pending
        match.answer(match.ask(players[d.side]))
    return match


@pytest.fixture(scope="module")
def games():
    return {rules: [played(rules, seed) for seed in (1, 2)] for rules in rule_names()}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_event_kind_a_rule_module_emits_has_a_sentence(lang):
    set_language(lang)
    kinds, missing = set(), []
    for module, source in module_sources():
        use_rules(module)
        found = set(EMITTED.findall(source))
        kinds |= found
        missing += sorted(f"{module.id}: {k}" for k in found - {"dice"}
                          if not any(has(f"log.{k}{v}") for v in ("", ".b", ".c")))
    assert len(kinds) > 40
    assert missing == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_action_and_decision_kind_a_rule_module_offers_has_a_label(lang):
    set_language(lang)
    actions, kinds, unlabelled = set(), set(), []
    for module, source in module_sources():
        use_rules(module)
        offered = set(OFFERED.findall(source))
        posed = {a or b for a, b in POSED.findall(source)}
        actions |= offered
        kinds |= posed
        unlabelled += sorted(f"{module.id}: action {a}" for a in offered if not has(f"action.{a}"))
        unlabelled += sorted(f"{module.id}: kind {k}" for k in posed if not has(f"kind.{k}"))
    assert len(actions) > 40 and len(kinds) > 15
    assert unlabelled == []


ROLLED = re.compile(r'''(?:\.roll|\.test|\.passes|_dice_event|\bev\.dice)\(\s*[^,()"]+,\s*(?:[^,()"]+(?:\([^()]*\))?[^,()"]*,\s*)?'''
                    r'''"([a-z_]+)"|["']purpose["']\s*:\s*["']([a-z_]+)["']''')
ACTION_TUPLE = re.compile(r'^[A-Z_]*(?:ACTIONS|ATTACKS) = \(([^)]*)\)', re.M)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_dice_purpose_and_listed_action_of_a_rule_module_has_words(lang):
    """Rolls a short game may never make (a critical wound's location, a sixth fatigue point) still read."""
    set_language(lang)
    purposes, actions, wordless = set(), set(), []
    for module, source in module_sources():
        use_rules(module)
        rolled = {a or b for a, b in ROLLED.findall(source)}
        listed = {a for group in ACTION_TUPLE.findall(source) for a in re.findall(r'"([a-z_]+)"', group)}
        purposes |= rolled
        actions |= listed
        wordless += sorted(f"{module.id}: purpose {p}" for p in rolled if not has(f"purpose.{p}"))
        wordless += sorted(f"{module.id}: action {a}" for a in listed if not has(f"action.{a}"))
    assert {"severity", "critical_location", "first_speaker_roll_off", "trap", "wound"} <= purposes
    assert "throw" in actions
    assert wordless == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_played_game_reads_as_sentences_with_every_dice_purpose_named(games, lang):
    set_language(lang)
    for matches in games.values():
        for match in matches:
            use_rules(match.rules)
            names = {f.id: f.name for f in match.rules.figures(match.state, None)}
            for e in match.log:
                if e.kind == "dice":
                    assert has(f"purpose.{e.data['purpose']}"), e.data
                else:
                    assert sentence(e.kind, e.data) is not None, (e.kind, e.data)
                line = describe(e, names)
                assert "_" not in line and "{" not in line, line


def test_a_yes_no_fact_reads_as_a_word_of_the_sentence():
    set_language("fr")
    use_rules(get_rules("eisdrachen"))
    token = ev.revealed("t1", (3, 4), False, "4.6", figure="a1", owner=1)
    assert describe(token, {"a1": "Vétéran"}) == "Vétéran révèle un jeton en (3,4) : leurre [§4.6]"
    use_rules(get_rules("kolaps"))
    roll = type("E", (), {"kind": "roll_result", "rule": "5.22", "data": {
        "figure": "a1", "purpose": "action", "success": True, "critical_success": False,
        "critical_failure": False, "ones": 0}})
    assert describe(roll, {"a1": "Vétéran"}) == "Vétéran : jet d'action — réussite [§5.22]"
    bleed = ev.dice("a1", [6], "hemorrhage", "5.23", needed="1-2")
    assert describe(bleed, {"a1": "Vétéran"}) == "Vétéran lance hémorragie : 6 (d6) - il faut 1-2 [§5.23]"
    first = type("E", (), {"kind": "morale", "rule": "5.21", "data": {
        "figure": "a1", "before": None, "after": 5, "cause": "initial"}})
    assert describe(first, {"a1": "Vétéran"}) == "Vétéran : moral 5 (initial) [§5.21]"


def test_odds_read_as_words_and_percentages_and_rare_outcomes_are_summed(app):
    set_language("fr")
    match = new_match(MAP, "kolaps", 7)
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    for _ in range(60):         # on to a character with an enemy in its sights
        d = match.pending
        if d.kind == "action" and any(o.action in ("shoot", "burst") for o in d.options):
            break
        end = scene.end_option(d) if d.kind == "action" else None
        bold = d.options[-1] if d.kind == "bid" else d.options[0]     # high bids: offensive characters shoot
        answer(app, scene, (end or bold).key)
    shots = [o for o in match.pending.options if o.action in ("shoot", "burst")]
    assert shots
    for o in shots:
        odds = match.rules.odds(match.state, o)
        lines = scene.outcome_lines(odds.outcomes) + scene.detail_lines(odds.details)
        assert lines and not any("_" in line for line in lines), lines
        assert all(" 0,0 %" not in line for line in lines)
        assert any(line.endswith(" %") and "," in line for line in lines)
    rare = scene.outcome_lines({"hit": Fraction(1, 3), "critical": Fraction(1, 10000),
                                "critical_failure": Fraction(2, 3) - Fraction(1, 10000)})
    assert rare == ["touché  33,3 %", "échec critique  66,7 %", "autres issues (< 0,05 % chacune)  0,0 %"]
    assert fmt_percent(Fraction(1, 8)) == "12,5 %" and fmt_number(2.5) == "2,5" and fmt_number(3.0) == "3"


def test_a_narrow_action_bar_still_names_every_action(app):
    match = eisdrachen_match(seed=5)
    scene = first_figure_activated(app, match)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600)))
    steps(app, 2)
    d = match.pending
    bar = [b for b in app.ui.buttons if b.rect.top >= scene.bar_rect.top]
    wanted = [action_label(a) for a in scene.bar_actions(d)]
    assert len(scene.bar_actions(d)) >= 6
    assert [b.label for b in bar][:len(wanted)] == wanted
    assert all(b.rect.right <= 800 for b in bar)


def test_key_0_answers_the_tenth_choice_of_a_list(app):
    match = eisdrachen_match(seed=8, width=16, height=10)
    scene = first_figure_activated(app, match)
    click(app, button_at(app, "Trap tokens"))
    assert match.pending.kind == "trap_token" and len(scene.chooser) >= 10
    tenth = scene.chooser[9]
    press(app, pygame.K_0)
    assert match.answers[-1] == tenth.key


def kolaps_scene(app, lang="en"):
    set_language(lang)
    match = new_match(MAP, "kolaps", 7)
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    return match, scene


def answer(app, scene, key):
    scene.answer(scene.match.pending.option(key))
    steps(app, 2)
    if scene.handover_to is not None:
        scene.finish_handover()
        steps(app, 1)


def test_the_auction_shows_the_standing_bid_and_each_side_eligible_count(app):
    match, scene = kolaps_scene(app)
    answer(app, scene, "begin")
    first = match.pending.side
    assert scene.decision_note(match.pending).startswith("Opening bid")
    answer(app, scene, "bid:2")
    note = scene.decision_note(match.pending)
    assert "Standing bid: 2" in note and scene.decision_note(match.pending).count("eligible: 5 blue, 5 red") == 1
    assert f"({'Blue' if first == 0 else 'Red'} side)" in note
    labels = [scene.option_label(o) for o in match.pending.options]
    assert "Stop at 2" in labels and "Bid 3" in labels


def test_offensive_picks_name_the_character_and_its_morale_and_who_starts_names_a_side(app):
    match, scene = kolaps_scene(app)
    answer(app, scene, "begin")
    answer(app, scene, "bid:2")
    answer(app, scene, "bid:0")
    d = match.pending
    assert d.kind == "offensive"
    chars = {c.id: c for c in match.state.chars.values()}
    for o in d.options:
        assert scene.option_label(o) == f"{scene.names[o.figure]} (morale {chars[o.figure].morale})"
    while match.pending.kind == "offensive":
        answer(app, scene, match.pending.options[0].key)
    assert match.pending.kind == "first_player"
    assert sorted(scene.option_label(o) for o in match.pending.options) == ["Blue side starts", "Red side starts"]


def test_same_named_figures_of_both_sides_are_told_apart_and_states_read_in_the_rules_words(app):
    match, scene = kolaps_scene(app, "fr")
    assert scene.names["A1"] == "Avatar 1 (bleu)" and scene.names["B1"] == "Avatar 1 (rouge)"
    assert marker_label(Marker("morale", value=4)) == "moral 4" and marker_label(Marker("offensive")) == "offensif"
    set_language("en")
    assert marker_label(Marker("morale", value=4)) == "morale 4" and marker_label(Marker("prone")) == "prone"
    assert gauge_label(Gauge("wound_boxes", 11, 13)) == "Free wound boxes 11/13"
    use_rules(get_rules("eisdrachen"))
    assert gauge_label(Gauge("pv", 3, 5)) == "Health 3/5"


def test_a_loaded_hotseat_game_with_hidden_information_opens_on_the_hand_over(app, home, tmp_path):
    match = new_match(MAP, "eisdrachen", 8)
    match.answer(match.pending.options[0].key)
    match.answer(next(o.key for o in match.pending.options if o.figure.endswith("2")))    # the sniper lays traps
    match.answer("trap_open")
    while match.pending.kind in ("trap_token", "trap_real", "flee"):
        match.answer(match.pending.options[0].key)
    path = tmp_path / "secret.json"
    save_match(match, path)
    load = LoadScene(app)
    app.push(load)
    steps(app, 1)
    load.load(str(path))
    steps(app, 2)
    scene = app.scene
    assert isinstance(scene, BattleScene) and scene.handover_to == match.pending.side
    assert [b.label for b in app.ui.buttons] == ["I am ready"]


def test_the_minimap_of_a_small_window_leaves_most_of_the_map_in_view(app):
    match = eisdrachen_match(seed=3, width=80, height=60)
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600)))
    steps(app, 3)
    ready(app)
    scene.view.zoom = 2.0
    scene.view.pan_pixels(0, 0)
    steps(app, 1)
    r = scene.minimap_rect
    assert r is not None and r.w <= scene.map_rect.w // 4 and r.h <= scene.map_rect.h // 3


def test_a_run_step_by_step_reads_as_one_line_from_start_to_end(app):
    match, scene = kolaps_scene(app)
    for _ in range(40):
        d = match.pending
        if d.kind == "action" and any(o.action == "run" for o in d.options):
            break
        answer(app, scene, d.options[0].key)
    d = match.pending
    run = max((o for o in d.options if o.action == "run"), key=lambda o: len(o.path))
    start = scene.figure(d.figure).tile
    answer(app, scene, run.key)
    steps_logged = [e for e in match.log if e.kind == "moved" and e.data["figure"] == d.figure]
    assert len(steps_logged) > 1
    moves = [line for line in scene.log_lines if line.startswith(f"{scene.names[d.figure]} moves")]
    assert moves == [f"{scene.names[d.figure]} moves ({start[0]},{start[1]}) -> "
                     f"({run.tile[0]},{run.tile[1]}) [§5.3]"]


def test_a_roll_off_between_the_sides_names_each_side_and_its_die():
    set_language("fr")
    use_rules(get_rules("kolaps"))
    roll_off = ev.dice(None, [3, 5], "first_speaker_roll_off", "3.1")
    assert describe(roll_off, {}) == \
        "Chaque camp lance qui parle en premier : Camp bleu 3, Camp rouge 5 (d6) [§3.1]"


def test_emplacement_answers_and_log_name_the_emplacement_and_its_tile_not_its_id(app):
    from game.engine.battlefield import MapObject
    from game.engine.match import Match
    from game.rules import get as get_rules

    from .driver import field

    set_language("fr")
    rules = get_rules("eisdrachen")
    bf = field(14, 10)
    bf.objects.append(MapObject("emplacement", "Tourelle", tuple((0, y) for y in range(1, 9)),
                                {"weapon": "machine_gun"}))
    match = Match(bf, rules, rules.default_armies(bf), 5)
    match.answer("roll")
    match.answer(next(o.key for o in match.pending.options if o.action == "activate"))
    scene = BattleScene(app, match, "hotseat")
    app.push(scene)
    steps(app, 2)
    d = match.pending
    used = [o for o in d.options if o.action in ("use_fire", "sabotage") and o.value]
    assert {o.action for o in used} == {"use_fire", "sabotage"}
    labels = [scene.option_label(o) for o in used]
    assert all("Tourelle (0,1)" in label and str(used[0].value) not in label.split() for label in labels), labels
    scene.answer(next(o for o in used if o.action == "sabotage"))
    steps(app, 2)
    assert any("Tourelle (0,1)" in line for line in scene.log_lines[-3:]), scene.log_lines[-3:]


RAW_KEY = re.compile(r"\b(?:action|log|kind|purpose|event|reason|opt|info|term|phase|marker|odds|hud|tip|status)"
                     r"\.[a-z_]|[{}]")
WORDED = ("action.", "kind.", "purpose.", "event.", "reason.", "phase.", "opt.")


class Missed(dict):
    """A language table that notes every key the window asked for and did not find."""

    def __init__(self, table, missed):
        super().__init__(table)
        self.missed = missed

    def get(self, key, default=None):
        if key not in self and key.startswith(WORDED):
            self.missed.add(key)
        return super().get(key, default)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("rules", rule_names())
def test_games_between_ais_show_no_raw_key_in_log_buttons_or_prompts(app, monkeypatch, rules, lang):
    """Every registered module, played in the hot-seat window by random players: what the window draws
    (log, buttons, notes, choice labels) is words, and no wording falls back to a bare key."""
    from game.ui import i18n

    set_language(lang)
    missed: set[str] = set()
    for name in ("fr", "en"):
        monkeypatch.setitem(i18n._tables, name, Missed(i18n._table(name), missed))
    drawn: list[str] = []
    render = app.ui.render
    monkeypatch.setattr(app.ui, "render", lambda text, *a, **k: (drawn.append(text), render(text, *a, **k))[1])
    answers = lines = 0
    for seed in range(3, 15):       # two games at least, more where random play ends a battle early
        if seed > 4 and answers > 40 and lines > 40:
            break
        match = new_match(MAP, rules, seed, max_turns=2)
        players = {s: make_player("random", rules, seed * 5 + s) for s in match.rules.sides}
        scene = BattleScene(app, match, "hotseat")
        app.scenes = [scene]
        steps(app, 2)
        for _ in range(300):
            if scene.handover_to is not None:
                scene.finish_handover()
                steps(app, 1)
            d = match.pending
            if d is None:
                break
            drawn.extend(scene.option_label(o) for o in d.options)
            drawn.append(scene.decision_note(d))
            scene.answer(d.option(match.ask(players[d.side])))
            steps(app, 1)
        drawn.extend(scene.log_lines)
        answers, lines = answers + len(match.answers), lines + len(scene.log_lines)
    assert answers > 40 and lines > 40
    raw = sorted({t for t in drawn if RAW_KEY.search(t)})
    assert raw == [] and sorted(missed) == []
