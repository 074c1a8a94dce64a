"""The browser client's pages on the room server's port (issue 35, docs/web.md): ``/play/ROOM`` and
``/play`` answer the shell, ``/web/FILE`` the built files with a strict CSP and the right caching,
nothing outside the built folder is ever served (every hostile path replayed here), the room's
page offers "Play in the browser", a missing build is said (a ``503`` page and one log line), and
``serve --no-web`` turns it all off. Against a real server on 127.0.0.1 and a small built folder
made here (the real build is not needed)."""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.net.browser_pages import MISSING, csp, read_build
from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}
ROOT = Path(__file__).resolve().parent.parent
NOT_FOUND = "Nothing here. A room's page is /r/ROOM, from its link.\n"
SECRET = "the operator's secret: never served"


LOBBY = "document.getElementById('huit').dataset.state = 'lobby';\n"


def fake_build(folder: Path, script: str = LOBBY) -> Path:
    """A small built client at ``folder``, as ``make web`` lays one out (and a few files it must
    not serve)."""
    files = {"app.js": script, "app.css": "main{color:#123}\n", "i18n/en.json": '{"a": "b"}',
             "i18n/fr.json": '{"a": "c"}', "avatars/index.json": '["fox"]', "notes.txt": "not served",
             "app.js.map": "{}", ".hidden.js": "hidden"}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "avatars" / "fox.png").write_bytes(b"\x89PNG\r\n\x1a\nfox")
    digests = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
               for name in ("app.js", "app.css")}
    (folder / "manifest.json").write_text(json.dumps({**digests, "built": "2026-12-06T21:00:00Z"}),
                                          encoding="utf-8")
    secret = folder.parent / "secret.png"
    secret.write_text(SECRET, encoding="utf-8")
    os.symlink(secret, folder / "avatars" / "leak.png")  # a link out of the folder is never followed
    os.symlink(folder.parent, folder / "up")
    return folder


@pytest.fixture
def built(tmp_path) -> Path:
    return fake_build(tmp_path / "browser")


@pytest.fixture
def server(tmp_path, built):
    thread = start_server(tmp_path / "rooms.sqlite3", browser_root=built)
    yield thread
    thread.stop()


def fetch(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None
          ) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One raw request (the path sent exactly as written: no client normalises it)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host="Host" in (headers or {}), skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        connection.close()


def a_room(port: int) -> str:
    ana = Peer(port)
    assert ana.create("duel", [HUMAN, HUMAN], name="Ana")["type"] == "joined"
    return ana.room_id


def version(folder: Path, name: str) -> str:
    return hashlib.sha256((folder / name).read_bytes()).hexdigest()[:16]


# ---- the shell ---------------------------------------------------------------------------------------
def test_play_room_answers_the_shell_with_no_inline_script_or_style(server, built):
    room = a_room(server.port)
    status, headers, body = fetch(server.port, f"/play/{room}")
    page = body.decode()
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert f'<main id="huit" data-room="{room}" data-lang="en" data-tls="0"></main>' in page
    assert f'<link rel="stylesheet" href="/web/app.css?v={version(built, "app.css")}">' in page
    assert f'<script type="module" src="/web/app.js?v={version(built, "app.js")}"></script>' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<noscript><p>Huit in the browser needs JavaScript." in page
    # No inline script, style or handler: every script has a src, no <style>, no style= or on...=.
    assert re.findall(r"<script[^>]*>", page) == [f'<script type="module" src="/web/app.js?v='
                                                  f'{version(built, "app.js")}">']
    assert "<style" not in page and " style=" not in page and not re.search(r"\son[a-z]+=", page)
    assert headers["Cache-Control"] == "no-cache" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Content-Security-Policy"] == csp(f"127.0.0.1:{server.port}")


def test_the_csp_is_strict_and_names_only_this_server(server):
    _, headers, _ = fetch(server.port, "/play")
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy == {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'",
                      "img-src": "'self' data:", "font-src": "'self'", "base-uri": "'none'",
                      "form-action": "'none'", "frame-ancestors": "'none'",
                      "connect-src": f"'self' ws://127.0.0.1:{server.port} wss://127.0.0.1:{server.port}"}
    # A Host header that is not a plain host and port names nothing: only 'self'.
    for host in ("evil.example; script-src *", "a b", "x" * 300, "[::1]:80"):
        _, headers, _ = fetch(server.port, "/play", headers={"Host": host})
        assert "connect-src 'self'; " in headers["Content-Security-Policy"], host
        assert "evil" not in headers["Content-Security-Policy"]


def test_play_without_a_room_is_the_quick_match_entry(server):
    for path in ("/play", "/play/"):
        status, _, body = fetch(server.port, path)
        assert status == 200 and '<main id="huit" data-room="" data-lang="en" data-tls="0">' in body.decode()


def test_play_takes_a_room_code_in_any_case_with_or_without_dashes(server):
    room = a_room(server.port)
    status, _, body = fetch(server.port, f"/play/{room.lower()}")
    assert status == 200 and f'data-room="{room}"' in body.decode()


