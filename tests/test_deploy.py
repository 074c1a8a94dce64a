"""The cluster recipe (``deploy/cluster/``, docs/deploy.md), checked by the tools themselves: the
nginx and HAProxy configs pass ``nginx -t`` and ``haproxy -c``, the instances' systemd template
passes ``systemd-analyze verify``, and each proxy, run on 127.0.0.1 in front of one instance
started with the unit's own command line, carries a TLS WebSocket game to it, answers
``/health`` and the room pages with links to itself, while the instance tells the players apart
by the addresses the proxy forwards; then in front of two instances on one PostgreSQL, where
round-robin puts two players on different instances and they play one room. Each program
missing here skips its tests with a reason (CI installs them: ``.ci/system-packages``; the
PostgreSQL is `tools.scratch_pg`'s).

The configs as shipped name /etc paths, port 443 and three instances on 8765-8767: the tests
point them at a certificate made now and at ports 8761-8769 (`adapted` fails when a text they
replace is no longer in the recipe, so the recipe and its check stay one).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.net_support import Peer

ROOT = Path(__file__).resolve().parent.parent
CLUSTER = ROOT / "deploy" / "cluster"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="systemd, nginx and HAProxy on POSIX")



def program(name: str) -> str | None:
    """Where ``name`` is installed: on the PATH, or in /usr/sbin (not on every user's PATH)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin")


NGINX, HAPROXY = program("nginx"), program("haproxy")
needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)")
needs_haproxy = pytest.mark.skipif(HAPROXY is None,
                                   reason="haproxy is not installed (apt-get install haproxy)")

# The ports of the live tests (this file's range: 8761-8769).
HAPROXY_TLS, HAPROXY_PLAIN, NGINX_TLS, NGINX_PLAIN = 8761, 8762, 8763, 8764
INSTANCE = 8767  # the recipe's third instance, alive; its first two (8765, 8766) are moved to dead ports
DEAD = (8768, 8769)

HUMAN = {"kind": "human"}


def adapted(text: str, replacements: dict[str, str]) -> str:
    """``text`` with each key replaced by its value, all in one pass (a value is never replaced
    again); each key must be in it."""
    for old in replacements:
        assert old in text, f"{old!r} is no longer in the recipe: change this test with it"
    pattern = re.compile("|".join(re.escape(old) for old in sorted(replacements, key=len, reverse=True)))
    return pattern.sub(lambda found: replacements[found.group(0)], text)


RECIPE_PORTS = (8765, 8766, 8767)  # the recipe's three instances, in its order
Backends = tuple[int | None, int | None, int | None]
"""The ports the recipe's three instances are moved to in a live test (None: that line left out)."""
ONE_ALIVE: Backends = (DEAD[0], DEAD[1], INSTANCE)


def backends(ports: Backends, line: str) -> dict[str, str]:
    """The replacements moving the recipe's instances to ``ports``; ``line`` is how the recipe
    names one (``{n}`` its number from 1, ``{port}``), the whole line left out for a None."""
    return {line.format(n=n, port=old): "" if new is None else line.format(n=n, port=new)
            for n, (old, new) in enumerate(zip(RECIPE_PORTS, ports, strict=True), 1)}


@pytest.fixture(scope="module")
def work() -> Iterator[Path]:
    """A folder nginx's workers (``nobody`` under root) may enter, with a self-signed certificate
    for 127.0.0.1 (``cert.pem``, ``key.pem``, and both in ``both.pem`` as HAProxy takes them)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl makes the certificate")
    folder = Path(tempfile.mkdtemp(prefix="huit-deploy-", dir="/tmp"))
    folder.chmod(0o755)
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    (folder / "both.pem").write_text(cert.read_text() + key.read_text())
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# ---- nginx -----------------------------------------------------------------------------------
def nginx_config(work: Path, name: str, live: Backends | None) -> Path:
    """The recipe's site inside a main config of its own (nginx's ``http`` block, its paths in
    ``work``), with the test's certificate; ``live``: on the test's ports, its instances moved
    to those ports. Returns the main config's path."""
    replacements = {"/etc/huit/tls/fullchain.pem": str(work / "cert.pem"),
                    "/etc/huit/tls/privkey.pem": str(work / "key.pem")}
    if live:
        replacements |= {"listen [::]:80;": "", "listen [::]:443 ssl;": "",
                         "listen 80;": f"listen 127.0.0.1:{NGINX_PLAIN};",
                         "listen 443 ssl;": f"listen 127.0.0.1:{NGINX_TLS} ssl;",
                         **backends(live, "    server 127.0.0.1:{port} max_fails=2 fail_timeout=5s;\n")}
    prefix = work / name
    prefix.mkdir(exist_ok=True)
    site = prefix / "huit.conf"
    site.write_text(adapted((CLUSTER / "nginx-huit.conf").read_text(), replacements))
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = prefix / "nginx.conf"
    main.write_text(f"pid {prefix / 'nginx.pid'};\nerror_log stderr;\nevents {{}}\nhttp {{\n"
                    f"    access_log off;\n{temp}\n    include {site};\n}}\n")
    return main


