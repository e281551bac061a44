"""Warband building (rules/mordgrave.md 2.3, 2.4): the seed's four warbands are legal, every illegal choice
is refused with its reason in words, choices follow the faction lists, and a bad army stops a match."""
from __future__ import annotations

import json

import pytest

from game.engine.battlefield import Battlefield
from game.engine.protocol import Army
from game.errors import RulesError
from game.rules.mordgrave.roster import warband
from game.rules.mordgrave.state import data

from .mordgrave_helpers import RULES


def army(*figures, faction="empire") -> Army:
    base = [{"name": "Chef", "role": "chief", "faction": faction, "main": "sword"}]
    return Army(0, "test", base + [{"name": f"F{i}", "faction": faction, **f} for i, f in enumerate(figures)])


def problems(a: Army) -> list[str]:
    return [w.key for w in RULES.army_problems(a)]


@pytest.mark.parametrize("faction", ["empire", "dark_elves", "wood_elves", "mountain_orcs"])
def test_every_warband_of_the_seed_is_legal(faction):
    assert RULES.army_problems(warband(faction, 0)) == []


def test_the_default_armies_are_one_warband_of_the_seed_on_both_sides():
    bf = Battlefield.open_ground(30, 20)
    armies = RULES.default_armies(bf)
    assert [a.side for a in armies] == [0, 1]
    assert {a.figures[0]["faction"] for a in armies} <= set(data()["factions"])
    assert armies[0].figures == armies[1].figures                     # equal forces (issue 15)
    assert all(RULES.army_problems(a) == [] for a in armies)


def test_every_weapon_and_armour_of_the_seed_is_in_the_lists():
    d = data()
    assert set(d["melee"]) == {"dagger", "club", "hatchet", "sword", "hammer", "axe", "flail", "two_handed_sword",
                               "two_handed_hammer", "two_handed_axe", "two_handed_staff", "spear", "halberd",
                               "big_orc_machete", "elven_staff_blade", "elven_blade", "hydra_head", "barbed_dagger",
                               "barbed_sword", "barbed_two_handed_sword", "barbed_halberd", "barbed_whip"}
    assert set(d["ranged"]) == {"dagger", "hatchet", "javelin", "short_bow", "bow", "longbow", "crossbow",
                                "orc_blunderbuss", "elven_bow", "barbed_dagger", "elven_repeating_crossbow",
                                "shurikens"}
    assert set(d["armour"]) == {"none", "light", "medium", "heavy"}
    assert set(d["shields"]) == {"none", "buckler", "shield", "large_shield"}
    assert set(d["cloaks"]) == {"none", "hydra_cloak"}


def test_a_warband_has_exactly_one_chief():
    assert "problem.chiefs" in problems(army({"role": "chief"}))
    no_chief = Army(0, "t", [{"name": "x", "role": "henchman", "faction": "empire"}])
    assert problems(no_chief) == ["problem.chiefs"]


def test_a_warband_has_at_most_two_champions():
    assert problems(army({"role": "champion"}, {"role": "champion"})) == []
    assert problems(army({"role": "champion"}, {"role": "champion"}, {"role": "champion"})) == ["problem.champions"]


def test_a_figure_has_two_hands():
    assert problems(army({"main": "two_handed_axe", "shield": "shield"})) == ["problem.hands"]
    assert problems(army({"main": "sword", "shield": "buckler"})) == []
    assert problems(army({"main": "elven_blade", "shield": "shield"}, faction="wood_elves")) == []
    assert problems(army({"main": "halberd", "hands_free": "hydra_head", "cloak": "hydra_cloak"},
                         faction="dark_elves")) == []


def test_a_second_weapon_needs_a_one_handed_main_weapon_and_no_shield():
    assert problems(army({"main": "sword", "second": "dagger"})) == []
    assert problems(army({"main": "spear", "second": "dagger"})) == ["problem.second_needs_one_hand", "problem.hands"]
    assert problems(army({"main": "sword", "second": "dagger", "shield": "buckler"})) == [
        "problem.second_and_shield", "problem.hands"]
    assert problems(army({"main": "sword", "second": "halberd"})) == ["problem.second_kind"]


