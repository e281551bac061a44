"""Mordgrave's tactical AI, on the shared framework (game/ai/tactics.py): every option of every decision is
scored by its expected value from the exact odds (odds.py), ties broken by the AI's own seeded generator.
It reads only its side's observation.

It plays the Leader phases as the rules mean them: it takes first the Leader with the most friends in its
bubble, activates them all, moves every one of them before any fights (so each fight gets the
outnumbering of the others, 3.4), charges where a charge pays, and keeps its troops near their Chief.
Where a figure ends its move weighs the enemy's bows and blades that reach the tile (cover lessens the
shots), more for a wounded figure or one outmatched, and the pull of the map's objectives (a control zone
only for the figures needed to hold it); harm on a figure already hurt is worth more (focus fire). A fighter
closes in on the nearest enemy by at least ``HUNT`` a pas (more at a level with a wider margin), so that
the normal level, which takes the options within its margin as alike, does not wander among tiles a step or
two apart while the enemy keeps away.

It plays for the points that decide a battle at its turn limit: a figure reads the score without what it
holds itself (``lead_without``), an objective is worth at least a figure taken however far ahead its side
is (a point held is a point), and in the last turn a move is worth the objective a run then reaches
(``dashes``).

It fights to a decision: a melee is a symmetric exchange whose expected value is often below the normal
level's margin, so an attack that pays is worth ``TEMPO`` (at least that margin) more than doing nothing,
one that does not pay falls that margin below it, and a fight weighs its own losses by the score's caution
(bolder when level or behind as the turn limit nears).

The normal level hesitates twice as widely here as the framework's (``MARGIN``): both levels see every
paying fight, so with the framework's margin normal played nearly as well as hard.

It weighs the rout (rules version 2): putting a figure Out of action, or giving the figure that would take
its warband's rout test a Great difficulty token, is worth too what it adds to the chance that the warband
flees at the end of the turn, times ``ROUT_VALUE``; so a side presses the blow that would rout the enemy, and
keeps its Chief and its last figures out of fights whose loss would put it to the test.
"""
from __future__ import annotations

import math

from ...ai.tactics import Tactician, Threat
from ...engine import space
from ...engine.battlefield import Tile
from ...engine.decision import Decision, Option
from .combat import band, melee_terms, mouv, ranged_weapon, shot_terms, template_tiles
from .odds import bravery_chance, effect, melee_tiers, shot_tiers
from .options import bubble, in_bubble, shooting_weapons
from .state import Figure, State, data, rule
from .steps import Melee, points, rout_difficulty, rout_tester, shaken

EFFECT_VALUE = {"push": 0.2, "difficulty": 1.0, "wound": 3.0, "out": 6.0, "horrible": 7.0}
LEADER_WEIGHT = 1.5
SHORTLIST = 8           # moves of a shooter whose shots are worked out in full
TARGETS = 3             # the nearest enemies in range a shot from a move is worked out against
SHOOTER_RANGE = 9       # a weapon that reaches this far makes a figure keep its distance
EXPOSURE = 0.3          # how much of the harm the enemy threatens on a tile a figure standing there counts
COVER_FACTOR = (1.0, 0.7, 0.45)     # a shot's harm left by no, light and heavy cover (+2, +4 to Defence)
TEMPO = 0.5             # what an attack that pays is worth beyond its exchange of harm; at least the level's
                        # margin, so that a level cannot take a paying attack and doing nothing as alike
APPROACH = 0.15         # what a pas nearer the nearest enemy is worth to a fighter, times the score's drive
HUNT = 0.45             # … and at least this, and 0.9 of the level's margin, a pas: so that it closes in
HUNT_SHARE = 0.9        # rather than wander among tiles a step or two apart that its margin cannot tell apart
ROUT_VALUE = {"easy": 0.0, "normal": 18.0, "hard": 18.0}  # the battle won by the enemy's rout (three figures out)


def worth(f: Figure) -> float:
    return LEADER_WEIGHT if f.leader else 1.0


def flee_chance(st: State, side: int) -> float:
    """The chance that ``side`` flees at the end of this turn (its rout test failed), 1 once it has no
    figure standing."""
    if not st.living(side):
        return 1.0
    if not shaken(st, side):
        return 0.0
    return 1.0 - float(bravery_chance(rout_tester(st, side), rout_difficulty(st, side)))


