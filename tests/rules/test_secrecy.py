"""Secrets stay secret, for every registered rule module (issue 10).

Two people share the screen in hot-seat; what the rules hide from one side must not reach it by any
channel of the window or of its AI. The proof is by swapping worlds. At random points of seeded matches
between random players (fond of secrets: they often keep to themselves and head for shelter), the
module's ``disguise`` draws afresh what an observer may not know, giving a second world the observer
cannot tell from the real one; the decision waiting is asked again of each world's own state. Both worlds
then play on with the same answers of the observer, the same dice, and the same answers of the other side
to the same decisions, and everything the observer is shown is written down in order, as its trace:

- the window's screen whenever the observer holds it: figures, tokens, objects, overlays, panels, turn
  and phase, and, when the decision is its own, the decision (kind, every field of every option, info),
  the odds and previews of one option of each action computed on its observation, whether it may undo,
  and the observation its AI would be given (odds and previews are functions of it); the results;
- every event it may see, with the log line the window writes for it in French and in English;
- every hand-over, as ``game.ui.battle.hands_over`` decides them from the deciding sides.

The traces must be equal until the rules themselves tell the worlds apart by an event (a token turned
over, an ambush firing); anything else that differs while the events agree (a view, an option, odds, a
hand-over or when it comes) is a leak. Likewise, when the other side answers a secret decision, two of
its answers whose states differ only in what the observer's observation leaves out must leave everything
the observer is shown the same, their own events included. A few positions random play seldom reaches
(a prayer said in hiding, an alarm beside a hidden friend, an ambusher in cover, an ambush to declare)
are staged with the modules' own test helpers.
"""
from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.engine.battlefield import Battlefield
from game.engine.decision import Decision, Option
from game.engine.dice import Dice
from game.engine.protocol import RuleModule, canonical
from game.engine.tiled import load_battlefield
from game.errors import EscarmoucheError
from game.rules import get, names
from game.rules.kolaps.model import Order
from game.rules.kolaps.steps import Activation
from game.ui.battle import hands_over
from game.ui.combatlog import describe
from game.ui.i18n import language, set_language, use_rules

from . import eisdrachen_helpers as eisdrachen
from . import kolaps_helpers as kolaps

MAPS = [Path(__file__).resolve().parents[2] / "maps" / name for name in ("ruined_town.tmx", "sky_deck.tmx")]
LANGUAGES = ("fr", "en")
OTHERS_ANSWERS = 80     # at most, between two decisions of the observer
QUIET = 0.35        # how often a random player picks an answer that touches nothing on the map, if it has one,
SHELTER = 0.35      # and how often a move into shelter
STAGED_RUNS = 12    # swaps from each staged position


@dataclass(frozen=True)
class Plan:
    """How much to play: matches (in chunks the suite may run side by side), and per match the answers it
    lasts at most, the swaps it makes at random answers (and one more per kind of secret decision, with
    chance ``eager`` at each until it is made), the answers of the observer both worlds play after a swap,
    and the other answers tried against a secret decision."""

    matches: int
    chunks: int
    answers: int
    swaps: int
    eager: float
    follow: int
    alternatives: int


EVERYDAY = Plan(matches=16, chunks=1, answers=50, swaps=2, eager=0.2, follow=4, alternatives=3)
LONG = Plan(matches=200, chunks=8, answers=150, swaps=3, eager=0.1, follow=8, alternatives=6)


# --- comparing what is shown ------------------------------------------------------------------------------

