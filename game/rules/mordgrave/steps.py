"""The turn and its actions as steps (rules/mordgrave.md 3, 4): initiative, alternating Leader phases with
their command bubbles, the troops phases, two actions per figure, combat phases, shots and the outcome
ladder. Decisions of the other side in the middle of an action (its combat mode, a winner's follow-up)
are steps asking that side."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...engine import events as ev
from ...engine import space
from ...engine.battlefield import Door, Tile
from ...engine.decision import Decision, Option
from ...engine.events import Event
from ...engine.objectives import TURN_LIMIT, Piece, Score, score
from ...engine.steps import Step
from .combat import (critical_bonus, enemies_touching, melee_terms, opposed, penalty, push_tile, ranged_weapon,
                     shot_result, shot_terms, template_tiles, tier)
from .odds import bravery_chance, effect
from .options import (action_options, follow_options, in_bubble, mode_options, ready, second_shot_options,
                      tile_key)
from .state import Figure, Game, Group, State, data, rule

ROUT, ROUTS = "rout", "routs"      # one warband fled; both at once (the points decide)

D20 = 20


# --- the turn --------------------------------------------------------------------------------

@dataclass
class StartTurn(Step):
    """The initiative roll (3.1): 11 or more gives it to the first player. The first turn asks for the roll,
    since no die may be rolled before the first answer."""

    ask: bool = False

    def run(self, game: Game) -> Decision | None:
        st = game.state
        if self.ask and self.take_answer() is None:
            return Decision(0, "initiative", (Option("roll", "roll"),), info={"turn": st.turn})
        roll = game.dice.d(D20, "3.1")
        side = 0 if roll >= rule("initiative_first_player_from") else 1
        game.events.append(ev.turn(st.turn, "3.1"))
        game.events.append(ev.dice(0, [roll], "initiative", "3.1", sides=D20,
                                   needed=rule("initiative_first_player_from")))
        game.events.append(Event("initiative", {"side": side, "roll": roll}, rule="3.1"))
        st.initiative, st.order = side, [side, 1 - side]
        st.leaders_left = {s: [f.id for f in sorted(st.living(s), key=lambda f: f.role != "chief") if f.leader]
                           for s in (0, 1)}
        st.cursor, st.troops_next, st.phase = 0, 0, "leaders"
        return None


def next_leader_side(st: State) -> int | None:
    """The side whose Leader phase comes next, alternating from the initiative (3.2); a Leader that is
    Out of action or was activated in another Leader's phase has no phase of its own."""
    for i in range(len(st.order)):
        at = (st.cursor + i) % len(st.order)
        side = st.order[at]
        st.leaders_left[side] = [fid for fid in st.leaders_left[side]
                                 if st.figure(fid).alive and not st.figure(fid).activated]
        if st.leaders_left[side]:
            st.cursor = at + 1
            return side
    return None


@dataclass
class ChooseLeader(Step):
    """A player takes their Leaders in any order (3.2)."""

    side: int

    def run(self, game: Game) -> Decision | None:
        st = game.state
        left = st.leaders_left[self.side]
        answer = self.take_answer()
        if answer is None and len(left) > 1:
            return Decision(self.side, "leader", tuple(Option(f"lead:{fid}", "lead", fid) for fid in left),
                            info={"turn": st.turn})
        chosen = answer.figure if answer is not None else left[0]
        left.remove(chosen)
        begin_group(game, self.side, st.figure(chosen))
        return None


def begin_group(game: Game, side: int, leader: Figure | None) -> None:
    """A Leader's phase, with the friends in its bubble noted now (3.3), or a side's troops phase."""
    st = game.state
    if leader is not None:
        eligible = [g.id for g in in_bubble(st, leader)]
        leader.activated = True
        st.group = Group(side, leader.id, leader.tile, [leader.id] + eligible)
        facts = {"eligible": eligible} if eligible else {}
        game.events.append(ev.phase("leader", "3.2", side=side, leader=leader.id, **facts))
    else:
        st.group = Group(side, None, None, [f.id for f in st.living(side) if not f.activated])
        game.events.append(ev.phase("troops", "3.2", side=side))
    st.steps.push(RunGroup())


