"""The KOLAPS turn as a queue of plain-data steps (§3): initiative auction, activations, assessment.

Each step is a dict ``{"op": ..., ...}``. A step that needs an answer sets ``state.choice`` and goes back
to the front of the queue with what it has rolled so far; the answer is written into it and the queue
runs on. Everything stays plain data, so the Match can deep-copy, undo and digest it.
"""
from __future__ import annotations

from ...engine import space
from ...engine.decision import Decision, Option
from .combat import (behind_cover, blast_difficulty, line_of_sight, severity_dice, shot_band, shot_difficulty,
                     strike_difficulty, traits)
from .effects import Ctx, controller, hostile
from .model import MUTINOUS, NORMAL, PINNED, ROUTING, SHELTERED, WITHDRAWING, Character
from .options import (ATTACKS, OFFENSIVE_ACTIONS, action_options, destinations, friendly_crossed, legal_target,
                      weapon)

HANDLERS = {}


def step(fn):
    HANDLERS[fn.__name__.removeprefix("op_")] = fn
    return fn


def push(ctx: Ctx, *steps: dict) -> None:
    ctx.state.queue[0:0] = list(steps)


def wait(ctx: Ctx, st: dict, decision: Decision) -> bool:
    ctx.state.queue.insert(0, st)
    ctx.state.choice = decision
    return True


def run(ctx: Ctx) -> None:
    state = ctx.state
    while state.choice is None and not state.finished:
        if not state.queue:
            advance(ctx)
            continue
        st = state.queue.pop(0)
        HANDLERS[st["op"]](ctx, st)
        ctx.check_engagements()


def answer(ctx: Ctx, option: Option) -> None:
    ctx.answered = option
    ctx.state.choice = None
    ctx.state.queue[0]["answer"] = option.key
    run(ctx)


def advance(ctx: Ctx) -> None:
    """Queue empty: the next regular activation, or the assessment, or the next turn."""
    state = ctx.state
    if state.phase == "action":
        side = next_side(ctx)
        if side is None:
            state.phase = "assessment"
            push(ctx, {"op": "assessment"})
        else:
            push(ctx, {"op": "activate", "side": side})
    elif state.phase in ("assessment", "setup"):
        push(ctx, {"op": "turn_start"})


def activatable(ctx: Ctx, side: int) -> list[Character]:
    return [c for c in ctx.in_play() if controller(c) == side and not c.activated_this_turn]


def next_side(ctx: Ctx) -> int | None:
    state = ctx.state
    first = state.to_play if state.last_actor_side is None else 1 - state.last_actor_side
    for side in (first, 1 - first):
        if activatable(ctx, side):
            return side
    return None


# --- setup and phase 1 --------------------------------------------------------------

@step
def op_setup(ctx: Ctx, st: dict) -> None:
    state = ctx.state
    state.turn = 1
    for ch in sorted(state.chars.values(), key=lambda c: (c.side, c.id)):
        if ch.is_avatar and not ch.morale_preset:
            ch.morale = 6
        elif not ch.morale_preset:
            d = ctx.roll(ch, "initial_morale", 1, "5.21")[0]
            ch.morale = initial_morale(ch.rng_initial, d)
        ctx.ev("morale", "5.21", figure=ch.id, before=None, after=ch.morale, cause="initial")
    while True:
        a, b = ctx.roll(None, "first_speaker_roll_off", 2, "3.1", per_side=True)
        if a != b:
            break
    state.first_speaker = 0 if a > b else 1
    ctx.ev("first_speaker", "3.1", side=state.first_speaker)
    state.phase = "setup"


def initial_morale(rank: int, die: int) -> int:
    if rank + die >= 6:
        return 6
    return 4 if die == 1 else 5


def eligible(ctx: Ctx, ch: Character) -> bool:
    return (ch.in_play and ch.morale >= 3 and ch.no_offensive_turn != ctx.turn and not ch.never_offensive
            and not ch.no_offensive_next_activation and ch.morale_state == NORMAL and controller(ch) == ch.side)


def eligible_count(ctx: Ctx, side: int) -> int:
    return sum(1 for c in ctx.in_play() if c.side == side and eligible(ctx, c))


@step
def op_turn_start(ctx: Ctx, st: dict) -> None:
    state = ctx.state
    if state.phase == "assessment":
        state.turn += 1
    state.phase = "initiative"
    ctx.ev("turn", "3.2", turn=state.turn)
    for ch in ctx.in_play():
        ch.offensive = False
        ch.directive_lost = False
        ch.ignores = []
        if ch.ready_weapon in ch.jammed and "pistol" in ch.weapons and "pistol" not in ch.jammed:
            ch.ready_weapon = "pistol"
            ctx.ev("weapon_ready", "5.34.8", figure=ch.id, weapon="pistol")
        ch.knife_foes = ([e.id for e in ctx.in_play() if hostile(ch, e) and space.adjacent(ch.tile, e.tile)]
                         if "knife" in ch.weapons else [])
    speaker = state.first_speaker if state.turn == 1 else state.defender
    barred = state.barred
    state.barred = None
    e = {s: eligible_count(ctx, s) for s in (0, 1)}
    state.auction = {"E": e, "high": None, "high_bidder": None, "last": {}, "barred": barred}
    if barred is not None:
        ctx.ev("auction_barred", "3.3", side=barred)
        push(ctx, {"op": "bid", "side": 1 - barred, "free": True}, {"op": "bid", "side": barred, "free": True})
    else:
        push(ctx, {"op": "bid", "side": speaker})


