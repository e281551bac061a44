"""Resolution steps: one typed stack that every rule module drives its turn and its long actions with.

A long action (a melee with a push-back and a follow-up, an attack the defender answers, a move an
ambush interrupts) is a sequence of steps. A step runs; it may push further steps, or ask a decision of
either side and wait. The answer is handed to the waiting step, which runs again and carries on. The
stack is plain data inside the module's state, so it is deep-copied, undone, digested and replayed
with the match like everything else.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..errors import RulesError
from .decision import Decision, Option


@dataclass
class Step(ABC):
    """One piece of a resolution; a module subclasses it per kind, with plain-data fields.

    ``answer`` holds the option chosen for the decision this step asked, until the step consumes it.
    """

    answer: Option | None = field(default=None, kw_only=True)

    @abstractmethod
    def run(self, game: Any) -> Decision | None:
        """Do this step's work in ``game`` (the module's context); return a decision to wait for one
        (the step stays on top and runs again with ``answer`` set), or None when it is done."""

    def take_answer(self) -> Option | None:
        """The answer given to this step's decision, consumed: a step may ask more than once."""
        answer, self.answer = self.answer, None
        return answer


@dataclass
class StepStack:
    """The steps still to run (the last one runs next) and the decision being waited for."""

    steps: list[Step] = field(default_factory=list)
    waiting: Decision | None = None

    def push(self, *steps: Step) -> None:
        """Run ``steps`` in the order given, before anything already on the stack."""
        self.steps.extend(reversed(steps))

    def upcoming(self) -> Iterator[Step]:
        """The steps still to run, in the order they will run."""
        return reversed(self.steps)

    def discard(self, unwanted: Callable[[Step], bool]) -> None:
        """Drop the steps still to run that ``unwanted`` picks (a move cut short drops its next steps)."""
        self.steps[:] = [s for s in self.steps if not unwanted(s)]

    def run(self, game: Any, refill: Callable[[Any], bool]) -> None:
        """Run steps until one waits for a decision or, with the stack empty, ``refill`` says it is over."""
        while self.waiting is None:
            if not self.steps:
                if not refill(game):
                    return
                continue
            step = self.steps.pop()
            decision = step.run(game)
            if decision is not None:
                self.steps.append(step)
                self.waiting = decision

    def resume(self, option: Option, game: Any, refill: Callable[[Any], bool]) -> None:
        """Hand ``option`` to the waiting step and run on."""
        if self.waiting is None or not self.steps:
            raise RulesError("rules", "no decision is waiting for an answer")
        self.steps[-1].answer = option
        self.waiting = None
        self.run(game, refill)
