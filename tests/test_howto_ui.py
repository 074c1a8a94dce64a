"""How to play, seen from the game: real taps and keys on the real menu and rules screen."""

from __future__ import annotations

import pygame
import pygame_gui

from game.client import i18n
from game.client.i18n import tr
from game.client.rules_text import rules_text
from game.engine import PRESETS
from tests.client_support import labels, open_menu, press, rect_of, tap, tap_label, top_name

ORDER = list(PRESETS)  # the order the pages turn in



def shown_text(app) -> str:
    """The text in the rules screen's text box."""
    scene = app.stack.top
    boxes = [e for e in scene.manager.get_root_container().elements
             if isinstance(e, pygame_gui.elements.UITextBox)]
    assert len(boxes) == 1, boxes
    return boxes[0].html_text


def page_label(name: str) -> str:
    return f"{tr('preset.' + name)}  ◂ ▸"


def shown_page(app) -> str:
    """The rule set whose page is shown: its button names it and the box holds its text."""
    preset_buttons = [text for text in labels(app) if text.endswith("◂ ▸")]
    assert len(preset_buttons) == 1, labels(app)
    names = [name for name in PRESETS if page_label(name) == preset_buttons[0]]
    assert len(names) == 1, preset_buttons
    assert shown_text(app) == rules_text(names[0], i18n.language())
    return names[0]


def open_how_to_play(app) -> None:
    open_menu(app)
    tap_label(app, tr("menu.rules"))
    assert top_name(app) == "RulesScene"


def test_how_to_play_opens_from_the_menu_on_the_duel_page(app):
    open_how_to_play(app)
    assert shown_page(app) == "duel"
    assert labels(app) == [page_label("duel"), tr("rules.back")]
    assert "<b>Aim:</b>" in shown_text(app)


def test_a_tap_on_the_rule_set_turns_to_the_next_page_and_wraps_round(app):
    open_how_to_play(app)
    seen = [shown_page(app)]
    for _ in ORDER:
        tap_label(app, page_label(seen[-1]))
        seen.append(shown_page(app))
    assert seen == ORDER + ORDER[:1]
    assert len(set(rules_text(name, "en") for name in ORDER)) == len(ORDER)  # five different pages


def test_right_and_left_turn_the_pages_and_enter_turns_forward(app):
    open_how_to_play(app)
    press(app, pygame.K_RIGHT)
    assert shown_page(app) == ORDER[1]
    press(app, pygame.K_RIGHT)
    assert shown_page(app) == ORDER[2]
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert shown_page(app) == ORDER[-1]
    press(app, pygame.K_RETURN)
    assert shown_page(app) == ORDER[0]


def test_escape_returns_to_the_menu(app):
    open_how_to_play(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"
    assert tr("menu.rules") in labels(app)


def test_back_returns_to_the_menu_by_tap_and_by_keys(app):
    open_how_to_play(app)
    tap_label(app, tr("rules.back"))
    assert top_name(app) == "MenuScene"
    open_how_to_play(app)
    press(app, pygame.K_DOWN)  # from the rule set to Back
    press(app, pygame.K_RETURN)
    assert top_name(app) == "MenuScene"


def test_up_wraps_from_the_rule_set_to_back(app):
    open_how_to_play(app)
    press(app, pygame.K_UP)
    press(app, pygame.K_SPACE)
    assert top_name(app) == "MenuScene"


def test_a_page_stays_the_same_after_a_resize_and_fits_the_new_window(app):
    open_how_to_play(app)
    press(app, pygame.K_RIGHT)
    app.screen = pygame.display.set_mode((1600, 900), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1600, 900), w=1600, h=900))
    app.frame(1 / 60)
    assert shown_page(app) == ORDER[1]
    back = rect_of(app, tr("rules.back"))
    assert back.bottom <= 900 and back.right <= 1600
    tap(app, back.center)
    assert top_name(app) == "MenuScene"


def test_how_to_play_speaks_the_language_chosen_in_the_settings(app):
    open_menu(app)
    tap_label(app, tr("menu.settings"))
    tap_label(app, "Language: English")
    assert i18n.language() == "fr"
    tap_label(app, "Retour")
    assert top_name(app) == "MenuScene"
    tap_label(app, "Règles du jeu")
    assert top_name(app) == "RulesScene"
    assert labels(app) == ["Duel  ◂ ▸", "Retour"]
    assert shown_page(app) == "duel"
    assert shown_text(app) == rules_text("duel", "fr") != rules_text("duel", "en")
    press(app, pygame.K_RIGHT)
    assert labels(app)[0] == "Classique  ◂ ▸"


# ---- the classic rules' tips and questions ------------------------------------------------------
TIPS = {"en": ("Keep your eights.", "Name the suit you hold most of.",
               "Change suit through a card of the same rank.", "Watch who draws.", "Shed high cards early."),
        "fr": ("Gardez vos 8.", "Annoncez votre couleur la plus fournie.",
               "Changez de couleur avec une même valeur.", "Regardez qui pioche.",
               "Débarrassez-vous tôt des grosses cartes."),
        "es": ("Guarda tus ochos.", "Pide el palo del que más tengas.",
               "Cambia de palo con una carta del mismo valor.", "Fíjate en quién roba.",
               "Deshazte pronto de las cartas altas."),
        "de": ("Behalte deine Achten.", "Sage die Farbe an, von der du am meisten hast.",
               "Wechsle die Farbe über den gleichen Wert.", "Achte darauf, wer zieht.",
               "Werde hohe Karten früh los.")}
