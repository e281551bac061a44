"""The timeline that shows what happened: every core event becomes a clip, in order, from the event
vocabulary alone; it never changes the match, and what one side alone may see never sets its pace."""
from __future__ import annotations

import math

import pygame
import pytest

from game.engine import events as ev
from game.ui.anim import FLOAT_SECONDS, SEQUENCE_MOST, STEP_SECONDS, Timeline
from game.ui.app import start_battle
from game.ui.battle import BattleScene
from game.ui.dice_tray import TUMBLE, Tray, meets

from .driver import eisdrachen_match, press, steps

WHERE = {"a": (2, 2), "b": (8, 2)}


def play(tl: Timeline, seconds: float) -> None:
    for _ in range(int(round(seconds * 60))):
        tl.update(1 / 60)


def test_a_walk_follows_its_path_tile_by_tile_at_a_readable_speed():
    tl = Timeline()
    (clip,) = tl.add([ev.moved("a", (2, 2), [(3, 2), (4, 2), (4, 3)])], None, WHERE, {})
    assert clip.kind == "walk" and clip.duration == pytest.approx(3 * STEP_SECONDS)
    assert tl.position("a", (4, 3)) == (2.5, 2.5)          # not started: where it stood
    tl.update(STEP_SECONDS * 1.5)
    assert tl.position("a", (4, 3)) == pytest.approx((4.0, 2.5))     # half-way through the second step
    play(tl, 1)
    assert tl.position("a", (4, 3)) == (4.5, 3.5)


def test_steps_of_one_figure_one_after_another_make_one_walk():
    tl = Timeline()
    clips = tl.add([ev.moved("a", (2, 2), [(3, 2)]), ev.moved("a", (3, 2), [(4, 2)]),
                    ev.moved("a", (4, 2), [(5, 2)])], None, WHERE, {})
    assert [c.kind for c in clips] == ["walk"] and clips[0].data["path"] == [(2, 2), (3, 2), (4, 2), (5, 2)]


def test_a_hit_ends_on_its_target_and_a_miss_visibly_misses():
    tl = Timeline()
    hit, miss = tl.add([ev.attack("a", "b", "ranged", True), ev.attack("a", "b", "ranged", False)], None, WHERE, {})
    assert hit.kind == miss.kind == "shot"
    assert hit.data["to"] == (8.5, 2.5)
    assert math.dist(miss.data["to"], (8.5, 2.5)) > 1.0
    assert miss.start >= hit.start + 0.3                   # one after the other


def test_melee_is_a_lunge_towards_the_enemy_and_back():
    tl = Timeline()
    (clip,) = tl.add([ev.attack("a", "b", "melee", True)], None, WHERE, {})
    tl.update(clip.duration / 2)
    dx, dy = tl.lunge("a")
    assert dx > 0.3 and dy == 0
    play(tl, 1)
    assert tl.lunge("a") == (0.0, 0.0)


def test_a_grenade_arcs_to_its_aim_then_a_blast_ring_follows():
    tl = Timeline()
    throw, blast = tl.add([ev.thrown("a", (2, 2), (6, 2), (7, 3)), ev.blast((7, 3), 3)], None, WHERE, {})
    assert (throw.kind, blast.kind) == ("throw", "blast")
    assert throw.data["aim"] != throw.data["lands"] and blast.start >= throw.end - 1e-9
    assert blast.data["radius"] == 3


def test_a_real_trap_goes_off_and_a_decoy_puffs_away():
    tl = Timeline()
    real, decoy = tl.add([ev.revealed("t1", (4, 4), True), ev.revealed("t2", (5, 5), False)], None, WHERE, {})
    assert (real.kind, decoy.kind) == ("trap", "puff")


def test_wound_numbers_over_one_figure_take_their_own_lanes():
    tl = Timeline()
    tl.add([ev.damaged("b", "pv", 3, 2), ev.damaged("b", "pv", 2, 0), ev.damaged("a", "pv", 1, 4)], None, WHERE, {})
    tl.update(0.7)                  # all three rise at once
    lanes = {(c.figure, lane) for c, lane in tl.floaters()}
    assert lanes == {("b", 0), ("b", 1), ("a", 0)}
    play(tl, FLOAT_SECONDS + 1)
    assert tl.floaters() == []


def test_a_death_plays_after_the_wound_that_caused_it():
    tl = Timeline()
    wound, death = tl.add([ev.damaged("b", "pv", 5, 0), ev.removed("b", "killed")], None, WHERE, {})
    assert death.start > wound.start and tl.waiting("b")
    play(tl, death.end + 0.1)
    assert tl.dying("b") is None and not tl.waiting("b")