def end_group(game: Game) -> None:
    st = game.state
    for fid in st.group.members:
        f = st.figure(fid)
        if f.activated and not f.done:
            finish(game, f)
    st.group = None


def end_turn(game: Game) -> None:
    """Tokens that expire this turn go, activation flags are cleared (3.6); the last turn ends the game."""
    st = game.state
    n = st.turn
    for f in st.figures:
        kept = [t for t in f.tokens if t > n]
        if len(kept) != len(f.tokens) and f.alive:
            game.events.append(Event("difficulty_ended", {"figure": f.id, "tokens": len(kept)}, rule="4.2"))
        f.tokens = kept
        f.activated, f.done, f.actions, f.first, f.stepped, f.charges = False, False, 0, "", False, []
    game.events.append(Event("turn_end", {"turn": n}, rule="3.6"))
    rout_tests(game)
    if st.over:
        return
    if n >= st.max_turns:
        result = points(st)
        finish_match(game, result.winner, TURN_LIMIT, points=list(result.points), taken=list(result.taken),
                     held=list(result.held))
        return
    st.turn, st.phase = n + 1, "initiative"


def shaken(st: State, side: int) -> bool:
    """Half the warband decimated, the seed's stressful event (project default, docs/rules-mordgrave.md):
    half or more of its figures Out of action, one of them put out this turn (a warband that lost no
    figure in the turn has met no new stressful event)."""
    mine = [f for f in st.figures if f.side == side]
    return (bool(mine) and sum(f.out for f in mine) >= rule("rout_from_lost_share") * len(mine)
            and any(f.out_turn == st.turn for f in mine))


def rout_tester(st: State, side: int) -> Figure | None:
    """Who meets the rout for the warband: its Chief, else the figure standing with the best Bravery
    (its tokens counted), the first by id among equals."""
    living = st.living(side)
    chief = next((f for f in living if f.role == "chief"), None)
    return chief or min(living, key=lambda f: (penalty(f) - f.Brav, f.id), default=None)


def rout_difficulty(st: State, side: int) -> int:
    """The Bravery difficulty of the rout test: the spec's 8, and the Chief's death, the seed's other
    stressful event, met at the same time as a Great difficulty's worth more."""
    chief_lost = any(f.role == "chief" and f.out for f in st.figures if f.side == side)
    return rule("rout_difficulty") + (rule("rout_chief_lost") if chief_lost else 0)


def rout_tests(game: Game) -> None:
    """At the end of the turn each warband with half its figures Out of action tests its Bravery; one that
    fails flees and the other wins; both at once: the points decide, as at the turn limit."""
    st = game.state
    fled = []
    for side in st.order or (0, 1):
        tester = rout_tester(st, side) if shaken(st, side) else None
        if tester is None:
            continue
        difficulty = rout_difficulty(st, side)
        chance = bravery_chance(tester, difficulty)
        roll = game.dice.d(D20, "4.2")
        total = roll + tester.Brav - penalty(tester)
        held = total >= difficulty
        game.events.append(ev.dice(tester.id, [roll], "rout", "4.2", sides=D20,
                                   needed=difficulty - tester.Brav + penalty(tester), total=total))
        game.events.append(Event("rout", {"side": side, "figure": tester.id, "total": total,
                                          "difficulty": difficulty, "chance": f"{chance.numerator}/{chance.denominator}",
                                          "passed": held}, rule="4.2"))
        if not held:
            fled.append(side)
    if len(fled) == 1:
        finish_match(game, 1 - fled[0], ROUT)
    elif fled:
        result = points(st)
        finish_match(game, result.winner, ROUTS, points=list(result.points), taken=list(result.taken),
                     held=list(result.held))


def figure_value(f: Figure) -> int:
    """What a figure counts in the points: its Vitality, one more for a Leader (project default)."""
    return f.Vit + (1 if f.leader else 0)