def bid_decision(ctx: Ctx, side: int) -> Decision:
    a = ctx.state.auction
    e = a["E"][side]
    high = a["high"]
    opts = []
    for n in range(e + 1):
        label = "bid" if high is None or n > high else "stop"
        opts.append(Option(f"bid:{n}", label, value=n))
    return Decision(side, "bid", tuple(opts), secret=True,
                    info={"rule": "3.3", "high_bid": high, "high_bidder": a["high_bidder"], "E": dict(a["E"]),
                          "free": a["barred"] is not None})


@step
def op_bid(ctx: Ctx, st: dict) -> None:
    side = st["side"]
    a = ctx.state.auction
    if "answer" not in st:
        wait(ctx, st, bid_decision(ctx, side))
        return
    n = int(st["answer"].split(":")[1])
    ctx.ev("bid", "3.3", visible_to=side, side=side, count=n)
    ctx.ev("bid_revealed", "3.3", side=side, count=n)
    a["last"][str(side)] = n
    if st.get("free"):
        if a["barred"] is not None and side == a["barred"]:
            finish_auction(ctx, 1 - side)
        return
    if a["high"] is None or n > a["high"]:
        a["high"], a["high_bidder"] = n, side
        push(ctx, {"op": "bid", "side": 1 - side})
        return
    finish_auction(ctx, a["high_bidder"])


def finish_auction(ctx: Ctx, attacker: int) -> None:
    state = ctx.state
    a = state.auction
    state.attacker, state.defender = attacker, 1 - attacker
    counts = {s: a["last"].get(str(s), 0) for s in (0, 1)}
    a["counts"] = {str(s): counts[s] for s in (0, 1)}
    ctx.ev("auction_won", "3.3", attacker=attacker, defender=1 - attacker, counts={str(k): v for k, v in counts.items()})
    push(ctx, {"op": "select", "side": state.defender, "left": counts[state.defender]},
         {"op": "select", "side": attacker, "left": counts[attacker]},
         {"op": "directives"}, {"op": "first_player"})


@step
def op_select(ctx: Ctx, st: dict) -> None:
    side = st["side"]
    candidates = [c for c in ctx.in_play() if c.side == side and eligible(ctx, c) and not c.offensive]
    if st["left"] <= 0 or not candidates:
        return
    if "answer" in st:
        ch = ctx.char(st.pop("answer").split(":")[1])
        ch.offensive = True
        ctx.ev("offensive", "3.3", figure=ch.id, side=side)
        st["left"] -= 1
        push(ctx, st)
        return
    opts = tuple(Option(f"pick:{c.id}", "offensive", c.id, c.tile, value=c.morale) for c in candidates)
    wait(ctx, st, Decision(side, "offensive", opts, info={
        "rule": "3.3", "left": st["left"], "roll_required": [c.id for c in candidates if c.morale == 3]}))


@step
def op_directives(ctx: Ctx, st: dict) -> None:
    """A11, A74: morale-3 characters roll difficulty 1 on receiving the directive."""
    state = ctx.state
    for ch in sorted(ctx.in_play(), key=lambda c: (c.side != state.defender, c.id)):
        if ch.offensive and ch.morale == 3 and not ctx.passes(ch, 1, "directive", "3.3"):
            ch.offensive = False
            ch.directive_lost = ch.side == state.attacker
            ctx.ev("directive_lost", "3.3", figure=ch.id)


@step
def op_first_player(ctx: Ctx, st: dict) -> None:
    state = ctx.state
    if "answer" not in st:
        opts = (Option("start:me", "start", value=state.attacker),
                Option("start:opponent", "start", value=state.defender))
        wait(ctx, st, Decision(state.attacker, "first_player", opts, info={"rule": "3.4"}))
        return
    state.to_play = state.attacker if st["answer"] == "start:me" else state.defender
    state.last_actor_side = None
    state.phase = "action"
    ctx.ev("action_phase", "3.4", first=state.to_play)
    for ch in ctx.in_play():
        if ch.cannot_activate_turn == state.turn or ch.ko_activations_left > 0:
            if not ch.activated_this_turn:
                ch.activated_this_turn = True
                ch.commitment_excused_this_turn = True
                if ch.cannot_activate_turn != state.turn:
                    ch.ko_activations_left -= 1
                ctx.ev("cannot_activate", "3.4", figure=ch.id)


# --- phase 2: activations -------------------------------------------------------------

