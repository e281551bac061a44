"""The tactical KOLAPS : Ground Zero player, on the shared framework (game/ai/tactics.py).

Every answer is scored by expected value from the module's exact odds (``rules.odds``): an attack by the
severity rows it is expected to inflict (worth more on a character already hurt), less what its failure
costs (§5.31, §5.32: morale, an incident, friendly fire on an ally crossed by the line); a grenade by the
figures its blast may hit, friends counting against. Morale is the resource a KOLAPS army runs out of
first: a point lost on a failed roll or a broken commitment seldom comes back, and at 3 or less a
character hardly attacks any more (§5.21), so a hopeless shot is not worth its failure and an attacker
does not tick a character that will not attack.

A move is worth the change in its character's position: the attack it will have from there next
activation, worked out from the exact difficulty and dice, against the attacks the enemy has on it there
(cover, prone and huddled included); an enemy that is offensive and has not yet activated shoots first and
counts in full, and may leave it no attack at all. So a character runs in to point-blank range of an enemy
that has already acted, not of one that will shoot first; the score's posture (``Tactician.posture``)
drives the attack on as the turn limit nears, and the map's objectives pull as the points count them (a
sheet's boxes per figure they are worth, for a figure that tips who holds a zone, from next to nothing in
the first turn to the whole in the last). The level's foresight sets
how many move tiles get that full look, the most promising first (point-blank range, cover, the enemy
and the objectives near).

The bidding follows §3.3's project default, counting only the characters that will attack this turn (an
attack worth their activation, or cover to lie in ambush behind; at morale 3, only where that attack is worth
the directive's roll); module knowledge besides: a trooper
readies its grenade when enemies bunch within a throw, an ambush stipulates an order its gun can keep, a
knife strikes only at a profit. An ambush waits for the enemy to come, so it is worth the score's caution: a
side level or behind, which must take points before the limit, lies in wait less as the turns pass and does
not bid for a character that would only wait (on a large map the armies close in sooner).

It reads only its side's observation; ties break on its own seeded generator, never the match's dice.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

from ...ai.tactics import Tactician, nearest
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.match import Observation
from ...engine.objectives import objectives as map_objectives
from .combat import (_hit_rows, behind_cover, line_of_sight, severity_dice, shot_band, shot_difficulty,
                     strike_difficulty, traits, zone_modifier)
from .effects import Ctx, controller, hostile
from .model import TOTAL_BOXES, ZONES
from .options import (AMBUSH_ACTIONS, ORDER_RANGES, Conduct, as_seen_by, can_offend, destinations, legal_target,
                      move_budget, static_attacks, usable, weapon)
from .pools import roll_odds, threshold
from .steps import eligible, points, severity_row

ROW_VALUE = {1: 0.1, 2: 0.25, 3: 1.0, 4: 1.0, 5: 2.0, 6: 3.0}
CRITICAL_VALUE = 4.0
BLAST_HIT = 1.2             # a figure a blast hits: its attack on that figure, in row values
FRIENDLY_FIRE = 1.5
EXPOSURE = 0.6              # the enemy's expected harm on a figure where it ends its activation
NEXT_ATTACK = 0.35          # the attack a position offers next activation, if the enemy is still there
FORESIGHT = 24              # move tiles looked at in full (× the level's foresight), the most promising first
UNLOOKED = -99.0            # a move to a tile the level did not look at
PRONE = 0.2                 # going prone: a later activation spent standing up to move
APPROACH = 0.03             # per cm beyond its gun's effective range (beyond contact for a blade)
MORALE = {6: 0.7, 5: 0.7, 4: 0.8, 3: 1.0, 2: 1.0, 1: 1.0}      # a point of morale lost, from each value: it
                            # seldom comes back (§5.10), at 3 a directive needs a roll, at 2 no more orders (§5.21)
BARRED = 0.1                # a breach bars its side from the next auction (§3.6)
GOOD_ATTACK = 0.4           # a bid counts a character whose best attack now is worth this much, or one that may
                            # lie in ambush: an attacker that does not attack breaches its commitment (§3.6)
MISHAP = 0.15               # a critical failure: a point of morale, and one time in six or more an incident (§5.32)
READY_GRENADE = 0.5         # a grenade readied now is thrown next activation, if the enemy stays
AMBUSH = 0.45               # lying in wait for an enemy that comes, at the score's caution: a side that must take
                            # points before the limit does not wait for an enemy that need not come
HELD_ANYWAY = 0.25          # a zone our side holds without this figure: insurance against a friend's fall, to this
                            # power the friends it holds by (a second spare covers two falls), so that the spares
                            # go and take points elsewhere
ON_THE_WAY = 0.6            # a tile from which an objective can still be reached before the end, at best


@lru_cache(maxsize=None)
def _expected_rows(difficulty, need: int, two_hands: bool, mods: tuple, sev: tuple, burst: bool) -> float:
    """The expected row value of an attack roll: a critical's worth, or a hit's rows (§5.22–§5.27)."""
    p = roll_odds(difficulty, need, two_hands)
    hit = sum(float(q) * ROW_VALUE[r] for r, q in _hit_rows(mods, *sev, burst))
    crit = float(p["critical_success"])
    return crit * CRITICAL_VALUE + (float(p["success"]) - crit) * hit


class KolapsAI(Tactician):
    SCALE = 2.0                 # two wounds (row 3): the level's margin and blur are shares of it

    def __init__(self, seed: int = 0, level: str = "normal"):
        super().__init__(seed, level)
        self._positions: dict = {}
        self._difficulties: dict = {}       # shot difficulties by what they turn on (the map never changes)

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

    def _will_attack(self, match: Observation, ctx: Ctx, ch) -> bool:
        """Whether ``ch``, made offensive, has an attack worth its activation now: a shot or strike of
        ``GOOD_ATTACK``, or cover to lie in ambush behind (§5.15: declaring one keeps the commitment)."""
        return self._offensive_worth(ctx, ch) >= GOOD_ATTACK

    def _offensive_worth(self, ctx: Ctx, ch) -> float:
        """What ``ch``'s offensive box is worth now: its best attack, or an ambush behind cover."""
        offensive = dataclasses.replace(ch, offensive=True)
        best = max((self._attack_from(ctx, offensive, ch.tile, as_seen_by(ch, e))
                    for e in ctx.in_play() if legal_target(ctx, offensive, e)), default=0.0)
        ambush = self._ambush_worth(self._score_posture(ctx, controller(ch))) if behind_cover(ctx.bf, ch.tile) else 0.0
        return max(best, ambush)

    def _score_posture(self, ctx: Ctx, side: int):
        """What the points that would decide the battle now ask of ``side`` (``Tactician.posture``)."""
        score = points(ctx.state).points
        return self.posture(score[side] - score[1 - side], TOTAL_BOXES, ctx.turn, ctx.state.max_turns)

    @staticmethod
    def _ambush_worth(posture) -> float:
        """An ambush waits for the enemy to come: worth ``AMBUSH`` at the score's caution, less for a side
        that must take points before the limit and less as the turns pass (never more: a side ahead that
        waits for an enemy that does not come holds no more than it has)."""
        return AMBUSH * min(1.0, posture.caution)

    def _directive_pays(self, ctx: Ctx, ch) -> bool:
        """§3.3: a character at morale 3 keeps the directive only on a difficulty-1 roll, and an attacker's lost
        one is a breach (a point, to morale 2, and the bar): worth bidding for when its attack, at the roll's
        chance, outweighs that."""
        worth = self._offensive_worth(ctx, ch)
        if worth < GOOD_ATTACK:
            return False
        p = float(roll_odds(1, threshold(ch.rank(ctx.turn)))["success"])
        return p * worth > (1 - p) * (MORALE[3] + BARRED)

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
        value -= float(o["critical_failure"]) * (MORALE[a.morale] + MISHAP)
        value -= float(o["failure"]) * self._failure_cost(a)
        if "friendly_fire" in odds.details["critical_failure_results"]:
            value -= float(o["critical_failure"]) * hit_value * FRIENDLY_FIRE      # an ally on the line (§5.32)
        return value

    @staticmethod
    def _failure_cost(a) -> float:
        """§5.31: a simple failure costs initial rank 1–2 a point of morale down to 3; rank 3–4 only its 6."""
        if a.rng_initial <= 2:
            return MORALE[a.morale] if a.morale > 3 else 0.0
        return MORALE[6] if a.morale == 6 else 0.0

    def _harm(self, difficulty, need: int, two_hands: bool, t, sev: tuple, burst: bool, focus: bool) -> float:
        """Expected row value of one roll at ``difficulty`` on ``t``, hit with severity dice ``sev``."""
        value = _expected_rows(difficulty, need, two_hands, tuple(zone_modifier(t, z) for z in ZONES), sev, burst)
        return value * (self.worth(self._health(t)) if focus else 1.0)

    def _attack_from(self, ctx: Ctx, a, origin, t, focus: bool = True) -> float:
        """The expected harm of ``a``'s best attack on ``t`` from ``origin`` with what it holds: a shot (a
        burst where its gun has one), or a strike when adjacent; worked out from the exact difficulty and
        dice, as the odds would give them were it there. 0 when it has none worth taking."""
        need = threshold(a.rank(ctx.turn))
        w = weapon(ctx, a.ready_weapon)
        if space.adjacent(origin, t.tile):
            best = 0.0
            for name in {a.ready_weapon, "unarmed"}:
                ww = weapon(ctx, name)
                if name != "unarmed" and (not usable(ctx, a, name) or (ww["range"] is not None
                                                                       and "pistol" not in traits(ww))):
                    continue
                d = strike_difficulty(a, t, ww, False)
                if d.possible:
                    best = max(best, self._harm(d.value, need, ww["range"] is None and "two_hands" in traits(ww), t,
                                                severity_dice(ww, "contact", True), False, focus))
            return best
        if w["range"] is None or "explosion" in traits(w) or not usable(ctx, a, a.ready_weapon):
            return 0.0
        if not line_of_sight(ctx.bf, origin, t.tile):
            return 0.0
        key = (a.prone, a.right_arm_malus, origin, a.ready_weapon, t.tile, t.cib_mod, t.prone, t.offensive,
               t.ambush_armed, t.huddled)
        d = self._difficulties.get(key)
        if d is None:
            if len(self._difficulties) > 200_000:
                self._difficulties.clear()
            d = self._difficulties[key] = shot_difficulty(ctx.bf, ctx.state, a, origin, t, w, False)
        if d is None or not d.possible:
            return 0.0
        return self._harm(d.value, need, False, t, severity_dice(w, d.band, False), "automatic" in traits(w), focus)

    @staticmethod
    def _ready(e) -> float:
        """How surely enemy ``e`` attacks before our next activation: at once if it is offensive and has not
        yet activated this turn; next turn, when it may or may not go first, if it will answer orders."""
        if e.offensive and not e.activated_this_turn and e.morale >= 3:
            return 1.0
        return 0.5 if e.morale >= 3 else 0.1

    def _danger(self, ctx: Ctx, me) -> tuple[float, float]:
        """The harm the enemy threatens on ``me`` where it stands (as it would stand: prone, huddled): each
        enemy's best attack from where it is, a blade's from a walk away, weighed by how soon it comes; and
        the part of it that comes before our next activation."""
        total = first = 0.0
        cpt = ctx.state.cm_per_tile
        for e in self._enemies:
            w = weapon(ctx, e.ready_weapon)
            if w["range"] is None or not usable(ctx, e, e.ready_weapon):
                reach = e.mvt_mod * 2.5 / cpt + 1.5
                if space.adjacent(e.tile, me.tile):
                    harm = self._attack_from(ctx, e, e.tile, me, focus=False)
                elif space.within(e.tile, me.tile, reach) and not e.prone:
                    harm = self._strike_on(ctx, e, me)
                else:
                    harm = 0.0
            else:
                harm = self._attack_from(ctx, e, e.tile, me, focus=False)
            ready = self._ready(e)
            total += ready * harm
            first += harm if ready == 1.0 else 0.0
        return total, first

    def _strike_on(self, ctx: Ctx, e, me) -> float:
        """A blade's move to strike on ``me`` (+2, §5.14)."""
        ww = weapon(ctx, e.ready_weapon)
        d = strike_difficulty(e, me, ww, True)
        if not d.possible:
            return 0.0
        return self._harm(d.value, threshold(e.rank(ctx.turn)), "two_hands" in traits(ww), me,
                          severity_dice(ww, "contact", True), False, False)

    def _setup(self, match: Observation, ctx: Ctx, ch) -> None:
        """What every position of ``ch`` this decision turns on."""
        self._positions = {}
        self._enemies = [as_seen_by(ch, e) for e in ctx.in_play() if hostile(ch, e)]
        answer = sum(1.0 for c in ctx.in_play() if not hostile(ch, c)
                     and weapon(ctx, c.ready_weapon)["range"] is not None)
        posture = self._score_posture(ctx, controller(ch))
        self._ambush = self._ambush_worth(posture)
        self._caution = self.caution(self._health(ch), self._danger(ctx, ch)[0], answer, posture)
        self._drive = posture.drive
        self._objectives = self._stakes(ctx, ch, ctx.state.max_turns)

    def _stakes(self, ctx: Ctx, ch, max_turns: int) -> list:
        """What each objective would add to our side's points at the end were ``ch`` standing on it then: a
        sheet's boxes per figure it is worth (engine/objectives.py), for a control zone only when ``ch`` tips
        who holds it (our figures on it against the enemy's it sees), weighed by the turns left: next to
        nothing in the first turn, the whole in the last (who stands there then is what counts)."""
        urgency = (ctx.turn / max_turns) ** 2 if max_turns else 1.0
        side = controller(ch)
        there = [(c.tile, controller(c) == side) for c in ctx.in_play() if c.id != ch.id]
        stakes = []
        for o in map_objectives(ctx.bf):
            if o.kind == "exit":
                gain = 1.0 if o.side == side else 0.0
            else:
                ours = sum(1 for t, friend in there if friend and t in o.tiles)
                theirs = sum(1 for t, friend in there if not friend and t in o.tiles)
                gain = 1.0 if ours in (theirs, theirs - 1) else HELD_ANYWAY ** max(1, ours - theirs)
            if gain:
                stakes.append((o.tiles, o.worth * TOTAL_BOXES * urgency * gain * self.level.objectives))
        left = max(0, max_turns - ctx.turn)
        run = move_budget(ctx, dataclasses.replace(ch, prone=False), True)[0]
        return [(tiles, value, run * left) for tiles, value in stakes if value > 0]

    def _pull(self, tile) -> float:
        """An objective's stake for a figure on ``tile``: in full on it, less the further it is from it, and
        nothing where it can no longer reach it in the activations left."""
        best = 0.0
        for tiles, value, reach in self._objectives:
            if tile in tiles:
                best = max(best, value)
            elif reach > 0:
                gap = min(space.distance(tile, t) for t in tiles)
                best = max(best, value * ON_THE_WAY * max(0.0, 1.0 - gap / (reach + 1.0)))
        return best

    def _position_value(self, ctx: Ctx, ch, tile, prone=None, huddled=False) -> float:
        key = (tile, ch.prone if prone is None else prone, huddled)
        cache = self._positions
        if key not in cache:
            cache[key] = self._position_value_uncached(ctx, ch, *key)
        return cache[key]

    def _position_value_uncached(self, ctx: Ctx, ch, tile, prone: bool, huddled: bool) -> float:
        """What standing on ``tile`` is worth to ``ch``: the attack it will have from there next activation
        (more as the score drives it on), less the enemy's attacks on it there (feared by its caution), plus
        the pull of the objectives and of the enemy when it has no shot yet."""
        enemies = self._enemies
        if not enemies:
            return 0.0
        me = ch if (tile, prone, huddled) == (ch.tile, ch.prone, ch.huddled) else \
            dataclasses.replace(ch, tile=tile, prone=prone, huddled=huddled)
        w = weapon(ctx, ch.ready_weapon)
        cpt = ctx.state.cm_per_tile
        attack = max((self._attack_from(ctx, me, tile, e) for e in enemies if legal_target(ctx, me, e)), default=0.0)
        danger, first = self._danger(ctx, me)
        standing = max(0.2, 1.0 - first / CRITICAL_VALUE)     # the shots it takes first may leave it no attack
        value = NEXT_ATTACK * min(2.0, self._drive) * attack * standing - EXPOSURE * self._caution * danger
        value += self._pull(tile)
        nearest_cm = nearest(tile, [e.tile for e in enemies]) * cpt
        whole = self._drive * self._health(ch) / max(1.0, self._caution)
        reach = 0.0 if w["range"] is None or "explosion" in w["traits"] else w["range"]
        return value - whole * APPROACH * max(0.0, nearest_cm - reach)

    @staticmethod
    def _fatigue_cost(ch) -> float:
        """A point of fatigue (run, move and shoot, move to strike): the sixth risks rank 0 or a lost turn."""
        return 0.05 + 0.05 * ch.fatigue + (0.4 if ch.fatigue >= 5 else 0.0)

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

    @staticmethod
    def _breach(match: Observation, ch) -> float:
        """What an attacker's ticked character that has not yet attacked loses if it does not (§3.6)."""
        committed = ch.offensive and match.state.attacker == controller(ch) and not ch.did_offensive_action_this_turn
        return MORALE[ch.morale] + BARRED if committed else 0.0

    def _score(self, match: Observation, ctx: Ctx, ch, o: Option, shot_values: dict) -> float:
        a = o.action
        here = self._position_value(ctx, ch, ch.tile)
        bonus = self._breach(match, ch)
        if a in ("shoot", "burst", "strike", "throw"):
            return self._attack_value(match, o) + bonus
        if a == "moveshoot":
            if o.target not in shot_values:
                shot_values[o.target] = self._attack_value(match, o)
            return (shot_values[o.target] + bonus + self._position_value(ctx, ch, o.tile) - here
                    - self._fatigue_cost(ch))
        if a == "movestrike":
            return (self._attack_value(match, o) + bonus + self._position_value(ctx, ch, o.tile) - here
                    - self._fatigue_cost(ch))
        if a in ("walk", "run"):
            return self._position_value(ctx, ch, o.tile) - here - (self._fatigue_cost(ch) if a == "run" else 0.0)
        if a in AMBUSH_ACTIONS:
            return self._ambush + bonus * 0.9 + (0.01 if o.key == self._standing_order(ctx, ch) else 0.0)
        if a == "cover":
            if ch.morale_state == "withdrawing":
                return 1.0
            return self._position_value(ctx, ch, ch.tile, huddled=True) - here
        if a == "prone":                        # shoots at −1 and is shot at +1, but must stand to move
            return self._position_value(ctx, ch, ch.tile, prone=True) - here - PRONE + \
                (0.1 if ch.morale_state == "pinned" else 0.0)
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
        """§3.3: U, the characters with morale 4+ and an attack opportunity, and those at morale 3 whose attack
        is worth the directive's roll; outbid by one while under U, stop at the standing bid; a barred side
        announces every eligible character, a free attacker U."""
        ctx = self._ctx(match)
        mine = [c for c in self._mine(ctx, decision.side) if eligible(ctx, c)]
        e = len(mine)
        u = sum(1 for c in mine if c.morale >= 4 and self._opportunity(ctx, c) and self._will_attack(match, ctx, c))
        u += sum(1 for c in mine if c.morale == 3 and self._opportunity(ctx, c) and self._directive_pays(ctx, c))
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
        """An attacker ticks characters with morale 4+ first; then those with an attack worth their activation
        (the ones its bid counted), an opportunity, rank, morale."""
        ctx = self._ctx(match)
        attacker = match.state.attacker == decision.side
        chars = {o.key: ctx.char(o.figure) for o in decision.options}
        keen = attacker and any(c.morale >= 4 for c in chars.values())
        ranked = sorted(chars, key=lambda k: ((not keen or chars[k].morale >= 4),
                                              self._will_attack(match, ctx, chars[k]), self._opportunity(ctx, chars[k]),
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
        looked = self._candidates(ctx, ch, {o.tile for o in decision.options if o.path})
        shot_values: dict = {}
        return {o.key: self._score(match, ctx, ch, o, shot_values) if not o.path or o.tile in looked else UNLOOKED
                for o in decision.options}

    def _candidates(self, ctx: Ctx, ch, tiles: set) -> set:
        """The tiles a move may end on that get the full look (the level's foresight): first those from
        which it may shoot at point-blank range or strike, those behind cover, and the nearest the enemy and
        the objectives."""
        n = self.foresight(FORESIGHT)
        if len(tiles) <= n:
            return tiles
        enemies = [e.tile for e in self._enemies]
        cpt = ctx.state.cm_per_tile

        def promise(tile) -> tuple:
            close = any(space.within_cm(tile, e, 5, cpt) for e in enemies)
            pull = self._pull(tile)
            return (pull >= 1.0, close, behind_cover(ctx.bf, tile), pull - nearest(tile, enemies), tile)

        return set(sorted(tiles, key=promise, reverse=True)[:n])

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
        """A knife strikes first only at a profit: passing is worth nothing, a strike its expected value, and
        for a committed attacker the breach it spares (the strike uses its activation, §5.34.4)."""
        state = match.state
        return {o.key: 0.0 if o.key == "pass" else self._attack_value(match, o)
                + self._breach(match, state.chars[o.figure]) for o in decision.options}
