"""The step stack: a long action pauses for a decision of either side, resumes after the answer, and is
undone and replayed with the match."""
from game.engine.battlefield import Battlefield
from game.engine.match import Match
from game.engine.steps import Step, StepStack
from tests.fake_rules import FakeRules


def fake_match(seed=1) -> Match:
    bf = Battlefield.open_ground(12, 8)
    bf.spawn = {0: [(1, 2), (1, 5)], 1: [(10, 2), (10, 5)]}
    rules = FakeRules()
    return Match(bf, rules, rules.default_armies(bf), seed)


def to_first_action(match: Match) -> None:
    match.answer("bid:2")
    match.answer("bid:0")
    match.answer(match.pending.options[0].key)


def test_a_shot_pauses_the_shooters_action_for_the_targets_side_and_then_resumes_it():
    m = fake_match()
    to_first_action(m)
    shooter = m.pending.figure
    shot = next(o for o in m.pending.options if o.action == "shoot")
    m.answer(shot.key)
    assert m.pending.kind == "duck" and m.pending.side == 1 and m.pending.figure == shot.target
    m.answer("stand")
    assert m.pending.kind == "action" and m.pending.figure == shooter and m.pending.info["actions_left"] == 1
    assert any(e.kind == "dice" and e.data["who"] == shooter for e in m.log)


def test_the_stack_is_undone_with_the_match_while_no_die_is_rolled():
    m = fake_match()
    to_first_action(m)
    before = m.digest()
    m.answer(next(o.key for o in m.pending.options if o.action == "shoot"))
    assert m.pending.kind == "duck" and m.can_undo
    m.undo()
    assert m.digest() == before and m.pending.kind == "action"


def test_replaying_the_answers_rebuilds_the_same_stack():
    m = fake_match(4)
    to_first_action(m)
    m.answer(next(o.key for o in m.pending.options if o.action == "shoot"))
    m.answer("duck")
    again = fake_match(4)
    for key in m.answers:
        again.answer(key)
    assert again.digest() == m.digest() and again.state.steps == m.state.steps


class Note(Step):
    def __init__(self, name, out):
        super().__init__()
        self.name, self.out = name, out

    def run(self, game):
        self.out.append(self.name)
        return None


def test_pushed_steps_run_in_the_order_given_before_those_already_waiting_and_can_be_discarded():
    out: list[str] = []
    stack = StepStack()
    stack.push(Note("later", out))
    stack.push(Note("first", out), Note("second", out), Note("dropped", out))
    assert [s.name for s in stack.upcoming()] == ["first", "second", "dropped", "later"]
    stack.discard(lambda s: s.name == "dropped")
    stack.run(None, lambda game: False)
    assert out == ["first", "second", "later"]
