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


def test_a_word_longer_than_many_lines_is_cut_with_work_bounded_by_the_lines_not_its_length(app):
    """Found by the long monkey: a save naming a rule system of 100,000 letters put that name in the
    error band, and cutting it one letter at a time hung the window."""
    font = app.ui.font(20)
    measured = []
    size = font.size
    font.size = lambda text: (measured.append(len(text)), size(text))[1]
    word = "r" * 100_000
    lines = app.ui.wrap(word, 20, 300)
    del font.size
    assert "".join(lines) == word and all(size(line)[0] <= 300 for line in lines)
    assert sum(measured) < 40 * 301 * len(lines)      # a few halvings of one line's letters per line


def test_an_error_quoting_a_huge_value_stays_one_readable_line():
    from game.errors import LONGEST_MESSAGE, SaveError
    from game.engine.registry import rules_named

    e = SaveError("save.json", "the value " + "9" * 1_000_000 + " is too big")
    assert len(e.message) <= LONGEST_MESSAGE and e.message.endswith("is too big")
    try:
        rules_named("r" * 100_000)
    except Exception as err:
        assert len(str(err)) < 400
