"""Links people can click, over TLS (issue 25, section 1): a ``wss://`` room between two clients
with a certificate made at test time, the HTTP room page and ``/health`` on the game's port
(404 for anything else), proxy headers believed only from a trusted proxy, and every form
of a room link."""

from __future__ import annotations

import http.client
import json
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from game.net.client import (
    CLOSED,
    RoomConnection,
    make_link,
    page_link,
    read_link,
    read_server,
    server_text,
    websocket_url,
)
from game.net.hosting import server_tls
from game.net.links import RoomLink, Server
from tests.net_support import Peer, start_server

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "medium"}

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the certificate")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, made now (and its key)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture
def tls_server(tmp_path, certificate):
    cert, key = certificate
    thread = start_server(tmp_path / "rooms.sqlite3", tls=server_tls(str(cert), str(key)))
    yield thread
    thread.stop()


@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def collect(connection: RoomConnection, kind: str, seconds: float = 10.0) -> list[dict]:
    """Poll ``connection`` until a message of type ``kind`` came; every message so far."""
    seen: list[dict] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not any(m["type"] == kind for m in seen):
        seen.extend(connection.poll())
        time.sleep(0.01)
    assert any(m["type"] == kind for m in seen), (seen, connection.problem)
    return seen


def get(url: str, context: ssl.SSLContext | None = None, headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], str]:
    """A plain HTTP(S) GET: status, headers, body (errors included)."""
    request = urllib.request.Request(url, headers=headers or {})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                         urllib.request.HTTPSHandler(context=context))
    try:
        with opener.open(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


# ---- TLS -------------------------------------------------------------------------------------
@needs_openssl
def test_a_tls_room_between_two_clients(tls_server, certificate):
    cert, _ = certificate
    port = tls_server.port
    hello = {"type": "create", "preset": "duel", "options": {}, "seats": [HUMAN, HUMAN], "name": "Ana"}
    ana = RoomConnection("127.0.0.1", port, hello, tls=True, cafile=str(cert))
    try:
        joined = next(m for m in collect(ana, "joined") if m["type"] == "joined")
        assert ana.url == f"wss://127.0.0.1:{port}/"
        assert ana.link == f"huits://127.0.0.1:{port}/{joined['room']}"
        assert ana.page == f"https://127.0.0.1:{port}/r/{joined['room']}"
        host, port_read, room, tls = read_link(ana.page)  # the link Ana sends: her friend's game reads it
        assert (host, port_read, room, tls) == ("127.0.0.1", port, joined["room"], True)
        ben = RoomConnection(host, port_read, {"type": "join", "room": room, "name": "Ben"}, tls=tls,
                             cafile=str(cert))
        try:
            for connection in (ana, ben):
                update = next(m for m in collect(connection, "update") if m["type"] == "update")
                assert update["room"] == room and len(update["view"]["hand"]) > 0
        finally:
            ben.close()
    finally:
        ana.close()


@needs_openssl
def test_a_tls_server_is_refused_when_its_certificate_is_not_trusted(tls_server, monkeypatch):
    monkeypatch.delenv("HUIT_CA_FILE", raising=False)
    stranger = RoomConnection("127.0.0.1", tls_server.port, {"type": "join", "room": "abc"}, tls=True)
    deadline = time.monotonic() + 10
    while stranger.status != CLOSED and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stranger.status == CLOSED and "certificate" in (stranger.problem or "").lower()
    with pytest.raises(Exception):  # noqa: B017 - plain ws:// to a TLS port: no handshake at all
        Peer(tls_server.port)


@needs_openssl
def test_the_room_page_and_health_over_https(tls_server, certificate):
    cert, _ = certificate
    peer = Peer(tls_server.port, tls=ssl.create_default_context(cafile=str(cert)))
    peer.create("duel", [HUMAN, HUMAN], name="Ana")
    context = ssl.create_default_context(cafile=str(cert))
    status, _, body = get(f"https://127.0.0.1:{tls_server.port}/r/{peer.room_id}", context)
    assert status == 200
    assert f'href="huits://127.0.0.1:{tls_server.port}/{peer.room_id}"' in body
    status, headers, body = get(f"https://127.0.0.1:{tls_server.port}/health", context)
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"ok": True, "rooms": 1, "connections": 1, "instance": "alone"}