def lead_without(st: State, f: Figure) -> tuple[int, int]:
    """Both sides' points as if ``f`` held no objective: a figure whose zone puts its side ahead would
    otherwise take the lead as won, grow careless of the zone, and walk off it."""
    here, f.tile = f.tile, None         # the observation is the AI's own copy
    try:
        return points(st).points
    finally:
        f.tile = here


class Sight:
    """What one figure's choice turns on, worked out once per decision: the enemies, who holds them in
    contact without it, its weapons, and where its Chief stands."""

    def __init__(self, st: State, f: Figure, ai: "MordgraveAI | None" = None, observation=None):
        self.st, self.f = st, f
        self.foes = [g for g in st.living() if g.side != f.side]
        friends = [g for g in st.living(f.side) if g is not f]
        self.held = {g.id for g in self.foes if any(space.adjacent(g.tile, h.tile) for h in friends)}
        self.weapons = [(wid, ranged_weapon(wid)) for wid in shooting_weapons(f)]
        reaching = [w["range"] for _, w in self.weapons if w.get("range", 0) >= SHOOTER_RANGE]
        self.keep_at = max(reaching) * 2 // 3 if reaching else None
        self.chief = next((g for g in friends if g.role == "chief"), None)
        self.threats = self.caution = self.objectives = None
        self.drive = self.risk = 1.0
        self.hunt = HUNT if ai is None else ai.hunt
        if ai is not None:
            sight = ai.sight(st.battlefield)
            self.threats = ai.threat_map(ai.threats(st, f), sight, sight.cover, COVER_FACTOR)
            answer = sum(1.0 for g in friends if space.distance(g.tile, f.tile) <= 8) + 1.0
            score = lead_without(st, f)
            posture = ai.posture(score[f.side] - score[1 - f.side], data()["profile"]["Vit"], st.turn, st.max_turns)
            self.caution = ai.caution(f.vit / f.Vit, self.threats.danger(f.tile), answer, posture)
            self.drive = posture.drive
            self.risk = posture.caution
            self.objectives = ai.objectives(observation, f.side, EFFECT_VALUE["out"] * max(1.0, posture.drive), st.turn)
            self.objectives.zones = [o for o in self.objectives.zones if self.needed(o)]

    def needed(self, o) -> bool:
        """Whether ``f`` is needed on objective ``o``: every figure on an exit scores, but a control zone is
        held by one figure more than the enemy has on it, so once friends hold it without ``f`` it no longer
        pulls ``f``, which is free to fight."""
        if o.kind != "control":
            return True
        f = self.f
        ours = sum(1 for g in self.st.living(f.side) if g is not f and g.tile in o.tiles)
        theirs = sum(1 for g in self.foes if g.tile in o.tiles)
        return ours <= theirs

    def touching(self, tile: Tile) -> list[Figure]:
        return [g for g in self.foes if space.adjacent(g.tile, tile)]

    def standing(self, tile: Tile) -> float:
        """How good ``tile`` is to end the turn on: close to the enemy (melee) or at range (shooters),
        and inside the Chief's bubble for the next Leader phase."""
        if not self.foes:
            return 0.0
        near = min(space.distance(tile, g.tile) for g in self.foes)
        if self.keep_at is not None:
            value = -0.08 * self.drive * abs(near - self.keep_at) - (0.6 if self.touching(tile) else 0.0)
        else:
            value = -max(APPROACH * self.drive, self.hunt) * near
        if self.chief is not None and space.within(tile, self.chief.tile, bubble(self.chief)):
            value += 0.3
        if self.threats is not None:
            value += self.objectives.pull(tile) - EXPOSURE * self.caution * self.threats.danger(tile)
        return value


