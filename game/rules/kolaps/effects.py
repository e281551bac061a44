"""What happens to a character: rolls, morale, fatigue, wounds, criticals, removal (§5.18–§5.32).

``Ctx`` is what the steps of one answer work in (the module's ``context``): the state, the match's dice
and the growing event list, so every die rolled lands in a "dice" event in roll order.
"""
from __future__ import annotations

from ...engine import events as ev
from ...engine import space
from ...engine.dice import Dice
from ...engine.events import Event
from .combat import ENGAGEMENT_CM, modified_values, zone_modifier
from .model import (MUTINOUS, NORMAL, PINNED, ROUTING, SHELTERED, TOTAL_BOXES, WITHDRAWING, ZONE_MAX, ZONES,
                    Character, KolapsState)
from .pools import AUTOMATIC, IMPOSSIBLE, RollResult, clamp_difficulty, dice_count, judge, notation, threshold

# morale loss by severity row and initial rank 1..4 (§5.23)
SEVERITY_MORALE = {1: (1, 0, 0, 0), 2: (1, 1, 0, 0), 3: (2, 1, 1, 0), 4: (2, 1, 1, 0),
                   5: (3, 2, 2, 1), 6: (3, 3, 2, 2)}
SEVERITY_WOUNDS = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 3}
SEVERITY_NAME = {1: "graze", 2: "bad_hit", 3: "wound", 4: "wound", 5: "serious_wound", 6: "very_serious_wound"}
CRITICAL_MORALE = (3, 2, 2, 1)
ALLY_DOWN_MORALE = (2, 1, 1, 0)
# critical table (§5.27): die -> (name, zone, survival difficulty)
CRITICALS = {1: ("crippled_left_arm", "left_arm", 3), 2: ("crippled_right_arm", "right_arm", 3),
             3: ("crippled_leg", "legs", 3), 4: ("in_the_heart", "belly", 4),
             5: ("guts_out", "belly", 4), 6: ("head_shot", "head", None)}


def by_initial_rank(table: tuple, ch: Character) -> int:
    return table[max(1, min(4, ch.rng_initial)) - 1]


def controller(ch: Character) -> int:
    """A mutineer is played by the opponent (§5.21)."""
    return 1 - ch.side if ch.morale_state == MUTINOUS else ch.side


def hostile(a: Character, b: Character) -> bool:
    return controller(a) != controller(b)


