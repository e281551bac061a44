"""The greedy baseline (issue 15), the same for every rule module: no lookahead; it attacks whenever it
can, otherwise it moves toward the nearest enemy.

It reads the decision through the protocol only: an attack is an option that rolls dice (it has odds)
aimed at an enemy figure it sees (``target``, or a ``tile`` an enemy stands on for an option that is not
a move), a move one with a ``path``. Among attacks it strikes the nearest enemy; a move must bring the
figure nearer to one, else it ends its activation when it may. A decision that is neither, it answers with
the decision's ``default`` where the module marks one (stay in the battle, refuse a truce: a battle it is
winning is not thrown away on a coin); anything else (a bid, a reaction, a formality) is drawn from its own
seeded generator, like the random player.
"""
from __future__ import annotations

import random

from ..engine.decision import Decision, Option
from .tactics import nearest


class GreedyPlayer:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def choose(self, observation, decision: Decision) -> str:
        side = observation.side
        views = [f for f in observation.rules.figures(observation.state, side) if f.alive and f.on_map]
        enemies = {f.id: f.tile for f in views if f.side != side}
        tiles = {f.id: f.tile for f in views}
        where = set(enemies.values())
        me = tiles.get(decision.figure)

        def attacks(o: Option) -> bool:
            aimed = o.target in enemies or (o.target is None and not o.path and o.tile in where)
            return aimed and observation.rules.odds(observation.state, o) is not None

        def aim(o: Option):
            return enemies.get(o.target, o.tile)

        options = decision.options
        chosen = [o for o in options if attacks(o)]
        if chosen:
            origin = me or tiles.get(chosen[0].figure)
            return self._closest(chosen, lambda o: nearest(origin, [aim(o)]) if origin else 0.0)
        moves = [o for o in options if o.path]
        if moves and where:
            start = nearest(me, where) if me else None
            best = min(nearest(o.path[-1], where) for o in moves)
            if start is None or best < start:
                return self._closest(moves, lambda o: nearest(o.path[-1], where))
        if decision.default is not None:
            return decision.default
        movers = [o for o in options if o.figure in tiles and o.figure != decision.figure and not o.ends]
        if movers and where:
            return self._closest(movers, lambda o: nearest(tiles[o.figure], where))
        ending = [o for o in options if o.ends]
        if ending:
            return ending[0].key
        return self._rng.choice(options).key

    def _closest(self, options: list[Option], distance) -> str:
        best = min(distance(o) for o in options)
        return self._rng.choice([o for o in options if distance(o) <= best + 1e-9]).key