def same(a: Any, b: Any) -> bool:
    """Structural equality of states and views: dict order does not matter, arrays compare by content."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, Battlefield):       # shared by both worlds: only its doors change, compared apart
        return True
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b))
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return round(a, 9) == round(b, 9)
    return a == b


class Known:
    """A state as a side may know it, with the doors of its world: what that side's AI would be given."""

    def __init__(self, state: Any, doors: np.ndarray):
        self.state, self.doors = state, doors.copy()

    def __eq__(self, other) -> bool:
        return isinstance(other, Known) and np.array_equal(self.doors, other.doors) and same(self.state, other.state)

    def __repr__(self) -> str:
        return "observation"


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two shown things first differ, in words, for the failure message."""
    if isinstance(a, Known) and isinstance(b, Known):
        return first_difference(canonical(a.state), canonical(b.state), f"{path}(observe)")
    if dataclasses.is_dataclass(a) and type(a) is type(b) and not isinstance(a, type):
        return first_difference({f.name: getattr(a, f.name) for f in dataclasses.fields(a)},
                                {f.name: getattr(b, f.name) for f in dataclasses.fields(b)}, path)
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            only = [x for x in a if x not in b][:3] or [y for y in b if y not in a][:3]
            return f"{path}: {len(a)} items against {len(b)}, such as {str(only)[:600]}"
    return f"{path}: {str(a)[:600]}\n    against {str(b)[:600]}"


# --- one world: a state, its doors and dice, and the hot-seat window's view of it ----------------------

@dataclass
class World:
    rules: RuleModule
    bf: Battlefield
    state: Any
    doors: np.ndarray
    dice: Dice
    viewer: int | None = None       # the side the window shows (battle.py moves it as hands_over says)
    holder: int | None = None       # the side the screen was last handed to (None: both look on)
    names: dict = field(default_factory=dict)
    rolled: int = 0                 # dice the last answer rolled: the window offers undo only if none were
    answered_by: int | None = None

    def fork(self, state: Any = None) -> "World":
        """A copy that plays on alone (the battlefield is shared: only its doors change, kept per world)."""
        return World(self.rules, self.bf, copy.deepcopy(self.state) if state is None else state,
                     self.doors.copy(), copy.deepcopy(self.dice), self.viewer, self.holder, dict(self.names),
                     self.rolled, self.answered_by)

    def here(self) -> Any:
        """This world's state, with its doors on the shared battlefield."""
        self.bf.door[...] = self.doors
        return self.state

    def pending(self) -> Decision | None:
        return self.rules.pending(self.here())

    def answer(self, key: str, dice: Dice | None = None) -> list:
        """Apply one answer with this world's dice, or with ``dice`` (which then become this world's)."""
        d = self.pending()
        if dice is not None:
            self.dice = dice
        before = self.dice.count
        events = self.rules.apply(self.state, d.option(key), self.dice)
        self.dice.take_rolls()
        self.rolled, self.answered_by = self.dice.count - before, d.side
        self.doors = self.bf.door.copy()
        return events

    def known(self, side: int) -> Known:
        return Known(self.rules.observe(self.here(), side), self.doors)


def quiet(option: Option, decision: Decision) -> bool:
    """An answer that points at nothing on the map: ending, hiding, praying, an ambush, a bid…"""
    return not option.path and option.target is None and (option.tile is None or option.figure == decision.figure)


SHELTERS: dict[tuple[int, bool], np.ndarray] = {}


def shelter(bf: Battlefield, hiding: bool) -> np.ndarray:
    """How far each tile is from the nearest hiding place, or from the nearest cover."""
    if (id(bf), hiding) not in SHELTERS:
        ys, xs = np.nonzero(bf.hiding if hiding else bf.cover > 0)
        gy, gx = np.mgrid[0:bf.height, 0:bf.width]
        far = np.full((bf.height, bf.width), np.inf)
        for y, x in zip(ys, xs):
            far = np.minimum(far, np.hypot(gx - x, gy - y))
        SHELTERS[id(bf), hiding] = far
    return SHELTERS[id(bf), hiding]


def choose(rng: random.Random, d: Decision, world: World) -> str:
    """A random player fond of secrets: it often keeps to itself (in a secret decision, by preference doing
    what the other side is not told), or heads for shelter (a hiding place or cover)."""
    r, bf = rng.random(), world.bf
    pool: list[Option] = []
    if r < QUIET:
        pool = [o for o in d.options if quiet(o, d)]
        if d.secret:
            rng.shuffle(pool)
            pool = [o for o in pool[:4] if private(world, o.key, d.side)] or pool
    elif r < QUIET + SHELTER:
        far = shelter(bf, rng.random() < 0.5)
        moves = [o for o in d.options if o.path and o.tile is not None and bf.inside(o.tile)]
        if moves:
            best = min(far[o.tile[1], o.tile[0]] for o in moves)
            pool = [o for o in moves if far[o.tile[1], o.tile[0]] == best]
    return rng.choice(pool or d.options).key