QUESTIONS = {"en": ("What happens when you play an eight?", "Is Crazy Eights like Uno?",
                    "How many cards are dealt?", "Can I draw when I hold a playable card?"),
             "fr": ("Que se passe-t-il quand on joue un 8 ?", "Le Huit américain ressemble-t-il au Uno ?",
                    "Combien de cartes distribue-t-on ?", "Puis-je piocher si j'ai une carte jouable ?"),
             "es": ("¿Qué pasa al jugar un ocho?", "¿Se parece el Ocho loco al Uno?",
                    "¿Cuántas cartas se reparten?", "¿Puedo robar si tengo una carta jugable?"),
             "de": ("Was passiert, wenn man eine Acht legt?", "Ist Verrückte Acht wie Uno?",
                    "Wie viele Karten werden ausgeteilt?",
                    "Darf ich ziehen, wenn ich eine passende Karte habe?")}


def text_box(app) -> pygame_gui.elements.UITextBox:
    scene = app.stack.top
    (box,) = [e for e in scene.manager.get_root_container().elements
              if isinstance(e, pygame_gui.elements.UITextBox)]
    return box


def test_the_classic_page_has_tabs_for_its_five_tips_and_its_questions(app):
    open_how_to_play(app)
    press(app, pygame.K_RIGHT)
    assert shown_page(app) == "classic"
    assert labels(app) == [page_label("classic"), "Rules", "Tips", "Questions", tr("rules.back")]
    tap_label(app, "Tips")
    tips = shown_text(app)
    assert all(f"<b>{tip}</b>" in tips for tip in TIPS["en"]) and tips.count("• ") == 5
    tap_label(app, "Questions")
    faq = shown_text(app)
    assert all(question in faq for question in QUESTIONS["en"])
    tap_label(app, "Rules")
    assert shown_page(app) == "classic"  # the rules again, and the chooser still names them
    tap_label(app, "Tips")
    tap_label(app, page_label("classic"))  # the next rule set opens on its rules, without tabs
    assert shown_page(app) == ORDER[2] and labels(app) == [page_label(ORDER[2]), tr("rules.back")]
    press(app, pygame.K_LEFT)
    assert shown_page(app) == "classic"


def test_the_tabs_are_reached_with_the_keyboard(app):
    open_how_to_play(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)  # Rules
    press(app, pygame.K_DOWN)  # Tips
    press(app, pygame.K_RETURN)
    assert "<b>Watch who draws.</b>" in shown_text(app)
    press(app, pygame.K_DOWN)  # Questions
    press(app, pygame.K_SPACE)
    assert "Is Crazy Eights like Uno?" in shown_text(app)
    press(app, pygame.K_RIGHT)  # from the last tab round to the first: the rules
    assert shown_page(app) == "classic"
    press(app, pygame.K_RIGHT)
    assert "<b>Watch who draws.</b>" in shown_text(app)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert "Is Crazy Eights like Uno?" in shown_text(app)


def test_the_tips_and_questions_are_read_whole_at_1024x600_in_every_language():
    from tests.client_support import make_app

    for lang in i18n.LANGUAGES:
        small = make_app((1024, 600))
        try:
            i18n.set_language(lang)
            open_how_to_play(small)
            press(small, pygame.K_RIGHT)
            pages = ((tr("rules.page.tips"), TIPS[lang]), (tr("rules.page.faq"), QUESTIONS[lang]))
            for page, expected in pages:
                tap_label(small, page)
                box = text_box(small)
                assert all(words in box.html_text for words in expected), (lang, page)
                assert box.scroll_bar is None, (lang, page)  # nothing hidden below the fold
                assert pygame.Rect(0, 0, 1024, 600).contains(box.rect)
                assert box.rect.bottom < rect_of(small, tr("rules.back")).top
        finally:
            pygame.display.quit()
            i18n.set_language("en")


KEY_WORDS = {  # how each language says S sorts the hand and R sends a reaction online
    "en": ("S sorts your hand", "R sends a reaction (online)"),
    "fr": ("S : trier la main", "R : réaction (en ligne)"),
    "es": ("S ordena tu mano", "R: reacción (en línea)"),
    "de": ("S sortiert deine Hand", "R sendet eine Reaktion (online)"),
}


def test_every_page_names_the_sort_and_reaction_keys_in_every_language():
    """Each rule set's page, as the screen shows it in each language, says what S and R do."""
    from tests.client_support import make_app

    for lang in i18n.LANGUAGES:
        small = make_app((1024, 600))
        try:
            i18n.set_language(lang)
            open_how_to_play(small)
            for _ in ORDER:
                text = shown_text(small)
                assert all(words in text for words in KEY_WORDS[lang]), (lang, shown_page(small))
                press(small, pygame.K_RIGHT)
        finally:
            pygame.display.quit()
            i18n.set_language("en")
