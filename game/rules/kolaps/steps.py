"""The KOLAPS turn as typed steps on the engine's step stack (§3): initiative auction, activations, assessment.

Each step is a small dataclass; the module's ``refill`` pushes the next activation, the assessment or the
next turn when the stack runs dry. A step that needs an answer returns a ``Decision`` and reads the answer
when it runs again. Engagements are checked after every step (§5.19, A21).
"""
from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field

from ...engine import events as ev
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.dice import roll_off
from ...engine.objectives import TURN_LIMIT, Piece, Score, score
from ...engine.steps import Step
from .combat import (behind_cover, blast_difficulty, line_of_sight, severity_dice, shot_band, shot_difficulty,
                     strike_difficulty, traits, zone_modifier)
from .effects import Ctx, controller, hostile
from .model import MUTINOUS, NORMAL, PINNED, ROUTING, SHELTERED, TOTAL_BOXES, WITHDRAWING, ZONES, Character, Order
from .options import (AMBUSH_ACTIONS, ATTACKS, Conduct, action_options, destinations, friendly_crossed,
                      legal_target, order_of, weapon)

ROUTED, BOTH_ROUTED = "routed", "both_routed"       # the project's rout ends (docs/rules-kolaps.md)


@dataclass
class KolapsStep(Step):
    """A step of the KOLAPS turn: after it, every engagement left without two opposing sides ends."""

    def run(self, game: Ctx) -> Decision | None:
        decision = self.resolve(game)
        game.check_engagements()
        return decision

    @abstractmethod
    def resolve(self, game: Ctx) -> Decision | None:
        """The step's own work; a decision to wait for one."""


def push(game: Ctx, *steps: Step) -> None:
    game.state.steps.push(*steps)


def activatable(game: Ctx, side: int) -> list[Character]:
    return [c for c in game.in_play() if controller(c) == side and not c.activated_this_turn]


def next_side(game: Ctx) -> int | None:
    """The side of the next regular activation (§3.4, A15), or None when every character has acted."""
    state = game.state
    first = state.to_play if state.last_actor_side is None else 1 - state.last_actor_side
    for side in (first, 1 - first):
        if activatable(game, side):
            return side
    return None


# --- setup and phase 1 --------------------------------------------------------------

@dataclass
class Setup(KolapsStep):
    """§3.1: once both players sit down, initial morale, then the roll-off for the first speaker."""

    def run(self, game: Ctx) -> Decision | None:
        if self.answer is None:         # nothing has happened yet, not even a scenario's engagements ending
            return Decision(0, "start", (Option("begin", "begin"),), info={"rule": "3.1"})
        return super().run(game)

    def resolve(self, game: Ctx) -> Decision | None:
        self.take_answer()
        state = game.state
        state.turn = 1
        for ch in sorted(state.chars.values(), key=lambda c: (c.side, c.id)):
            if ch.is_avatar and not ch.morale_preset:
                ch.morale = 6
            elif not ch.morale_preset:
                d = game.roll(ch, "initial_morale", 1, "5.21")[0]
                ch.morale = initial_morale(ch.rng_initial, d)
            game.ev("morale", "5.21", figure=ch.id, before=None, after=ch.morale, cause="initial")
        winner, pairs = roll_off(game.dice, 6, "kolaps 3.1 first_speaker_roll_off")
        for pair in pairs:
            game.events.append(ev.dice(None, pair, "first_speaker_roll_off", "3.1"))
        state.first_speaker = winner
        game.ev("first_speaker", "3.1", side=winner)
        state.phase = "setup"
        return None


def initial_morale(rank: int, die: int) -> int:
    if rank + die >= 6:
        return 6
    return 4 if die == 1 else 5


def eligible(game: Ctx, ch: Character) -> bool:
    return (ch.in_play and ch.morale >= 3 and ch.no_offensive_turn != game.turn and not ch.never_offensive
            and not ch.no_offensive_next_activation and ch.morale_state == NORMAL and controller(ch) == ch.side)


def eligible_count(game: Ctx, side: int) -> int:
    return sum(1 for c in game.in_play() if c.side == side and eligible(game, c))


@dataclass
class TurnStart(KolapsStep):
    """§3.2–§3.3: a new turn clears the offensive boxes and opens the auction."""

    def resolve(self, game: Ctx) -> Decision | None:
        state = game.state
        if state.phase == "assessment":
            state.turn += 1
        state.phase = "initiative"
        game.events.append(ev.turn(state.turn, "3.2"))
        game.events.append(ev.phase("initiative", "3.2"))
        for ch in game.in_play():
            ch.offensive = False
            ch.directive_lost = False
            ch.ignores = []
            if ch.ready_weapon in ch.jammed and "pistol" in ch.weapons and "pistol" not in ch.jammed:
                if ch.left_hand == "pistol":
                    ch.left_hand = None
                ch.ready_weapon = "pistol"
                game.ev("weapon_ready", "5.34.8", figure=ch.id, weapon="pistol")
            ch.knife_foes = ([e.id for e in game.in_play() if hostile(ch, e) and space.adjacent(ch.tile, e.tile)]
                             if "knife" in ch.weapons else [])
        speaker = state.first_speaker if state.turn == 1 else state.defender
        barred = state.barred
        state.barred = None
        e = {s: eligible_count(game, s) for s in (0, 1)}
        state.auction = {"E": e, "high": None, "high_bidder": None, "last": {}, "barred": barred}
        if barred is not None:
            game.ev("auction_barred", "3.3", side=barred)
            push(game, Bid(1 - barred, free=True), Bid(barred, free=True))
        else:
            push(game, Bid(speaker))
        return None


def bid_decision(game: Ctx, side: int) -> Decision:
    a = game.state.auction
    e = a["E"][side]
    high = a["high"]
    opts = []
    for n in range(e + 1):
        label = "bid" if high is None or n > high else "stop"
        opts.append(Option(f"bid:{n}", label, value=n))
    return Decision(side, "bid", tuple(opts), secret=True,
                    info={"rule": "3.3", "high_bid": high, "high_bidder": a["high_bidder"], "E": dict(a["E"]),
                          "free": a["barred"] is not None})


