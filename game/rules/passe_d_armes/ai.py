"""The Passe d'armes AI, on the shared framework (game/ai/tactics.py): candidates scored by the harm they
do, from the exact odds of the observed state.

An attack is worth the boxes it is expected to mark on the target's monitor (more when it fells the
target, and more on a target already hurt: focus fire), against the defence that target would pick, less
the risk of a riposte. A move is worth the best attack it opens plus its position: closer to the enemy, less
the harm the enemy's blades and guns threaten there (cover lessens a shot; a hurt or outmatched combatant
fears it more), a shooter away from blades, off hazards, and the pull of the map's objectives. The
defaults of rules/passe_d_armes.md 5.5, 5.20 and 5.1 b are followed where they speak. Ties break on the
AI's own seeded generator; it never reads the match's dice or hidden state.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from ...ai.tactics import Tactician, Threat
from ...engine import space
from ...engine.decision import Decision, Option
from . import options as opt
from .effects import hazard_at, points
from .flow import Attack, Declare
from .module import predict
from .odds import AttackOdds
from .rolls import BOXES, Monitor, mark
from .state import Combatant, State, weapon

FELL_BONUS = 6.0            # taking a combatant out of the fight is worth more than its boxes
RIPOSTE_COST = 2.0          # what a riposte is expected to cost, in boxes
HAZARD_COST = 3.0
BLADE_COST = 1.5            # a shooter standing next to an enemy blade
APPROACH = 0.1
GUN_TILES = 6               # move tiles a gunner weighs its shots from
SIGHTED = 2                 # enemies, nearest first, it weighs an attack on from a tile it may move to
GUN_DISTANCE = 0.6          # a gunner closes in to this part of its range
KNOCKED_DOWN_COST = 0.5     # standing up is worth this much over lying there
REARM = 0.3                 # a weapon back in hand, per point of its index
BREAK_FREE = 0.8
SPRINT = APPROACH * 4       # a second move, when the first opens no attack
WITHDRAW_COST = 100.0       # the AI fights on: it never leaves by an exit tile
EXPOSURE = 0.3              # of the harm the enemy threatens on a tile, what standing there counts


def harm(target: Combatant, odds: AttackOdds, nature: str) -> float:
    """Expected boxes marked on ``target``, and a bonus for felling it."""
    return _harm(target.monitor, target.pui, odds, nature)


@lru_cache(maxsize=65536)
def _harm(before: Monitor, pui: int, odds: AttackOdds, nature: str) -> float:
    value = 0.0
    for n, p in odds.outcomes:
        after = mark(before, n, nature, pui)
        value += float(p) * (after.top - before.top + (FELL_BONUS if after.helpless and not before.helpless else 0))
    return value


def defender_choice(odds: dict[str, AttackOdds], manoeuvre: str) -> str:
    """5.5: the lower expected wounds, Dodge on a tie; against a manoeuvre that does not wound, the
    lower chance of it succeeding (the same comparison, on what is at stake)."""
    if manoeuvre in ("", "botte"):
        return "absorb" if odds["absorb"].mean < odds["dodge"].mean else "dodge"
    return "absorb" if odds["absorb"].win < odds["dodge"].win else "dodge"


class PasseAI(Tactician):
    SCALE = 1.0

    def __init__(self, seed: int = 0, level: str = "normal"):
        super().__init__(seed, level)
        self._ground = None

    def choose(self, observation, decision: Decision) -> str:
        state: State = observation.state
        handler = getattr(self, f"_{decision.kind}", None)
        if handler is None:
            return decision.options[0].key
        self._ground = None
        if decision.figure is not None and decision.kind in ("action", "declare"):
            self._ground = (decision.figure, *self.ground(observation, state.figure(decision.figure)))
        return handler(state, decision)

    def ground(self, observation, me: Combatant):
        """The threat map, caution, objectives and drive of one combatant's choice."""
        state = observation.state
        threats = []
        for g in opt.enemies(state, me):
            if not g.active:
                continue
            reach = weapon(g.in_hand)["range"]
            harm = self.attack_value(state, g, me, "", g.tile) if reach > 0 else self.attack_value(state, g, me, "")
            threats.append(Threat(g.tile, max(harm, 0.0), reach if reach > 0 else 1.5, sighted=reach > 0))
        sight = self.sight(state.battlefield)
        grid = self.threat_map(threats, sight, sight.cover)
        friends = sum(1 for g in state.active_of(me.side) if g is not me)
        score = points(state).points
        posture = self.posture(score[me.side] - score[1 - me.side], BOXES, state.turn, state.max_turns)
        caution = self.caution(1 - me.monitor.top / BOXES, grid.danger(me.tile), friends + 1.0, posture)
        return grid, caution, self.objectives(observation, me.side, FELL_BONUS * posture.drive, state.turn), posture.drive

    # --- scoring -----------------------------------------------------------------------------

    def attack_value(self, state: State, att: Combatant, tgt: Combatant, manoeuvre: str, at=None) -> float:
        if not tgt.active:
            return 0.0
        odds = predict(state, att, tgt, manoeuvre, at)
        choice = odds[defender_choice(odds, manoeuvre)]
        if manoeuvre in ("", "botte"):
            value = harm(tgt, choice, weapon(att.in_hand)["nature"]) * self.worth(1 - tgt.monitor.top / BOXES)
        elif manoeuvre == "desarmement" and weapon(tgt.in_hand)["range"] > 0:
            value = float(choice.win) * 2.5
        else:
            return 0.0
        return value - float(choice.riposte) * RIPOSTE_COST

    def option_value(self, state: State, o: Option, at=None) -> float:
        att, tgt = state.figure(o.figure), state.figure(o.target)
        value = self.attack_value(state, att, tgt, o.value if o.action == "manoeuvre" else "", at)
        return value * (1 + self.threat(state, att, tgt))

    def best_attack_from(self, state: State, me: Combatant, tile) -> float:
        """The best attack open from ``tile`` on one of the nearest enemies (a gun sights a few only)."""
        best = 0.0
        foes = sorted((g for g in opt.enemies(state, me) if g.active), key=lambda g: space.distance(tile, g.tile))
        for g in foes[:self.foresight(SIGHTED)]:
            if opt.in_reach(state, me.in_hand, tile, g.tile):
                best = max(best, self.attack_value(state, me, g, "", tile) * (1 + self.threat(state, me, g)))
        return best

    def position(self, state: State, me: Combatant, tile) -> float:
        """Closer to the enemy (a gunner only to a good part of its range), a gunner clear of blades,
        never on a hazard or off the field."""
        if state.battlefield.exit_side[tile[1], tile[0]] == me.side:
            return -WITHDRAW_COST
        foes = [g for g in opt.enemies(state, me) if g.active]
        if not foes:
            return 0.0
        reach = weapon(me.in_hand)["range"]
        nearest = min(space.distance(tile, g.tile) for g in foes)
        drive = self._ground[-1] if self._ground is not None and me.id == self._ground[0] else 1.0
        value = -APPROACH * drive * max(0.0, nearest - GUN_DISTANCE * reach)
        if reach > 0:
            value -= BLADE_COST * sum(1 for g in foes if space.adjacent(tile, g.tile) and weapon(g.in_hand)["range"] == 0)
        if hazard_at(state, tile) is not None:
            value -= HAZARD_COST
        if self._ground is not None and me.id == self._ground[0]:
            _, grid, caution, objectives, _ = self._ground
            value += objectives.pull(tile) - EXPOSURE * caution * grid.danger(tile)
        return value

    def threat(self, state: State, me: Combatant, foe: Combatant) -> float:
        """Foresight (5.1 b): a declarer about to strike me or an ally beside me is the one to hit first."""
        if me.side not in state.foresight or not state.initiative.get(me.id, [0, False])[1]:
            return 0.0
        plan = state.declarations.get(foe.id)
        if not plan:
            return 0.0
        for key in plan:
            kind, _, target = key.partition(":")
            if kind == "attack" or kind in ("botte",):
                try:
                    victim = state.figure(target)
                except KeyError:
                    continue
                if victim.id == me.id or (victim.side == me.side and space.adjacent(victim.tile, me.tile)):
                    return 1.0
        return 0.0

    def best(self, scored: Iterable[tuple[float, Option]]) -> Option:
        """The best-scored option, through the framework's pick (its level's blur, seeded ties)."""
        options = {}
        values = {}
        for v, o in scored:
            options[o.key] = o
            values[o.key] = max(v, values.get(o.key, v))
        return options[self.pick(values)]

    # --- decisions -------------------------------------------------------------------------------

    def _initiative(self, state: State, d: Decision) -> str:
        return d.options[0].key

    def _action(self, state: State, d: Decision, at=None, acted: bool | None = None) -> str:
        """Every option scored as the activation it leads to: an attack now, a move and the best attack
        it opens, a sprint, a weapon back in hand, breaking free, or standing where it is."""
        me = state.figure(d.figure)
        at = at or me.tile
        if acted is None:
            acted = bool(d.info.get("acted"))
        here = self.position(state, me, at)
        attacks = [(self.option_value(state, o, at), o) for o in d.options if o.action in ("attack", "manoeuvre")]
        attacks = [(v + here, o) for v, o in attacks if v > 0]
        gun = weapon(me.in_hand)["range"] > 0
        moves = [o for o in d.options if o.action == "move"]
        plans = self.move_plans(state, me, moves, opening=not acted and not (gun and attacks))
        scored = attacks + plans
        opened = bool(attacks) or any(v > self.position(state, me, o.tile) + 1e-9 for v, o in plans)
        walked = max((self.position(state, me, o.tile) for o in moves), default=here)
        for o in d.options:
            if o.action == "sprint":
                scored.append((walked + SPRINT if not opened else here - SPRINT, o))
            elif o.action == "stand_up":
                scored.append((here + KNOCKED_DOWN_COST, o))
            elif o.action in ("ready", "pick_up") and me.in_hand == "hands" and o.value != "hands":
                scored.append((here + REARM * weapon(o.value)["index"], o))
            elif o.action == "break_free":
                scored.append((here + BREAK_FREE, o))
            elif o.action == "end":
                scored.append((here, o))
        return self.best(scored).key

    def move_plans(self, state: State, me: Combatant, moves: list[Option], opening: bool) -> list[tuple[float, Option]]:
        """Each move scored by its position and, when the action is still to come, the best attack it
        opens. Only the tiles where one may open are looked at closely: beside an enemy for a blade,
        the best-placed few for a gun."""
        placed = [(self.position(state, me, o.tile), o) for o in moves]
        if not opening:
            return placed
        foes = [g for g in opt.enemies(state, me) if g.active]
        if weapon(me.in_hand)["range"] == 0:
            close = [i for i, (_, o) in enumerate(placed) if any(space.adjacent(o.tile, g.tile) for g in foes)]
        else:
            close = sorted(range(len(placed)), key=lambda i: -placed[i][0])[:self.foresight(GUN_TILES)]
        for i in close:
            v, o = placed[i]
            placed[i] = (v + self.best_attack_from(state, me, o.tile), o)
        return placed

    def _declare(self, state: State, d: Decision) -> str:
        step = next((s for s in reversed(state.steps.steps) if isinstance(s, Declare) and s.figure == d.figure), None)
        if step is None:
            return self._action(state, d)
        return self._action(state, d, step.at, step.progress.acted)

    def _activate(self, state: State, d: Decision) -> str:
        return self.best((self.best_attack_from(state, state.figure(o.figure), state.figure(o.figure).tile), o)
                         for o in d.options).key

    def _defence(self, state: State, d: Decision) -> str:
        attack = state.steps.steps[-1]
        assert isinstance(attack, Attack)
        odds = predict(state, state.figure(attack.attacker), state.figure(attack.target), attack.manoeuvre)
        return defender_choice(odds, attack.manoeuvre)

    def _exploit(self, state: State, d: Decision) -> str:
        """5.20: before the defence roll, force the worse defence when the two scores differ by 2 or more;
        after it, force a re-roll if the defender won, else ignore protection if there is any."""
        attack = state.steps.steps[-1]
        tgt = state.figure(attack.target)
        keys = {o.action: o.key for o in d.options}
        if "force_defence" in keys:
            dodge, absorb = tgt.score("reflexe"), tgt.score("resister")
            worse = "dodge" if dodge < absorb else "absorb"
            if abs(dodge - absorb) >= 2 and attack.defence != worse:
                return keys["force_defence"]
            return keys["keep_exploit"]
        if attack.d_margin is not None and attack.d_margin > attack.a_margin:
            return keys["reroll"]
        return keys.get("ignore_protection", keys["leave_exploit"])

    def _riposte(self, state: State, d: Decision) -> str:
        scored = [(self.option_value(state, o), o) for o in d.options if o.action != "no_riposte"]
        best = max(scored, key=lambda s: s[0], default=(0.0, None))
        if best[1] is None or best[0] <= 0:
            return next(o for o in d.options if o.action == "no_riposte").key
        return self.best(scored).key

    def _landing(self, state: State, d: Decision) -> str:
        return self.best((1.0 if hazard_at(state, o.tile) else 0.0, o) for o in d.options).key

    def _drop(self, state: State, d: Decision) -> str:
        me = state.figure(d.figure)
        return self.best((-space.distance(me.tile, o.tile), o) for o in d.options).key

    def _truce(self, state: State, d: Decision) -> str:
        """Accept when this side has fewer active combatants than the one that proposed."""
        keys = {o.action: o.key for o in d.options}
        if len(state.active_of(d.side)) < len(state.active_of(d.info["side"])):
            return keys["accept_truce"]
        return keys["refuse_truce"]
