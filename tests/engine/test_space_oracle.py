"""The new spatial core gives exactly the old reference implementation's answers (tests/engine/space_oracle.py).

Random maps with walls, hedges, doors in every state, water, crawl gaps, climbable walls and rough
ground; every comparison is exact (same tiles in the same order, same floats, same paths).
"""
import random

import numpy as np
import pytest

from game.engine import space
from game.engine.battlefield import Battlefield, Door
from tests.engine import space_oracle as oracle


def random_field(seed: int, w: int = 24, h: int = 18) -> Battlefield:
    rng = np.random.default_rng(seed)
    bf = Battlefield.open_ground(w, h)
    density = rng.uniform(0.05, 0.35)
    wall = rng.random((h, w)) < density
    bf.blocks_move[:] = wall
    bf.blocks_sight[:] = wall | (rng.random((h, w)) < 0.05)
    bf.door[:] = np.where(rng.random((h, w)) < 0.04, rng.integers(1, 4, (h, w)), 0)
    bf.deep_water[:] = ~wall & (rng.random((h, w)) < 0.05)
    bf.crawl_gap[:] = ~wall & (rng.random((h, w)) < 0.04)
    bf.climbable[:] = rng.random((h, w)) < 0.04
    bf.terrain_cost[:] = np.where(rng.random((h, w)) < 0.15, rng.choice([1.5, 2.0, 1.2, 3.0], (h, w)), 1.0)
    return bf


def some_tiles(rng: random.Random, bf: Battlefield, n: int, margin: int = 0) -> list[tuple[int, int]]:
    return [(rng.randrange(-margin, bf.width + margin), rng.randrange(-margin, bf.height + margin))
            for _ in range(n)]


def test_crossed_tiles_and_corner_pairs_equal_the_rational_reference_for_every_short_offset():
    for dx in range(-12, 13):
        for dy in range(-12, 13):
            a, b = (3, -2), (3 + dx, -2 + dy)
            assert space.crossed_tiles(a, b) == oracle.crossed_tiles(a, b)
            assert space.corner_pairs(a, b) == oracle.corner_pairs(a, b)


def test_crossed_tiles_and_corner_pairs_equal_the_rational_reference_for_long_rays():
    rng = random.Random(4)
    offsets = [(rng.randint(-90, 90), rng.randint(-90, 90)) for _ in range(10)]
    offsets += [(60, 30), (-45, 15), (33, -99), (0, -70), (81, 0), (64, 64), (-50, 50)]
    for d in offsets:
        assert space.crossed_tiles((0, 0), d) == oracle.crossed_tiles((0, 0), d)
        assert space.corner_pairs((0, 0), d) == oracle.corner_pairs((0, 0), d)


@pytest.mark.parametrize("seed", range(8))
def test_line_of_sight_equals_the_reference_pair_for_pair_on_random_maps(seed):
    bf = random_field(seed)
    rng = random.Random(seed)
    tiles = some_tiles(rng, bf, 30) + some_tiles(rng, bf, 6, margin=3)
    for a in tiles:
        for b in tiles[::3]:
            assert space.line_of_sight(bf, a, b) == oracle.line_of_sight(bf, a, b), (a, b)


@pytest.mark.parametrize("seed", range(5))
def test_batched_sight_equals_the_reference_for_all_pairs_and_matrices(seed):
    bf = random_field(100 + seed, 28, 20)
    rng = random.Random(seed)
    tiles = some_tiles(rng, bf, 20)
    expected = np.array([[oracle.line_of_sight(bf, a, b) for b in tiles] for a in tiles])
    assert (space.sight_pairs(bf, tiles) == expected).all()
    origins, targets = some_tiles(rng, bf, 12, margin=2), some_tiles(rng, bf, 9)
    expected = np.array([[oracle.line_of_sight(bf, a, b) for b in targets] for a in origins])
    assert (space.sight_matrix(bf, origins, targets) == expected).all()
    assert (space.sight_pairs(bf, tiles) == np.array([[space.line_of_sight(bf, a, b) for b in tiles]
                                                       for a in tiles])).all()