@dataclass
class Bid(KolapsStep):
    """One announcement of the auction (§3.3, A9); a barred turn has two free announcements (A10)."""

    side: int
    free: bool = False

    def resolve(self, game: Ctx) -> Decision | None:
        a = game.state.auction
        answer = self.take_answer()
        if answer is None:
            return bid_decision(game, self.side)
        n = answer.value
        game.ev("bid", "3.3", visible_to=self.side, side=self.side, count=n)
        game.ev("bid_revealed", "3.3", side=self.side, count=n)
        a["last"][str(self.side)] = n
        if self.free:
            if a["barred"] is not None and self.side == a["barred"]:
                finish_auction(game, 1 - self.side)
            return None
        if a["high"] is None or n > a["high"]:
            a["high"], a["high_bidder"] = n, self.side
            push(game, Bid(1 - self.side))
            return None
        finish_auction(game, a["high_bidder"])
        return None


def finish_auction(game: Ctx, attacker: int) -> None:
    state = game.state
    a = state.auction
    state.attacker, state.defender = attacker, 1 - attacker
    counts = {s: a["last"].get(str(s), 0) for s in (0, 1)}
    a["counts"] = {str(s): counts[s] for s in (0, 1)}
    game.ev("auction_won", "3.3", attacker=attacker, defender=1 - attacker,
            counts={str(k): v for k, v in counts.items()})
    push(game, Select(state.defender, counts[state.defender]), Select(attacker, counts[attacker]),
         Directives(), FirstPlayer())


@dataclass
class Select(KolapsStep):
    """A side ticks the offensive boxes it announced, one character at a time (A11)."""

    side: int
    left: int

    def resolve(self, game: Ctx) -> Decision | None:
        answer = self.take_answer()
        if answer is not None:
            ch = game.char(answer.figure)
            ch.offensive = True
            game.ev("offensive", "3.3", figure=ch.id, side=self.side)
            self.left -= 1
        candidates = [c for c in game.in_play() if c.side == self.side and eligible(game, c) and not c.offensive]
        if self.left <= 0 or not candidates:
            return None
        opts = tuple(Option(f"pick:{c.id}", "offensive", c.id, c.tile, value=c.morale) for c in candidates)
        return Decision(self.side, "offensive", opts, info={
            "rule": "3.3", "left": self.left, "roll_required": [c.id for c in candidates if c.morale == 3]})


@dataclass
class Directives(KolapsStep):
    """A11, A74: morale-3 characters roll difficulty 1 on receiving the directive."""

    def resolve(self, game: Ctx) -> Decision | None:
        state = game.state
        for ch in sorted(game.in_play(), key=lambda c: (c.side != state.defender, c.id)):
            if ch.offensive and ch.morale == 3 and not game.passes(ch, 1, "directive", "3.3"):
                ch.offensive = False
                ch.directive_lost = ch.side == state.attacker
                game.ev("directive_lost", "3.3", figure=ch.id)
        return None


@dataclass
class FirstPlayer(KolapsStep):
    """§3.4: the attacker says who starts; characters that cannot act this turn are marked activated."""

    def resolve(self, game: Ctx) -> Decision | None:
        state = game.state
        answer = self.take_answer()
        if answer is None:
            opts = (Option("start:me", "start", value=state.attacker),
                    Option("start:opponent", "start", value=state.defender))
            return Decision(state.attacker, "first_player", opts, info={"rule": "3.4"})
        state.to_play = answer.value
        state.last_actor_side = None
        state.phase = "action"
        game.events.append(ev.phase("action", "3.4", first=state.to_play))
        for ch in game.in_play():
            if ch.cannot_activate_turn == state.turn or ch.ko_activations_left > 0:
                if not ch.activated_this_turn:
                    ch.activated_this_turn = True
                    ch.commitment_excused_this_turn = True
                    if ch.cannot_activate_turn != state.turn:
                        ch.ko_activations_left -= 1
                    game.ev("cannot_activate", "3.4", figure=ch.id)
        return None


# --- phase 2: activations -------------------------------------------------------------

@dataclass
class Activate(KolapsStep):
    """The side whose turn it is picks one of its unactivated characters (§3.4)."""

    side: int

    def resolve(self, game: Ctx) -> Decision | None:
        answer = self.take_answer()
        if answer is None:
            opts = tuple(Option(f"activate:{c.id}", "activate", c.id, c.tile) for c in activatable(game, self.side))
            return Decision(self.side, "activate", opts, info={"rule": "3.4"})
        push(game, Activation(answer.figure, "regular"))
        return None


def able(ch: Character) -> bool:
    return ch.in_play and ch.ko_activations_left <= 0


@dataclass
class Activation(KolapsStep):
    """One activation of a character: regular, reaction (§5.20), or an interrupt (ambush §5.15, knife
    §5.34.4, which come with their ``preset`` action). Its stages: the knife window, the start (morale
    tests), then the choice of its one action."""

    fig: str
    mode: str
    attacker: str | None = None
    stage: str = "start"
    preset: str | None = None
    checked: bool = False
    only_target: str | None = None
    no2h: bool = False
    nooff: bool = False
    offered_ambush: bool = False

    @property
    def conduct(self) -> Conduct:
        return Conduct(self.mode, self.no2h, self.nooff, self.only_target)

    def resolve(self, game: Ctx) -> Decision | None:
        ch = game.char(self.fig)
        if not able(ch):
            return None
        if self.stage == "start":
            self.stage = "begin"
            push(game, KnifeWindow(ch.id), self)
            return None
        if self.stage == "begin":
            begin_activation(game, ch, self)
            self.stage = "choose"
            if not able(ch):
                return None
        if self.preset is not None:
            key, self.preset = self.preset, None
            execute(game, ch, self, next((o for o in action_options(game, ch, self.conduct) if o.key == key), None))
            return None
        option = self.take_answer()
        if option is not None:
            if self.needs_target_check(option):
                self.checked = True
                if not game.passes(ch, 3, "reaction_target", "5.20"):
                    self.only_target = self.attacker
                    return self.decision(game, ch)
            execute(game, ch, self, option)
            return None
        return self.decision(game, ch)

    def decision(self, game: Ctx, ch: Character) -> Decision:
        opts = action_options(game, ch, self.conduct)
        self.offered_ambush = any(o.action in AMBUSH_ACTIONS for o in opts)   # declared out of the enemy's sight
        return Decision(controller(ch), "action", tuple(opts), figure=ch.id, secret=self.offered_ambush,
                        info={"rule": "5.2", "mode": self.mode, "attacker": self.attacker})

    def needs_target_check(self, option: Option) -> bool:
        return (self.mode == "reaction" and not self.checked and option.action in ATTACKS
                and option.target != self.attacker)


