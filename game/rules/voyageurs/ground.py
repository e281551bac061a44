"""A combatant's activation (4.3) and everything it may do: move, attack with the interception window of
Protect (5.5, 5.6, 5.14), observe, use equipment, the closed list of other actions, the free knowledge
test and talking (5.13, 5.15)."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import events as ev
from ...engine import space
from ...engine.battlefield import Door
from ...engine.decision import Decision, Option
from ...engine.events import Event
from ...engine.steps import Step
from . import actions as act
from .checks import roll_damage, roll_test
from .fight import affect, settle, surrender
from .model import Combatant, Game, State, data, difficulty


@dataclass
class Activation(Step):
    """A combatant's turn begins: its own Protect ends (5.5)."""

    figure: str

    def run(self, game: Game) -> Decision | None:
        st = game.state
        c = st.fig(self.figure)
        c.protecting = c.interception = False
        st.active = c.id
        game.emit(Event("activation", {"figure": c.id, "initiative": c.initiative}, rule="4.3"))
        st.steps.push(Act(c.id))
        return None


@dataclass
class Act(Step):
    """The active combatant's choices: one move (before or after the action, never split), one combat
    action, one free knowledge test, talking, or the end of its activation (4.3)."""

    figure: str
    moved: bool = False
    acted: bool = False
    knew: bool = False
    fresh: bool = True

    def run(self, game: Game) -> Decision | None:
        st = game.state
        c = st.fig(self.figure)
        answer = self.take_answer()
        if answer is None:
            opts = self.options(st, c)
            if not self.fresh and all(o.action in ("talk", "end") for o in opts):
                st.active = None
                return None
            return Decision(c.side, "action", tuple(opts), figure=c.id,
                            info={"moved": self.moved, "acted": self.acted, "initiative": c.initiative})
        if answer.action == "end":
            st.active = None
            return None
        if answer.action == "talk":
            st.steps.push(Talk(c.id, self.fresh), Act(c.id, self.moved, self.acted, self.knew, self.fresh))
            return None
        nxt = Act(c.id, self.moved or answer.action in ("move", "protect"),
                  self.acted or answer.action in act.COMBAT_ACTIONS, self.knew or answer.action == "knowledge",
                  False)
        if answer.action in ("attack", "hold_back"):
            st.steps.push(Strike(c.id, answer.target, answer.value, answer.action == "hold_back"), nxt)
            return None
        RESOLVE[answer.action](game, c, answer)
        settle(game)
        st.steps.push(nxt)
        return None

    def options(self, st: State, c: Combatant) -> list[Option]:
        opts: list[Option] = []
        if not self.moved:
            opts += act.move_options(st, c, "move")
        if not self.acted:
            opts += act.attack_options(st, c)
            opts.append(Option("observe", "observe", c.id))
            if not self.moved:
                opts.append(Option("protect", "protect", c.id))
            opts += act.item_options(st, c)
            if c.carried is not None:
                opts.append(Option("swap", "swap_weapon", c.id, value=c.carried))
            opts += act.pass_options(st, c)
            opts += act.move_options(st, c, "sprint")
            opts += act.pickup_options(st, c)
            opts += act.door_options(st, c) + act.gadget_options(st, c)
            opts.append(Option("wait", "wait", c.id))
        if not self.knew:
            opts += act.knowledge_options(st, c)
        if talk_options(st, c.side, c.id, self.fresh):
            opts.append(Option("talk", "talk", c.id))
        opts.append(Option("end", "end", c.id, ends="activation"))
        return opts


def talk_options(st: State, side: int, who: str, fresh: bool) -> list[Option]:
    """Talking is free (5.13): propose a truce for the end of the round, or, at the start of one's own
    activation, declare forfeit (5.2)."""
    opts = []
    if side not in st.battle.truce:
        opts.append(Option("truce", "propose_truce", who))
    if fresh:
        opts.append(Option("forfeit", "forfeit", who))
    return opts + [Option("back", "back", who)] if opts else []


@dataclass
class Talk(Step):
    """What a combatant (or a transport's crew) says during its activation: a truce, a forfeit, or back."""

    who: str
    fresh: bool

    def run(self, game: Game) -> Decision | None:
        st = game.state
        side = st.owner(self.who)
        answer = self.take_answer()
        if answer is None:
            return Decision(side, "talk", tuple(talk_options(st, side, self.who, self.fresh)), figure=self.who)
        if answer.action == "propose_truce":
            st.battle.truce.append(side)
            game.emit(Event("truce_offered", {"figure": self.who, "side": side}, rule="5.2"))
        elif answer.action == "forfeit":
            game.emit(Event("forfeit", {"figure": self.who, "side": side}, rule="5.2"))
            surrender(game, side)
        return None