@step
def op_activate(ctx: Ctx, st: dict) -> None:
    side = st["side"]
    if "answer" not in st:
        opts = tuple(Option(f"activate:{c.id}", "activate", c.id, c.tile) for c in activatable(ctx, side))
        wait(ctx, st, Decision(side, "activate", opts, info={"rule": "3.4"}))
        return
    push(ctx, {"op": "activation", "fig": st["answer"].split(":")[1], "mode": "regular", "stage": "start"})


def able(ch: Character) -> bool:
    return ch.in_play and ch.ko_activations_left <= 0


@step
def op_activation(ctx: Ctx, st: dict) -> None:
    ch = ctx.char(st["fig"])
    if not able(ch):
        return
    stage = st["stage"]
    if stage == "start":
        st["stage"] = "begin"
        push(ctx, {"op": "knife_window", "enemy": ch.id}, st)
        return
    if stage == "begin":
        begin_activation(ctx, ch, st)
        st["stage"] = "choose"
        if not able(ch):
            return
    if st.get("preset"):
        execute(ctx, ch, st, st.pop("preset"))
        return
    if "answer" in st:
        key = st.pop("answer")
        option = ctx.answered if ctx.answered is not None and ctx.answered.key == key else next(
            (o for o in action_options(ctx, ch, st) if o.key == key), None)
        if option is not None and needs_target_check(st, option):
            st["checked"] = True
            if not ctx.passes(ch, 3, "reaction_target", "5.20"):
                st["only_target"] = st["attacker"]
                push(ctx, st)
                return
        execute(ctx, ch, st, key, option)
        return
    opts = action_options(ctx, ch, st)
    hidden_choice = any(o.action == "ambush" for o in opts)        # an ambush is declared out of sight
    wait(ctx, st, Decision(controller(ch), "action", tuple(opts), figure=ch.id, secret=hidden_choice,
                           info={"rule": "5.2", "mode": st["mode"], "attacker": st.get("attacker")}))


def needs_target_check(st: dict, option: Option) -> bool:
    return (st["mode"] == "reaction" and not st.get("checked") and option.action in ATTACKS
            and option.target != st.get("attacker"))


def begin_activation(ctx: Ctx, ch: Character, st: dict) -> None:
    """Start of an activation: ambush ends, one-activation restrictions, morale tests (§5.15, §5.21)."""
    mode = st["mode"]
    if mode in ("regular", "reaction"):
        ctx.state.last_actor_side = controller(ch)
    if not ch.activated_this_turn:
        ch.activated_this_turn = True
    ctx.ev("activation", "3.4", figure=ch.id, mode=mode)
    if mode != "ambush" and ch.ambush_armed:
        ch.ambush_armed = False
        ctx.ev("ambush_ended", "5.15", visible_to=ch.side, figure=ch.id, reason="own activation")
    st["no2h"] = ch.no_two_handed_next_activation
    st["nooff"] = ch.no_offensive_next_activation
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
        ctx.ev("morale_state", "5.21", figure=ch.id, state=NORMAL)
    if ch.morale == 2 and ch.aff is not None and ch.morale_state not in (WITHDRAWING,):
        state = WITHDRAWING if ctx.passes(ch, 2, "morale_test", "5.21") else PINNED
        ch.morale_state = state
        ctx.ev("morale_state", "5.21", figure=ch.id, state=state)
    elif ch.morale == 1 and ch.morale_state not in (ROUTING, MUTINOUS):
        if ctx.passes(ch, 1, "morale_test", "5.21"):
            ch.morale_state = ROUTING
        else:
            avatar = next((c for c in ctx.in_play() if c.side == ch.side and c.is_avatar), None)
            ch.morale_state = MUTINOUS if avatar is not None and avatar.id != ch.id else ROUTING
            if ch.morale_state == MUTINOUS:
                ch.ambush_armed = False
                ctx.ev("morale_state", "5.21", figure=ch.id, state=MUTINOUS, controller=1 - ch.side)
                if avatar.aff is not None:
                    ctx.join_aff(ch, avatar.aff)
                else:
                    ctx.new_aff(ch, avatar)
                return
        ctx.ev("morale_state", "5.21", figure=ch.id, state=ch.morale_state)
        ctx.check_engagements()


def move_steps(ch: Character, path, window: bool) -> list[dict]:
    out = []
    for tile in path:
        out.append({"op": "move_step", "fig": ch.id, "tile": list(tile), "crawl": ch.prone})
        if window:
            out.append({"op": "ambush_window", "enemy": ch.id, "window": "W2"})
    return out