def test_a_door_written_straight_into_the_array_changes_the_cached_answers():
    bf = Battlefield.open_ground(10, 5)
    bf.blocks_sight[:, 5] = True
    bf.door[2, 5] = Door.CLOSED
    assert not space.line_of_sight(bf, (2, 2), (8, 2))
    assert not space.sight_pairs(bf, [(2, 2), (8, 2)])[0, 1]
    assert (5, 2) not in space.reach(bf, (2, 2), 8).cost
    bf.blocks_sight[2, 5] = False
    bf.door[2, 5] = Door.OPEN
    assert space.line_of_sight(bf, (2, 2), (8, 2))
    assert space.sight_pairs(bf, [(2, 2), (8, 2)])[0, 1]
    assert (5, 2) in space.reach(bf, (2, 2), 8).cost
    bf.door[...] = np.where(bf.door == Door.OPEN, Door.LOCKED, bf.door)     # as an undo restores doors
    assert not space.line_of_sight(bf, (2, 2), (8, 2))
    assert (5, 2) not in space.reach(bf, (2, 2), 8).cost


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("mode", [space.WALK, space.CRAWL, space.CLIMB])
def test_reach_gives_the_reference_costs_paths_and_order(seed, mode):
    bf = random_field(seed, 26, 20)
    rng = random.Random(seed)
    for start in some_tiles(rng, bf, 4) + [(0, 0), (bf.width - 1, bf.height - 1), (-1, 3), (bf.width + 1, 2)]:
        enemies = frozenset(some_tiles(rng, bf, rng.choice([0, 3, 8])))
        for budget, costs in ((12, False), (7.5, True), (20, rng.random() < 0.5)):
            got = space.reach(bf, start, budget, space.MoveRules(mode, costs), enemies)
            cost, previous = oracle.reach(bf, start, budget, mode, costs, enemies)
            assert list(got.cost.items()) == list(cost.items())
            assert list(got.previous.items()) == list(previous.items())


@pytest.mark.parametrize("seed", range(4))
def test_step_legal_and_step_cost_equal_the_reference(seed):
    bf = random_field(seed, 12, 10)
    rng = random.Random(seed)
    for s in some_tiles(rng, bf, 30, margin=1):
        enemies = set(some_tiles(rng, bf, 4))
        for d in space.STEPS:
            for mode in (space.WALK, space.CRAWL, space.CLIMB):
                assert space.step_legal(bf, s, d, mode, enemies) == oracle.step_legal(bf, s, d, mode, enemies)
            t = (s[0] + d[0], s[1] + d[1])
            if bf.inside(s) and bf.inside(t) and all(bf.inside((s[0] + x, s[1] + y)) for x, y in space.between(d)):
                assert space.step_cost(bf, s, d, True) == oracle.step_cost(bf, s, d, True)


def test_reach_follows_terrain_changed_between_calls():
    bf = Battlefield.open_ground(8, 8)
    before = space.reach(bf, (0, 0), 6)
    bf.blocks_move[0:7, 3] = True
    after = space.reach(bf, (0, 0), 6)
    cost, previous = oracle.reach(bf, (0, 0), 6)
    assert (5, 0) in before.cost and (5, 0) not in after.cost
    assert list(after.cost.items()) == list(cost.items()) and list(after.previous.items()) == list(previous.items())


@pytest.mark.parametrize("n", [0, 1, 1.5, 2, 3.2, 5, 6.0, 7.9])
def test_tiles_within_are_those_of_the_square_scan_in_the_same_order(n):
    bf = Battlefield.open_ground(15, 11)
    for centre in [(0, 0), (7, 5), (14, 10), (2, 9)]:
        r = int(n + 1e-9)
        expected = [(x, y) for y in range(max(0, centre[1] - r), min(bf.height, centre[1] + r + 1))
                    for x in range(max(0, centre[0] - r), min(bf.width, centre[0] + r + 1))
                    if space.within(centre, (x, y), n)]
        assert space.tiles_within(bf, centre, n) == expected


def test_distance_is_the_hypotenuse_of_the_differences_bit_for_bit():
    import math
    for dx in range(-60, 61):
        for dy in range(-60, 61):
            assert space.distance((3, -4), (3 + dx, -4 + dy)) == math.hypot(dx, dy)
