"""The Voyageurs AI, on the shared framework (game/ai/tactics.py): candidates scored by expected value from
the module's exact odds, ties broken by its own seeded generator. It reads only its side's observation: an
enemy whose type its side has not learnt has unknown PV (and CON), which it estimates from its own people
and the damage it has seen that enemy take.

On the ground, where a combatant ends its move weighs the enemy's blades and guns that reach the tile
(cover lessens the shots), more for a wounded combatant or one outmatched, and the pull of the map's
objectives; harm on an enemy already hurt is worth more (focus fire); the points that would decide the
battle at the turn limit bend how bold it is.

In the air, where to fly and when to fire come from the duel of the volleys (duel.py), worked out from
their exact odds; the hard level looks one reply deeper. On the ground the hard level values a tile by the
best blow it opens and puts out first the enemy that hurts most; it weighs the enemy's reply on a tile more
(``REPLY``), and once its blow is struck it counts no blow for the tile it moves to: the blow is spent, and
what is left of the activation is where the enemy's reply finds it (shoot, then step out of sight).

Defaults of the spec (5.17): intercept when the ally has fewer PV than the protector; flee when
eligible having lost half the starting combatants, with the best AGI + ESP; hold blows back only when the
objective is capture; board when its crew outnumbers the enemy's. A truce (5.17: accept with fewer PV
than the proposer) is accepted only when behind on points as well.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...ai.tactics import Objectives, Tactician, Threat, ThreatMap
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.dice import mean
from .aerial import aboard, between, rival
from .checks import critical_chance, damage_dist, success_chance
from .fight import figure_value, points
from .model import Combatant, State, data
from .duel import APPROACH, STAY, WITHDRAW, Duel, duel, ship
from . import actions as act

KNOCKOUT = 12             # what putting an enemy out of the fight is worth beside the PV it loses
SIGHT_CHECKS = 8          # tiles a move considers closely, tracing lines of sight from them
EXPOSURE = 0.15           # how much of the harm (PV) the enemy threatens on a tile a combatant there counts
OBJECTIVE_VALUE = 3.0     # what holding an objective worth one figure is worth, in a tile's measure
AIR_STAKE = 20.0          # what winning the air battle rather than losing it is worth, in PV
BOTH_LOST = -1.0          # both ships destroyed together: a draw by the rules, but its ship lost (5.16)
BOTH_LOST_SHORT = -1.25   # the same at the short look (easy, normal): worse than a loss, so its doomed ship holds
                          # its fire and its first mover keeps off volleys that invite the mutual kill
AIR_HORIZON = 0           # the normal level weighs its air action without the enemy's answer in the turn
SHOT = 0.3                # at the hard level, the share of the blow a tile opens that counts in the tile's worth
WARY = 1.5                # a caution this many times the level's: the safest tiles get the full look too
REPLY = 0.4               # at the hard level, EXPOSURE's place: the enemy's reply on the tile counts more


@dataclass
class Plan:
    """What one combatant's choice of a tile turns on, worked out once per decision."""

    threats: ThreatMap
    caution: float
    objectives: Objectives
    drive: float


