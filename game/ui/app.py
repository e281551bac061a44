"""The window: a scene stack driven by a fixed-timestep loop that never waits for the AI.

``run(options)`` is the one entry point the command line calls; tests build an ``App`` and call
``step()`` themselves after posting pygame events, which drives exactly the same code.
"""
from __future__ import annotations

import io
import os
import random
import sys
from pathlib import Path

import pygame

from ..engine.files import remove_stale_temps, write_atomic
from ..errors import EscarmoucheError
from . import glossary
from .i18n import set_language, tr
from .icons import ICON_DIR
from .settings import Settings, saves_dir, settings_path
from .sound import Sound
from .widgets import UI

SIZE = (1280, 720)
TICK = 1 / 60


class App:
    def __init__(self, options: dict | None = None, settings: Settings | None = None):
        self.options = dict(options or {})
        for folder in (saves_dir(), settings_path().parent):   # what a killed run left half-written
            remove_stale_temps(folder)
        fallen_back: list[str] = []
        if settings is None:
            settings, fallen_back = Settings.read()
        self.settings = settings
        if self.options.get("lang"):
            self.settings.language = self.options["lang"]
        set_language(self.settings.language)
        pygame.display.init()       # not pygame.init(): the mixer starts on its own terms (sound.py)
        pygame.font.init()
        self.sound = Sound()
        self.sound.start()
        self.sound.configure(self.settings.volume, self.settings.muted)
        pygame.key.set_repeat(300, 40)
        self.screen = pygame.display.set_mode(SIZE, pygame.RESIZABLE)
        pygame.display.set_caption("Escarmouche")
        try:
            pygame.display.set_icon(pygame.image.load(str(ICON_DIR / "melee.png")))
        except (pygame.error, FileNotFoundError):
            pass    # the window keeps the system's default icon
        self.ui = UI(self.settings.ui_scale)
        self.ui.fit(self.screen.get_size())
        self.ui.glossary = glossary.notes       # a tooltip says what the rules terms it uses mean
        self.clock = pygame.time.Clock()
        self.scenes: list = []
        self.running = True
        self.frames = 0
        self.accumulator = 0.0
        self.message = ""
        self.fps = int(self.options.get("fps", 60))
        if fallen_back:
            self.settings_fell_back(fallen_back)

    # --- the scene stack ----------------------------------------------------------

    @property
    def scene(self):
        return self.scenes[-1] if self.scenes else None

    def push(self, scene) -> None:
        self.scenes.append(scene)

    def pop(self) -> None:
        if len(self.scenes) > 1:
            self.scenes.pop()

    def replace(self, scene) -> None:
        if self.scenes:
            self.scenes.pop()
        self.scenes.append(scene)

    def apply_settings(self) -> None:
        set_language(self.settings.language)
        self.ui.set_scale(self.settings.ui_scale)
        self.sound.configure(self.settings.volume, self.settings.muted)
        try:
            self.settings.save()
        except (EscarmoucheError, OSError) as e:
            self.message = tr("status.settings_not_saved", error=str(e))

    def settings_fell_back(self, fields: list[str]) -> None:
        """Say once which settings were unreadable, then write the file whole again (the old one
        stays as ``settings.json.bak``) so the next start has nothing to say."""
        path = str(settings_path())
        self.message = (tr("status.settings_unreadable", path=path) if fields == ["*"] else
                        tr("status.settings_defaults", path=path, fields=", ".join(fields)))
        try:
            self.settings.save()
        except (EscarmoucheError, OSError):
            pass        # a settings file that cannot be rewritten is said again next start

    # --- the loop -----------------------------------------------------------------------

    def step(self) -> None:
        """One frame: input, fixed-step updates, drawing. Tests call this directly."""
        for event in pygame.event.get():
            self.dispatch(event)
        dt = self.clock.tick(self.fps) / 1000.0 if self.fps else TICK
        self.accumulator = min(self.accumulator + dt, 0.25)
        while self.accumulator >= TICK:
            self.accumulator -= TICK
            if self.scene is not None:
                self.scene.update(TICK)
        self.sound.ambience(self.scene is not None and getattr(self.scene, "ambient", True))
        self.draw()
        self.frames += 1

    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            w, h = max(640, event.w), max(400, event.h)
            if (w, h) != self.screen.get_size():
                self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
            return
        self.ui.track(event)
        field = self.ui.focused_input()
        if field is not None and field.key(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.message = ""
            if self.ui.click(event.pos):
                return
        if event.type == pygame.MOUSEWHEEL and self.ui.wheel(self.ui.mouse, event.y):
            return
        if self.scene is not None:
            self.scene.handle(event)

    def draw(self) -> None:
        self.ui.fit(self.screen.get_size())
        self.ui.begin_frame()
        if self.scene is not None:
            self.scene.draw(self.screen)
        scene_drew = len(self.ui.drawn)
        if self.message:
            self.draw_message(self.screen)
        self.ui.draw_tooltip(self.screen)
        self.ui.overlaid = [d.rect for d in self.ui.drawn[scene_drew:]]     # what a kept frame lays back next
        pygame.display.flip()

    def draw_message(self, surface: pygame.Surface) -> None:
        """A problem in a red band above the bottom buttons, over whatever the screen shows."""
        ui = self.ui
        w = surface.get_width()
        lines = ui.wrap(self.message, 20, w - ui.s(40))
        box = pygame.Rect(0, surface.get_height() - ui.s(24) * len(lines) - ui.s(100), w,
                          ui.s(24) * len(lines) + ui.s(12))
        with ui.layer("message"):
            pygame.draw.rect(surface, (60, 20, 20), box)
            ui.occupy(box)
            for i, line in enumerate(lines):
                ui.text(surface, line, (ui.s(20), box.y + ui.s(6) + i * ui.s(24)), 20)

    def screenshot(self, path: str | Path) -> None:
        """The window as a picture (its format from the file's extension), written atomically."""
        picture = io.BytesIO()
        pygame.image.save(self.screen, picture, Path(path).name)
        write_atomic(path, picture.getvalue())

    def show_error(self, text: str) -> None:
        """A clear one-line problem shown on screen; the game goes on."""
        self.message = text


def start_battle(app: App, map_path, rules_name: str, mode: str, seed: int | None, human_side: int = 0,
                 armies=None, ai_level: str = "normal"):
    """Build the match and the battle scene; a bad map or rule name raises EscarmoucheError."""
    from ..engine.save import new_match
    from .battle import BattleScene
    from .maprender import load_map_picture

    seed = random.randrange(1, 10**9) if seed is None else int(seed)
    try:
        loaded, battlefield = load_map_picture(map_path)
    except ImportError:
        raise EscarmoucheError(str(map_path), "the Tiled map loader is not available yet") from None
    try:
        match = new_match(map_path, rules_name, seed, armies, battlefield=battlefield)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise EscarmoucheError(str(map_path), f"the armies cannot be set up ({e.__class__.__name__}: {e})") from None
    return BattleScene(app, match, mode, human_side, loaded, ai_name=f"tactical:{ai_level}")


def frozen(app: App, kind: str) -> bool:
    """``--freeze``: an animation of that kind is at its middle (a roll that needs a score, once settled)."""
    timeline = getattr(app.scene, "timeline", None)
    if timeline is None:
        return False
    point = {"dice": 0.9, "miss": 0.8}.get(kind, 0.5)      # a settled roll; a miss once past its target
    clips = timeline.playing("shot" if kind == "miss" else kind)
    if kind in ("miss", "dice"):
        clips = [c for c in clips if (not c.data["hit"] if kind == "miss" else "needed" in c.data)]
    return any(c.progress(timeline.clock) >= point for c in clips)


def run(options: dict) -> int:
    """Open the window (menu, or straight into a battle when map and rules are given); return an exit code."""
    os.environ.setdefault("SDL_VIDEO_X11_WM_CLASS", "escarmouche")
    app = App(options)
    from .scenes import MenuScene, SetupScene

    app.push(MenuScene(app))
    if options.get("map") and not options.get("rules"):     # a map alone (Tiled's Play this map): New battle
        setup = SetupScene(app)
        setup.path_input.text = str(options["map"])
        setup.use_path()
        setup.mode = options.get("mode") or setup.mode
        setup.human_side = int(options.get("human_side") or 0)
        setup.ai_level = options.get("ai_level") or setup.ai_level
        if options.get("seed") is not None:
            setup.seed_input.text = str(options["seed"])
        app.push(setup)
    elif options.get("map") and options.get("rules"):
        try:
            app.push(start_battle(app, options["map"], options["rules"], options.get("mode") or "hotseat",
                                  options.get("seed"), int(options.get("human_side") or 0),
                                  ai_level=options.get("ai_level") or "normal"))
        except EscarmoucheError as e:       # like every other command: one line, exit code 2
            print(f"escarmouche: {e}", file=sys.stderr)
            pygame.quit()
            return 2
    frames, freeze, froze = int(options.get("frames") or 0), options.get("freeze"), False
    while app.running:
        app.step()
        froze = bool(freeze) and frozen(app, freeze)
        if froze or frames and app.frames >= frames:
            break
    if options.get("screenshot"):
        app.screenshot(options["screenshot"])
    pygame.quit()
    if freeze and not froze:        # the picture asked for was never on screen: say so, not a silent wrong one
        print(f"escarmouche: --freeze {freeze}: no such animation reached its middle in {app.frames} frames"
              + (f"; {options['screenshot']} shows the last frame" if options.get("screenshot") else ""),
              file=sys.stderr)
        return 1
    return 0
