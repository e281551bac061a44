"""The Passe d'armes rule module (rules/passe_d_armes.md): armies, the state, the steps, what each side
may know, exact odds and the invariants. Readings the spec leaves open are in docs/rules-passe_d_armes.md.
"""
from __future__ import annotations

import copy
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...engine import space
from ...engine.battlefield import Battlefield
from ...engine.decision import Option
from ...engine.deploy import deploy
from ...engine.objectives import overlays as objective_overlays
from ...engine.protocol import Army, FigureView, ObjectView, Odds, Outcome, Overlay, Panel, RuleModule, Words
from ...errors import RulesError
from . import options as opt
from . import views
from .effects import Game, hazard_at, hazard_wounds
from .flow import Act, Attack, Declare, EndPasse, Group, StartPasse
from .odds import AttackOdds, attack_odds, exploit_chance, hazard_odds, opposed_win
from .rolls import defence_wounds
from .state import DATA_FILE, HANDS, SIDE_PREFIX, SKILLS, Combatant, State, data, weapon


class PasseDArmes(RuleModule):
    id = "passe_d_armes"
    version = "1"
    default_max_turns = 30

    @property
    def data_files(self) -> list[Path]:
        return [DATA_FILE]

    # --- armies --------------------------------------------------------------------------

    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        return [Army(side, a["name"], [self._complete(f) for f in a["figures"]])
                for side, a in enumerate(data()["armies"][:2])]

    @staticmethod
    def _complete(spec: dict) -> dict:
        """A figure as New battle shows it: its role's weapon in hand and protection spelt out."""
        role = data()["roles"].get(spec.get("role"), {})
        out = dict(spec)
        out.setdefault("weapon", (role.get("weapons") or [HANDS])[0])
        out.setdefault("protection", role.get("protection", "none"))
        return out

    def recruits(self, battlefield: Battlefield) -> list[dict]:
        return [self._complete({"role": r}) for r in data()["roles"]]

    def figure_choices(self, figure: dict) -> dict[str, list]:
        return {"role": list(data()["roles"]), "weapon": list(data()["weapons"]),
                "protection": list(data()["protections"])}

    def army_problems(self, army: Army) -> list[Words]:
        d = data()
        out = []
        if not army.figures:
            out.append(Words("problem.empty", side=army.side))
        for spec in army.figures:
            for key, table in (("role", d["roles"]), ("weapon", d["weapons"]), ("protection", d["protections"])):
                if key in spec and spec[key] not in table:
                    out.append(Words("problem.unknown", field=key, value=str(spec[key])))
        return out

    def _build(self, side: int, index: int, spec: dict) -> Combatant:
        d = data()
        place = f"figure {index + 1} of side {side}"
        if not isinstance(spec, dict):
            raise RulesError(place, "a figure is a table of its role, weapon and protection")
        role_id = spec.get("role")
        if role_id not in d["roles"]:
            raise RulesError(place, f"unknown role '{role_id}'; choose one of {', '.join(d['roles'])}")
        role = d["roles"][role_id]
        carried = [w for w in role["weapons"] if w != HANDS]
        main = spec.get("weapon", carried[0] if carried else HANDS)
        if main not in d["weapons"]:
            raise RulesError(place, f"unknown weapon '{main}'; choose one of {', '.join(d['weapons'])}")
        if main != HANDS:
            carried = [main] + [w for w in carried[1:] if w != main]
        protection = spec.get("protection", role["protection"])
        if protection not in d["protections"]:
            raise RulesError(place, f"unknown protection '{protection}'; choose one of {', '.join(d['protections'])}")
        name = spec.get("name")
        if not isinstance(name, str) or not name.strip():
            name = f"{role_id.capitalize()} {index + 1}"
        return Combatant(id=f"{SIDE_PREFIX[side]}{index + 1}", side=side, name=name[:40], role=role_id,
                         pui=role["pui"], adr=role["adr"], res=role["res"], skills={s: role[s] for s in SKILLS},
                         weapons=carried, in_hand=main,
                         protection=protection, mov=role["mov"], tile=None)

    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> State:
        placed = deploy(battlefield, {army.side: army.figures for army in armies if army.side in self.sides})
        figures = []
        for side, pairs in placed.items():
            for i, (spec, tile) in enumerate(pairs):
                fig = self._build(side, i, spec)
                fig.tile = tile
                figures.append(fig)
        return self.begin(State(battlefield, figures, max_turns or self.default_max_turns))

    # --- the procedure -------------------------------------------------------------------

    def context(self, state: State, dice: Any) -> Game:
        return Game(state, dice)

    def refill(self, game: Game) -> bool:
        if game.state.over:
            return False
        game.state.steps.push(StartPasse(), EndPasse())
        return True

    def outcome(self, state: State) -> Outcome | None:
        return views.outcome(state)

    def phase(self, state: State) -> str:
        return state.phase

    # --- what each side sees ---------------------------------------------------------------

    def figures(self, state: State, viewer: int | None) -> list[FigureView]:
        return views.figures(state, viewer)

    def panels(self, state: State, viewer: int | None) -> list[Panel]:
        return views.panels(state, viewer)

    def overlays(self, state: State, viewer: int | None) -> list[Overlay]:
        return objective_overlays(state.battlefield)

    def objects(self, state: State, viewer: int | None) -> list[ObjectView]:
        """Weapons lying where a disarm dropped them, named by their weapon."""
        return [ObjectView(i.id, i.weapon, (i.tile,)) for i in state.items]

    def notice(self, event) -> Words | None:
        """A combatant knocked out or out of the fight and a surrender are announced on screen (5.11, 5.19)."""
        if event.kind in ("knocked_out", "out", "surrendered"):
            return Words(f"notice.{event.kind}", **event.data)
        return super().notice(event)

    def observe(self, state: State, side: int) -> State:
        """Declarations are the only secret (5.1 b): the other side's are dropped unless this side has
        foresight this passe, and so is the part of one being made."""
        seen = copy.deepcopy(state)
        keep = views.visible_declarations(seen, side)
        seen.declarations = {fid: plan for fid, plan in seen.declarations.items() if fid in keep}
        for step in seen.steps.steps:
            if isinstance(step, Declare) and seen.figure(step.figure).side != side:
                step.plan, step.progress, step.at = [], opt.Progress(first=False), None
        return seen

    def disguise(self, state: State, side: int, rng: random.Random) -> State:
        """The other side's declarations, unknown to ``side``, drawn afresh among the legal ones."""
        out = copy.deepcopy(state)
        if side in out.foresight:
            return out
        for fid in list(out.declarations):
            fig = out.figure(fid)
            if fig.side == side:
                continue
            act = next((s for s in out.steps.steps if isinstance(s, Act) and s.figure == fid), None)
            progress = replace(act.progress, first=False) if act else opt.Progress(first=False)
            out.declarations[fid] = random_plan(out, fig, progress, fig.tile, rng)[0]
        for step in out.steps.steps:
            if isinstance(step, Declare) and out.figure(step.figure).side != side and step.plan:
                fig = out.figure(step.figure)
                step.plan, step.progress, step.at = random_plan(out, fig, opt.Progress(first=False), fig.tile, rng,
                                                                parts=len(step.plan))
        return out

    # --- odds ------------------------------------------------------------------------------

    def odds(self, state: State, option: Option) -> Odds | None:
        a = option.action
        waiting = state.steps.steps[-1] if state.steps.waiting is not None and state.steps.steps else None
        if a in ("attack", "manoeuvre") and option.figure and option.target:
            at = waiting.at if isinstance(waiting, Declare) and waiting.at else None
            return attack_preview(state, option, at)
        if a in ("dodge", "absorb") and isinstance(waiting, Attack):
            return defence_preview(state, waiting, a)
        if isinstance(waiting, Attack) and a in ("force_defence", "keep_exploit", "reroll", "ignore_protection",
                                                 "leave_exploit"):
            return exploit_preview(state, waiting, option)
        if a == "break_free":
            fig = state.figure(option.figure)
            holder = state.figure(fig.held_by)
            p = opposed_win(fig.net("lutte", passe=state.turn), holder.net("lutte", passe=state.turn))
            return Odds("break_free", {"success": p, "failure": 1 - p})
        if option.path and option.figure:
            return path_preview(state, state.figure(option.figure), option.path)
        if a == "landing" and isinstance(waiting, Attack):
            return path_preview(state, state.figure(waiting.target), (option.tile,))
        if a == "roll":
            return initiative_preview(state)
        return None

    # --- its AI ----------------------------------------------------------------------------

    def tactical_ai(self, seed: int, level: str = "normal") -> Any:
        from .ai import PasseAI

        return PasseAI(seed, level)

    # --- checks ----------------------------------------------------------------------------

    def check_invariants(self, state: State) -> list[str]:
        out = []
        bf = state.battlefield
        for f in state.figures:
            m = f.monitor
            if not (0 <= m.T <= 10 and 0 <= m.S <= 10 and m.overflow >= 0):
                out.append(f"{f.id} monitor out of bounds: {m}")
            if m.overflow and m.T < 10:
                out.append(f"{f.id} counts wounds towards death before it is out")
            if m.dead != (m.T == 10 and m.overflow >= f.pui):
                out.append(f"{f.id} dead is {m.dead} with overflow {m.overflow} and Puissance {f.pui}")
            if f.in_hand != HANDS and f.in_hand not in f.weapons:
                out.append(f"{f.id} holds {f.in_hand}, which it does not carry")
            if f.withdrawn != (f.tile is None):
                out.append(f"{f.id} withdrawn is {f.withdrawn} but its tile is {f.tile}")
            if f.tile is not None and not bf.can_stand(f.tile):
                out.append(f"{f.id} stands where no one may stand: {f.tile}")
            if f.held_by is not None:
                holder = state.figure(f.held_by)
                if not holder.active or f.helpless or not space.adjacent(holder.tile, f.tile):
                    out.append(f"{f.id} is held by {holder.id}, who cannot hold it")
            if f.helpless and (f.knocked_down or f.feinted_until):
                out.append(f"{f.id} is helpless yet keeps a condition")
        grouped = any(isinstance(s, Group) and s.started for s in state.steps.steps)
        if (state.buffer is not None) != grouped:
            out.append("effects are held back outside a simultaneous group" if state.buffer is not None
                       else "a simultaneous group runs without holding effects back")
        for i in state.items:
            if not bf.inside(i.tile):
                out.append(f"weapon {i.id} lies off the map at {i.tile}")
        if len(set(state.activated)) != len(state.activated):
            out.append(f"a combatant activated twice in passe {state.turn}")
        if state.over and state.steps.steps:
            out.append("steps are left after the end of the battle")
        if state.turn > state.max_turns:
            out.append(f"passe {state.turn} is past the limit of {state.max_turns}")
        return out