def execute(ctx: Ctx, ch: Character, st: dict, key: str, option: Option | None = None) -> None:
    """Carry out the chosen option: immediate effects now, the rest as queued steps."""
    if option is None:
        option = next((o for o in action_options(ctx, ch, st) if o.key == key), None)
    if option is None:
        ctx.ev("action", "5.2", figure=ch.id, action="none", reason="no longer legal")
        return
    a = option.action
    mode = st["mode"]
    windows = mode in ("regular", "reaction")
    secret = ch.side if a == "ambush" else None
    ctx.ev("action", "5.2", visible_to=secret, figure=ch.id, action=a, key=key, target=option.target,
           tile=option.tile, mode=mode)
    if secret is not None:
        ctx.ev("action", "5.2", figure=ch.id, action="hidden", mode=mode)
    if a in OFFENSIVE_ACTIONS:
        ch.did_offensive_action_this_turn = True
        ch.huddled = False
    if mode == "ambush":
        ch.ambush_armed = False
        ctx.gain_fatigue(ch, 1, "ambush_trigger", "5.15")
    steps: list[dict] = []
    if windows:
        steps.append({"op": "ambush_window", "enemy": ch.id, "window": "W1"})
    if a in ("walk", "run", "flee"):
        path = option.path
        if a == "flee":
            path = flee_path(ctx, ch)
            steps += move_steps(ch, path, windows)
            steps.append({"op": "leave", "fig": ch.id})
        else:
            steps += move_steps(ch, path, windows)
        if a == "run":
            steps.append({"op": "fatigue", "fig": ch.id, "n": 1, "cause": "run"})
    elif a in ("shoot", "burst", "strike", "throw"):
        steps.append(attack_step(ch, option, ch.tile, moving=False))
    elif a == "moveshoot":
        steps.append(attack_step(ch, option, ch.tile, moving=True))
        steps += move_steps(ch, option.path, windows)
        steps.append({"op": "fatigue", "fig": ch.id, "n": 1, "cause": "move_and_shoot"})
    elif a == "movestrike":
        steps += move_steps(ch, option.path, windows)
        steps.append(attack_step(ch, option, None, moving=True))
        steps.append({"op": "fatigue", "fig": ch.id, "n": 1, "cause": "move_to_strike"})
    else:
        steps.append({"op": "simple_action", "fig": ch.id, "action": a, "value": option.value,
                      "key": key})
    if windows:
        steps.append({"op": "ambush_window", "enemy": ch.id, "window": "W3"})
    steps.append({"op": "reactions"})
    push(ctx, *steps)


def attack_step(ch: Character, option: Option, origin, moving: bool) -> dict:
    kind = {"shoot": "shoot", "burst": "shoot", "throw": "throw", "moveshoot": "shoot",
            "strike": "strike", "movestrike": "strike"}[option.action]
    return {"op": "attack", "a": ch.id, "t": option.target, "weapon": option.value or ch.ready_weapon,
            "kind": kind, "origin": list(origin) if origin else None, "moving": moving,
            "burst": option.action == "burst"}


def flee_path(ctx: Ctx, ch: Character) -> list:
    """Routing (§5.21): the shortest way to the nearest table edge within a run (or a crawl if prone)."""
    w, h = ctx.state.width, ctx.state.height
    def edge_gap(t):
        return min(t[0], t[1], w - 1 - t[0], h - 1 - t[1])
    best = None
    for tile, path, cost in destinations(ctx, ch, run=not ch.prone):
        score = (edge_gap(tile), cost)
        if best is None or score < best[0]:
            best = (score, path)
    if best is None or best[0][0] >= edge_gap(ch.tile):
        return []
    return best[1]


@step
def op_move_step(ctx: Ctx, st: dict) -> None:
    ch = ctx.char(st["fig"])
    tile = tuple(st["tile"])
    if not able(ch):
        return
    back = st.get("back", [])
    knocked_down = ch.prone and not st.get("crawl")
    if knocked_down or tile in {c.tile for c in ctx.in_play() if c.id != ch.id and hostile(ch, c)}:
        drop_remaining_moves(ctx, ch)
        ctx.ev("move_stopped", "5.15", figure=ch.id, at=ch.tile)
        settle(ctx, ch, back)
        return
    before = ch.tile
    ch.tile = tile
    ch.huddled = False
    ctx.ev("moved", "5.3", figure=ch.id, frm=before, to=tile)
    later = next((s for s in ctx.state.queue if s.get("op") == "move_step" and s.get("fig") == ch.id), None)
    if later is not None:
        later["back"] = back + [list(before)]
    else:
        settle(ctx, ch, back + [list(before)])


def settle(ctx: Ctx, ch: Character, back: list) -> None:
    """A move never ends on another figure (conventions §3.2): step back to the last free tile passed."""
    taken = {c.tile for c in ctx.in_play() if c.id != ch.id}
    if ch.tile not in taken:
        return
    for t in reversed(back):
        if tuple(t) not in taken:
            ctx.ev("moved", "5.3", figure=ch.id, frm=ch.tile, to=tuple(t), reason="tile taken")
            ch.tile = tuple(t)
            return


def drop_remaining_moves(ctx: Ctx, ch: Character) -> None:
    ctx.state.queue[:] = [s for s in ctx.state.queue if not (s.get("op") == "move_step" and s["fig"] == ch.id)]


@step
def op_leave(ctx: Ctx, st: dict) -> None:
    ch = ctx.char(st["fig"])
    x, y = ch.tile
    if ch.in_play and (x in (0, ctx.state.width - 1) or y in (0, ctx.state.height - 1)):
        ctx.remove(ch, "fled", "5.21")


@step
def op_fatigue(ctx: Ctx, st: dict) -> None:
    ch = ctx.char(st["fig"])
    if ch.in_play:
        ctx.gain_fatigue(ch, st["n"], st["cause"])