@needs_openssl
def test_a_certificate_that_cannot_be_used_is_refused_in_one_line(tmp_path, certificate):
    cert, key = certificate
    with pytest.raises(ValueError, match="does not exist"):
        server_tls(str(tmp_path / "missing.pem"), None)
    with pytest.raises(ValueError, match="cannot be used"):
        server_tls(str(key), str(cert))  # the two swapped


# ---- the room page, /health and 404 ------------------------------------------------------------
def test_the_room_page_says_the_game_who_waits_and_how_to_open_it(server):
    ana = Peer(server.port)
    # Names hold no < nor > (symbols: `profiles.name_problem`); the punctuation they may hold is escaped.
    ana.create("points", [HUMAN, HUMAN, MEDIUM], options={"jacks_skip": True}, name="Ana & \"Bo'")
    other = Peer(server.port)
    other.create("duel", [HUMAN, HUMAN], name="Zed")
    status, headers, body = get(f"http://127.0.0.1:{server.port}/r/{ana.room_id}")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "Huit is a free card game, Crazy Eights" in body  # what the game is
    assert "Points game" in body and "Jacks skip: on" in body
    assert "The game starts as soon as every seat is taken." in body
    assert ('<span class="seat">Seat 1</span><span class="who"><bdi>Ana &amp; &quot;Bo&#x27;</bdi></span>'
            in body)
    assert 'Ana & "Bo' not in body  # escaped
    assert '<span class="seat">Seat 2</span><span class="free">free: this seat is for you</span>' in body
    assert '<span class="seat">Seat 3</span><span class="who">computer (Medium)</span>' in body
    assert f'<a class="open" href="huit://127.0.0.1:{server.port}/{ana.room_id}">Open in Huit</a>' in body
    # The menu's own words, from the catalogue the game shows.
    assert ("choose “Play with a friend”, paste this page&#x27;s address into “Link or code”, "
            "then press “Join”") in body
    assert f'<code class="code">{ana.room_id}</code>' in body
    assert "Friendly: not ranked" in body  # a private room never counts
    assert "Get Huit" in body and "make play" in body  # no release page given: ask the friend
    # Small and self-contained: no script, image, style sheet or font from anywhere.
    assert "<script" not in body and "src=" not in body and "<link" not in body and "@import" not in body
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "style-src 'sha256-" in csp
    # Nothing a player of the room would not see: no key, no seed, no other room.
    assert ana.key not in body and other.room_id not in body and "Zed" not in body
    assert str(server.server.rooms[ana.room_id].seed) not in body


def test_the_room_page_follows_the_room(server):
    ana, ben = Peer(server.port), Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    ben.join(ana.room_id, name="Ben")
    ana.until(lambda m: m["type"] == "room" and m["state"] == "playing")
    _, _, body = get(f"http://127.0.0.1:{server.port}/r/{ana.room_id}")
    assert "The game is being played." in body
    assert "<bdi>Ben</bdi></span> <span class=\"state\">(here)" in body
    ben.close()
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [1])
    _, _, body = get(f"http://127.0.0.1:{server.port}/r/{ana.room_id}")
    assert "<bdi>Ben</bdi></span> <span class=\"state\">(away: the game waits for them)" in body


@pytest.mark.parametrize("path", ["/", "/r/", "/r/nope", "/rooms", "/r/ROOM/more", "/health/x", "/R/ROOM",
                                  "/r/../health", "/index.html", "/r/ROOM%00", "//r/ROOM", "/r/" + "x" * 200])
def test_anything_but_a_page_is_a_404_never_a_listing(server, path):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    status, _, body = get(f"http://127.0.0.1:{server.port}{path.replace('ROOM', ana.room_id)}")
    assert status == 404
    assert body == "Nothing here. A room's page is /r/ROOM, from its link.\n"


