"""The aerial battle (5.16): transports on a six-case track, manoeuvre speed as initiative, volleys from
the firing posts paid with the transport's PE, and boarding fought as a ground fight on the deck map."""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import events as ev
from ...engine import space
from ...engine.decision import Decision, Option
from ...engine.deploy import start_tiles
from ...engine.events import Event
from ...engine.steps import Step
from .checks import roll_damage, roll_test
from .fight import affect, end_boarding, flush, settle, slots_by, start_round
from .ground import Talk, talk_options
from .model import Boarding, Combatant, Fight, Game, State, Transport, data


BOARDING_GAP = 3                # boarders come aboard a map with no zones more than this many pas away

# --- the track (5.16.2, 5.16.4) --------------------------------------------------------------

def rival(st: State, t: Transport) -> Transport:
    """The other side's transport: one per side (project default, 5.16)."""
    return next(o for o in st.transports.values() if o.side != t.side)


def between(a: Transport, b: Transport) -> int:
    return abs(a.case - b.case) - 1


def range_modifier(cases_between: int) -> int:
    return data()["track"]["modifiers"][str(cases_between)]


def case_free(st: State, t: Transport, case: int) -> bool:
    """A case on the track that no other transport holds; a move of one case cannot pass over one."""
    return 1 <= case <= data()["track"]["length"] and all(o.case != case for o in st.transports.values()
                                                           if o is not t and o.flying)


def manoeuvres(st: State, t: Transport) -> list[Option]:
    foe = rival(st, t)
    toward = 1 if foe.case > t.case else -1
    out = []
    for action, step in (("approach", toward), ("withdraw", -toward)):
        if case_free(st, t, t.case + step):
            out.append(Option(f"{action}:{t.case + step}", action, t.id, value=t.case + step))
    return out


# --- crews and volleys (5.16.5) --------------------------------------------------------------

def aboard(st: State, t: Transport) -> list[Combatant]:
    """Its conscious crew at their posts (not fighting on the deck), the pilot first."""
    crew = [st.fig(c) for c in t.crew]
    return sorted((c for c in crew if c.conscious and not c.on_deck), key=lambda c: not c.pilot)


def gunners(st: State, t: Transport) -> list[Combatant]:
    """Every crew member at a post fires, up to the posts, and one PE each (5.16.5 item 1)."""
    return aboard(st, t)[:max(0, min(t.profile["posts"], t.pe))]


def volley(game: Game, t: Transport, foe: Transport, modifier: int, rule: str) -> None:
    st = game.state
    crew = gunners(st, t)
    t.pe -= len(crew)
    game.emit(Event("volley", {"figure": t.id, "target": foe.id, "gunners": [c.id for c in crew],
                               "modifier": modifier, "pe": t.pe}, rule=rule))
    total, hits = 0, 0
    for g in crew:
        r = roll_test(game, g, "aerial_to_hit", t.profile["to_hit"] + modifier, foe.speed, rule, target=foe.id)
        game.emit(ev.attack(g.id, foe.id, "ranged", r.success, rule, critical=r.critical, transport=t.id))
        if r.success:
            hits += 1
            total += roll_damage(game, g.id, t.profile["damage"], r.critical, rule, target=foe.id)
    if hits:
        affect(game, {"kind": "structure", "target": foe.id, "amount": total, "rule": rule, "by": t.id})
    settle(game)


# --- the turn (5.16.3) -----------------------------------------------------------------------

def start_aerial_turn(game: Game) -> None:
    """Failed flights cost speed from the next turn (5.16.7); a boarding in progress plays a deck round."""
    st = game.state
    battle = st.battle
    battle.round += 1
    st.turn = battle.round
    battle.truce.clear()
    for t in st.transports.values():
        if t.side in battle.penalised:
            t.speed += data()["modifiers"]["flight_failed"]
    battle.penalised.clear()
    game.emit(ev.turn(st.turn, "5.16.3"))
    if st.boarding is not None:
        start_round(game, st.deck)
        st.phase = "deck"
        return
    battle.slots = slots_by([t.id for t in st.transports.values() if t.flying],
                            lambda tid: (-st.transports[tid].speed,))
    st.phase = "turn"