@pytest.mark.parametrize("path", ["/play/NOPE", "/play/ABCD-EFGH", "/play/x/y", "/playx", "/play/" + "A" * 65,
                                  "/play/<b>x</b>", "/play/%3Cscript%3E", "/play/\"onload=alert(1)"])
def test_play_for_a_room_the_server_does_not_keep_is_a_404_never_reflected(server, path):
    status, _, body = fetch(server.port, path)
    assert status == 404 and body.decode() == NOT_FOUND


def test_the_shell_speaks_the_visitors_language_and_never_reflects_lang(server):
    room = a_room(server.port)
    _, headers, body = fetch(server.port, f"/play/{room}?lang=fr")
    assert 'data-lang="fr"' in body.decode() and '<html lang="fr">' in body.decode()
    assert "Huit dans le navigateur a besoin de JavaScript" in body.decode()
    assert headers["Content-Language"] == "fr" and headers["Vary"] == "Accept-Language"
    _, _, body = fetch(server.port, f"/play/{room}", headers={"Accept-Language": "de-CH, fr;q=0.5"})
    assert 'data-lang="de"' in body.decode()
    for hostile in ("%3Cscript%3Ealert(1)%3C/script%3E", "<b>fr</b>", "fr%22%3E%3Cimg%20src=x%3E",
                    "fr\"><img", "x" * 500):
        status, _, body = fetch(server.port, f"/play/{room}?lang={hostile}")
        page = body.decode()
        assert status == 200 and 'data-lang="en"' in page
        assert "alert" not in page and "<b>" not in page and "<img" not in page and "xxxx" not in page


def test_head_gets_the_headers_without_the_body(server, built):
    room = a_room(server.port)
    for path in (f"/play/{room}", "/play", "/web/app.js", "/web/avatars/fox.png"):
        got, got_headers, got_body = fetch(server.port, path)
        status, headers, body = fetch(server.port, path, "HEAD")
        assert status == got == 200 and body == b"" and got_body
        assert headers["Content-Length"] == str(len(got_body))
        assert headers["Content-Security-Policy"] == got_headers["Content-Security-Policy"]
        assert headers["Content-Type"] == got_headers["Content-Type"]
    assert fetch(server.port, "/play/NOPE", "HEAD")[0] == 404
    assert fetch(server.port, "/web/x.js", "HEAD")[0] == 404


# ---- the built files ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "kind"), [("app.js", "text/javascript; charset=utf-8"),
                                            ("app.css", "text/css; charset=utf-8"),
                                            ("i18n/fr.json", "application/json"),
                                            ("avatars/index.json", "application/json"),
                                            ("avatars/fox.png", "image/png"),
                                            ("manifest.json", "application/json")])
def test_every_built_file_is_served_as_what_it_is(server, built, name, kind):
    status, headers, body = fetch(server.port, f"/web/{name}")
    assert status == 200 and body == (built / name).read_bytes()
    assert headers["Content-Type"] == kind and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"] == csp(f"127.0.0.1:{server.port}")
    assert headers["Referrer-Policy"] == "no-referrer"


def test_a_versioned_url_is_cached_for_a_year_anything_else_revalidated(server, built):
    right = version(built, "app.js")
    _, headers, _ = fetch(server.port, f"/web/app.js?v={right}")
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    full = hashlib.sha256((built / "app.js").read_bytes()).hexdigest()
    assert fetch(server.port, f"/web/app.js?v={full}")[1]["Cache-Control"].endswith("immutable")
    for wrong in ("", "?v=0123456789abcdef", f"?v={right[:8]}", f"?v={version(built, 'app.css')}", "?v="):
        _, headers, _ = fetch(server.port, f"/web/app.js{wrong}")
        assert headers["Cache-Control"] == "no-cache", wrong
    etag = headers["ETag"]
    status, headers, body = fetch(server.port, "/web/app.js", headers={"If-None-Match": etag})
    assert status == 304 and body == b"" and headers["ETag"] == etag
    assert fetch(server.port, "/web/app.js", headers={"If-None-Match": '"other"'})[0] == 200


HOSTILE = ["/web/../../etc/passwd", "/web/%2e%2e/%2e%2e/etc/passwd", "/web/%2e%2e/",
           "/web/..%2f..%2fsecret.png", "/web/avatars/../../secret.png", "/web/avatars/leak.png",
           "/web/up/secret.png", "/web//etc/passwd",
           "/web/%2fetc%2fpasswd", "/web/notes.txt", "/web/app.js.map", "/web/.hidden.js", "/web/APP.JS",
           "/web/app.js%00", "/web/app.js/", "/web/avatars/", "/web/avatars", "/web/i18n", "/web/",
           "/web", "/web/./app.js", "/web/avatars/./fox.png", "/web/app%2ejs", "/web/\\app.js",
           "/web/" + "a/" * 3000, "/web/" + "x" * 8000, "/web/~/.ssh/id_rsa", "/web/manifest.json/..",
           "/web/C:/Windows/win.ini", "/web/file:///etc/passwd"]


