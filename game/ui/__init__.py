"""The pygame-ce window: a thin layer that turns decisions into widgets and events into pictures.

``app`` (the loop and ``run``), ``scenes`` (menu, new battle, load, settings, results), ``battle``
(the battle screen's logic: decisions, input, AI turns, hand-over) and ``hud`` (its drawing),
``mapview`` / ``maprender`` (camera and cached map pictures), ``combatlog``, ``widgets``, ``i18n``
(tables in ``i18n/*.json``), ``settings`` and ``maplist``. Nothing outside this package draws.
"""

# The kinds of clip the battle's timeline plays (anim.py); here, so the command line lists them for
# play --freeze without importing the window.
ANIMATIONS = ("walk", "shot", "lunge", "throw", "blast", "trap", "puff", "wound", "heal", "death", "dice")
