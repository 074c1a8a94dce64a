"""The screens of one window share one loaded pygame_gui theme (`game.client.ui.ThemedManager`):
a screen opens without parsing the theme again, looks exactly as on a theme of its own, finds
its fonts loaded, and only a few themes are kept."""

from __future__ import annotations

import os
import warnings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.client import ui  # noqa: E402

SIZE = (1280, 800)


@pytest.fixture(autouse=True)
def window():
    pygame.init()
    pygame.display.set_mode(SIZE)
    ui.THEMES.clear()
    yield
    ui.THEMES.clear()
    pygame.display.quit()


def drawn_screen(manager: pygame_gui.UIManager) -> bytes:
    """A screen of buttons, a label and a text box (the kinds the game's screens use), drawn."""
    pygame_gui.elements.UIButton(pygame.Rect(40, 40, 300, 56), "New game", manager)
    pygame_gui.elements.UIButton(pygame.Rect(40, 120, 300, 56), "Settings", manager, object_id="#primary")
    pygame_gui.elements.UILabel(pygame.Rect(40, 200, 500, 40), "Huit", manager, object_id="#heading")
    pygame_gui.elements.UITextBox("<b>Eights</b> are <i>wild</i>.", pygame.Rect(40, 260, 500, 120), manager)
    surface = pygame.Surface(SIZE)
    for _ in range(3):  # pygame_gui draws a state more of each widget per update
        manager.update(1 / 60)
    manager.draw_ui(surface)
    return pygame.image.tobytes(surface, "RGB")


def test_the_screens_of_one_window_share_one_theme_and_another_scale_loads_its_own():
    first, second = ui.make_manager(SIZE), ui.make_manager(SIZE, pointer=False)
    assert first.ui_theme is second.ui_theme and first.theme_is_new and not second.theme_is_new
    larger = ui.make_manager((1920, 1200))
    assert larger.ui_theme is not first.ui_theme and larger.theme_is_new


def test_each_screen_keeps_its_own_pictures_of_its_widgets_shapes():
    first = ui.make_manager(SIZE)
    button = pygame_gui.elements.UIButton(pygame.Rect(40, 40, 300, 56), "New game", first)
    second = ui.make_manager(SIZE)  # shares the theme, not the pictures the first screen's widgets wait in
    assert second.ui_theme is first.ui_theme
    assert button.drawable_shape.shape_cache is not second.ui_theme.shape_cache


def test_only_the_themes_of_the_last_scales_used_are_kept():
    themes = [ui.make_manager(size).ui_theme for size in ((1280, 800), (1920, 1200), (2560, 1600))]
    assert len(ui.THEMES) == ui.MAX_THEMES == 2
    assert themes[0] not in ui.THEMES.values() and themes[2] in ui.THEMES.values()
    assert ui.make_manager((2560, 1600)).ui_theme is themes[2]  # kept: the last used
    assert ui.make_manager((1280, 800)).theme_is_new  # let go: loaded again


def test_a_screen_on_a_shared_theme_looks_exactly_as_on_a_theme_of_its_own():
    own = drawn_screen(ui.make_manager(SIZE))
    other = ui.make_manager(SIZE)  # another screen of the window uses the theme meanwhile
    pygame_gui.elements.UIButton(pygame.Rect(10, 10, 120, 40), "Back", other)
    other.update(1 / 60)
    shared = ui.make_manager(SIZE)
    assert not shared.theme_is_new
    assert drawn_screen(shared) == own


def test_a_shared_theme_has_the_text_boxs_faces_loaded_once():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pygame_gui warns of a face loaded twice
        managers = [ui.make_manager(SIZE) for _ in range(3)]
    fonts = managers[-1].ui_theme.get_font_dictionary()
    size = int(ui.theme(ui.scale_for(SIZE))["text_box"]["font"]["size"])
    for style in ("bold", "italic", "bold_italic"):
        assert fonts.check_font_preloaded(f"dejavu_{style}_aa_{size}")


def test_a_screen_built_leaves_the_translations_search_path_as_it_was():
    # pygame_gui adds its translations' folder to python-i18n's path with each manager, and every
    # text with a full stop is searched for in each folder of it at each drawing: the hostile
    # waiting room's 335 rooms took 4 s in a fresh process and 27 s after 300 screens had been built.
    for _ in range(3):
        ui.make_manager(SIZE)
    ui.make_manager(SIZE, pointer=False)
    paths = ui.translation_paths()
    assert paths and len(paths) == len(set(paths))
    before = list(paths)
    ui.make_manager((1920, 1200))
    assert ui.translation_paths() == before


def test_once_each_keeps_the_first_place_of_each_folder():
    paths = ["a", "b", "a", "c", "b"]
    same = paths
    ui.once_each(paths)
    assert same is paths and paths == ["a", "b", "c"]
