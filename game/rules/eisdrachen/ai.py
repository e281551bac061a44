"""The tactical Eisdrachen player, on the shared framework (game/ai/tactics.py).

Every option is scored by its expected PV swing from the module's exact odds: a shot or a strike by the
PV it takes (worth more on a wounded target, plus a bonus for the kill), a melee less what the riposte
takes back, a grenade by what it takes from the enemy less twice what it takes from friends. A move is
worth the change in its figure's position: the best shot it opens (while an action is left to take it),
less the enemy fire the tile lies in (more feared by a wounded or outmatched figure), the pull of the
map's objectives, a step toward the fight for a whole figure, a medic's place by a wounded friend.
Module knowledge: grenades at clusters, traps on the enemy's way, hiding when badly hurt. A kill is
worth what the dead figure would have done: its best shot at us (the *menace*) for each action it has to
come, so the guns that are about to fire are shot first.

The hard level looks one step further: a shot is worth what it adds to the activation's next shot (a
target two shots kill is worth the first), and a tile loses what the enemies could do to it after one
move of theirs, not only what they reach now. Behind on points in the first half of the battle, hard holds
back out of the enemy's reach instead of growing bolder: the side that walks into the other's reach is the
one shot at first. For the same reason, when none of its figures has a shot, hard activates first the one
farthest from the enemy, keeping its guns for after the enemy's moves. And it fears an enemy sniper for what
its activation takes, a shot per action with no dodge (4.7): two kill a whole figure nearly always, where the
one dodged shot the other guns are counted by never kills one (four wounds at most).

It reads only its side's observation (``Eisdrachen.observe``): hidden enemies are absent from it, enemy
tokens unread, an enemy's unseen blessings unknown. Ties break on its own seeded generator.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ...ai.tactics import Posture, Tactician, Threat, nearest
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.match import Observation
from . import actions as act
from .combat import weapon
from .state import Figure, State, const
from .steps import figure_value, points

KILL_BONUS = 2.0
FRIENDLY_FIRE = 2.0
EXPOSURE = 0.35
CLOSING = 0.08
ALARM = 0.05
TRAP_RISK = 0.5
MEDIC = 0.3
LATER_SHOT = 0.4            # a shot opened for the next activation, against one this activation
GRENADE_AIMS = 24           # aims nearest the enemy whose blast is worked out in full
MENACE = 0.5                # share of an enemy's harm per action to come that killing it saves
LATER_TURN = 0.5            # … for its actions next turn, against its actions still to come this turn
MOVED_SHARE = 0.5           # an enemy's harm at a figure it must move to shoot at, against one in its sights
FAR_SHARE = 0.25            # … at a figure beyond its move and range
FOLLOW_UP = 1.0             # hard: what a shot adds to the activation's next shot
ADVANCE = 0.5               # hard: the harm of enemies one move away from shooting at a tile, against harm now
HOLD = Posture(caution=1.5, drive=0.25)     # hard, behind in the first half of the battle: wait for the enemy
MOVES = ("move", "crawl", "climb", "jump")
UNREAD_BY_ODDS = ("tile", "allowance", "activated")     # a figure's fields no shot's odds read (rules 4.0)


def losses(odds) -> dict[int, float]:
    """The PV-loss distribution of an attack's odds, as floats by PV lost."""
    return {int(k.split(":")[1]): float(p) for k, p in odds.outcomes.items()}


def snipes(fig: Figure, gun: dict) -> bool:
    """Whether ``fig`` shoots ``gun`` as a sniper (4.7): a scope on a weapon of range 20 or more."""
    return fig.scope and gun["range"] >= const("sniper_min_range")


def expected_capped(outcomes: dict[str, Fraction], pv: int) -> float:
    """Expected PV really lost: wounds beyond the remaining PV are worth nothing."""
    return sum(min(int(k.split(":")[1]), pv) * float(p) for k, p in outcomes.items())


def odds_key(fig: Figure) -> str:
    """A figure's state as far as the odds of a shot by it or at it may turn on it (``_shot_loss``)."""
    return repr([v for k, v in vars(fig).items() if k not in UNREAD_BY_ODDS])


def capped(dist: dict[int, float], pv: int) -> float:
    """``expected_capped`` of a distribution already in floats."""
    return sum(min(k, pv) * p for k, p in dist.items())


