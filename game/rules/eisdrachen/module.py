"""The Eisdrachen rule module: setup, what each side sees and may know, exact odds and checks; its
turn (rules/eisdrachen.md 3.2) runs on the engine's step stack (steps.py).

Project defaults and readings documented here (the spec leaves them open):
- Turn 1 opens with an "initiative" decision holding one option, because no die may be rolled
  while the state is built; later initiatives are rolled when the previous turn ends.
- Victory: the side that kills every enemy wins; after ``max_turns`` the side with more points wins,
  equal points are a draw (the project default of engine/objectives.py: PV taken from the enemy plus the
  map's objectives held).
- A melee riposte and an alarm riposte are decisions of the defending side, asked in the middle of
  the attacker's activation (steps.py); rerolls are not (combat.py). Holding an alarm riposte does
  not use it up for the turn.
- Crawl and Climb options are listed only for tiles a Move cannot reach, so one tile is not
  offered three times; a Melee whose contact move has a single tile makes it without asking.
- A wolf-trapped Bleu does not strike first: it "can do nothing" that turn.
- Picking up a shooting weapon swaps it for the one carried (a figure carries exactly one).
- A hidden enemy does not shape the other side's options (that would show where it is); a move
  that runs into one, found on the way, stops in front of it, and a jump lands short of it.
"""
from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

from ...engine import space
from ...engine.battlefield import Battlefield, Tile
from ...engine.decision import Option
from ...engine.deploy import deploy
from ...engine.dice import mean
from ...engine.tokens import Token
from ...errors import RulesError
from ...engine.objectives import TURN_LIMIT
from ...engine.objectives import overlays as objective_overlays
from ...engine.objectives import panel as objective_panel
from ...engine.protocol import (Army, FigureView, Gauge, Marker, ObjectView, Odds, Outcome, Overlay, Panel, RuleModule,
                               TokenView, Words)
from . import actions as act
from .combat import dodge_on, melee_profile, shot_attacks, weapon
from .odds import attack_loss, kill_chance, labelled, melee_losses, mixture
from .state import DATA_FILE, SIDE_PREFIX, Emplacement, Figure, Item, State, const, data
from .steps import Act, Game, Opening, StartTurn, active_figure, points

STATUS_MARKERS = ("alerted", "emp", "wolf_trapped", "lucky", "dodge_reroll", "wound_reroll", "double_attacks")


def trade(f: Figure) -> str:
    """A figure's trade, the loadout its gear matches (sniper, medic…), which the window draws it by; the
    rank is a profile, not what a player tells figures apart by. Gear no loadout has: its firearm."""
    if f.medipack:
        return next((name for name, lo in data()["loadouts"].items() if lo["medipack"]), f.weapon)
    return next((name for name, lo in data()["loadouts"].items() if lo["shooting"] == f.weapon and not lo["medipack"]),
                f.weapon)