# --- declarations ------------------------------------------------------------------------------

def random_plan(state: State, fig: Combatant, progress: opt.Progress, at, rng: random.Random,
                parts: int | None = None) -> tuple[list[str], opt.Progress, Any]:
    """A legal declaration drawn at random, as the side that cannot see it might imagine one: whole, or
    its first ``parts`` parts when it is still being made."""
    plan: list[str] = []
    while True:
        options = opt.activation_options(state, fig, progress, at, declaring=True)
        if parts is not None:
            options = [o for o in options if not opt.plan_complete(opt.after(progress, o), o)] or options
        o = rng.choice(options)
        plan.append(o.key)
        progress = opt.after(progress, o)
        at = opt.destination(o, at)
        if opt.plan_complete(progress, o) or len(plan) == parts:
            return plan, progress, at


# --- odds previews ----------------------------------------------------------------------------------

def attack_nets(state: State, att: Combatant, tgt: Combatant, manoeuvre: str, at=None) -> tuple[int, int, int, int]:
    """The attacker's net score, the weapon index, the defender's dodge and absorb nets."""
    at = at or att.tile
    skill = opt.attack_skill(att, manoeuvre)
    extra = opt.cover_difficulty(state, att.in_hand, at, tgt.tile) if not manoeuvre else 0
    if manoeuvre:
        extra += data()["manoeuvres"][manoeuvre]["difficulty"]
    net_a = att.net(skill, extra, attack=True, passe=state.turn)
    return (net_a, weapon(att.in_hand)["index"], tgt.net("reflexe", defence=True, passe=state.turn),
            tgt.net("resister", defence=True, passe=state.turn))


