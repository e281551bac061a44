"""The turn of rules/mordgrave.md 3 on the step stack: group activation inside a Leader phase, the troops
phases, the end of turn and of the battle; what the window is shown (bubbles, markers, panels, words);
the invariants; and that Mordgrave keeps no secrets."""
from __future__ import annotations

import random

from game.ai.random_player import RandomPlayer
from game.engine.battlefield import Battlefield, Door, MapObject
from game.engine.events import CORE
from game.engine.match import Match
from game.engine.protocol import Army
from game.rules.mordgrave.state import data

from .mordgrave_helpers import RULES, answer, entry, keys, match_state, of


def bubble_scene():
    """A Chief with two henchmen in its bubble, a third outside; one enemy Chief in reach."""
    return match_state([entry("C", (5, 5), "chief", main="sword"), entry("H1", (6, 7), main="sword"),
                        entry("H2", (4, 7), main="sword"), entry("Far", (5, 12))],
                       [entry("E", (5, 9), "chief")])


def test_a_leader_phase_offers_the_leader_and_the_figures_of_its_bubble_only():
    st = bubble_scene()
    events = answer(st, "roll", [15])
    phase = of(events, "phase")[0].data
    assert (phase["leader"], phase["eligible"]) == ("C", ["H1", "H2"])
    assert keys(st) == ["activate:C", "activate:H1", "activate:H2", "pass"]
    overlay = RULES.overlays(st, 0)[0]
    assert (overlay.kind, overlay.side, overlay.label, overlay.figures) == ("bubble", 0, "overlay.bubble_chief",
                                                                            ("H1", "H2"))
    assert (5, 8) in overlay.tiles and (5, 9) not in overlay.tiles and len(overlay.tiles) == 29
    marks = {f.id: {m.key for m in f.markers} for f in RULES.figures(st, 1)}
    assert "commanded" in marks["H1"] and "commanded" not in marks["Far"] and "chief" in marks["C"]


def test_group_activation_moves_everyone_before_the_fights_for_outnumbering():
    st = bubble_scene()
    answer(st, "roll", [15])
    answer(st, "activate:H1")
    answer(st, "move:6,9")
    assert "switch" in keys(st)
    answer(st, "switch")
    answer(st, "activate:H2")
    answer(st, "move:4,9")
    assert RULES.pending(st).figure == "H2" and "fight:E" in keys(st)
    events = answer(st, "fight:E", [8, 12])
    melee = of(events, "melee")[0].data
    assert melee["scores"] == [8 + 2, 12]          # H1 in contact with E too: outnumbering
    assert melee["charge"] is True


def test_the_leader_counts_as_activated_even_when_its_phase_ends_at_once():
    st = bubble_scene()
    answer(st, "roll", [15])
    answer(st, "pass")
    assert st.figure("C").activated and st.figure("C").done
    assert not st.figure("H1").activated
    assert RULES.pending(st).side == 1


def test_figures_left_out_of_a_leader_phase_act_in_their_side_s_troops_phase():
    st = bubble_scene()
    answer(st, "roll", [15])
    answer(st, "pass")                       # C's phase: nobody else acts
    events = answer(st, "end")               # E's phase (alone)
    assert [(e.data["phase"], e.data["side"]) for e in of(events, "phase")] == [("troops", 0)]
    assert keys(st) == ["activate:H1", "activate:H2", "activate:Far", "pass"]


def test_the_end_of_the_turn_clears_activations_and_rolls_the_next_initiative():
    st = bubble_scene()
    answer(st, "roll", [15])
    answer(st, "pass")
    answer(st, "end")
    events = answer(st, "pass", [3])
    assert st.turn == 2 and st.initiative == 1
    assert not any(f.activated or f.done or f.actions for f in st.figures if f.side == 0)
    assert RULES.pending(st).figure == "E"          # turn 2 opens with the Leader phase of side 1
    assert [e.data["turn"] for e in of(events, "turn")] == [2] and of(events, "turn_end")


