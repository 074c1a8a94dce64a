"""What a room server writes in its log for the operator: a health check writes nothing, a
WebSocket's close still does (issue 33's trial: a load balancer's ``/health`` checks every two
seconds were nearly all of an instance's log)."""

from __future__ import annotations

import logging
import urllib.request

from tests.net_support import Peer, start_server, wait_for


def _closed_lines(caplog) -> int:
    return sum(1 for r in caplog.records
               if r.name == "huit.server.websockets" and r.getMessage() == "connection closed")


def test_health_checks_and_room_pages_leave_no_connection_closed_line(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="huit.server")
    server = start_server(tmp_path / "rooms.sqlite3")
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for _ in range(5):
            with opener.open(f"http://127.0.0.1:{server.port}/health", timeout=10) as answer:
                assert answer.status == 200
        assert not wait_for(lambda: _closed_lines(caplog) > 0, 0.5)
        # A player's WebSocket is still logged when it closes: that line tells the operator something.
        peer = Peer(server.port)
        peer.create("duel", [{"kind": "human"}, {"kind": "computer", "level": "easy"}])
        peer.close()
        assert wait_for(lambda: _closed_lines(caplog) == 1)
    finally:
        server.stop()
