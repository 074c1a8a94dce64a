"""The one-seat rule of public rooms holds for requests sent together (issue 33: commits off the loop).

A join or create of a public room checks the rule (`fair_seats.FairSeats.check`), claims its seat,
then awaits its commits on a worker thread: a request of the same player, or from the same
address, on another connection runs meanwhile. It must see the seat being taken, or both pass.
Each test holds the first request's commit at a gate (`GatedStore`, on PostgreSQL with its
cluster and on SQLite called from threads), sends the others while it waits, then lets it go:
at most what the rule allows is seated, the others get the rule's refusal, and no seat is left
with a loser's name on it (in the server's copies or in the database)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from game.net.pgcluster import PgCluster
from game.net.roomstore import StoreFailure
from game.net.stores import is_postgres
from tests.net_support import Peer, play_until, start_server, wait_for
from tests.pg_support import open_for_tests
from tests.test_net_offloop import GatedStore, SlowStore

HUMAN = {"kind": "human"}
ANSWERS = ("joined", "queued", "error")
REQUEST = "req0123456789abcdef"
CREATE_PUBLIC = {"type": "create", "preset": "duel", "options": {}, "seats": [HUMAN, HUMAN], "name": "",
                 "public": True}


@contextlib.contextmanager
def racing(db, held: set[str], **options: Any) -> Iterator[tuple[GatedStore, Any]]:
    """A server whose ``held`` store calls wait at the store's gate on a worker thread: on
    PostgreSQL (one of its cluster), or on SQLite called from threads (one call at a time).
    Afterwards the gate opens (nothing waits at it for ever) and the server stops."""
    postgres = is_postgres(str(db))
    store = GatedStore(open_for_tests(db), held, threads=4, serial=not postgres)
    if postgres:
        options.setdefault("cluster", PgCluster(str(db)))
    thread = start_server(store, **options)
    try:
        yield store, thread
    finally:
        store.gate.set()
        thread.stop()


def public_rooms(port: int, count: int, **peer: Any) -> list[Peer]:
    """``count`` owners, each with a public room of three seats (two free), connected (``peer``:
    how each connects, an ``address`` through the proxy numbered by its owner)."""
    owners = []
    for i in range(count):
        owner = Peer(port, address=f"10.0.0.{i + 1}") if peer.get("proxied") else Peer(port)
        owner.hello(f"Owner{i}")
        assert owner.create("classic", [HUMAN] * 3, public=True)["type"] == "joined"
        owners.append(owner)
    return owners


def answer(peer: Peer, wait: float = 0.0) -> dict | None:
    """``peer``'s answer to its join, create or queue, if it came (waiting up to ``wait`` seconds)."""
    end = time.monotonic() + wait
    while True:
        peer.drain(0)  # what has come already, read (a wait of 0 looks at it too)
        for message in map(json.loads, peer.frames):
            if message["type"] in ANSWERS:
                return message
        left = end - time.monotonic()
        if left <= 0:
            return None
        with contextlib.suppress(TimeoutError):
            peer.recv(min(left, 0.05))


def race(store: GatedStore, sends: list[tuple[Peer, dict[str, Any]]],
         queued: Callable[[], int] = lambda: 0) -> list[str]:
    """Send each request, the first one's commit held at the gate while the others are sent and
    handled (each of them answered, or at the gate too, or one of the ``queued()`` waiting for a
    room's lock), then let them all go; what each was told (``joined``, ``queued`` or the error's
    code), in the order sent."""
    store.gate.clear()
    try:
        (first, message), *rest = sends
        first.send(**message)
        assert store.entered.wait(5)  # its commit waits at the gate, on its worker thread
        for peer, message in rest:
            peer.send(**message)
        # Handled meanwhile: answered at once, or waiting at the gate itself (one at a time, on
        # SQLite; a request queued behind the first one's room lock gets there only later).
        wait_for(lambda: len(store.calls) + sum(answer(p) is not None for p, _ in rest) + queued()
                 >= len(sends), 2)
    finally:
        store.gate.set()
    told = []
    for peer, _ in sends:
        got = answer(peer, 10)
        assert got is not None, "no answer"
        told.append(got["type"] if got["type"] != "error" else got["code"])
    return told


