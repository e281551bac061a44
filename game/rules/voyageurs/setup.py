"""Setting a battle up: combatants from army specs, transports and crews, the scenario settings of the
map (surprise, knowledge difficulty, landscape, objective) and the objects lying on it."""
from __future__ import annotations

from ...engine import space
from ...engine.battlefield import Battlefield
from ...engine.protocol import Army, Words
from ...errors import RulesError
from .model import Combatant, Gadget, GroundItem, State, Transport, data, difficulty

SCENARIO = ("surprise", "knowledge_difficulty", "landscape", "objective")
OBJECTIVES = ("defeat", "capture")


def is_transport(spec: dict) -> bool:
    return spec.get("kind") in data()["transports"]


def spec_problems(spec: dict) -> list[Words]:
    """What is wrong with one combatant spec, in the module's words (empty when it may fight)."""
    d = data()
    kind = spec.get("kind")
    if kind not in d["roster"]:
        return [Words("problem.kind", kind=str(kind))]
    out = []
    lo, hi = d["characteristic_range"]
    for name in d["characteristics"]:
        if name in spec and not (isinstance(spec[name], int) and lo <= spec[name] <= hi):
            out.append(Words("problem.characteristic", name=name, value=str(spec[name]), lo=lo, hi=hi))
    for slot in ("weapon", "carried"):
        if spec.get(slot) is not None and spec[slot] not in d["weapons"]:
            out.append(Words("problem.weapon", weapon=str(spec[slot])))
    items = spec.get("items", [])
    if not isinstance(items, list) or len(items) > d["item_slots"] or any(i not in d["items"] for i in items):
        out.append(Words("problem.items", slots=d["item_slots"]))
    return out


def build_combatant(spec: dict, side: int, index: int, names: list[str]) -> Combatant:
    d = data()
    kind = spec["kind"]
    r = d["roster"][kind]
    traits = {name: int(spec.get(name, r[name])) for name in d["characteristics"]}
    weapons = list(r["weapons"]) + [None, None]
    c = Combatant(id=str(spec.get("id") or f"{'ab'[side]}{index + 1}"), side=side, kind=kind,
                  name=str(spec.get("name") or names.pop(0)), traits=traits, pv=0, pe=0,
                  level=int(spec.get("level", r["level"])), abilities=list(r["abilities"]),
                  weapon=spec.get("weapon", weapons[0]), carried=spec.get("carried", weapons[1]),
                  items=list(spec.get("items", r["items"])), mov=int(r["mov"]))
    c.pv = min(int(spec.get("pv", c.max_pv)), c.max_pv)
    c.pe = max(0, min(int(spec.get("pe", c.max_pe)), c.max_pe))
    return c


def free_names(armies: list[Army]) -> list[str]:
    used = {f.get("name") for a in armies for f in a.figures}
    return [n for n in data()["names"] if n not in used] + [f"#{i}" for i in range(1, 100)]


def build_transport(spec: dict, side: int, crew: list[str]) -> Transport:
    prof = data()["transports"][spec["kind"]]
    start = data()["track"]["start"][side]
    return Transport(id=str(spec.get("id") or f"{'ab'[side]}t"), side=side, kind=spec["kind"],
                     name=str(spec.get("name") or spec["kind"]), case=int(spec.get("case", start)),
                     speed=int(spec.get("speed", prof["speed"])), pv=int(spec.get("pv", prof["pv"])),
                     pe=int(spec.get("pe", prof["pe"])), crew=crew)


def aerial_problems(army: Army) -> list[Words]:
    ships = [f for f in army.figures if is_transport(f)]
    crew = [f for f in army.figures if not is_transport(f)]
    out = []
    if len(ships) != 1:
        out.append(Words("problem.transports", n=len(ships)))
    if not crew:
        out.append(Words("problem.no_crew"))
    if sum(1 for f in crew if f.get("pilot")) > 1:
        out.append(Words("problem.pilots"))
    return out


def scenario(state: State, bf: Battlefield) -> None:
    """Map properties with their defaults (docs/maps.md, section Voyageurs)."""
    props = bf.properties
    landscape = str(props.get("landscape", data()["default_landscape"])).strip().lower()
    if landscape not in data()["landscapes"]:
        raise RulesError("map", f"map property landscape '{landscape}' is not one of: "
                                f"{', '.join(data()['landscapes'])}")
    state.landscape = landscape
    if "knowledge_difficulty" in props:
        state.knowledge_difficulty = difficulty(props["knowledge_difficulty"], "map property knowledge_difficulty")
    objective = str(props.get("objective", "defeat")).strip().lower()
    if objective not in OBJECTIVES:
        raise RulesError("map", f"map property objective '{objective}' is not one of: {', '.join(OBJECTIVES)}")
    state.objective = objective


def surprise(state: State, bf: Battlefield) -> int | None:
    """The scenario's ``surprise`` (0, 1 or none), else who starts hidden and watching (5.11)."""
    value = str(bf.properties.get("surprise", "auto")).strip().lower()
    if value in ("0", "1"):
        return int(value)
    if value == "none":
        return None
    if value != "auto":
        raise RulesError("map", f"map property surprise '{value}' is not one of: 0, 1, none, auto")
    sides = {s: [c.tile for c in state.side_of(s) if c.tile is not None] for s in (0, 1)}

    def hidden_and_watching(s: int) -> bool:
        mine, theirs = sides[s], sides[1 - s]
        if not mine or not theirs:
            return False
        on_hiding = [t for t in mine if bf.hiding[t[1], t[0]]]
        unseen = all(t in on_hiding or not any(space.line_of_sight(bf, t, e) for e in theirs) for t in mine)
        watching = any(space.line_of_sight(bf, t, e) for t in on_hiding for e in theirs)
        return unseen and watching

    able = [s for s in (0, 1) if hidden_and_watching(s)]
    return able[0] if len(able) == 1 else None


def map_objects(state: State, bf: Battlefield) -> None:
    """Items of this rule system lying on the map (others' items are not Voyageurs things) and
    interactive objects (5.8)."""
    d = data()
    for obj in bf.objects_of("item"):
        thing = obj.properties.get("item")
        if thing in d["items"] or thing in d["weapons"]:
            state.items.append(GroundItem(f"i{len(state.items) + 1}", thing, obj.tiles[0]))
    for obj in bf.objects_of("interactive"):
        place = f"map object '{obj.name or 'interactive'}'"
        effect = str(obj.properties.get("effect", "")).strip().lower()
        name, _, amount = effect.partition(":")
        if not (name == "doors" and not amount or name in ("heal", "energy") and amount.isdigit()):
            raise RulesError(place, f"effect '{effect}' is not one of: heal:N, energy:N, doors")
        test = None
        if obj.properties.get("test"):
            parts = [p.strip() for p in str(obj.properties["test"]).split(",")]
            if len(parts) != 3 or parts[0] not in d["characteristics"] or parts[1] not in d["characteristics"]:
                raise RulesError(place, f"test '{obj.properties['test']}' should read X,Y,difficulty "
                                        f"with X and Y among {', '.join(d['characteristics'])}")
            difficulty(parts[2], place)
            test = parts
        state.gadgets.append(Gadget(f"g{len(state.gadgets) + 1}", obj.name or "interactive",
                                    tuple(obj.tiles), effect, test))
