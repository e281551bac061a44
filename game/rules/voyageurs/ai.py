"""The Voyageurs AI: candidates scored by expected value from the module's exact odds, ties broken by its
own seeded generator. It reads only its side's observation: an enemy whose type its side has not learnt
has unknown PV, which it estimates from its own people and the damage it has seen that enemy take.

Defaults of the spec (5.17): intercept when the ally has fewer PV than the protector; flee when
eligible having lost half the starting combatants, with the best AGI + ESP; accept a truce when its side
has fewer PV than the proposer's; hold blows back only when the objective is capture; board when its crew
outnumbers the enemy's.
"""
from __future__ import annotations

import random
from fractions import Fraction

from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.dice import mean
from .aerial import aboard, between, gunners, range_modifier, rival
from .checks import critical_chance, damage_dist, success_chance
from .model import Combatant, State, data
from .odds import odds, volley_mean
from . import actions as act

SIGHT_CHECKS = 8          # tiles a move considers closely, tracing lines of sight from them


class VoyageursAI:
    name = "tactical"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, observation, decision: Decision) -> str:
        st: State = observation.state
        self.seen = observation.events
        handler = getattr(self, f"on_{decision.kind}", None)
        if handler is None:
            return self.rng.choice(decision.options).key
        return handler(st, decision).key

    def best(self, scored: list[tuple[float, Option]]) -> Option:
        top = max(s for s, _ in scored)
        return self.rng.choice([o for s, o in scored if s >= top - 1e-9])

    # --- beliefs ---------------------------------------------------------------------------

    def believed_pv(self, st: State, c: Combatant) -> int:
        """Its PV if known; else the mean PV max of the AI's own people, less what it was seen to lose."""
        if c.pv is not None:
            return c.pv
        own = [o.max_pv for o in st.combatants.values() if o.side != c.side and o.max_pv is not None]
        prior = round(sum(own) / len(own)) if own else 15
        for e in self.seen:
            if e.kind in ("damaged", "healed") and e.data.get("figure") == c.id and e.data.get("gauge") == "pv":
                prior += e.data["amount"] if e.kind == "healed" else -e.data["amount"]
        return max(prior, 1) if c.conscious else min(prior, 0)

    def side_pv(self, st: State, side: int) -> int:
        return sum(max(0, self.believed_pv(st, c)) for c in st.side_of(side) if c.present)

    # --- the ground -----------------------------------------------------------------------

    def strike_value(self, st: State, o: Option) -> float:
        """Expected damage, with a bonus for the chance of putting the target out of the fight."""
        c, t = st.fig(o.figure), st.fig(o.target)
        w = act.weapon(o.value)
        if not t.conscious:
            return 0.5 if st.objective == "capture" else 1.0
        hit = success_chance(act.to_hit_bonus(st, c, t, o.value, o.action == "hold_back"), t.initiative)
        crit = critical_chance()
        pv = self.believed_pv(st, t)
        value = 0.0
        for weight, is_crit in ((hit - crit, False), (crit, True)):
            dist = damage_dist(w["damage"], is_crit)
            value += float(weight) * (float(mean(dist)) + 12 * float(sum(p for v, p in dist.items() if v >= pv)))
        if w["firearm"]:
            value -= 0.5
        return value

    def tile_value(self, st: State, c: Combatant, tile, weapon_id: str | None, sight: bool = True) -> float:
        """Melee: close in, best beside an enemy. Ranged: enemies in range and sight, cover, nobody at arm's
        length. ``sight`` False scores range alone, to pick the few tiles worth a line of sight."""
        foes = [e for e in act.enemies(st, c) if e.conscious]
        if not foes:
            return 0.0
        w = act.weapon(weapon_id) if weapon_id else act.weapon(data()["bare_hands"])
        near = min(space.distance(tile, e.tile) for e in foes)
        if w["type"] == "melee" or (w["firearm"] and c.pe < w["pe"]):
            return -near + (3 if any(act.melee_reach(st, tile, e.tile) for e in foes) else 0)
        bf = st.battlefield
        score = 1.0 if bf.cover[tile[1], tile[0]] else 0.0
        for e in foes:
            if space.within(tile, e.tile, w["range"]) and (not sight or space.line_of_sight(bf, tile, e.tile)):
                score += 3
            if space.adjacent(tile, e.tile):
                score -= 2
        return score - 0.05 * near

    def best_tile(self, st: State, c: Combatant, moves: list[Option]) -> tuple[float, Option]:
        """The best tile to move to; lines of sight are traced only from the most promising few."""
        rough = sorted(((self.tile_value(st, c, o.tile, c.weapon, False), i) for i, o in enumerate(moves)),
                       reverse=True)[:SIGHT_CHECKS]
        return max((self.tile_value(st, c, moves[i].tile, c.weapon), -i, moves[i]) for _, i in rough)[::2]

    def on_action(self, st: State, d: Decision) -> Option:
        if d.figure in st.transports:
            return self.transport_action(st, d)
        c = st.fig(d.figure)
        by = {}
        for o in d.options:
            by.setdefault(o.action, []).append(o)
        if "knowledge" in by:
            return by["knowledge"][0]
        heal = [o for o in by.get("use_item", []) if data()["items"][o.value]["restores"] == "pv"
                and self.hurt(st, st.fig(o.target))]
        if heal:
            return self.best([(-self.believed_pv(st, st.fig(o.target)), o) for o in heal])
        energy = [o for o in by.get("use_item", []) if data()["items"][o.value]["restores"] == "pe"
                  and st.fig(o.target).pe <= 1 and st.fig(o.target).weapon
                  and act.weapon(st.fig(o.target).weapon)["firearm"]]
        if energy:
            return energy[0]
        strikes = [o for o in by.get("attack", []) + by.get("hold_back", [])
                   if (o.action == "hold_back") == (st.objective == "capture")]
        if strikes:
            scored = [(self.strike_value(st, o), o) for o in strikes]
            if max(s for s, _ in scored) > 0.8:
                return self.best(scored)
        if "move" in by:
            top, tile = self.best_tile(st, c, by["move"])
            if top > self.tile_value(st, c, c.tile, c.weapon) + 0.2:
                return tile
        if "swap_weapon" in by and self.should_swap(st, c):
            return by["swap_weapon"][0]
        if strikes:
            return self.best([(self.strike_value(st, o), o) for o in strikes])
        if "sprint" in by and self.tile_value(st, c, c.tile, c.weapon) < -4:
            return self.best_tile(st, c, by["sprint"])[1]
        if "protect" in by and any(space.adjacent(a.tile, c.tile) and a.conscious for a in act.allies(st, c)):
            return by["protect"][0]
        if "observe" in by:
            return by["observe"][0]
        return next(o for o in d.options if o.action == "end")

    def hurt(self, st: State, c: Combatant) -> bool:
        return c.pv is not None and c.max_pv is not None and c.pv * 5 <= c.max_pv * 2

    def should_swap(self, st: State, c: Combatant) -> bool:
        """An empty gun, or a bow or gun with an enemy at arm's length and a blade carried."""
        if c.carried is None:
            return False
        held = act.weapon(c.weapon) if c.weapon else None
        if held is not None and held["firearm"] and c.pe < held["pe"]:
            return True
        close = any(space.adjacent(c.tile, e.tile) and e.conscious for e in act.enemies(st, c))
        return close and (held is None or held["type"] != "melee") and act.weapon(c.carried)["type"] == "melee"

    def on_activate(self, st: State, d: Decision) -> Option:
        def ready(o: Option) -> float:
            if o.figure in st.transports:
                return 0.0
            c = st.fig(o.figure)
            return max((self.strike_value(st, s) for s in act.attack_options(st, c)), default=0.0)
        return self.best([(ready(o), o) for o in d.options])

    def on_intercept(self, st: State, d: Decision) -> Option:
        target = st.fig(d.info["target"])
        guards = [o for o in d.options if o.action == "intercept"]
        strongest = max(guards, key=lambda o: st.fig(o.figure).pv)
        if target.pv < st.fig(strongest.figure).pv:
            return strongest
        return next(o for o in d.options if o.action == "let_through")

    def on_flight(self, st: State, d: Decision) -> Option:
        """Flee when eligible having lost half of what it started with (5.17): half the starting
        combatants on the ground and on the deck, half the hull in the air (a project reading)."""
        testers = [o for o in d.options if o.action == "flee"]
        stay = next(o for o in d.options if o.action == "stay")
        if st.boarding is None and st.transports:
            t = next(t for t in st.transports.values() if t.side == d.side and t.flying)
            losing = 2 * t.pv <= t.max_pv
        else:
            mine = [st.fig(m) for m in st.fight.members if st.fig(m).side == d.side]
            losing = 2 * sum(1 for c in mine if not c.conscious) >= len(mine)
        if not losing:
            return stay
        return max(testers, key=lambda o: st.fig(o.figure).pair("flight"))

    def on_truce(self, st: State, d: Decision) -> Option:
        mine, theirs = self.side_pv(st, d.side), self.side_pv(st, 1 - d.side)
        return next(o for o in d.options if o.action == ("accept_truce" if mine < theirs else "refuse_truce"))

    def on_talk(self, st: State, d: Decision) -> Option:
        return next(o for o in d.options if o.action == "back")

    def on_initiative(self, st: State, d: Decision) -> Option:
        return d.options[0]

    # --- the air ---------------------------------------------------------------------------

    def outnumbers(self, st: State, t) -> bool:
        return len(aboard(st, t)) > len(aboard(st, rival(st, t)))

    def exchange(self, st: State, t, foe, cases_between: int) -> float:
        """My volley's expected share of their structure, less theirs of mine, at that distance."""
        mod = range_modifier(cases_between)
        return float(volley_mean(st, t, foe, mod) / foe.max_pv - volley_mean(st, foe, t, mod) / t.max_pv)

    def transport_action(self, st: State, d: Decision) -> Option:
        """Board when its crew outnumbers the enemy's (5.17). Then ships being precious (5.16), it closes in
        to take the enemy whole, holding its fire while its own hull holds; else it keeps to the distance
        where the exchange of fire favours it, and fires when each PE buys enough damage."""
        t = st.transports[d.figure]
        foe = rival(st, t)
        by = {o.action: o for o in d.options}
        if "board" in by and self.outnumbers(st, t):
            return by["board"]
        capture = self.outnumbers(st, t) and 2 * t.pv > t.max_pv
        if capture:
            return by.get("approach", by["end"])
        gap = between(t, foe)
        moves = [o for o in d.options if o.action in ("approach", "withdraw")]
        if moves:
            scored = [(self.exchange(st, t, foe, abs(o.value - foe.case) - 1), o) for o in moves]
            if max(s for s, _ in scored) > self.exchange(st, t, foe, gap) + 1e-6:
                return self.best(scored)
        if "fire" in by:
            o = odds(st, by["fire"])
            per_pe = float(o.details["mean_damage"]) / max(1, o.details["gunners"])
            if per_pe >= 1.0 or t.pe >= 2 * (st.max_turns - st.turn + 1):
                return by["fire"]
        return by["end"]

    def on_defenders(self, st: State, d: Decision) -> Option:
        """Every crew member but one goes to defend, the best fighters first."""
        sent = [o for o in d.options if o.action == "defend"]
        return max(sent, key=lambda o: (st.fig(o.figure).pair("melee"), st.fig(o.figure).pv))

    def on_counter(self, st: State, d: Decision) -> Option:
        return next(o for o in d.options if o.action == "fire")