def test_the_tray_shows_the_dice_of_the_latest_roll_only():
    tl = Timeline()
    tl.add([ev.dice("a", [1, 2], "dodge", needed=5)], None, WHERE, {})
    play(tl, 1)
    tl.add([ev.dice("b", [6, 4, 3], "wound", needed="1-3")], None, WHERE, {})
    play(tl, 1)
    assert [c.data["faces"] for c in tl.rolls()] == [[6, 4, 3]]


def test_the_tray_words_its_dice_once_they_lie_still_then_shows_that_picture(app):
    tl = Timeline()
    tl.add([ev.dice("a", [1, 2], "dodge", needed=5)], None, WHERE, {})
    play(tl, TUMBLE / 2)
    tray, area = Tray(), pygame.Rect(0, 0, 800, 600)
    words = []
    text = app.ui.text
    app.ui.text = lambda *a, **k: (words.append(a[1]), text(*a, **k))[1]
    screen = pygame.Surface(area.size)
    tray.draw(screen, app.ui, tl.rolls(), tl.clock, area, {})
    tumbling = len(words)
    play(tl, TUMBLE)
    tray.draw(screen, app.ui, tl.rolls(), tl.clock, area, {})
    settled = len(words) - tumbling
    first = pygame.surfarray.array3d(screen)
    tray.draw(screen, app.ui, tl.rolls(), tl.clock, area, {})
    assert tumbling and settled and len(words) == tumbling + settled      # the third time: no word wrapped
    assert (pygame.surfarray.array3d(screen) != 0).any() and (first != 0).any()


def test_the_tray_names_each_sides_die_in_a_roll_off(app):
    tl = Timeline()
    tl.add([ev.dice(None, [2, 5], "first_move")], None, WHERE, {})
    play(tl, TUMBLE * 2)
    words = []
    text = app.ui.text
    app.ui.text = lambda *a, **k: (words.append(a[1]), text(*a, **k))[1]
    Tray().draw(pygame.Surface((800, 600)), app.ui, tl.rolls(), tl.clock, pygame.Rect(0, 0, 800, 600), {})
    assert words == ["Each side rolls first move", "Blue side 2 · Red side 5"]


def test_a_big_handful_in_a_narrow_tray_takes_smaller_dice_and_keeps_its_words_whole(app):
    tl = Timeline()
    tl.add([ev.dice("a", [6, 5, 1, 5, 1, 4, 3, 5, 2, 2], "wound", needed="1-3")], None, WHERE, {"a": "Machine-gunner"})
    play(tl, TUMBLE * 2)
    words = []
    text = app.ui.text
    app.ui.text = lambda *a, **k: (words.append(k.get("max_width") and app.ui.clip(a[1], a[3], k["max_width"])),
                                   text(*a, **k))[1]
    Tray().draw(pygame.Surface((460, 600)), app.ui, tl.rolls(), tl.clock, pygame.Rect(0, 0, 460, 600),
                {"a": "Machine-gunner (blue)"})
    assert words[0] == "wound · Machine-gunner (blue)" and not any(w.endswith("…") for w in words)


def test_the_tray_keeps_clear_of_the_minimap_of_a_map_larger_than_the_view(app):
    match = eisdrachen_match(seed=5, width=90, height=70)
    scene = BattleScene(app, match, "ai-vs-ai")
    app.push(scene)
    steps(app, 2)
    someone = scene.figs[0].id
    roll = ev.dice(someone, [1, 2, 3, 4, 5, 6] * 2, "a roll whose words run longer than half the map", needed=5)
    scene.animate([roll], {f.id: f for f in scene.figs})
    play(scene.timeline, TUMBLE)
    steps(app, 2)
    assert scene.minimap_rect is not None and scene.tray._box.w > 0
    assert not scene.tray._box.colliderect(scene.minimap_rect)


def test_a_face_succeeds_on_a_threshold_or_a_range_of_faces():
    assert meets(5, 5) and not meets(4, 5)
    assert meets(2, "1-3") and not meets(4, "1-3")
    assert meets(6, "5+") and meets(3, None) is None


def test_events_the_viewer_may_not_see_make_no_clip():
    tl = Timeline()
    assert tl.add([ev.moved("a", (2, 2), [(3, 2)], visible_to=0)], 1, WHERE, {}) == []
    assert len(tl.add([ev.moved("a", (2, 2), [(3, 2)], visible_to=0)], 0, WHERE, {})) == 1


