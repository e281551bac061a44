"""The KOLAPS : Ground Zero rule module: the interface the Match, the AI and the window use."""
from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

from ...engine.battlefield import Battlefield
from ...engine.decision import Option
from ...engine.deploy import deploy
from ...errors import RulesError
from ...engine.objectives import TURN_LIMIT
from ...engine.objectives import overlays as objective_overlays
from ...engine.objectives import panel as objective_panel
from ...engine.protocol import (Army, FigureView, Gauge, Marker, Odds, Outcome, Overlay, Panel, RuleModule, Words,
                                canonical)
from .combat import (blast_difficulty, hit_rows, modified_values, severity_dice, shot_difficulty,
                     strike_difficulty)
from .effects import Ctx, controller
from .model import DATA_FILE, TOTAL_BOXES, ZONE_MAX, ZONES, Character, KolapsState, Order, load_data
from .options import AMBUSH_ACTIONS, ATTACKS, ambush_orders, as_seen_by, friendly_crossed, order_of
from .pools import critical_failure_table, notation, roll_odds, threshold
from .steps import BOTH_ROUTED, ROUTED, Activate, Assessment, Setup, SimpleAction, TurnStart, next_side, points


def ambush_marker(order: Order) -> Marker:
    """The standing order on its ambusher, as its own side sees it."""
    if order.trigger == "near":
        return Marker("ambush_near", within=order.within)
    return Marker("ambush" if order.trigger == "first" else f"ambush_{order.trigger}")