# --- attack (5.5, 5.6, 5.14) -----------------------------------------------------------------

def guards(st: State, target: Combatant) -> list[Combatant]:
    """Allies of the target under Protect, with their interception unused, adjacent to it now (5.5)."""
    return [g for g in act.allies(st, target)
            if g.conscious and g.protecting and g.interception and space.adjacent(g.tile, target.tile)]


@dataclass
class Strike(Step):
    """Declare (firearm PE spent), let a protector intercept, then the to-hit and damage tests."""

    attacker: str
    target: str
    weapon: str
    held: bool
    declared: bool = False

    def run(self, game: Game) -> Decision | None:
        st = game.state
        c, t = st.fig(self.attacker), st.fig(self.target)
        w = act.weapon(self.weapon)
        answer = self.take_answer()
        if not self.declared:
            self.declared = True
            game.emit(Event("declared", {"figure": c.id, "target": t.id, "weapon": self.weapon,
                                         "held": self.held}, rule="5.6"))
            if w["firearm"]:
                c.pe -= w["pe"]
                game.emit(ev.damaged(c.id, "pe", w["pe"], c.pe, "5.1", cause="firearm"))
            protectors = guards(st, t)
            if protectors:
                opts = [Option(f"intercept:{g.id}", "intercept", g.id, target=c.id) for g in protectors]
                opts.append(Option("let_through", "let_through", t.id, target=c.id))
                return Decision(t.side, "intercept", tuple(opts), figure=t.id,
                                info={"attacker": c.id, "target": t.id, "weapon": self.weapon})
        if answer is not None and answer.action == "intercept":
            g = st.fig(answer.figure)
            g.interception = False
            game.emit(Event("intercepted", {"figure": g.id, "attacker": c.id, "target": t.id}, rule="5.5"))
            t = g
            auto = True
        else:
            auto = not t.conscious
        self.resolve(game, c, t, w, auto)
        return None

    def resolve(self, game: Game, c: Combatant, t: Combatant, w: dict, auto: bool) -> None:
        st = game.state
        style = "melee" if w["type"] == "melee" else "ranged"
        rule = "5.14" if self.held else "5.6"
        if auto:                    # intercepted, or a target that cannot defend: no roll, no critical
            hit, critical = True, False
        else:
            bonus = act.to_hit_bonus(st, c, t, self.weapon, self.held)
            r = roll_test(game, c, "to_hit", bonus, t.initiative, rule,
                          secret_about=c if "CON" in data()["tests"][w["type"]] else None, target=t.id)
            hit, critical = r.success, r.critical
        game.emit(ev.attack(c.id, t.id, style, hit, rule, weapon=self.weapon, held=self.held,
                            critical=critical, automatic=auto))
        if hit:
            amount = roll_damage(game, c.id, w["damage"], critical, rule, target=t.id)
            if t.protecting:
                amount = max(0, amount + data()["modifiers"]["protect"])
            affect(game, {"kind": "hurt", "target": t.id, "amount": amount, "held": self.held, "rule": rule,
                          "by": c.id})
        settle(game)


# --- the other actions -------------------------------------------------------------------------

def _move(game: Game, c: Combatant, o: Option) -> None:
    game.emit(ev.moved(c.id, c.tile, o.path, "4.5" if o.action == "move" else "5.8", cost=o.cost))
    c.tile = o.tile


def _observe(game: Game, c: Combatant, o: Option) -> None:
    r = roll_test(game, c, "observe", c.pair("initiative"), None, "5.4")
    c.observed = r.total
    game.emit(Event("observed", {"figure": c.id, "initiative": c.initiative, "new": r.total,
                                 "kept": max(c.initiative, r.total)}, rule="5.4"))


def _protect(game: Game, c: Combatant, o: Option) -> None:
    c.protecting = c.interception = True
    game.emit(Event("protecting", {"figure": c.id}, rule="5.5"))


