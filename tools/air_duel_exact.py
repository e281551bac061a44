"""The aerial battle of sky_deck worked out exactly (issue 15): the best possible win rate against the
``random`` player, and the value of the duel for side A under best play on both sides.

Backward induction over every state of the battle the volleys reach: the turn, the two ships' cases on the
track, their energy, and both hulls at once (a grid, so that a volley is one matrix product). The volleys'
odds are the exact fractions of ``odds.repeat_exact``, carried in float64 (rounding far below the four
decimals printed). A turn is what the rules play at equal speeds (4.4, 5.16.3): one simultaneous group,
side 0 first in odd turns and side 1 in even ones (side 0 is side A here; the roll-off only decides which
player that is); each ship moves one case or not, then fires, boards or ends, or talks (a truce for the end
of the turn; a forfeit at the start of its activation); the group's damage lands once both have acted; at
the last turn's end the hull taken decides (docs/rules-voyageurs.md). Neither may flee at equal speeds.

``random`` is the project's random player: at each decision one legal option, each as likely, its talk
decisions included, so that it forfeits about one fresh activation in thirteen. The best answer to it is
then a Markov decision problem: the chance of winning maximised (a draw is no win, so it never proposes or
accepts a truce). A boarding starts a deck battle on the ground map, outside this model: it is counted as a
loss or as a win for the best answer when the random player engages it, and the best answer's own boarding
is either not offered or counted as a win, which bounds what any play, boarding or not, can reach. Between
two best players (equal crews, no boarding) a truce changes nothing: one side is never behind.

Usage: ``python tools/air_duel_exact.py`` (about a minute of CPU).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.rules.voyageurs.duel import ship, volley  # noqa: E402
from game.rules.voyageurs.aerial import aboard  # noqa: E402
from game.engine.save import new_match  # noqa: E402

LENGTH = 6


def ships_of_sky_deck():
    st = new_match(Path(__file__).resolve().parents[1] / "maps" / "sky_deck.tmx", "voyageurs_aerial", 1).state
    ts = sorted(st.transports.values(), key=lambda t: t.side)
    return tuple(ship(t, len(aboard(st, t))) for t in ts), tuple(t.case for t in ts), tuple(t.pe for t in ts), \
        st.max_turns


WIN0, DRAW, WIN1 = 0, 1, 2


class Battle:
    """``policy[side]``: "max" (plays for the objective), "min" (against it) or "random". A value is a stack of
    grids by hulls: the objective, then the chance that side 0 wins, that the battle is drawn, that side 1
    wins, so that the chances under the chosen play are read beside its value. ``goal`` gives the objective
    of each end (side 0 wins, a draw, side 1 wins); ``board`` the end a boarding by the random player is
    counted as, ``own_board`` (or None: not offered) the one a boarding by the other player is counted as."""

    def __init__(self, ships, last, policy, goal, board=None, own_board=None):
        self.ships, self.last, self.policy = ships, last, policy
        self.ends = [np.array([goal[k]] + [1.0 if j == k else 0.0 for j in range(3)]) for k in range(3)]
        self.board, self.own_board = board, own_board
        h0, h1 = (np.arange(s.hull + 1) for s in ships)
        a, b = np.meshgrid(h0, h1, indexing="ij")
        taken = np.sign((ships[1].hull - b) - (ships[0].hull - a))      # > 0: side 0 took more
        end = np.where(taken > 0, WIN0, np.where(taken < 0, WIN1, DRAW))
        self.limit = np.stack(self.ends)[end].transpose(2, 0, 1)
        self.memo: dict = {}

    def constant(self, k):
        return np.broadcast_to(self.ends[k][:, None, None], self.limit.shape)

    def ended(self, g):
        g = g.copy()
        g[:, 0, :] = self.ends[WIN1][:, None]
        g[:, :, 0] = self.ends[WIN0][:, None]
        g[:, 0, 0] = self.ends[DRAW]
        return g

    def fire(self, side, gap, pe, g):
        n = self.ships[side].gunners(pe[side])
        m = volley(self.ships[side], self.ships[1 - side], gap, n)
        return np.einsum("kij,lj->kil", g, m) if side == 0 else np.einsum("ij,kjl->kil", m, g)

    def spend(self, side, pe):
        n = self.ships[side].gunners(pe[side])
        return (pe[0] - n, pe[1]) if side == 0 else (pe[0], pe[1] - n)

    @staticmethod
    def step(cases, side, toward):
        """The cases after ``side`` moves one case toward (True) or away from the other, or None."""
        c = list(cases)
        d = (1 if c[1 - side] > c[side] else -1) * (1 if toward else -1)
        new = c[side] + d
        if not 1 <= new <= LENGTH or new == c[1 - side]:
            return None
        c[side] = new
        return tuple(c)

    def options(self, side, cases, pe, moved):
        """(kind, cases after the move) for each option of the transport's decision but talk."""
        out = []
        if not moved:
            for toward in (True, False):
                c = self.step(cases, side, toward)
                if c is not None:
                    out.append(("move", c))
        if self.ships[side].gunners(pe[side]):
            out.append(("fire", cases))
        if abs(cases[0] - cases[1]) - 1 == 0 and (self.policy[side] == "random" or self.own_board is not None):
            out.append(("board", cases))
        out.append(("end", cases))
        return out

    def activation(self, side, cases, pe, moved, after, tag, truce=False, fresh=True):
        """The value before ``side``'s activation; ``after(cases, pe)`` the value once it has acted, by the
        hulls it leaves (its volley's damage counted); ``tag`` names ``after`` for the memo."""
        key = (tag, side, cases, pe, moved, truce, fresh)
        found = self.memo.get(key)
        if found is not None:
            return found
        opts = self.options(side, cases, pe, moved)
        randomly = self.policy[side] == "random"

        def value(kind, c):
            if kind == "move":
                return self.activation(side, c, pe, True, after, tag, truce, False)
            if kind == "fire":
                return self.fire(side, abs(c[0] - c[1]) - 1, pe, after(c, self.spend(side, pe)))
            if kind == "board":
                return self.constant(self.board if randomly else self.own_board)
            return after(c, pe)

        if randomly:
            talk = (not truce) or fresh
            n = len(opts) + (1 if talk else 0)
            total = sum(value(k, c) for k, c in opts)
            if not talk:
                found = total / n
            else:
                # talk: a truce (then the same decision, a truce proposed), a forfeit when fresh, or back (the
                # same decision again): x = (total + (part + x) / says) / n, solved for x
                says = (0 if truce else 1) + (1 if fresh else 0) + 1
                part = np.zeros(self.limit.shape)
                if not truce:
                    part = part + self.activation(side, cases, pe, moved, after, tag, True, fresh)
                if fresh:
                    part = part + self.constant(WIN1 if side == 0 else WIN0)
                found = (total + part / says) / n / (1 - 1 / (n * says))
        else:
            stacked = np.stack([value(k, c) for k, c in opts])
            pick = (np.argmax if self.policy[side] == "max" else np.argmin)(stacked[:, 0], axis=0)
            found = np.take_along_axis(stacked, pick[None, None], axis=0)[0]
        self.memo[key] = found
        return found

    def turn(self, t, cases, pe):
        """The value at the start of turn ``t``, before either ship acts: side 0 first in odd turns."""
        if t > self.last:
            return self.limit
        key = ("turn", t, cases, pe)
        found = self.memo.get(key)
        if found is None:
            first = 0 if t % 2 else 1

            def group_end(c, e):
                return self.ended(self.turn(t + 1, c, e))

            def second(c, e):
                return self.activation(1 - first, c, e, False, group_end, ("second", t))

            found = self.memo[key] = self.activation(first, cases, pe, False, second, ("first", t))
        return found