@step
def op_simple_action(ctx: Ctx, st: dict) -> None:
    ch = ctx.char(st["fig"])
    if not ch.in_play:
        return
    a = st["action"]
    if a == "cover":
        ch.huddled = True
        if ch.morale_state == WITHDRAWING and ctx.distance_ok_for_shelter(ch) and behind_cover(ctx.bf, ch.tile):
            ch.aff = None
            ch.morale_state = SHELTERED
            ctx.ev("morale_state", "5.21", figure=ch.id, state=SHELTERED)
            ctx.check_engagements()
    elif a == "prone":
        ctx.fall_prone(ch, "action", "5.6")
    elif a == "stand":
        ch.prone = False
        ctx.ev("stood_up", "5.7", figure=ch.id)
    elif a == "catch_breath":
        ch.catch_breath_declared = True
    elif a == "rally":
        ch.rally_declared = True
    elif a == "reload":
        ch.uses_left[ch.ready_weapon] = weapon(ctx, ch.ready_weapon)["ammo"]
        ctx.ev("reloaded", "5.8", figure=ch.id, weapon=ch.ready_weapon)
    elif a == "unjam":
        ch.jammed.remove(ch.ready_weapon)
        ctx.ev("unjammed", "5.8", figure=ch.id, weapon=ch.ready_weapon)
    elif a == "change_weapon":
        ch.ready_weapon = st["value"]
        ctx.ev("weapon_ready", "5.8", figure=ch.id, weapon=ch.ready_weapon)
    elif a == "pickup":
        index = int(st["key"].split(":")[1])
        tile, w = ctx.state.ground.pop(index)
        ch.weapons.append(w)
        ch.ready_weapon = w
        ctx.ev("picked_up", "5.8", figure=ch.id, weapon=w)
    elif a == "ambush":
        ch.ambush_armed = True
        ch.ambush_declared_turn = ctx.turn
        ctx.ev("ambush_declared", "5.15", visible_to=ch.side, figure=ch.id)


# --- interrupts: knife and ambush ---------------------------------------------------

@step
def op_knife_window(ctx: Ctx, st: dict) -> None:
    """§5.34.4 / A28: a knife-carrier adjacent since the turn began strikes first."""
    enemy = ctx.char(st["enemy"])
    if not able(enemy):
        return
    if "answer" in st:
        key = st.pop("answer")
        if key == "pass":
            return
        kid = key.split(":")[1]
        enemy.activated_this_turn = True
        push(ctx, {"op": "activation", "fig": kid, "mode": "knife", "stage": "begin",
                   "preset": f"strike:{enemy.id}:knife"}, st)
        return
    knifers = [k for k in ctx.in_play() if enemy.id in k.knife_foes and able(k) and not k.activated_this_turn
               and k.offensive and not k.no_offensive_next_activation and hostile(k, enemy) and space.adjacent(k.tile, enemy.tile)
               and "knife" in k.weapons and legal_target(ctx, k, enemy)]
    if not knifers:
        return
    side = controller(knifers[0])
    opts = tuple(Option(f"knife:{k.id}", "knife", k.id, enemy.tile, enemy.id, value="knife")
                 for k in knifers if controller(k) == side) + (Option("pass", "pass"),)
    wait(ctx, st, Decision(side, "knife", opts, info={"rule": "5.34.4", "enemy": enemy.id}))


def ambush_options(ctx: Ctx, enemy: Character) -> list[Option]:
    out = []
    for amb in ctx.in_play():
        if not (amb.ambush_armed and able(amb) and amb.morale >= 3 and hostile(amb, enemy)):
            continue
        act = {"mode": "ambush", "only_target": enemy.id, "no2h": amb.no_two_handed_next_activation,
               "nooff": amb.no_offensive_next_activation}
        for o in action_options(ctx, amb, act):
            if o.action in ATTACKS and o.target == enemy.id:
                out.append(Option(f"amb:{amb.id}:{o.key}", o.action, amb.id, o.tile, o.target, o.path,
                                  o.value, o.cost))
    return out


@step
def op_ambush_window(ctx: Ctx, st: dict) -> None:
    enemy = ctx.char(st["enemy"])
    if not enemy.in_play:
        return
    if st["window"] == "W2" and any(c.tile == enemy.tile for c in ctx.in_play() if c.id != enemy.id):
        return                      # passing through a friend's base: no pause on a shared tile
    if "answer" in st:
        key = st.pop("answer")
        if key == "pass":
            return
        _, aid, sub = key.split(":", 2)
        push(ctx, {"op": "activation", "fig": aid, "mode": "ambush", "stage": "begin", "preset": sub}, st)
        return
    opts = ambush_options(ctx, enemy)
    if not opts:
        return
    side = controller(ctx.char(opts[0].figure))
    opts = tuple(o for o in opts if controller(ctx.char(o.figure)) == side) + (Option("pass", "pass"),)
    wait(ctx, st, Decision(side, "ambush", opts, secret=True,
                           info={"rule": "5.15", "enemy": enemy.id, "window": st["window"]}))


