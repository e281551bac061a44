"""Every word a player reads exists in French and in English, and each language shows only its own:
no French word on an English screen, no English word on a French one, in every screen and in a game
of every rule system played through the window."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.ai import make_player
from game.engine.mapfolders import list_maps, read_entry
from game.engine.save import new_match
from game.engine.tiled import load_battlefield
from game.rules import get as get_rules
from game.rules import names as rule_names
from game.ui import i18n
from game.ui.battle import BattleScene
from game.ui.i18n import name_words, set_language, use_rules

from .layout import resize
from .screens import MAP, Screens, battle_matches

ROOT = Path(__file__).resolve().parents[2]
WINDOW_WORDS = ROOT / "game" / "ui" / "i18n"
WORD = re.compile(r"[^\W\d_]{2,}")
FRENCH_LETTERS = re.compile(r"[àâäçéèêëîïôöùûüÿœæ]", re.IGNORECASE)
PRIMER = ("goal", "turn", "hit", "kills")


def tables(lang: str) -> list[dict[str, str]]:
    """The window's words and every module's, in ``lang``."""
    out = [json.loads((WINDOW_WORDS / f"{lang}.json").read_text(encoding="utf-8"))]
    return out + [get_rules(rid).words(lang) for rid in rule_names()]


FILE_NAME = re.compile(r"[/\\_]|\.(json|tmx|tmj|png)\b")


def words_of(text: str) -> set[str]:
    """The words of a text as a reader sees them: no blanks to fill, no file names, no numbers."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    return {w.casefold() for chunk in text.split() if not FILE_NAME.search(chunk) for w in WORD.findall(chunk)}


def map_titles() -> dict[str, list[str]]:
    """The shipped maps' titles: English in ``title``, French in ``title_fr``."""
    entries = [e for e in list_maps() if e.shipped]
    return {"en": [e.name for e in entries], "fr": [e.title("fr") for e in entries]}


@pytest.fixture(scope="module")
def vocabulary():
    """Each language's words, and those only the other language uses."""
    titles = map_titles()
    seen = {lang: set().union(*(words_of(v) for t in tables(lang) for v in t.values()),
                              *(words_of(t) for t in titles[lang])) for lang in ("fr", "en")}
    return seen, {"en": seen["fr"] - seen["en"], "fr": seen["en"] - seen["fr"]}


def foreign(texts, lang: str, vocabulary) -> list[str]:
    """The texts shown in ``lang`` that hold a word of the other language, with that word."""
    seen, others = vocabulary
    out = set()
    for text in texts:
        for w in words_of(text):
            if w in others[lang] or lang == "en" and FRENCH_LETTERS.search(w) and w not in seen["en"]:
                out.add(f"{w!r} in {text!r}")
    return sorted(out)


# Words the two languages share (names of the systems, cognates, the rules' own identifiers): any other
# word found in both the French and the English text of one key is a word left untranslated.
SAME_IN_BOTH = set("""
action actions activation activations active adjacent agi animation animations archer armes assassin avatar bak
centre ch champion champions chance chances cib cm combat con contact ctrl directive distance double effort
eisdrachen empire emplacement english esp exploit explosion face faction fatigue force français gain grenade
ground horrible impossible incident initial initiative initiatives ins int intentions interface json kit ko
kolaps main menu min mode modes mordgrave mvt normal offensive opposition orc orcs passe passes phase phases
pi plus point points protection riposte score second secret shurikens simple situation six sniper surprise
swidenth tab terrain test tiled tmx total transport transports trauma traumas type vengeance visible vit vital
volume voyageurs zero zone zoom""".split())
PROPER_NAMES = {"Aurèle", "Basile", "Capucine", "Dorian", "Eulalie", "Firmin", "Gaspard", "Hortense", "Bruna",
                "Ilan", "Lise", "Marek", "Orla", "Sefa", "Tor", "Vask", "Greta", "Brann", "Hirondelle", "Bourdon",
                "Avatar", "Champion Drozz"}