def private(world: World, key: str, side: int) -> bool:
    """Whether this answer tells its own side something it does not tell the other."""
    trial = world.fork()
    events = trial.answer(key)
    world.here()
    return any(e.visible_to == side for e in events)


def sight(world: World, viewer: int) -> dict:
    """Everything the window shows ``viewer`` of this world now, and what its AI would be given."""
    rules, st = world.rules, world.here()
    shown = {"figures": rules.figures(st, viewer), "tokens": rules.tokens(st, viewer),
             "objects": rules.objects(st, viewer), "overlays": rules.overlays(st, viewer),
             "panels": rules.panels(st, viewer), "turn": rules.turn(st), "phase": rules.phase(st)}
    d = rules.pending(st)
    if d is None:
        shown["outcome"] = rules.outcome(st)
    elif d.side == viewer:
        seen = rules.observe(st, viewer)
        sample = list({o.action: o for o in reversed(d.options)}.values())
        shown["decision"] = d
        shown["odds"] = [rules.odds(seen, o) for o in sample]
        shown["previews"] = [rules.preview(seen, o) for o in sample]
        shown["undo"] = world.answered_by == viewer and world.rolled == 0
        shown["observation"] = Known(seen, world.doors)
    return shown


def log_lines(world: World, event) -> tuple[str, ...]:
    lang = language()
    try:
        lines = []
        for code in LANGUAGES:
            set_language(code)
            lines.append(describe(event, world.names))
        return tuple(lines)
    finally:
        set_language(lang)


def told(world: World, observer: int, events: list) -> list:
    """The events of an answer the observer may see, with their log lines."""
    for f in world.rules.figures(world.here(), None):       # the window names figures as it first sees them
        world.names.setdefault(f.id, f.name)
    return [("event", e.kind, canonical(e.data), e.rule, e.visible_to, log_lines(world, e))
            for e in events if e.seen_by(observer)]


def hand(world: World) -> list:
    """The window's hot-seat policy: the screen turns to the deciding side, through a hand-over or not."""
    d = world.pending()
    if d is None or d.side == world.viewer:
        return []
    handed = hands_over(world.rules, world.viewer, d.side)
    world.viewer = d.side
    if handed:
        world.holder = d.side
        return [("handover", d.side)]
    return []


def screen(world: World, observer: int) -> list:
    """A hand-over if one is due, then the screen if the observer holds it (both see the results)."""
    items = hand(world)
    if world.pending() is None:
        items.append(("results", sight(world, observer)))
    elif world.holder in (None, observer):
        items.append(("screen", world.viewer, sight(world, world.viewer)))
    return items


# --- two worlds through the observer's eyes ----------------------------------------------------------------

class Leak(AssertionError):
    pass


@dataclass
class Tally:
    matches: int = 0
    swaps: int = 0
    redrawn: int = 0                # swaps whose disguise drew another state than the real one
    hiding: int = 0                 # swaps where the observer's observation is not the whole state
    revealed: int = 0               # comparisons ended by an event of the rules showing the secret
    alternatives: int = 0           # pairs of secret answers the observer's observation cannot tell apart
    answers: int = 0