def test_the_winner_of_a_fight_follows_up_even_on_the_other_side_s_phase_and_ends_it_no_sooner():
    st = match_state([entry("A", (5, 5), "chief", main="sword")], [entry("B", (6, 5), "chief", main="sword")])
    answer(st, "roll", [15])
    answer(st, "stay")
    answer(st, "fight:B", [3, 14])           # B wins by 11 + 1: 12 > 6: Great difficulty for A
    assert len(st.figure("A").tokens) == 1
    assert RULES.pending(st).side == 1       # the activation of A is over: B's phase
    st2 = match_state([entry("A", (5, 5), "chief", main="sword")], [entry("B", (6, 5), "chief", main="sword")])
    answer(st2, "roll", [15])
    answer(st2, "stay")
    answer(st2, "fight:B", [3, 8])           # B wins by 5 + 1 = 6: push-back
    d = RULES.pending(st2)
    assert (d.kind, d.side, [o.key for o in d.options]) == ("follow", 1, ["follow", "no_follow"])
    answer(st2, "no_follow")
    assert st2.figure("A").tile == (4, 5) and st2.figure("B").tile == (6, 5)
    assert RULES.pending(st2).kind == "action" and RULES.pending(st2).figure == "B"


def test_a_warband_out_of_action_loses_the_battle():
    st = match_state([entry("A", (5, 5), "chief", main="two_handed_sword")], [entry("B", (6, 5), "chief")])
    answer(st, "roll", [15])
    answer(st, "stay")
    events = answer(st, "fight:B", [20, 1])
    assert RULES.pending(st) is None
    outcome = RULES.outcome(st)
    assert (outcome.winner, outcome.reason) == (0, "elimination")
    assert [w.as_dict() for w in outcome.details] == [{"side": 0, "standing": 1, "total": 1, "horrible": 0},
                                                      {"side": 1, "standing": 0, "total": 1, "horrible": 1}]
    assert of(events, "game_over") and of(events, "removed")[0].data == {"figure": "B", "why": "out"}


def test_after_the_last_turn_points_decide_vitality_taken_and_objectives_held():
    """Project default (engine/objectives.py): Vitality taken, a figure's whole value (one more for a Leader)
    once Out of action, and the objectives held, a henchman's Vitality per figure an objective is worth."""
    st = match_state([entry("A", (0, 0), "chief"), entry("A2", (0, 19))], [entry("B", (19, 19), "chief", Vit=2)],
                     max_turns=1)
    st.figure("B").vit -= 1
    for key in ("roll", "end", "end", "end"):
        answer(st, key, [15] if key == "roll" else [])
    outcome = RULES.outcome(st)
    assert (outcome.winner, outcome.reason) == (0, "points") and st.turn == 1
    assert [w.as_dict()["points"] for w in outcome.details if w.key == "result.points"] == [1, 0]
    st = match_state([entry("A", (0, 0), "chief"), entry("A2", (0, 19))], [entry("B", (19, 19), "chief", Vit=2)],
                     max_turns=1)
    st.figure("B").vit -= 1
    st.battlefield.objects = [MapObject("objective", "well", ((19, 19), (18, 19)), {"worth": "2"})]
    for key in ("roll", "end", "end", "end"):
        answer(st, key, [15] if key == "roll" else [])
    assert RULES.outcome(st).winner == 1


def test_a_special_action_opens_a_door_in_contact():
    bf = Battlefield.open_ground(12, 12)
    bf.door[5, 6] = Door.LOCKED
    bf.blocks_sight[5, 6] = False
    st = match_state([entry("A", (5, 5), "chief")], [entry("B", (11, 11), "chief")], bf)
    answer(st, "roll", [15])
    answer(st, "stay")
    answer(st, "open:6,5")
    assert bf.door[5, 6] == Door.OPEN


def test_panels_say_who_has_the_initiative_and_which_phase_it_is():
    st = bubble_scene()
    answer(st, "roll", [15])
    lines = {w.key: w.as_dict() for w in RULES.panels(st, 0)[0].lines}
    assert lines["panel.line_initiative"] == {"side": 0}
    assert lines["panel.line_phase_leader"] == {"side": 0, "leader": "C"}


def test_choosing_between_two_leaders_shows_each_one_s_bubble():
    st = match_state([entry("C", (2, 2), "chief"), entry("H", (3, 3)), entry("P", (10, 10), "champion")],
                     [entry("E", (19, 19), "chief")])
    answer(st, "roll", [15])
    assert RULES.pending(st).kind == "leader"
    bubbles = {o.label: o.figures for o in RULES.overlays(st, 0)}
    assert bubbles == {"overlay.bubble_chief": ("H",), "overlay.bubble_champion": ()}


