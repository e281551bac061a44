"""Dice come from one seeded generator; distributions are exact fractions."""
import itertools
from fractions import Fraction

from game.engine import dice as D


def enumerate_dist(n, sides, f):
    out = {}
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        k = f(faces)
        out[k] = out.get(k, 0) + Fraction(1, sides ** n)
    return out


def test_same_seed_gives_same_rolls_and_records_them():
    a, b = D.Dice(7), D.Dice(7)
    assert a.roll(5, 6, "x") == b.roll(5, 6, "x")
    assert a.count == 5 and a.take_rolls()[0].rule == "x" and a.rolls == []


def test_scripted_dice_return_listed_values_in_order():
    d = D.ScriptedDice([3, 5, 6])
    assert d.roll(2) == [3, 5] and d.d() == 6


def test_keep_best_and_worst_match_enumeration():
    for n in (1, 2, 3):
        assert D.keep_best(n) == enumerate_dist(n, 6, max)
        assert D.keep_worst(n) == enumerate_dist(n, 6, min)


def test_sum_of_dice_matches_enumeration():
    assert D.sum_of_dice(3) == enumerate_dist(3, 6, sum)


def test_binomial_sums_to_one_and_has_the_right_mean():
    dist = D.binomial(5, Fraction(1, 3))
    assert sum(dist.values()) == 1 and D.mean(dist) == Fraction(5, 3)


def test_reroll_chance_is_p_plus_fail_times_p():
    assert D.with_reroll(Fraction(1, 6)) == Fraction(11, 36)


def test_opposed_d20_is_symmetric():
    r = D.opposed(D.uniform_die(20), D.uniform_die(20))
    assert r["win"] == r["lose"] and r["tie"] == Fraction(1, 20)


def test_compound_mixes_counts():
    hits = D.binomial(2, Fraction(1, 2))
    wounds = D.compound(hits, lambda k: D.binomial(k * 2, Fraction(1, 2)))
    assert sum(wounds.values()) == 1 and D.mean(wounds) == 1


def test_pool_successes_count_dice_reaching_the_target():
    assert D.successes(3, 5) == enumerate_dist(3, 6, lambda f: sum(v >= 5 for v in f))
    assert D.successes(2, 7) == {0: 1}


def test_mixture_weights_its_parts():
    m = D.mixture([(Fraction(1, 4), D.point(0)), (Fraction(3, 4), D.point(2))])
    assert m == {0: Fraction(1, 4), 2: Fraction(3, 4)}


def test_a_roll_off_rerolls_ties_and_the_higher_die_wins():
    from game.engine.dice import ScriptedDice, roll_off
    winner, pairs = roll_off(ScriptedDice([3, 3, 2, 5]), 6, "3.1")
    assert winner == 1 and pairs == [(3, 3), (2, 5)]