class Eisdrachen(RuleModule):
    id = "eisdrachen"
    version = "1"
    names = {"fr": "Eisdrachen", "en": "Eisdrachen"}
    default_max_turns = 12

    @property
    def data_files(self) -> list[Path]:
        return [DATA_FILE]

    # --- setup ----------------------------------------------------------------------

    def default_armies(self, battlefield: Battlefield) -> list[Army]:
        return [Army(side, r["name"], [dict(f) for f in r["figures"]])
                for side, r in enumerate(data()["rosters"][:2])]

    def new_state(self, battlefield: Battlefield, armies: list[Army], max_turns: int) -> State:
        placed = deploy(battlefield, {army.side: army.figures for army in armies})
        figures: list[Figure] = []
        for side, pairs in placed.items():
            for i, (spec, tile) in enumerate(pairs):
                fig = self._build_figure(side, i, spec)
                fig.tile = tile
                figures.append(fig)
        state = State(battlefield, figures, max_turns=max_turns or self.default_max_turns)
        self._map_objects(state)
        state.steps.push(Opening())
        return self.begin(state)

    def _build_figure(self, side: int, index: int, spec: dict) -> Figure:
        d = data()
        place = f"figure {spec.get('id', index + 1)} of side {side}"
        rank = spec.get("rank", "Soldat")
        if rank not in d["ranks"]:
            raise RulesError(place, f"unknown rank '{rank}'; choose one of {', '.join(d['ranks'])}")
        prof = dict(d["ranks"][rank])
        prof.update({k: spec[k] for k in ("V", "I", "A", "F", "PV") if k in spec})
        name = spec.get("loadout", "rifleman")
        if name not in d["loadouts"]:
            raise RulesError(place, f"unknown loadout '{name}'")
        loadout = dict(d["loadouts"][name])
        for key in ("shooting", "blade", "grenades", "medipack", "scope", "trap_kits"):
            if key in spec:
                loadout[key] = spec[key]
        for key in ("shooting", "blade"):
            item = loadout.get(key)
            if item and d["arsenal"].get(item, {}).get("kind") != key:
                raise RulesError(place, f"'{item}' is not a {key} weapon of the arsenal")
        if not loadout.get("shooting"):
            raise RulesError(place, "a figure carries exactly one shooting weapon")
        if loadout["scope"] and weapon(loadout["shooting"])["range"] < const("sniper_min_range"):
            raise RulesError(place, "a sniper scope needs a weapon of range 20 or more")
        fid = spec.get("id") or f"{SIDE_PREFIX[side]}{index + 1}"
        pv = min(int(spec.get("pv", prof["PV"])), int(prof["PV"]))
        return Figure(id=fid, side=side, name=spec.get("name", rank), rank=rank, V=int(prof["V"]), I=int(prof["I"]),
                      A=int(prof["A"]), F=int(prof["F"]), pv=pv, max_pv=int(prof["PV"]), tile=(0, 0),
                      weapon=loadout["shooting"], blade=loadout.get("blade"),
                      grenades=min(int(loadout["grenades"]), const("max_grenades")),
                      medipack=bool(loadout["medipack"]), scope=bool(loadout["scope"]),
                      trap_kits=min(int(loadout["trap_kits"]), const("max_trap_kits")))

    def _map_objects(self, state: State) -> None:
        """Emplacements, items and pre-placed traps from the map's object layers (4.10, 4.6)."""
        bf = state.battlefield
        d = data()
        for obj in bf.objects_of("emplacement"):
            props = obj.properties
            name = props.get("weapon", d["emplacement_default"]["weapon"])
            if name not in d["arsenal"] or d["arsenal"][name]["kind"] != "shooting":
                raise RulesError(f"emplacement {obj.name}", f"unknown shooting weapon '{name}'")
            profile = dict(d["arsenal"][name])
            for key in ("range", "A", "F"):
                if key in props:
                    profile[key] = int(props[key])
            working = str(props.get("state", d["emplacement_default"]["state"])).lower() != "broken"
            state.emplacements.append(Emplacement(state.new_id("e"), obj.name or name, tuple(obj.tiles),
                                                  profile, working))
        for obj in bf.objects_of("item"):
            name = obj.properties.get("item", obj.name if obj.name in d["arsenal"] else "grenade")
            if name not in d["arsenal"]:
                raise RulesError(f"item {obj.name}", f"unknown item '{name}'")
            for t in obj.tiles[:1]:
                state.items.append(Item(state.new_id("i"), name, t))
        for obj in bf.objects_of("trap"):
            owner = int(obj.properties.get("owner", -1))
            decoy = obj.properties.get("decoy", False)
            real = not (decoy is True or str(decoy).strip().lower() in ("true", "1", "yes"))
            tokens = [Token(state.new_id("t"), t, owner, real) for t in obj.tiles]
            state.tokens.extend(tokens)
            state.traps.append([tk.id for tk in tokens])

    # --- the procedure -------------------------------------------------------------------

    def context(self, state: State, dice) -> Game:
        return Game(state, dice)

    def refill(self, game: Game) -> bool:
        """The stack runs dry once a turn has ended: the next one begins, unless the battle is over."""
        if game.state.over:
            return False
        game.state.steps.push(StartTurn())
        return True

    def phase(self, state: State) -> str:
        if state.over:
            return "over"
        d = state.steps.waiting
        return "" if d is None else d.kind if d.kind in ("initiative", "activate") else "action"

    def tactical_ai(self, seed: int, level: str = "normal"):
        from .ai import EisdrachenAI

        return EisdrachenAI(seed, level)

    # --- views -----------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        details = points(state).lines() if state.reason == TURN_LIMIT else ()
        return Outcome(state.winner, state.reason, details)

    def figures(self, state: State, viewer: int | None) -> list[FigureView]:
        out = []
        n = state.turn
        active = active_figure(state)
        for f in state.figures:
            if f.hidden and viewer is not None and viewer != f.side:
                continue
            seen = f.statuses_seen_by(viewer)
            marks = []
            if f.pv < f.max_pv:
                marks.append("wounded")
            if f.hidden:
                marks.append("hidden")
            if f.dug_in:
                marks.append("dug_in")
            marks += [m for m in STATUS_MARKERS if any(t >= n for t in seen.get(m, ()))]
            if f.vengeance_next or f.vengeance_now:
                marks.append("vengeance")
            if f.id == active:
                marks.append("active")
            elif f.activated:
                marks.append("activated")
            out.append(FigureView(f.id, f.side, f.tile, f.name, (Gauge("pv", f.pv, f.max_pv),),
                                  tuple(Marker(m) for m in marks), f.alive, kind=trade(f)))
        return out

    def tokens(self, state: State, viewer: int | None) -> list[TokenView]:
        """Each token as the viewer sees it, with the 2 pas within which any figure sets it off (4.6)."""
        return [TokenView(t.id, t.tile, t.owner, t.seen_as(viewer), radius=const("trap_radius"))
                for t in state.tokens]

    def notice(self, event) -> Words | None:
        """A trap going off is announced on screen, beside its line in the log."""
        if event.kind == "trap":
            return Words("notice.trap", **event.data)
        return super().notice(event)

    def overlays(self, state: State, viewer: int | None) -> list[Overlay]:
        return objective_overlays(state.battlefield)

    def panels(self, state: State, viewer: int | None) -> list[Panel]:
        found = objective_panel(state.battlefield, self.figures(state, viewer))
        return [found] if found else []

    def objects(self, state: State, viewer: int | None) -> list[ObjectView]:
        return [ObjectView(e.id, e.name, tuple(e.tiles), "working" if e.working else "broken")
                for e in state.emplacements] + [ObjectView(i.id, i.name, (i.tile,)) for i in state.items]

    # --- what each side may know --------------------------------------------------------

    def observe(self, state: State, side: int) -> State:
        """Hidden enemies are absent, enemy tokens may all be real, and an enemy's statuses are those
        ``side`` has seen it gain: the rest (a prayer or an alarm heard in hiding) it does not know of."""
        obs = copy.deepcopy(state)
        obs.figures = [f for f in obs.figures if f.side == side or not f.hidden]
        for f in obs.figures:
            if f.side != side:
                f.statuses, f.unseen, f.pv_when_hidden = f.statuses_seen_by(side), {}, 0
        for t in obs.tokens:
            if t.owner != side:
                t.real = True
        return obs

    def disguise(self, state: State, side: int, rng) -> State:
        """Which token of each enemy trap is real, the PV of a hidden enemy (at least what it hid with and
        has healed since) and the blessing or alert an enemy gained unseen are drawn afresh. A hidden
        enemy keeps its tile: it was seen hiding there and cannot move without leaving its hiding place."""
        out = copy.deepcopy(state)
        for group in out.traps:
            tokens = [t for t in out.tokens if t.id in group and t.owner != side]
            flags = [t.real for t in tokens]
            rng.shuffle(flags)
            for t, real in zip(tokens, flags):
                t.real = real
        for f in out.figures:
            if f.side == side or not f.alive:
                continue
            if f.hidden:
                healed = f.hide_count - 1 if f.hide_count > 2 else 0
                f.pv = rng.randint(min(f.max_pv, f.pv_when_hidden + healed), f.max_pv)
            drawn = [(rng.choice(list(act.PRAYER.values())) if status in act.PRAYER.values()
                      else rng.choice([status, None]), turns) for status, turns in sorted(f.unseen.items())]
            f.statuses = f.statuses_seen_by(side)
            f.unseen = {}
            for status, turns in drawn:
                if status:
                    f.add_status(status, turns, unseen=True)
        return out

    # --- odds ------------------------------------------------------------------------------

    def odds(self, state: State, option: Option) -> Odds | None:
        a = option.action
        if a in ("shoot", "sniper", "use_fire") and option.figure and option.target:
            fig, target = state.figure(option.figure), state.figure(option.target)
            if a == "use_fire":
                profile = next(e for e in state.emplacements if e.id == option.value).weapon
            else:
                profile = weapon(fig.weapon)
            return self.shot_odds(state, fig, target, profile, a == "sniper")
        if a in ("melee", "contact"):
            return self.melee_odds(state, state.figure(option.figure), state.figure(option.target))
        if a == "riposte":
            striker, victim = state.figure(option.figure), state.figure(option.target)
            dist = self.strike_loss(state, striker, victim)
            return Odds("riposte", labelled(dist), {"expected": mean(dist), "kill": kill_chance(dist, victim.pv)})
        if a == "grenade":
            return self.grenade_odds(state, state.figure(option.figure), option.tile)
        if a == "jump":
            return Odds("jump", {"full": Fraction(5, 6), "short": Fraction(1, 6)})
        if a == "pray":
            return Odds("pray", {f"result:{k}": Fraction(1, 5) for k in range(1, 6)})
        return None

    def shot_odds(self, state: State, fig: Figure, target: Figure, profile: dict, sniper: bool) -> Odds:
        n = state.turn
        attacks = shot_attacks(profile["A"], fig, target, n)
        dist = attack_loss(attacks, profile["F"], None if sniper else dodge_on(target.I),
                           target.has("dodge_reroll", n), fig.I, fig.has("wound_reroll", n))
        return Odds("sniper" if sniper else "shoot", labelled(dist),
                    {"attacks": attacks, "expected": mean(dist), "kill": kill_chance(dist, target.pv)})

    def strike_loss(self, state: State, striker: Figure, victim: Figure) -> dict:
        n = state.turn
        a, f = melee_profile(striker)
        a *= 2 if striker.has("double_attacks", n) else 1
        return attack_loss(a, f, dodge_on(victim.I), victim.has("dodge_reroll", n), striker.I,
                           striker.has("wound_reroll", n))

    def melee_odds(self, state: State, fig: Figure, target: Figure) -> Odds:
        """Both strikes, assuming the target ripostes whenever it may (4.5)."""
        n = state.turn
        wolf = target.has("wolf_trapped", n)
        if target.I == 1:
            first = None if wolf else self.strike_loss(state, target, fig)
            second = self.strike_loss(state, fig, target)
            if first is None:
                lost_target, lost_fig = second, {0: Fraction(1)}
            else:
                lost_fig, lost_target = melee_losses(first, fig.pv, second)
        else:
            first = self.strike_loss(state, fig, target)
            second = None if wolf else self.strike_loss(state, target, fig)
            lost_target, lost_fig = melee_losses(first, target.pv, second)
        return Odds("melee", labelled(lost_target), {
            "attacker_pv_lost": labelled(lost_fig), "expected": mean(lost_target),
            "attacker_expected": mean(lost_fig), "kill": kill_chance(lost_target, target.pv),
            "attacker_killed": kill_chance(lost_fig, fig.pv), "target_strikes_first": target.I == 1})

    def grenade_odds(self, state: State, fig: Figure, aim: Tile) -> Odds:
        """Per figure, PV lost mixed over the six bounces (4.4)."""
        n = state.turn
        landings: dict[str, Fraction] = {}
        parts: dict[str, list] = {}
        sixth = Fraction(1, 6)
        for k in range(1, 7):
            landing, _ = space.scatter_along(state.battlefield, fig.tile, aim, k)
            key = f"landing:{act.tile_key(landing)}"
            landings[key] = landings.get(key, Fraction(0)) + sixth
            for v in act.blast_victims(state, landing):
                dist = attack_loss(const("grenade_attacks"), const("grenade_force"), const("grenade_dodge_on"),
                                   v.has("dodge_reroll", n), fig.I, fig.has("wound_reroll", n))
                parts.setdefault(v.id, []).append((sixth, dist))
        per_figure = {}
        expected = {}
        for fid, p in parts.items():
            hit = sum(w for w, _ in p)
            dist = mixture(p + ([(1 - hit, {0: Fraction(1)})] if hit < 1 else []))
            per_figure[fid] = labelled(dist)
            expected[fid] = mean(dist)
        return Odds("grenade", landings, {"figures": per_figure, "expected": expected,
                                          "blast_radius": const("grenade_blast_radius")})

    # --- checks ----------------------------------------------------------------------------

    def check_invariants(self, state: State) -> list[str]:
        bf = state.battlefield
        problems = []
        seen: dict[Tile, str] = {}
        for f in state.figures:
            if not 0 <= f.pv <= f.max_pv:
                problems.append(f"{f.id}: PV {f.pv} outside 0..{f.max_pv}")
            if f.alive != (f.pv > 0):
                problems.append(f"{f.id}: alive={f.alive} with PV {f.pv}")
            if not f.alive:
                continue
            x, y = f.tile
            if not bf.inside(f.tile) or not (bf.can_stand(f.tile) or bf.perch[y, x] or bf.crawl_gap[y, x]):
                problems.append(f"{f.id}: stands on {f.tile}, which it may not occupy")
            if f.tile in seen:
                problems.append(f"{f.id}: shares {f.tile} with {seen[f.tile]}")
            seen[f.tile] = f.id
            if f.hidden and not bf.hiding[y, x]:
                problems.append(f"{f.id}: hidden off a hiding place")
            if f.hidden and any(e.alive and e.side != f.side and space.within(e.tile, f.tile, const("hide_discovery"))
                                for e in state.figures):
                problems.append(f"{f.id}: hidden with an enemy within 3 pas")
            if not f.hidden and f.hide_count:
                problems.append(f"{f.id}: hiding counter {f.hide_count} while not hidden")
            expired = sorted(k for k, turns in f.statuses.items() if not turns or min(turns) < state.turn)
            if expired:
                problems.append(f"{f.id}: statuses {expired} outlived their turns")
            unknown = sorted(k for k, turns in f.unseen.items() if not set(turns) <= set(f.statuses.get(k, ())))
            if unknown:
                problems.append(f"{f.id}: unseen statuses {unknown} it does not have")
            if f.allowance < 0:
                problems.append(f"{f.id}: negative action count")
        if any(isinstance(s, Act) and s.left < 0 for s in state.steps.upcoming()):
            problems.append("an activation with a negative action count")
        d = state.steps.waiting
        if d is not None and d.kind == "action" and not state.figure(d.figure).alive:
            problems.append(f"{d.figure}: asked for an action while dead")
        if state.over != (d is None):
            problems.append("the battle is over but a decision waits" if state.over else "no decision waits")
        tiles = [t.tile for t in state.tokens]
        if len(tiles) != len(set(tiles)):
            problems.append("two trap tokens share a tile")
        return problems
