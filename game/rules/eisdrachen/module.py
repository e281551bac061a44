"""The Eisdrachen rule module: turn structure (rules/eisdrachen.md 3.2), decisions and victory.

Project defaults and readings documented here (the spec leaves them open):
- Turn 1 opens with an "initiative" decision holding one option, because no die may be rolled
  while the state is built; later initiatives are rolled when the previous turn ends.
- Victory: the side that kills every enemy wins; after ``max_turns`` the side with more total
  remaining PV wins, equal totals are a draw.
- A melee riposte and an alarm riposte are decisions of the defending side; rerolls are not
  (combat.py). Holding an alarm riposte does not use it up for the turn.
- Crawl and Climb options are listed only for tiles a Move cannot reach, so one tile is not
  offered three times; a Melee whose contact move has a single tile makes it without asking.
- A wolf-trapped Bleu does not strike first: it "can do nothing" that turn.
- Picking up a shooting weapon swaps it for the one carried (a figure carries exactly one).
- A hidden enemy does not shape the other side's options (that would show where it is); a move
  that runs into one, found on the way, stops in front of it, and a jump lands short of it.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ...engine import space
from ...engine.battlefield import Battlefield, Tile
from ...engine.decision import Decision, Option
from ...engine.deploy import deploy
from ...engine.dice import Dice, mean
from ...engine.events import Event
from ...engine.tokens import Token
from ...errors import RulesError
from ...engine.protocol import Army, FigureView, Gauge, Marker, ObjectView, Odds, Outcome, RuleModule, TokenView
from . import actions as act
from .combat import dodge_on, melee_profile, shot_attacks, strike, weapon
from .odds import attack_loss, kill_chance, labelled, melee_losses, mixture
from .state import DATA_FILE, SIDE_PREFIX, Emplacement, Figure, Item, State, const, data

STATUS_MARKERS = ("alerted", "emp", "wolf_trapped", "lucky", "dodge_reroll", "wound_reroll", "double_attacks")
MOVES = {"move": ("4.1", space.WALK), "crawl": ("4.1bis", space.CRAWL), "climb": ("4.2", space.CLIMB)}


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
        return state

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
            state.emplacements.append(Emplacement(state.new_id("e"), obj.name or profile["name"], tuple(obj.tiles),
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
            for t in obj.tiles:
                state.tokens.append(Token(state.new_id("t"), t, owner, real))

    # --- decisions -----------------------------------------------------------------------

    def context(self, state, dice):
        raise RulesError(self.id, "runs on its own turn machinery until it is moved onto the step stack")

    def refill(self, game) -> bool:
        raise RulesError(self.id, "runs on its own turn machinery until it is moved onto the step stack")

    def tactical_ai(self, seed: int, level: str = "normal"):
        from ...ai.eisdrachen import EisdrachenAI

        return EisdrachenAI(seed)

    def pending(self, state: State) -> Decision | None:
        if state.over:
            return None
        if state.sub:
            return self._sub_decision(state)
        if state.phase == "initiative":
            return Decision(0, "initiative", (Option("roll", "roll"),), info={"turn": state.turn})
        if state.phase == "activate":
            opts = tuple(Option(f"activate:{f.id}", "activate", f.id, f.tile)
                         for f in state.living(state.to_act) if not f.activated)
            return Decision(state.to_act, "activate", opts, info={"turn": state.turn})
        fig = state.figure(state.active)
        return Decision(fig.side, "action", tuple(act.action_options(state, fig)), figure=fig.id,
                        info={"turn": state.turn, "actions_left": state.actions_left})

    def _sub_decision(self, state: State) -> Decision:
        sub = state.sub
        kind, side = sub["kind"], sub["side"]
        fig = state.figure(sub["figure"])
        if kind == "melee_contact":
            opts = act.contact_options(state, fig, state.figure(sub["target"]))
        elif kind == "riposte":
            opts = [Option("riposte", "riposte", fig.id, target=sub["target"]),
                    Option("no_riposte", "no_riposte", fig.id, target=sub["target"])]
        elif kind == "alarm_riposte":
            opts = [Option("shoot", "shoot", fig.id, target=sub["target"]),
                    Option("hold", "hold", fig.id, target=sub["target"])]
        elif kind == "trap_token":
            opts = act.token_options(state, fig, [tuple(t) for t in sub["chosen"]])
        elif kind == "trap_real":
            opts = [Option(f"real:{act.tile_key(tuple(t))}", "trap_real", fig.id, tuple(t)) for t in sub["tiles"]]
        else:
            tiles = [tk.tile for tk in state.tokens if tk.id in sub["tokens"]]
            opts = act.flee_options(state, fig, tiles)
        secret = kind in ("trap_token", "trap_real")
        return Decision(side, kind, tuple(opts), figure=fig.id, secret=secret,
                        info={"turn": state.turn, **{k: v for k, v in sub.items() if k not in ("kind", "side")}})

    # --- answers -------------------------------------------------------------------------

    def apply(self, state: State, option: Option, dice: Dice) -> list[Event]:
        events: list[Event] = []
        if state.sub:
            sub, state.sub = state.sub, None
            self._answer_sub(state, sub, option, dice, events)
        elif state.phase == "initiative":
            self._start_turn(state, dice, events)
        elif state.phase == "activate":
            fig = state.figure(option.figure)
            fig.activated = True
            state.active, state.actions_left, state.phase = fig.id, fig.allowance, "action"
            events.append(Event("activation", {"figure": fig.id, "side": fig.side, "actions": fig.allowance},
                                visible_to=fig.side if fig.hidden else None, rule="3.2"))
        else:
            self._action(state, state.figure(state.active), option, dice, events)
        self._advance(state, dice, events)
        return events

    def _action(self, state: State, fig: Figure, option: Option, dice: Dice, events: list) -> None:
        a = option.action
        if a == "end":
            state.actions_left = 0
            return
        if a == "unhide":
            act.leave_hiding(fig, events, "left")
            return
        if fig.hidden and not (a == "pray" or (a == "heal" and option.target == fig.id)):
            act.leave_hiding(fig, events, "left")
        vis = fig.side if fig.hidden else None
        state.actions_left -= 1
        events.append(Event("action", {"figure": fig.id, "action": a, "key": option.key}, visible_to=vis,
                            rule="3.2"))
        if a in MOVES:
            rule, mode = MOVES[a]
            act.walk(state, fig, option.path, dice, events, rule, mode)
        elif a == "jump":
            act.jump(state, fig, option, dice, events)
        elif a in ("shoot", "sniper", "use_fire"):
            target = state.figure(option.target)
            if a == "use_fire":
                profile = next(e for e in state.emplacements if e.id == option.value).weapon
            else:
                profile = weapon(fig.weapon)
            act.shoot(state, fig, target, profile, dice, events, a == "sniper",
                      {"shoot": "4.3", "sniper": "4.7", "use_fire": "4.10"}[a])
            if act.may_alarm_riposte(state, target, fig):
                state.sub = {"kind": "alarm_riposte", "side": target.side, "figure": target.id, "target": fig.id}
        elif a == "melee":
            target = state.figure(option.target)
            if space.adjacent(fig.tile, target.tile):
                self._melee(state, fig, target, dice, events)
            else:
                contacts = act.contact_options(state, fig, target)
                if len(contacts) == 1:
                    self._contact(state, fig, target, contacts[0].path, dice, events)
                else:
                    state.sub = {"kind": "melee_contact", "side": fig.side, "figure": fig.id, "target": target.id}
        elif a == "grenade":
            act.grenade(state, fig, option.tile, dice, events)
        elif a == "trap_spot":
            fig.trap_kits -= 1
            tk = Token(state.new_id("t"), option.tile, fig.side, True)
            state.tokens.append(tk)
            events.append(Event("trap_placed", {"figure": fig.id, "mode": "A", "tokens": [
                {"id": tk.id, "tile": list(tk.tile)}]}, rule="4.6"))
            state.sub = {"kind": "flee", "side": fig.side, "figure": fig.id, "tokens": [tk.id]}
        elif a == "trap_open":
            fig.trap_kits -= 1
            state.sub = {"kind": "trap_token", "side": fig.side, "figure": fig.id, "chosen": []}
        elif a == "hide":
            fig.hidden, fig.hide_count = True, 0
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

    def _contact(self, state: State, fig: Figure, target: Figure, path, dice: Dice, events: list) -> None:
        """The free move into base contact (4.5); a trap on the way may stop it short."""
        act.walk(state, fig, tuple(path), dice, events, "4.5")
        if fig.alive and target.alive and not target.hidden and space.adjacent(fig.tile, target.tile):
            self._melee(state, fig, target, dice, events)
        else:
            events.append(Event("melee_cancelled", {"figure": fig.id, "target": target.id}, rule="4.5"))

    def _melee(self, state: State, attacker: Figure, target: Figure, dice: Dice, events: list) -> None:
        """The declaring figure strikes first unless the target is a Bleu; one riposte at most."""
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
            state.sub = {"kind": "riposte", "side": target.side, "figure": target.id, "target": attacker.id}

    def _answer_sub(self, state: State, sub: dict, option: Option, dice: Dice, events: list) -> None:
        kind = sub["kind"]
        fig = state.figure(sub["figure"])
        if kind == "melee_contact":
            self._contact(state, fig, state.figure(sub["target"]), option.path, dice, events)
        elif kind == "riposte":
            if option.key == "riposte":
                strike(state, fig, state.figure(sub["target"]), dice, events)
        elif kind == "alarm_riposte":
            if option.key == "shoot":
                fig.alarm_used_turn = state.turn
                act.shoot(state, fig, state.figure(sub["target"]), weapon(fig.weapon), dice, events, False, "4.14")
        elif kind == "trap_token":
            chosen = sub["chosen"] + [list(option.tile)]
            events.append(Event("trap_token", {"figure": fig.id, "tile": list(option.tile)}, rule="4.6"))
            if len(chosen) < 3:
                state.sub = {**sub, "chosen": chosen}
            else:
                state.sub = {"kind": "trap_real", "side": sub["side"], "figure": fig.id, "tiles": chosen}
        elif kind == "trap_real":
            tokens = [Token(state.new_id("t"), tuple(t), fig.side, tuple(t) == option.tile) for t in sub["tiles"]]
            state.tokens.extend(tokens)
            events.append(Event("trap_placed", {"figure": fig.id, "mode": "B", "tokens": [
                {"id": tk.id, "tile": list(tk.tile)} for tk in tokens]}, rule="4.6"))
            real = next(tk for tk in tokens if tk.real)
            events.append(Event("trap_real", {"figure": fig.id, "token": real.id, "tile": list(real.tile)},
                                visible_to=fig.side, rule="4.6"))
            state.sub = {"kind": "flee", "side": sub["side"], "figure": fig.id, "tokens": [tk.id for tk in tokens]}
        elif kind == "flee":
            act.walk(state, fig, option.path, dice, events, "4.6", immune=tuple(sub["tokens"]))
            if not option.path:
                events.append(Event("moved", {"figure": fig.id, "from": list(fig.tile), "to": list(fig.tile),
                                              "path": []}, rule="4.6"))

    # --- turn structure ------------------------------------------------------------------

    def _advance(self, state: State, dice: Dice, events: list) -> None:
        while not state.sub and not self._finished(state, events):
            if state.phase == "action":
                fig = state.figure(state.active)
                if fig.alive and state.actions_left > 0:
                    return
                events.append(Event("activation_end", {"figure": fig.id},
                                    visible_to=fig.side if fig.hidden else None, rule="3.2"))
                state.active, state.actions_left, state.phase = None, 0, "activate"
                other = 1 - fig.side
                state.to_act = other if self._waiting(state, other) else fig.side
            if state.phase == "activate":
                if self._waiting(state, state.to_act):
                    return
                if self._waiting(state, 1 - state.to_act):
                    state.to_act = 1 - state.to_act
                    return
                self._end_turn(state, events)
                if state.over:
                    return
                self._start_turn(state, dice, events)
            else:
                return

    @staticmethod
    def _waiting(state: State, side: int) -> bool:
        return any(not f.activated for f in state.living(side))

    def _finished(self, state: State, events: list) -> bool:
        if state.over:
            return True
        alive = [bool(state.living(s)) for s in self.sides]
        if all(alive):
            return False
        state.over, state.phase = True, "over"
        state.winner = alive.index(True) if any(alive) else None
        state.reason = "elimination"
        events.append(Event("game_over", {"winner": state.winner, "reason": state.reason}, rule="victory"))
        return True

    def _end_turn(self, state: State, events: list) -> None:
        n = state.turn
        for f in state.living():
            if f.hidden:
                f.hide_count += 1
                gain = 2 if f.hide_count == 3 else 1 if f.hide_count > 3 else 0
                before = f.pv
                f.pv = min(f.max_pv, f.pv + gain)
                events.append(Event("hidden_turn", {"figure": f.id, "count": f.hide_count, "healed": f.pv - before,
                                                    "pv": f.pv}, visible_to=f.side, rule="4.8"))
            f.statuses = {k: [t for t in v if t > n] for k, v in f.statuses.items() if any(t > n for t in v)}
            f.vengeance_now = 0
        events.append(Event("turn_end", {"turn": n}, rule="3.2"))
        if n >= state.max_turns:
            totals = [sum(f.pv for f in state.living(s)) for s in self.sides]
            state.over, state.phase, state.reason = True, "over", "turn_limit"
            state.winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
            events.append(Event("game_over", {"winner": state.winner, "reason": state.reason, "pv": totals},
                                rule="victory"))
            return
        state.turn = n + 1

    def _start_turn(self, state: State, dice: Dice, events: list) -> None:
        n = state.turn
        base = const("allowance")
        for f in state.figures:
            f.activated = False
            if not f.alive:
                continue
            f.vengeance_now, f.vengeance_next = f.vengeance_next, 0
            f.allowance = 0 if f.has("wolf_trapped", n) else base + f.vengeance_now
        while True:
            rolls = [dice.d(6, "3.2") for _ in self.sides]
            for s, r in zip(self.sides, rolls):
                events.append(Event("dice", {"figure": None, "side": s, "purpose": "initiative", "values": [r],
                                             "sides": 6}, rule="3.2"))
            if rolls[0] != rolls[1]:
                break
        state.initiative = state.to_act = 0 if rolls[0] > rolls[1] else 1
        state.phase = "activate"
        events.append(Event("turn", {"turn": n, "initiative": state.initiative}, rule="3.2"))

    # --- views -----------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        return Outcome(state.winner, state.reason) if state.over else None

    def figures(self, state: State, viewer: int | None) -> list[FigureView]:
        out = []
        n = state.turn
        for f in state.figures:
            if f.hidden and viewer is not None and viewer != f.side:
                continue
            marks = []
            if f.pv < f.max_pv:
                marks.append("wounded")
            if f.hidden:
                marks.append("hidden")
            if f.dug_in:
                marks.append("dug_in")
            marks += [m for m in STATUS_MARKERS if any(t >= n for t in f.statuses.get(m, ()))]
            if f.vengeance_next or f.vengeance_now:
                marks.append("vengeance")
            if f.id == state.active:
                marks.append("active")
            elif f.activated:
                marks.append("activated")
            out.append(FigureView(f.id, f.side, f.tile, f.name, (Gauge("pv", f.pv, f.max_pv),),
                                  tuple(Marker(m) for m in marks), f.alive, kind=f.rank))
        return out

    def tokens(self, state: State, viewer: int | None) -> list[TokenView]:
        return [TokenView(t.id, t.tile, t.owner, t.seen_as(viewer)) for t in state.tokens]

    def objects(self, state: State, viewer: int | None) -> list[ObjectView]:
        return [ObjectView(e.id, e.name, tuple(e.tiles), "working" if e.working else "broken")
                for e in state.emplacements] + [ObjectView(i.id, i.name, (i.tile,)) for i in state.items]

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
            landing, _ = space.scatter(state.battlefield, fig.tile, aim, k)
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
            if f.allowance < 0 or (f.id == state.active and state.actions_left < 0):
                problems.append(f"{f.id}: negative action count")
        if state.phase == "action" and not state.over and not state.sub:
            if state.active is None or not state.figure(state.active).alive:
                problems.append("action phase without a living active figure")
        tiles = [t.tile for t in state.tokens]
        if len(tiles) != len(set(tiles)):
            problems.append("two trap tokens share a tile")
        return problems