def begin_activation(game: Ctx, ch: Character, act: Activation) -> None:
    """Start of an activation: ambush ends, one-activation restrictions, morale tests (§5.15, §5.21)."""
    mode = act.mode
    if mode in ("regular", "reaction"):
        game.state.last_actor_side = controller(ch)
    if not ch.activated_this_turn:
        ch.activated_this_turn = True
    game.ev("activation", "3.4", figure=ch.id, mode=mode)
    if mode != "ambush" and ch.ambush_armed:
        ch.ambush_armed = False
        game.ev("ambush_ended", "5.15", visible_to=ch.side, figure=ch.id, reason="own_activation")
    act.no2h = ch.no_two_handed_next_activation
    act.nooff = ch.no_offensive_next_activation
    ch.no_two_handed_next_activation = False
    if ch.no_offensive_next_activation:
        ch.no_offensive_next_activation = False
        ch.commitment_excused_this_turn = True
    if mode in ("ambush", "knife"):
        return
    if ch.morale <= 2:
        ch.commitment_excused_this_turn = True
    if ch.morale_state == PINNED and ch.aff is None:
        ch.morale_state = NORMAL
        game.ev("morale_state", "5.21", figure=ch.id, state=NORMAL)
    if ch.morale == 2 and ch.aff is not None and ch.morale_state not in (WITHDRAWING,):
        state = WITHDRAWING if game.passes(ch, 2, "morale_test", "5.21") else PINNED
        ch.morale_state = state
        game.ev("morale_state", "5.21", figure=ch.id, state=state)
    elif ch.morale == 1 and ch.morale_state not in (ROUTING, MUTINOUS):
        if game.passes(ch, 1, "morale_test", "5.21"):
            ch.morale_state = ROUTING
        else:
            avatar = next((c for c in game.in_play() if c.side == ch.side and c.is_avatar), None)
            ch.morale_state = MUTINOUS if avatar is not None and avatar.id != ch.id else ROUTING
            if ch.morale_state == MUTINOUS:
                game.end_ambush(ch, "mutinous")
                game.ev("morale_state", "5.21", figure=ch.id, state=MUTINOUS, controller=1 - ch.side)
                if avatar.aff is not None:
                    game.join_aff(ch, avatar.aff)
                else:
                    game.new_aff(ch, avatar)
                return
        game.ev("morale_state", "5.21", figure=ch.id, state=ch.morale_state)
        game.check_engagements()


def move_steps(ch: Character, path, window: bool) -> list[Step]:
    out: list[Step] = []
    for tile in path:
        out.append(MoveStep(ch.id, tuple(tile), ch.prone))
        if window:
            out.append(AmbushWindow(ch.id, "W2"))
    return out


def execute(game: Ctx, ch: Character, act: Activation, option: Option | None) -> None:
    """Carry out the chosen option: immediate effects now, the rest as steps."""
    if option is None:
        game.ev("action", "5.2", figure=ch.id, action="none", reason="no_longer_legal")
        return
    a = option.action
    mode = act.mode
    windows = mode in ("regular", "reaction")
    if a in AMBUSH_ACTIONS:             # out of sight: the enemy sees what ending the activation shows (§5.15)
        game.ev("action", "5.2", figure=ch.id, action="end", key="end", target=None, tile=None, mode=mode)
    else:
        game.ev("action", "5.2", figure=ch.id, action=a, key=option.key, target=option.target, tile=option.tile,
                mode=mode)
    if a in ("end",) + AMBUSH_ACTIONS and act.offered_ambush:
        ch.quiet_turn = game.turn
    if a in ATTACKS:
        ch.did_offensive_action_this_turn = True
        ch.huddled = False
    if mode == "ambush":
        game.end_ambush(ch, "fired")
        game.gain_fatigue(ch, 1, "ambush_trigger", "5.15")
    steps: list[Step] = []
    if windows:
        steps.append(AmbushWindow(ch.id, "W1"))
    if a in ("walk", "run", "flee"):
        if a == "flee":
            steps += move_steps(ch, flee_path(game, ch), windows)
            steps.append(Leave(ch.id))
        else:
            steps += move_steps(ch, option.path, windows)
        if a == "run":
            steps.append(Fatigue(ch.id, 1, "run"))
    elif a in ("shoot", "burst", "strike", "throw"):
        steps.append(attack_step(ch, option, ch.tile, False, mode == "ambush"))
    elif a == "moveshoot":
        steps.append(attack_step(ch, option, ch.tile, True, False))
        steps += move_steps(ch, option.path, windows)
        steps.append(Fatigue(ch.id, 1, "move_and_shoot"))
    elif a == "movestrike":
        steps += move_steps(ch, option.path, windows)
        steps.append(attack_step(ch, option, None, True, False))
        steps.append(Fatigue(ch.id, 1, "move_to_strike"))
    elif a in AMBUSH_ACTIONS:
        steps.append(SimpleAction(ch.id, "ambush", order_of(option), option.key))
    elif a == "encourage":
        steps.append(SimpleAction(ch.id, a, option.target, option.key))
    else:
        steps.append(SimpleAction(ch.id, a, option.value, option.key))
    if windows:
        steps.append(AmbushWindow(ch.id, "W3"))
    steps.append(Reactions())
    push(game, *steps)