def test_only_get_and_head_are_answered(server):
    for method in ("POST", "PUT", "DELETE", "HEAD"):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request(method, "/health")  # no body (websockets refuses one before any page)
            answer = connection.getresponse()
            body = answer.read()
        finally:
            connection.close()
        if method == "HEAD":  # a GET's headers, without the body
            assert answer.status == 200 and int(answer.headers["Content-Length"]) > 0 and body == b""
        else:
            assert answer.status == 405 and answer.headers["Allow"] == "GET, HEAD"


def test_health_answers_for_load_balancers(server):
    peers = [Peer(server.port) for _ in range(2)]
    peers[0].create("duel", [HUMAN, HUMAN])
    status, headers, body = get(f"http://127.0.0.1:{server.port}/health")
    assert status == 200
    assert json.loads(body) == {"ok": True, "rooms": 1, "connections": 2, "instance": "alone"}
    assert headers["Cache-Control"] == "no-store"


def test_pages_are_limited_per_address(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", pages_per_second=1.0)  # bursts of 4
    try:
        codes = [get(f"http://127.0.0.1:{thread.port}/health")[0] for _ in range(6)]
        assert codes[:4] == [200] * 4 and codes[-1] == 429
        assert Peer(thread.port).create("duel", [HUMAN, HUMAN])["type"] == "joined"  # the game goes on
    finally:
        thread.stop()


# ---- behind a reverse proxy --------------------------------------------------------------------
def test_a_trusted_proxy_gives_the_pages_its_scheme_and_host(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["127.0.0.1"])
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN])
        _, _, body = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}",
                         headers={"X-Forwarded-Proto": "https", "Host": "huit.example.org",
                                  "X-Forwarded-For": "198.51.100.4"})
        assert f'href="huits://huit.example.org:443/{ana.room_id}"' in body
    finally:
        thread.stop()


def test_a_client_cannot_claim_tls_or_an_address_without_a_trusted_proxy(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["10.0.0.2"])
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN])
        _, _, body = get(f"http://127.0.0.1:{thread.port}/r/{ana.room_id}",
                         headers={"X-Forwarded-Proto": "https"})
        assert f'href="huit://127.0.0.1:{thread.port}/{ana.room_id}"' in body and "huits://" not in body
    finally:
        thread.stop()


# ---- every form of a link ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "read"), [
    ("huit://example.org:8765/AbC_1", RoomLink("example.org", 8765, "AbC_1", False)),
    ("huits://example.org:8765/AbC_1", RoomLink("example.org", 8765, "AbC_1", True)),
    ("https://example.org/r/AbC_1", RoomLink("example.org", 443, "AbC_1", True)),
    ("https://example.org:8443/r/AbC_1/", RoomLink("example.org", 8443, "AbC_1", True)),
    ("http://192.168.1.20:8765/r/AbC_1", RoomLink("192.168.1.20", 8765, "AbC_1", False)),
    ("http://example.org/r/AbC_1", RoomLink("example.org", 80, "AbC_1", False)),
    ("  HTTPS://[::1]:8443/r/x \n", RoomLink("::1", 8443, "x", True)),
    ("HUITS://[::1]:1/x", RoomLink("::1", 1, "x", True)),
])
def test_every_form_of_a_room_link_is_read(text, read):
    assert read_link(text) == read


@pytest.mark.parametrize(("text", "words"), [
    ("https://example.org/AbC_1", "a room's web page"),
    ("https://example.org/r/", "no room"),
    ("https://example.org:0/r/x", "port must be"),
    ("https://exa mple.org/r/x", "not a host"),
    ("https://example.org/r/x?y", "room id"),
    ("ftp://example.org/r/x", "starts with huit:// or huits://"),
    ("huits://example.org/x", "no port"),
    ("wss://example.org:1/x", "starts with huit:// or huits://"),
    ("https://" + "h" * 600 + "/r/x", "at most 512 characters"),
])
def test_a_bad_link_of_any_form_is_refused_with_a_reason(text, words):
    with pytest.raises(ValueError, match=words.replace("?", r"\?")):
        read_link(text)