# --- attacks ----------------------------------------------------------------------

@step
def op_attack(ctx: Ctx, st: dict) -> None:
    a, t = ctx.char(st["a"]), ctx.char(st["t"])
    if not (able(a) and t.in_play):
        return
    w = weapon(ctx, st["weapon"])
    if st["kind"] == "throw":
        explosion(ctx, a, t, st)
        return
    if st["kind"] == "strike":
        if not space.adjacent(a.tile, t.tile):
            ctx.ev("attack_cancelled", "5.12", figure=a.id, target=t.id, reason="not in contact")
            return
        diff = strike_difficulty(a, t, w, st["moving"])
    else:
        origin = tuple(st["origin"])
        diff = shot_difficulty(ctx.bf, ctx.state, a, origin, t, w, st["moving"])
        if diff is None or not line_of_sight(ctx.bf, origin, t.tile):
            ctx.ev("attack_cancelled", "5.11", figure=a.id, target=t.id, reason="no shot")
            return
    ctx.ev("attack", "5.17", figure=a.id, target=t.id, weapon=st["weapon"], attack=st["kind"],
           difficulty=diff.value, raw=diff.raw, terms=[list(x) for x in diff.terms], band=diff.band)
    if not diff.possible:
        return
    two_hands = st["kind"] == "strike" and w["range"] is None and "two_hands" in traits(w)
    if st["kind"] == "shoot" and "ammo" in w:
        a.uses_left[st["weapon"]] = a.uses_left.get(st["weapon"], w["ammo"]) - 1
    r = ctx.test(a, diff.raw, "action", "5.22", two_hands=two_hands, target=t.id)
    success = r is None or r.success
    after = {"op": "after_attack", "a": a.id, "t": t.id, "success": success}
    if r is not None and r.critical_success:
        push(ctx, {"op": "critical", "victim": t.id}, after)
    elif success:
        sev = severity_dice(w, diff.band, st["kind"] == "strike")
        push(ctx, hit_step(a, t, w, sev, st["burst"]), after)
    elif r.critical_failure:
        critical_failure(ctx, a, t, st, w, r.ones, after)
    else:
        ctx.simple_failure_morale(a)
        push(ctx, after)


def hit_step(a: Character | None, victim: Character, w: dict, sev, burst: bool) -> dict:
    return {"op": "hit", "a": a.id if a else None, "victim": victim.id, "sev": list(sev), "burst": burst,
            "sharp": "sharp" in traits(w), "blunt": "blunt" in traits(w)}


@step
def op_critical(ctx: Ctx, st: dict) -> None:
    victim = ctx.char(st["victim"])
    if victim.in_play:
        ctx.critical_hit(victim)


@step
def op_hit(ctx: Ctx, st: dict) -> None:
    """Non-critical hit: severity (the roller keeps one die of a C roll), location, burst swap, effects."""
    victim = ctx.char(st["victim"])
    if not victim.in_play:
        return
    roller = ctx.char(st["a"]) if st["a"] else victim
    side = controller(roller)
    n, mode = st["sev"]
    if "values" not in st:
        st["values"] = ctx.roll(roller, "severity", n, "5.35", roll=f"{n}{mode}6")
        st["location"] = ctx.roll(roller, "location", 1, "5.24")[0]
        if st["blunt"]:
            st["third"] = ctx.roll(roller, "blunt", 1, "5.34.3")[0]
    values = st["values"]
    if "kept" not in st:
        if mode == "C" and len(set(values)) > 1:
            if "answer" not in st:
                opts = tuple(Option(f"keep:{v}", "keep_die", roller.id, value=v)
                             for v in sorted(set(values), reverse=True))
                wait(ctx, st, Decision(side, "keep_die", opts, figure=roller.id,
                                       info={"rule": "4.1", "values": values, "purpose": "severity",
                                             "victim": victim.id}))
                return
            st["kept"] = int(st.pop("answer").split(":")[1])
        else:
            st["kept"] = min(values) if mode == "M" else max(values)
        ctx.ev("kept_die", "4.1", figure=roller.id, values=values, kept=st["kept"])
    s, loc = st["kept"], st["location"]
    if st["burst"] and s != loc:
        if "answer" not in st:
            opts = (Option("swap", "swap", value=[loc, s]), Option("no_swap", "no_swap", value=[s, loc]))
            wait(ctx, st, Decision(side, "burst_swap", opts, figure=roller.id,
                                   info={"rule": "5.34.2", "severity": s, "location": loc, "victim": victim.id}))
            return
        if st.pop("answer") == "swap":
            s, loc = loc, s
            ctx.ev("burst_swap", "5.34.2", figure=roller.id, severity=s, location=loc)
    ctx.apply_hit(victim, s, loc, st["sharp"], st.get("third"))