def attack_step(ch: Character, option: Option, origin, moving: bool, standing: bool) -> "Attack":
    kind = {"shoot": "shoot", "burst": "shoot", "throw": "throw", "moveshoot": "shoot",
            "strike": "strike", "movestrike": "strike"}[option.action]
    return Attack(ch.id, option.target, option.value or ch.ready_weapon, kind,
                  tuple(origin) if origin else None, moving, option.action == "burst", standing)


def flee_path(game: Ctx, ch: Character) -> list:
    """Routing (§5.21): the shortest way to the nearest table edge within a run (or a crawl if prone)."""
    w, h = game.state.width, game.state.height

    def edge_gap(t):
        return min(t[0], t[1], w - 1 - t[0], h - 1 - t[1])
    best = None
    for tile, path, cost in destinations(game, ch, run=not ch.prone):
        score = (edge_gap(tile), cost)
        if best is None or score < best[0]:
            best = (score, path)
    if best is None or best[0][0] >= edge_gap(ch.tile):
        return []
    return best[1]


@dataclass
class MoveStep(KolapsStep):
    """One tile of a move (§5.3): a knocked-down walker or an enemy on the way stops it."""

    fig: str
    tile: tuple
    crawl: bool
    back: list = field(default_factory=list)        # tiles passed, to step back to if it ends on a figure

    def resolve(self, game: Ctx) -> Decision | None:
        ch = game.char(self.fig)
        if not able(ch):
            return None
        knocked_down = ch.prone and not self.crawl
        if knocked_down or self.tile in {c.tile for c in game.in_play() if c.id != ch.id and hostile(ch, c)}:
            game.state.steps.discard(lambda s: isinstance(s, MoveStep) and s.fig == ch.id)
            game.ev("move_stopped", "5.15", figure=ch.id, at=ch.tile)
            settle(game, ch, self.back)
            return None
        before = ch.tile
        ch.tile = self.tile
        ch.huddled = False
        game.events.append(ev.moved(ch.id, before, [self.tile], "5.3"))
        later = next((s for s in game.state.steps.upcoming() if isinstance(s, MoveStep) and s.fig == ch.id), None)
        if later is not None:
            later.back = self.back + [before]
        else:
            settle(game, ch, self.back + [before])
        return None


def settle(game: Ctx, ch: Character, back: list) -> None:
    """A move never ends on another figure (conventions §3.2): step back to the last free tile passed."""
    taken = {c.tile for c in game.in_play() if c.id != ch.id}
    if ch.tile not in taken:
        return
    for t in reversed(back):
        if tuple(t) not in taken:
            game.events.append(ev.moved(ch.id, ch.tile, [tuple(t)], "5.3", reason="tile_taken"))
            ch.tile = tuple(t)
            return


@dataclass
class Leave(KolapsStep):
    """A routing character on the table edge leaves the battle (§5.21)."""

    fig: str

    def resolve(self, game: Ctx) -> Decision | None:
        ch = game.char(self.fig)
        x, y = ch.tile
        if ch.in_play and (x in (0, game.state.width - 1) or y in (0, game.state.height - 1)):
            game.remove(ch, "fled", "5.21")
        return None


@dataclass
class Fatigue(KolapsStep):
    fig: str
    n: int
    cause: str

    def resolve(self, game: Ctx) -> Decision | None:
        ch = game.char(self.fig)
        if ch.in_play:
            game.gain_fatigue(ch, self.n, self.cause)
        return None


@dataclass
class SimpleAction(KolapsStep):
    """A basic action that is neither a move nor an attack (§5.5–§5.10, §5.15 declaration)."""

    fig: str
    action: str
    value: object = None
    key: str = ""

    def resolve(self, game: Ctx) -> Decision | None:
        ch = game.char(self.fig)
        if not ch.in_play:
            return None
        a = self.action
        if a == "cover":
            ch.huddled = True
            if ch.morale_state == WITHDRAWING and game.distance_ok_for_shelter(ch) and behind_cover(game.bf, ch.tile):
                ch.aff = None
                ch.morale_state = SHELTERED
                game.ev("morale_state", "5.21", figure=ch.id, state=SHELTERED)
                game.check_engagements()
        elif a == "prone":
            game.fall_prone(ch, "action", "5.6")
        elif a == "stand":
            ch.prone = False
            game.ev("stood_up", "5.7", figure=ch.id)
        elif a == "catch_breath":
            ch.catch_breath_declared = True
        elif a == "rally":
            ch.rally_declared = True
        elif a == "encourage":
            encourage(game, ch, game.char(self.value))
        elif a == "reload":
            ch.uses_left[ch.ready_weapon] = weapon(game, ch.ready_weapon)["ammo"]
            game.ev("reloaded", "5.8", figure=ch.id, weapon=ch.ready_weapon)
        elif a == "unjam":
            if ch.ready_weapon not in ch.jammed:    # an ambush in the W1 window made it drop the weapon
                game.ev("action", "5.2", figure=ch.id, action="none", reason="no_longer_legal")
                return None
            ch.jammed.remove(ch.ready_weapon)
            game.ev("unjammed", "5.8", figure=ch.id, weapon=ch.ready_weapon)
        elif a == "change_weapon":
            if self.value == ch.left_hand:          # from the left hand to the right
                ch.left_hand = None
            ch.ready_weapon = self.value
            game.ev("weapon_ready", "5.8", figure=ch.id, weapon=ch.ready_weapon)
            if weapon(game, ch.ready_weapon).get("hands", 0) == 2:
                stow_left(game, ch)
        elif a == "take_left":
            stow_left(game, ch)
            ch.left_hand = self.value
            game.ev("took_left", "5.8", figure=ch.id, weapon=self.value)
        elif a in ("pickup", "pickup_left"):
            index = int(self.key.split(":")[1])
            tile, w = game.state.ground.pop(index)
            ch.weapons.append(w)
            if a == "pickup_left":
                ch.left_hand = w
                game.ev("picked_up", "5.8", figure=ch.id, weapon=w, hand="left_hand")
            else:
                ch.ready_weapon = w
                game.ev("picked_up", "5.8", figure=ch.id, weapon=w)
                if weapon(game, w).get("hands", 0) == 2:
                    stow_left(game, ch)
        elif a == "ambush":
            order = self.value
            ch.ambush_armed = True
            ch.ambush_declared_turn = game.turn
            ch.ambush_order = order
            game.ev("ambush_declared", "5.15", visible_to=ch.side, figure=ch.id, order=f"order_{order.trigger}",
                    within=order.within, enemy=order.target)
        return None