def test_mordgrave_keeps_no_secrets():
    st = bubble_scene()
    answer(st, "roll", [15])
    rng = random.Random(1)
    for side in (0, 1):
        for seen in (RULES.observe(st, side), RULES.disguise(st, side, rng)):
            assert RULES.digest_data(seen) == RULES.digest_data(st)
            assert seen is not st and seen.figures[0] is not st.figures[0]
    assert [f.tile for f in RULES.figures(st, 1)] == [f.tile for f in RULES.figures(st, None)]
    assert not RULES.keeps_secrets      # so hot-seat never hands the screen over for nothing


def test_check_invariants_finds_broken_states():
    st = bubble_scene()
    assert RULES.check_invariants(st) == []
    st.figure("H1").tile = st.figure("H2").tile
    st.figure("C").vit = 0
    st.figure("Far").tokens = [7]
    found = RULES.check_invariants(st)
    assert any("shares" in v for v in found) and any("Vitality" in v for v in found)
    assert any("outlived" in v for v in found)


def played(seed: int) -> Match:
    bf = Battlefield.open_ground(16, 12)
    bf.spawn = {0: [(1, y) for y in range(2, 10)], 1: [(14, y) for y in range(2, 10)]}
    armies = [Army(0, "a", [dict(f, faction="dark_elves") for f in data()["warbands"]["dark_elves"]["figures"]]),
              Army(1, "b", [dict(f, faction="mountain_orcs") for f in data()["warbands"]["mountain_orcs"]["figures"]])]
    m = Match(bf, RULES, armies, seed, max_turns=4)
    players = {0: RandomPlayer(seed), 1: RULES.tactical_ai(seed)}
    while m.pending is not None:
        m.answer(m.ask(players[m.pending.side]))
        assert RULES.check_invariants(m.state) == []
    return m


def test_every_word_the_module_uses_is_in_both_languages():
    used = {"rules.name", "gauge.vit", "results.side_line", "panel.turn"}
    for seed in range(3):
        m = played(seed)
        for e in m.log:
            if e.kind not in CORE:
                used.add(f"log.{e.kind}")
            if e.kind == "dice":
                used.add(f"purpose.{e.data['purpose']}")
            if e.kind == "phase":
                used.add(f"phase.{e.data['phase']}")
            if e.kind == "game_over":
                used.add(f"reason.{e.data['reason']}")
        for f in RULES.figures(m.state, None):
            used |= {f"marker.{mk.key}" for mk in f.markers} | {f"kind.{f.kind}"}
    used |= {f"action.{a}" for a in ("roll", "lead", "activate", "pass", "move", "stay", "concentrate", "reload",
                                     "run", "shoot", "double", "breath", "fight", "open", "switch", "end", "follow",
                                     "no_follow", "no_shot", "normal", "defensive", "offensive")}
    used |= {f"info.{k}" for k in ("initiative", "leader", "activate", "action", "mode", "follow", "second_shot")}
    d = data()
    used |= {f"term.{k}" for k in list(d["melee"]) + list(d["ranged"]) + list(d["armour"]) + list(d["shields"])
             + list(d["cloaks"]) + list(d["factions"]) + list(d["rules"]["modes"])}
    used |= {f"odds.{k}" for k in ("win", "lose", "tie", "hit", "dodged", "stun", "no_effect", "hits")}
    for lang in ("fr", "en"):
        missing = sorted(k for k in used if k not in RULES.words(lang))
        assert missing == [], (lang, missing)
    assert set(RULES.words("fr")) == set(RULES.words("en"))


def test_games_reach_an_end_with_every_die_in_a_dice_event():
    m = played(7)
    assert m.outcome is not None
    rolled = sum(len(e.data["faces"]) for e in m.log if e.kind == "dice")
    assert rolled == m.dice.count


def test_a_figure_with_nothing_left_but_ending_is_not_asked():
    st = match_state([entry("A", (0, 0), "chief")], [entry("B", (19, 19), "chief")])
    answer(st, "roll", [15])
    events = answer(st, "stay")
    assert st.figure("A").done and of(events, "activation_end")
    assert RULES.pending(st).figure == "B"