def chances(value, h):
    v = value[(slice(None),) + h]
    return float(v[0]), float(v[1]), float(v[2]), float(v[3])


def main() -> None:
    ships, cases, pe, last = ships_of_sky_deck()
    h = (ships[0].hull, ships[1].hull)
    print(f"ships {ships}, cases {cases}, energy {pe}, {last} turns")
    print("\n(a) the best answer to the random player, sides swapped every game: its chance of winning")
    for own, board, name in ((None, WIN1, "no boarding of its own; a random boarding counted as lost"),
                             (None, WIN0, "no boarding of its own; a random boarding counted as won"),
                             (WIN0, WIN0, "every boarding, its own too, counted as won (a bound above any play)")):
        row = []
        for me in (0, 1):
            policy = ["random", "random"]
            policy[me] = "max"
            goal = (1.0, 0.0, 0.0) if me == 0 else (0.0, 0.0, 1.0)
            mine = {WIN0: WIN0 if me == 0 else WIN1, WIN1: WIN1 if me == 0 else WIN0}
            b = Battle(ships, last, policy, goal, board=mine[board], own_board=None if own is None else mine[own])
            v, w0, d, w1 = chances(b.turn(1, cases, pe), h)
            row.append((v, d))
        print(f"  {name}: as side 0 {row[0][0]:.4f} (draws {row[0][1]:.4f}), as side 1 {row[1][0]:.4f} "
              f"(draws {row[1][1]:.4f}); over both seats {(row[0][0] + row[1][0]) / 2:.4f}")
    print("\n(b) best play on both sides, side 0 first in turn 1 (side A): value = P(side 0 wins) - P(side 1 wins)")
    b = Battle(ships, last, ["max", "min"], (1.0, 0.0, -1.0))
    v, w0, d, w1 = chances(b.turn(1, cases, pe), h)
    print(f"  value {v:+.4f}: side 0 wins {w0:.4f}, draws {d:.4f}, side 1 wins {w1:.4f}; side 0's share of the "
          f"decisive {w0 / (w0 + w1):.4f}")


if __name__ == "__main__":
    main()