@pytest.mark.parametrize("path", HOSTILE)
def test_nothing_outside_the_built_files_is_ever_served(server, path):
    status, _, body = fetch(server.port, path)
    assert status in (404, 414), path  # past the request line's limit: 414 (http_front)
    assert SECRET.encode() not in body and b"root:" not in body
    if status == 404:
        assert body.decode() == NOT_FOUND


def test_only_regular_files_of_the_served_kinds_are_read(built):
    names = set(read_build(built).files)
    assert names == {"app.js", "app.css", "i18n/en.json", "i18n/fr.json", "avatars/index.json",
                     "avatars/fox.png", "manifest.json"}
    assert read_build(built).built == "2026-12-06T21:00:00Z"


def test_a_new_build_is_picked_up_without_a_restart(server, built):
    before = fetch(server.port, "/play")[2].decode()
    (built / "app.js").write_text("/* the next build */\n", encoding="utf-8")
    (built / "manifest.json").write_text(json.dumps({"built": "2026-12-06T22:00:00Z", "next": True}),
                                         encoding="utf-8")
    after = fetch(server.port, "/play")[2].decode()
    assert version(built, "app.js") in after and version(built, "app.js") not in before
    assert fetch(server.port, "/web/app.js")[2] == b"/* the next build */\n"


def test_a_browser_opening_the_client_stays_inside_the_page_allowance(tmp_path, built):
    thread = start_server(tmp_path / "rooms.sqlite3", browser_root=built, pages_per_second=1.0)  # bursts of 4
    try:  # a page and 24 files (the shell, its script and sheet, catalogues, avatars) cost 4 pages at most
        assert fetch(thread.port, "/play")[0] == 200
        assert [fetch(thread.port, "/web/avatars/fox.png")[0] for _ in range(23)] == [200] * 23
    finally:
        thread.stop()


# ---- the room's page, a missing build, --no-web ---------------------------------------------------
def test_the_room_page_offers_play_in_the_browser(server):
    room = a_room(server.port)
    _, _, body = fetch(server.port, f"/r/{room}")
    assert f'<a class="browser" href="/play/{room}">Play in the browser</a>' in body.decode()
    _, _, body = fetch(server.port, f"/r/{room}?lang=es")
    assert f'<a class="browser" href="/play/{room}?lang=es">Jugar en el navegador</a>' in body.decode()
    _, _, body = fetch(server.port, f"/r/{room}?lang=%22%3E%3Cb%3E")
    assert f'href="/play/{room}">' in body.decode() and "<b>" not in body.decode()


@pytest.mark.parametrize(("lang", "words"), [("en", "Play in the browser"),
                                             ("fr", "Jouer dans le navigateur"),
                                             ("es", "Jugar en el navegador"), ("de", "Im Browser spielen")])
def test_the_browser_button_speaks_four_languages(server, lang, words):
    room = a_room(server.port)
    assert words in fetch(server.port, f"/r/{room}", headers={"Accept-Language": lang})[2].decode()


def test_a_missing_build_is_a_503_page_and_one_log_line(tmp_path, caplog):
    empty = tmp_path / "not-built"
    empty.mkdir()
    with caplog.at_level(logging.WARNING, logger="huit.server"):
        thread = start_server(tmp_path / "rooms.sqlite3", browser_root=empty)
    try:
        assert [r.getMessage() for r in caplog.records if "browser client" in r.getMessage()] == [MISSING]
        room = a_room(thread.port)
        status, headers, body = fetch(thread.port, f"/play/{room}?lang=de")
        assert status == 503 and "Die Browser-Version von Huit ist auf diesem Server" in body.decode()
        assert "<script" not in body.decode() and headers["Content-Type"] == "text/html; charset=utf-8"
        assert fetch(thread.port, "/play/NOPE")[0] == 404  # a room it does not keep is still a 404
        assert fetch(thread.port, "/web/app.js")[0] == 404
        fake_build(empty)  # built while the server runs: served at once
        assert fetch(thread.port, f"/play/{room}")[0] == 200
    finally:
        thread.stop()


def test_a_built_client_logs_nothing_about_it(tmp_path, built, caplog):
    with caplog.at_level(logging.WARNING, logger="huit.server"):
        thread = start_server(tmp_path / "rooms.sqlite3", browser_root=built)
    thread.stop()
    assert not [r for r in caplog.records if "browser client" in r.getMessage()]


def test_serve_no_web_turns_the_browser_client_off(tmp_path):
    process = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                                "--db", str(tmp_path / "rooms.sqlite3"), "--no-web"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline().split(":")[1].split(",")[0])
        room = a_room(port)
        for path in (f"/play/{room}", "/play", "/web/app.js", "/web/manifest.json"):
            status, _, body = fetch(port, path)
            assert status == 404 and body.decode() == NOT_FOUND, path
        status, _, body = fetch(port, f"/r/{room}")
        assert status == 200 and "/play/" not in body.decode() and "Play in the browser" not in body.decode()
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=20)
    assert "browser client is not built" not in errors  # off: nothing to say about its build
    assert "--no-web" in subprocess.run([sys.executable, "main.py", "serve", "--help"], cwd=ROOT,
                                        capture_output=True, text=True, timeout=60).stdout
