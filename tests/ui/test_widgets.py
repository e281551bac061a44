"""Widgets draw any text a screen is given."""
from __future__ import annotations

import pygame

ODD = "saves/odd\udcff\udcfename.json"          # a file name whose bytes are not UTF-8, as Python reads it


def test_text_with_a_lone_surrogate_is_measured_clipped_wrapped_and_drawn(app):
    """Found by the long monkey: a battle saved under such a name put "Saved: <path>" in the status
    line, and the font raised UnicodeEncodeError on every frame."""
    ui, surface = app.ui, app.screen
    assert ui.font(18).size(ODD)[0] > 0
    assert ui.text(surface, "Saved: " + ODD, (0, 0), 18, max_width=80).width <= 80
    assert ui.wrap("Saved: " + ODD, 18, 60)
    picture = ui.render(ODD, 18)
    assert picture.get_width() == ui.font(18).size("saves/odd\\udcff\\udcfename.json")[0]


def test_plain_text_is_drawn_unchanged(app):
    font = app.ui.font(18)
    assert font.size("Sauvegardé : é") == pygame.font.Font(None, app.ui.s(18)).size("Sauvegardé : é")
