"""What the protocol gives every module by default: notable events and token trigger radii."""
from game.engine import events as ev
from game.engine.protocol import TokenView, Words

from .toy_rules import ToyRules


def test_an_event_is_announced_when_it_carries_the_notable_fact_with_its_own_words_and_facts():
    rules = ToyRules()
    assert rules.notice(ev.removed("a1", "fled", "4.2")) is None
    plain = ev.removed("a1", "fled", "4.2", notable=True)
    assert rules.notice(plain) == Words("notice.removed", figure="a1", why="fled", notable=True)
    assert rules.notice(ev.Event("mutiny", {"figure": "b2", "notable": False})) is None


def test_a_token_tells_no_trigger_radius_unless_its_rules_give_one():
    assert TokenView("t1", (2, 3), 0, "unknown").radius is None
    assert TokenView("t1", (2, 3), 0, "unknown", radius=2).radius == 2
