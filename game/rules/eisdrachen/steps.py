"""Eisdrachen's turn on the engine's step stack (rules/eisdrachen.md 3.2).

A turn opens with the initiative roll-off; then the sides activate one figure each in turn, and an
activation spends its actions one at a time. An action resolves at once, unless it waits for a
choice: the contact tile of a melee, the defender's riposte, the alarm riposte of the side shot at,
the trap tokens, the real one and the flight. Each such pause is a step pushed on top of the rest of
the activation, so the activation goes on when it is answered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine import events as ev
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.dice import roll_off
from ...engine.events import Event
from ...engine.objectives import TURN_LIMIT, Piece, Score, score
from ...engine.steps import Step
from ...engine.tokens import Token
from . import actions as act
from .combat import strike, weapon
from .state import Figure, State, const, data

SIDES = (0, 1)
MOVES = {"move": ("4.1", space.WALK), "crawl": ("4.1bis", space.CRAWL), "climb": ("4.2", space.CLIMB)}
SHOTS = {"shoot": "4.3", "sniper": "4.7", "use_fire": "4.10"}


@dataclass
class Game:
    """What the steps of one answer work with."""

    state: State
    dice: Any
    events: list[Event] = field(default_factory=list)


# --- the turn --------------------------------------------------------------------------

@dataclass
class Opening(Step):
    """Turn 1 waits for one answer before its roll-off: no die is rolled while the state is built."""

    def run(self, game: Game) -> Decision | None:
        if self.take_answer() is None:
            return Decision(0, "initiative", (Option("roll", "roll"),), info={"turn": game.state.turn})
        return None


@dataclass
class StartTurn(Step):
    """Allowances, then the initiative roll-off; its winner activates first (3.2 steps 1-2)."""

    def run(self, game: Game) -> Decision | None:
        state = game.state
        n = state.turn
        base = const("allowance")
        for f in state.figures:
            f.activated = False
            if not f.alive:
                continue
            f.vengeance_now, f.vengeance_next = f.vengeance_next, 0
            f.allowance = 0 if f.has("wolf_trapped", n) else base + f.vengeance_now
        first, pairs = roll_off(game.dice, 6, "3.2")
        game.events.extend(ev.dice(None, pair, "initiative", "3.2") for pair in pairs)
        game.events.append(ev.turn(n, "3.2", initiative=first))
        next_activation(game, first)
        return None


@dataclass
class Activate(Step):
    """``side`` picks one of its figures not yet activated this turn (3.2 step 3)."""

    side: int

    def run(self, game: Game) -> Decision | None:
        state = game.state
        answer = self.take_answer()
        if answer is None:
            opts = tuple(Option(f"activate:{f.id}", "activate", f.id, f.tile)
                         for f in state.living(self.side) if not f.activated)
            return Decision(self.side, "activate", opts, info={"turn": state.turn})
        fig = state.figure(answer.figure)
        fig.activated = True
        game.events.append(Event("activation", {"figure": fig.id, "side": fig.side, "actions": fig.allowance},
                                 visible_to=fig.side if fig.hidden else None, rule="3.2"))
        state.steps.push(Act(fig.id, fig.allowance))
        return None


@dataclass
class Act(Step):
    """The active figure chooses its next action while it has ``left`` (3.2 step 4)."""

    figure: str
    left: int

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        answer = self.take_answer()
        if answer is None:
            if decided(game):
                return None
            if not fig.alive or self.left <= 0:
                end_activation(game, fig)
                return None
            return Decision(fig.side, "action", tuple(act.action_options(state, fig)), figure=fig.id,
                            info={"turn": state.turn, "actions_left": self.left})
        take_action(game, fig, answer, self.left)
        return None


@dataclass
class EndTurn(Step):
    """Hidden figures heal, statuses of this turn end, and the turn limit may end the battle (3.2 step 5)."""

    def run(self, game: Game) -> Decision | None:
        end_turn(game)
        return None


def end_turn(game: Game) -> None:
    state, events = game.state, game.events
    n = state.turn
    for f in state.living():
        if f.hidden:
            f.hide_count += 1
            gain = 2 if f.hide_count == 3 else 1 if f.hide_count > 3 else 0
            before = f.pv
            f.pv = min(f.max_pv, f.pv + gain)
            events.append(Event("hidden_turn", {"figure": f.id, "count": f.hide_count}, visible_to=f.side,
                                rule="4.8"))
            if f.pv > before:
                events.append(ev.healed(f.id, "pv", f.pv - before, f.pv, "4.8", visible_to=f.side))
        f.drop_statuses_before(n + 1)
        f.vengeance_now = 0
    events.append(Event("turn_end", {"turn": n}, rule="3.2"))
    if n >= state.max_turns:
        result = points(state)
        state.over, state.reason, state.winner = True, TURN_LIMIT, result.winner
        events.append(ev.game_over(state.winner, state.reason, "victory", points=list(result.points),
                                   taken=list(result.taken), held=list(result.held)))
        return
    state.turn = n + 1


def figure_value() -> int:
    """A standard figure's PV (2.4): what an objective worth one figure counts."""
    return data()["ranks"]["Soldat"]["PV"]