def judge(ta: list, tb: list, learnt: int | None, observer: int, tally: Tally, where: str) -> bool:
    """Compare two traces, kept answer by answer. True once the rules have told the worlds apart: the
    observer's events part, or after answer ``learnt`` its own observation does (a roll that teaches it an
    enemy's profile), and everything it was shown before that answer is the same. Until then, any other
    difference (a view, an option, odds, a hand-over or its timing) is a Leak. The answer that shows the
    secret by an event is not held to more: an ambush firing in one world comes where the other hands the
    screen on. The answer after which the observer knows more with its events agreeing is held to the same
    events and hand-overs, in the same order: what it learnt may change its screens, but a hand-over that
    comes in one world only is the other side being asked because of its secret, which then shows."""
    ea = [(n, item) for n, items in enumerate(ta) for item in items if item[0] == "event"]
    eb = [(n, item) for n, items in enumerate(tb) for item in items if item[0] == "event"]
    parted = next((min(na, nb) for (na, x), (nb, y) in zip(ea, eb) if x != y), None)
    if parted is None and len(ea) != len(eb):
        parted = max(ea, eb, key=len)[min(len(ea), len(eb))][0]
    if learnt is not None and (parted is None or learnt < parted):
        told_a, told_b = ([item for item in t[learnt] if item[0] in ("event", "handover")] for t in (ta, tb))
        if told_a != told_b:
            raise Leak(f"{where}: side {observer} learns something as the other side is handed the screen in "
                       f"one world only: {first_difference(told_a, told_b)}")
    if learnt is not None:
        parted = learnt if parted is None else min(parted, learnt)
    upto = len(ta) if parted is None else parted
    flat_a = [item for items in ta[:upto] for item in items]
    flat_b = [item for items in tb[:upto] for item in items]
    for i, (x, y) in enumerate(zip(flat_a, flat_b)):
        if x != y:
            raise Leak(f"{where}: side {observer} is shown a {x[0]} against a {y[0]} at item {i} of what it sees, "
                       f"its events agreeing so far: {first_difference(x, y)}")
    if parted is not None and len(flat_a) != len(flat_b):
        raise Leak(f"{where}: side {observer} is shown {len(flat_a)} things against {len(flat_b)} before the "
                   f"rules tell the worlds apart: {first_difference(flat_a, flat_b)}")
    if parted is not None:
        tally.revealed += 1
    return parted is not None


def others_turn(world: World, observer: int, seed: float) -> list:
    """The other side plays on until the observer decides again. Its answer to a decision depends on the
    decision alone, so that two worlds answer alike whatever extra decisions one of them asks it first."""
    items = []
    for _ in range(OTHERS_ANSWERS):
        d = world.pending()
        if d is None or d.side == observer:
            break
        pick = random.Random(f"{seed}|{d.kind}|{d.figure}|{[o.key for o in d.options]}")
        items += told(world, observer, world.answer(choose(pick, d, world))) + screen(world, observer)
    return items


def follow(real: World, twin: World, observer: int, rng: random.Random, answers: int, tally: Tally,
           where: str, ta: list, tb: list) -> None:
    """Play both worlds on with the same answers of the observer, the same dice and the same answers of the
    other side to the same decisions, comparing what the observer is shown, one answer of it at a time.
    ``ta`` and ``tb``, what it was shown as the worlds parted, must be the same."""
    if ta != tb:
        raise Leak(f"{where}: side {observer} is shown {first_difference(ta, tb)}")
    ta, tb = [ta + screen(real, observer)], [tb + screen(twin, observer)]
    key, other, learnt = None, None, None
    for n in range(answers + 1):
        seed, dice = rng.random(), real.dice
        for world, trace, answer in ((real, ta, key), (twin, tb, other if key else None)):
            world.dice = copy.deepcopy(dice)
            if answer is not None:
                trace.append(told(world, observer, world.answer(answer)) + screen(world, observer))
            trace[-1] += others_turn(world, observer, seed)
        tally.answers += 1
        if learnt is None and n > 0 and real.known(observer) != twin.known(observer):
            learnt = n              # its observation was the same when it last decided (the screens agreed)
        if judge(ta, tb, learnt, observer, tally, f"{where}, {n} answers of side {observer} on"):
            return
        da, db = real.pending(), twin.pending()
        if n == answers or da is None or db is None:
            return
        key = choose(rng, da, real)
        other = key if db.option(key) is not None else choose(rng, db, twin)


def swap(world: World, observer: int, rng: random.Random, plan: Plan, tally: Tally, where: str) -> None:
    """Redraw what the observer may not know, and compare the two worlds as they play on."""
    drawn = world.rules.disguise(world.here(), observer, random.Random(rng.random()))
    tally.swaps += 1
    tally.redrawn += not same(drawn, world.here())
    tally.hiding += not same(world.known(observer).state, world.here())     # observe() keeps something back
    real, twin = asked_afresh(world.fork()), asked_afresh(world.fork(drawn))
    follow(real, twin, observer, rng, plan.follow, tally, f"{where}, side {1 - observer}'s secrets redrawn",
           [("swap", sight(real, observer))], [("swap", sight(twin, observer))])
    d = world.pending()
    if d is not None and d.side != observer and d.secret:
        alternatives(world, d, observer, rng, plan, tally, where)