def test_links_are_written_as_they_are_read():
    for host, port, room, tls in (("example.org", 443, "r1", True), ("::1", 8765, "r-2", False),
                                  ("10.0.0.5", 80, "r_3", False), ("example.org", 8443, "x", True)):
        assert read_link(make_link(host, port, room, tls)) == (host, port, room, tls)
        assert read_link(page_link(host, port, room, tls)) == (host, port, room, tls)
    assert page_link("example.org", 443, "r1", True) == "https://example.org/r/r1"
    assert page_link("example.org", 80, "r1") == "http://example.org/r/r1"
    assert page_link("::1", 8765, "r1") == "http://[::1]:8765/r/r1"
    assert make_link("example.org", 443, "r1", True) == "huits://example.org:443/r1"
    assert websocket_url("::1", 8765, True) == "wss://[::1]:8765/"


@pytest.mark.parametrize(("text", "server"), [
    ("example.org:8765", Server("example.org", 8765, False)),
    ("huits://example.org:8765", Server("example.org", 8765, True)),
    ("huit://example.org:8765/", Server("example.org", 8765, False)),
    ("https://example.org", Server("example.org", 443, True)),
    ("wss://example.org:9000", Server("example.org", 9000, True)),
    ("[::1]:8765", Server("::1", 8765, False)),
])
def test_a_server_address_is_read_in_every_form_and_kept_in_one(text, server):
    assert read_server(text) == server
    assert read_server(server_text(server)) == server


def test_the_command_line_takes_every_form_of_a_link():
    from game.client.launch import room_link

    for link in ("huit://h:1/r", "huits://h:1/r", "https://h/r/r", "http://h:8765/r/r"):
        assert room_link(f" {link} ") == link
    with pytest.raises(Exception, match="a room's web page"):
        room_link("https://h/r")


# ---- serve's flags --------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


@needs_openssl
@pytest.mark.parametrize(("args", "words"), [
    (["--certfile", "{missing}"], "argument --certfile: '{missing}' does not exist"),
    (["--certfile", "{key}", "--keyfile", "{cert}"], "argument --certfile: the certificate"),
    (["--keyfile", "{key}"], "--keyfile needs --certfile"),
    (["--proxy-headers"], "--proxy-headers and --trusted-proxy go together"),
    (["--trusted-proxy", "10.0.0.1"], "--proxy-headers and --trusted-proxy go together"),
    (["--proxy-headers", "--trusted-proxy", "proxy.example.org"],
     "argument --trusted-proxy: expected an IP address or network"),
])
def test_a_bad_tls_or_proxy_flag_is_refused_in_one_line(tmp_path, certificate, args, words):
    cert, key = certificate
    names = {"cert": str(cert), "key": str(key), "missing": str(tmp_path / "missing.pem")}
    done = serve("--db", str(tmp_path / "rooms.sqlite3"), *[a.format(**names) for a in args])
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("python main.py serve: error: ") and words.format(**names) in lines[0]
    assert not (tmp_path / "rooms.sqlite3").exists()  # refused before anything was made


@needs_openssl
def test_serve_with_a_certificate_and_a_trusted_proxy_serves_tls(tmp_path, certificate):
    cert, key = certificate
    server = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--db", str(tmp_path / "rooms.sqlite3"), "--certfile", str(cert),
                               "--keyfile", str(key), "--proxy-headers", "--trusted-proxy", "127.0.0.1"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = int(line.split(":")[1].split(",")[0])
        # Behind a proxy the links name the address the proxy is reached at, not this port.
        assert "links name the address players reach the proxy at" in line and "HOST:" not in line
        context = ssl.create_default_context(cafile=str(cert))
        status, _, body = get(f"https://127.0.0.1:{port}/health", context)
        assert status == 200 and json.loads(body)["ok"] is True
    finally:
        server.terminate()
        server.wait(20)