def encourage(game: Ctx, ch: Character, friend: Character) -> None:
    """Steadying a withdrawing friend, at once: the Rally roll of §5.10 made by the helper (difficulty 2,
    then a D6: a 6 gives +2 morale, else +1). Back at morale 3 the friend stops withdrawing (§5.21)."""
    if not (friend.in_play and friend.morale_state == WITHDRAWING):
        return
    game.ev("encourage", "5.21", figure=ch.id, target=friend.id)
    if game.passes(ch, 2, "encourage", "5.21"):
        gain = 2 if game.roll(ch, "encourage_gain", 1, "5.21")[0] == 6 else 1
        game.change_morale(friend, gain, "encouraged", "5.21")


def stow_left(game: Ctx, ch: Character) -> None:
    """Both hands are needed: the left-hand item goes back among the carried ones."""
    if ch.left_hand is not None:
        game.ev("stowed_left", "5.8", figure=ch.id, weapon=ch.left_hand)
        ch.left_hand = None


# --- interrupts: knife and ambush ---------------------------------------------------

@dataclass
class KnifeWindow(KolapsStep):
    """§5.34.4 / A28: a knife-carrier adjacent since the turn began strikes first."""

    enemy: str

    def resolve(self, game: Ctx) -> Decision | None:
        enemy = game.char(self.enemy)
        if not able(enemy):
            return None
        answer = self.take_answer()
        if answer is not None:
            if answer.key == "pass":
                return None
            enemy.activated_this_turn = True
            push(game, Activation(answer.figure, "knife", stage="begin", preset=f"strike:{enemy.id}:knife"), self)
            return None
        knifers = [k for k in game.in_play() if enemy.id in k.knife_foes and able(k) and not k.activated_this_turn
                   and k.offensive and not k.no_offensive_next_activation and hostile(k, enemy)
                   and space.adjacent(k.tile, enemy.tile) and "knife" in k.weapons and legal_target(game, k, enemy)]
        if not knifers:
            return None
        side = controller(knifers[0])
        opts = tuple(Option(f"knife:{k.id}", "knife", k.id, enemy.tile, enemy.id, value="knife")
                     for k in knifers if controller(k) == side) + (Option("pass", "pass"),)
        return Decision(side, "knife", opts, info={"rule": "5.34.4", "enemy": enemy.id})


def order_met(order: Order, window: str, amb: Character, enemy: Character, cm_per_tile: float) -> bool:
    """Whether a standing order fires in this window of the enemy's activation (§5.15)."""
    if order.trigger == "after":
        return window == "W3"
    if window == "W3":
        return False
    if order.trigger == "near":
        return space.within_cm(amb.tile, enemy.tile, order.within, cm_per_tile)
    return order.trigger == "first" or enemy.id == order.target


def order_action(game: Ctx, amb: Character, enemy: Character) -> Option | None:
    """What a standing order does: Shoot the enemy (a burst when the weapon allows one, §5.34.2), or Strike
    it when it is in reach; never a move (§5.15)."""
    act = Conduct("ambush", amb.no_two_handed_next_activation, amb.no_offensive_next_activation, enemy.id)
    opts = [o for o in action_options(game, amb, act) if o.target == enemy.id]
    shots = [o for o in opts if o.action == "burst"] + [o for o in opts if o.action in ("shoot", "throw")]
    if shots:
        return shots[0]
    strikes = [o for o in opts if o.action == "strike"]
    return min(strikes, key=lambda o: strike_difficulty(amb, enemy, weapon(game, o.value), False).raw, default=None)


@dataclass
class AmbushWindow(KolapsStep):
    """A moment of an enemy's activation (§5.15: W1 its action declared, W2 after each step, W3 its action
    resolved) when armed ambushes whose standing order it meets fire by themselves: no one is asked, so
    nothing tells the mover an ambusher is there until one fires."""

    enemy: str
    window: str

    def resolve(self, game: Ctx) -> Decision | None:
        enemy = game.char(self.enemy)
        if not enemy.in_play:
            return None
        if self.window == "W2" and any(c.tile == enemy.tile for c in game.in_play() if c.id != enemy.id):
            return None                 # passing through a friend's base: no pause on a shared tile
        for amb in sorted(game.in_play(), key=lambda c: c.id):
            if not (amb.ambush_armed and able(amb) and amb.morale >= 3 and hostile(amb, enemy)
                    and order_met(amb.ambush_order, self.window, amb, enemy, game.state.cm_per_tile)):
                continue
            option = order_action(game, amb, enemy)
            if option is None:
                continue
            order = amb.ambush_order
            game.ev("ambush_fired", "5.15", figure=amb.id, enemy=enemy.id, order=f"order_{order.trigger}",
                    within=order.within, window=self.window)
            push(game, Activation(amb.id, "ambush", stage="begin", preset=option.key), self)
            return None
        return None


# --- attacks ----------------------------------------------------------------------