def points(st: State) -> Score:
    """The project default at the turn limit (docs/rules-mordgrave.md): Vitality taken from the enemy, a
    figure's whole value once it is Out of action, and the map's objectives held, a henchman's worth
    (Vitality 1) per figure an objective is worth."""
    pieces = [Piece(f.side, f.tile if f.alive else None, figure_value(f),
                    f.Vit - f.vit if f.alive else figure_value(f)) for f in st.figures]
    return score(st.battlefield, pieces, data()["profile"]["Vit"])


def finish_match(game: Game, winner: int | None, reason: str, **facts) -> None:
    st = game.state
    st.over, st.winner, st.reason, st.phase, st.group = True, winner, reason, "over", None
    st.steps.discard(lambda s: True)
    game.events.append(ev.game_over(winner, reason, "victory", **facts))


def settle(game: Game) -> None:
    """A side with no figure left standing has lost."""
    st = game.state
    if st.over:
        return
    alive = [bool(st.living(s)) for s in (0, 1)]
    if not all(alive):
        finish_match(game, 0 if alive[0] else 1 if alive[1] else None, "elimination")


def refill(game: Game) -> bool:
    st = game.state
    if st.over:
        return False
    if st.phase == "initiative":
        st.steps.push(StartTurn(ask=st.turn == 1))
    elif st.phase == "leaders":
        side = next_leader_side(st)
        if side is None:
            st.phase = "troops"
        else:
            st.steps.push(ChooseLeader(side))
    else:
        while st.troops_next < len(st.order):
            side = st.order[st.troops_next]
            st.troops_next += 1
            if any(not f.activated for f in st.living(side)):
                begin_group(game, side, None)
                return True
        end_turn(game)
    return True


# --- a phase: who acts, and their actions ---------------------------------------------------

@dataclass
class RunGroup(Step):
    """The figures of one phase act in any order, each first action before its second (3.4)."""

    def run(self, game: Game) -> Decision | None:
        st = game.state
        g = st.group
        answer = self.take_answer()
        if answer is not None:
            if answer.action == "pass":
                end_group(game)
            else:
                st.steps.push(RunGroup())       # back here once the action is resolved
                act(game, g, answer)
            return None
        if st.over or g is None:
            return None
        waiting = ready(st, g)
        if not waiting:
            end_group(game)
            return None
        current = st.figure(g.current) if g.current else None
        if current not in waiting:
            g.current = None
            only = waiting[0]
            if len(waiting) > 1 or (g.leader is not None and only.id != g.leader and not only.activated):
                return Decision(g.side, "activate",
                                tuple(Option(f"activate:{f.id}", "activate", f.id, f.tile) for f in waiting)
                                + (Option("pass", "pass", ends="turn"),),
                                info={"turn": st.turn, "leader": g.leader})
            start(game, g, only)
            current = only
        options = action_options(st, current, len(waiting) > 1)
        if len(options) == 1:               # nothing left to do but end: no question to ask
            g.current = None
            finish(game, current)
            st.steps.push(RunGroup())
            return None
        return Decision(current.side, "action", options, figure=current.id,
                        info={"turn": st.turn, "action": current.actions + 1, "leader": g.leader})


def start(game: Game, g: Group, f: Figure) -> None:
    if not f.activated:
        f.activated = True
        game.events.append(Event("activation", {"figure": f.id, "side": f.side, "leader": g.leader}, rule="3.5"))
    g.current = f.id


def finish(game: Game, f: Figure) -> None:
    f.done = True
    game.events.append(Event("activation_end", {"figure": f.id}, rule="3.5"))


@dataclass
class Finish(Step):
    """The end of a figure's activation, once its second action is resolved."""

    figure: str

    def run(self, game: Game) -> Decision | None:
        finish(game, game.state.figure(self.figure))
        return None


