"""Warbands: the seed's equipment lists as the roster's vocabulary, the loadout limits (rules/mordgrave.md
2.4: one Chief, at most two Champions, two hands, faction lists) and figures built from roster entries.

A roster entry is a plain dict: ``name``, ``faction``, ``role``, ``main``, ``second``, ``shield``,
``armour``, ``cloak``, ``hands_free``, ``ranged`` (one weapon or a list, a Lost weapon once per throw),
``modes`` (the combat-modes special rule), and optionally a profile value (``Mouv``…) or an ``id``.
"""
from __future__ import annotations

from typing import Any

from ...engine.protocol import Army, Words
from .state import LEADERS, PROFILE, Carried, Figure, data, rule

ROLES = LEADERS + ("henchman",)
SIDE_PREFIX = ("a", "b")
SLOTS = ("main", "second", "shield", "armour", "cloak", "hands_free")


def _value(spec: dict, key: str) -> Any:
    """An optional slot: missing, None and "none" all mean empty."""
    v = spec.get(key)
    return None if v in (None, "none") else v


def allowed(item: dict, faction: str) -> bool:
    """Classic lists are open to every faction, a faction's own list to that faction only (2.4)."""
    return item.get("faction") in (None, faction)


def ranged_list(spec: dict) -> list:
    v = spec.get("ranged")
    if v in (None, "none"):
        return []
    return [v] if isinstance(v, str) else v


def melee_hands(main: dict | None, second: str | None, shield: str | None) -> int:
    """Hands the melee loadout takes; an Elven blade takes two only when the other hand is free (4.22)."""
    n = 0
    if main is not None:
        n += 1 if "versatile" in main["rules"] else main["hands"]
    return n + (second is not None) + (shield is not None)