@dataclass
class Attack(KolapsStep):
    """One shot, strike or throw: difficulty, the action roll, then what its result calls for (§5.22)."""

    a: str
    t: str
    weapon: str
    kind: str                       # "shoot", "strike" or "throw"
    origin: tuple | None
    moving: bool
    burst: bool
    standing: bool = False          # fired by a standing order: its owner's choices are made by the order

    def resolve(self, game: Ctx) -> Decision | None:
        a, t = game.char(self.a), game.char(self.t)
        if not (able(a) and t.in_play):
            return None
        w = weapon(game, self.weapon)
        if self.kind == "throw":
            explosion(game, a, t, self)
            return None
        if self.kind == "strike":
            if not space.adjacent(a.tile, t.tile):
                game.ev("attack_cancelled", "5.12", figure=a.id, target=t.id, reason="not_in_contact")
                return None
            diff = strike_difficulty(a, t, w, self.moving)
        else:
            diff = shot_difficulty(game.bf, game.state, a, self.origin, t, w, self.moving)
            if diff is None or not line_of_sight(game.bf, self.origin, t.tile):
                game.ev("attack_cancelled", "5.11", figure=a.id, target=t.id, reason="no_shot")
                return None
        style = "melee" if self.kind == "strike" else "ranged"
        facts = dict(weapon=self.weapon, attack=self.kind, difficulty=diff.value, raw=diff.raw,
                     terms=[list(x) for x in diff.terms], band=diff.band)
        if not diff.possible:
            game.events.append(ev.attack(a.id, t.id, style, False, "5.17", **facts))
            return None
        two_hands = self.kind == "strike" and w["range"] is None and "two_hands" in traits(w)
        if self.kind == "shoot" and "ammo" in w:
            a.uses_left[self.weapon] = a.uses_left.get(self.weapon, w["ammo"]) - 1
        r = game.test(a, diff.raw, "action", "5.22", two_hands=two_hands, target=t.id)
        success = r is None or r.success
        game.events.append(ev.attack(a.id, t.id, style, success, "5.17", **facts))
        after = AfterAttack(a.id, t.id, success)
        if r is not None and r.critical_success:
            push(game, Critical(t.id), after)
        elif success:
            push(game, hit_step(a, t, w, severity_dice(w, diff.band, self.kind == "strike"), self.burst,
                                self.standing), after)
        elif r.critical_failure:
            critical_failure(game, a, t, self, w, r.ones, after)
        else:
            game.simple_failure_morale(a)
            push(game, after)
        return None


def hit_step(a: Character | None, victim: Character, w: dict, sev, burst: bool, standing: bool = False) -> "Hit":
    return Hit(a.id if a else None, victim.id, tuple(sev), burst, "sharp" in traits(w), "blunt" in traits(w),
               standing=standing)


@dataclass
class Critical(KolapsStep):
    victim: str

    def resolve(self, game: Ctx) -> Decision | None:
        victim = game.char(self.victim)
        if victim.in_play:
            game.critical_hit(victim)
        return None


@dataclass
class Hit(KolapsStep):
    """Non-critical hit: severity (the roller keeps one die of a C roll), location, burst swap, effects."""

    a: str | None
    victim: str
    sev: tuple                      # (number of dice, "D" / "C" / "M")
    burst: bool
    sharp: bool
    blunt: bool
    values: list | None = None
    location: int | None = None
    third: int | None = None
    kept: int | None = None
    standing: bool = False          # a standing order keeps the die that hurts an enemy most, a friend least

    def resolve(self, game: Ctx) -> Decision | None:
        victim = game.char(self.victim)
        if not victim.in_play:
            return None
        roller = game.char(self.a) if self.a else victim
        side = controller(roller)
        n, mode = self.sev
        if self.values is None:
            self.values = game.roll(roller, "severity", n, "5.35", roll=f"{n}{mode}6")
            self.location = game.roll(roller, "location", 1, "5.24")[0]
            if self.blunt:
                self.third = game.roll(roller, "blunt", 1, "5.34.3")[0]
        values = self.values
        if self.kept is None:
            if mode == "C" and len(set(values)) > 1 and self.standing:
                self.kept = max(values) if hostile(roller, victim) else min(values)
            elif mode == "C" and len(set(values)) > 1:
                answer = self.take_answer()
                if answer is None:
                    opts = tuple(Option(f"keep:{v}", "keep_die", roller.id, value=v)
                                 for v in sorted(set(values), reverse=True))
                    return Decision(side, "keep_die", opts, figure=roller.id,
                                    info={"rule": "4.1", "values": values, "purpose": "severity",
                                          "victim": victim.id})
                self.kept = answer.value
            else:
                self.kept = min(values) if mode == "M" else max(values)
            game.ev("kept_die", "4.1", figure=roller.id, values=values, kept=self.kept)
        s, loc = self.kept, self.location
        if self.burst and s != loc and self.standing:
            if severity_row(victim, loc, s) > severity_row(victim, s, loc):
                s, loc = loc, s
                game.ev("burst_swap", "5.34.2", figure=roller.id, severity=s, location=loc)
        elif self.burst and s != loc:
            answer = self.take_answer()
            if answer is None:
                opts = (Option("swap", "swap", value=[loc, s]), Option("no_swap", "no_swap", value=[s, loc]))
                return Decision(side, "burst_swap", opts, figure=roller.id,
                                info={"rule": "5.34.2", "severity": s, "location": loc, "victim": victim.id})
            if answer.key == "swap":
                s, loc = loc, s
                game.ev("burst_swap", "5.34.2", figure=roller.id, severity=s, location=loc)
        game.apply_hit(victim, s, loc, self.sharp, self.third)
        return None


def severity_row(victim: Character, s: int, loc: int) -> int:
    """The severity row a kept die ``s`` at location ``loc`` gives on ``victim`` (§5.24)."""
    return min(6, s + zone_modifier(victim, ZONES[loc - 1]))


def critical_failure(game: Ctx, a: Character, t: Character, attack: Attack, w: dict, ones: int,
                     after: "AfterAttack") -> None:
    """§5.32: friendly fire on a shot's line, otherwise the incident table."""
    if attack.kind == "shoot":
        crossed = friendly_crossed(game, a, attack.origin, t.tile)
        if crossed:
            ally = crossed[0]
            band = shot_band(attack.origin, ally.tile, w, game.state.cm_per_tile)
            band = "point_blank" if band in (None, "contact") else band
            game.ev("friendly_fire", "5.32", figure=a.id, victim=ally.id)
            push(game, hit_step(a, ally, w, severity_dice(w, band, False), False, attack.standing), after)
            return
    d = game.roll(a, "critical_failure", 1, "5.32")[0]
    score = d - ones
    if score >= 1:
        game.ev("incident", "5.32", figure=a.id, result="more_fear_than_harm")
        game.change_morale(a, -1, "critical_failure", "5.32")
        push(game, after)
    elif score == 0:
        fell = not game.passes(a, 1, "minor_incident", "5.32")
        game.ev("incident", "5.32", figure=a.id, result="minor_incident", fell=fell)
        push(game, Incident(a.id, fell, attack.standing), after)
    else:
        game.ev("incident", "5.32", figure=a.id, result="major_incident")
        push(game, Hit(None, a.id, (1, "D"), False, False, False), MajorIncident(a.id), after)