def predict(state: State, att: Combatant, tgt: Combatant, manoeuvre: str, at=None) -> dict[str, AttackOdds]:
    """Exact attack odds against each defence, or against a helpless target ("none")."""
    net_a, index, net_dodge, net_absorb = attack_nets(state, att, tgt, manoeuvre, at)
    if tgt.helpless:
        return {"none": attack_odds(net_a, index, "", 0, tgt.defence, manoeuvre)}
    return {"dodge": attack_odds(net_a, index, "dodge", net_dodge, tgt.defence, manoeuvre),
            "absorb": attack_odds(net_a, index, "absorb", net_absorb, tgt.defence, manoeuvre)}


def labelled(dist: dict[int, Fraction], label: str = "wounds") -> dict[str, Fraction]:
    return {f"{label}:{n}": p for n, p in dist.items()}


def attack_preview(state: State, option: Option, at=None) -> Odds:
    """Before the attacker commits: against a defender who dodges and one who absorbs (5.2, 5.6, 5.7)."""
    att, tgt = state.figure(option.figure), state.figure(option.target)
    manoeuvre = option.value if option.action == "manoeuvre" else ""
    wounding = manoeuvre in ("", "botte")
    title = "attack" if not manoeuvre else "manoeuvre"
    odds = predict(state, att, tgt, manoeuvre, at)
    if "none" in odds:
        o = odds["none"]
        if wounding:
            return Odds(title, labelled(o.wounds), {"mean": o.mean, "chances": {"exploit:attack": o.exploit}})
        return Odds(title, {"success": Fraction(1)}, {})
    details: dict[str, Any] = {}
    for d in ("dodge", "absorb"):
        o = odds[d]
        if wounding:
            details[d] = labelled(o.wounds)
            details[f"{d}_mean"] = o.mean
    details["chances"] = {"riposte_if:dodge": odds["dodge"].riposte, "riposte_if:absorb": odds["absorb"].riposte,
                          "exploit:attack": odds["dodge"].exploit}
    return Odds(title, {f"wins:{d}": odds[d].win for d in ("dodge", "absorb")}, details)