def _use_item(game: Game, c: Combatant, o: Option) -> None:
    item = data()["items"][o.value]
    c.items.remove(o.value)
    n, sides = item["dice"]
    faces = game.dice.roll(n, sides, "5.7")
    game.emit(ev.dice(c.id, faces, o.value, "5.7", sides=sides, target=o.target))
    affect(game, {"kind": "restore", "target": o.target, "gauge": item["restores"], "amount": sum(faces),
                  "rule": "5.7", "by": c.id})


def _swap(game: Game, c: Combatant, o: Option) -> None:
    c.weapon, c.carried = c.carried, c.weapon
    game.emit(Event("swapped", {"figure": c.id, "weapon": c.weapon}, rule="5.7"))


def _give(c: Combatant, thing: str) -> None:
    if not act.is_weapon(thing):
        c.items.append(thing)
    elif c.weapon is None:
        c.weapon = thing
    else:
        c.carried = thing


def _pass_item(game: Game, c: Combatant, o: Option) -> None:
    thing = o.value
    if act.is_weapon(thing):
        if c.weapon == thing:
            c.weapon = None
        else:
            c.carried = None
    else:
        c.items.remove(thing)
    _give(game.state.fig(o.target), thing)
    game.emit(Event("passed", {"figure": c.id, "target": o.target, "thing": thing}, rule="5.7"))


def _pick_up(game: Game, c: Combatant, o: Option) -> None:
    st = game.state
    item = next(i for i in st.items if f"pick:{i.id}" == o.key)
    st.items.remove(item)
    _give(c, item.thing)
    game.emit(Event("picked_up", {"figure": c.id, "item": item.thing, "tile": list(item.tile)}, rule="5.8"))


def _interact(game: Game, c: Combatant, o: Option) -> None:
    st = game.state
    if o.key.startswith("door:"):
        _toggle_door(game, c, o.tile)
        return
    g = next(g for g in st.gadgets if g.id == o.value)
    if g.test:
        x, y, diff = g.test
        r = roll_test(game, c, "interact", c.stat(x) + c.stat(y), difficulty(diff, g.name), "5.8", gadget=g.id)
        if not r.success:
            game.emit(Event("gadget", {"figure": c.id, "gadget": g.id, "success": False}, rule="5.8"))
            return
    game.emit(Event("gadget", {"figure": c.id, "gadget": g.id, "success": True}, rule="5.8"))
    effect, _, amount = g.effect.partition(":")
    if effect == "doors":
        for t in g.tiles:
            if st.battlefield.feature("door", t) in (Door.OPEN, Door.CLOSED):
                _toggle_door(game, c, t)
        return
    g.used = True
    affect(game, {"kind": "restore", "target": c.id, "gauge": "pv" if effect == "heal" else "pe",
                  "amount": int(amount), "rule": "5.8", "by": c.id})


def _toggle_door(game: Game, c: Combatant, tile) -> None:
    bf = game.state.battlefield
    x, y = tile
    opened = bf.door[y, x] == Door.CLOSED
    bf.door[y, x] = Door.OPEN if opened else Door.CLOSED
    game.emit(Event("door", {"figure": c.id, "tile": [x, y], "open": bool(opened)}, rule="5.8"))


def _wait(game: Game, c: Combatant, o: Option) -> None:
    game.emit(Event("waits", {"figure": c.id}, rule="5.8"))


def knowledge_difficulty(st: State, kind: str) -> int:
    """The enemy type's own difficulty, else the scenario's, else the landscape's (5.15)."""
    own = data()["roster"].get(kind, {}).get("knowledge_difficulty")
    if own is not None:
        return difficulty(own, f"roster {kind}")
    if st.knowledge_difficulty is not None:
        return st.knowledge_difficulty
    return data()["difficulties"][data()["landscapes"][st.landscape]]


def _knowledge(game: Game, c: Combatant, o: Option) -> None:
    st = game.state
    kind = o.value
    r = roll_test(game, c, "knowledge", c.pair("knowledge"), knowledge_difficulty(st, kind), "5.15", kind=kind)
    c.tested.append(kind)
    if r.success:
        st.known[c.side].append(kind)
    game.emit(Event("knowledge", {"figure": c.id, "kind": kind, "success": r.success}, rule="5.15"))


RESOLVE = {"move": _move, "sprint": _move, "observe": _observe, "protect": _protect, "use_item": _use_item,
           "swap_weapon": _swap, "pass_item": _pass_item, "pick_up": _pick_up, "interact": _interact,
           "wait": _wait, "knowledge": _knowledge}