def act(game: Game, g: Group, o: Option) -> None:
    """Carry out one answer of the phase: pick a figure, hand over, or one of the current figure's actions."""
    st = game.state
    f = st.figure(o.figure)
    a = o.action
    if a == "activate":
        start(game, g, f)
        return
    if a == "switch":
        g.current = None
        return
    if a == "end":
        g.current = None
        finish(game, f)
        return
    f.actions += 1
    concentrating = f.first == "concentrate"
    if f.actions >= 2:
        g.current = None
        st.steps.push(Finish(f.id))         # after the action's resolution, pushed on top of it
    if a in ("move", "run"):
        touching = {e.id for e in enemies_touching(st, f)}
        frm, f.tile = f.tile, o.tile
        game.events.append(ev.moved(f.id, frm, o.path, "4.13.1" if a == "move" else "4.13.4", action=a))
        if a == "move":
            f.first, f.stepped = "move", bool(o.path)
            f.charges = [e.id for e in enemies_touching(st, f) if e.id not in touching]
    elif a in ("stay", "concentrate"):
        f.first = a
        game.events.append(Event(a, {"figure": f.id}, rule="3.5" if a == "stay" else "4.13.2"))
    elif a == "reload":
        f.first = "reload"
        next(c for c in f.ranged if c.weapon == o.value and not c.loaded).loaded = True
        game.events.append(Event("reloaded", {"figure": f.id, "weapon": o.value}, rule="4.13.3"))
    elif a == "fight":
        charge = f.first == "move" and o.target in f.charges
        st.steps.push(Melee(f.id, o.target, charge, concentrating))
    elif a == "shoot":
        shoot(game, f, st.figure(o.target), o.value, concentrating)
    elif a == "double":
        st.steps.push(DoubleShot(f.id, o.value, o.target, concentrating))
    elif a == "breath":
        breath(game, f, o.value, o.tile, concentrating)
    elif a == "open":
        st.battlefield.door[o.tile[1], o.tile[0]] = Door.OPEN
        game.events.append(Event("door_opened", {"figure": f.id, "tile": list(o.tile)}, rule="4.13.8"))


# --- melee -----------------------------------------------------------------------------------

@dataclass
class Melee(Step):
    """A combat phase (4.1): modes declared by both sides (attacker first), then the opposed roll."""

    attacker: str
    defender: str
    charge: bool
    concentrate: bool
    modes: dict[str, str] = field(default_factory=dict)

    def run(self, game: Game) -> Decision | None:
        st = game.state
        a, d = st.figure(self.attacker), st.figure(self.defender)
        answer = self.take_answer()
        if answer is not None:
            self.modes[answer.figure] = answer.action
            game.events.append(Event("mode", {"figure": answer.figure, "mode": answer.action}, rule="4.19"))
        for f, other in ((a, d), (d, a)):
            if f.modes and f.id not in self.modes:
                return Decision(f.side, "mode", mode_options(f, other), figure=f.id,
                                info={"attacker": a.id, "defender": d.id, **{f"mode_{k}": v for k, v in
                                                                            self.modes.items()}})
        fight(game, a, d, self.charge, self.concentrate, self.modes)
        return None


def fight(game: Game, a: Figure, d: Figure, charge: bool, concentrate: bool, modes: dict[str, str]) -> None:
    st = game.state
    terms = melee_terms(st, a, d, charge, concentrate, modes)
    na, nd = game.dice.d(D20, "4.1"), game.dice.d(D20, "4.1")
    game.events.append(ev.dice(a.id, [na], "melee", "4.1", sides=D20, target=d.id))
    game.events.append(ev.dice(d.id, [nd], "melee", "4.1", sides=D20, target=a.id))
    scores = [na + terms[0].score, nd + terms[1].score]
    result = opposed(terms[0], terms[1], na, nd)
    facts = {"attacker": a.id, "defender": d.id, "scores": scores, "charge": charge}
    if result is None:
        game.events.append(ev.attack(a.id, d.id, "melee", False, "4.1", tie=True))
        game.events.append(Event("melee", {**facts, "winner": None}, rule="4.1"))
        return
    w, l = (a, d) if result[0] == 0 else (d, a)
    margin, defence = result[1], result[2]
    t = tier(margin, defence)
    game.events.append(ev.attack(a.id, d.id, "melee", w is a, "4.1"))
    game.events.append(Event("melee", {**facts, "winner": w.id, "loser": l.id, "margin": margin,
                                       "defence": defence, "tier": t, "effect": effect(t, l),
                                       "critical": critical_bonus(terms[result[0]].critical, (na, nd)[result[0]]) > 0},
                             rule="4.2"))
    suffer(game, l, t, w.tile, w, "4.2")


