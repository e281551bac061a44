"""Tactical AI for KOLAPS : Ground Zero: answers every decision kind, scoring attacks with the exact odds.

The bidding and selection follow the project default of kolaps.md §3.3; actions are scored greedily:
expected harm from ``rules.odds`` for attacks, a position value (cover, range to the enemy) for moves.
Its own randomness (tie-breaks) comes from ``seed``, never from the match's dice.
"""
from __future__ import annotations

import random

from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.match import Observation
from .combat import behind_cover, line_of_sight
from .effects import Ctx, controller, hostile
from .options import (AMBUSH_ACTIONS, ORDER_RANGES, Conduct, can_offend, destinations, legal_target, static_attacks,
                      usable, weapon)
from .steps import eligible, severity_row

ROW_VALUE = {1: 0.1, 2: 0.25, 3: 1.0, 4: 1.0, 5: 2.0, 6: 3.0}
CRITICAL_VALUE = 4.0


class KolapsAI:
    name = "tactical"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)
        self._positions: dict = {}

    def choose(self, match: Observation, decision: Decision) -> str:
        handler = getattr(self, f"_{decision.kind}", None)
        key = handler(match, decision) if handler else None
        if key is None or decision.option(key) is None:
            key = decision.options[0].key
        return key

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

    def _mine(self, ctx: Ctx, side: int):
        return [c for c in ctx.in_play() if c.side == side]

    # --- phase 1 --------------------------------------------------------------------

    def _start(self, match, decision):
        return "begin"

    def _bid(self, match: Observation, decision: Decision) -> str:
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
        return f"bid:{n}"

    def _offensive(self, match: Observation, decision: Decision) -> str:
        ctx = self._ctx(match)
        attacker = match.state.attacker == decision.side
        cands = [ctx.char(o.figure) for o in decision.options]
        if attacker and any(c.morale >= 4 for c in cands):
            cands = [c for c in cands if c.morale >= 4]
        best = max(cands, key=lambda c: (self._opportunity(ctx, c), c.rank(ctx.turn), c.morale, c.id))
        return f"pick:{best.id}"

    def _first_player(self, match: Observation, decision: Decision) -> str:
        ctx = self._ctx(match)
        ready = any(not c.activated_this_turn and c.offensive and self._opportunity(ctx, c)
                    for c in self._mine(ctx, decision.side))
        return "start:me" if ready else "start:opponent"

    # --- phase 2 --------------------------------------------------------------------

    def _activate(self, match: Observation, decision: Decision) -> str:
        ctx = self._ctx(match)
        best, best_score = None, None
        for o in decision.options:
            ch = ctx.char(o.figure)
            opts = static_attacks(ctx, ch, Conduct()) if can_offend(ctx, ch, Conduct()) else []
            score = max((self._attack_value(match, x) for x in opts), default=0.0)
            score += 0.01 * ch.rank(ctx.turn) + self._rng.random() * 1e-3
            if best_score is None or score > best_score:
                best, best_score = o.key, score
        return best

    def _attack_value(self, match: Observation, option: Option) -> float:
        odds = match.rules.odds(match.state, option)
        if odds is None:
            return 0.0
        state = match.state
        a = state.chars[option.figure]
        if option.action == "throw":
            value = 0.0
            for key, p in odds.outcomes.items():
                v = state.chars[key.split(":")[1]]
                sign = -1.5 if controller(v) == controller(a) else 1.0
                value += sign * float(p) * 1.2
            return value
        rows = odds.details["severity_given_hit"]
        hit_value = sum(float(p) * ROW_VALUE[int(r.split(":")[1])] for r, p in rows.items())
        o = odds.outcomes
        value = float(o["critical"]) * CRITICAL_VALUE + float(o["hit"]) * hit_value
        value -= float(o["critical_failure"]) * 0.6 + float(o["failure"]) * 0.1
        if "friendly_fire" in odds.details["critical_failure_results"]:
            value -= float(o["critical_failure"]) * hit_value * 1.5        # an ally on the line (§5.32)
        return value

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
        value = 0.3 if behind_cover(ctx.bf, tile) and self._threatened(ctx, tile, enemies) else 0.0
        nearest = min(space.distance(tile, e.tile) * cpt for e in enemies)
        if w["range"] is None or "explosion" in w["traits"]:
            value += 0.8 - 0.02 * nearest
        else:
            in_range = sum(1 for e in enemies if space.within_cm(tile, e.tile, w["range"], cpt)
                           and line_of_sight(ctx.bf, tile, e.tile))
            value += 0.25 * min(in_range, 2) - 0.03 * max(0.0, nearest - w["range"])
        return value

    @staticmethod
    def _threatened(ctx: Ctx, tile, enemies) -> bool:
        """Cover is only worth seeking where an enemy could shoot within its long range (2R) and sees the tile."""
        cpt = ctx.state.cm_per_tile
        for e in enemies:
            r = weapon(ctx, e.ready_weapon)["range"]
            if space.within_cm(tile, e.tile, 2 * (r or 10), cpt) and line_of_sight(ctx.bf, tile, e.tile):
                return True
        return False

    @staticmethod
    def _standing_order(ctx: Ctx, ch) -> str:
        """The ambush it stipulates (§5.15): a gun waits for an enemy within the first order range that covers
        its effective range, not a hopeless shot at extreme range; a contact weapon waits for the first
        enemy that comes into reach."""
        r = weapon(ctx, ch.ready_weapon)["range"]
        near = next((cm for cm in ORDER_RANGES if r is not None and cm >= r), None)
        return "ambush" if near is None else f"ambush:near:{near}"

    def _score(self, match: Observation, ctx: Ctx, ch, o: Option, shot_values: dict) -> float:
        a = o.action
        here = self._position_value(ctx, ch, ch.tile)
        committed = ch.offensive and match.state.attacker == controller(ch) and not ch.did_offensive_action_this_turn
        bonus = 1.0 if committed else 0.0      # a breach costs morale and the next turn's attack (§3.6)
        if a in ("shoot", "burst", "strike", "throw"):
            return self._attack_value(match, o) + bonus
        if a == "moveshoot":
            if o.target not in shot_values:
                shot_values[o.target] = self._attack_value(match, o)
            return shot_values[o.target] + bonus + self._position_value(ctx, ch, o.tile) - here - 0.15
        if a == "movestrike":
            return self._attack_value(match, o) + bonus - 0.15
        if a in ("walk", "run"):
            tired = 0.3 if ch.fatigue >= 4 else 0.0
            return self._position_value(ctx, ch, o.tile) - here - (0.1 + tired if a == "run" else 0.0)
        if a in AMBUSH_ACTIONS:
            return 0.45 + bonus * 0.9 + (0.01 if o.key == self._standing_order(ctx, ch) else 0.0)
        if a == "cover":
            if ch.morale_state == "withdrawing":
                return 1.0
            return 0.2 if self._threatened(ctx, ch.tile, [e for e in ctx.in_play() if hostile(ch, e)]) else 0.0
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
            if not usable(ctx, ch, ch.ready_weapon) or ch.ready_weapon == "unarmed":
                return 0.7 if o.value != "grenade" else 0.3
            return -0.1
        if a == "flee":
            return 1.0
        return 0.0

    def _action(self, match: Observation, decision: Decision) -> str:
        ctx = self._ctx(match)
        ch = ctx.char(decision.figure)
        self._positions = {}
        shot_values: dict = {}
        best, best_score = None, None
        for o in decision.options:
            score = self._score(match, ctx, ch, o, shot_values) + self._rng.random() * 1e-4
            if best_score is None or score > best_score:
                best, best_score = o.key, score
        return best

    # --- sub-decisions ----------------------------------------------------------------

    def _keep_die(self, match: Observation, decision: Decision) -> str:
        state = match.state
        victim = state.chars.get(decision.info.get("victim"))
        roller = state.chars.get(decision.figure)
        values = sorted((o.value for o in decision.options), reverse=True)
        friendly = victim is not None and roller is not None and controller(victim) == controller(roller)
        return f"keep:{values[-1] if friendly else values[0]}"

    def _burst_swap(self, match: Observation, decision: Decision) -> str:
        victim = match.state.chars[decision.info["victim"]]
        s, loc = decision.info["severity"], decision.info["location"]
        return "swap" if severity_row(victim, loc, s) > severity_row(victim, s, loc) else "no_swap"

    def _incident(self, match, decision):
        return "jam"

    def _crossfire(self, match, decision):
        return "keep"

    def _reaction(self, match: Observation, decision: Decision) -> str:
        ctx = self._ctx(match)
        ch = ctx.char(decision.figure)
        return "respond" if ch.offensive and ch.morale >= 3 else "decline"

    def _knife(self, match: Observation, decision: Decision) -> str:
        return next(o.key for o in decision.options if o.key != "pass")