def clamp_amount(s: int) -> int:
    return max(1, min(3, s // 2))


class Ctx:
    def __init__(self, state: KolapsState, dice: Dice, data: dict):
        self.state = state
        self.dice = dice
        self.data = data
        self.events: list[Event] = []

    @property
    def bf(self):
        return self.state.bf

    @property
    def turn(self) -> int:
        return self.state.turn

    def ev(self, kind: str, rule: str = "", visible_to: int | None = None, **data) -> None:
        self.events.append(Event(kind, data, visible_to, rule))

    def char(self, cid: str) -> Character:
        return self.state.chars[cid]

    def in_play(self):
        return [c for c in self.state.chars.values() if c.in_play]

    # --- dice -------------------------------------------------------------------

    def roll(self, ch: Character | None, purpose: str, n: int, rule: str, needed=None, **extra) -> list[int]:
        """``n`` D6 rolled by ``ch`` (None: one die per side, a roll-off), shown in one dice event."""
        values = self.dice.roll(n, 6, f"kolaps {rule} {purpose}")
        self.events.append(ev.dice(ch.id if ch else None, values, purpose, rule, needed=needed, **extra))
        return values

    def test(self, ch: Character, raw: int, purpose: str, rule: str, need: int | None = None,
             two_hands: bool = False, **extra) -> RollResult | None:
        """A difficulty roll; None for an automatic success (no dice). ``extra`` goes into the dice event."""
        d = clamp_difficulty(raw)
        if d == AUTOMATIC:
            self.ev("automatic", rule, figure=ch.id, purpose=purpose)
            return None
        if d == IMPOSSIBLE:
            return RollResult(False, False, False, 0, ())
        need = threshold(ch.rank(self.turn)) if need is None else need
        values = self.roll(ch, purpose, dice_count(d), rule, needed=need, difficulty=d, roll=notation(d), **extra)
        result = judge(values, d, need, two_hands)
        self.ev("roll_result", rule, figure=ch.id, purpose=purpose, success=result.success,
                critical_success=result.critical_success, critical_failure=result.critical_failure,
                ones=result.ones)
        return result

    def passes(self, ch: Character, raw: int, purpose: str, rule: str) -> bool:
        r = self.test(ch, raw, purpose, rule)
        return r is None or r.success

    # --- morale -----------------------------------------------------------------

    def change_morale(self, ch: Character, delta: int, cause: str, rule: str) -> None:
        before = ch.morale
        ch.morale = max(1, min(6, ch.morale + delta))
        if ch.morale != before or delta:
            self.ev("morale", rule, figure=ch.id, before=before, after=ch.morale, cause=cause)
        if ch.morale <= 2:
            self.end_ambush(ch, "morale")
        if ch.morale >= 2 and ch.morale_state in (ROUTING, MUTINOUS):
            ch.morale_state = NORMAL
            self.ev("morale_state", "5.21", figure=ch.id, state=NORMAL)
        if ch.morale >= 3 and ch.morale_state in (WITHDRAWING, PINNED, SHELTERED):
            ch.morale_state = NORMAL
            self.ev("morale_state", "5.21", figure=ch.id, state=NORMAL)

    def simple_failure_morale(self, ch: Character) -> None:
        """§5.31: ranks 1–2 lose 1 but never below 3 this way; ranks 3–4 only go from 6 to 5."""
        if ch.rng_initial <= 2:
            if ch.morale > 3:
                self.change_morale(ch, -1, "failure", "5.31")
        elif ch.morale == 6:
            self.change_morale(ch, -1, "failure", "5.31")

    # --- state changes -----------------------------------------------------------

    def end_ambush(self, ch: Character, reason: str) -> None:
        """§5.15: the ambush ends (its own activation, morale 2 or less, KO, removal, mutiny). What ended it
        is public, so the enemy now knows it lies in no ambush; only the owner is told one has ended."""
        ch.quiet_turn = None
        if ch.ambush_armed:
            ch.ambush_armed = False
            ch.ambush_order = None
            self.ev("ambush_ended", "5.15", visible_to=ch.side, figure=ch.id, reason=reason)

    def fall_prone(self, ch: Character, cause: str, rule: str) -> None:
        if not ch.prone:
            ch.prone = True
            ch.huddled = False
            self.ev("prone", rule, figure=ch.id, cause=cause)

    def gain_fatigue(self, ch: Character, n: int, cause: str, rule: str = "5.18") -> None:
        before = ch.fatigue
        ch.fatigue = min(6, ch.fatigue + n)
        ch.fatigue_gained_this_turn = True
        self.ev("fatigue", rule, figure=ch.id, before=before, after=ch.fatigue, cause=cause)
        if ch.fatigue == 6 and ch.in_play:
            self.sixth_point_roll(ch)

    def sixth_point_roll(self, ch: Character) -> None:
        """§5.18: failure → prone and no activation next turn; success → rank 0; a 6 → no effect."""
        r = self.test(ch, 1, "sixth_fatigue_point", "5.18")
        t = self.turn
        if r is not None and not r.success:
            self.fall_prone(ch, "exhaustion", "5.18")
            ch.cannot_activate_turn = t + 1
            self.ev("exhausted", "5.18", figure=ch.id, result="collapse", turn=t + 1)
        elif r is not None and r.kept and max(r.kept) == 6:
            ch.no_recovery_turn = t + 1
            self.ev("exhausted", "5.18", figure=ch.id, result="unaffected", turn=t + 1)
        else:
            ch.exhausted_from_turn = t + 1
            self.ev("exhausted", "5.18", figure=ch.id, result="rank_0", turn=t + 1)

    def lose_fatigue(self, ch: Character, n: int, cause: str, rule: str) -> None:
        if ch.fatigue_locked_at_6 or n <= 0 or ch.fatigue == 0:
            return
        before = ch.fatigue
        ch.fatigue = max(0, ch.fatigue - n)
        ch.exhausted_from_turn = None
        self.ev("fatigue", rule, figure=ch.id, before=before, after=ch.fatigue, cause=cause)

    def recompute(self, ch: Character) -> None:
        ch.mvt_mod, ch.cib_mod, ch.rng_mod = modified_values(ch)

    def drop_weapon(self, ch: Character, rule: str) -> None:
        w = ch.ready_weapon
        if w == "unarmed":
            return
        if w in ch.weapons:
            ch.weapons.remove(w)
        if w in ch.jammed:
            ch.jammed.remove(w)
        self.state.ground.append([ch.tile, w])
        ch.ready_weapon = "unarmed"
        self.ev("dropped", rule, figure=ch.id, weapon=w, tile=ch.tile)

    def drop_left(self, ch: Character, rule: str) -> None:
        """A wounded left arm lets go of the left-hand item: it lies on the tile until picked up (§5.26)."""
        w = ch.left_hand
        if w is None:
            return
        ch.weapons.remove(w)
        ch.left_hand = None
        self.state.ground.append([ch.tile, w])
        self.ev("dropped", rule, figure=ch.id, weapon=w, tile=ch.tile, hand="left_hand")

    def remove(self, ch: Character, cause: str, rule: str) -> None:
        """Out of action (or fled): allies in the same AFF lose morale (§5.21, A79)."""
        if not ch.in_play:
            return
        ch.in_play = False
        ch.casualty = cause
        self.end_ambush(ch, cause)
        ch.huddled = False
        self.events.append(ev.removed(ch.id, cause, rule))
        if ch.aff is not None and cause != "fled":
            for ally in self.in_play():
                if ally.aff == ch.aff and controller(ally) == controller(ch) and ally.id != ch.id:
                    loss = by_initial_rank(ALLY_DOWN_MORALE, ally)
                    if loss:
                        self.change_morale(ally, -loss, "ally_out_of_action", "5.21")
        self.check_engagements()

    def check_engagements(self) -> None:
        """An AFF ends when no two opposing active participants remain (§5.19, A21)."""
        numbers = sorted({c.aff for c in self.in_play() if c.aff is not None})
        for n in numbers:
            sides = {controller(c) for c in self.in_play() if c.aff == n and c.morale_state != ROUTING}
            if len(sides) < 2:
                for c in self.in_play():
                    if c.aff == n:
                        c.aff = None
                self.ev("aff_ended", "5.19", aff=n)

    def join_aff(self, ch: Character, number: int) -> None:
        if ch.aff != number:
            ch.aff = number
            self.ev("aff", "5.19", figure=ch.id, aff=number)
            if ch.morale_state in (WITHDRAWING, SHELTERED):
                ch.morale_state = WITHDRAWING
                self.ev("morale_state", "5.21", figure=ch.id, state=WITHDRAWING)

    def new_aff(self, *chars: Character) -> int:
        n = self.state.next_aff
        self.state.next_aff += 1
        for c in chars:
            self.join_aff(c, n)
        return n

    def knock_out(self, ch: Character, count: int) -> None:
        ch.ko_activations_left = count
        self.end_ambush(ch, "knocked_out")
        if not ch.activated_this_turn:
            ch.activated_this_turn = True
            ch.commitment_excused_this_turn = True
            ch.ko_activations_left -= 1
        self.ev("knocked_out", "5.26", figure=ch.id, activations=count)

    # --- wounds -----------------------------------------------------------------

    def wound(self, ch: Character, zone: str, boxes: int, rule: str) -> None:
        """Tick ``zone`` up to ``boxes``: the free wound boxes are the character's gauge."""
        amount = boxes - ch.wounds[zone]
        ch.wounds[zone] = boxes
        self.events.append(ev.damaged(ch.id, "wound_boxes", amount, TOTAL_BOXES - ch.total_wounds(), rule,
                                      zone=zone, boxes=boxes, maximum=ZONE_MAX[zone]))

    def survival(self, ch: Character, rule: str) -> bool:
        if self.passes(ch, 1, "survival", rule):
            return True
        self.remove(ch, "out_of_action", rule)
        return False

    def apply_hit(self, victim: Character, s: int, loc: int, sharp: bool = False, blunt: int | None = None,
                  rule: str = "5.22") -> None:
        """Steps 2–8 of a non-critical hit, from the kept severity value and the location die."""
        zone = ZONES[loc - 1]
        m = zone_modifier(victim, zone)
        severity = s + m
        row = min(severity, 6)
        self.ev("hit", rule, figure=victim.id, zone=zone, severity_die=s, modifier=m, severity=severity,
                row=row, name=SEVERITY_NAME[row])
        for _ in range(SEVERITY_WOUNDS[row]):
            if victim.wounds[zone] < ZONE_MAX[zone]:
                self.wound(victim, zone, victim.wounds[zone] + 1, "5.23")
                if victim.wounds[zone] < ZONE_MAX[zone]:
                    continue
            if not self.survival(victim, "5.25"):
                return
        self.hemorrhage_check(victim, zone, min(row + 1, 6) if sharp else row)
        loss = SEVERITY_MORALE[row][max(1, min(4, victim.rng_initial)) - 1]
        if loss:
            self.change_morale(victim, -loss, SEVERITY_NAME[row], "5.23")
        if not self.passes(victim, severity - 1, "secondary_effect", "5.26"):
            self.secondary_effect(victim, zone, severity)
        if blunt is not None and victim.in_play and not self.passes(victim, blunt - 1, "knockdown", "5.34.3"):
            self.fall_prone(victim, "blunt", "5.34.3")

    def hemorrhage_check(self, ch: Character, zone: str, row: int) -> None:
        if row <= 2:
            return
        if row < 6:
            limit = 2 if row <= 4 else 4
            v = self.roll(ch, "hemorrhage", 1, "5.23", needed=f"1-{limit}")[0]
            if v > limit:
                return
        self.start_hemorrhage(ch, zone)

    def start_hemorrhage(self, ch: Character, zone: str) -> None:
        if zone not in ch.hemorrhage:
            ch.hemorrhage[zone] = self.turn
            self.ev("hemorrhage", "5.28", figure=ch.id, zone=zone)

    def secondary_effect(self, ch: Character, zone: str, severity: int) -> None:
        amount = clamp_amount(severity)
        self.ev("secondary_effect", "5.26", figure=ch.id, zone=zone, amount=amount)
        if zone == "left_arm":
            self.drop_left(ch, "5.26")
            ch.no_two_handed_next_activation = True
        elif zone == "right_arm":
            self.drop_weapon(ch, "5.26")
            ch.no_two_handed_next_activation = True
        elif zone == "legs":
            self.fall_prone(ch, "legs", "5.26")
        elif zone == "chest":
            self.gain_fatigue(ch, amount, "chest", "5.26")
        elif zone == "belly":
            self.fall_prone(ch, "belly", "5.26")
            ch.no_offensive_turn = self.turn + 1
        elif zone == "head":
            self.fall_prone(ch, "head", "5.26")
            self.knock_out(ch, amount)

    def critical_hit(self, victim: Character) -> None:
        """§5.27: its own location die, a survival roll, then the permanent effects."""
        die = self.roll(victim, "critical_location", 1, "5.27")[0]
        name, zone, difficulty = CRITICALS[die]
        self.ev("critical", "5.27", figure=victim.id, result=name, zone=zone)
        if difficulty is None:
            self.remove(victim, "head_shot", "5.27")
            return
        if not self.passes(victim, difficulty, "critical_survival", "5.27"):
            self.remove(victim, "out_of_action", "5.27")
            return
        self.wound(victim, zone, ZONE_MAX[zone], "5.27")
        self.start_hemorrhage(victim, zone)
        if zone not in victim.critical:
            victim.critical.append(zone)
        if die == 2:
            victim.right_arm_malus = True
        if die in (1, 2) and self.data["weapons"][victim.ready_weapon].get("hands", 0) == 2:
            self.ev("weapon_unusable", "5.27", figure=victim.id, weapon=victim.ready_weapon)
        if die in (1, 2) and victim.left_hand is not None:     # "a weapon and an object" no longer
            self.ev("weapon_unusable", "5.27", figure=victim.id, weapon=victim.left_hand)
        if die == 3:
            self.fall_prone(victim, "crippled_leg", "5.27")
            victim.permanently_prone = True
        if die == 4:
            self.fall_prone(victim, "in_the_heart", "5.27")
            victim.no_offensive_next_activation = True
        if die == 5:
            self.fall_prone(victim, "guts_out", "5.27")
            victim.permanently_prone = True
            victim.never_offensive = True
        self.change_morale(victim, -by_initial_rank(CRITICAL_MORALE, victim), "critical_wound", "5.27")
        if die == 4:
            before = victim.fatigue
            victim.fatigue = 6
            victim.fatigue_locked_at_6 = True
            victim.fatigue_gained_this_turn = True
            self.ev("fatigue", "5.27", figure=victim.id, before=before, after=6, cause="in_the_heart")
            self.sixth_point_roll(victim)

    def hemorrhage_rolls(self, ch: Character) -> None:
        """Assessment step 2 (§5.28): zones bleeding since before this turn."""
        for zone in ZONES:
            caused = ch.hemorrhage.get(zone)
            if caused is None or caused >= self.turn or not ch.in_play:
                continue
            r = self.test(ch, 1, "hemorrhage", "5.28")
            if r.success:
                if r.critical_success and zone not in ch.critical:
                    del ch.hemorrhage[zone]
                    self.ev("hemorrhage_stopped", "5.28", figure=ch.id, zone=zone)
                continue
            self.wound(ch, zone, min(ZONE_MAX[zone], ch.wounds[zone] + 1), "5.28")
            if ch.wounds[zone] >= ZONE_MAX[zone] and not self.survival(ch, "5.28"):
                return

    def distance_ok_for_shelter(self, ch: Character) -> bool:
        cpt = self.state.cm_per_tile
        return all(not space.within_cm(ch.tile, e.tile, ENGAGEMENT_CM, cpt)
                   for e in self.in_play() if hostile(ch, e))
