"""The passe d'armes on the step stack (rules/passe_d_armes.md 4, 5.1-5.8, 5.18, 5.19): initiative and
foresight, simultaneous groups, activations, the attack with the defender's choice, Exploits and
ripostes, breaking free, the end of a passe.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...engine import events as ev
from ...engine.battlefield import Tile
from ...engine.decision import Decision, Option
from ...engine.events import Event
from ...engine.objectives import TURN_LIMIT
from ...engine.steps import Step
from . import options as opt
from .effects import (Game, check_end, condition, do_move, finish, flush, hazard_at, points, release, throw,
                      trigger_hazard, wound)
from .rolls import defence_wounds, effective, helpless_wounds
from .state import HANDS, Combatant, State, data, weapon

DEFENCES = ("dodge", "absorb")
DEFENCE_SKILL = {"dodge": "reflexe", "absorb": "resister"}


def plan_words(state: State, plan: list[str]) -> list:
    """A declaration as words the log and the panel show: each part's term, then its target or tile."""
    out: list = []
    for key in plan:
        kind, _, rest = key.partition(":")
        if kind == "move":
            out += [kind, [int(v) for v in rest.split(",")]]
        elif kind in ("attack", "ready") or kind in data()["manoeuvres"]:
            out += [kind, rest]
        elif kind == "pick":
            item = next((i for i in state.items if i.id == rest), None)
            out += ["pick_up", item.weapon if item else rest]
        else:
            out.append(kind)
    return out


def end_activation(game: Game, fig: Combatant) -> None:
    state = game.state
    if fig.id not in state.activated:
        state.activated.append(fig.id)
    state.active = None
    state.declarations.pop(fig.id, None)
    game.events.append(Event("activation_end", {"figure": fig.id}, rule="4.2"))
    check_end(game)


# --- the passe -------------------------------------------------------------------------------

@dataclass
class StartPasse(Step):
    """Every active combatant rolls Réflexe; Exploits first, then by margin, ties together (5.1)."""

    def run(self, game: Game) -> Decision | None:
        state = game.state
        if state.turn == 0 and self.take_answer() is None:      # no die before the first answer
            return Decision(0, "initiative", (Option("roll", "roll"),), info={"turn": 1})
        state.turn += 1
        state.phase = "initiative"
        state.initiative, state.order, state.declarations, state.foresight = {}, [], {}, []
        state.activated, state.truce_offer = [], None
        game.events.append(ev.turn(state.turn, "4.1"))
        game.events.append(ev.phase("initiative", "5.1"))
        for f in state.figures:
            if f.active:
                r = throw(game, f, "reflexe", "initiative", "5.1")
                state.initiative[f.id] = [r.margin, r.exploit]
        ranked = sorted(state.initiative, key=lambda fid: (not state.initiative[fid][1], -state.initiative[fid][0]))
        for fid in ranked:
            if state.order and state.initiative[state.order[-1][0]] == state.initiative[fid]:
                state.order[-1].append(fid)
            else:
                state.order.append([fid])
        game.events.append(Event("initiative_order", {"order": [list(g) for g in state.order]}, rule="5.1"))
        first = 0 if state.turn % 2 == 1 else 1
        groups = [Group(list(g), first) for g in state.order]
        exploits = [fid for fid in ranked if state.initiative[fid][1]]
        others = [fid for fid in ranked if not state.initiative[fid][1]]
        if exploits and others:
            state.phase = "declarations"
            game.events.append(ev.phase("declarations", "5.1"))
            declarers = sorted(others, key=lambda fid: state.figure(fid).side)
            state.steps.push(*[Declare(fid) for fid in declarers], Foresight(), *groups)
        else:
            state.phase = "activations"
            game.events.append(ev.phase("activations", "4.1"))
            state.steps.push(*groups)
        return None


@dataclass
class Declare(Step):
    """A combatant without an initiative Exploit declares its activation in secret: its move's end and
    its action with its target, from where that move would leave it (5.1 b)."""

    figure: str
    plan: list[str] = field(default_factory=list)
    progress: opt.Progress = opt.Progress(first=False)
    at: Tile | None = None

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        if not fig.active:
            return None
        at = self.at or fig.tile
        answer = self.take_answer()
        if answer is not None:
            self.plan.append(answer.key)
            self.progress = opt.after(self.progress, answer)
            self.at = at = opt.destination(answer, at)
            if opt.plan_complete(self.progress, answer):
                state.declarations[fig.id] = list(self.plan)
                game.events.append(Event("declared", {"figure": fig.id, "plan": plan_words(state, self.plan)},
                                         visible_to=fig.side, rule="5.1"))
                return None
        options = opt.activation_options(state, fig, self.progress, at, declaring=True)
        return Decision(fig.side, "declare", tuple(options), figure=fig.id, secret=True,
                        info={"turn": state.turn, "figure": fig.id})


