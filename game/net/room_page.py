"""A room's web page (``/r/ROOM``): the page a player sends a friend who has never heard of Huit.

It says, in the visitor's language (``Accept-Language`` among the game's catalogues, or
``?lang=fr``; English otherwise), what Huit is in two sentences; which game the room
holds and whether it counts for the ranking (the crossed swords of `swords`, or
"Friendly: not ranked"); who is seated (names escaped and isolated, so that a
right-to-left or hostile name changes nothing around it; free seats as free); a big
"Open in Huit" button (the ``huit://`` or ``huits://`` link), a "Play in the browser" one
(``/play/ROOM``: `browser_pages`, unless the server runs with ``--no-web``); the menu's own words for
opening the room by hand, and the room code; and where to download Huit: the operator's
``--download-url``, else the project's release page (`DOWNLOAD_URL`).

The page is self-contained: no script, no image or font fetched, its one style sheet
inline and allowed by its hash (`CSP`). It shows nothing a player of the room would not see
in its waiting room: no key, no seed, no card.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from game.client.catalogues import load
from game.engine import PRESETS

from .links import make_link
from .swords import svg

if TYPE_CHECKING:
    from .rooms import Room

LANGUAGES: Final = ("en", "fr", "es", "de")
"""The page's languages: the game's catalogues."""
DOWNLOAD_URL: Final[str | None] = None
"""The project's release page, the default of ``--download-url``. The project has published no
address yet: without one the page says to ask the friend who sent the link for a copy (and
how to run it) rather than send a stranger to an address nobody checked."""
LEVELS: Final = ("easy", "medium", "hard")

STYLE: Final = """*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2b22;
background:#0b5d2a;line-height:1.45;font-size:1.05rem}
main{max-width:36rem;margin:0 auto;padding:1.2rem 1rem 2rem;background:#f6f8f3;min-height:100vh}
h1{color:#0b5d2a;font-size:1.6rem;margin:.2rem 0 .6rem}h2{font-size:1.2rem;margin:1.4rem 0 .4rem}
.card{background:#fff;border:1px solid #d5ddd2;border-radius:.8rem;padding:.8rem 1rem}
.game{display:flex;align-items:center;gap:.6rem;flex-wrap:wrap;font-size:1.25rem;font-weight:700;margin:0}
.mark{display:inline-flex;align-items:center;gap:.35rem;font-size:.95rem;font-weight:600;
padding:.15rem .6rem;border-radius:1rem;background:#fdf3d8;color:#6b4b00}
.friendly{background:#e8efe6;color:#2f4a36}
ul{list-style:none;padding:0;margin:.6rem 0 0}li{padding:.45rem 0;border-top:1px solid #eef1ec;
overflow-wrap:anywhere}li:first-child{border-top:0}.seat{color:#5b6b60;margin-right:.4rem}
.who{font-weight:600}.free{color:#0b5d2a;font-weight:600}.state{color:#5b6b60;font-size:.95rem}
a.open{display:block;text-align:center;margin:1.2rem 0 .6rem;padding:1rem;font-size:1.35rem;
font-weight:700;background:#0b5d2a;color:#fff;border-radius:.8rem;text-decoration:none}
a.browser{display:block;text-align:center;margin:0 0 .3rem;padding:.8rem;font-size:1.2rem;
font-weight:700;background:#fff;color:#0b5d2a;border:2px solid #0b5d2a;border-radius:.8rem;
text-decoration:none}
a.download{display:inline-block;padding:.6rem 1.1rem;background:#1d2b22;color:#fff;border-radius:.6rem;
text-decoration:none;font-weight:600}
.small{color:#4d5b52;font-size:.92rem}code{font-size:1rem;overflow-wrap:anywhere;background:#eef1ec;
padding:0 .25rem;border-radius:.25rem}
.code{font-size:1.15rem;letter-spacing:.08em;font-weight:700;white-space:nowrap}"""
CSP: Final = ("default-src 'none'; style-src 'sha256-"
              + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
              + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The page's Content-Security-Policy: nothing loads, only its own style sheet applies."""

_RANGE: Final = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*$")


def pick_language(accept: str, asked: str = "") -> str:
    """The page's language: ``asked`` (``?lang=``) if it is one of `LANGUAGES`, else the first of
    ``Accept-Language`` by weight that is, else English."""
    if asked in LANGUAGES:
        return asked
    best, weight = "en", 0.0
    for i, part in enumerate(accept[:512].split(",")[:32]):
        found = _RANGE.match(part)
        if found is None:
            continue
        lang = found.group(1).lower()
        try:
            q = float(found.group(2)) if found.group(2) else 1.0
        except ValueError:
            continue
        q -= i * 1e-6  # the earlier of two equal weights
        if lang in LANGUAGES and q > weight:
            best, weight = lang, q
    return best


class Words:
    """The page's words in one language, English for what it lacks."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._mine: Mapping[str, str] = load(lang)
        self._english: Mapping[str, str] = load("en")

    def __call__(self, key: str, **values: object) -> str:
        text = self._mine.get(key) or self._english.get(key) or key
        try:
            return text.format(**values) if values else text
        except (KeyError, IndexError, ValueError):
            return text


def render(room: Room, host: str, port: int, tls: bool, lang: str = "en",
           download_url: str | None = DOWNLOAD_URL, browser: str | None = None) -> str:
    """The room's page as HTML in ``lang`` (every value escaped); ``browser``: the address of the
    room's page in the browser client (None: no such button)."""
    e = html.escape
    t = Words(lang if lang in LANGUAGES else "en")
    game_link = make_link(host, port, room.room_id, tls)
    preset = room.rules.name
    title = t(f"preset.{preset}") if preset in PRESETS else preset
    usual = PRESETS[preset].options() if preset in PRESETS else {}
    # Online nobody takes a turn back, so a room's "undo: off" is no house rule a friend should read.
    changed = {k: v for k, v in room.rules.options().items() if usual.get(k) != v and k != "undo"}
    rules = ", ".join(t("fmt.pair", label=t(f"option.{name}"), value=_value(t, value))
                      for name, value in sorted(changed.items()))
    state = room.state
    over = state == "match_over"
    waiting = set(room.waiting_for()) if not over else set()
    seats = []
    for i, seat in enumerate(room.seats):
        label = f'<span class="seat">{e(t("web.seat", n=i + 1))}</span>'
        if not seat.is_human:
            level = seat.level if seat.level in LEVELS else "medium"
            who = f'<span class="who">{e(t("web.computer", level=t(f"level.{level}")))}</span>'
        elif seat.key_hash is None:
            who = f'<span class="free">{e(t("web.free_over" if over else "web.free"))}</span>'
        else:
            name = seat.name or t("web.player", n=i + 1)
            tag = f" #{seat.tag}" if seat.tag else ""
            if over:
                status = ""
            elif i in waiting and room.match is not None:
                status = t("web.waited")
            else:
                status = t("web.here" if seat.connected else "web.away")
            who = (f'<span class="who"><bdi>{e(name)}</bdi>{e(tag)}</span>'
                   + (f' <span class="state">({e(status)})</span>' if status else ""))
        seats.append(f"<li>{label}{who}</li>")
    # A listed room waiting for its people is ranked once they sit (from different addresses).
    ranked = room.kind != "private" and (room.ranked or state == "waiting")
    mark = (f'<span class="mark">{svg(22, e(t("competitive.ranked")))}{e(t("competitive.ranked"))}</span>'
            if ranked else f'<span class="mark friendly">{e(t("competitive.friendly"))}</span>')
    menu = t("web.by_hand", online=t("menu.online"), link=t("online.link"), join=t("online.join"))
    if download_url:
        download = (f'<p>{e(t("web.download"))}</p>'
                    f'<p><a class="download" href="{e(download_url)}">{e(t("web.download_button"))}</a></p>')
    else:
        download = (f'<p>{e(t("web.no_download"))}</p>'
                    f'<p class="small"><code>python3 -m venv .venv &amp;&amp; .venv/bin/pip install -e . '
                    f'&amp;&amp; .venv/bin/python main.py</code> (<code>make play</code>)</p>')
    house = f'<p class="state">{e(t("web.house_rules", rules=rules))}</p>' if rules else ""
    joining = "" if over else (  # a finished game has no seat left to take: no button to it
        f'<a class="open" href="{e(game_link)}">{e(t("web.open"))}</a>\n'
        + (f'<a class="browser" href="{e(browser)}">{e(t("web.play_browser"))}</a>\n'
           f'<p class="small">{e(t("web.play_browser_note"))}</p>\n' if browser else "")
        + f'<p class="small">{e(menu)}</p>\n'
        f'<p class="small">{e(t("web.code"))} <code class="code">{e(room.room_id)}</code></p>\n')
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{e(t("web.title", game=title))}</title><style>{STYLE}</style></head>
<body><main>
<h1>{e(t("web.heading"))}</h1>
<p>{e(t("web.about"))}</p>
<section class="card">
<p class="game"><span>{e(title)}</span>{mark}</p>
<p class="state">{e(t(f"web.state.{state}" if state in ("waiting", "playing", "round_over", "match_over")
                      else "web.state.playing"))}</p>
{house}<ul>{"".join(seats)}</ul>
</section>
{joining}<h2>{e(t("web.get"))}</h2>
{download}
</main></body></html>
"""


def _value(t: Words, value: object) -> str:
    if value is True:
        return t("web.on")
    if value is False:
        return t("web.off")
    return str(value)
