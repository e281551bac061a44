"""A tactical Eisdrachen player in the Wesnoth manner: score every candidate option, play the best.

Scores are expected PV swings from the module's exact odds, plus positional terms for moves
(can I shoot from there, how many enemies can shoot me there, how far is the fight). It reads
only its side's observation (``Eisdrachen.observe``): hidden enemies are absent from it, enemy
tokens unread, an enemy's unseen blessings unknown. Ties break on the seeded generator, so a
game is reproducible from its seed.
"""
from __future__ import annotations

import random
from fractions import Fraction

from ...engine import space
from ...engine.decision import Decision
from ...engine.match import Observation
from . import actions as act
from .combat import weapon
from .state import Figure, State, const

KILL_BONUS = 2.0
FRIENDLY_FIRE = 1.5
EXPOSURE = 0.35
CLOSING = 0.08
ALARM = 0.05
TRAP_RISK = 0.5
MEDIC = 0.3


def expected_capped(outcomes: dict[str, Fraction], pv: int) -> float:
    """Expected PV really lost: wounds beyond the remaining PV are worth nothing."""
    return sum(min(int(k.split(":")[1]), pv) * float(p) for k, p in outcomes.items())


class EisdrachenAI:
    name = "tactical"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def choose(self, match: Observation, decision: Decision) -> str:
        handler = getattr(self, f"_{decision.kind}", None)
        if handler is None or not decision.options:
            return decision.options[0].key
        scored = handler(match, decision)
        best = max(scored.values())
        top = sorted(k for k, v in scored.items() if v >= best - 1e-9)
        return self._rng.choice(top)

    # --- helpers ----------------------------------------------------------------------

    @staticmethod
    def _enemies(state: State, side: int) -> list[Figure]:
        return [f for f in state.figures if f.alive and f.side != side]

    @staticmethod
    def _nearest(tile, figures: list[Figure]) -> float:
        return min((space.distance(tile, f.tile) for f in figures), default=0.0)

    def _threats(self, match: Observation, me: Figure) -> list[tuple[Figure, dict, float]]:
        """Each visible enemy that carries a usable gun, with its expected loss on ``me`` (capped)."""
        state = match.state
        out = []
        for e in self._enemies(state, me.side):
            gun = weapon(e.weapon)
            if act.can_fire(e, gun, state.turn):
                o = match.rules.shot_odds(state, e, me, gun, False)
                out.append((e, gun, expected_capped(o.outcomes, me.pv)))
        return out

    def _position(self, match: Observation, me: Figure, tile, threats, sight, targets) -> float:
        """Value of standing on ``tile``: the best shot from there minus the exposure to enemy guns;
        a medic also values standing by a wounded friend, to heal it next."""
        state = match.state
        gun = weapon(me.weapon)
        best = 0.0
        if act.can_fire(me, gun, state.turn):
            for e, value in targets:
                if space.within(tile, e.tile, gun["range"]) and sight(tile, e.tile):
                    best = max(best, value)
        danger = sum(v for e, g, v in threats if space.within(e.tile, tile, g["range"]) and sight(e.tile, tile))
        enemies = self._enemies(state, me.side)
        value = best - EXPOSURE * danger - CLOSING * self._nearest(tile, enemies)
        if me.medipack:
            value += MEDIC * max((min(f.max_pv - f.pv, 2) for f in state.living(me.side)
                                  if f is not me and space.adjacent(f.tile, tile)), default=0)
        return value

    @staticmethod
    def _tokens_passed(match: Observation, me: Figure, tiles) -> int:
        """Tokens that may be real, as this side sees them, that a path would pass within trigger range of."""
        if me.has("lucky", match.state.turn):
            return 0
        radius = const("trap_radius")
        risky = [t.tile for t in match.rules.tokens(match.state, me.side) if t.kind != "decoy"]
        return sum(1 for k in risky if any(space.within(k, t, radius) for t in tiles))

    @staticmethod
    def _newly_alerted(state: State, me: Figure, friends: list[Figure]) -> int:
        """Friends an alarm would alert that are not yet alerted for next turn: a second alarm adds nothing."""
        radius = const("alarm_radius")
        return sum(1 for f in friends if f is not me and not f.has("alerted", state.turn + 1)
                   and space.within(f.tile, me.tile, radius))

    # --- decision kinds -------------------------------------------------------------------

    def _initiative(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 0.0 for o in decision.options}

    def _activate(self, match: Observation, decision: Decision) -> dict[str, float]:
        state = match.state
        out = {}
        for o in decision.options:
            me = state.figure(o.figure)
            enemies = self._enemies(state, me.side)
            gun = weapon(me.weapon)
            sight = act.sight_for(state.battlefield)
            can_shoot = act.can_fire(me, gun, state.turn) and any(
                space.within(me.tile, e.tile, gun["range"]) and sight(me.tile, e.tile) for e in enemies)
            out[o.key] = (2.0 if can_shoot else 0.0) + me.allowance * 0.1 - 0.01 * self._nearest(me.tile, enemies)
        return out

    def _action(self, match: Observation, decision: Decision) -> dict[str, float]:
        state, rules = match.state, match.rules
        me = state.figure(decision.figure)
        sight = act.sight_for(state.battlefield)
        enemies = self._enemies(state, me.side)
        friends = [f for f in state.living(me.side)]
        threats = self._threats(match, me)
        targets = []
        gun = weapon(me.weapon)
        for e in enemies:
            o = rules.shot_odds(state, me, e, gun, False)
            targets.append((e, expected_capped(o.outcomes, e.pv) + KILL_BONUS * float(o.details["kill"])))
        here = None
        scores: dict[str, float] = {}
        grenades = []
        for o in decision.options:
            a = o.action
            if a in ("shoot", "sniper", "use_fire"):
                target = state.figure(o.target)
                odds = rules.odds(state, o)
                scores[o.key] = expected_capped(odds.outcomes, target.pv) + KILL_BONUS * float(odds.details["kill"]) + 0.2
            elif a == "melee":
                target = state.figure(o.target)
                odds = rules.odds(state, o)
                d = odds.details
                mine = expected_capped(d["attacker_pv_lost"], me.pv)
                scores[o.key] = (expected_capped(odds.outcomes, target.pv) + KILL_BONUS * float(d["kill"])
                                 - mine - KILL_BONUS * float(d["attacker_killed"]) + 0.3)
            elif a in ("move", "crawl", "climb", "jump"):
                if here is None:
                    here = self._position(match, me, me.tile, threats, sight, targets)
                gain = self._position(match, me, o.tile, threats, sight, targets) - here
                if a == "jump":
                    gain -= 0.1
                scores[o.key] = gain - 0.02 - TRAP_RISK * self._tokens_passed(match, me, o.path or (o.tile,))
            elif a == "grenade":
                if enemies and self._nearest(o.tile, enemies) <= 4:
                    grenades.append(o)
            elif a == "heal":
                patient = state.figure(o.target)
                scores[o.key] = (0.9 if patient.side == me.side and patient.pv < patient.max_pv else -1.0)
            elif a == "hide":
                scores[o.key] = 1.0 if me.pv <= 2 else -0.5
            elif a == "dig_in":
                exposed = sum(v for e, g, v in threats if space.within(e.tile, me.tile, g["range"])
                              and sight(e.tile, me.tile))
                scores[o.key] = 0.3 * exposed - 0.1
            elif a == "pickup":
                scores[o.key] = 0.4
            elif a in ("repair", "sabotage"):
                scores[o.key] = 0.1 if o.value is None else (0.3 if a == "repair" else -0.2)
            elif a == "pray":
                scores[o.key] = 0.02
            elif a == "alarm":
                scores[o.key] = ALARM * self._newly_alerted(state, me, friends) - 0.01
            elif a in ("trap_spot", "trap_open"):
                scores[o.key] = 0.05 if enemies and self._nearest(me.tile, enemies) <= 10 else -0.2
            elif a == "unhide":
                scores[o.key] = -1.0
            elif a == "end":
                scores[o.key] = 0.0
            else:
                scores[o.key] = -1.0
        grenades.sort(key=lambda o: self._nearest(o.tile, enemies))
        for o in grenades[:24]:
            odds = rules.odds(state, o)
            value = 0.0
            for fid, dist in odds.details["figures"].items():
                f = state.figure(fid)
                v = expected_capped(dist, f.pv)
                value += v if f.side != me.side else -FRIENDLY_FIRE * v
            scores[o.key] = value - 0.3
        if me.hidden and me.pv <= 2:
            for k in list(scores):
                if k not in ("end", "pray") and not k.startswith("heal:"):
                    scores[k] -= 1.0
        return scores

    def _melee_contact(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: -o.cost for o in decision.options}

    def _riposte(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "riposte" else 0.0 for o in decision.options}

    def _alarm_riposte(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "shoot" else 0.0 for o in decision.options}

    def _trap_token(self, match: Observation, decision: Decision) -> dict[str, float]:
        """Tokens on the side facing the enemy, where they will walk."""
        state = match.state
        me = state.figure(decision.figure)
        enemies = self._enemies(state, me.side)
        return {o.key: -self._nearest(o.tile, enemies) for o in decision.options}

    def _trap_real(self, match: Observation, decision: Decision) -> dict[str, float]:
        return self._trap_token(match, decision)

    def _flee(self, match: Observation, decision: Decision) -> dict[str, float]:
        """Away from the enemy guns: fewest enemies that see the tile, then farthest from them."""
        state = match.state
        me = state.figure(decision.figure)
        sight = act.sight_for(state.battlefield)
        enemies = self._enemies(state, me.side)
        return {o.key: -sum(1 for e in enemies if sight(e.tile, o.tile)) + 0.01 * self._nearest(o.tile, enemies)
                for o in decision.options}