def on_loop(thread: Any, work: Callable[[], Any]) -> Any:
    """Run ``work()`` on the server thread's event loop (where its rooms and their locks live)."""
    async def run() -> Any:
        return work()

    return asyncio.run_coroutine_threadsafe(run(), thread._loop).result(10)


def hello(port: int, name: str, key: str | None = None, **peer: Any) -> Peer:
    """A connection that said hello as ``name`` (a new player unless ``key``)."""
    one = Peer(port, **peer)
    one.hello(name, key=key)
    return one


def seats(thread: Any, db: Any, taken: Any) -> tuple[list[str], list[str]]:
    """The rooms with a seat ``taken(seat)``, one per such seat: in the server's copies, and in the
    database."""
    here = [room_id for room_id, room in thread.server.rooms.items() for s in room.seats if taken(s)]
    checker = open_for_tests(db)
    try:
        stored = [room_id for room_id in thread.server.rooms
                  for s in checker.room(room_id).seats if taken(s)]
    finally:
        checker.close()
    return sorted(here), sorted(stored)


def test_one_player_joining_two_public_rooms_at_once_is_seated_in_one(db):
    with racing(db, {"save_seats"}) as (store, thread):
        one, two = public_rooms(thread.port, 2)
        first = hello(thread.port, "Racer")
        second = hello(thread.port, "Racer", first.player_key)  # the same player, another connection
        told = race(store, [(first, {"type": "join", "room": one.room_id}),
                            (second, {"type": "join", "room": two.room_id})])
        assert sorted(told) == ["joined", "one_seat"]
        winner = (first, second)[told.index("joined")]
        here, stored = seats(thread, db, lambda s: s.name == "Racer")
        assert here == stored == [winner.room_id]  # no seat left in the loser's room
        third = hello(thread.port, "Racer", first.player_key)
        [other] = [o for o in (one, two) if o.room_id != winner.room_id]
        assert third.join(other.room_id)["code"] == "one_seat"  # the winner's seat still counts


def test_one_address_joining_public_rooms_at_once_holds_at_most_its_seats(db):
    with racing(db, {"save_seats"}, proxy_headers=True, trusted_proxies=["127.0.0.1"]) as (store, thread):
        owners = public_rooms(thread.port, 5, proxied=True)
        # Five profiles of one address (a new one each): at most four seats at once (`SEATS_PER_ADDRESS`).
        peers = [hello(thread.port, f"Many{i}", address="10.9.9.9") for i in range(5)]
        joins = [(p, {"type": "join", "room": o.room_id}) for p, o in zip(peers, owners, strict=True)]
        told = race(store, joins)
        assert sorted(told) == ["joined"] * 4 + ["too_many_seats"]
        here, stored = seats(thread, db, lambda s: s.address == "10.9.9.9")
        winners = sorted(p.room_id for p, t in zip(peers, told, strict=True) if t == "joined")
        assert here == stored == winners


def test_one_address_joining_one_public_room_twice_at_once_takes_one_seat(db):
    """Safe before the mend: both joins are of one room, and its lock orders them."""
    with racing(db, {"save_seats"}, proxy_headers=True, trusted_proxies=["127.0.0.1"]) as (store, thread):
        [owner] = public_rooms(thread.port, 1, proxied=True)
        peers = [hello(thread.port, f"Twin{i}", address="10.9.9.9") for i in range(2)]
        told = race(store, [(p, {"type": "join", "room": owner.room_id}) for p in peers],
                    lambda: on_loop(thread, lambda: thread.server.service.locks.waiting(owner.room_id)))
        assert sorted(told) == ["joined", "too_many_seats"]
        here, stored = seats(thread, db, lambda s: s.address == "10.9.9.9")
        assert here == stored == [owner.room_id]