def asked_afresh(world: World) -> World:
    """The waiting decision asked again of this world's own state: a disguise copies the decision that was
    asked of the real one (decisions are shared by copies), and options must follow from the redrawn state.
    A step that cannot ask again without rolling keeps the decision it asked."""
    fresh = copy.deepcopy(world.here())
    fresh.steps.waiting = None
    try:
        world.rules.begin(fresh)
    except EscarmoucheError:
        return world
    world.state = fresh
    world.doors = world.bf.door.copy()
    return world


def alternatives(world: World, d: Decision, observer: int, rng: random.Random, plan: Plan, tally: Tally,
                 where: str) -> None:
    """The other side answers a secret decision: two answers whose states differ only in what is kept from the
    observer (an ambush or doing nothing, one hidden declaration or another: its observation is the same)
    must leave it shown the same, their own events included (see ``parting``)."""
    calm, loud = [o for o in d.options if quiet(o, d)], [o for o in d.options if not quiet(o, d)]
    rng.shuffle(calm)
    rng.shuffle(loud)
    options = calm + loud           # what is done out of sight is mostly done on the spot
    real = world.fork()
    ea = told(real, observer, real.answer(options[0].key))
    known = real.known(observer)
    for option in options[1:plan.alternatives + 1]:
        other = world.fork()
        eb = told(other, observer, other.answer(option.key))
        if other.known(observer) != known or (same(other.here(), real.here()) and same(other.doors, real.doors)):
            continue                # the observer may tell them apart, or they differ in nothing kept from it
        what = f"{where}, side {d.side} answering '{options[0].key}' or '{option.key}' to its secret '{d.kind}'"
        verdict = parting(d, (options[0], option), ea, eb)
        if verdict == "announced":
            continue
        tally.alternatives += 1
        if verdict == "revealed":
            tally.revealed += 1
            continue
        follow(real.fork(), other, observer, rng, plan.follow, tally, what, ea, eb)


def parting(d: Decision, answers: tuple[Option, Option], ea: list, eb: list) -> str | None:
    """How the events of two answers to a secret decision part, as the observer sees them. The answer's own
    events (those of the deciding figure, up to the first event both share that is another figure's or
    none's: a new phase, an enemy's standing order) must be the same, or it is a leak (None; ``follow`` then
    says where), unless they part at the figure's own action told in the open as what it is: one answer is
    then announced, a rally told as a rally against an ambush told as the end (``"announced"``: not a pair
    to compare). What the rules then resolve against the real state in the same answer may tell the worlds
    apart (``"revealed"``: the end-of-turn commitment check counting an ambush, the shot of the observer's
    own standing order at an ambusher's real cover), as later events may in ``follow``."""
    for i, (x, y) in enumerate(zip(ea, eb)):
        if x != y:
            return "announced" if any(e[1] == "action" and e[2].get("figure") == d.figure
                                      and e[2].get("action") == o.action for e, o in zip((x, y), answers)) else None
        if x[2].get("figure") != d.figure:
            return "revealed" if ea != eb else None
    return None


# --- matches ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def fields(rules_id: str) -> tuple:
    """The small shipped maps the module plays on, with their doors as loaded."""
    rules = get(rules_id)
    out = []
    for path in MAPS:
        bf = load_battlefield(path)
        doors = bf.door.copy()
        try:
            rules.new_state(bf, rules.default_armies(bf), rules.default_max_turns)
        except EscarmoucheError:
            continue
        out.append((path.name, bf, doors))
    assert out, f"{rules_id} plays on none of {[p.name for p in MAPS]}"
    return tuple(out)


