"""What one address may take of a server: connections, rooms, computer seats, pages.

Every quota is counted per *identity*: today the address a connection comes from (its
quota bucket, `addresses.quota_key`), and a request names the identities it is made
for, so that a player key (when players have one) can be counted beside its address
and a request must fit the quotas of each.

- connections open at once (`Limits.connections`; loopback exempt when no proxy is
  configured: the caller decides, `addresses.AddressPolicy.exempt`);
- rooms created in the last hour (`Limits.rooms_per_hour`);
- rooms held: rooms it created that the server still keeps (`Limits.rooms_held`),
  whatever their state; with the early expiry of rooms nobody else joined and of rooms
  whose match is over (`expiry`), this is what keeps one address from filling the
  server;
- computer seats in the rooms it holds whose match is not over
  (`Limits.computer_seats`): the server's computers are its CPU. A room whose match is
  over (`resting`: nothing is played, no deal runs) does not count; before it deals
  again (rules without a target deal as long as their people ask), its computers must
  fit again (`check_deal`), and count from that deal on (`dealing`);
- pages (HTTP GETs: room pages, ``/health``): a token bucket (`Limits.pages_per_second`,
  bursts of four times that);
- after a connection was closed for flooding (`protocol.FLOOD_CLOSE`), new connections
  from the same identity are refused for `FLOOD_COOLDOWN` seconds (`Quotas.flooded`,
  `Quotas.cooling`; loopback exempt, as from the connection cap): a flood must not cost a
  handshake and a fresh allowance every second;
- what players do an hour (`Quotas.spend`): new profiles per address
  (`Limits.profiles_per_hour`), quick-match requests (`Limits.queue_per_hour`), profile
  changes (`Limits.renames_per_hour`) and votes (`Limits.votes_per_hour`), per address
  and per player key alike.

Times come from the server's clock (`game.net.clock`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from .protocol import Refusal

HOUR: Final = 3600.0
PAGE_BURST: Final = 4.0  # a page allowance's burst, as a multiple of its rate
FLOOD_COOLDOWN: Final = 10.0  # seconds an address closed for flooding may open no connection


@dataclass(frozen=True)
class Limits:
    """How much one identity may take (see the module)."""

    connections: int = 32
    rooms_per_hour: int = 60
    rooms_held: int = 50
    computer_seats: int = 12
    pages_per_second: float = 5.0
    profiles_per_hour: int = 20
    queue_per_hour: int = 120
    renames_per_hour: int = 10
    votes_per_hour: int = 30


@dataclass
class _Held:
    owners: tuple[str, ...]
    computers: int  # its computer seats
    resting: bool = False  # its match is over: its computers play nothing and do not count


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class Quotas:
    """The live counts behind `Limits`."""

    limits: Limits
    now: Callable[[], float]
    connections: dict[str, int] = field(default_factory=dict)
    created: dict[str, list[float]] = field(default_factory=dict)  # identity -> creation times, last hour
    held: dict[str, _Held] = field(default_factory=dict)  # room id -> who holds it
    owned: dict[str, set[str]] = field(default_factory=dict)  # identity -> the rooms it holds
    pages: dict[str, _Bucket] = field(default_factory=dict)
    cooldowns: dict[str, float] = field(default_factory=dict)  # identity -> when it may connect again
    spent: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # kind -> identity -> times

    # ---- what players do an hour ----------------------------------------------------------------
    def spend(self, kind: str, identities: Sequence[str], limit: int, refusal: Refusal) -> None:
        """Count one ``kind`` of request (``profiles``, ``queue``, ``renames``, ``votes``) for each
        of ``identities``, or raise ``refusal`` (nothing counted) when one of them already made
        ``limit`` in the last hour.

        Raises:
            Refusal: ``refusal``.
        """
        now = self.now()
        times = self.spent.setdefault(kind, {})
        for who in identities:
            recent = [t for t in times.get(who, []) if now - t < HOUR]
            times[who] = recent
            if len(recent) >= limit:
                raise refusal
        for who in identities:
            times[who].append(now)

    def sweep(self) -> None:
        """Forget the counts of identities idle for an hour (called now and then)."""
        now = self.now()
        for times in (*self.spent.values(), self.created):
            for who in [w for w, ts in times.items() if not ts or now - ts[-1] >= HOUR]:
                del times[who]

    # ---- connections --------------------------------------------------------------------------
    def open(self, who: str) -> bool:
        """Count a new connection of ``who``; False (not counted) when it has too many."""
        if self.connections.get(who, 0) >= self.limits.connections:
            return False
        self.connections[who] = self.connections.get(who, 0) + 1
        return True

    def close(self, who: str) -> None:
        """A counted connection of ``who`` ended."""
        left = self.connections.get(who, 0) - 1
        if left > 0:
            self.connections[who] = left
        else:
            self.connections.pop(who, None)

    # ---- rooms --------------------------------------------------------------------------------
    def check_room(self, owners: Sequence[str], computers: int) -> None:
        """Whether ``owners`` may create one more room with ``computers`` computer seats.

        Raises:
            Refusal: ``too_many_rooms`` (an hour's rooms, or rooms held) or
                ``too_many_computers``, naming the limit.
        """
        now = self.now()
        limits = self.limits
        for who in owners:
            recent = [t for t in self.created.get(who, []) if now - t < HOUR]
            self.created[who] = recent
            if len(recent) >= limits.rooms_per_hour:
                raise Refusal("too_many_rooms", f"at most {limits.rooms_per_hour} new rooms an hour from one "
                                                "address")
            rooms, seats = self.holding(who)
            if rooms >= limits.rooms_held:
                raise Refusal("too_many_rooms", f"at most {limits.rooms_held} rooms kept at once for one "
                                                "address: a room nobody else joined expires after a few "
                                                "hours without play")
            if seats + computers > limits.computer_seats:
                raise Refusal("too_many_computers",
                              f"at most {limits.computer_seats} computer seats at once in the rooms of one "
                              f"address ({seats} taken); finish a game with computers first")

    def created_room(self, room_id: str, owners: Sequence[str], computers: int) -> None:
        """A room was created for ``owners`` (after `check_room`)."""
        now = self.now()
        for who in owners:
            self.created.setdefault(who, []).append(now)
        self.hold(room_id, owners, computers)

    def unmade_room(self, room_id: str, owners: Sequence[str]) -> None:
        """Undo `created_room`: the room could not be stored after all."""
        for who in owners:
            times = self.created.get(who)
            if times:
                times.pop()
        self.forget(room_id)

    def hold(self, room_id: str, owners: Sequence[str], computers: int, resting: bool = False) -> None:
        """``room_id`` counts for ``owners`` (a new room, or a stored one loaded at start, which
        may be `resting`)."""
        self.forget(room_id)
        held = self.held[room_id] = _Held(tuple(o for o in owners if o), computers, resting)
        for who in held.owners:
            self.owned.setdefault(who, set()).add(room_id)

    def settled(self, room_id: str) -> None:
        """The room's match is over: its computers no longer count (until it deals again)."""
        held = self.held.get(room_id)
        if held is not None:
            held.resting = True

    def check_deal(self, room_id: str, computers: int) -> None:
        """Whether a resting room may deal again with ``computers`` computer seats: they must fit
        the quota of each of its holders beside the computers of their other rooms.

        Raises:
            Refusal: ``too_many_computers``, naming the limit.
        """
        held = self.held.get(room_id)
        if held is None or not held.resting or not computers:
            return  # already counted (a match under way), or nothing to count
        limit = self.limits.computer_seats
        for who in held.owners:
            seats = self.holding(who)[1]
            if seats + computers > limit:
                raise Refusal("too_many_computers",
                              f"at most {limit} computer seats at once in the rooms of one address or "
                              f"player ({seats} taken in games under way): no new deal in this room "
                              "until one of them ends")

    def dealing(self, room_id: str, computers: int) -> None:
        """The room deals again (after `check_deal`): its ``computers`` count from now on."""
        held = self.held.get(room_id)
        if held is not None:
            held.computers, held.resting = computers, False

    def neighbours(self, room_id: str) -> set[str]:
        """The other rooms held by a holder of ``room_id`` (whose quotas it shares)."""
        held = self.held.get(room_id)
        rooms = set().union(*(self.owned.get(who, set()) for who in held.owners)) if held else set()
        rooms.discard(room_id)
        return rooms

    def forget(self, room_id: str) -> None:
        """The room is gone (expired)."""
        held = self.held.pop(room_id, None)
        for who in held.owners if held is not None else ():
            rooms = self.owned.get(who)
            if rooms is not None:
                rooms.discard(room_id)
                if not rooms:
                    del self.owned[who]

    def holding(self, who: str) -> tuple[int, int]:
        """The rooms ``who`` holds and the computer seats in them that still play."""
        rooms = self.owned.get(who, set())
        return len(rooms), sum(self.held[r].computers for r in rooms if not self.held[r].resting)

    # ---- pages --------------------------------------------------------------------------------
    def page(self, who: str, cost: float = 1.0) -> bool:
        """Take one page request (``cost``: what it counts as) from ``who``'s allowance; False when
        it asks too fast."""
        now = self.now()
        rate = self.limits.pages_per_second
        burst = rate * PAGE_BURST
        bucket = self.pages.get(who)
        if bucket is None:
            if len(self.pages) > 10_000:  # forget full buckets: they would start full anyway
                self.pages = {k: b for k, b in self.pages.items()
                              if b.tokens + (now - b.stamp) * rate < burst}
            bucket = self.pages[who] = _Bucket(burst, now)
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens < cost:
            return False
        bucket.tokens -= cost
        return True

    # ---- floods ---------------------------------------------------------------------------------
    def flooded(self, who: str) -> None:
        """A connection of ``who`` was closed for flooding: it opens none for `FLOOD_COOLDOWN` seconds."""
        now = self.now()
        if len(self.cooldowns) > 10_000:  # forget the cool-downs that are over
            self.cooldowns = {k: until for k, until in self.cooldowns.items() if until > now}
        self.cooldowns[who] = now + FLOOD_COOLDOWN

    def cooling(self, who: str) -> float:
        """The seconds before ``who`` may open a connection again (0: it may now)."""
        until = self.cooldowns.get(who)
        if until is None:
            return 0.0
        left = until - self.now()
        if left <= 0:
            del self.cooldowns[who]
            return 0.0
        return left
