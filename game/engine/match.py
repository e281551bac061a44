"""The Match: owns the state, says who must decide what, and applies answers.

A match is fully described by (map, rule module, armies, seed, answers): that list is the
save file, the replay and the undo.
"""
from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAnswer
from .battlefield import Battlefield
from .decision import Decision, Option
from .dice import Dice
from .events import Event
from .protocol import Army, Outcome, RuleModule


@dataclass(frozen=True)
class Observation:
    """What one side's player may know: the state as the rules let it see it, and the log it has seen.

    This is all an AI is given besides the decision: never the match's dice or its full state.
    """

    side: int
    rules: RuleModule
    state: Any
    battlefield: Battlefield
    events: tuple[Event, ...]
    max_turns: int


@dataclass
class _Snapshot:
    state: Any
    doors: Any
    rng: Any
    dice_count: int
    log_length: int


@dataclass
class Match:
    battlefield: Battlefield
    rules: RuleModule
    armies: list[Army]
    seed: int
    max_turns: int = 0
    map_path: str = ""
    answers: list[str] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.max_turns = self.max_turns or self.rules.default_max_turns
        self.dice = Dice(self.seed)
        self.state = self.rules.new_state(self.battlefield, self.armies, self.max_turns)
        self._pending: Decision | None = None
        self._pending_valid = False
        self._undo: _Snapshot | None = None
        self.last_rolls: list = []       # the dice the last answer rolled, for the checks that every die is shown

    # --- the protocol -------------------------------------------------------------

    @property
    def pending(self) -> Decision | None:
        if not self._pending_valid:
            self._pending = self.rules.pending(self.state)
            self._pending_valid = True
        return self._pending

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.pending is None

    def answer(self, choice: str | Option, undoable: bool = True) -> list[Event]:
        """Apply one answer. ``undoable`` False: no snapshot for undo is taken (a replay or a headless
        game, where copying the state before every answer was a fifth of the work)."""
        decision = self.pending
        key = choice.key if isinstance(choice, Option) else str(choice)
        if decision is None:
            raise IllegalAnswer(f"answer {len(self.answers) + 1}", "the match is over")
        option = decision.option(key)
        if option is None:
            raise IllegalAnswer(f"answer {len(self.answers) + 1}",
                                f"'{key}' is not a legal option of the pending '{decision.kind}' decision")
        snapshot = _Snapshot(copy.deepcopy(self.state), self.battlefield.door.copy(), self.dice._rng.getstate(),
                             self.dice.count, len(self.log)) if undoable else None
        events = self.rules.apply(self.state, option, self.dice)
        self.last_rolls = self.dice.take_rolls()
        self._undo = snapshot if snapshot is not None and self.dice.count == snapshot.dice_count else None
        self.answers.append(key)
        self.log.extend(events)
        self._pending_valid = False
        return events

    # --- undo and replay ----------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """The last answer may be taken back while no die has been rolled since."""
        return self._undo is not None

    def undo(self) -> bool:
        snap = self._undo
        if snap is None:
            return False
        self.state = snap.state
        self.battlefield.door[...] = snap.doors
        self.dice._rng.setstate(snap.rng)
        self.dice.count = snap.dice_count
        del self.log[snap.log_length:]
        self.answers.pop()
        self._undo = None
        self._pending_valid = False
        return True

    def digest(self) -> str:
        data = {"state": self.rules.digest_data(self.state), "doors": self.battlefield.door.tolist(),
                "dice": self.dice.count, "answers": len(self.answers)}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()

    def events_for(self, side: int | None) -> list[Event]:
        return [e for e in self.log if e.seen_by(side)]

    def observe(self, side: int) -> Observation:
        return Observation(side, self.rules, self.rules.observe(self.state, side), self.battlefield,
                           tuple(self.events_for(side)), self.max_turns)

    def ask(self, player) -> str:
        """The pending decision answered by ``player`` from what its side may see."""
        decision = self.pending
        return player.choose(self.observe(decision.side), decision)