def repeated(dist: dict[int, float], times: int, pv: int) -> dict[int, float]:
    """The PV-loss distribution of ``times`` shots each lost as ``dist`` (the same odds whatever the target has
    left), losses beyond ``pv`` counted as ``pv``."""
    out = {0: 1.0}
    for _ in range(times):
        nxt: dict[int, float] = {}
        for a, p in out.items():
            for b, q in dist.items():
                k = min(a + b, pv)
                nxt[k] = nxt.get(k, 0.0) + p * q
        out = nxt
    return out


class EisdrachenAI(Tactician):
    SCALE = 2.0

    def __init__(self, seed: int = 0, level: str = "normal"):
        super().__init__(seed, level)
        self.deep = level == "hard"         # the hard level's one step further (module docstring)
        self._seen: State | None = None     # the observation the figures' keys below were read from
        self._keys: dict[str, str] = {}
        self._shots: dict[tuple, dict[int, float]] = {}
        self._shots_turn = 0
        self._pull_key: tuple | None = None
        self._pull = None

    def _shot_loss(self, match: Observation, shooter: Figure, target: Figure, gun: dict,
                   sniper: bool) -> tuple[dict[int, float], float]:
        """The PV-loss distribution of ``shooter``'s shot at ``target`` (``shot_odds``), as floats, kept across
        the decisions of a turn, with the chance that it kills: the menaces and threat maps ask for every pair
        of figures at every decision, and the odds are the same while neither figure has changed. The key is a
        figure's whole state but where it stands and the actions it has left, which a shot's odds never read
        (range is a threshold, cover gives nothing in Eisdrachen: rules 4.0)."""
        state = match.state
        if state is not self._seen:
            self._seen, self._keys = state, {}
            if state.turn != self._shots_turn:
                self._shots, self._shots_turn = {}, state.turn
        keys = self._keys
        a = keys.get(shooter.id) or keys.setdefault(shooter.id, odds_key(shooter))
        b = keys.get(target.id) or keys.setdefault(target.id, odds_key(target))
        key = (a, b, gun["id"], sniper)
        found = self._shots.get(key)
        if found is None:
            odds = match.rules.shot_odds(state, shooter, target, gun, sniper)
            found = self._shots[key] = (losses(odds), float(odds.details["kill"]))
        return found

    # --- helpers ----------------------------------------------------------------------

    @staticmethod
    def _enemies(state: State, side: int) -> list[Figure]:
        return [f for f in state.figures if f.alive and f.side != side]

    def _threats(self, match: Observation, me: Figure) -> list[Threat]:
        """Each visible enemy gun as a danger to ``me``: its expected PV taken (capped) within its range; at
        hard, an enemy sniper's whole activation, its shots (one per action) taken as a sniper's."""
        state = match.state
        out = []
        for e in self._enemies(state, me.side):
            gun = weapon(e.weapon)
            if not act.can_fire(e, gun, state.turn):
                continue
            if self.deep and snipes(e, gun):
                dist = repeated(self._shot_loss(match, e, me, gun, True)[0], const("allowance"), me.pv)
            else:
                dist = self._shot_loss(match, e, me, gun, False)[0]
            out.append(Threat(e.tile, capped(dist, me.pv), gun["range"]))
        return out

    def _shot_value(self, target: Figure, odds, menace: float = 0.0) -> float:
        """PV taken, worth more on a wounded target, and the kill; with ``menace`` (the value of the target's
        best shot at us) the kill also saves the actions it has to come."""
        return self._volley(target, losses(odds), target.pv, menace)

    def _volley(self, target: Figure, dist: dict[int, float], pv: int, menace: float) -> float:
        """The value of a shot whose PV-loss distribution is ``dist`` at ``target`` with ``pv`` left."""
        taken = sum(min(k, pv) * p for k, p in dist.items()) * self.worth(pv / target.max_pv)
        kill = sum(p for k, p in dist.items() if k >= pv)
        coming = (0 if target.activated else target.allowance) + LATER_TURN * (const("allowance")
                                                                              + target.vengeance_next)
        return taken + (KILL_BONUS + MENACE * menace * coming) * kill

    def _follow_up(self, shots, pvs: dict[str, int]) -> float:
        """The best next shot of this activation when the targets have ``pvs`` left (nothing: 0)."""
        return max([self._volley(t, d, pvs[t.id], m) for _, t, d, m in shots if pvs[t.id] > 0] + [0.0])

    def _planned(self, shots) -> dict[str, float]:
        """For each shot, what it adds to the next one: wounding a target now may let the next shot finish it
        (two sniper shots kill where one cannot), killing it sends the next shot elsewhere."""
        pvs = {t.id: t.pv for _, t, _, _ in shots}
        base = self._follow_up(shots, pvs)
        out = {}
        for o, t, dist, _ in shots:
            after = 0.0
            for k, p in dist.items():
                pvs[t.id] = t.pv - k
                after += p * self._follow_up(shots, pvs)
            pvs[t.id] = t.pv
            out[o.key] = after - base
        return out

    def _menace(self, match: Observation, e: Figure) -> float:
        """The value of the best shot ``e`` could take at one of our figures: in full from where it stands,
        at a share after a move (within its range and speed), at a smaller share beyond."""
        state = match.state
        gun = weapon(e.weapon)
        if not act.can_fire(e, gun, state.turn):
            return 0.0
        sniper = snipes(e, gun)
        sight = act.sight_for(state.battlefield)
        best = 0.0
        for f in state.living(1 - e.side):
            if f.hidden:
                continue
            if space.within(e.tile, f.tile, gun["range"]) and sight(e.tile, f.tile):
                share = 1.0
            elif space.within(e.tile, f.tile, gun["range"] + e.V):
                share = MOVED_SHARE
            else:
                share = FAR_SHARE
            dist, kill = self._shot_loss(match, e, f, gun, sniper)
            best = max(best, share * (capped(dist, f.pv) + KILL_BONUS * kill))
        return best

    def _pulls(self, match: Observation, side: int, value: float, turn: int):
        """The map objectives' pull on a tile (``Tactician.objectives``), each tile worked out once for as long
        as the same side, value and turn ask: a figure weighs dozens of tiles at each of its decisions."""
        key = (match.battlefield, match.max_turns, side, value, turn)
        if self._pull_key is None or any(a is not b and a != b for a, b in zip(key, self._pull_key)):
            self._pull_key, objectives, known = key, self.objectives(match, side, value, turn), {}

            def pull(tile):
                found = known.get(tile)
                if found is None:
                    found = known[tile] = objectives.pull(tile)
                return found
            self._pull = pull
        return self._pull

    def _posture(self, lead: float, turn: int, max_turns: int) -> Posture:
        """The framework's posture, but for hard when behind in the first half of the battle: it holds back
        out of the enemy's reach rather than growing bolder, so that the enemy, ahead and closing in, walks
        into its guns' reach first (the side that moves into reach is the one shot at first)."""
        if self.deep and lead < 0 and 2 * turn <= max_turns:
            return HOLD
        return self.posture(lead, figure_value(), turn, max_turns)

    def _menaces(self, match: Observation, side: int) -> dict[str, float]:
        return {e.id: self._menace(match, e) for e in self._enemies(match.state, side)}

    class _Ground:
        """What a move of one figure turns on, worked out once per decision."""

        def __init__(self, ai: "EisdrachenAI", match: Observation, me: Figure, actions_left: int,
                     menaces: dict[str, float]):
            state = match.state
            self.ai, self.state, self.me = ai, state, me
            self.sight = act.sight_for(state.battlefield)
            self.enemies = ai._enemies(state, me.side)
            self.gun = weapon(me.weapon)
            self.can_fire = act.can_fire(me, self.gun, state.turn)
            self.targets = []
            for e in self.enemies:
                dist = ai._shot_loss(match, me, e, self.gun, False)[0]
                self.targets.append((e, ai._volley(e, dist, e.pv, menaces.get(e.id, 0.0))))
            self.threats = ai.threat_map(ai._threats(match, me), self.sight)
            self.advancers = []
            if ai.deep:
                for e in self.enemies:
                    gun = weapon(e.weapon)
                    if act.can_fire(e, gun, state.turn):
                        dist = ai._shot_loss(match, e, me, gun, snipes(e, gun))[0]
                        self.advancers.append((e.tile, gun["range"], e.V, capped(dist, me.pv)))
            friends = [f for f in state.living(me.side) if f is not me]
            answer = sum(v for _, v in self.targets) + sum(
                1.0 for f in friends if nearest(f.tile, [e.tile for e in self.enemies]) <= 14)
            score = points(state).points
            posture = ai._posture(score[me.side] - score[1 - me.side], state.turn, state.max_turns)
            self.caution = ai.caution(me.pv / me.max_pv, self.threats.danger(me.tile), answer, posture)
            self.closing = CLOSING * posture.drive * (me.pv / me.max_pv) / max(1.0, self.caution)
            self.later = 1.0 if actions_left >= 2 else LATER_SHOT
            self.pull = ai._pulls(match, me.side, figure_value() * posture.drive, state.turn)

        def best_shot(self, tile) -> float:
            if not self.can_fire:
                return 0.0
            return max((v for e, v in self.targets
                        if space.within(tile, e.tile, self.gun["range"]) and self.sight(tile, e.tile)), default=0.0)

        def advance(self, tile) -> float:
            """The harm of the enemies that cannot shoot at ``tile`` now but could after one move of theirs
            toward it (the spot its speed takes it to along the line, or beside it, in range and sight)."""
            bf, total = self.state.battlefield, 0.0
            for origin, reach, speed, harm in self.advancers:
                if not space.within(origin, tile, reach + speed) or (
                        space.within(origin, tile, reach) and self.sight(origin, tile)):
                    continue
                dx, dy = tile[0] - origin[0], tile[1] - origin[1]
                d = math.hypot(dx, dy)
                ux, uy = dx / d, dy / d
                for side in (0, 2, -2):
                    spot = (round(origin[0] + speed * ux - side * uy), round(origin[1] + speed * uy + side * ux))
                    if bf.can_stand(spot) and space.within(spot, tile, reach) and self.sight(spot, tile):
                        total += harm
                        break
            return total

        def value(self, tile) -> float:
            me, state = self.me, self.state
            value = self.later * self.best_shot(tile) - EXPOSURE * self.caution * self.threats.danger(tile)
            if self.advancers:
                value -= EXPOSURE * self.caution * ADVANCE * self.advance(tile)
            if self.enemies:
                value -= self.closing * nearest(tile, [e.tile for e in self.enemies])
            value += self.pull(tile)
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

    def _grenade_value(self, match: Observation, me: Figure, o: Option) -> float:
        """PV the blast takes from enemies, less twice what it takes from friends, over the six bounces."""
        state = match.state
        value = 0.0
        for fid, dist in match.rules.odds(state, o).details["figures"].items():
            f = state.figure(fid)
            v = expected_capped(dist, f.pv)
            value += v * self.worth(f.pv / f.max_pv) if f.side != me.side else -FRIENDLY_FIRE * v
        return value

    # --- decision kinds -------------------------------------------------------------------

    def score_initiative(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 0.0 for o in decision.options}

    def score_activate(self, match: Observation, decision: Decision) -> dict[str, float]:
        """First the figure with a shot now; then the readiest, nearest the fight. Hard, for a figure with no
        shot, the readiest farthest from the fight: its guns wait for the enemy to move into their reach."""
        state = match.state
        sight = act.sight_for(state.battlefield)
        menaces = self._menaces(match, decision.side)
        out = {}
        for o in decision.options:
            me = state.figure(o.figure)
            enemies = self._enemies(state, me.side)
            gun = weapon(me.weapon)
            shot = 0.0
            if act.can_fire(me, gun, state.turn):
                shot = max((self._volley(e, self._shot_loss(match, me, e, gun, snipes(me, gun))[0], e.pv,
                                         menaces.get(e.id, 0.0)) for e in enemies
                            if space.within(me.tile, e.tile, gun["range"]) and sight(me.tile, e.tile)), default=0.0)
            far = min(nearest(me.tile, [e.tile for e in enemies]), 100.0)
            if self.deep and shot == 0.0:
                out[o.key] = me.allowance * 0.1 + 0.01 * far
            else:
                out[o.key] = shot + me.allowance * 0.1 - 0.01 * far
        return out

    def score_action(self, match: Observation, decision: Decision) -> dict[str, float]:
        state, rules = match.state, match.rules
        me = state.figure(decision.figure)
        menaces = self._menaces(match, me.side)
        ground = self._Ground(self, match, me, decision.info.get("actions_left", 1), menaces)
        enemies = ground.enemies
        friends = state.living(me.side)
        here = ground.value(me.tile)
        scores: dict[str, float] = {}
        grenades = []
        shots = []
        for o in decision.options:
            a = o.action
            if a in ("shoot", "sniper", "use_fire"):
                target, odds = state.figure(o.target), rules.odds(state, o)
                scores[o.key] = self._shot_value(target, odds, menaces.get(o.target, 0.0)) + 0.2
                shots.append((o, target, losses(odds), menaces.get(o.target, 0.0)))
            elif a == "melee":
                target = state.figure(o.target)
                d = rules.odds(state, o).details
                mine = expected_capped(d["attacker_pv_lost"], me.pv)
                scores[o.key] = (self._shot_value(target, rules.odds(state, o)) - mine
                                 - KILL_BONUS * float(d["attacker_killed"]) + 0.3)
            elif a in MOVES:
                gain = ground.value(o.tile) - here
                if a == "jump":
                    gain -= 0.1
                scores[o.key] = gain - 0.02 - TRAP_RISK * self._tokens_passed(match, me, o.path or (o.tile,))
            elif a == "grenade":
                if enemies and nearest(o.tile, [e.tile for e in enemies]) <= const("grenade_blast_radius") + 1:
                    grenades.append(o)
            elif a == "heal":
                patient = state.figure(o.target)
                scores[o.key] = (0.9 if patient.side == me.side and patient.pv < patient.max_pv else -1.0)
            elif a == "hide":
                scores[o.key] = 1.0 if me.pv <= 2 else -0.5
            elif a == "dig_in":
                scores[o.key] = 0.3 * EXPOSURE * ground.threats.danger(me.tile) * ground.caution - 0.1
            elif a == "pickup":
                scores[o.key] = 0.4
            elif a in ("repair", "sabotage"):
                scores[o.key] = 0.1 if o.value is None else (0.3 if a == "repair" else -0.2)
            elif a == "pray":
                scores[o.key] = 0.02
            elif a == "alarm":
                scores[o.key] = ALARM * self._newly_alerted(state, me, friends) - 0.01
            elif a in ("trap_spot", "trap_open"):
                scores[o.key] = 0.05 if enemies and nearest(me.tile, [e.tile for e in enemies]) <= 10 else -0.2
            elif a == "unhide":
                scores[o.key] = -1.0
            elif a == "end":
                scores[o.key] = 0.0
            else:
                scores[o.key] = -1.0
        if self.deep and decision.info.get("actions_left", 1) >= 2 and shots:
            for key, more in self._planned(shots).items():
                scores[key] += FOLLOW_UP * more
        grenades.sort(key=lambda o: (nearest(o.tile, [e.tile for e in enemies]), o.key))
        for o in grenades[:self.foresight(GRENADE_AIMS)]:
            scores[o.key] = self._grenade_value(match, me, o) - 0.3
        if me.hidden and me.pv <= 2:
            for k in list(scores):
                if k not in ("end", "pray") and not k.startswith("heal:"):
                    scores[k] -= 1.0
        return scores

    def score_melee_contact(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: -o.cost for o in decision.options}

    def score_riposte(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "riposte" else 0.0 for o in decision.options}

    def score_alarm_riposte(self, match: Observation, decision: Decision) -> dict[str, float]:
        return {o.key: 1.0 if o.key == "shoot" else 0.0 for o in decision.options}

    def score_trap_token(self, match: Observation, decision: Decision) -> dict[str, float]:
        """Tokens on the enemy's way here: nearest the enemy, where they will walk."""
        state = match.state
        me = state.figure(decision.figure)
        enemies = [e.tile for e in self._enemies(state, me.side)]
        return {o.key: -nearest(o.tile, enemies) for o in decision.options}

    def score_trap_real(self, match: Observation, decision: Decision) -> dict[str, float]:
        return self.score_trap_token(match, decision)

    def score_flee(self, match: Observation, decision: Decision) -> dict[str, float]:
        """Away from the enemy guns: least danger, then farthest from them."""
        state = match.state
        me = state.figure(decision.figure)
        threats = self.threat_map(self._threats(match, me), act.sight_for(state.battlefield))
        enemies = [e.tile for e in self._enemies(state, me.side)]
        return {o.key: -threats.danger(o.tile) + 0.01 * min(nearest(o.tile, enemies), 30.0)
                for o in decision.options}