def critical_failure(ctx: Ctx, a: Character, t: Character, st: dict, w: dict, ones: int, after: dict) -> None:
    """§5.32: friendly fire on a shot's line, otherwise the incident table."""
    if st["kind"] == "shoot":
        crossed = friendly_crossed(ctx, a, tuple(st["origin"]), t.tile)
        if crossed:
            ally = crossed[0]
            band = shot_band(tuple(st["origin"]), ally.tile, w, ctx.state.cm_per_tile)
            band = "point_blank" if band in (None, "contact") else band
            ctx.ev("friendly_fire", "5.32", figure=a.id, victim=ally.id)
            push(ctx, hit_step(a, ally, w, severity_dice(w, band, False), False), after)
            return
    d = ctx.roll(a, "critical_failure", 1, "5.32")[0]
    score = d - ones
    if score >= 1:
        ctx.ev("incident", "5.32", figure=a.id, result="more_fear_than_harm")
        ctx.change_morale(a, -1, "critical_failure", "5.32")
        push(ctx, after)
    elif score == 0:
        fell = not ctx.passes(a, 1, "minor_incident", "5.32")
        ctx.ev("incident", "5.32", figure=a.id, result="minor_incident", fell=fell)
        push(ctx, {"op": "incident", "a": a.id, "fell": fell}, after)
    else:
        ctx.ev("incident", "5.32", figure=a.id, result="major_incident")
        push(ctx, {"op": "hit", "a": None, "victim": a.id, "sev": [1, "D"], "burst": False, "sharp": False,
                   "blunt": False}, {"op": "major_incident", "a": a.id}, after)


@step
def op_incident(ctx: Ctx, st: dict) -> None:
    a = ctx.char(st["a"])
    if not a.in_play:
        return
    if a.ready_weapon != "unarmed":
        if "answer" not in st:
            opts = (Option("jam", "jam", a.id, value=a.ready_weapon), Option("drop", "drop", a.id, value=a.ready_weapon))
            wait(ctx, st, Decision(controller(a), "incident", opts, figure=a.id, info={"rule": "5.32"}))
            return
        if st["answer"] == "jam":
            if a.ready_weapon not in a.jammed:
                a.jammed.append(a.ready_weapon)
            ctx.ev("jammed", "5.32", figure=a.id, weapon=a.ready_weapon)
        else:
            ctx.drop_weapon(a, "5.32")
    ctx.change_morale(a, -1, "minor_incident", "5.32")
    if st["fell"]:
        ctx.fall_prone(a, "minor_incident", "5.32")


@step
def op_major_incident(ctx: Ctx, st: dict) -> None:
    a = ctx.char(st["a"])
    if a.in_play:
        ctx.change_morale(a, -1, "major_incident", "5.32")
        ctx.fall_prone(a, "major_incident", "5.32")


def explosion(ctx: Ctx, a: Character, primary: Character, st: dict) -> None:
    """§5.34.5 / A63: no firer roll; every figure within 2X of the impact rolls at 2+."""
    w = weapon(ctx, st["weapon"])
    size = w["explosion"]
    impact = primary.tile
    a.uses_left[st["weapon"]] = a.uses_left.get(st["weapon"], 1) - 1
    if a.uses_left[st["weapon"]] <= 0:
        if st["weapon"] in a.weapons:
            a.weapons.remove(st["weapon"])
        a.ready_weapon = "unarmed"
    ctx.ev("explosion", "5.34.5", figure=a.id, impact=impact, size=size)
    steps, primary_hit = [], False
    for v in sorted(ctx.in_play(), key=lambda c: (space.distance(impact, c.tile), c.id)):
        diff = blast_difficulty(ctx.bf, impact, v, size, ctx.state.cm_per_tile)
        if diff is None:
            continue
        ctx.ev("attack", "5.34.5", figure=a.id, target=v.id, weapon=st["weapon"], attack="blast",
               difficulty=diff.value, raw=diff.raw, terms=[list(x) for x in diff.terms], band=diff.band)
        if not diff.possible:
            continue
        r = ctx.test(a, diff.raw, "blast", "5.34.5", need=2, target=v.id)
        if r is None or r.success:
            steps.append(hit_step(a, v, w, severity_dice(w, diff.band, False), False))
            primary_hit = primary_hit or v.id == primary.id
    if primary_hit:
        steps.append({"op": "after_attack", "a": a.id, "t": primary.id, "success": True})
    push(ctx, *steps)


@step
def op_after_attack(ctx: Ctx, st: dict) -> None:
    """§5.19 AFF bookkeeping, then the reaction owed by the target (§5.20)."""
    a, t = ctx.char(st["a"]), ctx.char(st["t"])
    if "answer" in st:
        if st.pop("answer") == "switch":
            ctx.join_aff(t, a.aff)
        ctx.check_engagements()
        return
    if a.in_play and t.in_play:
        if a.aff is None and t.aff is not None:
            ctx.join_aff(a, t.aff)
        elif a.aff is not None and t.aff is None:
            ctx.join_aff(t, a.aff)
        elif a.aff is not None and t.aff is not None and a.aff != t.aff:
            ctx.ev("crossfire", "5.19", figure=t.id, attacker=a.id)
            ctx.change_morale(t, -1, "crossfire", "5.19")
            owe_reaction(ctx, a, t, st["success"])
            opts = (Option("keep", "keep_aff", t.id, value=t.aff), Option("switch", "switch_aff", t.id, value=a.aff))
            wait(ctx, st, Decision(controller(t), "crossfire", opts, figure=t.id, info={"rule": "5.19"}))
            return
        elif a.aff is None and t.aff is None and st["success"]:
            ctx.new_aff(a, t)
    owe_reaction(ctx, a, t, st["success"])
    ctx.check_engagements()


