"""The rout, the project default made from the seed's stressful event "half the warband decimated"
(docs/rules-mordgrave.md, Victory): its trigger (half or more of the warband Out of action, a figure lost in
the turn), who tests, its exact odds, who wins, both at once, and that a save made under the rules without
it is refused."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from game.cli import main
from game.engine.save import new_match, save_match
from game.rules.mordgrave.odds import bravery_chance
from game.rules.mordgrave.steps import rout_difficulty, rout_tester

from .mordgrave_helpers import RULES, answer, entry, fig, match_state, of, state

MAPS = Path(__file__).resolve().parents[2] / "maps"


def four_figures(lost0: int, lost1: int, chief_lost: bool = False, when: int = 1, **chief):
    """Two figures a side, far apart; ``lost0`` and ``lost1`` of them Out of action (henchmen first), put out
    in turn ``when`` (0: before the battle)."""
    st = match_state([entry("A", (0, 0), "chief", **chief), entry("A2", (0, 19))],
                     [entry("B", (19, 19), "chief"), entry("B2", (19, 0))])
    for fid in (["A", "A2"] if chief_lost else ["A2", "A"])[:lost0] + ["B2", "B"][:lost1]:
        st.figure(fid).out, st.figure(fid).vit, st.figure(fid).out_turn = True, 0, when
    return st


def play_turn(st, last_dice):
    """Side 0 has the initiative; every standing figure ends its activation at once, the last one with
    ``last_dice`` (the end of the turn's dice)."""
    answer(st, "roll", [15])
    events = []
    while True:
        d = RULES.pending(st)
        last = all(f.activated or f.id == d.figure for f in st.living())
        events += answer(st, "end", last_dice if last else [])
        if last:
            return events


def test_a_warband_with_half_its_figures_out_tests_for_a_rout_at_the_end_of_the_turn():
    st = four_figures(1, 0)
    events = play_turn(st, [8, 11])         # the rout test (8: held), then turn 2's initiative
    tests = of(events, "rout")
    assert [(e.data["side"], e.data["figure"], e.data["total"], e.data["difficulty"], e.data["passed"])
            for e in tests] == [(0, "A", 8, 8, True)]
    rolled = [e.data for e in of(events, "dice") if e.data["purpose"] == "rout"]
    assert rolled == [{"who": "A", "faces": [8], "sides": 20, "purpose": "rout", "needed": 8, "total": 8}]
    assert not st.over and st.turn == 2


def test_a_warband_with_less_than_half_its_figures_out_does_not_test():
    st = match_state([entry("A", (0, 0), "chief"), entry("A2", (0, 19)), entry("A3", (0, 10))],
                     [entry("B", (19, 19), "chief")])
    st.figure("A2").out, st.figure("A2").vit, st.figure("A2").out_turn = True, 0, 1
    events = play_turn(st, [11])            # only turn 2's initiative: no rout die
    assert not of(events, "rout") and st.turn == 2


def test_a_warband_at_half_that_lost_no_figure_in_the_turn_does_not_test_again():
    st = four_figures(1, 0, when=0)
    events = play_turn(st, [11])
    assert not of(events, "rout") and st.turn == 2


def test_a_failed_rout_test_ends_the_battle_and_the_other_side_wins():
    st = four_figures(1, 0)
    events = play_turn(st, [7])
    assert of(events, "rout")[0].data["passed"] is False
    outcome = RULES.outcome(st)
    assert (outcome.winner, outcome.reason) == (1, "rout") and RULES.pending(st) is None
    assert RULES.notice(of(events, "rout")[0]).key == "notice.rout_fled"


def test_the_chief_tests_and_with_the_chief_out_the_bravest_standing_figure_at_a_harder_difficulty():
    st = state(fig("C", 0, (0, 0), role="chief"), fig("H", 0, (0, 2)), fig("K", 0, (0, 4), Brav=2),
               fig("E", 1, (9, 9), role="chief"))
    assert rout_tester(st, 0).id == "C" and rout_difficulty(st, 0) == 8
    st.figure("C").out, st.figure("C").vit = True, 0
    assert rout_tester(st, 0).id == "K" and rout_difficulty(st, 0) == 11
    st.figure("K").tokens = [2]             # Great difficulty: −3 to Bravery, so H is the braver now
    assert rout_tester(st, 0).id == "H"


def test_the_rout_test_odds_are_exact_and_shown_with_the_test():
    """The spec's test vectors for difficulty 8 (13/20, and 1/2 with a token), and 12/20 at 11 with Brav 2."""
    base = fig("C", 0, (0, 0))
    assert bravery_chance(base, 8) == Fraction(13, 20)
    base.tokens = [1]
    assert bravery_chance(base, 8) == Fraction(1, 2)
    assert bravery_chance(fig("K", 0, (0, 0), Brav=2), 11) == Fraction(3, 5)
    st = four_figures(1, 0, chief_lost=True)
    events = play_turn(st, [13, 11])        # A2 tests, the Chief out: 13 against 11 holds
    e = of(events, "rout")[0]
    assert (e.data["figure"], e.data["difficulty"], e.data["chance"], e.data["passed"]) == ("A2", 11, "1/2", True)


def test_both_warbands_fleeing_at_once_are_decided_on_points():
    st = four_figures(1, 1, **{"Vit": 2})
    st.figure("A").vit = 1                  # A has lost a Vitality point: side 1 is one point ahead
    events = play_turn(st, [1, 2])
    assert [e.data["passed"] for e in of(events, "rout")] == [False, False]
    outcome = RULES.outcome(st)
    assert (outcome.winner, outcome.reason) == (1, "routs")
    assert [w.as_dict()["points"] for w in outcome.details if w.key == "result.points"] == [1, 2]


def test_a_save_made_before_the_rout_rule_is_refused_in_one_line_with_exit_2(tmp_path, capsys):
    match = new_match(MAPS / "ruined_town.tmx", "mordgrave", 3)
    path = tmp_path / "old.json"
    save_match(match, path)
    doc = json.loads(path.read_text())
    doc["rules"]["version"] = "1"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "version 1" in err and "version 2" in err