@dataclass
class FollowUp(Step):
    """The winner of a combat phase may advance into the tile its pushed-back enemy left (4.2): a decision
    of the winner's side, whichever side is acting."""

    winner: str
    vacated: Tile

    def run(self, game: Game) -> Decision | None:
        st = game.state
        w = st.figure(self.winner)
        answer = self.take_answer()
        if answer is None:
            opts = follow_options(st, w, self.vacated)
            if len(opts) == 1 or not w.alive:
                return None
            return Decision(w.side, "follow", opts, figure=w.id, info={"tile": tile_key(self.vacated)})
        if answer.action == "follow":
            frm, w.tile = w.tile, self.vacated
            game.events.append(ev.moved(w.id, frm, [self.vacated], "4.2", action="follow"))
        return None


# --- the outcome ladder ---------------------------------------------------------------------

def add_token(game: Game, f: Figure, rule_ref: str) -> None:
    """Great difficulty until the end of the next turn (4.2)."""
    until = game.state.turn + rule("difficulty_lasts_turns")
    f.tokens.append(until)
    game.events.append(Event("difficulty", {"figure": f.id, "tokens": len(f.tokens), "until": until}, rule=rule_ref))


def suffer(game: Game, loser: Figure, t: int, origin: Tile, winner: Figure | None, rule_ref: str) -> None:
    """Apply tier ``t`` to ``loser``: push-back away from ``origin`` (with the follow-up of a melee
    ``winner``), a token, a Vitality point or Out of action, a Horrible wound and its Bravery tests."""
    st = game.state
    if t == 0:
        frm = loser.tile
        to = push_tile(st, loser, origin)
        if to is None:
            game.events.append(Event("push_blocked", {"figure": loser.id}, rule=rule_ref))
            return
        loser.tile = to
        game.events.append(ev.moved(loser.id, frm, [to], rule_ref, action="pushed"))
        if winner is not None:
            st.steps.push(FollowUp(winner.id, frm))
        return
    if t >= 2 and loser.vit <= 1:
        loser.put_out(st.turn)
        game.events.append(ev.damaged(loser.id, "vit", 1, 0, rule_ref))
        game.events.append(ev.removed(loser.id, "out", rule_ref))
    else:
        add_token(game, loser, rule_ref)
        if t >= 2:
            loser.vit -= 1
            game.events.append(ev.damaged(loser.id, "vit", 1, loser.vit, rule_ref))
    if t == 3:
        loser.horrible += 1
        game.events.append(Event("horrible", {"figure": loser.id}, rule=rule_ref))
        for ally in sorted(st.living(loser.side), key=lambda g: g.id):
            if ally is not loser and space.within(ally.tile, loser.tile, rule("bravery_radius")):
                bravery(game, ally)
    settle(game)


def bravery(game: Game, f: Figure) -> None:
    """A Bravery test of difficulty 8: failing it gives a Great difficulty token (4.2)."""
    n = game.dice.d(D20, "4.2")
    total = n + f.Brav - penalty(f)
    passed = total >= rule("bravery_difficulty")
    game.events.append(ev.dice(f.id, [n], "bravery", "4.2", sides=D20, needed=rule("bravery_difficulty"),
                               total=total))
    game.events.append(Event("bravery", {"figure": f.id, "total": total, "passed": passed}, rule="4.2"))
    if not passed:
        add_token(game, f, "4.2")


# --- shooting --------------------------------------------------------------------------------

