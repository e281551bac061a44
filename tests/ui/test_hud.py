"""The action bar's words."""
from __future__ import annotations

from game.engine.decision import Option
from game.ui.hud import bar_count


def test_an_action_choosing_among_figures_says_how_many_and_one_aimed_at_tiles_does_not():
    shots = [Option(f"shoot:{t}", "shoot", figure="a", target=t) for t in ("b", "c", "d")]
    grenades = [Option(f"grenade:{x}", "grenade", figure="a", tile=(x, 0)) for x in range(114)]
    assert bar_count(shots) == " ×3"
    assert bar_count(grenades) == ""
    assert bar_count(shots[:1]) == ""
