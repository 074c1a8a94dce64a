"""One lock per room (`room_locks.RoomLocks`): held from a change's check to its broadcast, in turn."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.net.room_locks import RoomLocks, Taken


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 3)), min_size=1, max_size=25))
def test_each_room_is_held_by_one_at_a_time_in_the_order_asked_and_rooms_never_wait_for_each_other(asks):
    async def run() -> tuple[dict[str, list[int]], list[str]]:
        locks = RoomLocks()
        inside: dict[str, int] = {}
        entered: dict[str, list[int]] = {}
        trace: list[str] = []

        async def change(number: int, room: str, pauses: int) -> None:
            async with locks.hold(room):
                inside[room] = inside.get(room, 0) + 1
                assert inside[room] == 1 and locks.held(room)
                entered.setdefault(room, []).append(number)
                trace.append(room)
                for _ in range(pauses):  # a commit awaited: others run meanwhile
                    await asyncio.sleep(0)
                inside[room] -= 1

        await asyncio.gather(*(change(i, room, pauses) for i, (room, pauses) in enumerate(asks)))
        assert not locks.busy("a") and not locks.waiting("a")
        return entered, trace

    entered, _ = asyncio.run(run())
    for room, numbers in entered.items():
        assert numbers == [i for i, (r, _) in enumerate(asks) if r == room]  # first come, first served


def test_a_synchronous_change_runs_only_when_the_lock_is_free_or_its_own():
    async def run() -> None:
        locks = RoomLocks()
        with locks.claimed("a"):
            assert locks.held("a")
        release = asyncio.Event()
        holding = asyncio.Event()

        async def holder() -> None:
            async with locks.hold("a"):
                with locks.claimed("a"):  # within its own hold: runs
                    assert locks.held("a")
                holding.set()
                await release.wait()

        task = asyncio.ensure_future(holder())
        await holding.wait()
        assert locks.busy("a") and not locks.held("a")
        with pytest.raises(Taken), locks.claimed("a"):
            pass
        with locks.claimed("b"):  # another room: free
            pass
        release.set()
        await task
        with locks.claimed("a"):
            pass

    asyncio.run(run())


def test_a_waiter_cancelled_never_holds_the_lock_nor_blocks_those_behind_it():
    async def run() -> list[str]:
        locks = RoomLocks()
        order: list[str] = []
        release = asyncio.Event()

        async def change(name: str, wait: asyncio.Event | None = None) -> None:
            async with locks.hold("a"):
                order.append(name)
                if wait is not None:
                    await wait.wait()

        first = asyncio.ensure_future(change("first", release))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(change("second"))
        third = asyncio.ensure_future(change("third"))
        await asyncio.sleep(0)
        assert locks.waiting("a") == 2
        second.cancel()
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(first, third)
        assert second.cancelled() and not locks.busy("a")
        return order

    assert asyncio.run(run()) == ["first", "third"]


def test_a_lock_is_not_taken_twice_by_one_task():
    async def run() -> None:
        locks = RoomLocks()
        async with locks.hold("a"):
            with pytest.raises(RuntimeError):
                async with locks.hold("a"):
                    pass
            assert locks.held("a")
        assert not locks.busy("a")

    asyncio.run(run())