@dataclass
class Foresight(Step):
    """The sides with an initiative Exploit learn every declaration; then the Exploits act first."""

    def run(self, game: Game) -> Decision | None:
        state = game.state
        state.foresight = sorted({state.figure(fid).side for fid, (_, e) in state.initiative.items() if e})
        for side in state.foresight:
            for fid, plan in state.declarations.items():
                if state.figure(fid).side != side:
                    game.events.append(Event("foresight", {"figure": fid, "plan": plan_words(state, plan)},
                                             visible_to=side, rule="5.1"))
        state.phase = "activations"
        game.events.append(ev.phase("activations", "5.1"))
        return None


@dataclass
class Group(Step):
    """Combatants of one initiative rank. Alone, it simply activates; together, they alternate sides
    (side A first in odd passes), each side picking which of its own goes next, and what they do to
    each other waits until all have acted (4.3)."""

    members: list[str]
    next_side: int
    started: bool = False

    def run(self, game: Game) -> Decision | None:
        state = game.state
        if len(self.members) == 1:
            state.steps.push(Activation(self.members[0]))
            return None
        if not self.started:
            self.started = True
            state.buffer = []
            game.events.append(Event("simultaneous", {"figures": list(self.members)}, rule="4.3"))
        left = [fid for fid in self.members if fid not in state.activated and state.figure(fid).active]
        if not left:
            flush(game)
            check_end(game)
            return None
        sides = {state.figure(fid).side for fid in left}
        side = self.next_side if self.next_side in sides else next(iter(sides))
        mine = [fid for fid in left if state.figure(fid).side == side]
        chosen = mine[0]
        if len(mine) > 1:
            answer = self.take_answer()
            if answer is None:
                return Decision(side, "activate", tuple(Option(f"activate:{fid}", "activate", fid, state.figure(fid).tile)
                                                        for fid in mine), info={"turn": state.turn})
            chosen = answer.figure
        self.next_side = 1 - side
        state.steps.push(Activation(chosen), self)
        return None


@dataclass
class Activation(Step):
    """One combatant's slot: skipped if it has fallen; a hazard under it strikes first (5.13)."""

    figure: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        if not fig.active or state.over:
            if fig.id not in state.activated:
                state.activated.append(fig.id)
            return None
        state.active = fig.id
        game.events.append(Event("activation", {"figure": fig.id}, rule="4.2"))
        hazard = hazard_at(state, fig.tile)
        if hazard is not None:
            trigger_hazard(game, fig, hazard)
        state.steps.push(Act(fig.id))
        return None


@dataclass
class Act(Step):
    """One decision of an activation: a move and one action in either order (4.2). A declared plan is
    carried out while it is still legal, and asked afresh from the first part that is not (5.1 b)."""

    figure: str
    progress: opt.Progress = opt.Progress()

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        if state.over:
            return None
        progress = self.progress
        if not fig.active or progress.done:
            end_activation(game, fig)
            return None
        answer = self.take_answer()
        if answer is None:
            options = opt.activation_options(state, fig, progress)
            plan = state.declarations.get(fig.id)
            if plan:
                key = plan.pop(0)
                answer = next((o for o in options if o.key == key), None)
                if answer is None:
                    del state.declarations[fig.id]
                    game.events.append(Event("declaration_void", {"figure": fig.id}, rule="5.1"))
            if answer is None:
                return Decision(fig.side, "action", tuple(options), figure=fig.id,
                                info={"turn": state.turn, "moved": progress.moved, "acted": progress.acted})
        self.carry_out(game, fig, answer, opt.after(progress, answer))
        return None

    def carry_out(self, game: Game, fig: Combatant, answer: Option, nxt: opt.Progress) -> None:
        state = game.state
        a = answer.action
        follow = Act(fig.id, nxt)
        if answer.path:
            do_move(game, fig, answer.path)
            if fig.withdrawn:
                end_activation(game, fig)
                return
        elif a == "sprint":
            game.events.append(Event("sprint", {"figure": fig.id}, rule="5.18"))
        elif a == "stand_up":
            fig.knocked_down = False
            game.events.append(Event("stood_up", {"figure": fig.id}, rule="5.17"))
        elif a in ("attack", "manoeuvre"):
            state.steps.push(Attack(fig.id, answer.target, answer.value if a == "manoeuvre" else ""), follow)
            return
        elif a == "ready":
            fig.in_hand = answer.value
            game.events.append(Event("readied", {"figure": fig.id, "weapon": answer.value}, rule="5.18"))
        elif a == "pick_up":
            item = next(i for i in state.items if i.tile == answer.tile and f"pick:{i.id}" == answer.key)
            state.items.remove(item)
            fig.weapons.append(item.weapon)
            fig.in_hand = item.weapon
            game.events.append(Event("picked_up", {"figure": fig.id, "weapon": item.weapon, "tile": list(item.tile)},
                                     rule="5.18"))
        elif a == "break_free":
            state.steps.push(BreakFree(fig.id), follow)
            return
        elif a == "release":
            release(game, state.figure(answer.target), "let_go")
        elif a == "propose_truce":
            state.truce_offer = fig.side
            game.events.append(Event("truce_proposed", {"side": fig.side}, rule="5.19"))
        elif a == "surrender":
            game.events.append(Event("surrendered", {"side": fig.side}, rule="5.19"))
            finish(game, 1 - fig.side, "surrender")
            return
        elif a == "end":
            end_activation(game, fig)
            return
        state.steps.push(follow)


