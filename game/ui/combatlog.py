"""The combat log in words: every event, every die and the rule applied, in the player's language."""
from __future__ import annotations

from string import Formatter

from .i18n import has, tr

SIDE_KEYS = ("side", "initiative", "winner", "owner", "first", "attacker", "defender", "high_bidder", "who")
TERM_PREFIX = {"purpose": ("purpose",), "reason": ("reason", "term"), "why": ("reason", "term"),
               "action": ("action",), "phase": ("phase",), "gauge": ("term",)}      # field -> tables
VARIANTS = ("", ".b", ".c")      # one kind of event worded by the facts it carries: the first that fits


class Blank(dict):
    """Format values where a missing field shows as '?' rather than raising."""

    def __missing__(self, key):
        return "?"


def in_words(key: str, value, names: dict[str, str]) -> str:
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, (list, tuple)):
        if key != "faces" and len(value) == 2 and all(isinstance(v, int) for v in value):
            return f"({value[0]},{value[1]})"
        return ", ".join(in_words(key, v, names) for v in value)
    if key in SIDE_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return tr(f"side.{value}", str(value))
    if isinstance(value, str):
        for table in TERM_PREFIX.get(key, ()):
            if has(f"{table}.{value}"):
                return tr(f"{table}.{value}")
    if value is None:
        return "-"
    if isinstance(value, bool):
        word = "yes" if value else "no"
        if has(f"value.{key}.{word}"):
            return tr(f"value.{key}.{word}")
        # a flag worded for one answer only ("critical!") says nothing for the other
        return "" if has(f"value.{key}.yes") or has(f"value.{key}.no") else tr(f"log.{word}")
    if isinstance(value, str) and has(f"term.{value}"):
        return tr(f"term.{value}")
    if isinstance(value, str):
        return value.replace("_", " ")
    return str(value)


def describe(event, names: dict[str, str]) -> str:
    """One line for an event; kinds without a template list their facts so nothing is ever hidden."""
    data = event.data if isinstance(event.data, dict) else {"value": event.data}
    values = Blank({k: in_words(k, v, names) for k, v in data.items()})
    template = sentence(event.kind, data)
    if event.kind == "dice":
        text = _dice(data, values)
    elif template is not None:
        text = template.format_map(values)
    else:
        facts = ", ".join(f"{k} {v}" for k, v in values.items())
        text = f"{tr('event.' + event.kind, event.kind.replace('_', ' '))}: {facts}" if facts else \
            tr("event." + event.kind, event.kind.replace("_", " "))
    if event.rule:
        text += f" [§{event.rule}]" if event.rule[:1].isdigit() else f" [{event.rule}]"
    return text


def sentence(kind: str, data: dict) -> str | None:
    """The first wording of this kind of event whose blanks the event fills (with facts rather than
    empty values when a wording allows it: an initial morale has no "before"), or None."""
    fitting = [tr(f"log.{kind}{v}") for v in VARIANTS if has(f"log.{kind}{v}")
               and _fields(tr(f"log.{kind}{v}")) <= set(data)]
    full = [t for t in fitting if all(data[name] is not None for name in _fields(t))]
    return (full or fitting or [None])[0]


def _fields(template: str) -> set[str]:
    """The placeholders of a template: it is used only when the event carries all of them."""
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def each_side_faces(faces) -> list[str]:
    """A roll-off's dice as each side's name and die, side 0's first."""
    return [f"{tr(f'side.{i}')} {v}" for i, v in enumerate(faces)]


def _dice(data: dict, values: dict) -> str:
    """Who rolled what for what: a figure, a side, or each side one die (a roll-off, side 0's first)."""
    purpose = str(data.get("purpose", ""))
    rolled = values.get("faces", "")
    faces = data.get("faces") or []
    who = data.get("who")
    if who is None:
        who_words = tr("log.each_side")
        rolled = ", ".join(each_side_faces(faces))
    else:
        who_words = values["who"]
    parts = [tr("log.dice", who=who_words,
                purpose=tr(f"purpose.{purpose}", purpose.replace("_", " ")),
                n=len(faces), sides=data.get("sides", 6), faces=rolled)]
    if data.get("reroll") is True:
        parts.append(tr("log.reroll"))
    if "needed" in data:        # a threshold ("5+"), or a range of faces ("1-2")
        parts.append(tr("log.needed_faces" if isinstance(data["needed"], str) else "log.needed", n=values["needed"]))
    if "fails_on" in data:
        parts.append(tr("log.fails_on", n=values["fails_on"]))
    if "target" in data:
        parts.append(tr("log.against", target=values["target"]))
    if "successes" in data:
        parts.append(tr("log.successes", n=values["successes"]))
    if "result" in data:
        parts.append(tr("log.result", result=values["result"]))
    return " ".join(parts)
