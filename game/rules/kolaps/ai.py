"""The tactical KOLAPS : Ground Zero player, on the shared framework (game/ai/tactics.py).

The bidding and the selection of offensive characters follow the project default of kolaps.md §3.3.
Every other answer is scored by expected value from the module's exact odds (``rules.odds``): an attack by
the severity rows it is expected to inflict (worth more on a character already hurt), less what a critical
failure costs (friendly fire on an ally crossed by the line, §5.32); a grenade by the figures its blast may
hit, friends counting against. A move is worth the change in its character's position: what it may shoot
or reach from there, less the enemy fire the tile lies in (cover lessens it; a hurt or outmatched
character fears it more), plus the pull of the map's objectives. Module knowledge: a trooper readies its
grenade when enemies bunch within a throw, an ambush stipulates an order its gun can keep, a knife strikes
only at a profit.

It reads only its side's observation; ties break on its own seeded generator, never the match's dice.
"""
from __future__ import annotations

from ...ai.tactics import Tactician, Threat, nearest
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.match import Observation
from .combat import line_of_sight, shot_band
from .effects import Ctx, controller, hostile
from .model import TOTAL_BOXES
from .options import (AMBUSH_ACTIONS, ORDER_RANGES, Conduct, can_offend, destinations, legal_target, static_attacks,
                      usable, weapon)
from .steps import eligible, points, severity_row

ROW_VALUE = {1: 0.1, 2: 0.25, 3: 1.0, 4: 1.0, 5: 2.0, 6: 3.0}
CRITICAL_VALUE = 4.0
BLAST_HIT = 1.2             # a figure a blast hits: its attack on that figure, in row values
FRIENDLY_FIRE = 1.5
EXPOSURE = 0.3
COMMITTED = 1.0             # an attacker's breach costs morale and the next turn's attack (§3.6)
READY_GRENADE = 0.5         # a grenade readied now is thrown next activation, if the enemy stays
AMBUSH = 0.45