def test_a_private_event_never_makes_the_public_sequence_longer():
    """What one side alone may see plays alongside: the pace (and a hot-seat hand-over) tells nothing."""
    public = [ev.attack("a", "b", "ranged", True), ev.damaged("b", "pv", 1, 4)]
    secret = [ev.moved("a", (2, 2), [(3, 2), (4, 2), (5, 2)], visible_to=0), ev.dice("a", [3], "pray", visible_to=0)]
    alone, mixed = Timeline(), Timeline()
    alone.add(public, 0, WHERE, {})
    mixed.add(secret[:1] + public[:1] + secret[1:] + public[1:], 0, WHERE, {})
    assert mixed.cursor == alone.cursor
    assert [c.start for c in mixed.clips if not c.private] == [c.start for c in alone.clips]


def test_a_long_answer_is_shown_faster_not_longer():
    tl = Timeline()
    tl.add([ev.damaged("b", "pv", 1, 9) for _ in range(40)], None, WHERE, {})
    assert tl.cursor <= SEQUENCE_MOST + 1e-9


def test_space_shows_everything_at_once():
    tl = Timeline()
    tl.add([ev.moved("a", (2, 2), [(3, 2), (4, 2)]), ev.attack("a", "b", "ranged", True)], None, WHERE, {})
    assert tl.busy
    tl.skip()
    assert not tl.busy and tl.position("a", (4, 2)) == (4.5, 2.5)


# --- in the window -------------------------------------------------------------------------------

def battle(app, mode: str, seed: int = 4, where: str = "ruined_town"):
    app.settings.animations = "normal"
    scene = start_battle(app, f"maps/{where}.tmx", "eisdrachen", mode, seed)
    app.push(scene)
    steps(app, 2)
    return scene


def test_the_ai_waits_for_its_last_move_to_be_shown(app):
    scene = battle(app, "ai-vs-ai")
    answered_busy, shown = [], []
    real_answer = scene.answer

    def answer(option, by_human=True):
        answered_busy.append(scene.timeline.busy)
        real_answer(option, by_human)
        shown.append(scene.timeline.busy)
    scene.answer = answer
    for _ in range(1500):
        steps(app, 1)
        if len(answered_busy) >= 8:
            break
    assert len(answered_busy) >= 8 and any(shown), "no answer was shown"
    assert not any(answered_busy), "the AI answered while its last answer was still shown"


def test_space_skips_what_is_shown(app):
    scene = battle(app, "ai-vs-ai")
    for _ in range(600):
        steps(app, 1)
        if scene.timeline.busy:
            break
    assert scene.timeline.busy
    press(app, pygame.K_SPACE)
    assert not scene.timeline.busy


def test_animations_change_nothing_in_the_match(app):
    """The same seeded AI game, shown or not, gives the same answers."""
    def answers(animations: str) -> list[str]:
        scene = battle(app, "ai-vs-ai", seed=9)
        app.settings.animations = animations
        for _ in range(2500):
            steps(app, 1)
            if len(scene.match.answers) >= 8:
                break
        app.pop()
        return scene.match.answers[:8]
    assert answers("normal") == answers("off")


def test_a_hot_seat_hand_over_waits_for_the_public_sequence(app):
    """The player who acted sees it happen; the next one gets the screen when the shown events are done."""
    scene = battle(app, "hotseat")
    match = scene.match
    for _ in range(200):
        d = match.pending
        if scene.handover_to is not None:
            scene.finish_handover()
            steps(app, 1)
            continue
        side = d.side
        scene.answer(d.options[0])
        if match.pending is not None and match.pending.side != side and scene.timeline.busy:
            steps(app, 1)
            assert scene.handover_to is None and not scene.human_turn()
            while scene.timeline.busy:
                steps(app, 1)
            steps(app, 1)
            assert scene.handover_to == match.pending.side
            return
        steps(app, 1)
    pytest.fail("no hand-over came after an answer that was shown")


def test_the_camera_follows_the_action_only_when_asked(app):
    def centres(follow: bool) -> set:
        scene = battle(app, "ai-vs-ai", seed=2, where="great_battlefield")
        app.settings.camera_follow = follow
        seen = set()
        for _ in range(1200):
            steps(app, 1)
            seen.add(tuple(round(v, 1) for v in scene.view.centre))
            if len(scene.match.answers) >= 10:
                break
        app.pop()
        return seen
    assert len(centres(False)) == 1
    assert len(centres(True)) > 1


def test_sounds_play_for_the_events_shown(app):
    scene = battle(app, "ai-vs-ai")
    for _ in range(2000):
        steps(app, 1)
        if {"dice", "step"} <= set(app.sound.played):
            break
    assert {"dice", "step"} <= set(app.sound.played)
    assert scene.timeline is not None