# --- the attack (5.2-5.8, 5.16) -----------------------------------------------------------------

@dataclass
class Attack(Step):
    """One attack, normal or a manoeuvre, by its stages: the defender declares its defence, the attacker
    rolls (an Exploit: a manoeuvre succeeds at once, or a benefit to spend before or after the defence
    roll), the defender rolls, the outcome, then a riposte if the defender's final roll was an Exploit."""

    attacker: str
    target: str
    manoeuvre: str = ""
    riposte: bool = False
    stage: str = "start"
    weapon: str = ""
    defence: str = ""
    helpless: bool = False
    a_margin: int = 0
    a_exploit: bool = False
    exploit_open: bool = False
    d_margin: int | None = None
    d_exploit: bool = False
    ignore_protection: bool = False

    def run(self, game: Game) -> Decision | None:
        state = game.state
        att, tgt = state.figure(self.attacker), state.figure(self.target)
        while True:
            stage = self.stage
            if stage == "start":
                if not att.active or not tgt.on_field:
                    game.events.append(Event("attack_cancelled", {"figure": att.id, "target": tgt.id}, rule="5.2"))
                    return None
                self.begin(game, att, tgt)
            elif stage == "defence":
                answer = self.take_answer()
                if answer is None:
                    return Decision(tgt.side, "defence", tuple(Option(d, d, tgt.id) for d in DEFENCES),
                                    figure=tgt.id, secret=True,
                                    info={"attacker": att.id, "weapon": self.weapon,
                                          "manoeuvre": self.manoeuvre or "attack"})
                self.defence = answer.action
                game.events.append(Event("defence", {"figure": tgt.id, "defence": self.defence}, rule="5.5"))
                self.stage = "roll_attack"
            elif stage == "roll_attack":
                self.roll_attack(game, att, tgt)
            elif stage == "exploit_before":
                answer = self.take_answer()
                if answer is None:
                    other = DEFENCES[1 - DEFENCES.index(self.defence)]
                    return Decision(att.side, "exploit", (Option(f"force:{other}", "force_defence", att.id,
                                                                 value=other),
                                                          Option("keep", "keep_exploit", att.id)),
                                    figure=att.id, info={"target": tgt.id, "defence": self.defence, "stage": "before"})
                if answer.action == "force_defence":
                    self.defence, self.exploit_open = answer.value, False
                    game.events.append(Event("exploit", {"figure": att.id, "benefit": "choose_defence",
                                                         "defence": self.defence}, rule="5.4"))
                self.stage = "roll_defence"
            elif stage == "roll_defence":
                r = throw(game, tgt, DEFENCE_SKILL[self.defence], self.defence, "5.5", defence=True)
                self.d_margin, self.d_exploit = r.margin, r.exploit
                self.stage = "exploit_after" if self.exploit_open else "resolve"
            elif stage == "exploit_after":
                answer = self.take_answer()
                if answer is None:
                    return Decision(att.side, "exploit", tuple(self.after_options(att, tgt)), figure=att.id,
                                    info={"target": tgt.id, "defence": self.defence, "stage": "after",
                                          "margin": self.a_margin, "defender_margin": self.d_margin})
                self.exploit_open = False
                if answer.action == "reroll":
                    game.events.append(Event("exploit", {"figure": att.id, "benefit": "reroll"}, rule="5.4"))
                    r = throw(game, tgt, DEFENCE_SKILL[self.defence], self.defence, "5.4", defence=True, reroll=True)
                    self.d_margin, self.d_exploit = r.margin, r.exploit
                elif answer.action == "ignore_protection":
                    self.ignore_protection = True
                    game.events.append(Event("exploit", {"figure": att.id, "benefit": "ignore_protection"},
                                             rule="5.4"))
                self.stage = "resolve"
            elif stage == "resolve":
                self.resolve(game, att, tgt)
            elif stage == "effect":
                decision = self.effect(game, att, tgt)
                if decision is not None:
                    return decision
            elif stage == "riposte":
                return self.offer_riposte(game, att, tgt)

    def begin(self, game: Game, att: Combatant, tgt: Combatant) -> None:
        state = game.state
        self.weapon = att.in_hand
        for g in state.figures:
            if g.held_by == att.id and g.id != tgt.id:
                release(game, g, "holder_attacked_another")
        game.events.append(Event("assault", {"figure": att.id, "target": tgt.id, "weapon": self.weapon,
                                             "manoeuvre": self.manoeuvre or "attack", "riposte": self.riposte},
                                 rule="5.8" if self.riposte else "5.2"))
        self.helpless = tgt.helpless
        if self.helpless and self.manoeuvre not in ("", "botte"):
            self.stage = "effect"           # a manoeuvre on a helpless combatant succeeds (5.16)
            game.events.append(Event("manoeuvre", {"figure": att.id, "target": tgt.id,
                                                   "manoeuvre": self.manoeuvre, "success": True}, rule="5.16"))
        else:
            self.stage = "roll_attack" if self.helpless else "defence"

    def roll_attack(self, game: Game, att: Combatant, tgt: Combatant) -> None:
        skill = opt.attack_skill(att, self.manoeuvre)
        extra = opt.cover_difficulty(game.state, self.weapon, att.tile, tgt.tile) if not self.manoeuvre else 0
        if self.manoeuvre:
            extra += data()["manoeuvres"][self.manoeuvre]["difficulty"]
        r = throw(game, att, skill, "attack" if not self.manoeuvre else "manoeuvre", "5.2", extra=extra, attack=True,
                  target=tgt.id)
        self.a_margin, self.a_exploit = r.margin, r.exploit
        if self.helpless or (self.manoeuvre and self.a_exploit):
            self.stage = "resolve"
        elif self.a_exploit:
            self.exploit_open = True
            self.stage = "exploit_before"
        else:
            self.stage = "roll_defence"

    def after_options(self, att: Combatant, tgt: Combatant) -> list[Option]:
        out = [Option("reroll", "reroll", att.id)]
        if tgt.defence > 0:
            out.append(Option("ignore_protection", "ignore_protection", att.id))
        out.append(Option("unused", "leave_exploit", att.id))
        return out

    def resolve(self, game: Game, att: Combatant, tgt: Combatant) -> None:
        w = weapon(self.weapon)
        style = "melee" if w["range"] == 0 else "ranged"
        if self.manoeuvre in ("", "botte"):
            ignore = self.ignore_protection or self.manoeuvre == "botte" or (self.helpless and self.a_exploit)
            protection = 0 if ignore else tgt.defence
            if self.helpless:
                n = helpless_wounds(self.a_margin, w["index"], protection)
            elif self.d_margin is None:                  # a botte's Exploit: no defence roll (5.3)
                n = effective(self.a_margin) + w["index"]
            else:
                n = defence_wounds(self.defence, self.a_margin, self.d_margin, w["index"], protection)
            game.events.append(ev.attack(att.id, tgt.id, style, n > 0, "5.6" if self.defence == "dodge" else "5.7",
                                         wounds=n, weapon=self.weapon, protection_ignored=ignore and tgt.defence > 0))
            wound(game, tgt, n, w["nature"], att.id, "5.10")
            self.stage = "riposte"
            return
        success = self.d_margin is None or self.a_margin >= self.d_margin
        game.events.append(Event("manoeuvre", {"figure": att.id, "target": tgt.id, "manoeuvre": self.manoeuvre,
                                               "success": success}, rule="5.3"))
        game.events.append(ev.attack(att.id, tgt.id, "melee", success, "5.3", manoeuvre=self.manoeuvre))
        self.stage = "effect" if success else "riposte"

    def effect(self, game: Game, att: Combatant, tgt: Combatant) -> Decision | None:
        """A successful manoeuvre's effect (5.3); where a throw lands and a weapon falls, the attacker says."""
        state = game.state
        m = self.manoeuvre
        self.stage = "riposte"
        if m == "prise":
            condition(game, "held", tgt, att)
        elif m == "feinte":
            condition(game, "feinted", tgt, att)
        elif m in ("projection", "desarmement"):
            if m == "desarmement" and tgt.in_hand == HANDS:
                return None
            around = att.tile if m == "projection" else tgt.tile
            free = [t for t in _ring(around) if state.battlefield.can_stand(t)
                    and (state.standing_at(t) is None or (m == "projection" and t == tgt.tile))]
            if not free:
                free = [tgt.tile]
            answer = self.take_answer()
            if answer is None and len(free) > 1:
                self.stage = "effect"
                kind = "landing" if m == "projection" else "drop"
                return Decision(att.side, kind, tuple(Option(f"{kind}:{opt.tile_key(t)}", kind, att.id, t)
                                                      for t in free),
                                figure=att.id, info={"target": tgt.id})
            tile = answer.tile if answer is not None else free[0]
            if m == "projection":
                condition(game, "displace", tgt, att, tile=list(tile))
            else:
                condition(game, "disarm", tgt, att, tile=list(tile))
        return None

    def offer_riposte(self, game: Game, att: Combatant, tgt: Combatant) -> Decision | None:
        """An Exploit on the final defence roll gives one extra attack on the attacker, in reach (5.8)."""
        state = game.state
        if check_end(game) or self.d_margin is None or not self.d_exploit or not tgt.active or not att.on_field:
            return None
        options = opt.attack_options(state, tgt, tgt.tile, only=att.id)
        if not options:
            game.events.append(Event("riposte_out_of_reach", {"figure": tgt.id, "attacker": att.id}, rule="5.8"))
            return None
        answer = self.take_answer()
        if answer is None:
            return Decision(tgt.side, "riposte", (*options, Option("no_riposte", "no_riposte", tgt.id)),
                            figure=tgt.id, info={"attacker": att.id})
        if answer.action == "no_riposte":
            game.events.append(Event("riposte_declined", {"figure": tgt.id, "attacker": att.id}, rule="5.8"))
        else:
            state.steps.push(Attack(tgt.id, att.id, answer.value if answer.action == "manoeuvre" else "", riposte=True))
        return None