def points(state: State) -> Score:
    """The project default at the turn limit (docs/rules-eisdrachen.md): PV taken from the enemy, and the
    map's objectives held."""
    pieces = [Piece(f.side, f.tile if f.alive else None, f.max_pv, f.max_pv - f.pv) for f in state.figures]
    return score(state.battlefield, pieces, figure_value())


def waiting(state: State, side: int) -> bool:
    return any(not f.activated for f in state.living(side))


def next_activation(game: Game, side: int) -> None:
    """``side`` activates next if it has a figure left, else the other side; when neither has, the turn ends."""
    for s in (side, 1 - side):
        if waiting(game.state, s):
            game.state.steps.push(Activate(s))
            return
    game.state.steps.push(EndTurn())


def end_activation(game: Game, fig: Figure) -> None:
    game.events.append(Event("activation_end", {"figure": fig.id},
                             visible_to=fig.side if fig.hidden else None, rule="3.2"))
    next_activation(game, 1 - fig.side)


def decided(game: Game) -> bool:
    """Once a side has no figure left the battle is over; nothing more is asked."""
    state = game.state
    if state.over:
        return True
    alive = [bool(state.living(s)) for s in SIDES]
    if all(alive):
        return False
    state.over = True
    state.winner = alive.index(True) if any(alive) else None
    state.reason = "elimination"
    game.events.append(ev.game_over(state.winner, state.reason, "victory"))
    state.steps.discard(lambda step: True)
    return True


def active_figure(state: State) -> str | None:
    """The figure whose activation is under way: the one of the activation step still to run."""
    return next((s.figure for s in state.steps.upcoming() if isinstance(s, Act)), None)


# --- one action ----------------------------------------------------------------------------