@dataclass
class Incident(KolapsStep):
    """A minor incident: the weapon jams or is dropped, the player's choice (§5.32)."""

    a: str
    fell: bool
    standing: bool = False          # a standing order's weapon jams rather than falls

    def resolve(self, game: Ctx) -> Decision | None:
        a = game.char(self.a)
        if not a.in_play:
            return None
        if a.ready_weapon != "unarmed":
            answer = Option("jam", "jam", a.id, value=a.ready_weapon) if self.standing else self.take_answer()
            if answer is None:
                opts = (Option("jam", "jam", a.id, value=a.ready_weapon),
                        Option("drop", "drop", a.id, value=a.ready_weapon))
                return Decision(controller(a), "incident", opts, figure=a.id, info={"rule": "5.32"})
            if answer.key == "jam":
                if a.ready_weapon not in a.jammed:
                    a.jammed.append(a.ready_weapon)
                game.ev("jammed", "5.32", figure=a.id, weapon=a.ready_weapon)
            else:
                game.drop_weapon(a, "5.32")
        game.change_morale(a, -1, "minor_incident", "5.32")
        if self.fell:
            game.fall_prone(a, "minor_incident", "5.32")
        return None


@dataclass
class MajorIncident(KolapsStep):
    a: str

    def resolve(self, game: Ctx) -> Decision | None:
        a = game.char(self.a)
        if a.in_play:
            game.change_morale(a, -1, "major_incident", "5.32")
            game.fall_prone(a, "major_incident", "5.32")
        return None


def explosion(game: Ctx, a: Character, primary: Character, attack: Attack) -> None:
    """§5.34.5 / A63: no firer roll; every figure within 2X of the impact rolls at 2+."""
    w = weapon(game, attack.weapon)
    size = w["explosion"]
    impact = primary.tile
    a.uses_left[attack.weapon] = a.uses_left.get(attack.weapon, 1) - 1
    if a.uses_left[attack.weapon] <= 0:
        if attack.weapon in a.weapons:
            a.weapons.remove(attack.weapon)
        if a.ready_weapon == attack.weapon:
            a.ready_weapon = "unarmed"
        else:                               # thrown from the left hand
            a.left_hand = None
    game.events.append(ev.thrown(a.id, a.tile, impact, impact, "5.34.5", weapon=attack.weapon))
    game.events.append(ev.blast(impact, 2 * size / game.state.cm_per_tile, "5.34.5", size=size))
    steps, primary_hit = [], False
    for v in sorted(game.in_play(), key=lambda c: (space.distance(impact, c.tile), c.id)):
        diff = blast_difficulty(game.bf, impact, v, size, game.state.cm_per_tile)
        if diff is None:
            continue
        facts = dict(weapon=attack.weapon, attack="blast", difficulty=diff.value, raw=diff.raw,
                     terms=[list(x) for x in diff.terms], band=diff.band)
        if not diff.possible:
            game.events.append(ev.attack(a.id, v.id, "ranged", False, "5.34.5", **facts))
            continue
        r = game.test(a, diff.raw, "blast", "5.34.5", need=2, target=v.id)
        hit = r is None or r.success
        game.events.append(ev.attack(a.id, v.id, "ranged", hit, "5.34.5", **facts))
        if hit:
            steps.append(hit_step(a, v, w, severity_dice(w, diff.band, False), False))
            primary_hit = primary_hit or v.id == primary.id
    if primary_hit:
        steps.append(AfterAttack(a.id, primary.id, True))
    push(game, *steps)


@dataclass
class AfterAttack(KolapsStep):
    """§5.19 AFF bookkeeping, then the reaction owed by the target (§5.20)."""

    a: str
    t: str
    success: bool

    def resolve(self, game: Ctx) -> Decision | None:
        a, t = game.char(self.a), game.char(self.t)
        answer = self.take_answer()
        if answer is not None:
            if answer.key == "switch":
                game.join_aff(t, a.aff)
            game.check_engagements()
            return None
        if a.in_play and t.in_play:
            if a.aff is None and t.aff is not None:
                game.join_aff(a, t.aff)
            elif a.aff is not None and t.aff is None:
                game.join_aff(t, a.aff)
            elif a.aff is not None and t.aff is not None and a.aff != t.aff:
                game.ev("crossfire", "5.19", figure=t.id, attacker=a.id)
                game.change_morale(t, -1, "crossfire", "5.19")
                owe_reaction(game, a, t, self.success)
                opts = (Option("keep", "keep_aff", t.id, value=t.aff),
                        Option("switch", "switch_aff", t.id, value=a.aff))
                return Decision(controller(t), "crossfire", opts, figure=t.id, info={"rule": "5.19"})
            elif a.aff is None and t.aff is None and self.success:
                game.new_aff(a, t)
        owe_reaction(game, a, t, self.success)
        game.check_engagements()
        return None


def owe_reaction(game: Ctx, a: Character, t: Character, success: bool) -> None:
    """The target owes a reaction, made once the action that caused it ends (the next Reactions step)."""
    if t.in_play and able(t) and not t.activated_this_turn and t.morale_state != ROUTING:
        pending = next((s for s in game.state.steps.upcoming() if isinstance(s, Reactions)), None)
        if pending is not None:
            pending.owed.append((t.id, a.id, success))


