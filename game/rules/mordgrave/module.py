"""The Mordgrave rule module (rules/mordgrave.md): warbands, the turn on the step stack, what each side sees,
exact odds and the checks. Project defaults and readings are listed in docs/rules-mordgrave.md.

Mordgrave keeps no secrets: both warbands, their loadouts, tokens and declared modes are on the table,
so ``observe`` and ``disguise`` are plain copies.
"""
from __future__ import annotations

import copy
from pathlib import Path

from ...engine import space
from ...engine.battlefield import Battlefield
from ...engine.decision import Option
from ...engine.deploy import deploy
from ...engine.dice import Dice
from ...engine.objectives import TURN_LIMIT
from ...engine.objectives import overlays as objective_overlays
from ...engine.objectives import panel as objective_panel
from ...engine.protocol import (Army, FigureView, Gauge, Marker, Odds, Outcome, Overlay, Panel, RuleModule,
                                Words)
from ...errors import RulesError
from . import roster
from .combat import ranged_weapon, template_tiles
from .odds import melee_odds, shot_odds, template_odds
from .options import bubble, in_bubble
from .state import DATA_FILE, PROFILE, Figure, Game, State, data, rule
from .steps import ROUTS, DoubleShot, Melee, points, refill


def weapon_of_choice(f: Figure) -> str:
    """What a warrior fights with, which the window draws it by: its ranged weapon, else its main one (a
    crossbowman and a pikeman of one warband are told apart by it; Chief and Champion are markers)."""
    if f.ranged:
        return f.ranged[0].weapon
    return f.main or "unarmed"