def test_a_player_joining_a_public_room_creates_no_public_room_of_their_own_meanwhile(db):
    with racing(db, {"save_seats"}) as (store, thread):
        [owner] = public_rooms(thread.port, 1)
        first = hello(thread.port, "Racer")
        second = hello(thread.port, "Racer", first.player_key)
        told = race(store, [(first, {"type": "join", "room": owner.room_id}),
                            (second, CREATE_PUBLIC)])
        assert told == ["joined", "one_seat"]
        assert list(thread.server.rooms) == [owner.room_id]  # no room made for the loser
        here, stored = seats(thread, db, lambda s: s.name == "Racer")
        assert here == stored == [owner.room_id]


def test_a_player_creating_a_public_room_joins_no_other_until_seated_in_it(db):
    """A create with a request id keeps it (an await) after its room is stored: its seat counts
    until its connection is attached."""
    with racing(db, {"remember_request"}) as (store, thread):
        [owner] = public_rooms(thread.port, 1)
        first = hello(thread.port, "Racer")
        second = hello(thread.port, "Racer", first.player_key)
        told = race(store, [(first, {**CREATE_PUBLIC, "request": REQUEST}),
                            (second, {"type": "join", "room": owner.room_id})])
        assert told == ["joined", "one_seat"]
        here, stored = seats(thread, db, lambda s: s.name == "Racer")
        assert here == stored == [first.room_id]


def test_a_player_joining_a_public_room_queues_for_no_quick_match_meanwhile(db):
    with racing(db, {"save_seats"}) as (store, thread):
        [owner] = public_rooms(thread.port, 1)
        first = hello(thread.port, "Racer")
        second = hello(thread.port, "Racer", first.player_key)
        told = race(store, [(first, {"type": "join", "room": owner.room_id}),
                            (second, {"type": "queue", "preset": "duel", "players": 2})])
        assert told == ["joined", "one_seat"]
        assert not thread.server.queues.by_player  # nobody waits: no table can seat the player again


def test_a_player_creating_two_public_rooms_at_once_gets_one(db):
    """Safe before this mend too: a room being stored counts already (`RoomService.creating`)."""
    with racing(db, {"add"}) as (store, thread):
        first = hello(thread.port, "Racer")
        second = hello(thread.port, "Racer", first.player_key)
        told = race(store, [(first, CREATE_PUBLIC), (second, CREATE_PUBLIC)])
        assert told == ["joined", "one_seat"]
        assert list(thread.server.rooms) == [first.room_id]


@pytest.mark.parametrize("refuse", [True, False])
def test_a_join_refused_by_the_store_or_by_the_room_leaves_the_player_free_to_sit_elsewhere(tmp_path, refuse):
    """The reservation goes with the join that made it: a claim the store refused, or a join that
    lost its room's last seat, holds nothing afterwards."""
    with racing(tmp_path / "rooms.sqlite3", {"save_seats"}) as (store, thread):
        one, two = public_rooms(thread.port, 2)
        racer = hello(thread.port, "Racer")
        if refuse:
            store.refuse = True
            assert racer.join(one.room_id)["code"] == "server_error"
            store.refuse = False
        else:
            assert racer.join(one.room_id, seat=0)["code"] == "seat_taken"
        assert not thread.server.fair.claims
        again = hello(thread.port, "Racer", racer.player_key)
        assert again.join(two.room_id)["type"] == "joined"


# ---- the computer seats of one address: a deal checked, then committed -------------------------------
COMPUTERS = [HUMAN, {"kind": "computer", "level": "medium"}, {"kind": "computer", "level": "medium"},
             {"kind": "computer", "level": "medium"}]