@dataclass
class Reactions(KolapsStep):
    """The reactions an action owes, in order (§5.20): forced after a success, offered after a failure.
    Each entry is (target, attacker, forced)."""

    owed: list = field(default_factory=list)

    def resolve(self, game: Ctx) -> Decision | None:
        while self.owed:
            tid, aid, forced = self.owed[0]
            t, a = game.char(tid), game.char(aid)
            if not (able(t) and not t.activated_this_turn):
                self.owed.pop(0)
                continue
            if forced:
                self.owed.pop(0)
                push(game, Activation(t.id, "reaction", attacker=a.id), Reactions(self.owed))
                return None
            answer = self.take_answer()
            if answer is None:
                opts = (Option("respond", "reaction", t.id, target=a.id), Option("decline", "pass", t.id, target=a.id))
                return Decision(controller(t), "reaction", opts, figure=t.id, info={"rule": "5.20", "attacker": a.id})
            self.owed.pop(0)
            if answer.key == "respond":
                game.ev("response", "5.20", figure=t.id, attacker=a.id)
                if a.in_play and a.aff is None and t.aff is None:
                    game.new_aff(a, t)
                push(game, Activation(t.id, "reaction", attacker=a.id), Reactions(self.owed))
                return None
            t.ignores.append(a.id)
            game.ev("declined", "5.20", figure=t.id, attacker=a.id)
        return None


# --- phase 3 ------------------------------------------------------------------------

@dataclass
class Assessment(KolapsStep):
    """§3.5 in the order of A71, then the commitment check (§3.6) and the end of the game (§5.36)."""

    def resolve(self, game: Ctx) -> Decision | None:
        state = game.state
        game.events.append(ev.phase("assessment", "3.5", turn=state.turn))
        chars = sorted(game.in_play(), key=lambda c: (c.side, c.id))
        for ch in chars:
            if ch.in_play and ch.catch_breath_declared:
                game.lose_fatigue(ch, max(1, 6 - ch.total_wounds()), "catch_breath", "5.9")
        for ch in chars:
            if ch.in_play:
                game.hemorrhage_rolls(ch)
        for ch in chars:
            if ch.in_play:
                game.recompute(ch)
        for ch in chars:
            if (ch.in_play and not ch.fatigue_gained_this_turn and ch.total_wounds() <= 3
                    and ch.no_recovery_turn != state.turn):
                game.lose_fatigue(ch, 1, "natural_recovery", "3.5")
        for ch in chars:
            if ch.in_play and ch.rally_declared and ch.aff is None and game.passes(ch, 2, "rally", "5.10"):
                gain = 2 if game.roll(ch, "rally_gain", 1, "5.10")[0] == 6 else 1
                game.change_morale(ch, gain, "rally", "5.10")
        breach = False
        for ch in sorted(state.chars.values(), key=lambda c: c.id):
            if ch.side != state.attacker:
                continue
            excused = not ch.in_play or ch.commitment_excused_this_turn
            kept = ch.did_offensive_action_this_turn or ch.ambush_declared_turn == state.turn
            if ch.offensive and not excused and not ch.did_offensive_action_this_turn:
                ch.quiet_turn = None                # the check tells whether it declared an ambush
            if ch.directive_lost or (ch.offensive and not kept and not excused):
                breach = True                       # a lost directive is never excused (§3.3)
                game.ev("commitment_broken", "3.6", figure=ch.id)
                if ch.in_play:
                    game.change_morale(ch, -1, "commitment", "3.6")
        if breach:
            state.barred = state.attacker
        for ch in state.chars.values():
            ch.activated_this_turn = False
            ch.fatigue_gained_this_turn = False
            ch.did_offensive_action_this_turn = False
            ch.commitment_excused_this_turn = False
            ch.catch_breath_declared = False
            ch.rally_declared = False
        check_end(game)
        return None


def check_end(game: Ctx) -> None:
    """§5.36 (A73): a side with no character left loses; both at once is a draw. Then the project defaults
    (docs/rules-kolaps.md): a side that has lost more than half its characters is routed and loses, both at
    once are decided on points; at the turn limit points decide (engine/objectives.py)."""
    state = game.state
    alive = {s: sum(1 for c in game.in_play() if c.side == s) for s in (0, 1)}
    if alive[0] == 0 or alive[1] == 0:
        state.finished = True
        state.winner = None if alive[0] == alive[1] else (0 if alive[0] else 1)
        state.end_reason = "no_character_left" if state.winner is not None else "both_wiped_out"
        game.events.append(ev.game_over(state.winner, state.end_reason, "5.36",
                                        in_play={str(k): v for k, v in alive.items()}))
        return
    fallen = routed(state)
    if not fallen and state.turn < state.max_turns:
        return
    result = points(state)
    state.finished = True
    if len(fallen) == 1:
        state.winner, state.end_reason = 1 - fallen[0], ROUTED
    else:
        state.winner, state.end_reason = result.winner, BOTH_ROUTED if fallen else TURN_LIMIT
    game.events.append(ev.game_over(state.winner, state.end_reason, "5.36", points=list(result.points),
                                    taken=list(result.taken), held=list(result.held), routed=fallen))


def routed(state) -> list[int]:
    """The sides that have lost more than half their characters, out of action or fled (the project's rout,
    docs/rules-kolaps.md)."""
    return [s for s in (0, 1) if losses_to_rout(state, s) <= 0]


def losses_to_rout(state, side: int) -> int:
    """How many more of ``side``'s characters may fall before it has lost more than half of them."""
    chars = [c for c in state.chars.values() if c.side == side]
    lost = sum(1 for c in chars if not c.in_play)
    return len(chars) // 2 + 1 - lost


def points(state) -> Score:
    """The project default at the turn limit (docs/rules-kolaps.md): wound boxes ticked on the enemy, a whole
    sheet for a character out of play, and the map's objectives held, a sheet's boxes per figure."""
    pieces = [Piece(c.side, c.tile if c.in_play else None, TOTAL_BOXES,
                    min(TOTAL_BOXES, c.total_wounds()) if c.in_play else TOTAL_BOXES) for c in state.chars.values()]
    return score(state.bf, pieces, TOTAL_BOXES)