def new_world(rules_id: str, seed: int) -> tuple[str, World]:
    """A fresh hot-seat match, its first decider handed the screen (see test_hotseat_secrecy.py)."""
    rules = get(rules_id)
    name, bf, doors = fields(rules_id)[seed % len(fields(rules_id))]
    bf.door[...] = doors
    state = rules.new_state(bf, rules.default_armies(bf), rules.default_max_turns)
    world = World(rules, bf, state, bf.door.copy(), Dice(seed))
    hand(world)
    return name, world


def play(rules_id: str, seeds: range, plan: Plan) -> Tally:
    rules = get(rules_id)
    use_rules(rules)
    tally = Tally()
    for seed in seeds:
        rng = random.Random(f"{rules_id}:{seed}")
        name, world = new_world(rules_id, seed)
        tally.matches += 1
        points = sorted(rng.sample(range(plan.answers), plan.swaps))
        eager: set[str] = set()         # the kinds of secret decision a swap was made at
        for n in range(points[-1] + 1):
            d = world.pending()
            where = f"{rules_id} on {name}, seed {seed}, answer {n}"
            if d is None:
                swap(world, rng.choice(rules.sides), rng, plan, tally, f"{where}, the end")
                break
            if n in points:
                swap(world, rng.choice(rules.sides), rng, plan, tally, where)
            elif d.secret and d.kind not in eager and rng.random() < plan.eager:
                eager.add(d.kind)
                swap(world, 1 - d.side, rng, plan, tally, where)
            world.answer(choose(rng, d, world))
            hand(world)
    return tally


def check(rules_id: str, chunk: int, plan: Plan) -> Tally:
    """One chunk of the plan's matches. A chunk whose games hid something yet never came to a secret that
    could be otherwise (KOLAPS's observe also keeps back what a past ambush left, that nothing reads any
    more) plays up to two more chunks of other seeds before it calls disguise() a copy."""
    per_chunk = plan.matches // plan.chunks
    tally = play(rules_id, range(chunk * per_chunk, (chunk + 1) * per_chunk), plan)
    print(f"{rules_id} chunk {chunk}: {tally}")
    assert tally.matches == per_chunk and tally.swaps >= tally.matches
    for extra in (1, 2):
        if not tally.hiding or tally.redrawn:
            break
        start = (plan.chunks * extra + chunk) * per_chunk
        more = play(rules_id, range(start, start + per_chunk), plan)
        print(f"{rules_id} chunk {chunk}, more seeds: {more}")
        tally.hiding, tally.redrawn = tally.hiding + more.hiding, tally.redrawn + more.redrawn
    if tally.hiding:
        assert tally.redrawn, (f"{rules_id}: observe() hides something from a side in {tally.hiding} swaps, but "
                               f"disguise() never drew anything else: it is a copy while the rules keep secrets")
    return tally


# --- staged positions: where random play seldom goes ------------------------------------------------------

def eisdrachen_prayer_in_hiding():
    """A Bleu has prayed in hiding for a dodge reroll, then left its hiding place; the enemy is to act."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[5, 5] = True
    state = eisdrachen.build(eisdrachen.unit("ghost", 0, (5, 5), "Bleu"),
                             eisdrachen.unit("e", 1, (12, 5), "Vétéran", loadout="assault"), bf=bf, turn=2)
    eisdrachen.bless_in_hiding(state, "ghost", 3, "e")
    return state, 1


def eisdrachen_alarm_near_a_hidden_friend():
    """A friend has sounded the alarm within 6 pas of a hidden figure; the enemy watches."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[4, 4] = True
    state = eisdrachen.build(eisdrachen.unit("ghost", 0, (4, 4)), eisdrachen.unit("s", 0, (0, 0)),
                             eisdrachen.unit("e", 1, (14, 4)), bf=bf, turn=2)
    eisdrachen.answer(state, "hide")
    eisdrachen.activate(state, "s")
    eisdrachen.answer(state, "alarm")
    return state, 1


