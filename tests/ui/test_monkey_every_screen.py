"""Random clicks, drags, wheel turns, text and keys held on each screen in turn (menu, new battle
setup, load with good and broken saves, settings, battle in every mode, hand-over, results) for
every registered rule module: nothing may raise, and the match under the window stays sound."""
from __future__ import annotations

import json
import random

import pygame
import pytest

from game.ai.random_player import RandomPlayer
from game.engine.match import Match
from game.engine.save import new_match, save_match
from game.rules import get as get_rules
from game.rules import names as rule_names
from game.sim import engine_invariants
from game.ui.battle import BattleScene
from game.ui.scenes import LoadScene, MenuScene, ResultsScene, SettingsScene, SetupScene
from game.ui.settings import saves_dir

from .driver import field, write_map
from .test_monkey import random_event

FRAMES = 120          # per screen; each frame carries ``PER_FRAME`` random events


def hammer(app, make_screen, rng: random.Random, frames: int = FRAMES, per_frame: int = 12,
           after_frame=None) -> dict[str, int]:
    """Post random input on the screen ``make_screen`` builds, bringing the monkey back to a fresh
    one whenever it has wandered off for a frame or two; return frames spent per screen type."""
    screen = make_screen()
    app.scenes = [MenuScene(app), screen]
    seen: dict[str, int] = {}
    away = 0
    for _ in range(frames):
        for _ in range(per_frame):
            pygame.event.post(random_event(rng, app.screen.get_size()))
        app.step()
        app.running = True                 # the monkey may press Quit: keep going
        if after_frame is not None:
            after_frame()
        name = type(app.scene).__name__ if app.scene is not None else "none"
        seen[name] = seen.get(name, 0) + 1
        away = 0 if app.scene is screen else away + 1
        if away > rng.randint(0, 2):
            screen = make_screen()
            app.scenes = [MenuScene(app), screen]
    return seen


@pytest.fixture
def saves(home):
    """The load screen's folder: a good save, one damaged, one from another version, one whose map
    is gone."""
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    map_path = write_map(home / "data" / "maps" / "monkey.tmx", 14, 9)
    match = new_match(map_path, "eisdrachen", seed=4)
    for _ in range(6):
        match.answer(match.ask(RandomPlayer(1)))
    save_match(match, folder / "good.json")
    good = (folder / "good.json").read_text()
    (folder / "damaged.json").write_text(good[: len(good) // 2])
    (folder / "future.json").write_text(json.dumps(dict(json.loads(good), version=99)))
    (folder / "lost_map.json").write_text(good.replace(str(map_path.resolve()), "/nowhere/gone.tmx"))
    return folder


@pytest.mark.parametrize("screen", [MenuScene, SetupScene, LoadScene, SettingsScene],
                         ids=lambda s: s.__name__)
@pytest.mark.long
def test_random_input_on_each_menu_screen_raises_nothing(app, home, saves, screen):
    seen = hammer(app, lambda: screen(app), random.Random(f"menu-{screen.__name__}"))
    assert seen.get(screen.__name__, 0) >= FRAMES // 2, seen


def check_match(match: Match):
    def after_frame():
        problems = engine_invariants(match) + match.rules.check_invariants(match.state)
        assert problems == [], problems
    return after_frame


def battle(app, rules_name: str, mode: str, seed: int) -> BattleScene:
    rules = get_rules(rules_name)
    bf = field(14, 10)
    return BattleScene(app, Match(bf, rules, rules.default_armies(bf), seed, max_turns=3), mode, human_side=0)


@pytest.mark.long
@pytest.mark.parametrize("mode", ["hotseat", "vs-ai", "ai-vs-ai"])
@pytest.mark.parametrize("rules", rule_names())
def test_random_input_on_the_battle_screen_raises_nothing_and_keeps_the_match_sound(app, home, rules, mode):
    rng = random.Random(f"battle-{rules}-{mode}")
    scenes: list[BattleScene] = []

    def make():
        scenes.append(battle(app, rules, mode, rng.randrange(1000)))
        return scenes[-1]

    def after_frame():
        check_match(scenes[-1].match)()

    seen = hammer(app, make, rng, frames=3 * FRAMES, per_frame=8, after_frame=after_frame)
    assert seen.get("BattleScene", 0) >= FRAMES, seen
    assert sum(len(s.match.answers) for s in scenes) > 0


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
def test_random_input_on_the_hand_over_screen_raises_nothing(app, home, rules):
    """The hand-over screen held up: each time the monkey hands over, the next side's turn hides
    the battlefield again, as it does whenever hidden information is in play."""
    rng = random.Random(f"handover-{rules}")
    scene = battle(app, rules, "hotseat", 17)
    handovers = frames_on_it = 0

    def make():
        return scene

    def after_frame():
        nonlocal handovers, frames_on_it
        check_match(scene.match)()
        d = scene.match.pending
        if scene.handover_to is None and d is not None:
            handovers += 1
            scene.handover_to = d.side
        else:
            frames_on_it += 1

    hammer(app, make, rng, frames=2 * FRAMES, per_frame=6, after_frame=after_frame)
    assert handovers > 5 and frames_on_it > FRAMES // 2, (handovers, frames_on_it)


def finished_match(rules_name: str, seed: int) -> Match:
    rules = get_rules(rules_name)
    bf = field(14, 10)
    match = Match(bf, rules, rules.default_armies(bf), seed, max_turns=2)
    player = RandomPlayer(seed)
    while match.pending is not None:
        match.answer(match.ask(player))
    return match


@pytest.mark.long
@pytest.mark.parametrize("rules", rule_names())
def test_random_input_on_the_results_screen_raises_nothing(app, home, rules):
    match = finished_match(rules, 9)
    names = {f.id: f.name for f in match.rules.figures(match.state, None)}
    seen = hammer(app, lambda: ResultsScene(app, match, None, names), random.Random(f"results-{rules}"))
    assert seen.get("ResultsScene", 0) >= FRAMES // 3, seen      # its share, about half, hangs on the
    # monkey's seed, which is named after the module: from 56 to 73 frames of 120 across ten names
