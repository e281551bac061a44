"""How a Voyageurs battle runs: the opening initiative, each round's slots and simultaneous groups (4.2,
4.4), the end of a round with flight and truce (5.12, 5.2), and the aerial turn around them (5.16.3)."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import events as ev
from ...engine.decision import Decision, Option
from ...engine.dice import roll_off
from ...engine.events import Event
from ...engine.steps import Step
from .aerial import CounterAttack, TransportActivation, start_aerial_turn
from .checks import roll_test
from .fight import can_act, end_boarding, finish, flee, flush, start_round, time_up
from .ground import Activation
from .model import AERIAL, Combatant, Fight, Game, State, data, difficulty


def roll_side_a(game: Game) -> None:
    """Who is side A of 4.4, first in the odd rounds of a tie and in case 1 of the track: one die per side at
    the battle's start, rolled again while they tie (a project default, docs/rules-voyageurs.md). The spec
    names no side A, and the seat is worth something: in the air, where the equal speeds make every turn one
    group, the second mover of a group sees the first one's volley (the duel's value for the first mover of
    turn 1 is -0.19 under best play on both sides, docs/ai-measures.md)."""
    st = game.state
    st.side_a, pairs = roll_off(game.dice, 6, "4.4")
    game.events.extend(ev.dice(None, pair, "side_a", "4.4") for pair in pairs)
    game.emit(Event("side_a", {"side": st.side_a}, rule="4.4"))
    if st.side_a == 1:
        length = data()["track"]["length"]
        for t in st.transports.values():
            t.case = length + 1 - t.case


@dataclass
class OpenSkies(Step):
    """The aerial battle opens on the roll-off for side A; no die may fall before the first answer, so side 0
    is asked to roll, as on the ground."""

    def run(self, game: Game) -> Decision | None:
        if self.take_answer() is None:
            return Decision(0, "side_a", (Option("roll_off", "roll_off"),))
        roll_side_a(game)
        start_aerial_turn(game)
        return None


@dataclass
class OpenBattle(Step):
    """Every combatant tests AGI + INT once for the battle, +1 on the side that has surprise (4.1)."""

    def run(self, game: Game) -> Decision | None:
        st = game.state
        if self.take_answer() is None:
            return Decision(0, "initiative", (Option("roll", "roll"),), info={"surprise": st.surprise})
        roll_side_a(game)
        if st.surprise is not None:
            game.emit(Event("surprise", {"side": st.surprise}, rule="5.11"))
        bonus = data()["modifiers"]["surprise"]
        for c in st.combatants.values():
            extra = bonus if c.side == st.surprise else 0
            c.initiative = roll_test(game, c, "initiative", c.pair("initiative") + extra, None, "4.1",
                                     surprise=bool(extra)).total
            game.emit(Event("initiative", {"figure": c.id, "value": c.initiative}, rule="4.1"))
        start_round(game, st.battle)
        st.phase = "round"
        return None


def activation(st: State, mid: str) -> Step:
    return TransportActivation(mid) if mid in st.transports else Activation(mid)


@dataclass
class NextSlot(Step):
    """The next slot of the round: one combatant (skipped if it cannot act), or a simultaneous group."""

    which: str

    def run(self, game: Game) -> Decision | None:
        st = game.state
        fight: Fight = getattr(st, self.which)
        ready = [m for m in fight.slots.pop(0) if can_act(st, fight, m)]
        if len(ready) == 1:
            st.steps.push(activation(st, ready[0]))
        elif ready:
            fight.grouped, fight.group = True, ready
            fight.group_side = st.side_a if fight.round % 2 else 1 - st.side_a
            st.steps.push(GroupTurn(self.which))
        return None


@dataclass
class GroupTurn(Step):
    """Members act one at a time, alternating sides, side A (``State.side_a``) first in odd rounds and side B
    in even ones; a side with several left picks which goes next (4.4)."""

    which: str

    def run(self, game: Game) -> Decision | None:
        st = game.state
        fight: Fight = getattr(st, self.which)
        answer = self.take_answer()
        if answer is None:
            fight.group = [m for m in fight.group if can_act(st, fight, m)]
            if not fight.group:
                flush(game, fight)
                return None
            sides = {st.owner(m) for m in fight.group}
            side = fight.group_side if fight.group_side in sides else 1 - fight.group_side
            mine = [m for m in fight.group if st.owner(m) == side]
            if len(mine) > 1:
                return Decision(side, "activate", tuple(
                    Option(f"activate:{m}", "activate", m, st.fig(m).tile if m in st.combatants else None)
                    for m in mine), info={"group": list(fight.group)})
            pick = mine[0]
        else:
            pick = answer.figure
        fight.group.remove(pick)
        fight.group_side = 1 - st.owner(pick)
        st.steps.push(activation(st, pick), GroupTurn(self.which))
        return None


# --- the end of a round ---------------------------------------------------------------------

def flight_standing(st: State, which: str) -> tuple[int | None, list[Combatant], dict[int, int]]:
    """The side whose initiatives (speeds in the air) add up to strictly more may try to flee (5.12,
    5.16.7); on the deck only the boarders may (5.16.6 item 7). Returns that side, who may test, the sums."""
    if st.mode == AERIAL and which == "battle":
        if st.boarding is not None:
            return None, [], {}
        sums = {s: sum(t.speed for t in st.transports.values() if t.side == s and t.flying) for s in (0, 1)}
        crews = {s: [st.fig(c) for t in st.transports.values() if t.side == s and t.flying for c in t.crew]
                 for s in (0, 1)}
        fleeing = st.battle.fleeing
    else:
        fight: Fight = getattr(st, which)
        members = [st.fig(m) for m in fight.members if st.fig(m).conscious and st.fig(m).tile is not None]
        sums = {s: sum(c.initiative for c in members if c.side == s) for s in (0, 1)}
        crews = {s: [c for c in members if c.side == s] for s in (0, 1)}
        fleeing = fight.fleeing
    for side in fleeing:
        able = [c for c in crews[side] if c.conscious and (c.tile is not None or which == "battle")]
        if sums[side] > sums[1 - side] and able:
            return side, able, sums
    return None, [], sums


@dataclass
class FlightCheck(Step):
    """One member of the eligible side tests AGI + ESP against Normal 17 (5.12)."""

    which: str

    def run(self, game: Game) -> Decision | None:
        st = game.state
        answer = self.take_answer()
        if answer is None:
            side, able, sums = flight_standing(st, self.which)
            if side is None:
                return None
            opts = [Option(f"flee:{c.id}", "flee", c.id) for c in able] + [Option("stay", "stay")]
            return Decision(side, "flight", tuple(opts), info={"sums": [sums[0], sums[1]]}, default="stay")
        if answer.action == "stay":
            return None
        c = st.fig(answer.figure)
        rule = "5.16.7" if st.mode == AERIAL and self.which == "battle" else "5.12"
        r = roll_test(game, c, "flight", c.pair("flight"), difficulty(data()["flight_difficulty"], "data"), rule)
        game.emit(Event("flight", {"figure": c.id, "side": c.side, "success": r.success}, rule=rule))
        if not r.success:
            getattr(st, self.which).penalised.append(c.side)
        elif self.which == "deck":
            end_boarding(game, False, "withdrew")
        else:
            flee(game, c.side, rule)
        return None


@dataclass
class TruceCheck(Step):
    """A truce proposed during the round is put to the other side; both proposing is agreement (5.2)."""

    def run(self, game: Game) -> Decision | None:
        st = game.state
        offers = st.battle.truce
        answer = self.take_answer()
        if answer is None:
            if not offers:
                return None
            if len(set(offers)) < 2:
                return Decision(1 - offers[0], "truce", (Option("accept_truce", "accept_truce"),
                                                         Option("refuse_truce", "refuse_truce")),
                                info={"side": offers[0]}, default="refuse_truce")
        elif answer.action == "refuse_truce":
            game.emit(Event("truce_refused", {"side": 1 - offers[0]}, rule="5.2"))
            offers.clear()
            return None
        finish(game, None, "truce")
        return None


@dataclass
class RoundOver(Step):
    def run(self, game: Game) -> Decision | None:
        st = game.state
        if st.battle.round >= st.max_turns:
            time_up(game)
        else:
            start_round(game, st.battle)
        return None


@dataclass
class DeckRoundOver(Step):
    def run(self, game: Game) -> Decision | None:
        if game.state.boarding is not None:
            game.state.phase = "counter"
        return None


@dataclass
class TurnOver(Step):
    def run(self, game: Game) -> Decision | None:
        st = game.state
        if st.battle.round >= st.max_turns:
            time_up(game)
        else:
            start_aerial_turn(game)
        return None


def refill_ground(game: Game) -> bool:
    st = game.state
    if st.over:
        return False
    if st.phase == "setup":
        st.steps.push(OpenBattle())
    elif st.battle.slots:
        st.steps.push(NextSlot("battle"))
    else:
        st.steps.push(FlightCheck("battle"), TruceCheck(), RoundOver())
    return True


def refill_aerial(game: Game) -> bool:
    st = game.state
    if st.over:
        return False
    if st.phase == "setup":
        st.steps.push(OpenSkies())
    elif st.phase == "turn":
        if st.battle.slots:
            st.steps.push(NextSlot("battle"))
        else:
            st.phase = "turn_end"
    elif st.phase == "deck":
        if st.deck.slots:
            st.steps.push(NextSlot("deck"))
        else:
            st.steps.push(FlightCheck("deck"), DeckRoundOver())
    elif st.phase == "counter":
        st.steps.push(CounterAttack())
    else:
        st.steps.push(FlightCheck("battle"), TruceCheck(), TurnOver())
    return True