def eisdrachen_alarm_heard_in_hiding_then_shot_at():
    """A friend sounded the alarm within 6 pas of a hidden figure, which is to act the next turn (most of
    what it may do leaves its hiding place); then a walled-in rifleman of the enemy acts, its one target
    that figure once it shows."""
    bf = Battlefield.open_ground(30, 30)
    bf.hiding[4, 4] = True
    bf.blocks_move[3:6, 13:16] = True
    bf.blocks_move[4, 14] = False
    bf.blocks_sight[0:4, 10] = True
    state = eisdrachen.build(eisdrachen.unit("ghost", 0, (4, 4), loadout="rifleman"), eisdrachen.unit("s", 0, (0, 0)),
                             eisdrachen.unit("e", 1, (14, 4), loadout="rifleman"), bf=bf, turn=2)
    eisdrachen.answer(state, "hide")
    eisdrachen.activate(state, "s")
    eisdrachen.answer(state, "alarm")
    state.turn = 3
    state.figure("e").activated = False
    eisdrachen.activate(state, "ghost")
    return state, 1


def kolaps_ambusher_in_cover():
    """An offensive veteran in heavy cover may have stipulated an ambush; a shooter far off is to act, and a
    move-and-shoot at it is possible only if its offensive box spoils its cover (no ambush armed)."""
    state = kolaps.make_state([kolaps.fig("A1", "trooper", (0, 0), morale=5, offensive=True)],
                              [kolaps.fig("B1", "veteran", (30, 0), morale=5, offensive=True)])
    state.bf.cover[0, 30] = 2
    b1 = state.chars["B1"]
    b1.cib_mod, b1.huddled, b1.quiet_turn = 4, True, 1
    b1.ambush_armed, b1.ambush_order, b1.ambush_declared_turn = True, Order("after"), 1
    state.to_play, state.attacker, state.defender = 0, 0, 1
    state.steps.push(Activation("A1", "regular"))
    state.steps.run(kolaps.ctx_for(state, []), kolaps.RULES.refill)
    return state, 0


def kolaps_ambush_to_declare():
    """An offensive veteran in heavy cover is to act: it may stipulate an ambush, or do nothing."""
    state = kolaps.make_state([kolaps.fig("A1", "veteran", (5, 5), morale=5, offensive=True)],
                              [kolaps.fig("B1", "trooper", (16, 5), morale=5, offensive=True)])
    state.bf.cover[5, 6] = 2
    state.to_play, state.attacker, state.defender = 0, 0, 1
    state.steps.push(Activation("A1", "regular"))
    state.steps.run(kolaps.ctx_for(state, []), kolaps.RULES.refill)
    return state, 1


STAGED = {"eisdrachen": (eisdrachen_prayer_in_hiding, eisdrachen_alarm_near_a_hidden_friend,
                          eisdrachen_alarm_heard_in_hiding_then_shot_at),
          "kolaps": (kolaps_ambusher_in_cover, kolaps_ambush_to_declare)}


@pytest.mark.parametrize("rules_id,position", [(r, p) for r, ps in STAGED.items() for p in ps],
                         ids=lambda v: getattr(v, "__name__", v))
def test_a_side_is_shown_the_same_from_positions_random_play_seldom_reaches(rules_id, position):
    rules = get(rules_id)
    use_rules(rules)
    tally = Tally()
    for seed in range(STAGED_RUNS):
        state, observer = position()
        bf = next(v for v in vars(state).values() if isinstance(v, Battlefield))
        world = World(rules, bf, state, bf.door.copy(), Dice(seed))
        hand(world)
        swap(world, observer, random.Random(seed), EVERYDAY, tally, f"{position.__name__}, seed {seed}")
    assert tally.swaps == STAGED_RUNS and (tally.redrawn or tally.alternatives)


@pytest.mark.parametrize("rules_id,chunk", [(r, c) for r in names() for c in range(EVERYDAY.chunks)])
def test_a_side_is_shown_the_same_whatever_the_other_side_hides(rules_id, chunk):
    check(rules_id, chunk, EVERYDAY)


@pytest.mark.long
@pytest.mark.parametrize("rules_id,chunk", [(r, c) for r in names() for c in range(LONG.chunks)])
def test_a_side_is_shown_the_same_whatever_the_other_side_hides_in_longer_matches(rules_id, chunk):
    check(rules_id, chunk, LONG)