def test_faction_items_are_for_their_faction_only():
    assert problems(army({"main": "big_orc_machete"})) == ["problem.faction_item"]
    assert problems(army({"ranged": "elven_bow"}, faction="dark_elves")) == ["problem.faction_item"]
    assert problems(army({"main": "big_orc_machete", "ranged": "orc_blunderbuss"}, faction="mountain_orcs")) == []


def test_a_warband_is_of_one_faction():
    mixed = army()
    mixed.figures.append({"name": "Orc", "faction": "mountain_orcs"})
    assert problems(mixed) == ["problem.faction_mixed"]


@pytest.mark.parametrize("entry,key", [
    ({"main": "lightsaber"}, "problem.unknown_item"), ({"ranged": ["bow", 3]}, "problem.ranged_list"),
    ({"Def": 40}, "problem.profile"), ({"Vit": True}, "problem.profile"), ({"role": "king"}, "problem.role"),
    ({"main": "hydra_head"}, "problem.main_kind"), ({"modes": "often"}, "problem.modes")])
def test_broken_entries_are_named(entry, key):
    assert key in problems(army(entry, faction="dark_elves"))


def test_every_problem_has_words_in_both_languages_with_its_fields():
    found = RULES.army_problems(army({"main": "two_handed_axe", "shield": "shield", "role": "chief"},
                                     {"main": "big_orc_machete", "Def": 40}))
    for lang in ("fr", "en"):
        table = RULES.words(lang)
        for w in found:
            assert w.key in table
            table[w.key].format(**w.as_dict())


def test_choices_follow_the_faction_lists():
    orc = RULES.figure_choices({"faction": "mountain_orcs"})
    elf = RULES.figure_choices({"faction": "dark_elves"})
    assert "big_orc_machete" in orc["main"] and "big_orc_machete" not in elf["main"]
    assert "orc_blunderbuss" in orc["ranged"] and "shurikens" in elf["ranged"]
    assert elf["hands_free"] == ["none", "hydra_head"] and orc["hands_free"] == ["none"]
    assert "halberd" not in orc["second"] and "dagger" in orc["second"]
    assert orc["role"] == ["chief", "champion", "henchman"] and orc["modes"] == [False, True]


def test_every_choice_offered_alone_on_a_henchman_is_legal():
    for faction in data()["factions"]:
        choices = RULES.figure_choices({"faction": faction})
        for slot in ("main", "second", "shield", "armour", "cloak", "hands_free", "ranged", "modes"):
            for value in choices[slot]:
                spec = {"main": "dagger", slot: value} if slot == "second" else {slot: value}
                assert problems(army(spec, faction=faction)) == [], (faction, slot, value)


def test_recruits_are_the_entries_of_every_warband():
    bf = Battlefield.open_ground(30, 20)
    recruits = RULES.recruits(bf)
    assert {r["faction"] for r in recruits} == set(data()["factions"])
    assert all(problems(army(dict(r, role="henchman"), faction=r["faction"])) == [] for r in recruits)


def test_an_illegal_army_stops_the_match_with_one_line_naming_the_side():
    bf = Battlefield.open_ground(30, 20)
    bad = army({"role": "chief"})
    with pytest.raises(RulesError) as e:
        RULES.new_state(bf, [bad, Army(1, "b", warband("empire", 1).figures)], 5)
    assert str(e.value).startswith("armies: side 0:") and "Chief" in str(e.value) and "\n" not in str(e.value)


def test_figures_sharing_an_id_stop_the_match():
    bf = Battlefield.open_ground(30, 20)
    a0 = army({"id": "x"})
    a1 = Army(1, "b", [{"id": "x", "name": "c", "role": "chief", "faction": "empire"}])
    with pytest.raises(RulesError, match="share the id 'x'"):
        RULES.new_state(bf, [a0, a1], 5)


def test_a_thrown_weapon_counts_once_per_copy():
    a = army({"ranged": ["javelin", "javelin"]})
    st = RULES.new_state(Battlefield.open_ground(30, 20), [a, warband("empire", 1)], 5)
    assert [c.weapon for c in st.figures[1].ranged] == ["javelin", "javelin"]
    json.dumps(a.to_json())
