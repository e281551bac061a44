"""Victory by points at the turn limit: objectives read from the map, who holds them, the score."""
from __future__ import annotations

from game.engine.battlefield import Battlefield, MapObject
from game.engine.mapcheck import _feature_problems
from game.engine.objectives import Piece, holder, objectives, score


def field(*objects: MapObject) -> Battlefield:
    bf = Battlefield.open_ground(10, 10)
    bf.objects = list(objects)
    return bf


def zone(name="square", tiles=((4, 4), (5, 4)), **props) -> MapObject:
    return MapObject("objective", name, tuple(tiles), props)


def test_an_objective_is_a_control_zone_worth_one_figure_unless_the_map_says_otherwise():
    bf = field(zone(), zone("edge", ((9, 0), (9, 1)), kind="exit", side="1", worth="2"))
    square, edge = objectives(bf)
    assert (square.kind, square.worth, square.side) == ("control", 1, None)
    assert (edge.kind, edge.worth, edge.side, edge.tiles) == ("exit", 2, 1, frozenset({(9, 0), (9, 1)}))


def test_wrong_objective_values_fall_back_to_the_defaults_and_the_validator_names_them():
    bf = field(zone(kind="capture", worth="many"), zone("e", kind="exit", side="2"))
    first, second = objectives(bf)
    assert (first.kind, first.worth) == ("control", 1)
    assert second.side == 0
    lines = [p.line() for p in _feature_problems("m.tmx", bf)]
    assert any("objective 'square'" in line and "kind 'capture'" in line for line in lines)
    assert any("worth 'many'" in line for line in lines)
    assert any("objective 'e'" in line and "side '2'" in line for line in lines)


def test_a_zone_is_held_by_the_side_with_more_figures_standing_on_it():
    square = objectives(field(zone()))[0]
    a, b = Piece(0, (4, 4), 5, 0), Piece(1, (5, 4), 5, 2)
    assert holder(square, [a, b]) is None
    assert holder(square, [a, Piece(1, (5, 4), 5, 5)]) == 0          # a figure out of the battle holds nothing
    assert holder(square, [a, b, Piece(1, (6, 6), 5, 0)]) is None     # off the zone
    assert holder(square, [Piece(0, None, 5, 0), b]) == 1


def test_points_are_what_was_taken_from_the_enemy_and_the_objectives_held():
    bf = field(zone(worth="2"), zone("edge", ((0, 9),), kind="exit", side="0"))
    pieces = [Piece(0, (4, 4), 5, 1), Piece(0, (0, 9), 5, 0), Piece(1, (8, 8), 5, 5), Piece(1, (7, 7), 5, 3)]
    s = score(bf, pieces, 5)
    assert s.taken == (8, 1)
    assert s.held == (2 * 5 + 1 * 5, 0)
    assert s.points == (23, 1) and s.winner == 0


def test_equal_points_are_a_draw():
    s = score(field(), [Piece(0, (1, 1), 5, 2), Piece(1, (2, 2), 5, 2)], 5)
    assert s.points == (2, 2) and s.winner is None


def test_the_window_gets_each_objective_as_a_zone_and_a_panel_line_of_who_holds_it():
    from game.engine.objectives import overlays, panel
    from game.engine.protocol import FigureView

    bf = field(zone(), zone("edge", ((9, 0),), kind="exit", side="1"))
    shapes = overlays(bf)
    assert [(o.kind, o.label, o.side) for o in shapes] == [("zone", "objective", None), ("zone", "exit_objective", 1)]
    seen = [FigureView("a", 0, (4, 4), "a"), FigureView("b", 1, (9, 0), "b"), FigureView("c", 1, (5, 4), "c", alive=False)]
    lines = panel(bf, seen).lines
    assert lines[0].key == "objective.control" and lines[0].as_dict()["side"] == 0
    assert lines[1].key == "objective.exit" and lines[1].as_dict()["n"] == 1
    assert panel(field(), seen) is None


def test_the_shipped_ground_maps_carry_control_zones_and_exits_and_spawns_of_one_size():
    from pathlib import Path

    from game.engine.tiled import load_battlefield

    maps = Path(__file__).resolve().parents[2] / "maps"
    kinds = {}
    for name in ("ruined_town", "forest_village", "great_battlefield"):
        bf = load_battlefield(maps / f"{name}.tmx")
        kinds[name] = sorted((o.kind, o.side, o.worth) for o in objectives(bf))
        assert len(bf.spawn[0]) == len(bf.spawn[1]), name
    assert kinds["ruined_town"] == [("control", None, 1)]
    assert kinds["forest_village"] == [("control", None, 1), ("exit", 0, 1), ("exit", 1, 1)]
    assert kinds["great_battlefield"] == [("control", None, 1), ("control", None, 1), ("control", None, 2)]