def owe_reaction(ctx: Ctx, a: Character, t: Character, success: bool) -> None:
    if t.in_play and able(t) and not t.activated_this_turn and t.morale_state != ROUTING:
        ctx.state.reactions.append({"t": t.id, "a": a.id, "forced": success})


@step
def op_reactions(ctx: Ctx, st: dict) -> None:
    state = ctx.state
    while state.reactions:
        r = state.reactions[0]
        t, a = ctx.char(r["t"]), ctx.char(r["a"])
        if not (able(t) and not t.activated_this_turn):
            state.reactions.pop(0)
            continue
        if r["forced"]:
            state.reactions.pop(0)
            push(ctx, {"op": "activation", "fig": t.id, "mode": "reaction", "stage": "start", "attacker": a.id},
                 {"op": "reactions"})
            return
        if "answer" not in st:
            opts = (Option("respond", "reaction", t.id, target=a.id), Option("decline", "pass", t.id, target=a.id))
            wait(ctx, st, Decision(controller(t), "reaction", opts, figure=t.id,
                                   info={"rule": "5.20", "attacker": a.id}))
            return
        state.reactions.pop(0)
        if st.pop("answer") == "respond":
            ctx.ev("response", "5.20", figure=t.id, attacker=a.id)
            if a.in_play and a.aff is None and t.aff is None:
                ctx.new_aff(a, t)
            push(ctx, {"op": "activation", "fig": t.id, "mode": "reaction", "stage": "start", "attacker": a.id},
                 {"op": "reactions"})
            return
        t.ignores.append(a.id)
        ctx.ev("declined", "5.20", figure=t.id, attacker=a.id)


# --- phase 3 ------------------------------------------------------------------------

@step
def op_assessment(ctx: Ctx, st: dict) -> None:
    state = ctx.state
    ctx.ev("assessment", "3.5", turn=state.turn)
    chars = sorted(ctx.in_play(), key=lambda c: (c.side, c.id))
    for ch in chars:
        if ch.in_play and ch.catch_breath_declared:
            ctx.lose_fatigue(ch, max(1, 6 - ch.total_wounds()), "catch_breath", "5.9")
    for ch in chars:
        if ch.in_play:
            ctx.hemorrhage_rolls(ch)
    for ch in chars:
        if ch.in_play:
            ctx.recompute(ch)
    for ch in chars:
        if (ch.in_play and not ch.fatigue_gained_this_turn and ch.total_wounds() <= 3
                and ch.no_recovery_turn != state.turn):
            ctx.lose_fatigue(ch, 1, "natural_recovery", "3.5")
    for ch in chars:
        if ch.in_play and ch.rally_declared and ch.aff is None and ctx.passes(ch, 2, "rally", "5.10"):
            gain = 2 if ctx.roll(ch, "rally_gain", 1, "5.10")[0] == 6 else 1
            ctx.change_morale(ch, gain, "rally", "5.10")
    breach = False
    for ch in sorted(state.chars.values(), key=lambda c: c.id):
        if ch.side != state.attacker:
            continue
        excused = not ch.in_play or ch.commitment_excused_this_turn
        if ch.directive_lost or (ch.offensive and not ch.did_offensive_action_this_turn and not excused):
            breach = True                       # a lost directive is never excused (§3.3)
            ctx.ev("commitment_broken", "3.6", figure=ch.id)
            if ch.in_play:
                ctx.change_morale(ch, -1, "commitment", "3.6")
    if breach:
        state.barred = state.attacker
    for ch in state.chars.values():
        ch.activated_this_turn = False
        ch.fatigue_gained_this_turn = False
        ch.did_offensive_action_this_turn = False
        ch.commitment_excused_this_turn = False
        ch.catch_breath_declared = False
        ch.rally_declared = False
    check_end(ctx)


def check_end(ctx: Ctx) -> None:
    """§5.36 (A73): a side with no character left loses; both at once is a draw; then the turn limit."""
    state = ctx.state
    alive = {s: sum(1 for c in ctx.in_play() if c.side == s) for s in (0, 1)}
    if alive[0] == 0 or alive[1] == 0:
        state.finished = True
        state.winner = None if alive[0] == alive[1] else (0 if alive[0] else 1)
        state.end_reason = "no character left" if state.winner is not None else "both sides wiped out"
    elif state.turn >= state.max_turns:
        state.finished = True
        state.winner = None if alive[0] == alive[1] else (0 if alive[0] > alive[1] else 1)
        state.end_reason = "turn limit: more characters in play" if state.winner is not None else "turn limit: equal"
    if state.finished:
        ctx.ev("game_over", "5.36", winner=state.winner, reason=state.end_reason, in_play={str(k): v for k, v in alive.items()})

