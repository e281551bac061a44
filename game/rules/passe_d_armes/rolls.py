"""The pure rules of Passe d'armes: the roll and its margin, the wound formulas, the vital monitor and
recovery (rules/passe_d_armes.md 2.1, 5.6, 5.7, 5.9-5.12). Plain numbers in, plain numbers out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

BOXES = 10
SHOCK, TRAUMA = "shock", "trauma"


# --- the roll (2.1) ------------------------------------------------------------------------

@dataclass(frozen=True)
class Roll:
    """One d10 rolled under a score: ``score`` already holds the wound modifier, ``difficulty`` is the
    sum of every difficulty added to the die."""

    score: int
    difficulty: int
    die: int

    @property
    def margin(self) -> int:
        return self.score - (self.die + self.difficulty)

    @property
    def success(self) -> bool:
        return self.margin >= 0

    @property
    def exploit(self) -> bool:
        """A natural 1 that also succeeds: a roll that cannot succeed is never an Exploit."""
        return self.die == 1 and self.success


def effective(margin: int) -> int:
    """The margin used in wound arithmetic; comparisons use the raw margin."""
    return max(0, margin)


# --- wounds (5.6, 5.7, 5.16) -----------------------------------------------------------------

def dodge_wounds(m_a: int, m_d: int, index: int, protection: int) -> int:
    """A won dodge avoids everything; a lost one takes the attacker's margin plus the index, less protection."""
    if m_d > m_a:
        return 0
    return max(0, effective(m_a) + index - protection)


def absorb_wounds(m_a: int, m_d: int, index: int, protection: int) -> int:
    """Absorbing always costs at least one wound, whoever wins the opposition (ambiguity 14)."""
    return max(1, (effective(m_a) + index) - (effective(m_d) + protection))


def helpless_wounds(m_a: int, index: int, protection: int) -> int:
    """A KO or out defender does not defend (5.16)."""
    return max(0, effective(m_a) + index - protection)


def defence_wounds(defence: str, m_a: int, m_d: int, index: int, protection: int) -> int:
    return (dodge_wounds if defence == "dodge" else absorb_wounds)(m_a, m_d, index, protection)


# --- the vital monitor (5.9-5.11) --------------------------------------------------------------

@dataclass(frozen=True)
class Monitor:
    """T is the highest trauma box, S the highest shock box; boxes 1..T are traumas, T+1..S shocks.

    ``overflow`` counts the wounds taken once out (T = 10); ``dead`` once it reaches Puissance.
    """

    T: int = 0
    S: int = 0
    overflow: int = 0
    dead: bool = False

    @property
    def top(self) -> int:
        return max(self.S, self.T)

    @property
    def out(self) -> bool:
        return self.T == BOXES

    @property
    def ko(self) -> bool:
        return self.S == BOXES and self.T < BOXES

    @property
    def helpless(self) -> bool:
        return self.dead or self.T == BOXES or self.S == BOXES

    @property
    def status(self) -> str:
        if self.dead:
            return "dead"
        if self.out:
            return "out"
        if self.ko:
            return "ko"
        return "active"

    @property
    def shock_boxes(self) -> int:
        return max(0, self.S - self.T)

    @property
    def trauma_boxes(self) -> int:
        return self.T

    def boxes(self) -> tuple[str, ...]:
        """Each box's mark, box 1 first: "trauma", "shock" or "" for a free box."""
        return tuple(TRAUMA if b <= self.T else SHOCK if b <= self.S else "" for b in range(1, BOXES + 1))

    def text(self) -> str:
        """The monitor as the spec's test vectors write it: X trauma, / shock, . free."""
        return "".join({"trauma": "X", "shock": "/", "": "."}[m] for m in self.boxes())


def wound_modifier(monitor: Monitor, table: list[list[int]]) -> int:
    """Set by the highest marked box of either kind (ambiguity 21): ``table`` is [[box, modifier]…],
    highest box first."""
    for box, modifier in table:
        if monitor.top >= box:
            return modifier
    return 0


def mark(monitor: Monitor, n: int, nature: str, puissance: int) -> Monitor:
    """``n`` wounds of ``nature`` marked as 5.10 says; wounds past box 10 in one hit are discarded."""
    if n < 1 or monitor.dead:
        return monitor
    T, S, overflow = monitor.T, monitor.S, monitor.overflow
    if T == BOXES:
        overflow += n
        return Monitor(T, S, overflow, overflow >= puissance)
    if nature == SHOCK and S == BOXES:
        nature = TRAUMA             # a KO combatant's shocks count as traumas (5.11)
    if nature == TRAUMA:
        T = min(BOXES, n) if n > T else T + 1
    else:
        top = max(S, T)
        S = min(BOXES, n) if n > top else top + 1
    return Monitor(T, S, overflow, False)


def mark_all(monitor: Monitor, hits: list[tuple[int, str]], puissance: int) -> list[Monitor]:
    """The monitor after each hit in turn (for the test vectors' chains)."""
    out = []
    for n, nature in hits:
        monitor = mark(monitor, n, nature, puissance)
        out.append(monitor)
    return out


# --- recovery (5.12) --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Recovery:
    shock_boxes: int
    trauma_boxes: int
    minutes: int
    minutes_cared: int
    days: int
    days_cared: int


def recovery(monitor: Monitor, puissance: int, resistance: int) -> Recovery:
    """Minutes to clear the shocks (a KO combatant wakes then) and days to clear the traumas, without and
    with care (soigné; soigné et au repos for traumas): the results screen shows both (ambiguity 29)."""
    shock, trauma = monitor.shock_boxes, monitor.trauma_boxes
    return Recovery(shock, trauma,
                    math.ceil(shock / puissance), math.ceil(shock / (puissance + 1)),
                    math.ceil(trauma / resistance), math.ceil(trauma / (resistance + 1)))
