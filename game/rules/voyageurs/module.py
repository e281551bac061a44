"""The Voyageurs rule modules: ``voyageurs`` (the ground battle) and ``voyageurs_aerial`` (the aerial
battle between transports, whose boardings are fought on the match's map as the deck)."""
from __future__ import annotations

import copy
from pathlib import Path

from ...engine.battlefield import Battlefield
from ...engine.deploy import deploy
from ...engine.objectives import TURN_LIMIT
from ...engine.objectives import overlays as objective_overlays
from ...engine.objectives import panel as objective_panel
from ...engine.protocol import Army, Outcome, RuleModule, Words
from ...errors import RulesError
from . import flow, views
from .fight import points
from .model import AERIAL, DEAD, GROUND, UNCONSCIOUS, UP, DATA_FILE, Fight, Game, State, data
from .odds import odds
from .setup import (aerial_problems, build_combatant, build_transport, free_names, is_transport, map_objects,
                    scenario, spec_problems, surprise)


class Voyageurs(RuleModule):
    id = "voyageurs"
    version = "2"                   # 2: side A rolled off at the battle's start
    mode = GROUND
    default_max_turns = 12

    @property
    def data_files(self) -> list[Path]:
        return [DATA_FILE]

    # --- setup -----------------------------------------------------------------------------

    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        return [Army(side, a["name"], copy.deepcopy(a["figures"]))
                for side, a in enumerate(data()["armies"][self.mode])]

    def recruits(self, battlefield: Battlefield) -> list[dict]:
        return [{"kind": kind} for kind in data()["roster"]]

    def figure_choices(self, figure: dict) -> dict[str, list]:
        """A transport's kind among the transports, a character's among the roster (its first crew member
        pilots unless the army marks another)."""
        return {"kind": list(data()["transports"] if is_transport(figure) else data()["roster"])}

    def army_problems(self, army: Army) -> list[Words]:
        if self.mode == AERIAL:
            out = aerial_problems(army)
        else:
            out = [Words("problem.transport_on_ground")] if any(is_transport(f) for f in army.figures) else []
        for f in army.figures:
            if not is_transport(f):
                out += spec_problems(f)
        return out

    def refuse(self, army: Army) -> None:
        """One clear line naming the army when it may not be played (the command line, a save)."""
        problems = self.army_problems(army)
        if problems:
            text = self.words("en").get(problems[0].key, problems[0].key)
            raise RulesError(f"army {army.side}", text.format(**problems[0].as_dict()))

    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> State:
        for army in armies:
            self.refuse(army)
        names = free_names(armies)
        state = State(battlefield, self.mode, {}, max_turns or self.default_max_turns)
        scenario(state, battlefield)
        if self.mode == GROUND:
            placed = deploy(battlefield, {a.side: a.figures for a in armies})
            for side, pairs in placed.items():
                for i, (spec, tile) in enumerate(pairs):
                    c = build_combatant(spec, side, i, names)
                    c.tile = tile
                    self._enlist(state, c)
            state.battle = Fight([c for c in state.combatants])
            state.surprise = surprise(state, battlefield)
            map_objects(state, battlefield)
        else:
            for army in armies:
                crew_specs = [f for f in army.figures if not is_transport(f)]
                ids = []
                for i, spec in enumerate(crew_specs):
                    c = build_combatant(spec, army.side, i, names)
                    ids.append(c.id)
                    self._enlist(state, c)
                pilot = next((i for i, f in enumerate(crew_specs) if f.get("pilot")), 0)
                t = build_transport(next(f for f in army.figures if is_transport(f)), army.side, ids)
                for cid in ids:
                    state.fig(cid).transport = t.id
                state.fig(ids[pilot]).pilot = True
                state.transports[t.id] = t
            state.battle = Fight(list(state.transports))
            map_objects(state, battlefield)
        return self.begin(state)

    @staticmethod
    def _enlist(state: State, c) -> None:
        if c.id in state.combatants:
            raise RulesError(f"army {c.side}", f"two figures have the id '{c.id}'")
        state.combatants[c.id] = c

    # --- the procedure ---------------------------------------------------------------------

    def context(self, state: State, dice) -> Game:
        return Game(state, dice)

    def refill(self, game: Game) -> bool:
        return flow.refill_ground(game) if self.mode == GROUND else flow.refill_aerial(game)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        details = []
        for t in state.transports.values():
            details.append(Words(f"result.transport.{t.status}", side=t.side, name=t.name, pv=max(0, t.pv),
                                 max=t.max_pv))
        for c in state.combatants.values():
            # both players read the results: PV stay untold where the other side never learnt the type (5.15)
            told = all(state.knows(side, c) for side in self.sides)
            details.append(Words(f"result.combatant.{c.status}", side=c.side, name=c.name,
                                 pv=c.pv if told else None, max=c.max_pv if told else None,
                                 pe=c.pe, max_pe=c.max_pe))
        if state.reason == TURN_LIMIT and all(state.knows(side, c) for side in self.sides
                                              for c in state.combatants.values()):
            details += points(state).lines()      # the points would tell an untold PV max (5.15)
        return Outcome(state.winner, state.reason, tuple(details))

    # --- what each side sees ---------------------------------------------------------------

    def figures(self, state: State, viewer: int | None):
        return views.figures(state, viewer)

    def panels(self, state: State, viewer: int | None):
        found = objective_panel(state.battlefield, self.figures(state, viewer))
        return views.panels(state, viewer) + ([found] if found else [])

    def overlays(self, state: State, viewer: int | None):
        return objective_overlays(state.battlefield)

    def objects(self, state: State, viewer: int | None):
        return views.objects(state)

    def observe(self, state: State, side: int) -> State:
        return views.observe(state, side)

    def notice(self, event) -> Words | None:
        """A critical hit, a combatant falling unconscious and a side fleeing are announced on screen
        (5.3, 5.10, 5.13)."""
        if event.kind == "attack" and event.data.get("critical") is True and event.data.get("hit"):
            return Words("notice.critical", **event.data)
        if event.kind == "unconscious" or event.kind == "flight" and event.data.get("success") is True:
            return Words(f"notice.{event.kind}", **event.data)
        return super().notice(event)

    def disguise(self, state: State, side: int, rng) -> State:
        return views.disguise(state, side, rng)

    def odds(self, state: State, option):
        return odds(state, option)

    def phase(self, state: State) -> str:
        return state.phase

    # --- its AI ----------------------------------------------------------------------------

    def tactical_ai(self, seed: int, level: str = "normal"):
        from .ai import VoyageursAI

        return VoyageursAI(seed, level)

    # --- checks ----------------------------------------------------------------------------

    def check_invariants(self, state: State) -> list[str]:
        out = []
        d = data()
        occupied: dict = {}
        for c in state.combatants.values():
            con = c.stat("CON")
            expected = DEAD if c.pv < -con else UNCONSCIOUS if c.pv <= 0 else UP
            if c.status in (UP, UNCONSCIOUS, DEAD) and c.status != expected:
                out.append(f"{c.id} is {c.status} at PV {c.pv} (CON {con})")
            if c.pv > c.max_pv or not 0 <= c.pe <= c.max_pe:
                out.append(f"{c.id} PV {c.pv}/{c.max_pv} PE {c.pe}/{c.max_pe} out of bounds")
            if len(c.items) > d["item_slots"]:
                out.append(f"{c.id} carries {len(c.items)} items")
            if c.present and c.tile is not None:
                if c.tile in occupied:
                    out.append(f"{c.id} and {occupied[c.tile]} share {c.tile}")
                occupied[c.tile] = c.id
                if not state.battlefield.can_stand(c.tile):
                    out.append(f"{c.id} stands where no one may stand, {c.tile}")
            if state.mode == GROUND and c.present and c.tile is None:
                out.append(f"{c.id} is in the battle but not on the map")
            if state.mode == AERIAL and c.present and c.on_deck != (c.tile is not None):
                out.append(f"{c.id} on deck {c.on_deck} with tile {c.tile}")
        cases = [t.case for t in state.transports.values() if t.flying]
        if len(set(cases)) != len(cases) or not all(1 <= n <= d["track"]["length"] for n in cases):
            out.append(f"transports on cases {cases}")
        for t in state.transports.values():
            if not 0 <= t.pe <= t.max_pe or t.pv > t.max_pv or (t.flying and t.pv <= 0):
                out.append(f"{t.id} PV {t.pv}/{t.max_pv} PE {t.pe}/{t.max_pe}, {t.status}")
        b = state.boarding
        on_deck = {c.id for c in state.combatants.values() if c.on_deck}
        if b is None and on_deck:
            out.append(f"{sorted(on_deck)} on the deck with no boarding")
        if b is not None and state.deck is not None and not on_deck <= set(b.boarders + b.defenders):
            out.append(f"{sorted(on_deck - set(b.boarders + b.defenders))} on the deck but not in the boarding")
        return out


class VoyageursAerial(Voyageurs):
    id = "voyageurs_aerial"
    mode = AERIAL
    default_max_turns = 15

    def name(self, lang: str) -> str:
        """Both modes share the package and its words; the aerial battle has a name of its own."""
        return self.words(lang).get("rules.name.aerial", self.id)