def defence_preview(state: State, attack: Attack, defence: str) -> Odds:
    """What the defender faces with each choice, the attacker's roll still to come."""
    att, tgt = state.figure(attack.attacker), state.figure(attack.target)
    o = predict(state, att, tgt, attack.manoeuvre)[defence]
    if attack.manoeuvre in ("", "botte"):
        return Odds(defence, labelled(o.wounds), {"mean": o.mean, "chances": {f"riposte_if:{defence}": o.riposte}})
    return Odds(defence, {"resisted": 1 - o.win, "manoeuvre_succeeds": o.win},
                {"chances": {f"riposte_if:{defence}": o.riposte}})


def exploit_preview(state: State, attack: Attack, option: Option) -> Odds:
    """The attacker's margin is known: what each use of its Exploit leads to (5.4)."""
    tgt = state.figure(attack.target)
    index = weapon(attack.weapon)["index"]
    a = option.action
    protection = 0 if a == "ignore_protection" else tgt.defence
    if a in ("force_defence", "keep_exploit", "reroll"):        # one defence roll still to come
        defence = option.value if a == "force_defence" else attack.defence
        net_d = tgt.net("reflexe" if defence == "dodge" else "resister", defence=True, passe=state.turn)
        counts: dict[int, Fraction] = {}
        for dd in range(1, 11):
            n = defence_wounds(defence, attack.a_margin, net_d - dd, index, protection)
            counts[n] = counts.get(n, Fraction(0)) + Fraction(1, 10)
        return Odds(a, labelled(dict(sorted(counts.items()))),
                    {"chances": {f"riposte_if:{defence}": exploit_chance(net_d)}})
    n = defence_wounds(attack.defence, attack.a_margin, attack.d_margin, index, protection)
    return Odds(a, {f"wounds:{n}": Fraction(1)}, {})


def path_preview(state: State, fig: Combatant, path) -> Odds | None:
    """A path that enters hazard tiles: how many of their rolls fail, a wound weighing on the next (5.13)."""
    entries = []
    for t in path:
        h = hazard_at(state, tuple(t))
        if h is not None:
            hz = data()["hazards"][h]
            entries.append((hz["roll"], hz["difficulty"], hazard_wounds(fig, h), hz["nature"]))
    if not entries:
        return None

    def net_of(monitor, skill, difficulty):
        return fig.net(skill, difficulty, passe=state.turn, monitor=monitor)

    fails, finals = hazard_odds(fig.monitor, entries, fig.pui, net_of)
    felled = sum((p for m, p in finals.items() if m.helpless), Fraction(0))
    return Odds("hazard", labelled(fails, "hazard_failed"), {"chances": {"felled:hazard": felled}})


def initiative_preview(state: State) -> Odds:
    """Whether the passe opens with secret declarations: some but not all roll an initiative Exploit."""
    chances = [exploit_chance(f.net("reflexe", passe=state.turn + 1)) for f in state.figures if f.active]
    none = all_ = Fraction(1)
    for p in chances:
        none *= 1 - p
        all_ *= p
    declarations = 1 - none - all_
    return Odds("initiative", {"declarations": declarations, "no_declarations": 1 - declarations}, {})

