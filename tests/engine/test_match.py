"""The Match protocol: pending decisions, legal answers only, undo without dice, deterministic digests."""
import pytest

from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.errors import IllegalAnswer

from .toy_rules import ToyRules


def make(seed=3):
    bf = Battlefield.open_ground(6, 3)
    rules = ToyRules()
    return Match(bf, rules, rules.default_armies(bf), seed)


def play_out(match):
    while match.pending:
        d = match.pending
        keys = [o.key for o in d.options]
        match.answer("step" if "step" in keys else next(k for k in keys if k.startswith("strike")))
    return match


def test_pending_names_the_deciding_side_and_its_options():
    m = make()
    assert m.pending.side == 0 and {o.key for o in m.pending.options} == {"wait", "step"}


def test_an_illegal_answer_is_refused_with_a_clear_message_and_changes_nothing():
    m = make()
    before = m.digest()
    with pytest.raises(IllegalAnswer, match="not a legal option"):
        m.answer("fly")
    assert m.digest() == before and m.answers == []


def test_undo_restores_the_state_when_no_die_was_rolled():
    m = make()
    before = m.digest()
    m.answer("step")
    assert m.can_undo and m.undo()
    assert m.digest() == before and m.answers == []


def test_undo_is_refused_after_a_die_was_rolled():
    m = make()
    for key in ["step", "step", "step", "step"]:
        m.answer(key)
    strike = next(o.key for o in m.pending.options if o.key.startswith("strike"))
    m.answer(strike)
    assert not m.can_undo and not m.undo()


def test_an_answer_given_as_not_undoable_keeps_no_snapshot_and_plays_the_same():
    a, b = make(), make()
    a.answer("step")
    b.answer("step", undoable=False)
    assert a.digest() == b.digest() and a.can_undo and not b.can_undo and not b.undo()


def test_a_loaded_save_may_still_take_back_its_last_answer(tmp_path):
    from game.engine.mapfolders import shipped_maps_dir
    from game.engine.save import load_match, new_match, save_match

    m = new_match(shipped_maps_dir() / "ruined_town.tmx", "eisdrachen", 4)
    m.answer(m.pending.options[0].key)
    while not m.can_undo:
        m.answer(m.pending.options[0].key)
    save_match(m, tmp_path / "s.json")
    loaded = load_match(tmp_path / "s.json")
    assert loaded.can_undo and loaded.undo() and loaded.answers == m.answers[:-1]


def test_same_seed_and_answers_give_the_same_digest():
    a, b = play_out(make(11)), play_out(make(11))
    assert a.answers == b.answers and a.digest() == b.digest() and a.outcome is not None


def test_replaying_the_answers_reaches_the_same_digest():
    a = play_out(make(5))
    b = make(5)
    for key in a.answers:
        b.answer(key)
    assert b.digest() == a.digest()
