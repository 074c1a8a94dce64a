"""The rows nested in a server's replies are read once, leniently, for the screens: a field of the
wrong kind is None, a row that is no object is no row (`game.net.replies`)."""

from __future__ import annotations

from game.net.messages import (
    HistoryAnswer,
    LeaderboardAnswer,
    LobbyListing,
    Queued,
    RoomStatus,
    from_server,
)
from game.net.replies import ListedRoom, RankedGame, RankRow, SeatRow


def test_a_room_status_reads_each_seat_and_keeps_a_broken_one_in_its_place():
    status = from_server({"type": "room", "seats": [
        {"kind": "human", "name": "Ana", "tag": "3F2", "connected": True, "avatar": 4},
        "junk",
        {"kind": "computer", "level": 7, "name": ["x"], "tag": None, "connected": "yes", "avatar": True}]})
    assert isinstance(status, RoomStatus)
    ana, junk, computer = status.seat_rows()
    assert ana == SeatRow(kind="human", level=None, name="Ana", tag="3F2", connected=True, accepted=False,
                          avatar=4) and ana.human
    assert junk is None
    assert computer is not None and not computer.human
    assert (computer.level, computer.name, computer.tag, computer.avatar) == (None, None, None, None)
    assert from_server({"type": "room", "seats": {"a": 1}}).seat_rows() == []  # type: ignore[union-attr]


def test_a_listing_keeps_only_rooms_with_an_id_and_reads_their_people_and_times():
    listing = from_server({"type": "lobby", "listed": 3, "now": 160.0, "rooms": [
        {"room": "abc", "preset": "duel", "players": 2, "taken": 1, "since": 100,
         "seats": [{"kind": "human", "name": "Ben", "tag": "3F2"}, {"kind": "human", "name": "Cy"},
                   {"kind": "free"}, 5]},
        {"room": "no such id!"}, {"preset": "duel"}, [1],
        {"room": "def", "preset": 5, "players": True, "taken": "1", "since": float("nan"), "seats": "x"}]})
    assert isinstance(listing, LobbyListing) and listing.server_time == 160.0
    abc, bad = listing.listed_rooms()
    assert abc == ListedRoom(room="abc", preset="duel", players=2, taken=1, since=100.0,
                             people=(("Ben", "3F2"),))
    assert bad == ListedRoom(room="def", preset=None, players=None, taken=None, since=None, people=())
    assert from_server({"type": "lobby", "now": 10**30}).server_time is None  # type: ignore[union-attr]


def test_a_quick_match_wait_is_read_from_the_servers_clock_or_not_at_all():
    assert Queued(since=100.0, now=130.5).waited == 30.5
    assert Queued(since=200.0, now=130.0).waited == 0.0
    assert Queued(since=None, now=130.0).waited is None and Queued(since=0.0, now=1e300).waited is None


def test_a_leaderboard_and_a_history_read_their_rows_and_leave_the_rest_out():
    board = from_server({"type": "leaderboard", "preset": "duel", "players": 1,
                         "top": [{"rank": 1, "name": "Ben", "tag": "3F2", "xp": 20, "games": 1, "you": 1},
                                 None, {"rank": "1", "xp": 2.5}],
                         "you": {"rank": 1, "xp": 20}})
    assert isinstance(board, LeaderboardAnswer)
    assert board.rows() == [RankRow(rank=1, name="Ben", tag="3F2", xp=20, games=1, you=False),
                            RankRow(rank=None, name=None, tag=None, xp=None, games=None, you=False)]
    assert board.own == RankRow(rank=1, name=None, tag=None, xp=20, games=None, you=False)
    assert LeaderboardAnswer(you=None).own is None
    history = from_server({"type": "history", "games": [
        {"preset": "duel", "outcome": "win", "xp": 20, "at": 1.7e9, "opponents": ["Ben #3F2", 5]}, "x",
        {"at": 10**40, "xp": True, "opponents": "Ben"}]})
    assert isinstance(history, HistoryAnswer)
    assert history.played() == [
        RankedGame(preset="duel", outcome="win", xp=20, at=1.7e9, opponents=("Ben #3F2",)),
        RankedGame(preset=None, outcome=None, xp=None, at=None, opponents=())]
