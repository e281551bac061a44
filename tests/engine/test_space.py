"""conventions.md test vectors CV-01 to CV-08, and the symmetry of line of sight."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.battlefield import Battlefield, Cover, Door
from game.engine.space import (CLIMB, CRAWL, MoveRules, adjacent, corner_pairs, cover_level, crossed_tiles,
                               distance, line_beyond, line_of_sight, reach, scatter, scatter_along, step_legal,
                               within, within_cm)


def field(w=12, h=12):
    return Battlefield.open_ground(w, h)


def cost_to(bf, start, tile, budget=20.0, **kw):
    return round(reach(bf, start, budget, MoveRules(**kw)).cost[tile], 3)


@pytest.mark.parametrize("tile,expected", [
    ((4, 0), 4.0), ((1, 1), 1.414), ((2, 1), 2.236), ((2, 2), 2.828), ((3, 2), 3.650),
    ((3, 3), 4.243), ((4, 3), 5.064), ((7, 2), 7.472), ((7, 3), 7.708), ((7, 4), 8.122)])
def test_cv01_path_costs_on_open_ground_use_true_step_lengths(tile, expected):
    assert cost_to(field(), (0, 0), tile) == expected


def test_cv01_reach_is_not_the_disk():
    r = reach(field(), (0, 0), 5.0)
    assert distance((0, 0), (4, 3)) == 5 and (4, 3) not in r.cost


def test_cv02_wall_forbids_cutting_its_corner():
    bf = field()
    bf.blocks_move[0, 1] = True
    assert not step_legal(bf, (0, 0), (1, 1), "walk")
    assert not step_legal(bf, (0, 0), (2, 1), "walk")
    assert step_legal(bf, (0, 0), (1, 2), "walk")
    for tile, c in [((1, 1), 2.0), ((1, 2), 2.236), ((2, 1), 3.0), ((2, 0), 4.0)]:
        assert cost_to(bf, (0, 0), tile) == c


def test_cv02_deep_water_does_not_forbid_corners_but_blocks_knight_passage():
    bf = field()
    bf.deep_water[0, 1] = True
    assert step_legal(bf, (0, 0), (1, 1), "walk")
    assert not step_legal(bf, (0, 0), (2, 1), "walk")
    assert cost_to(bf, (0, 0), (2, 1)) == 2.414
    assert cost_to(bf, (0, 0), (2, 0)) == 2.828


def test_cv02_enemy_figure_blocks_knight_steps_through_its_tile():
    bf = field()
    enemies = {(1, 1)}
    assert not step_legal(bf, (0, 0), (2, 1), "walk", enemies)
    assert not step_legal(bf, (0, 0), (1, 2), "walk", enemies)


def test_cv03_terrain_costs_multiply_step_length():
    bf = field()
    bf.terrain_cost[1, 1] = 2.0
    assert cost_to(bf, (0, 0), (1, 1), terrain_costs=True) == 2.828
    assert cost_to(bf, (0, 0), (2, 1), terrain_costs=True) == 2.414
    assert cost_to(bf, (0, 0), (2, 2), terrain_costs=True) == 3.414


def test_cv04_distance_thresholds_in_pas_and_cm():
    assert within((0, 0), (3, 0), 3) and within((0, 0), (2, 2), 3)
    assert not within((0, 0), (3, 1), 3) and not within((0, 0), (2, 3), 3)
    assert within_cm((0, 0), (10, 0), 25, 2.5) and within_cm((0, 0), (6, 8), 25, 2.5)
    assert not within_cm((0, 0), (9, 5), 25, 2.5)


def test_cv05_adjacency_is_king_moves_not_a_distance():
    assert adjacent((0, 0), (1, 1)) and round(distance((0, 0), (1, 1)), 3) == 1.414
    assert not adjacent((0, 0), (2, 0))


@pytest.mark.parametrize("a,b,expected", [
    ((0, 0), (6, 0), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]),
    ((0, 0), (2, 2), [(1, 1)]),
    ((0, 0), (3, 1), [(1, 0), (2, 1)]),
    ((0, 0), (4, 2), [(1, 0), (1, 1), (2, 1), (3, 1), (3, 2)]),
])
def test_cv06_crossed_tiles_are_the_same_both_ways(a, b, expected):
    assert sorted(crossed_tiles(a, b)) == sorted(expected)
    assert sorted(crossed_tiles(b, a)) == sorted(expected)


def test_cv07_diagonal_wall_joint_is_not_a_window():
    bf = field()
    for x, y in [(1, 0), (0, 1)]:
        bf.blocks_sight[y, x] = bf.blocks_move[y, x] = True
    assert not line_of_sight(bf, (0, 0), (2, 2)) and not line_of_sight(bf, (2, 2), (0, 0))
    assert not step_legal(bf, (0, 0), (1, 1), "walk")
    bf.blocks_sight[1, 0] = bf.blocks_move[1, 0] = False
    assert line_of_sight(bf, (0, 0), (2, 2))
    assert not step_legal(bf, (0, 0), (1, 1), "walk")


def test_cv07_corner_passed_by_a_shallow_line():
    bf = field()
    bf.blocks_sight[0, 2] = bf.blocks_sight[1, 1] = True
    assert corner_pairs((0, 0), (3, 1))
    assert not line_of_sight(bf, (0, 0), (3, 1))
    bf.blocks_sight[1, 1] = False
    assert line_of_sight(bf, (0, 0), (3, 1))


def test_cv08_cover_from_tiles_near_the_target_only():
    bf = field()
    bf.cover[1, 2] = Cover.HEAVY
    assert cover_level(bf, (0, 0), (4, 2)) == Cover.NONE
    bf.cover[1, 2] = 0
    bf.cover[1, 3] = Cover.LIGHT
    assert cover_level(bf, (0, 0), (4, 2)) == Cover.LIGHT
    bf.cover[2, 4] = Cover.HEAVY
    assert cover_level(bf, (0, 0), (4, 2)) == Cover.HEAVY


def test_cv08_tiles_next_to_the_origin_never_give_cover():
    bf = field()
    bf.cover[0, 1] = Cover.HEAVY
    assert cover_level(bf, (0, 0), (2, 0)) == Cover.NONE
    bf.cover[1, 1] = Cover.HEAVY
    assert cover_level(bf, (0, 0), (1, 1)) == Cover.NONE


def test_closed_door_blocks_sight_and_movement_until_opened():
    bf = field()
    bf.door[0, 1] = Door.CLOSED
    assert not line_of_sight(bf, (0, 0), (2, 0))
    assert (1, 0) not in reach(bf, (0, 0), 3).cost
    bf.door[0, 1] = Door.OPEN
    assert line_of_sight(bf, (0, 0), (2, 0)) and (1, 0) in reach(bf, (0, 0), 3).cost


def test_crawl_gap_and_climbable_need_their_own_movement():
    bf = field()
    bf.crawl_gap[0, 1] = True
    bf.climbable[0, 3] = True
    assert (1, 0) not in reach(bf, (0, 0), 1).cost
    assert (1, 0) in reach(bf, (0, 0), 1, MoveRules(CRAWL)).cost
    assert (3, 0) not in reach(bf, (2, 0), 1).cost
    assert (3, 0) in reach(bf, (2, 0), 1, MoveRules(CLIMB)).cost


def test_reach_paths_cost_what_they_claim():
    bf = field(20, 20)
    bf.blocks_move[3:15, 6] = True
    r = reach(bf, (2, 8), 14)
    for tile, c in r.cost.items():
        steps = [r.start] + r.path(tile)
        total = sum(distance(a, b) for a, b in zip(steps, steps[1:]))
        assert math.isclose(total, c, abs_tol=1e-9)


def test_bounce_rounds_half_away_from_zero_and_stops_at_walls():
    assert line_beyond((0, 0), (4, 2), 3) == [(5, 3), (6, 3), (7, 4)]
    bf = field()
    bf.blocks_move[0, 7] = True
    assert scatter(bf, (0, 0), (5, 0), 4)[0] == (6, 0)


coords = st.tuples(st.integers(0, 11), st.integers(0, 11))


@given(coords, coords, st.sets(coords, max_size=30))
def test_line_of_sight_is_symmetric(a, b, walls):
    bf = field()
    for x, y in walls:
        bf.blocks_sight[y, x] = True
    assert line_of_sight(bf, a, b) == line_of_sight(bf, b, a)


def test_a_climbable_wall_stops_a_bounce_like_any_wall():
    bf = field()
    bf.climbable[0, 7] = True
    assert scatter(bf, (0, 0), (5, 0), 4)[0] == (6, 0)


def test_a_bounce_in_pas_lands_on_the_tile_holding_the_point_that_far_along_the_throw_line():
    bf = field(20, 20)
    assert scatter_along(bf, (0, 0), (4, 2), 3) == ((7, 3), [(5, 2), (6, 3), (7, 3)])    # TV-E10
    assert scatter_along(bf, (0, 0), (4, 4), 2) == ((5, 5), [(5, 5)])                    # TV-E10b
    assert scatter_along(bf, (0, 0), (5, 0), 3) == ((8, 0), [(6, 0), (7, 0), (8, 0)])
    assert scatter_along(bf, (8, 8), (5, 4), 5) == ((2, 0), [(4, 3), (3, 2), (3, 1), (2, 0)])  # 3-4-5, exact


def test_a_bounce_in_pas_rounds_an_exact_half_away_from_zero():
    bf = field(40, 40)
    # from (0,0) at (6,8) (10 pas), a bounce of 5 reaches (9, 12) exactly; of 1, (6.6, 8.8) -> (7, 9)
    assert scatter_along(bf, (0, 0), (6, 8), 5)[0] == (9, 12)
    assert scatter_along(bf, (0, 0), (6, 8), 1)[0] == (7, 9)
    # from (20,20) at (16,17): u = (-0.8, -0.6); 5 pas on is (12, 14) exactly, 4 pas (12.8, 14.6) -> (13, 15)
    assert scatter_along(bf, (20, 20), (16, 17), 5)[0] == (12, 14)
    assert scatter_along(bf, (20, 20), (16, 17), 4)[0] == (13, 15)


def test_a_bounce_in_pas_stops_in_front_of_a_wall_and_at_the_map_edge():
    bf = field()
    bf.blocks_move[0, 7] = True
    assert scatter_along(bf, (0, 0), (5, 0), 4) == ((6, 0), [(6, 0)])
    assert scatter_along(bf, (0, 5), (9, 5), 6) == ((11, 5), [(10, 5), (11, 5)])