def take_action(game: Game, fig: Figure, option: Option, left: int) -> None:
    """Resolve the chosen action (4.1-4.15). The rest of the activation is pushed first, so a pause the
    action needs (a riposte, a trap's tokens) is pushed on top of it and answered before it goes on."""
    state, dice, events = game.state, game.dice, game.events
    a = option.action
    if a == "end":
        state.steps.push(Act(fig.id, 0))
        return
    if a == "unhide":
        act.leave_hiding(fig, events, "left")
        state.steps.push(Act(fig.id, left))
        return
    if fig.hidden and not (a == "pray" or (a == "heal" and option.target == fig.id)):
        act.leave_hiding(fig, events, "left")
    vis = fig.side if fig.hidden else None
    state.steps.push(Act(fig.id, left - 1))
    events.append(Event("action", {"figure": fig.id, "action": a, "key": option.key}, visible_to=vis, rule="3.2"))
    if a in MOVES:
        rule, mode = MOVES[a]
        act.walk(state, fig, option.path, dice, events, rule, mode)
    elif a == "jump":
        act.jump(state, fig, option, dice, events)
    elif a in SHOTS:
        target = state.figure(option.target)
        if a == "use_fire":
            profile = next(e for e in state.emplacements if e.id == option.value).weapon
        else:
            profile = weapon(fig.weapon)
        act.shoot(state, fig, target, profile, dice, events, a == "sniper", SHOTS[a])
        if act.may_alarm_riposte(state, target, fig):
            state.steps.push(AlarmRiposte(target.id, fig.id))
    elif a == "melee":
        target = state.figure(option.target)
        if space.adjacent(fig.tile, target.tile):
            melee(game, fig, target)
        else:
            contacts = act.contact_options(state, fig, target)
            if len(contacts) == 1:
                contact(game, fig, target, contacts[0].path)
            else:
                state.steps.push(MeleeContact(fig.id, target.id))
    elif a == "grenade":
        act.grenade(state, fig, option.tile, dice, events)
    elif a == "trap_spot":
        fig.trap_kits -= 1
        tk = Token(state.new_id("t"), option.tile, fig.side, True)
        state.tokens.append(tk)
        state.traps.append([tk.id])
        events.append(Event("trap_placed", {"figure": fig.id, "mode": "A", "tokens": [
            {"id": tk.id, "tile": list(tk.tile)}]}, rule="4.6"))
        state.steps.push(Flee(fig.id, [tk.id]))
    elif a == "trap_open":
        fig.trap_kits -= 1
        state.steps.push(TrapToken(fig.id, []))
    elif a == "hide":
        fig.hidden, fig.hide_count, fig.pv_when_hidden = True, 0, fig.pv
        events.append(Event("status", {"figure": fig.id, "status": "hidden", "on": True,
                                       "tile": list(fig.tile)}, visible_to=fig.side, rule="4.8"))
    elif a == "dig_in":
        fig.dug_in = True
        events.append(Event("status", {"figure": fig.id, "status": "dug_in", "on": True}, rule="4.9"))
    elif a == "pickup":
        act.pick_up(state, fig, option.value, events)
    elif a in ("repair", "sabotage"):
        act.repair_or_sabotage(state, fig, option, events)
    elif a == "heal":
        act.heal(state, fig, state.figure(option.target), events, vis)
    elif a == "alarm":
        act.alarm(state, fig, events)
    elif a == "pray":
        act.pray(state, fig, dice, events, vis)


def contact(game: Game, fig: Figure, target: Figure, path) -> None:
    """The free move into base contact (4.5); a trap on the way may stop it short."""
    act.walk(game.state, fig, tuple(path), game.dice, game.events, "4.5")
    if fig.alive and target.alive and not target.hidden and space.adjacent(fig.tile, target.tile):
        melee(game, fig, target)
    else:
        game.events.append(Event("melee_cancelled", {"figure": fig.id, "target": target.id}, rule="4.5"))


def melee(game: Game, attacker: Figure, target: Figure) -> None:
    """The declaring figure strikes first unless the target is a Bleu; one riposte at most (4.5)."""
    state, dice, events = game.state, game.dice, game.events
    n = state.turn
    events.append(Event("melee", {"attacker": attacker.id, "target": target.id}, rule="4.5"))
    if target.I == 1:
        if not target.has("wolf_trapped", n):
            strike(state, target, attacker, dice, events)
        if attacker.alive:
            strike(state, attacker, target, dice, events)
        return
    strike(state, attacker, target, dice, events)
    if target.alive and not target.has("wolf_trapped", n):
        state.steps.push(Riposte(target.id, attacker.id))


# --- the pauses of an action ------------------------------------------------------------

@dataclass
class MeleeContact(Step):
    """The attacker's controller picks the free tile in contact it moves to (4.5)."""

    figure: str
    target: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig, target = state.figure(self.figure), state.figure(self.target)
        answer = self.take_answer()
        if answer is None:
            return Decision(fig.side, "melee_contact", tuple(act.contact_options(state, fig, target)),
                            figure=fig.id, info={"turn": state.turn, "figure": fig.id, "target": target.id})
        contact(game, fig, target, answer.path)
        return None