@needs_nginx
def test_the_nginx_config_passes_nginx_t(work):
    main = nginx_config(work, "nginx-t", live=None)
    done = subprocess.run([NGINX, "-t", "-c", str(main), "-p", str(main.parent), "-e", "stderr"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr


# ---- HAProxy ---------------------------------------------------------------------------------
def haproxy_config(work: Path, name: str, live: Backends | None) -> Path:
    """The recipe with the test's certificate; ``live``: on the test's ports, its instances moved
    to those ports, its admin socket in ``work`` (and run as this user when not root)."""
    replacements = {"/etc/haproxy/certs/huit.pem": str(work / "both.pem")}
    if live:
        moves = backends(live, "    server huit{n} 127.0.0.1:{port}\n")
        replacements |= {"bind :443 ssl": f"bind 127.0.0.1:{HAPROXY_TLS} ssl", "bind :80": f"bind 127.0.0.1:"
                         f"{HAPROXY_PLAIN}", "/run/haproxy/admin.sock": str(work / f"{name}.sock"), **moves,
                         "maxconn 20000": "maxconn 1000",  # within any machine's open files limit
                         "log /dev/log local0": "log stderr format raw local0"}  # no syslog in a test
        if os.geteuid() != 0:
            replacements |= {"    user haproxy\n": "", "    group haproxy\n": ""}
    config = work / f"{name}.cfg"
    config.write_text(adapted((CLUSTER / "haproxy.cfg").read_text(), replacements))
    return config


@needs_haproxy
def test_the_haproxy_config_passes_haproxy_c(work):
    config = haproxy_config(work, "haproxy-c", live=None)
    done = subprocess.run([HAPROXY, "-c", "-f", str(config)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Configuration file is valid" in done.stdout, done.stdout + done.stderr
    assert "[WARNING]" not in done.stdout + done.stderr, done.stdout + done.stderr


# ---- the instances' unit -----------------------------------------------------------------------
UNIT = CLUSTER / "huit-server@.service"


def unit_values(key: str) -> list[str]:
    """The values of ``key`` in the unit, in order."""
    pairs = [line.strip().partition("=") for line in UNIT.read_text(encoding="utf-8").splitlines()]
    return [value for name, _, value in pairs if name == key]


def environment_file() -> dict[str, str]:
    """The shipped ``huit-server.env`` as systemd reads it (KEY=VALUE lines)."""
    lines = (CLUSTER / "huit-server.env").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def expanded(command: str, instance: str, env: dict[str, str]) -> list[str]:
    """``ExecStart``'s words as systemd runs them: ``%i`` the instance, ``${X}`` one word, a
    ``$X`` word split on white space (an empty value: no word)."""
    words: list[str] = []
    for word in shlex.split(command.replace("%i", instance)):
        alone = re.fullmatch(r"\$([A-Z_]+)", word)
        if alone:
            words.extend(env.get(alone.group(1), "").split())
        else:
            words.append(re.sub(r"\$\{([A-Z_]+)\}", lambda m: env[m.group(1)], word))
    return words


def test_every_instance_is_one_command_on_its_own_port_behind_the_proxy():
    (start,) = unit_values("ExecStart")
    words = expanded(start, "8765", environment_file())
    assert words[0] == "/opt/huit/instances/8765/bin/huit-server"  # its own release (docs/deploy.md)
    assert words[words.index("--port") + 1] == "8765"
    assert words[words.index("--db") + 1].startswith("postgresql://")
    assert "--proxy-headers" in words and words[words.index("--trusted-proxy") + 1] == "127.0.0.1"
    assert ":" not in environment_file()["HUIT_DB"].split("@")[0].removeprefix("postgresql://")  # no password
    assert unit_values("Restart") == ["on-failure"] and unit_values("KillSignal") == ["SIGTERM"]
    assert unit_values("EnvironmentFile") == ["/etc/huit/huit-server.env"]
    assert int(unit_values("LimitNOFILE")[0]) >= 65536  # one open file per player's WebSocket


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_instance_unit_passes_systemd_analyze_verify(tmp_path):
    # verify checks that ExecStart names an executable: the checkout's huit-server where it is
    # installed, else python (the unit's other words are not run); the user must exist here.
    command = shutil.which("huit-server", path=str(Path(sys.executable).parent)) or sys.executable
    user, group = (subprocess.run(["id", flag], capture_output=True, text=True).stdout.strip()
                   for flag in ("-un", "-gn"))
    text = adapted(UNIT.read_text(encoding="utf-8"), {"/opt/huit/instances/%i/bin/huit-server": command,
                                                       "User=huit": f"User={user}",
                                                       "Group=huit": f"Group={group}"})
    unit = tmp_path / UNIT.name
    unit.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          timeout=120)
    mine = [line for line in (done.stdout + done.stderr).splitlines() if "huit-server@" in line]
    assert done.returncode == 0 and not mine, done.stdout + done.stderr


# ---- a proxy in front of an instance, for real -------------------------------------------------
def start_instance(home: Path, port: int = INSTANCE, db: str | None = None,
                   flags: str = "--rooms-per-hour 1 --think-scale 0") -> subprocess.Popen[str]:
    """``serve`` started with the unit's ExecStart and environment file, on ``port``: its
    database ``db`` (by default SQLite in ``home``), ``flags`` added to ``HUIT_FLAGS`` (by
    default 1 room an hour per address, so that addresses show)."""
    env = environment_file() | {"HUIT_DB": db or str(home / "rooms.sqlite3")}
    env["HUIT_FLAGS"] += " " + flags
    (start,) = unit_values("ExecStart")
    words = expanded(start, str(port), env)
    assert words[0] == f"/opt/huit/instances/{port}/bin/huit-server"
    server = subprocess.Popen([sys.executable, "main.py", "serve", *words[1:]], cwd=ROOT,
                              env={**os.environ, "HUIT_DATA_DIR": str(home / "data")},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    ready, _, _ = select.select([server.stdout], [], [], 60)
    line = server.stdout.readline() if ready else ""
    if f"Huit server on 127.0.0.1:{port}" not in line:
        server.kill()
        pytest.fail(f"the instance did not start: {line}{server.communicate()[1]}")
    return server


def wait_listening(port: int, proxy: subprocess.Popen[str]) -> None:
    """Until something accepts on 127.0.0.1:``port`` (the proxy started), at most a minute."""
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proxy.poll() is not None:
                pytest.fail(f"the proxy ended: {proxy.communicate()}")
            assert time.monotonic() < deadline, f"nothing listens on {port} after a minute"
            time.sleep(0.05)


def client_tls(work: Path) -> ssl.SSLContext:
    """The test players' TLS: trusting the test's certificate, and at most TLS 1.2. The players
    are websockets' threaded client (`Peer`), whose reading thread and the handshake's writing
    share one SSL object: with TLS 1.3 the session tickets a server sends right after the TLS
    handshake are read while the upgrade request is written, and about one connection in a few
    hundred lost its request here (the server or proxy never saw it; no answer came). TLS 1.2
    sends nothing then. The game's own client (asyncio) has one task per connection."""
    context = ssl.create_default_context(cafile=str(work / "cert.pem"))
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    return context


def fetch(port: int, path: str, context: ssl.SSLContext | None) -> tuple[int, http.client.HTTPMessage, str]:
    """A GET through the proxy: status, headers (read in any case: HAProxy writes them in lower
    case), body."""
    if context is None:
        connection: http.client.HTTPConnection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    else:
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read().decode()
    finally:
        connection.close()


def stop(process: subprocess.Popen[str]) -> str:
    """Stop a process this test started; its standard error."""
    if process.poll() is None:
        process.terminate()
        try:
            return process.communicate(timeout=20)[1] or ""
        except subprocess.TimeoutExpired:
            process.kill()
    return process.communicate()[1] or ""


def start_proxy(kind: str, work: Path, instances: Backends) -> tuple[subprocess.Popen[str], int, int]:
    """The recipe's proxy of ``kind``, live in front of ``instances``: the process, its TLS port
    and its plain port."""
    if kind == "haproxy":
        if HAPROXY is None:
            pytest.skip("haproxy is not installed (apt-get install haproxy)")
        command = [HAPROXY, "-db", "-f", str(haproxy_config(work, "haproxy-live", live=instances))]
        ports = HAPROXY_TLS, HAPROXY_PLAIN
    else:
        if NGINX is None:
            pytest.skip("nginx is not installed (apt-get install nginx)")
        main = nginx_config(work, "nginx-live", live=instances)
        command = [NGINX, "-c", str(main), "-p", str(main.parent), "-e", "stderr", "-g", "daemon off;"]
        ports = NGINX_TLS, NGINX_PLAIN
    proxy = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(ports[0], proxy)
    except BaseException:
        stop(proxy)
        raise
    return proxy, *ports


@pytest.mark.parametrize("kind", ["haproxy", "nginx"])
def test_a_game_through_the_proxy_reaches_the_instance_which_sees_each_players_address(kind, work, tmp_path):
    server = start_instance(tmp_path)
    proxy: subprocess.Popen[str] | None = None
    peers: list[Peer] = []
    try:
        proxy, tls_port, plain_port = start_proxy(kind, work, ONE_ALIVE)
        context = client_tls(work)

        # Two players from two addresses, over wss:// to the proxy, which alone reaches the instance
        # (its two other instances are dead ports: it must route around them).
        ana = Peer(tls_port, tls=context, source="127.0.0.2")
        peers.append(ana)
        assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        again = Peer(tls_port, tls=context, source="127.0.0.2")
        peers.append(again)
        refused = again.create("duel", [HUMAN, HUMAN])
        assert refused["type"] == "error" and refused["code"] == "too_many_rooms"  # 127.0.0.2's one room
        ben = Peer(tls_port, tls=context, source="127.0.0.3", rng_seed=1)
        peers.append(ben)
        assert ben.join(ana.room_id)["type"] == "joined"
        # The game goes both ways through the proxy: whoever is to act plays, and is answered.
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
        mover = ana if ana.my_turn else ben
        assert mover.play_one()["type"] == "update"
        # 127.0.0.3 is another address to the instance (through the proxy's X-Forwarded-For):
        # its own room an hour, where the proxy's one address would have had none left.
        other = Peer(tls_port, tls=context, source="127.0.0.3")
        peers.append(other)
        assert other.create("duel", [HUMAN, HUMAN])["type"] == "joined"

        status, headers, body = fetch(tls_port, "/health", context)
        assert status == 200 and json.loads(body)["ok"] is True and json.loads(body)["rooms"] == 2
        # The room's page links to the proxy, in TLS (X-Forwarded-Proto, and the Host with its port).
        status, _, body = fetch(tls_port, f"/r/{ana.room_id}", context)
        assert status == 200 and f'href="huits://127.0.0.1:{tls_port}/{ana.room_id}"' in body
        # Plain HTTP is sent to https.
        status, headers, _ = fetch(plain_port, f"/r/{ana.room_id}", None)
        assert status == 301 and str(headers["Location"]).startswith("https://127.0.0.1")
    finally:
        for peer in peers:
            peer.close()
        errors = stop(proxy) if proxy is not None else ""
        server_errors = stop(server)
    assert "Traceback" not in server_errors, server_errors
    assert "[emerg]" not in errors and "[ALERT]" not in errors, errors


def public(view: dict[str, object] | None) -> tuple[object, ...]:
    """What both seats see alike of the table: hand sizes, the discard pile, the draw pile, whose
    turn, which turn."""
    assert view is not None
    return tuple(view[key] for key in ("hand_counts", "discard", "draw_count", "to_act", "turn_no"))


@pytest.mark.parametrize("kind", ["haproxy", "nginx"])
def test_two_instances_on_one_postgresql_behind_the_proxy_seat_players_who_landed_apart(
        kind, work, tmp_path, pg_server):
    # The recipe's first two instances, alive on one database (its third left out): round-robin
    # puts the two players on different instances, and they play one room.
    url = pg_server.database()
    ports = (INSTANCE, DEAD[0])
    servers = [start_instance(tmp_path / str(port), port, url, "--think-scale 0") for port in ports]
    proxy: subprocess.Popen[str] | None = None
    peers: list[Peer] = []
    try:
        proxy, tls_port, _ = start_proxy(kind, work, (ports[0], ports[1], None))
        context = client_tls(work)
        ana = Peer(tls_port, tls=context, source="127.0.0.2")
        peers.append(ana)
        ben = Peer(tls_port, tls=context, source="127.0.0.3", rng_seed=1)
        peers.append(ben)
        on = [json.loads(fetch(port, "/health", None)[2])["connections"] for port in ports]
        assert on == [1, 1]  # one player on each instance
        assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        assert ben.join(ana.room_id)["type"] == "joined"
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
        for _ in range(4):  # each move reaches the other instance's player
            mover, other = (ana, ben) if ana.my_turn else (ben, ana)
            assert mover.play_one()["type"] == "update"
            table = public(mover.view)
            other.until(lambda m, table=table: m["type"] == "update" and public(m["view"]) == table)
    finally:
        for peer in peers:
            peer.close()
        errors = stop(proxy) if proxy is not None else ""
        server_errors = [stop(server) for server in servers]
    assert all("Traceback" not in text for text in server_errors), server_errors
    assert "[emerg]" not in errors and "[ALERT]" not in errors, errors