class Kolaps(RuleModule):
    id = "kolaps"
    names = {"fr": "KOLAPS : Ground Zero", "en": "KOLAPS: Ground Zero"}
    version = "3"                   # 2: ambush standing orders (§5.15); 3: a side that lost over half is routed
    default_max_turns = 10
    secret_markers = ("hidden",) + AMBUSH_ACTIONS         # one marker per standing order, seen by its side only

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
                if "left_hand" in fig:
                    ch.left_hand = self.left_hand_item(fig["left_hand"], ch, f"army {side} figure {i + 1}")
                ch.wounds.update(fig.get("wounds", {}))
                ch.mvt_mod, ch.cib_mod, ch.rng_mod = modified_values(ch)
                chars[cid] = ch
        state = KolapsState(bf=battlefield, width=battlefield.width, height=battlefield.height,
                            cm_per_tile=battlefield.cm_per_tile, max_turns=max_turns, chars=chars)
        state.steps.push(Setup())
        return self.begin(state)

    def left_hand_item(self, name, ch: Character, place: str) -> str:
        """A figure may start with a carried one-handed item in its left hand, beside a one-handed weapon."""
        weapons = self.data["weapons"]
        if name not in ch.weapons or weapons[name].get("hands", 0) != 1 or name == ch.ready_weapon:
            raise RulesError(place, f"left_hand '{name}' must be another one-handed item the figure carries")
        if weapons[ch.ready_weapon].get("hands", 0) == 2:
            raise RulesError(place, f"left_hand '{name}': the ready weapon '{ch.ready_weapon}' takes both hands")
        return name

    # --- the procedure ------------------------------------------------------------

    def context(self, state: KolapsState, dice) -> Ctx:
        return Ctx(state, dice, self.data)

    def refill(self, game: Ctx) -> bool:
        """The next regular activation, or the assessment once everyone has acted, or the next turn."""
        state = game.state
        if state.finished:
            return False
        if state.phase == "action":
            side = next_side(game)
            if side is None:
                state.phase = "assessment"
                state.steps.push(Assessment())
            else:
                state.steps.push(Activate(side))
        else:
            state.steps.push(TurnStart())
        return True

    def tactical_ai(self, seed: int, level: str = "normal"):
        from .ai import KolapsAI

        return KolapsAI(seed, level)

    def outcome(self, state: KolapsState) -> Outcome | None:
        if not state.finished:
            return None
        details = points(state).lines() if state.end_reason in (TURN_LIMIT, ROUTED, BOTH_ROUTED) else ()
        return Outcome(state.winner, state.end_reason, details)

    def phase(self, state: KolapsState) -> str:
        return state.phase

    # --- views --------------------------------------------------------------------

    def overlays(self, state: KolapsState, viewer: int | None) -> list[Overlay]:
        return objective_overlays(state.bf)

    def panels(self, state: KolapsState, viewer: int | None) -> list[Panel]:
        found = objective_panel(state.bf, self.figures(state, viewer))
        return [found] if found else []

    def figures(self, state: KolapsState, viewer: int | None) -> list[FigureView]:
        out = []
        for ch in sorted(state.chars.values(), key=lambda c: c.id):
            markers = [Marker("morale", value=ch.morale), Marker("fatigue", value=ch.fatigue),
                       Marker("weapon", weapon=ch.ready_weapon)]
            if ch.left_hand is not None:
                markers.append(Marker("left_hand", weapon=ch.left_hand))
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
                markers.append(ambush_marker(ch.ambush_order))
            out.append(FigureView(ch.id, controller(ch), ch.tile, ch.name,
                                  (Gauge("wound_boxes", TOTAL_BOXES - ch.total_wounds(), TOTAL_BOXES),),
                                  tuple(markers), ch.in_play, kind=ch.archetype))
        return out

    NOTABLE = ("ambush_fired", "critical", "friendly_fire")

    def notice(self, event) -> Words | None:
        """A rout, a mutiny (the mutineer changes sides), an ambush firing, a critical wound and friendly
        fire are announced on screen, beside their lines in the log (5.15, 5.21, 5.27, 5.32)."""
        if event.kind == "morale_state" and event.data.get("state") in ("routing", "mutinous"):
            return Words(f"notice.{event.data['state']}", **event.data)
        if event.kind in self.NOTABLE:
            return Words(f"notice.{event.kind}", **event.data)
        return super().notice(event)

    # --- what each side may know ------------------------------------------------------

    def observe(self, state: KolapsState, side: int) -> KolapsState:
        """The other side's ambushes are secret (§5.15): ``side`` believes none is armed, and a declaration
        still to resolve reads as the end of the activation it looks like."""
        seen = copy.deepcopy(state)
        for ch in seen.chars.values():
            if ch.side != side:
                ch.ambush_armed, ch.ambush_order, ch.ambush_declared_turn = False, None, None
        for step in seen.steps.steps:
            if isinstance(step, SimpleAction) and step.action == "ambush" and seen.chars[step.fig].side != side:
                step.action, step.value, step.key = "end", None, "end"
        return seen

    def disguise(self, state: KolapsState, side: int, rng) -> KolapsState:
        """Every enemy character that may lie in ambush (its last activation offered one and showed nothing)
        is drawn afresh: no ambush, or one with any standing order it could have stipulated."""
        new = copy.deepcopy(state)
        ctx = Ctx(new, None, self.data)
        declaring = {s.fig: s for s in new.steps.steps if isinstance(s, SimpleAction) and s.action in ("end", "ambush")}
        for ch in sorted(new.chars.values(), key=lambda c: c.id):
            if ch.side == side or not ch.may_lie_in_ambush():
                continue
            order = order_of(rng.choice(ambush_orders(ctx, ch))) if rng.random() < 0.5 else None
            step = declaring.get(ch.id)
            if step is not None:            # its declaration is still to resolve
                step.action, step.value, step.key = ("ambush", order, "ambush") if order else ("end", None, "end")
            else:
                ch.ambush_armed, ch.ambush_order = order is not None, order
                ch.ambush_declared_turn = ch.quiet_turn if order else None
        return new

    # --- odds -----------------------------------------------------------------------

    def odds(self, state: KolapsState, option: Option) -> Odds | None:
        if option.action == "encourage" and option.figure in state.chars:
            return self._encourage_odds(state.chars[option.figure], state.turn)
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
        waiting = state.steps.waiting
        info = waiting.info if waiting is not None and waiting.figure == a.id else {}
        if info.get("mode") == "reaction" and info.get("attacker") not in (None, t.id):
            # §5.20: reacting against another than the attacker first needs a difficulty-3 permission roll
            details["target_check"] = roll_odds(3, need)["success"]
        return Odds(action, outcomes, details)

    @staticmethod
    def _encourage_odds(helper: Character, turn: int) -> Odds:
        """The helper's difficulty-2 roll, then a D6: +2 morale on a 6, +1 otherwise."""
        p = roll_odds(2, threshold(helper.rank(turn)))["success"]
        return Odds("encourage", {"morale_gain:2": p / 6, "morale_gain:1": p * 5 / 6, "failure": 1 - p},
                    {"success": p})

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
        if not state.finished and state.steps.waiting is None:
            problems.append("no decision pending")
        return problems

    def digest_data(self, state: KolapsState):
        return canonical({k: getattr(state, k) for k in state.__dataclass_fields__ if k != "bf"})