def word_tables(place: str) -> tuple[dict, dict]:
    if place == "window":
        return tuple(json.loads((WINDOW_WORDS / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("fr", "en"))
    return get_rules(place).words("fr"), get_rules(place).words("en")


@pytest.mark.parametrize("place", ["window", *rule_names()])
def test_every_word_exists_in_both_languages_and_is_translated(place):
    fr, en = word_tables(place)
    assert sorted(set(fr) ^ set(en)) == []
    assert [k for k, v in fr.items() if not v.strip() or not en[k].strip()] == []
    copied = {k: sorted((words_of(en[k]) & words_of(fr[k])) - SAME_IN_BOTH) for k in en if not k.startswith("name.")}
    assert {k: w for k, w in copied.items() if w} == {}
    assert sorted(v for k, v in en.items() if k.startswith("name.") and fr[k] == v and v not in PROPER_NAMES) == []


def test_english_says_paces_and_hit_points_and_a_rookie_is_no_blue_side():
    english = {k: v for t in tables("en") for k, v in t.items()}
    assert [k for k, v in english.items() if re.search(r"\b(pas|PV|PE)\b", re.sub(r"\{[^}]*\}", "", v))] == []
    assert [k for k, v in english.items() if FRENCH_LETTERS.search(v) and k != "language.fr"
            and not k.startswith("name.")] == []
    use_rules(get_rules("eisdrachen"))
    set_language("en")
    assert i18n.tr("term.Bleu") == "Rookie" and i18n.tr("side.0") == "Blue side"
    assert i18n.tr("hud.pas", n=3) == "3 paces"
    set_language("fr")
    assert i18n.tr("term.Bleu") == "Bleu" and i18n.tr("hud.pas", n=3) == "3 pas"


@pytest.mark.parametrize("rid", rule_names())
def test_a_rule_system_has_a_primer_a_glossary_and_words_for_what_it_announces(rid):
    rules = get_rules(rid)
    for lang in ("fr", "en"):
        own = rules.words(lang)
        assert [p for p in PRIMER if len(own.get(f"primer.{p}", "")) < 80] == [], lang
        entries = [k for k in own if k.startswith("glossary.") and not k.endswith(".term")]
        assert len(entries) >= 8 and all(f"{k}.term" in own for k in entries), lang


@pytest.mark.parametrize("rid", rule_names())
def test_the_names_a_rule_system_gives_have_words_in_both_languages(rid):
    """Armies, figures and recruits as the rules name them, on every shipped map they can be set on."""
    rules = get_rules(rid)
    given = set()
    for entry in (e for e in list_maps() if e.shipped):
        bf = load_battlefield(entry.path)
        try:
            armies = rules.default_armies(bf)
        except (KeyError, ValueError):
            continue
        given |= {a.name for a in armies} | {str(f["name"]) for a in armies for f in a.figures if f.get("name")}
        given |= {str(r["name"]) for r in rules.recruits(bf) or [] if r.get("name")}
        state = rules.new_state(bf, armies, 2)
        given |= {f.name for f in rules.figures(state, None)}
    assert given
    use_rules(rules)
    for lang in ("fr", "en"):
        set_language(lang)
        assert sorted(n for n in given if not i18n.has(f"name.{n}") and not i18n.has(f"name.{n.rpartition(' ')[0]}")) \
            == [], lang
    assert name_words("Vétéran 2") in ("Vétéran 2", "Veteran 2")


def test_every_shipped_map_has_a_title_in_each_language_and_the_menu_uses_the_player_s():
    for entry in (e for e in list_maps() if e.shipped):
        again = read_entry(entry.path, shipped=True)
        assert again.title("fr") != again.title("en"), entry.path.name
    ruined = read_entry(MAP)
    assert (ruined.title("en"), ruined.title("fr")) == ("Ruined town", "Ville en ruines")


def drawn_texts(app) -> list[str]:
    """What the last frame showed or offers on pointing: every text drawn and every tooltip."""
    return [d.text for d in app.ui.drawn if d.kind in ("text", "button") and d.text] + \
        [b.tooltip for b in app.ui.buttons if b.tooltip]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_screen_speaks_only_its_language(app, home, vocabulary, lang):
    set_language(lang)
    app.settings.language = lang
    resize(app, (1280, 720))
    screens = Screens(app, battle_matches(), home)
    shown = []
    for name in screens.names():
        screens.show(name)
        shown += [(name, t) for t in drawn_texts(app)]
        scene = app.scene
        if isinstance(scene, BattleScene):
            shown += [(name, line) for line in scene.log_lines]
    wrong = [f"{name}: {w}" for name, text in shown for w in foreign([text], lang, vocabulary)]
    assert wrong == []


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("rid", rule_names())
def test_a_game_played_in_the_window_speaks_only_its_language(app, vocabulary, rid, lang):
    """Random players through the hot-seat window: every frame's texts, choices, notes and log, over
    as many short games as make forty answers (an aerial battle may end in a truce at once)."""
    set_language(lang)
    texts: set[str] = set()
    answers, seed = 0, 6
    while answers < 40 and seed < 12:
        match = new_match(MAP, rid, seed, max_turns=2)
        players = {s: make_player("random", rid, 31 + s) for s in match.rules.sides}
        scene = BattleScene(app, match, "hotseat")
        app.scenes = [scene]
        app.step()
        for _ in range(120):
            if scene.handover_to is not None:
                scene.finish_handover()
            app.step()
            texts.update(drawn_texts(app))
            d = match.pending
            if d is None:
                break
            texts.update(scene.option_label(o) for o in d.options)
            texts.add(scene.decision_note(d))
            scene.answer(d.option(match.ask(players[d.side])))
        texts.update(scene.log_lines)
        texts.update(n["text"] for n in scene.notices)
        answers += len(match.answers)
        seed += 1
    assert answers >= 40
    assert foreign(texts, lang, vocabulary) == []
