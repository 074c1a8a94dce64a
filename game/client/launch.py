"""Starting the graphical game from the command line: ``python main.py`` and ``huit``.

`main` reads the flags (each checked before any window opens: a bad flag, link or data
folder is one line on standard error and exit code 2), then does what they ask: the
smoke test (``--check``), the desktop entry (``--install-desktop``), a link handed to a
game already running (`single_instance`), or a new window (`game.client.app.App`) on the
menu, straight into a linked room if one was given, listening for links from later
launches. The loop itself is `game.client.app`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Final

# Only what reading the flags needs is imported here, all of it without pygame, the engine,
# the computer players or the saves: a refused flag and ``--help`` cost little more than
# Python itself. The game's own modules are imported in `main`, once the flags are read.
from game.cli import CommandParser, whole_number

from .attract import ATTRACT_AFTER
from .catalogues import LANGUAGES
from .sizes import SIZE_RULE, parse_size

if TYPE_CHECKING:
    from game.saves import DataStore

MAX_CORES: Final = 1024  # more than any machine the game runs on (it uses at most the machine's own)

positive_int: Final = whole_number(1, MAX_CORES)
"""A whole number from 1 to `MAX_CORES`, from the command line (``--cores``): an argparse ``type=``."""
attract_seconds: Final = whole_number(0, 24 * 3600)
"""``--attract-after``: whole seconds, 0 (never) to a day."""
DATA_DIR_VAR: Final = "HUIT_DATA_DIR"
"""`game.saves.ENV_VAR`, as ``--help`` names it: written here so that the flags are read
without loading the saves (a test holds the two equal)."""


def room_link(text: str) -> str:
    """A room link from the command line (``huit://HOST:PORT/ROOM``, ``huits://`` with TLS, or a
    room page's ``https://HOST/r/ROOM``), checked before any window opens.

    Raises:
        argparse.ArgumentTypeError: not such a link (too long, or a bad part: the message says).
    """
    from game.net.links import parse_link  # not game.net.client: no websockets to read a link

    try:
        parse_link(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def data_notices(store: DataStore) -> list[str]:
    """What the menu says about the settings (as last read) and the statistics, a line each.

    A file that could not be read says why and what is used instead; a file read only
    in part names what was left out. Saved games speak for themselves on the menu.
    """
    from . import i18n
    from .saving import why

    store.read_statistics()  # only to know whether it can be read: the Statistics screen reads it again
    lines = []
    for name, document in (("settings", store.settings), ("statistics", store.statistics)):
        if document.problem is not None:
            instead = "backup" if document.from_backup else "default"
            lines.append(i18n.tr(f"save.{name}_{instead}", why=why(document.problem)))
        if document.ignored:
            lines.append(i18n.tr(f"save.{name}_ignored", names=", ".join(document.ignored)))
    return lines


def main(argv: list[str] | None = None, prog: str = "python main.py") -> int:
    """Start the graphical game (``link``: straight into that online room, or handed to the game
    already running), or run ``--check``, ``--install-desktop`` or ``--uninstall-desktop``.

    A bad flag, link or data folder is refused with one line on standard error and exit
    code 2, before any window opens.
    """
    parser = CommandParser(prog=prog, description="Huit: Crazy Eights")
    parser.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11 toggles)")
    parser.add_argument("--kiosk", action="store_true",
                        help="fullscreen, no cursor, no quitting from the keyboard, idle return to menu")
    parser.add_argument("--attract-after", type=attract_seconds, default=ATTRACT_AFTER, metavar="SECONDS",
                        help=f"kiosk: idle seconds at the menu before computers play a game to attract "
                             f"players (default {ATTRACT_AFTER:g}; 0: never)")
    parser.add_argument("--size", type=parse_size, default=(1280, 800),
                        help=f"window size: {SIZE_RULE} (default 1280x800)")
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: the system's)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help=f"folder for saves, settings and statistics (default: ${DATA_DIR_VAR}, "
                             "else the user data folder)")
    parser.add_argument("--cores", type=positive_int, metavar="N",
                        help="cores the computer players may use (default: all of them, up to 4)")
    parser.add_argument("--text", action="store_true", help="play in the terminal instead")
    actions = parser.add_mutually_exclusive_group()
    actions.add_argument("--check", action="store_true",
                         help="smoke test: play a computer-only game headless to its result, in a "
                              "temporary data folder; exit 0, or 1 naming what failed")
    actions.add_argument("--install-desktop", action="store_true",
                         help="Linux: add Huit to this user's desktop menu and open huit:// links with it")
    actions.add_argument("--uninstall-desktop", action="store_true",
                         help="Linux: remove what --install-desktop added")
    parser.add_argument("link", nargs="?", type=room_link,
                        help="a room link (huit://HOST:PORT/ROOM, huits://… with TLS, or its page "
                             "https://HOST/r/ROOM): join that room at once (in the game already "
                             "running, if one is)")
    args = parser.parse_args(argv)
    # The flags are read: now the game itself.
    import pygame

    from game.ai import use_cores
    from game.saves import DataStore
    from game.saves.paths import DataFolderError, data_dir, make_data_dir

    from . import desktop, single_instance
    from .app import LINK_EVENT, App, open_link
    from .settings import Settings

    if args.install_desktop or args.uninstall_desktop:
        return desktop_command(install=args.install_desktop)
    if args.check:
        from .check import run_check

        use_cores(args.cores)
        return run_check(args.size, args.lang or "en", helpers=args.cores != 1)
    try:
        root = data_dir(args.data_dir)
        make_data_dir(root)
    except DataFolderError as exc:
        parser.error(str(exc))
    instance = single_instance.socket_path(root)
    if args.link and instance is not None:
        try:
            if single_instance.hand_over(instance, args.link):
                print(f"Huit: the game already running opens {args.link}")
                return 0
        except single_instance.Refused as exc:
            print(f"{prog}: the game already running refused the link: {exc}", file=sys.stderr)
            return 2
    use_cores(args.cores)
    store = DataStore(root)
    store.clean_leftovers()  # writes a full disk (or a killed process) left half done
    settings, ignored = Settings.parse(store.settings.read())
    store.settings.partly_read(ignored)
    if args.lang:
        settings.language = args.lang
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", desktop.WM_CLASS)  # the desktop entry's StartupWMClass
    os.environ.setdefault("SDL_VIDEO_WAYLAND_WMCLASS", desktop.WM_CLASS)
    try:
        app = App(args.size, fullscreen=args.fullscreen, kiosk=args.kiosk, settings=settings, store=store)
    except pygame.error as exc:
        print(f"Cannot open a window ({exc}). Try: {prog} --text", file=sys.stderr)
        return 1
    app.attract_after = args.attract_after
    app.notice = "\n".join(data_notices(store))
    app.go_to_menu()
    app.stack.apply_requests()
    if args.link:
        open_link(app, args.link)

    def handed(link: str) -> None:  # on the listener's thread: post it, wake the loop
        pygame.event.post(pygame.event.Event(LINK_EVENT, link=link))
        app.wake()

    listeners: list[single_instance.LinkListener] = []

    def listen() -> None:  # once the loop catches stop signals: a game that listens is a game that saves
        listener = single_instance.listen(instance, handed) if instance is not None else None
        listeners.extend([listener] if listener is not None else [])

    app.on_run.append(listen)
    try:
        app.run()
    finally:
        for listener in listeners:
            listener.close()
    return 0


def desktop_command(*, install: bool) -> int:
    """``--install-desktop`` / ``--uninstall-desktop``: do it and say what was done."""
    from . import desktop

    try:
        report = desktop.install() if install else desktop.uninstall()
    except (desktop.DesktopError, OSError) as exc:
        print(f"Huit: {exc}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 0