@dataclass
class TransportActivation(Step):
    transport: str

    def run(self, game: Game) -> Decision | None:
        st = game.state
        t = st.transports[self.transport]
        st.active = t.id
        game.emit(Event("activation", {"figure": t.id, "initiative": t.speed, "case": t.case}, rule="5.16.3"))
        st.steps.push(TransportTurn(t.id))
        return None


@dataclass
class TransportTurn(Step):
    """One optional move of one case, before the action; then attack, board (0 cases between) or nothing."""

    transport: str
    moved: bool = False
    fresh: bool = True

    def run(self, game: Game) -> Decision | None:
        st = game.state
        t = st.transports[self.transport]
        foe = rival(st, t)
        answer = self.take_answer()
        if answer is None:
            return Decision(t.side, "action", tuple(self.options(st, t, foe)), figure=t.id,
                            info={"case": t.case, "between": between(t, foe)})
        if answer.action in ("approach", "withdraw"):
            game.emit(Event("manoeuvre", {"figure": t.id, "from": t.case, "to": answer.value,
                                          "between": abs(answer.value - foe.case) - 1}, rule="5.16.4"))
            t.case = answer.value
            st.steps.push(TransportTurn(t.id, True, False))
        elif answer.action == "talk":
            st.steps.push(Talk(t.id, self.fresh), TransportTurn(t.id, self.moved, self.fresh))
        elif answer.action == "fire":
            st.active = None
            volley(game, t, foe, range_modifier(between(t, foe)), "5.16.5")
        elif answer.action == "board":
            start_boarding(game, t, foe)
        else:
            st.active = None
        return None

    def options(self, st: State, t: Transport, foe: Transport) -> list[Option]:
        opts = [] if self.moved else manoeuvres(st, t)
        if gunners(st, t) and foe.flying:
            opts.append(Option(f"fire:{foe.id}", "fire", t.id, target=foe.id))
        if between(t, foe) == data()["track"]["boarding_between"] and foe.flying and \
                any(not c.pilot for c in aboard(st, t)):
            opts.append(Option(f"board:{foe.id}", "board", t.id, target=foe.id))
        if talk_options(st, t.side, t.id, self.fresh):
            opts.append(Option("talk", "talk", t.id))
        opts.append(Option("end", "end", t.id, ends="activation"))
        return opts


# --- boarding (5.16.6) -----------------------------------------------------------------------

def start_boarding(game: Game, t: Transport, foe: Transport) -> None:
    """Engaging is the transport's action; it is not one of the changes a simultaneous group holds back
    (4.4), so it starts at once, after what the group held back, and ends the transports' turn."""
    st = game.state
    battle = st.battle
    if battle.grouped:
        battle.group.clear()
        flush(game, battle)
        if st.over:
            return
    battle.slots.clear()
    st.steps.discard(lambda s: True)
    st.active = None
    boarders = [c.id for c in aboard(st, t) if not c.pilot]
    st.boarding = Boarding(t.id, foe.id, boarders)
    game.emit(Event("boarding", {"figure": t.id, "target": foe.id, "boarders": boarders}, rule="5.16.6"))
    st.steps.push(ChooseDefenders())


@dataclass
class ChooseDefenders(Step):
    """The boarded side sends as many defenders as it wishes as long as one stays aboard to pilot; the
    French original names no pilot here ("qu'il en reste au moins un qui restera pour piloter"), so
    its pilot may go and whoever stays takes the controls."""

    def run(self, game: Game) -> Decision | None:
        st = game.state
        b = st.boarding
        boarded = st.transports[b.boarded]
        answer = self.take_answer()
        if answer is not None and answer.action == "defend":
            b.defenders.append(answer.figure)
        if answer is None or answer.action == "defend":
            left = [c for c in aboard(st, boarded) if c.id not in b.defenders]
            if len(left) > 1:
                opts = [Option(f"defend:{c.id}", "defend", c.id) for c in left]
                opts.append(Option("defenders_done", "defenders_done", boarded.id))
                return Decision(boarded.side, "defenders", tuple(opts), figure=boarded.id,
                                info={"boarders": len(b.boarders), "defenders": len(b.defenders)})
        game.emit(Event("defenders", {"figure": boarded.id, "defenders": list(b.defenders)}, rule="5.16.6"))
        if not b.defenders:
            end_boarding(game, True, "undefended")
            return None
        stays = [c for c in aboard(st, boarded) if c.id not in b.defenders]
        if not any(c.pilot for c in stays):
            for cid in boarded.crew:
                st.fig(cid).pilot = False
            stays[0].pilot = True
            game.emit(Event("pilot", {"figure": stays[0].id, "transport": boarded.id}, rule="5.16.6"))
        deck_battle(game)
        return None