class MordgraveAI(Tactician):
    SCALE = 2.0             # between a difficulty and a wound: the level's margin and blur are shares of it
    MARGIN = {"normal": 0.5}    # twice the framework's, for the levels' spacing (docs/ai.md, Levels): a melee is
                                # a wash between two levels that both see every paying fight, so normal must
                                # hesitate more to fall behind hard

    def __init__(self, seed: int = 0, level: str = "normal"):
        super().__init__(seed, level)
        self.tempo = max(TEMPO, self.alike)
        self.hunt = max(HUNT, HUNT_SHARE * self.alike)
        self._melee: dict = {}
        self._shots: dict = {}
        self.rout_value = ROUT_VALUE[level]

    def rout_stake(self, st: State, f: Figure, out: bool = True) -> float:
        """What putting ``f`` Out of action (or, ``out`` false, giving it a Great difficulty token) is worth
        beyond the figure: how much it raises the chance that its warband flees at the end of the turn (half of
        it down, its Chief lost, or the tester shaken), times the battle."""
        if not self.rout_value or (out and f.vit > 1):
            return 0.0
        before = flee_chance(st, f.side)
        was = f.out, f.vit, f.out_turn, f.tokens
        if out:
            f.put_out(st.turn)      # the observation is the AI's own copy; restored below
        else:
            f.tokens = f.tokens + [st.turn + rule("difficulty_lasts_turns")]
        try:
            after = flee_chance(st, f.side)
        finally:
            f.out, f.vit, f.out_turn, f.tokens = was
        return self.rout_value * (after - before)

    def scored(self, options, scores: list[float]) -> dict[str, float]:
        return {o.key: v for o, v in zip(options, scores)}

    def threats(self, st: State, f: Figure) -> list[Threat]:
        """Each enemy as a danger to ``f``: its best shot at ``f`` within its weapon's range (a line of sight
        needed), or its blow in contact."""
        out = []
        for g in st.living():
            if g.side == f.side:
                continue
            where, g.tile = g.tile, f.tile      # its shot at short range, in the open: the map adds cover
            try:
                shots = [(w["range"], self.shot_value(st, g, f, wid, False))
                         for wid, w in ((wid, ranged_weapon(wid)) for wid in shooting_weapons(g)) if "range" in w]
            finally:
                g.tile = where
            out += [Threat(g.tile, max(0.0, v), reach) for reach, v in shots]
            blow = -self.fight_value(st, f, g, g, True, False, {})
            out.append(Threat(g.tile, max(0.0, blow), 1.5, sighted=False))
        return out

    # --- expected values from the exact odds ------------------------------------------------

    def fight_value(self, st: State, me: Figure, other: Figure, attacker: Figure, charge: bool, concentrate: bool,
                    modes: dict, risk: float = 1.0) -> float:
        """Expected value of one combat phase for ``me``: what the enemy suffers minus what ``me`` does, that
        weighed by ``risk`` (the score's caution: below 1 when a side must take points)."""
        defender = other if me is attacker else me
        a, d = melee_terms(st, attacker, defender, charge, concentrate, modes)
        key = (a, d, attacker.vit, defender.vit)
        table = self._melee.get(key)
        if table is None:
            table = self._melee[key] = melee_tiers(a, d)
        figures = (attacker, defender)
        stakes = [(self.rout_stake(st, f, False), self.rout_stake(st, f)) for f in figures]
        mine = 0 if me is attacker else 1
        total = 0.0
        for (winner, t), n in table.items():
            if winner is not None:
                loser = figures[1 - winner]
                v = EFFECT_VALUE[effect(t, loser)] * worth(loser) * self.worth(loser.vit / loser.Vit)
                if t >= 1:
                    v += stakes[1 - winner][t >= 2]
                total += n * (v if winner == mine else -risk * v)
        return total / 400

    def shot_value(self, st: State, f: Figure, target: Figure, wid: str, concentrate: bool,
                   double: bool = False) -> float:
        """Expected value of a shot (a friend hit counts against); a Double shot as twice one at −3."""
        s = shot_terms(st, f, target, wid, concentrate, double)
        sign = -1.0 if target.side == f.side else 1.0
        if "destabilisation" in s.weapon["rules"]:
            stun = sum(1 for ns in range(rule("destabilisation_from"), 21) for nt in range(1, 21)
                       if ns + s.shooter > nt + s.target)
            return sign * stun / 400 * EFFECT_VALUE["difficulty"] * worth(target) * self.worth(target.vit / target.Vit)
        key = (s.shooter, s.target, s.damage, s.defence, s.critical, target.vit)
        table = self._shots.get(key)
        if table is None:
            table = self._shots[key] = shot_tiers(s)
        per = worth(target) * self.worth(target.vit / target.Vit)
        stakes = (0.0, self.rout_stake(st, target, False), self.rout_stake(st, target))
        ev = sum(n * (EFFECT_VALUE[effect(t, target)] * per + stakes[min(t, 2)])
                 for t, n in table.items() if t is not None) / 400
        return sign * ev * (2 if double else 1)

    def best_attack(self, sight: Sight, tile: Tile, charges: set[str], concentrate: bool) -> float:
        """The best second action the figure could take from ``tile`` (0: none worth taking)."""
        st, f = sight.st, sight.f
        here, f.tile = f.tile, tile          # the observation is the AI's own copy
        try:
            touching = sight.touching(tile)
            best = 0.0
            for g in touching:
                best = max(best, self.fight_value(st, f, g, f, g.id in charges, concentrate, {}, sight.risk))
            for wid, w in sight.weapons:
                if "template" in w or (touching and "destabilisation" not in w["rules"]):
                    continue
                free = sorted((g for g in sight.foes if g.id not in sight.held and band(w, tile, g.tile) is not None),
                              key=lambda g: (space.distance(tile, g.tile), g.id))
                for g in touching or free[:self.foresight(TARGETS)]:
                    if self.sees(st, tile, g.tile):
                        best = max(best, self.shot_value(st, f, g, wid, concentrate, "double_shot" in w["rules"]))
            return self.pressed(sight, best)
        finally:
            f.tile = here

    def pressed(self, sight: Sight, value: float) -> float:
        """An attack that pays is worth more than its exchange of harm: a battle has its turns counted, and
        a figure that lets it pass gives the enemy the next blow. The score's drive weighs it. One that costs
        more than it gains falls a margin lower: a level hesitates between close options, but never takes a
        losing attack as alike to holding back."""
        return value + self.tempo * sight.drive if value > 0 else value - self.alike

    def sees(self, st: State, a: Tile, b: Tile) -> bool:
        """The battlefield's own line-of-sight cache answers (engine/sight.py)."""
        return space.line_of_sight(st.battlefield, a, b)

    # --- decisions ------------------------------------------------------------------------------

    def score_leader(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        return self.scored(d.options, [len(in_bubble(st, st.figure(o.figure))) for o in d.options])

    def score_activate(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        out = []
        foes = [g for g in st.living() if g.side != d.side]
        for o in d.options:
            if o.action == "pass":
                out.append(-1.0)
                continue
            f = st.figure(o.figure)
            near = min((space.distance(f.tile, g.tile) for g in foes), default=0.0)
            # figures yet to take a first action go before those back for their second one
            out.append((2.0 if f.actions == 0 else 1.0) - near / 1000)
        return self.scored(d.options, out)

    def score_action(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        f = st.figure(d.figure)
        sight = Sight(st, f, self, observation)
        concentrate = f.first == "concentrate"
        before = {g.id for g in sight.touching(f.tile)}
        moves = [o for o in d.options if o.action == "move"]
        shortlist = self.shortlist(sight, moves)
        dashes = self.dashes(sight, {o.tile for o in moves}) if f.actions == 0 and st.turn == st.max_turns else {}
        here = sight.standing(f.tile)
        waiting_first = any(not st.figure(fid).done and st.figure(fid).alive and st.figure(fid).actions == 0
                            for fid in (st.group.members if st.group else []) if fid != f.id)
        out = []
        for o in d.options:
            a = o.action
            if a == "switch":
                # with no friend left to move first, a hand-over would only bring the phase back to the same
                # figures for ever: never taken then, however low the other options score
                out.append(50.0 if waiting_first else -math.inf)
            elif a == "end":
                out.append(here - (0.5 if f.actions == 0 else 0.0))
            elif a == "move":
                charges = {g.id for g in sight.touching(o.tile)} - before
                attack = self.best_attack(sight, o.tile, charges, False) if o.key in shortlist else 0.0
                out.append(max(attack + sight.standing(o.tile), dashes.get(o.tile, -math.inf)))
            elif a in ("stay", "concentrate"):
                out.append(self.best_attack(sight, f.tile, set(), a == "concentrate") + here
                           - (0.01 if a == "concentrate" else 0.0))
            elif a == "reload":
                out.append(2.0 + here)
            elif a == "run":
                out.append(sight.standing(o.tile))
            elif a == "fight":
                target = st.figure(o.target)
                out.append(self.pressed(sight, self.fight_value(st, f, target, f, target.id in f.charges, concentrate,
                                                                {}, sight.risk)) + here)
            elif a in ("shoot", "double"):
                out.append(self.pressed(sight, self.shot_value(st, f, st.figure(o.target), o.value, concentrate,
                                                               a == "double")) + here)
            elif a == "breath":
                out.append(self.pressed(sight, self.breath_value(sight, o, concentrate)) + here)
            else:
                out.append(here + (0.05 if a == "open" else 0.0))
        return self.scored(d.options, out)

    def dashes(self, sight: Sight, moves: set[Tile]) -> dict[Tile, float]:
        """For each tile a move may end on, the standing on the best objective tile beyond the move's reach
        (``moves``) that a run (half a Movement) reaches from it: in the last turn a zone or an exit is worth
        its points only once a figure stands on it, so a move scored where it stops would stop short of one
        a move and a run away."""
        st, f = sight.st, sight.f
        if not sight.objectives or not sight.foes:
            return {}
        run = mouv(f) / 2
        taken = {g.tile for g in st.living()}
        enemies = frozenset(g.tile for g in sight.foes)
        out: dict[Tile, float] = {}
        for o in sight.objectives.zones:
            for t in o.tiles:
                if t in moves or t in taken or not space.within(t, f.tile, 3 * run) \
                        or not st.battlefield.can_stand(t):
                    continue
                value = sight.standing(t)
                for m in space.reach(st.battlefield, t, run, space.MoveRules(space.WALK), enemies).cost:
                    if m != f.tile and value > out.get(m, -math.inf):
                        out[m] = value
        return out

    def breath_value(self, sight: Sight, o: Option, concentrate: bool) -> float:
        """A blunderbuss aimed straight at an enemy; other aims are not worked out (the template has a
        hundred of them) and score below doing nothing."""
        st, f = sight.st, sight.f
        aimed = st.at(o.tile)
        if aimed is None or aimed.side == f.side:
            return -1.0
        victims = [v for v in (st.at(t) for t in template_tiles(st, f, o.value, o.tile)) if v is not None]
        return sum(self.shot_value(st, f, v, o.value, concentrate) for v in victims)

    def shortlist(self, sight: Sight, moves: list[Option]) -> set[str]:
        """The moves worth a full look: every one into contact, and for a shooter a spread of the others."""
        if not sight.foes or not moves:
            return set()
        contact = {o.key for o in moves if sight.touching(o.tile)}
        if not any("range" in w for _, w in sight.weapons):
            return contact
        by_near = sorted(moves, key=lambda o: (min(space.distance(o.tile, g.tile) for g in sight.foes), o.key))
        n = self.foresight(SHORTLIST)
        step = max(1, len(by_near) // n)
        return contact | {o.key for o in by_near[::step][:n]}

    def score_mode(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        step = next(s for s in st.steps.upcoming() if isinstance(s, Melee))
        me = st.figure(d.figure)
        other = st.figure(d.options[0].target)
        attacker = st.figure(step.attacker)
        out = []
        for o in d.options:
            modes = {**step.modes, me.id: o.action}
            if other.modes and other.id not in modes:
                # the other side declares next: assume it answers with its best mode
                value = min(self.fight_value(st, me, other, attacker, step.charge, step.concentrate,
                                             {**modes, other.id: m}) for m in rule("modes"))
            else:
                value = self.fight_value(st, me, other, attacker, step.charge, step.concentrate, modes)
            out.append(value)
        return self.scored(d.options, out)

    def score_follow(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        """A fighter keeps its enemy in contact; a shooter would rather be free to shoot."""
        keeps_distance = Sight(st, st.figure(d.figure)).keep_at is not None
        return self.scored(d.options, [(-0.2 if keeps_distance else 0.2) if o.action == "follow" else 0.0
                                       for o in d.options])

    def score_second_shot(self, observation, d: Decision) -> dict[str, float]:
        st: State = observation.state
        f = st.figure(d.figure)
        return self.scored(d.options, [self.shot_value(st, f, st.figure(o.target), o.value, f.first == "concentrate",
                                                       True) / 2 if o.target else 0.0 for o in d.options])