def _ring(tile: Tile) -> list[Tile]:
    return [(tile[0] + dx, tile[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


@dataclass
class BreakFree(Step):
    """Lutte, with the held penalty, against the holder's Lutte; the one breaking free wins ties (5.18)."""

    figure: str

    def run(self, game: Game) -> Decision | None:
        state = game.state
        fig = state.figure(self.figure)
        if fig.held_by is None:
            return None
        holder = state.figure(fig.held_by)
        mine = throw(game, fig, "lutte", "break_free", "5.18")
        theirs = throw(game, holder, "lutte", "hold_fast", "5.18")
        free = mine.margin >= theirs.margin
        game.events.append(Event("break_free", {"figure": fig.id, "holder": holder.id, "success": free}, rule="5.18"))
        if free:
            release(game, fig, "broke_free")
        return None


@dataclass
class EndPasse(Step):
    """Feints lapse; a truce proposed in the passe is put to the other side; the battle may end (5.19)."""

    asked: bool = False

    def run(self, game: Game) -> Decision | None:
        state = game.state
        if state.over:
            return None
        if not self.asked:
            self.asked = True
            for f in state.figures:
                if f.feinted_until and f.feinted_until <= state.turn:
                    f.feinted_until = 0
            game.events.append(Event("passe_end", {"turn": state.turn}, rule="4.1"))
            if state.truce_offer is not None:
                side = 1 - state.truce_offer
                return Decision(side, "truce", (Option("accept_truce", "accept_truce"),
                                                Option("refuse_truce", "refuse_truce")),
                                info={"side": state.truce_offer, "turn": state.turn}, default="refuse_truce")
        answer = self.take_answer()
        if answer is not None:
            if answer.action == "accept_truce":
                finish(game, None, "truce")
                return None
            game.events.append(Event("truce_refused", {"side": 1 - state.truce_offer}, rule="5.19"))
        if check_end(game):
            return None
        if state.turn >= state.max_turns:
            result = points(state)
            finish(game, result.winner, TURN_LIMIT, points=list(result.points), taken=list(result.taken),
                   held=list(result.held))
        return None