class VoyageursAI(Tactician):
    SCALE = 3.0               # PV: a good blow
    _spent = False            # the combatant deciding has struck its blow this activation

    def choose(self, observation, decision: Decision) -> str:
        st: State = observation.state
        self.seen = observation.events
        self.observation = observation
        self._plans: dict = {}
        self._menace: dict = {}
        self._spent = bool(decision.info.get("acted")) if decision.kind == "action" and decision.info else False
        return getattr(self, f"on_{decision.kind}")(st, decision).key

    def best(self, scored: list[tuple[float, Option]]) -> Option:
        by_key = {o.key: o for _, o in scored}
        return by_key[self.pick({o.key: v for v, o in scored})]

    # --- beliefs ---------------------------------------------------------------------------

    def prior_pv(self, st: State, c: Combatant) -> int:
        """The PV max of an enemy of unknown type: the mean PV max of the AI's own people."""
        own = [o.max_pv for o in st.combatants.values() if o.side != c.side and o.max_pv is not None]
        return round(sum(own) / len(own)) if own else figure_value()

    def believed_pv(self, st: State, c: Combatant) -> int:
        """Its PV if known; else its prior PV max, less what it was seen to lose."""
        if c.pv is not None:
            return c.pv
        prior = self.prior_pv(st, c)
        for e in self.seen:
            if e.kind in ("damaged", "healed") and e.data.get("figure") == c.id and e.data.get("gauge") == "pv":
                prior += e.data["amount"] if e.kind == "healed" else -e.data["amount"]
        return max(prior, 1) if c.conscious else min(prior, 0)

    def believed(self, st: State, c: Combatant) -> tuple[int, int]:
        return self.believed_pv(st, c), c.max_pv if c.max_pv is not None else self.prior_pv(st, c)

    def health(self, st: State, c: Combatant) -> float:
        pv, whole = self.believed(st, c)
        return max(0, pv) / whole if whole else 1.0

    def side_pv(self, st: State, side: int) -> int:
        return sum(max(0, self.believed_pv(st, c)) for c in st.side_of(side) if c.present)

    def lead(self, st: State, side: int) -> int:
        """The points ``side`` would be ahead by if the battle ended now, as it believes them."""
        score = points(st, lambda c: self.believed(st, c)).points
        return score[side] - score[1 - side]

    # --- the ground -----------------------------------------------------------------------

    def strike_value(self, st: State, o: Option) -> float:
        """Expected damage, with a bonus for the chance of putting the target out of the fight, worth more
        on a target already hurt (focus fire)."""
        c, t = st.fig(o.figure), st.fig(o.target)
        w = act.weapon(o.value)
        if not t.conscious:
            return 0.5 if st.objective == "capture" else 1.0
        bonus = act.to_hit_bonus(st, c, t, o.value, o.action == "hold_back")
        value = self.blow(w, bonus, t.initiative, self.believed_pv(st, t), KNOCKOUT * self.menace(st, t)) \
            * self.worth(self.health(st, t))
        if w["firearm"]:
            value -= 0.5
        return value

    # --- the threat map ---------------------------------------------------------------------

    def pair(self, c: Combatant, test: str) -> int:
        """A test's two characteristics; an unknown CON (an enemy of a type not learnt) taken at the
        roster's mean."""
        roster = data()["roster"].values()
        guess = sum(k["CON"] for k in roster) // len(roster)
        return sum(c.traits[t] if c.traits[t] is not None else guess for t in data()["tests"][test])

    def menace(self, st: State, t: Combatant) -> float:
        """How much putting ``t`` out of the fight is worth beside putting out another: 1 at the normal
        level; at the hard level, the harm ``t`` threatens on its enemies (its best weapon on each, the mean)
        against that of its side's standing combatants, so that the gun that hurts most falls first."""
        if self.level.name != "hard":
            return 1.0
        found = self._menace.get(t.id)
        if found is not None:
            return found

        def threat(e: Combatant) -> float:
            foes = [f for f in act.enemies(st, e) if f.conscious]
            weapons = set(act.strike_weapons(e) + ([e.carried] if e.carried else []))
            return sum(max((self.harm(st, e, f, wid) for wid in weapons), default=0.0) for f in foes) / max(1, len(foes))
        side = [e for e in st.side_of(t.side) if e.conscious and e.tile is not None]
        mean_threat = sum(threat(e) for e in side) / max(1, len(side))
        found = self._menace[t.id] = threat(t) / mean_threat if mean_threat > 0 else 1.0
        return found

    @staticmethod
    def blow(w: dict, bonus: int, difficulty: int, pv: int, knockout: float = KNOCKOUT) -> float:
        """A blow's worth: its expected damage, and ``knockout`` for the chance it puts a target of ``pv``
        out of the fight."""
        hit, crit = success_chance(bonus, difficulty), critical_chance()
        value = 0.0
        for weight, is_crit in ((hit - crit, False), (crit, True)):
            dist = damage_dist(w["damage"], is_crit)
            value += float(weight) * (float(mean(dist)) + knockout * float(sum(p for v, p in dist.items() if v >= pv)))
        return value

    def harm(self, st: State, a: Combatant, b: Combatant, wid: str) -> float:
        """What a blow of ``a`` on ``b`` with ``wid`` is worth, in the open (0 for an empty gun): one that
        would knock a wounded ``b`` out is worth more to ``a``, and more for ``b`` to stay away from."""
        w = act.weapon(wid)
        if w["firearm"] and a.pe < w["pe"]:
            return 0.0
        return self.blow(w, self.pair(a, w["type"]), b.initiative, self.believed_pv(st, b))

    def threats(self, st: State, c: Combatant) -> list[Threat]:
        """Each standing enemy as a danger to ``c``: each weapon it holds or carries, as far as it reaches
        (a line of sight needed for a shot)."""
        out = []
        for e in act.enemies(st, c):
            if not e.conscious:
                continue
            for wid in {w for w in act.strike_weapons(e) + ([e.carried] if e.carried else [])}:
                w = act.weapon(wid)
                melee = w["type"] == "melee"
                out.append(Threat(e.tile, self.harm(st, e, c, wid), 1.5 if melee else w["range"], sighted=not melee))
        return out

    def answer(self, st: State, c: Combatant) -> float:
        """The harm ``c``'s side can answer with around it: its own and its standing allies' best blow
        within ten pas on the nearest enemy."""
        foes = [e for e in act.enemies(st, c) if e.conscious]
        if not foes:
            return 0.0
        total = 0.0
        for a in [c] + [a for a in act.allies(st, c) if a.conscious and space.distance(a.tile, c.tile) <= 10]:
            e = min(foes, key=lambda f: space.distance(f.tile, a.tile))
            total += max((self.harm(st, a, e, wid) for wid in act.strike_weapons(a)), default=0.0)
        return total

    def plan(self, st: State, c: Combatant) -> Plan:
        found = self._plans.get(c.id)
        if found is None:
            sight = self.sight(st.battlefield)
            grid = self.threat_map(self.threats(st, c), sight, sight.cover)
            round_ = st.fight.round if st.fight is not None else 0
            posture = self.posture(self.lead(st, c.side), figure_value(), round_, st.max_turns)
            caution = self.caution(self.health(st, c), grid.danger(c.tile), self.answer(st, c), posture)
            objectives = self.objectives(self.observation, c.side, OBJECTIVE_VALUE * posture.drive, round_)
            found = self._plans[c.id] = Plan(grid, caution, objectives, posture.drive)
        return found

    def tile_value(self, st: State, c: Combatant, tile, weapon_id: str | None, sight: bool = True) -> float:
        """Melee: close in, best beside an enemy. Ranged: enemies in range and sight, cover, nobody at arm's
        length. Either way less the danger the enemy threatens there, plus the objectives' pull. ``sight``
        False scores range alone, to pick the few tiles worth a line of sight. At the hard level, once the
        combatant's blow is struck (``_spent``), a tile opens no blow any more: it is worth its safety from the
        enemy's reply (and the objectives, and closing in)."""
        foes = [e for e in act.enemies(st, c) if e.conscious]
        if not foes:
            return 0.0
        plan = self.plan(st, c)
        hard = self.level.name == "hard"
        exposure = REPLY if hard else EXPOSURE
        value = plan.objectives.pull(tile) - (exposure * plan.caution * plan.threats.danger(tile) if sight else 0.0)
        w = act.weapon(weapon_id) if weapon_id else act.weapon(data()["bare_hands"])
        near = min(space.distance(tile, e.tile) for e in foes)
        wid = weapon_id or data()["bare_hands"]
        if w["type"] == "melee" or (w["firearm"] and c.pe < w["pe"]):
            reach = [e for e in foes if act.melee_reach(st, tile, e.tile)]
            return value - plan.drive * near + (self.aim(st, c, tile, reach, wid) if reach else 0)
        bf = st.battlefield
        value += 1.0 if bf.cover[tile[1], tile[0]] else 0.0
        aims = []
        for e in foes:
            if space.within(tile, e.tile, w["range"]) and (not sight or space.line_of_sight(bf, tile, e.tile)):
                aims.append(e)
            if space.adjacent(tile, e.tile):
                value -= 2
        if aims and sight and hard:
            if not self._spent:
                value += 3 * (len(aims) - 1) + self.aim(st, c, tile, aims, wid)
        else:
            value += 3 * len(aims)
        return value - 0.05 * near

    def aim(self, st: State, c: Combatant, tile, targets: list[Combatant], wid: str) -> float:
        """What standing on ``tile`` is worth for the blow it opens: 3 at the normal level; at the hard
        level, which looks one blow deeper, the best of those blows' worth (``SHOT`` of its expected value,
        cover from the tile counted) over all the enemies it could strike from there."""
        if self.level.name != "hard":
            return 3.0
        w = act.weapon(wid)
        best = 0.0
        for e in targets:
            bonus = c.pair(w["type"]) + act.cover_modifier(st, tile, e.tile, wid)
            best = max(best, self.blow(w, bonus, e.initiative, self.believed_pv(st, e)) * self.worth(self.health(st, e)))
        return SHOT * best

    def best_tile(self, st: State, c: Combatant, moves: list[Option]) -> tuple[float, Option]:
        """The best tile to move to; lines of sight and danger are worked out only for the most promising
        few (more at the hard level), and for the safest few when the combatant is wounded or outmatched, or
        at the hard level when its blow is struck."""
        k = self.foresight(SIGHT_CHECKS)
        rough = sorted(((self.tile_value(st, c, o.tile, c.weapon, False), i) for i, o in enumerate(moves)),
                       reverse=True)[:k]
        shortlist = {i for _, i in rough}
        plan = self.plan(st, c)
        if plan.caution > WARY * self.level.caution or (self._spent and self.level.name == "hard"):
            shortlist |= set(sorted(range(len(moves)), key=lambda i: plan.threats.danger(moves[i].tile))[:k])
        scored = [(self.tile_value(st, c, moves[i].tile, c.weapon), moves[i]) for i in sorted(shortlist)]
        chosen = self.best(scored)
        return next(v for v, o in scored if o is chosen), chosen

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
        combatants on the ground and on the deck, half the hull in the air (a project reading). A battle
        fled is lost (5.12); staying on unless behind on points was tried, and put four battles in ten
        at the turn limit for no more wins (docs/ai-measures.md, *Measured on branch voyageurs-ai*)."""
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
        """Accept a truce (a draw) only when its side is behind on points and fighting on looks worse: in the
        air when the duel's value of going on is below a draw's, on the ground when it has fewer PV standing
        than the proposer's (5.17 asked for the PV alone, which took truces in even battles)."""
        if st.transports and st.boarding is None:
            t = next(t for t in st.transports.values() if t.side == d.side and t.flying)
            accept = self.lead(st, d.side) < 0 and self.air_outlook(st, t) < 0
        else:
            accept = self.lead(st, d.side) < 0 and self.side_pv(st, d.side) < self.side_pv(st, 1 - d.side)
        return next(o for o in d.options if o.action == ("accept_truce" if accept else "refuse_truce"))

    def on_talk(self, st: State, d: Decision) -> Option:
        return next(o for o in d.options if o.action == "back")

    def on_initiative(self, st: State, d: Decision) -> Option:
        return d.options[0]

    def on_side_a(self, st: State, d: Decision) -> Option:
        return d.options[0]

    # --- the air ---------------------------------------------------------------------------

    def outnumbers(self, st: State, t) -> bool:
        return len(aboard(st, t)) > len(aboard(st, rival(st, t)))

    def duel(self, st: State, side: int) -> Duel:
        """The air duel as this level sees it: the normal level its own move and volley, then a guess from
        the hulls and energy left (``Duel.rest``); the hard level one reply deeper, the enemy's answer in the
        same turn, and every turn after to the limit. Each side plays it for its own value, a ship lost
        alongside the enemy's counting as a loss at the hard level (``BOTH_LOST``) and worse than one at the
        short look (``BOTH_LOST_SHORT``), the enemy taken to play against it."""
        ships = tuple(ship(t, len(aboard(st, t))) for t in sorted(st.transports.values(), key=lambda t: t.side))
        deep = self.level.foresight > 1
        lost = BOTH_LOST if deep else BOTH_LOST_SHORT
        return duel(ships, st.max_turns, None if deep else AIR_HORIZON,
                    (lost, -lost) if side == 0 else (-lost, lost), st.side_a)

    def air_scores(self, st: State, t, d: Decision) -> dict[str, float]:
        """Each option of the transport's activation by the duel's value for its side, in PV (``AIR_STAKE``
        a battle won): a move by the better of firing or not after it."""
        foe = rival(st, t)
        game = self.duel(st, t.side)
        by_side = sorted(st.transports.values(), key=lambda s: s.side)
        pe = (by_side[0].pe, by_side[1].pe)
        gap, turn = between(t, foe), st.battle.round
        moves = {WITHDRAW if o.action == "withdraw" else APPROACH: o for o in d.options
                 if o.action in ("approach", "withdraw")}
        moved = not moves and any(e.kind == "manoeuvre" and e.data["figure"] == t.id for e in self.this_turn())
        battle = st.battle
        first = foe.id in battle.group if battle.grouped else t.speed > foe.speed
        if first:
            grids = game.choices_first(turn, gap, pe, turn, t.side, moved)
        else:
            grids = game.answers(turn, gap, pe, turn, t.side, moved)
        held = sum(e["amount"] for e in battle.buffer if e["kind"] == "structure" and e["target"] == t.id)
        hulls = [max(0, s.pv - (held if s is t else 0)) for s in by_side]
        value = {k: float(g[t.side, hulls[0], hulls[1]]) * AIR_STAKE for k, g in grids.items()}
        out = {}
        for o in d.options:
            if o.action in ("approach", "withdraw"):
                m = next(k for k, v in moves.items() if v is o)
                out[o.key] = max(v for (mm, _), v in value.items() if mm == m)
            elif o.action == "fire":
                out[o.key] = value.get((STAY, True), -AIR_STAKE)
            elif o.action == "end":
                out[o.key] = value[(STAY, False)]
        return out

    def air_outlook(self, st: State, t) -> float:
        """What going on with the air battle after this turn is worth to ``t``'s side, as the duel sees it."""
        foe = rival(st, t)
        by_side = sorted(st.transports.values(), key=lambda s: s.side)
        grid = self.duel(st, t.side).value(st.battle.round + 1, between(t, foe), (by_side[0].pe, by_side[1].pe))
        return float(grid[t.side, max(0, by_side[0].pv), max(0, by_side[1].pv)])

    def this_turn(self) -> list:
        """The events seen since the current turn began."""
        for i in range(len(self.seen) - 1, -1, -1):
            if self.seen[i].kind == "turn":
                return self.seen[i:]
        return list(self.seen)

    def transport_action(self, st: State, d: Decision) -> Option:
        """Board when its crew outnumbers the enemy's (5.17). Then ships being precious (5.16), it closes in
        to take the enemy whole, holding its fire while its own hull holds; else it moves and fires as the
        duel of the volleys says (duel.py)."""
        t = st.transports[d.figure]
        by = {o.action: o for o in d.options}
        if "board" in by and self.outnumbers(st, t):
            return by["board"]
        if self.outnumbers(st, t) and 2 * t.pv > t.max_pv:
            return by.get("approach", by["end"])
        key = self.pick(self.air_scores(st, t, d))
        return next(o for o in d.options if o.key == key)

    def on_defenders(self, st: State, d: Decision) -> Option:
        """Every crew member but one goes to defend, the best fighters first."""
        sent = [o for o in d.options if o.action == "defend"]
        return max(sent, key=lambda o: (st.fig(o.figure).pair("melee"), st.fig(o.figure).pv))

    def on_counter(self, st: State, d: Decision) -> Option:
        return next(o for o in d.options if o.action == "fire")