class KolapsAI(Tactician):
    SCALE = CRITICAL_VALUE      # a critical hit: the level's margin and blur are shares of it

    def __init__(self, seed: int = 0, level: str = "normal"):
        super().__init__(seed, level)
        self._positions: dict = {}

    # --- helpers ------------------------------------------------------------------

    @staticmethod
    def _ctx(match: Observation) -> Ctx:
        return Ctx(match.state, None, match.rules.data)

    def _opportunity(self, ctx: Ctx, ch) -> bool:
        """An enemy it could attack: in LOS and within 2× range, or reachable to contact (§3.3 AI bidding)."""
        w = weapon(ctx, ch.ready_weapon)
        cpt = ctx.state.cm_per_tile
        walk = None
        for t in ctx.in_play():
            if not legal_target(ctx, ch, t):
                continue
            if w["range"] is not None and usable(ctx, ch, ch.ready_weapon):
                reach_cm = w["range"] if "explosion" in w["traits"] else 2 * w["range"]
                if space.within_cm(ch.tile, t.tile, reach_cm, cpt) and line_of_sight(ctx.bf, ch.tile, t.tile):
                    return True
            elif line_of_sight(ctx.bf, ch.tile, t.tile):
                if walk is None:
                    walk = {tile for tile, _, _ in destinations(ctx, ch, run=False)} | {ch.tile}
                if any(space.adjacent(tile, t.tile) for tile in walk):
                    return True
        return False

    @staticmethod
    def _mine(ctx: Ctx, side: int):
        return [c for c in ctx.in_play() if c.side == side]

    @staticmethod
    def _health(ch) -> float:
        return 1.0 - min(TOTAL_BOXES, ch.total_wounds()) / TOTAL_BOXES

    def _attack_value(self, match: Observation, option: Option) -> float:
        """Expected value of an attack option from its exact odds; 0 for one the odds do not cover."""
        odds = match.rules.odds(match.state, option)
        if odds is None:
            return 0.0
        state = match.state
        a = state.chars[option.figure]
        if option.action == "throw":
            value = 0.0
            for key, p in odds.outcomes.items():
                v = state.chars[key.split(":")[1]]
                if controller(v) == controller(a):
                    value -= FRIENDLY_FIRE * float(p) * BLAST_HIT
                else:
                    value += float(p) * BLAST_HIT * self.worth(self._health(v))
            return value
        target = state.chars[option.target]
        rows = odds.details["severity_given_hit"]
        hit_value = sum(float(p) * ROW_VALUE[int(r.split(":")[1])] for r, p in rows.items())
        o = odds.outcomes
        value = (float(o["critical"]) * CRITICAL_VALUE + float(o["hit"]) * hit_value) * self.worth(self._health(target))
        value -= float(o["critical_failure"]) * 0.6 + float(o["failure"]) * 0.1
        if "friendly_fire" in odds.details["critical_failure_results"]:
            value -= float(o["critical_failure"]) * hit_value * FRIENDLY_FIRE      # an ally on the line (§5.32)
        return value

    def _threats(self, match: Observation, ctx: Ctx, ch) -> list[Threat]:
        """Each enemy with a usable gun as a danger to ``ch``: its shot's expected value on ``ch`` where it
        stands, reaching twice the weapon's range (the long band)."""
        cpt = ctx.state.cm_per_tile
        out = []
        for e in ctx.in_play():
            if not hostile(ch, e):
                continue
            w = weapon(ctx, e.ready_weapon)
            if w["range"] is None or not usable(ctx, e, e.ready_weapon):
                out.append(Threat(e.tile, 1.0, 1.5, sighted=False))
                continue
            shot = Option(f"shoot:{ch.id}", "shoot", e.id, ch.tile, ch.id, value=e.ready_weapon)
            harm = max(self._attack_value(match, shot), 0.3)
            reach = (w["range"] if "explosion" in w["traits"] else 2 * w["range"]) / cpt
            out.append(Threat(e.tile, harm, reach))
        return out

    def _setup(self, match: Observation, ctx: Ctx, ch) -> None:
        """What every position of ``ch`` this decision turns on."""
        bf = ctx.bf
        self._positions = {}
        self._threat_map = self.threat_map(self._threats(match, ctx, ch), lambda a, b: line_of_sight(bf, a, b),
                                           self.sight(bf).cover)
        answer = sum(1.0 for c in ctx.in_play() if not hostile(ch, c)
                     and weapon(ctx, c.ready_weapon)["range"] is not None)
        score = points(ctx.state).points
        side = controller(ch)
        posture = self.posture(score[side] - score[1 - side], TOTAL_BOXES, ctx.turn, ctx.state.max_turns)
        self._caution = self.caution(self._health(ch), self._threat_map.danger(ch.tile), answer, posture)
        self._drive = posture.drive
        self._objectives = self.objectives(match, side, TOTAL_BOXES * 0.1 * posture.drive, ctx.turn)

    def _position_value(self, ctx: Ctx, ch, tile) -> float:
        cache = self._positions
        if tile not in cache:
            cache[tile] = self._position_value_uncached(ctx, ch, tile)
        return cache[tile]

    def _position_value_uncached(self, ctx: Ctx, ch, tile) -> float:
        enemies = [e for e in ctx.in_play() if hostile(ch, e)]
        if not enemies:
            return 0.0
        w = weapon(ctx, ch.ready_weapon)
        cpt = ctx.state.cm_per_tile
        value = -EXPOSURE * self._caution * self._threat_map.danger(tile) + self._objectives.pull(tile)
        nearest_cm = nearest(tile, [e.tile for e in enemies]) * cpt
        whole = self._drive * self._health(ch) / max(1.0, self._caution)
        if w["range"] is None or "explosion" in w["traits"]:
            value += whole * (0.8 - 0.02 * nearest_cm)
        else:
            in_range = sum(1 for e in enemies if space.within_cm(tile, e.tile, w["range"], cpt)
                           and line_of_sight(ctx.bf, tile, e.tile))
            value += 0.25 * min(in_range, 2) - whole * 0.03 * max(0.0, nearest_cm - w["range"])
        return value

    @staticmethod
    def _standing_order(ctx: Ctx, ch) -> str:
        """The ambush it stipulates (§5.15): a gun waits for an enemy within the first order range that covers
        its effective range, not a hopeless shot at extreme range; a contact weapon waits for the first
        enemy that comes into reach."""
        r = weapon(ctx, ch.ready_weapon)["range"]
        near = next((cm for cm in ORDER_RANGES if r is not None and cm >= r), None)
        return "ambush" if near is None else f"ambush:near:{near}"

    def _grenade_ready_value(self, match: Observation, ctx: Ctx, ch) -> float:
        """A grenade made ready now is thrown next activation: the best blast on enemies within a throw,
        discounted for their moving meanwhile."""
        w = weapon(ctx, "grenade")
        best = 0.0
        for e in ctx.in_play():
            if not hostile(ch, e) or shot_band(ch.tile, e.tile, w, ctx.state.cm_per_tile) is None:
                continue
            if not line_of_sight(ctx.bf, ch.tile, e.tile):
                continue
            throw = Option(f"throw:{e.id}", "throw", ch.id, e.tile, e.id, value="grenade")
            best = max(best, self._attack_value(match, throw))
        return READY_GRENADE * best

    def _score(self, match: Observation, ctx: Ctx, ch, o: Option, shot_values: dict) -> float:
        a = o.action
        here = self._position_value(ctx, ch, ch.tile)
        committed = ch.offensive and match.state.attacker == controller(ch) and not ch.did_offensive_action_this_turn
        bonus = COMMITTED if committed else 0.0
        if a in ("shoot", "burst", "strike", "throw"):
            return self._attack_value(match, o) + bonus
        if a == "moveshoot":
            if o.target not in shot_values:
                shot_values[o.target] = self._attack_value(match, o)
            return shot_values[o.target] + bonus + self._position_value(ctx, ch, o.tile) - here - 0.15
        if a == "movestrike":
            return self._attack_value(match, o) + bonus + self._position_value(ctx, ch, o.tile) - here - 0.15
        if a in ("walk", "run"):
            tired = 0.3 if ch.fatigue >= 4 else 0.0
            return self._position_value(ctx, ch, o.tile) - here - (0.1 + tired if a == "run" else 0.0)
        if a in AMBUSH_ACTIONS:
            return AMBUSH + bonus * 0.9 + (0.01 if o.key == self._standing_order(ctx, ch) else 0.0)
        if a == "cover":
            if ch.morale_state == "withdrawing":
                return 1.0
            return 0.5 * EXPOSURE * self._caution * self._threat_map.danger(ch.tile)
        if a == "prone":
            return 0.1 if ch.morale_state == "pinned" else -0.2
        if a == "stand":
            return 0.35
        if a == "encourage":                   # a friend back in the fight, at the chance of the roll
            return 1.2 * float(match.rules.odds(match.state, o).details["success"])
        if a == "rally":                       # difficulty 2: worth an activation when morale is low
            return 0.6 if ch.morale <= 3 else 0.25 if ch.morale == 4 else 0.05
        if a == "catch_breath":
            return 0.08 * ch.fatigue
        if a in ("unjam", "pickup", "reload"):
            return 0.9
        if a == "pickup_left":
            return 0.85
        if a == "take_left":                   # a second weapon at hand, for the next activation
            return 0.05
        if a == "change_weapon":
            if o.value == "grenade":
                return self._grenade_ready_value(match, ctx, ch)
            if not usable(ctx, ch, ch.ready_weapon) or ch.ready_weapon in ("unarmed", "grenade"):
                return 0.7
            return -0.1
        if a == "flee":
            return 1.0
        return 0.0

    # --- phase 1 --------------------------------------------------------------------

    def score_bid(self, match: Observation, decision: Decision) -> dict[str, float]:
        """§3.3: U, the characters with morale 4+ and an attack opportunity; outbid by one while under U,
        stop at the standing bid; a barred side announces every eligible character, a free attacker U."""
        ctx = self._ctx(match)
        mine = [c for c in self._mine(ctx, decision.side) if eligible(ctx, c)]
        e = len(mine)
        u = sum(1 for c in mine if c.morale >= 4 and self._opportunity(ctx, c))
        high = decision.info.get("high_bid")
        if decision.info.get("free"):
            n = e if match.state.auction.get("barred") == decision.side else u    # only the attacker can breach
        elif high is None:
            n = u
        elif high < u:
            n = min(high + 1, e)
        else:
            n = min(e, high)
        return {o.key: -abs(o.value - n) if isinstance(o.value, int) else -99.0 for o in decision.options}

    def score_offensive(self, match: Observation, decision: Decision) -> dict[str, float]:
        """An attacker ticks characters with morale 4+ first; then those with an opportunity, rank, morale."""
        ctx = self._ctx(match)
        attacker = match.state.attacker == decision.side
        chars = {o.key: ctx.char(o.figure) for o in decision.options}
        keen = attacker and any(c.morale >= 4 for c in chars.values())
        ranked = sorted(chars, key=lambda k: ((not keen or chars[k].morale >= 4), self._opportunity(ctx, chars[k]),
                                              chars[k].rank(ctx.turn), chars[k].morale, chars[k].id))
        return {k: float(i) for i, k in enumerate(ranked)}

    def score_first_player(self, match: Observation, decision: Decision) -> dict[str, float]:
        ctx = self._ctx(match)
        ready = any(not c.activated_this_turn and c.offensive and self._opportunity(ctx, c)
                    for c in self._mine(ctx, decision.side))
        return {o.key: 1.0 if o.key == ("start:me" if ready else "start:opponent") else 0.0 for o in decision.options}

    # --- phase 2 --------------------------------------------------------------------

    def score_activate(self, match: Observation, decision: Decision) -> dict[str, float]:
        """The character with the best attack now goes first."""
        ctx = self._ctx(match)
        out = {}
        for o in decision.options:
            ch = ctx.char(o.figure)
            opts = static_attacks(ctx, ch, Conduct()) if can_offend(ctx, ch, Conduct()) else []
            out[o.key] = max((self._attack_value(match, x) for x in opts), default=0.0) + 0.01 * ch.rank(ctx.turn)
        return out

    def score_action(self, match: Observation, decision: Decision) -> dict[str, float]:
        ctx = self._ctx(match)
        ch = ctx.char(decision.figure)
        self._setup(match, ctx, ch)
        shot_values: dict = {}
        return {o.key: self._score(match, ctx, ch, o, shot_values) for o in decision.options}

    # --- sub-decisions ----------------------------------------------------------------

    def score_keep_die(self, match: Observation, decision: Decision) -> dict[str, float]:
        """The highest die on an enemy, the lowest on a friend."""
        state = match.state
        victim = state.chars.get(decision.info.get("victim"))
        roller = state.chars.get(decision.figure)
        friendly = victim is not None and roller is not None and controller(victim) == controller(roller)
        return {o.key: -o.value if friendly else o.value for o in decision.options}

    def score_burst_swap(self, match: Observation, decision: Decision) -> dict[str, float]:
        victim = match.state.chars[decision.info["victim"]]
        s, loc = decision.info["severity"], decision.info["location"]
        swap = severity_row(victim, loc, s) > severity_row(victim, s, loc)
        return {o.key: 1.0 if (o.key == "swap") == swap else 0.0 for o in decision.options}

    def score_incident(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "jam" else 0.0 for o in decision.options}

    def score_crossfire(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "keep" else 0.0 for o in decision.options}

    def score_reaction(self, match: Observation, decision: Decision) -> dict[str, float]:
        ctx = self._ctx(match)
        ch = ctx.char(decision.figure)
        respond = ch.offensive and ch.morale >= 3
        return {o.key: 1.0 if (o.key == "respond") == respond else 0.0 for o in decision.options}

    def score_knife(self, match: Observation, decision: Decision) -> dict[str, float]:
        """A knife strikes first only at a profit: passing is worth nothing, a strike its expected value."""
        return {o.key: 0.0 if o.key == "pass" else self._attack_value(match, o) for o in decision.options}