def zone_tiles(st: State, kind: str, taken: set) -> list:
    """Free standable tiles of the deck map's zones of this kind (boarding or crew)."""
    bf = st.battlefield
    zone: list = []
    for o in bf.objects_of(kind):
        zone += [t for t in o.tiles if bf.can_stand(t) and t not in taken and t not in zone]
    return zone


def near(st: State, around: list, taken: set) -> list:
    """On a map with no boarding zone the boarders come aboard on the free ground nearest the defenders,
    more than ``BOARDING_GAP`` pas away, so that no one starts in contact."""
    bf = st.battlefield
    free = [(x, y) for y in range(bf.height) for x in range(bf.width)
            if bf.can_stand((x, y)) and (x, y) not in taken
            and all(not space.within((x, y), t, BOARDING_GAP) for t in around)]
    return sorted(free, key=lambda t: (min(space.distance(t, a) for a in around), t))


def deck_battle(game: Game) -> None:
    """Defenders in the crew zone, boarders in the boarding zone (5.16.6 item 3; on a map without them,
    the defenders on their side's ground and the boarders beside them); a fresh initiative test for
    everyone, without surprise; then the ground rules."""
    st = game.state
    b = st.boarding
    side = st.transports[b.boarder].side
    taken: set = set()
    for ids, zone in ((b.defenders, "crew_zone"), (b.boarders, "boarding_zone")):
        tiles = zone_tiles(st, zone, taken)
        if ids is b.defenders:
            tiles += [t for t in start_tiles(st.battlefield, 1 - side, taken | set(tiles)) if t not in tiles]
        else:
            tiles += near(st, [st.fig(c).tile for c in b.defenders], taken | set(tiles))
        for cid, tile in zip(list(ids), tiles):
            c = st.fig(cid)
            c.tile, c.on_deck, c.observed = tile, True, None
            taken.add(tile)
            game.emit(Event("on_deck", {"figure": cid, "tile": list(tile)}, rule="5.16.6"))
        ids[:] = [cid for cid in ids if st.fig(cid).on_deck]
    for cid in b.boarders + b.defenders:
        c = st.fig(cid)
        c.initiative = roll_test(game, c, "initiative", c.pair("initiative"), None, "5.16.6").total
        game.emit(Event("initiative", {"figure": c.id, "value": c.initiative}, rule="5.16.6"))
    st.deck = Fight(b.boarders + b.defenders, fleeing=[side] if st.transports[b.boarder].flying else [])
    start_round(game, st.deck)
    st.phase = "deck"


@dataclass
class CounterAttack(Step):
    """After each deck round the boarded transport may fire on the boarding one, with the crew left at
    the posts and the modifier of 0 cases between; the boarding transport does not act."""

    def run(self, game: Game) -> Decision | None:
        st = game.state
        b = st.boarding
        answer = self.take_answer()
        if b is not None:
            boarded, boarder = st.transports[b.boarded], st.transports[b.boarder]
            if answer is None:
                if boarder.flying and gunners(st, boarded):
                    return Decision(boarded.side, "counter", (
                        Option(f"fire:{boarder.id}", "fire", boarded.id, target=boarder.id),
                        Option("hold_fire", "hold_fire", boarded.id)), figure=boarded.id)
            elif answer.action == "fire":
                volley(game, boarded, boarder, range_modifier(data()["track"]["boarding_between"]), "5.16.6")
        if not st.over:
            st.phase = "turn_end"
        return None
