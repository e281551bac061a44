"""Voyageurs exact probabilities (voyageurs.md §2.3), and the odds shown before committing."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from game.engine.dice import opposed, sum_of_dice
from game.rules.voyageurs.checks import NATURAL, critical_chance, success_chance, total_dist
from game.rules.voyageurs.odds import odds, volley_odds

from .voyageurs_helpers import AIR, GROUND, aerial, fig, ground, in_round, run
from game.rules.voyageurs.ground import Act

NATURAL_AT_LEAST = {2: "1", 3: "35/36", 4: "11/12", 5: "5/6", 6: "13/18", 7: "7/12", 8: "5/12", 9: "5/18",
                    10: "1/6", 11: "1/12", 12: "1/36"}


@pytest.mark.parametrize("n", range(2, 13))
def test_natural_2d6_at_least_n_matches_the_table(n):
    assert sum(p for v, p in NATURAL.items() if v >= n) == F(NATURAL_AT_LEAST[n])


def test_double_six_and_double_one_each_come_once_in_36_and_cap_every_test():
    assert critical_chance() == F(1, 36)
    assert success_chance(100, 17) == F(35, 36) and success_chance(-100, 17) == F(1, 36)


@pytest.mark.parametrize("bonus, difficulty, p", [
    (10, 17, "7/12"), (10, 20, "1/6"), (8, 17, "5/18"), (9, 17, "5/12"),
    (10, 14, "11/12"), (10, 23, "1/36")])
def test_typical_test_chances(bonus, difficulty, p):
    assert success_chance(bonus, difficulty) == F(p)


def test_an_average_attacker_against_an_average_defender_hits_five_times_in_nine():
    defender = total_dist(10)
    assert sum(pd * success_chance(10, d) for d, pd in defender.items()) == F(5, 9)


def test_initiative_of_two_equal_combatants_with_and_without_surprise():
    plain = opposed(total_dist(10), total_dist(10))
    assert (plain["win"], plain["tie"]) == (F(575, 1296), F(73, 648))
    surprised = opposed(total_dist(11), total_dist(10))
    assert (surprised["win"], surprised["tie"]) == (F(721, 1296), F(35, 324))


@pytest.mark.parametrize("shooter, target, row", [
    ("light_transport", "armed_transport", ["1/6", "5/12", "13/18", "11/12", "35/36"]),
    ("armed_transport", "light_transport", ["1/36", "1/6", "5/12", "13/18", "11/12"])])
def test_aerial_hit_chances_by_cases_between(shooter, target, row):
    st = aerial([{"kind": shooter, "case": 1}, {"kind": "gunner", "pilot": True}],
                [{"kind": target, "case": 6}, {"kind": "gunner", "pilot": True}])
    a, b = st.transports["at"], st.transports["bt"]
    for gap, p in zip((4, 3, 2, 1, 0), row):
        assert volley_odds(st, a, b, {4: -6, 3: -4, 2: -2, 1: 0, 0: 2}[gap]).details["chance"] == F(p)


def test_attack_odds_add_up_and_show_knock_out_only_when_the_target_pv_are_known():
    st = ground([fig("fighter", (1, 1), AGI=2)], [fig("scout", (2, 1), pv=5)])
    in_round(st, {"a1": 18, "b1": 17}, active="a1")
    run(st, [], Act("a1"))
    option = st.steps.waiting.option("attack:b1:sword")
    seen = GROUND.observe(st, 0)
    blind = odds(seen, option)
    assert set(blind.outcomes) == {"miss", "hit", "critical"} and sum(blind.outcomes.values()) == 1
    assert blind.details["hit"] == success_chance(10, 17) == F(7, 12)
    st.known[0].append("scout")
    known = odds(GROUND.observe(st, 0), option)
    assert sum(known.outcomes.values()) == 1 and known.outcomes["knocked_out"] > 0
    # against PV 5 and CON 4, 5 to 9 damage knocks out and 10 or more kills; a critical rolls 4d6
    down = {n: sum(p for v, p in sum_of_dice(n).items() if 5 <= v <= 9) for n in (2, 4)}
    dead = {n: sum(p for v, p in sum_of_dice(n).items() if v >= 10) for n in (2, 4)}
    assert known.outcomes["knocked_out"] == (F(7, 12) - F(1, 36)) * down[2] + F(1, 36) * down[4]
    assert known.outcomes["killed"] == (F(7, 12) - F(1, 36)) * dead[2] + F(1, 36) * dead[4]
    assert odds(st, option) == known


def test_volley_odds_are_the_exact_sum_of_each_gunner():
    st = aerial([{"kind": "light_transport", "case": 2}, {"kind": "gunner", "pilot": True}, {"kind": "scout"}],
                [{"kind": "armed_transport", "case": 5, "pv": 5}, {"kind": "gunner", "pilot": True}])
    o = AIR.odds(st, AIR.pending(st).option("fire:bt"))
    hit = F(13, 18)
    assert o.outcomes == {"hits:0": (1 - hit) ** 2, "hits:1": 2 * hit * (1 - hit), "hits:2": hit ** 2}
    plain = F(7)
    assert o.details["mean_damage"] == 2 * ((hit - F(1, 36)) * plain + F(1, 36) * 14)
    assert 0 < o.details["kill"] < 1