class DealGate(SlowStore):
    """A `SlowStore` whose ``deal`` entries wait at ``gate`` on their worker thread while it is
    closed (``dealing`` says one does), and are refused while ``refuse_deals``."""

    def __init__(self, inner: Any, **options: Any) -> None:
        super().__init__(inner, **options)
        self.gate = threading.Event()
        self.gate.set()
        self.dealing = threading.Event()
        self.refuse_deals = False

    def append(self, room, entry, now, lines=()) -> None:
        if entry.kind == "deal":
            self.dealing.set()
            self.gate.wait(20)
            if self.refuse_deals:
                raise StoreFailure("refused by the test")
        super().append(room, entry, now, lines)


def finish(peer: Peer) -> None:
    """Play ``peer``'s game with computers to the end of its match, and wait until the room says so."""
    play_until([peer], lambda: peer.view is not None and peer.view["status"] == "match_over",
               accept_deals=False)
    if peer.room is None or peer.room["state"] != "match_over":
        peer.until(lambda m: m["type"] == "room" and m["state"] == "match_over")


def test_two_finished_rooms_of_one_address_asking_to_deal_at_once_fit_its_computer_seats(db):
    postgres = is_postgres(str(db))
    store = DealGate(open_for_tests(db), serial=not postgres)
    thread = start_server(store, computer_seats=3, **({"cluster": PgCluster(str(db))} if postgres else {}))
    try:
        ana, ben = Peer(thread.port, 1), Peer(thread.port, 2)  # one address, two rooms of three computers
        assert ana.create("colors", COMPUTERS)["type"] == "joined"
        finish(ana)  # over: its computers are free for another room
        assert ben.create("colors", COMPUTERS)["type"] == "joined"
        finish(ben)
        store.gate.clear()
        ana.send(type="accept_round", ref="ana")
        assert store.dealing.wait(10)  # Ana's deal is being stored: her computers count from now
        ben.send(type="accept_round", ref="ben")
        told = ben.until(lambda m: m.get("ref") == "ben" or (m["type"] == "room"
                                                             and m["seats"][0]["accepted"]))
        store.gate.set()
        assert told["type"] == "error" and told["code"] == "too_many_computers"
        dealt = ana.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
        assert dealt["view"]["round_number"] == 2
        ben.drain(0.3)
        rooms = thread.server.rooms
        assert rooms[ben.room_id].state == "match_over" and rooms[ben.room_id].match.round.number == 1
        assert thread.server.quotas.holding("127.0.0.1")[1] == 3
    finally:
        store.gate.set()
        thread.stop()


def test_a_deal_the_store_refuses_leaves_the_computers_of_its_room_free(tmp_path):
    store = DealGate(open_for_tests(tmp_path / "rooms.sqlite3"), serial=True)
    thread = start_server(store, computer_seats=3)
    try:
        ana = Peer(thread.port, 1)
        assert ana.create("colors", COMPUTERS)["type"] == "joined"
        finish(ana)
        store.refuse_deals = True
        ana.send(type="accept_round", ref="ana")
        assert store.dealing.wait(10)  # its deal, refused
        assert wait_for(lambda: thread.server.quotas.holding("127.0.0.1") == (1, 0))
        ben = Peer(thread.port, 2)
        assert ben.create("colors", COMPUTERS)["type"] == "joined"  # the computers were free all along
    finally:
        thread.stop()


def test_an_address_creates_no_room_of_computers_while_its_finished_room_deals_them_again(tmp_path):
    store = DealGate(open_for_tests(tmp_path / "rooms.sqlite3"), serial=True)
    thread = start_server(store, computer_seats=3)
    try:
        ana = Peer(thread.port, 1)
        assert ana.create("colors", COMPUTERS)["type"] == "joined"
        finish(ana)
        store.gate.clear()
        ana.send(type="accept_round", ref="ana")
        assert store.dealing.wait(10)  # being dealt again: its three computers are taken
        ben = Peer(thread.port, 2)  # the same address
        refused = ben.create("colors", COMPUTERS)
        store.gate.set()
        assert refused["type"] == "error" and refused["code"] == "too_many_computers"
        assert ana.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
    finally:
        store.gate.set()
        thread.stop()
