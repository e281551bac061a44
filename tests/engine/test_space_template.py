"""The triangular template of a breath weapon (engine area shape): mordgrave.md TV-M23 and its edges."""
from hypothesis import given
from hypothesis import strategies as st

from game.engine.battlefield import Battlefield
from game.engine.space import line_of_sight, triangle_template

AXIAL = {(1, 0), (2, 0), (3, -1), (3, 0), (3, 1), (4, -1), (4, 0), (4, 1), (5, -1), (5, 0), (5, 1),
         (6, -2), (6, -1), (6, 0), (6, 1), (6, 2)}
DIAGONAL = {(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (3, 5), (4, 2), (4, 3),
            (4, 4), (5, 3)}


def offsets(bf, origin, aim, length=6, half_width=2):
    return {(x - origin[0], y - origin[1]) for x, y in triangle_template(bf, origin, aim, length, half_width)}


def test_tvm23_template_along_an_axis_covers_sixteen_tiles():
    bf = Battlefield.open_ground(20, 20)
    assert offsets(bf, (5, 10), (6, 10)) == AXIAL


def test_tvm23_template_along_a_diagonal_covers_fourteen_tiles():
    bf = Battlefield.open_ground(20, 20)
    assert offsets(bf, (5, 5), (6, 6)) == DIAGONAL


def test_the_aim_tile_only_gives_the_direction_not_the_length():
    bf = Battlefield.open_ground(30, 30)
    assert offsets(bf, (5, 10), (25, 10)) == AXIAL


def test_the_template_turns_with_its_aim():
    bf = Battlefield.open_ground(20, 20)
    west = {(-x, y) for x, y in AXIAL}
    north = {(y, -x) for x, y in AXIAL}
    assert offsets(bf, (10, 10), (9, 10)) == west
    assert offsets(bf, (10, 10), (10, 3)) == north


def test_the_template_never_covers_the_firer_and_aiming_at_oneself_covers_nothing():
    bf = Battlefield.open_ground(10, 10)
    assert (0, 0) not in offsets(bf, (2, 2), (5, 2))
    assert triangle_template(bf, (2, 2), (2, 2), 6, 2) == []


def test_a_wall_shelters_the_tiles_behind_it():
    bf = Battlefield.open_ground(20, 20)
    bf.blocks_sight[10, 8] = True          # (8, 10): three tiles ahead on the axis from (5, 10)
    covered = offsets(bf, (5, 10), (6, 10))
    assert (3, 0) in covered                # the wall's own tile is seen (its face is hit)
    assert {(4, 0), (5, 0), (6, 0)}.isdisjoint(covered)
    assert {(3, 1), (6, 2)} <= covered


def test_the_template_is_cut_by_the_map_edge():
    bf = Battlefield.open_ground(8, 3)
    tiles = triangle_template(bf, (0, 1), (1, 1), 6, 2)
    assert all(bf.inside(t) for t in tiles)
    assert {(x - 0, y - 1) for x, y in tiles} == {o for o in AXIAL if 0 <= o[0] < 8 and 0 <= o[1] + 1 < 3}


def test_tiles_come_nearest_first_along_the_axis():
    bf = Battlefield.open_ground(20, 20)
    tiles = triangle_template(bf, (5, 10), (6, 10), 6, 2)
    along = [t[0] - 5 for t in tiles]
    assert along == sorted(along) and tiles[0] == (6, 10)


@given(st.integers(-9, 9), st.integers(-9, 9))
def test_every_covered_tile_is_seen_within_the_length_and_in_front(dx, dy):
    bf = Battlefield.open_ground(30, 30)
    bf.blocks_sight[12:14, 16] = True
    origin = (15, 15)
    aim = (15 + dx, 15 + dy)
    for t in triangle_template(bf, origin, aim, 6, 2):
        cx, cy = t[0] - 15, t[1] - 15
        assert cx * cx + cy * cy <= 6 * 6 + 2 * 2
        assert cx * dx + cy * dy > 0
        assert line_of_sight(bf, origin, t)
