"""The KOLAPS : Ground Zero rule module: the interface the Match, the AI and the window use."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

from ...engine.battlefield import Battlefield
from ...engine.decision import Decision, Option
from ...engine.deploy import deploy
from ...engine.dice import Dice
from ...engine.events import Event
from ...errors import RulesError
from ...engine.protocol import Army, FigureView, Gauge, Marker, Odds, Outcome, RuleModule, canonical
from . import flow
from .combat import (blast_difficulty, hit_rows, modified_values, severity_dice, shot_difficulty,
                     strike_difficulty)
from .effects import Ctx, controller, hostile
from .model import DATA_FILE, ZONE_MAX, ZONES, Character, KolapsState, load_data
from .options import ATTACKS, friendly_crossed
from .pools import critical_failure_table, notation, roll_odds, threshold

TOTAL_BOXES = sum(ZONE_MAX.values())


def as_seen_by(shooter: Character, target: Character) -> Character:
    """The target as the shooter's side knows it: an enemy's armed ambush is secret (§5.15), so the odds
    shown before committing count the enemy's offensive box against its cover as if no ambush were armed."""
    if target.ambush_armed and hostile(shooter, target):
        return dataclasses.replace(target, ambush_armed=False)
    return target


class Kolaps(RuleModule):
    id = "kolaps"
    names = {"fr": "KOLAPS : Ground Zero", "en": "KOLAPS: Ground Zero"}
    default_max_turns = 10
    secret_markers = ("hidden", "ambush")

    def __init__(self, data_path: Path = DATA_FILE):
        self._path = data_path
        self.data = load_data(data_path)

    @property
    def data_files(self) -> list[Path]:
        return [self._path]

    # --- setup ------------------------------------------------------------------

    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        armies = []
        for side in (0, 1):
            figures = [{"archetype": a, "name": f"{self.data['archetypes'][a]['label']} {i + 1}"}
                       for i, a in enumerate(self.data["unit"])]
            armies.append(Army(side, f"Unité {'AB'[side]}", figures))
        return armies

    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> KolapsState:
        chars: dict[str, Character] = {}
        placed = deploy(battlefield, {army.side: army.figures for army in armies})
        for side, pairs in placed.items():
            for i, (fig, tile) in enumerate(pairs):
                arch_name = fig.get("archetype")
                if arch_name not in self.data["archetypes"]:
                    raise RulesError(f"army {side} figure {i + 1}", f"unknown archetype '{arch_name}'")
                arch = self.data["archetypes"][arch_name]
                if not battlefield.can_stand(tile):
                    raise RulesError(f"army {side} figure {i + 1}", f"cannot stand on tile {tile}")
                cid = fig.get("id", f"{'AB'[side]}{i + 1}")
                weapons = [arch["ready"]] + list(arch.get("carried", []))
                ch = Character(id=cid, name=fig.get("name", cid), archetype=arch_name, side=side, tile=tile,
                               is_avatar=bool(arch.get("avatar")), rng_initial=arch["rank"],
                               mvt_initial=arch["mvt"], cib_initial=arch["cib"],
                               weapons=[w for w in weapons if w != "unarmed"], ready_weapon=arch["ready"],
                               uses_left={w: self.data["weapons"][w].get("uses", self.data["weapons"][w].get("ammo"))
                                          for w in weapons if {"uses", "ammo"} & set(self.data["weapons"][w])},
                               specialisations=list(fig.get("specialisations", [])))
                for key in ("morale", "fatigue", "prone", "offensive", "aff"):
                    if key in fig:
                        setattr(ch, key, fig[key])
                ch.morale_preset = "morale" in fig
                ch.wounds.update(fig.get("wounds", {}))
                ch.mvt_mod, ch.cib_mod, ch.rng_mod = modified_values(ch)
                chars[cid] = ch
        state = KolapsState(bf=battlefield, width=battlefield.width, height=battlefield.height,
                            cm_per_tile=battlefield.cm_per_tile, max_turns=max_turns, chars=chars)
        state.queue.append({"op": "setup"})
        state.choice = Decision(0, "start", (Option("begin", "begin"),), info={"rule": "3.1"})
        return state

    # --- the protocol -----------------------------------------------------------

    def context(self, state, dice):
        raise RulesError(self.id, "runs on its own turn machinery until it is moved onto the step stack")

    def refill(self, game) -> bool:
        raise RulesError(self.id, "runs on its own turn machinery until it is moved onto the step stack")

    def tactical_ai(self, seed: int, level: str = "normal"):
        from ...ai.kolaps import KolapsAI

        return KolapsAI(seed)

    def pending(self, state: KolapsState) -> Decision | None:
        if state.finished:
            return None
        if state.choice is None:
            raise RulesError("kolaps", "no decision pending (the queue ran dry)")
        return state.choice

    def apply(self, state: KolapsState, option: Option, dice: Dice) -> list[Event]:
        ctx = Ctx(state, dice, self.data)
        flow.answer(ctx, option)
        return ctx.events

    def outcome(self, state: KolapsState) -> Outcome | None:
        if not state.finished:
            return None
        return Outcome(state.winner, state.end_reason)

    def phase(self, state: KolapsState) -> str:
        return state.phase

    # --- views --------------------------------------------------------------------

    def figures(self, state: KolapsState, viewer: int | None) -> list[FigureView]:
        out = []
        for ch in sorted(state.chars.values(), key=lambda c: c.id):
            markers = [Marker("morale", value=ch.morale), Marker("fatigue", value=ch.fatigue),
                       Marker("weapon", weapon=ch.ready_weapon)]
            for flag, name in ((ch.is_avatar, "avatar"), (ch.offensive, "offensive"), (ch.prone, "prone"),
                               (ch.huddled, "huddled"), (ch.activated_this_turn, "activated"),
                               (bool(ch.hemorrhage), "hemorrhage"), (bool(ch.critical), "critical"),
                               (ch.ko_activations_left > 0, "ko")):
                if flag:
                    markers.append(Marker(name))
            if ch.aff is not None:
                markers.append(Marker("aff", group=ch.aff))
            if ch.morale_state != "normal":
                markers.append(Marker(ch.morale_state))
            if ch.ambush_armed and (viewer is None or viewer == ch.side):
                markers.append(Marker("ambush"))
            out.append(FigureView(ch.id, controller(ch), ch.tile, ch.name,
                                  (Gauge("wound_boxes", TOTAL_BOXES - ch.total_wounds(), TOTAL_BOXES),),
                                  tuple(markers), ch.in_play, kind=ch.archetype))
        return out

    # --- odds -----------------------------------------------------------------------

    def odds(self, state: KolapsState, option: Option) -> Odds | None:
        action = "strike" if option.action == "knife" else option.action
        if action not in ATTACKS or option.figure not in state.chars or option.target not in state.chars:
            return None
        a = state.chars[option.figure]
        t = as_seen_by(a, state.chars[option.target])
        wname = option.value or a.ready_weapon
        w = self.data["weapons"][wname]
        if action == "throw":
            return self._blast_odds(state, a, t, w)
        if action in ("strike", "movestrike"):
            diff = strike_difficulty(a, t, w, action == "movestrike")
            strike = True
        else:
            diff = shot_difficulty(state.bf, state, a, a.tile, t, w, action == "moveshoot")
            strike = False
        if diff is None:
            return None
        need = threshold(a.rank(state.turn))
        two_hands = strike and w["range"] is None and "two_hands" in w["traits"]
        p = roll_odds(diff.value, need, two_hands)
        sev = severity_dice(w, diff.band, strike)
        rows = hit_rows(t, *sev, burst=action == "burst")
        outcomes = {"critical": p["critical_success"], "hit": p["success"] - p["critical_success"],
                    "critical_failure": p["critical_failure"],
                    "failure": 1 - p["success"] - p["critical_failure"]}
        if not strike and friendly_crossed(Ctx(state, None, self.data), a, a.tile, t.tile):
            mishaps = {"friendly_fire": p["critical_failure"]}
        else:
            mishaps = {f"mishap:{k}": q for k, q in critical_failure_table(diff.value, need, two_hands).items()}
        details = {"difficulty": diff.value, "raw": diff.raw, "terms": [list(x) for x in diff.terms],
                   "band": diff.band, "roll": notation(diff.value), "threshold": need,
                   "success": p["success"], "severity_dice": f"{sev[0]}{sev[1]}6",
                   "severity_given_hit": {f"severity:{r}": q for r, q in sorted(rows.items())},
                   "wound_given_hit": sum((q for r, q in rows.items() if r >= 3), Fraction(0)),
                   "critical_failure_results": mishaps}
        info = state.choice.info if state.choice is not None and state.choice.figure == a.id else {}
        if info.get("mode") == "reaction" and info.get("attacker") not in (None, t.id):
            # §5.20: reacting against another than the attacker first needs a difficulty-3 permission roll
            details["target_check"] = roll_odds(3, need)["success"]
        return Odds(action, outcomes, details)

    def _blast_odds(self, state: KolapsState, a: Character, primary: Character, w: dict) -> Odds:
        """Every figure within 2X of the impact rolls its own 2+ attack (§5.34.5)."""
        outcomes, chances, bands = {}, {}, {}
        for v in sorted(state.chars.values(), key=lambda c: c.id):
            if not v.in_play:
                continue
            diff = blast_difficulty(state.bf, primary.tile, as_seen_by(a, v), w["explosion"], state.cm_per_tile)
            if diff is None or not diff.possible:
                continue
            outcomes[f"hit:{v.id}"] = chances[v.id] = roll_odds(diff.value, 2)["success"]
            bands[v.id] = diff.band
        details = {"figures": chances, "bands": bands,
                   "blast_radius": 2 * w["explosion"] / state.cm_per_tile,
                   "friendly": sorted(fid for fid in chances if controller(state.chars[fid]) == controller(a))}
        return Odds("grenade", outcomes, details)

    # --- checks -------------------------------------------------------------------

    def check_invariants(self, state: KolapsState) -> list[str]:
        problems = []
        tiles: dict = {}
        for ch in state.chars.values():
            if not 1 <= ch.morale <= 6:
                problems.append(f"{ch.id}: morale {ch.morale} outside 1..6")
            if not 0 <= ch.fatigue <= 6:
                problems.append(f"{ch.id}: fatigue {ch.fatigue} outside 0..6")
            for z in ZONES:
                if not 0 <= ch.wounds[z] <= ZONE_MAX[z]:
                    problems.append(f"{ch.id}: {z} wounds {ch.wounds[z]} outside 0..{ZONE_MAX[z]}")
            if not ch.in_play:
                continue
            if ch.tile in tiles:
                problems.append(f"{ch.id} and {tiles[ch.tile]} share tile {ch.tile}")
            tiles[ch.tile] = ch.id
            if not state.bf.inside(ch.tile):
                problems.append(f"{ch.id} is off the map at {ch.tile}")
            if ch.permanently_prone and not ch.prone:
                problems.append(f"{ch.id} is permanently prone but standing")
            if ch.aff is not None and not any(o.aff == ch.aff and o.in_play and controller(o) != controller(ch)
                                              for o in state.chars.values()):
                problems.append(f"{ch.id} keeps AFF {ch.aff} without an adversary")
        if not state.finished and state.choice is None:
            problems.append("no decision pending")
        return problems

    def digest_data(self, state: KolapsState):
        return canonical({k: getattr(state, k) for k in state.__dataclass_fields__ if k != "bf"})