def figure_problems(spec: dict, faction: str) -> list[Words]:
    """What makes one roster entry illegal for a warband of ``faction``, in the module's words."""
    d = data()
    if not isinstance(spec, dict):
        return [Words("problem.entry")]
    who = str(spec.get("name", "?"))
    out = []
    own = spec.get("faction", faction)
    if own != faction:
        out.append(Words("problem.faction_mixed", figure=who, faction=str(own), warband=faction))
    if spec.get("role", "henchman") not in ROLES:
        out.append(Words("problem.role", figure=who, value=str(spec.get("role"))))
    for key in PROFILE:
        if key in spec:
            v, (lo, hi) = spec[key], d["profile_ranges"][key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                out.append(Words("problem.profile", figure=who, stat=key, value=str(v), lo=lo, hi=hi))
    if not isinstance(spec.get("modes", False), bool):
        out.append(Words("problem.modes", figure=who))
    lists = {"main": d["melee"], "second": d["melee"], "shield": d["shields"], "armour": d["armour"],
             "cloak": d["cloaks"], "hands_free": d["melee"]}
    items = {}
    for key in SLOTS:
        v = _value(spec, key)
        if v is None:
            continue
        if not isinstance(v, str) or v not in lists[key]:
            out.append(Words("problem.unknown_item", figure=who, slot=key, item=str(v)))
            continue
        items[key] = v
        if not allowed(lists[key][v], faction):
            out.append(Words("problem.faction_item", figure=who, item=v, faction=lists[key][v]["faction"]))
    ranged = ranged_list(spec)
    if not isinstance(ranged, list) or not all(isinstance(r, str) for r in ranged):
        out.append(Words("problem.ranged_list", figure=who))
        ranged = []
    for r in ranged:
        if r not in d["ranged"]:
            out.append(Words("problem.unknown_item", figure=who, slot="ranged", item=r))
        elif not allowed(d["ranged"][r], faction):
            out.append(Words("problem.faction_item", figure=who, item=r, faction=d["ranged"][r]["faction"]))
    main = d["melee"].get(items.get("main", ""))
    second = d["melee"].get(items.get("second", ""))
    if main is not None and main["category"] == "hands_free":
        out.append(Words("problem.main_kind", figure=who, item=items["main"]))
    if "hands_free" in items and d["melee"][items["hands_free"]]["category"] != "hands_free":
        out.append(Words("problem.hands_free_kind", figure=who, item=items["hands_free"]))
    if second is not None:
        if second["category"] not in rule("second_weapon"):
            out.append(Words("problem.second_kind", figure=who, item=items["second"]))
        if main is None or main["hands"] != 1:
            out.append(Words("problem.second_needs_one_hand", figure=who))
        if "shield" in items:
            out.append(Words("problem.second_and_shield", figure=who))
    hands = melee_hands(main, items.get("second"), items.get("shield"))
    if hands > rule("hands"):
        out.append(Words("problem.hands", figure=who, n=hands, hands=rule("hands")))
    return out


def army_problems(army: Army) -> list[Words]:
    """Why a warband may not be played: its entries, one faction, one Chief, at most two Champions."""
    figures = army.figures
    if not isinstance(figures, list) or not figures:
        return [Words("problem.empty", side=army.side)]
    first = figures[0] if isinstance(figures[0], dict) else {}
    faction = first.get("faction", "empire")
    if faction not in data()["factions"]:
        return [Words("problem.faction", faction=str(faction))]
    out = []
    for spec in figures:
        out += figure_problems(spec, faction)
    roles = [spec.get("role", "henchman") for spec in figures if isinstance(spec, dict)]
    if roles.count("chief") != rule("chiefs"):
        out.append(Words("problem.chiefs", n=roles.count("chief"), need=rule("chiefs")))
    if roles.count("champion") > rule("champions_max"):
        out.append(Words("problem.champions", n=roles.count("champion"), max=rule("champions_max")))
    return out


def figure_choices(spec: dict) -> dict[str, list]:
    """What each field of a roster entry may be, within its faction's lists."""
    d = data()
    faction = spec.get("faction", "empire")
    melee = [k for k, w in d["melee"].items() if allowed(w, faction)]
    return {
        "faction": list(d["factions"]),
        "role": list(ROLES),
        "main": ["none"] + [k for k in melee if d["melee"][k]["category"] != "hands_free"],
        "second": ["none"] + [k for k in melee if d["melee"][k]["category"] in rule("second_weapon")],
        "shield": list(d["shields"]),
        "armour": list(d["armour"]),
        "cloak": [k for k, c in d["cloaks"].items() if allowed(c, faction)],
        "hands_free": ["none"] + [k for k in melee if d["melee"][k]["category"] == "hands_free"],
        "ranged": ["none"] + [k for k, w in d["ranged"].items() if allowed(w, faction)],
        "modes": [False, True],
    }


def warband(faction: str, side: int) -> Army:
    wb = data()["warbands"][faction]
    return Army(side, wb["name"], [{**f, "faction": faction} for f in wb["figures"]])


def recruits() -> list[dict]:
    """Every entry of every faction's warband, as templates to add."""
    return [f for faction in data()["warbands"] for f in warband(faction, 0).figures]


def build_figure(side: int, index: int, spec: dict, tile) -> Figure:
    """A figure from a roster entry that ``figure_problems`` accepts."""
    d = data()
    prof = {k: int(spec.get(k, d["profile"][k])) for k in PROFILE}
    return Figure(id=str(spec.get("id") or f"{SIDE_PREFIX[side]}{index + 1}"), side=side,
                  name=str(spec.get("name", spec.get("role", "henchman"))), faction=spec.get("faction", "empire"),
                  role=spec.get("role", "henchman"), tile=tile, vit=prof["Vit"], **prof,
                  main=_value(spec, "main"), second=_value(spec, "second"), shield=_value(spec, "shield") or "none",
                  armour=_value(spec, "armour") or "none", cloak=_value(spec, "cloak") or "none",
                  hands_free=_value(spec, "hands_free"), ranged=[Carried(r) for r in ranged_list(spec)],
                  modes=bool(spec.get("modes", False)))