@dataclass
class Riposte(Step):
    """The defender's side, in the attacker's activation, chooses whether it strikes back (4.5 step 4)."""

    figure: str
    target: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        answer = self.take_answer()
        if answer is None:
            side = state.figure(self.figure).side
            return Decision(side, "riposte", (Option("riposte", "riposte", self.figure, target=self.target),
                                              Option("no_riposte", "no_riposte", self.figure, target=self.target)),
                            figure=self.figure, info={"turn": state.turn, "figure": self.figure, "target": self.target})
        if answer.key == "riposte":
            strike(state, state.figure(self.figure), state.figure(self.target), game.dice, game.events)
        return None


@dataclass
class AlarmRiposte(Step):
    """An alerted figure shot at may shoot back once this turn (4.14). Only a figure out of hiding is
    asked, whose alert the enemy knows of (an alarm heard in hiding is told as it leaves, actions.py)."""

    figure: str
    target: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        answer = self.take_answer()
        if answer is None:
            return Decision(fig.side, "alarm_riposte", (Option("shoot", "shoot", fig.id, target=self.target),
                                                        Option("hold", "hold", fig.id, target=self.target)),
                            figure=fig.id, info={"turn": state.turn, "figure": fig.id, "target": self.target})
        if answer.key == "shoot":
            fig.alarm_used_turn = state.turn
            act.shoot(state, fig, state.figure(self.target), weapon(fig.weapon), game.dice, game.events, False, "4.14")
        return None


@dataclass
class TrapToken(Step):
    """Mode B: the layer sets three face-down tokens, one at a time, out of the enemy's sight (4.6)."""

    figure: str
    chosen: list[list[int]]

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        answer = self.take_answer()
        if answer is None:
            opts = act.token_options(state, fig, [tuple(t) for t in self.chosen])
            return Decision(fig.side, "trap_token", tuple(opts), figure=fig.id, secret=True,
                            info={"turn": state.turn, "figure": fig.id, "chosen": self.chosen})
        game.events.append(Event("trap_token", {"figure": fig.id, "tile": list(answer.tile)}, rule="4.6"))
        chosen = self.chosen + [list(answer.tile)]
        state.steps.push(TrapToken(fig.id, chosen) if len(chosen) < 3 else TrapReal(fig.id, chosen))
        return None


@dataclass
class TrapReal(Step):
    """Mode B: the layer secretly marks one of its three tokens as the real trap (4.6)."""

    figure: str
    tiles: list[list[int]]

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        answer = self.take_answer()
        if answer is None:
            opts = tuple(Option(f"real:{act.tile_key(tuple(t))}", "trap_real", fig.id, tuple(t)) for t in self.tiles)
            return Decision(fig.side, "trap_real", opts, figure=fig.id, secret=True,
                            info={"turn": state.turn, "figure": fig.id, "tiles": self.tiles})
        tokens = [Token(state.new_id("t"), tuple(t), fig.side, tuple(t) == answer.tile) for t in self.tiles]
        state.tokens.extend(tokens)
        state.traps.append([tk.id for tk in tokens])
        game.events.append(Event("trap_placed", {"figure": fig.id, "mode": "B", "tokens": [
            {"id": tk.id, "tile": list(tk.tile)} for tk in tokens]}, rule="4.6"))
        real = next(tk for tk in tokens if tk.real)
        game.events.append(Event("trap_real", {"figure": fig.id, "token": real.id, "tile": list(real.tile)},
                                 visible_to=fig.side, rule="4.6"))
        state.steps.push(Flee(fig.id, [tk.id for tk in tokens]))
        return None


@dataclass
class Flee(Step):
    """The free 5-pas flight out of trigger range of the tokens just laid (4.6)."""

    figure: str
    tokens: list[str]

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        answer = self.take_answer()
        if answer is None:
            tiles = [tk.tile for tk in state.tokens if tk.id in self.tokens]
            return Decision(fig.side, "flee", tuple(act.flee_options(state, fig, tiles)), figure=fig.id,
                            info={"turn": state.turn, "figure": fig.id, "tokens": self.tokens})
        act.walk(state, fig, answer.path, game.dice, game.events, "4.6", immune=tuple(self.tokens))
        if not answer.path:
            game.events.append(ev.moved(fig.id, fig.tile, [], "4.6"))
        return None
