"""Events: plain data describing what happened, with every die and the rule that used it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    """``kind`` names what happened ("moved", "dice", "wounded"…); ``data`` holds JSON-able facts.

    ``visible_to`` is None when both sides may see the event, otherwise the only side that may
    (a secret bid, the real token among decoys). ``rule`` cites the rule section applied.
    """

    kind: str
    data: dict = field(default_factory=dict)
    visible_to: int | None = None
    rule: str = ""

    def seen_by(self, side: int | None) -> bool:
        return self.visible_to is None or side is None or self.visible_to == side

    def to_json(self) -> dict:
        return {"kind": self.kind, "data": self.data, "visible_to": self.visible_to, "rule": self.rule}