def spend(game: Game, f: Figure, wid: str) -> None:
    """A Lost weapon leaves the inventory, a spare one first, then the second, then the main weapon; a
    weapon with Reload is unloaded (4.20)."""
    w = ranged_weapon(wid)
    if "reload" in w["rules"]:
        next(c for c in f.ranged if c.weapon == wid and c.loaded).loaded = False
    if "lost" not in w["rules"]:
        return
    spare = next((c for c in f.ranged if c.weapon == wid), None)
    if spare is not None:
        f.ranged.remove(spare)
    elif f.second and data()["melee"][f.second].get("thrown") == wid:
        f.second = None
    else:
        f.main = None
    game.events.append(Event("lost", {"figure": f.id, "weapon": wid}, rule="4.20"))


def shoot(game: Game, f: Figure, target: Figure, wid: str, concentrate: bool, double: bool = False,
          spent: bool = True) -> None:
    """One shot (4.7), or a Destabilisation throw (4.23)."""
    st = game.state
    terms = shot_terms(st, f, target, wid, concentrate, double)
    ns, nt = game.dice.d(D20, "4.7"), game.dice.d(D20, "4.7")
    game.events.append(ev.dice(f.id, [ns], "shoot", "4.7", sides=D20, target=target.id))
    game.events.append(ev.dice(target.id, [nt], "dodge", "4.7", sides=D20, target=f.id))
    scores = [ns + terms.shooter, nt + terms.target]
    result = shot_result(terms, ns, nt)
    facts = {"figure": f.id, "target": target.id, "weapon": wid, "scores": scores}
    if "destabilisation" in terms.weapon["rules"]:
        stunned = result is not None and ns >= rule("destabilisation_from")
        game.events.append(ev.attack(f.id, target.id, "ranged", result is not None, "4.23", weapon=wid))
        game.events.append(Event("destabilised", {**facts, "hit": result is not None, "stunned": stunned},
                                 rule="4.23"))
        if stunned:
            add_token(game, target, "4.23")
    elif result is None:
        game.events.append(ev.attack(f.id, target.id, "ranged", False, "4.7", weapon=wid))
        game.events.append(Event("shot", {**facts, "hit": False}, rule="4.7"))
    else:
        t = tier(*result)
        game.events.append(ev.attack(f.id, target.id, "ranged", True, "4.7", weapon=wid))
        game.events.append(Event("shot", {**facts, "hit": True, "margin": result[0], "defence": result[1],
                                          "tier": t, "effect": effect(t, target)}, rule="4.7"))
        suffer(game, target, t, f.tile, None, "4.7")
    if spent:
        spend(game, f, wid)


@dataclass
class DoubleShot(Step):
    """Two shots at −3 each, each at any legal target, the first resolved before the second is aimed (4.23)."""

    shooter: str
    weapon: str
    target: str
    concentrate: bool
    fired: bool = False

    def run(self, game: Game) -> Decision | None:
        st = game.state
        f = st.figure(self.shooter)
        answer = self.take_answer()
        if not self.fired:
            self.fired = True
            shoot(game, f, st.figure(self.target), self.weapon, self.concentrate, double=True)
            opts = second_shot_options(st, f, self.weapon)
            if st.over or len(opts) == 1:
                return None
            return Decision(f.side, "second_shot", opts, figure=f.id, info={"weapon": self.weapon})
        if answer is not None and answer.target is not None:
            shoot(game, f, st.figure(answer.target), self.weapon, self.concentrate, double=True)
        return None


def breath(game: Game, f: Figure, wid: str, aim: Tile, concentrate: bool) -> None:
    """The orc blunderbuss: a separate shot at every figure under its template, friend or foe (4.21)."""
    st = game.state
    tiles = template_tiles(st, f, wid, aim)
    victims = [v for v in (st.at(t) for t in tiles) if v is not None]
    game.events.append(Event("template", {"figure": f.id, "weapon": wid, "aim": list(aim),
                                          "tiles": [list(t) for t in tiles], "victims": [v.id for v in victims]},
                             rule="4.21"))
    for v in victims:
        if st.over:
            break
        if v.alive:
            shoot(game, f, v, wid, concentrate, spent=False)
    spend(game, f, wid)