class Mordgrave(RuleModule):
    id = "mordgrave"
    version = "2"                   # 2: a warband with half its figures Out of action tests for a rout
    default_max_turns = 10
    keeps_secrets = False       # every figure, roll and choice is in plain view of both players

    @property
    def data_files(self) -> list[Path]:
        return [DATA_FILE]

    # --- warbands ------------------------------------------------------------------------

    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        return [roster.warband(faction, side) for side, faction in enumerate(data()["default_warbands"])]

    def recruits(self, battlefield: Battlefield) -> list[dict]:
        return roster.recruits()

    def figure_choices(self, figure: dict) -> dict[str, list]:
        return roster.figure_choices(figure)

    def army_problems(self, army: Army) -> list[Words]:
        return roster.army_problems(army)

    def in_english(self, words: Words) -> str:
        template = self.words("en").get(words.key, words.key)
        try:
            return template.format(**words.as_dict())
        except (KeyError, IndexError, ValueError):
            return words.key

    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> State:
        for army in armies:
            problems = self.army_problems(army)
            if problems:
                raise RulesError(f"armies: side {army.side}", self.in_english(problems[0]))
        placed = deploy(battlefield, {army.side: army.figures for army in armies})
        figures = [roster.build_figure(side, i, spec, tile)
                   for side, pairs in placed.items() for i, (spec, tile) in enumerate(pairs)]
        ids = [f.id for f in figures]
        if len(set(ids)) != len(ids):
            raise RulesError("armies", f"two figures share the id '{next(i for i in ids if ids.count(i) > 1)}'")
        state = State(battlefield, figures, max_turns or self.default_max_turns)
        return self.begin(state)

    # --- the procedure -------------------------------------------------------------------

    def context(self, state: State, dice: Dice) -> Game:
        return Game(state, dice)

    def refill(self, game: Game) -> bool:
        return refill(game)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        details = []
        for s in self.sides:
            mine = [f for f in state.figures if f.side == s]
            details.append(Words("result.side", side=s, standing=sum(f.alive for f in mine), total=len(mine),
                                 horrible=sum(f.horrible for f in mine)))
        if state.reason in (TURN_LIMIT, ROUTS):
            details += points(state).lines()
        return Outcome(state.winner, state.reason, tuple(details))

    def phase(self, state: State) -> str:
        return state.phase

    # --- what each side sees ---------------------------------------------------------------

    def figures(self, state: State, viewer: int | None) -> list[FigureView]:
        g = state.group
        current = g.current if g else None
        commanded = set(g.members) - {g.leader} if g and g.leader else set()
        out = []
        for f in state.figures:
            marks = []
            if f.leader:
                marks.append(Marker(f.role))
            if f.tokens:
                marks.append(Marker("difficulty", n=len(f.tokens)))
            if f.horrible:
                marks.append(Marker("horrible", n=f.horrible))
            if f.first == "concentrate" and not f.done:
                marks.append(Marker("concentrating"))
            for w in sorted({c.weapon for c in f.ranged if not c.loaded}):
                marks.append(Marker("unloaded", weapon=w))
            if f.modes:
                marks.append(Marker("modes"))
            if f.id == current:
                marks.append(Marker("active"))
            elif f.activated:
                marks.append(Marker("activated"))
            elif f.id in commanded and f.alive:
                marks.append(Marker("commanded"))
            out.append(FigureView(f.id, f.side, f.tile, f.name, (Gauge("vit", f.vit, f.Vit, "pips"),), tuple(marks),
                                  f.alive, kind=weapon_of_choice(f)))
        return out

    def _bubble(self, state: State, leader_id: str, origin, members) -> Overlay:
        leader = state.figure(leader_id)
        tiles = tuple(space.tiles_within(state.battlefield, origin, bubble(leader)))
        return Overlay("bubble", tiles, leader.side, f"overlay.bubble_{leader.role}", tuple(members))

    def overlays(self, state: State, viewer: int | None) -> list[Overlay]:
        """The command bubble of the Leader whose phase it is, with the friends it may still activate; while
        a Leader is being chosen, the bubble each candidate would have."""
        g = state.group
        if g is not None and g.leader is not None:
            waiting = [fid for fid in g.members if fid != g.leader and not state.figure(fid).done
                       and state.figure(fid).alive]
            return [self._bubble(state, g.leader, g.origin, waiting)] + objective_overlays(state.battlefield)
        d = state.steps.waiting
        if d is not None and d.kind == "leader":
            return [self._bubble(state, o.figure, state.figure(o.figure).tile,
                                 [f.id for f in in_bubble(state, state.figure(o.figure))])
                    for o in d.options] + objective_overlays(state.battlefield)
        return objective_overlays(state.battlefield)

    def preview(self, state: State, option: Option) -> list[Overlay]:
        if option.action == "breath":
            f = state.figure(option.figure)
            tiles = template_tiles(state, f, option.value, option.tile)
            hit = tuple(v.id for v in (state.at(t) for t in tiles) if v is not None)
            return [Overlay("template", tuple(tiles), f.side, "overlay.template", hit)]
        if option.action == "lead":
            leader = state.figure(option.figure)
            return [self._bubble(state, leader.id, leader.tile, [f.id for f in in_bubble(state, leader)])]
        return []

    def panels(self, state: State, viewer: int | None) -> list[Panel]:
        lines = [Words("panel.line_turn", turn=state.turn, max=state.max_turns)]
        if state.initiative is not None:
            lines.append(Words("panel.line_initiative", side=state.initiative))
        for s in self.sides:
            left = tuple(fid for fid in state.leaders_left.get(s, [])      # ids: the window names them
                         if state.figure(fid).alive and not state.figure(fid).activated)
            lines.append(Words("panel.line_leaders", side=s, n=len(left), names=left))
        g = state.group
        if g is not None and g.leader is not None:
            lines.append(Words("panel.line_phase_leader", side=g.side, leader=g.leader))
        elif g is not None:
            lines.append(Words("panel.line_phase_troops", side=g.side))
        found = objective_panel(state.battlefield, self.figures(state, viewer))
        return [Panel("turn", tuple(lines))] + ([found] if found else [])

    def notice(self, event) -> Words | None:
        """A Horrible wound, a failed Bravery test and a rout test are announced on screen, beside their log
        lines (4.2)."""
        if event.kind == "horrible":
            return Words("notice.horrible", **event.data)
        if event.kind == "bravery" and event.data.get("passed") is False:
            return Words("notice.bravery_failed", **event.data)
        if event.kind == "rout":
            return Words("notice.rout_fled" if event.data.get("passed") is False else "notice.rout_held", **event.data)
        return super().notice(event)

    def observe(self, state: State, side: int) -> State:
        return copy.deepcopy(state)

    def disguise(self, state: State, side: int, rng) -> State:
        return copy.deepcopy(state)

    # --- odds --------------------------------------------------------------------------------

    def odds(self, state: State, option: Option) -> Odds | None:
        a = option.action
        if option.figure is None:
            return None
        f = state.figure(option.figure)
        concentrating = f.first == "concentrate"
        if a == "fight":
            target = state.figure(option.target)
            return melee_odds(state, f, target, f, f.first == "move" and target.id in f.charges, concentrating, {})
        if a in rule("modes"):
            step = next((s for s in state.steps.upcoming() if isinstance(s, Melee)), None)
            if step is None:
                return None
            attacker = state.figure(step.attacker)
            other = state.figure(option.target)
            return melee_odds(state, f, other, attacker, step.charge, step.concentrate,
                              {**step.modes, f.id: a})
        if a in ("shoot", "double"):
            double = a == "double" or isinstance(next(state.steps.upcoming(), None), DoubleShot)
            return shot_odds(state, f, state.figure(option.target), option.value, concentrating, double)
        if a == "breath":
            victims = [v for v in (state.at(t) for t in template_tiles(state, f, option.value, option.tile))
                       if v is not None]
            return template_odds(state, f, victims, option.value, concentrating)
        return None

    # --- its AI ------------------------------------------------------------------------------

    def tactical_ai(self, seed: int, level: str = "normal"):
        from .ai import MordgraveAI

        return MordgraveAI(seed, level)

    # --- checks ------------------------------------------------------------------------------

    def check_invariants(self, state: State) -> list[str]:
        bf = state.battlefield
        out = []
        seen: dict = {}
        lasts = rule("difficulty_lasts_turns")
        for f in state.figures:
            if f.out != (f.vit == 0) or not 0 <= f.vit <= f.Vit:
                out.append(f"{f.id}: Vitality {f.vit}/{f.Vit} with out={f.out}")
            if not f.alive:
                continue
            if not bf.can_stand(f.tile):
                out.append(f"{f.id}: stands on {f.tile}, where a figure may not stand")
            if f.tile in seen:
                out.append(f"{f.id}: shares {f.tile} with {seen[f.tile]}")
            seen[f.tile] = f.id
            if any(not state.turn <= t <= state.turn + lasts for t in f.tokens):
                out.append(f"{f.id}: a Great difficulty token outlived its turn ({f.tokens}, turn {state.turn})")
            if not 0 <= f.actions <= 2 or (f.actions and not f.activated) or (f.done and not f.activated):
                out.append(f"{f.id}: {f.actions} actions, activated={f.activated}, done={f.done}")
            if any(not c.loaded and "reload" not in ranged_weapon(c.weapon)["rules"] for c in f.ranged):
                out.append(f"{f.id}: a weapon without Reload is unloaded")
            for key in PROFILE:
                lo, hi = data()["profile_ranges"][key]
                if not lo <= getattr(f, key) <= hi:
                    out.append(f"{f.id}: {key} {getattr(f, key)} outside {lo}..{hi}")
        for s in self.sides:
            chiefs = sum(f.role == "chief" for f in state.figures if f.side == s)
            if chiefs > rule("chiefs"):
                out.append(f"side {s} has {chiefs} Chiefs")
            for fid in state.leaders_left.get(s, []):
                if not state.figure(fid).leader or state.figure(fid).side != s:
                    out.append(f"{fid} waits for a Leader phase of side {s}")
        g = state.group
        if g is not None:
            if any(state.figure(fid).side != g.side for fid in g.members):
                out.append("a phase holds figures of both sides")
            if g.current is not None and g.current not in g.members:
                out.append(f"{g.current} acts in a phase it is not part of")
            if g.leader is not None and not state.figure(g.leader).activated:
                out.append(f"the Leader {g.leader} is not activated in its own phase")
        if state.over != (state.phase == "over"):
            out.append(f"phase {state.phase} with over={state.over}")
        return out
