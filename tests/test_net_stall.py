"""Nobody can stall a ranked game or get an innocent player penalised (issue 32, part 1).

Each attack is replayed against a real server on 127.0.0.1, on a manual clock: a quick-match
duel where one side never moves (the turn clock plays for them, then the autopilot), the other
side leaving it (no abandon: the staller's), a staller voting on the leaver (refused), a
staller away on their turn coming back for a moment to start their time away again (it adds
up). The rules the room plays by are checked directly too (`Room.play_rules`)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from game.engine import PRESETS, TimeOut
from game.net.ranking import ABANDON_AFTER, AWAY_ABSENT, PENALTY
from game.net.rooms import RANKED_TURN_SECONDS, LogEntry, Room, Seat
from tests.net_support import Peer, person, play_until, ranked_server, start_server


@pytest.fixture
def server(tmp_path, clock):
    thread = ranked_server(tmp_path / "rooms.sqlite3", clock)
    yield thread
    thread.stop()


def player(server, name: str, address: str, seed: int = 0) -> Peer:
    return person(server.port, name, address, seed)


def quick(*peers: Peer, preset: str = "duel") -> None:
    for peer in peers:
        peer.send(type="queue", preset=preset, players=len(peers))
    for peer in peers:
        assert peer.until(lambda m: m["type"] == "room")["ranked"] is True
        if peer.view is None:
            peer.until(lambda m: m["type"] == "update")


def points(server, peer: Peer) -> dict:
    return Peer(server.port).hello(key=peer.player_key)["xp"]


def to_act(peers: list[Peer]) -> int:
    """The seat to act, as the freshest view says (every peer reads what has come)."""
    for peer in peers:
        peer.drain(0.05)
    return peers[0].view["to_act"]


def honest_plays_until_stallers_turn(honest: Peer, staller: Peer) -> None:
    """The honest side plays its turns until it is the staller's (never more than a few)."""
    for _ in range(20):
        if to_act([honest, staller]) == staller.seat:
            return
        honest.play_one()
    raise AssertionError("the staller's turn never came")


def time_out(clock, honest: Peer, staller: Peer) -> dict:
    """The staller's turn runs out on the clock: the update telling the honest side of it."""
    clock.advance(RANKED_TURN_SECONDS)
    return honest.until(lambda m: m["type"] == "update" and any(
        e["type"] == "TimedOut" and e["seat"] == staller.seat for e in m["events"]))


def stall_to_the_autopilot(clock, honest: Peer, staller: Peer) -> None:
    """The staller never moves: two of their turns run out and the autopilot plays for them."""
    for _ in range(2):
        honest_plays_until_stallers_turn(honest, staller)
        time_out(clock, honest, staller)
    staller.until(lambda m: m["type"] == "update" and m["autopilot"] is True)
    honest.until(lambda m: m["type"] == "room" and m.get("absent") == [staller.seat])


# ---- the clock -----------------------------------------------------------------------------------------
def test_a_quick_match_duel_has_a_turn_clock_whose_timed_out_move_is_mediums(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 1), player(server, "Ben", "198.51.100.2", 2)
    quick(ana, ben)
    honest_plays_until_stallers_turn(ana, ben)
    assert ben.view["to_act"] == ben.seat
    ben.send(type="autopilot", on=False, ref="t")  # its answer is an update: the clock shown
    shown = ben.until(lambda m: m.get("ref") == "t")
    assert shown["timer"] == RANKED_TURN_SECONDS and shown["autopilot"] is False
    hand = len(ben.view["hand"])
    told = time_out(clock, ana, ben)
    played = [e for e in told["events"] if e.get("seat") == ben.seat and e["type"] != "TimedOut"]
    assert played, "the clock played a move for the staller"
    ben.until(lambda m: m["type"] == "update" and m["view"]["to_act"] != ben.seat or
              m["view"]["status"] != "playing")
    assert len(ben.view["hand"]) != hand or ben.view["status"] != "playing"  # a card played or drawn


def test_two_timeouts_in_a_row_put_the_staller_on_the_autopilot(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 3), player(server, "Ben", "198.51.100.2", 4)
    quick(ana, ben)
    assert ana.room.get("absent") is None
    stall_to_the_autopilot(clock, ana, ben)  # and the room says Ben is absent
    if ana.view["status"] != "playing":
        return  # the autopilot's move ended the deal
    # the autopilot plays Ben's turns at once, the clock standing still: Ana's turn keeps coming back
    for _ in range(3):
        if not ana.my_turn:
            ana.until(lambda m: m["type"] == "update" and (m["view"]["to_act"] == ana.seat
                                                           or m["view"]["status"] != "playing"))
        if ana.view["status"] != "playing":
            return
        ana.play_one()


def test_a_private_or_own_clocked_room_keeps_its_rules_and_a_ranked_one_gets_the_clock():
    def room(preset, kind, options=None):
        rules = PRESETS[preset] if options is None else replace(PRESETS[preset], **options)
        made = Room("r", rules, [Seat("human"), Seat("human")], 7, kind=kind)
        for seat in range(2):
            made.claim(seat, f"P{seat}")
            made.claimed_by(seat, f"player{seat}", f"203.0.113.{seat}", None)
        return made

    ranked = room("duel", "quick")
    assert ranked.ranked and ranked.rules.turn_seconds == 0
    rules = ranked.play_rules()
    assert (rules.turn_seconds, rules.timeout_policy) == (RANKED_TURN_SECONDS, "autoplay")
    ranked.start()
    assert ranked.clocked and ranked.match.rules.turn_seconds == RANKED_TURN_SECONDS
    assert ranked.rules.turn_seconds == 0  # what the room shows of its options is unchanged
    private = room("duel", "private")
    assert private.play_rules() is private.rules
    quick10 = room("duel", "public", {"turn_seconds": 10, "timeout_policy": "penalty"})
    assert quick10.play_rules() is quick10.rules  # its own, shorter clock and policy stay
    slow = room("duel", "public", {"turn_seconds": 600})
    assert slow.play_rules().turn_seconds == RANKED_TURN_SECONDS  # a longer one is cut down


# ---- leaving a stalled game --------------------------------------------------------------------------
def test_leaving_a_duel_the_other_side_stalls_is_no_abandon_the_stallers_is(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 5), player(server, "Ben", "198.51.100.2", 6)
    quick(ana, ben)
    room, seat, key = ana.room_id, ana.seat, ana.key
    stall_to_the_autopilot(clock, ana, ben)
    ana.close()  # Ana gives up on a game Ben stalls
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][ben.seat].get("abandoned"))
    assert not status["seats"][seat].get("abandoned") and status["seats"][seat]["kind"] == "human"
    assert status.get("takeover") is None  # Ana's time away does not run
    clock.advance(2 * ABANDON_AFTER)
    back = Peer(server.port, 7, address="203.0.113.1")
    back.hello(key=ana.player_key)
    assert back.join(room, seat=seat, key=key)["type"] == "joined"  # her seat is still hers
    status = back.until(lambda m: m["type"] == "room")
    assert not status["seats"][seat].get("abandoned")
    assert status["votes"] == [{"seat": ben.seat, "yes": 0, "no": 0, "voters": 1, "voted": [],
                                "penalised": False}]
    back.send(type="vote", seat=ben.seat, penalise=True)
    back.until(lambda m: m["type"] == "room" and m["votes"] and m["votes"][0]["penalised"])
    assert points(server, ben) == {"duel": -PENALTY}  # the staller pays
    assert points(server, ana).get("duel", 0) >= 0  # the one who left does not


def test_an_autopilot_a_connected_player_asked_for_is_no_absence(server, clock):
    # The trial's case: Ben turns the autopilot on and stays; the game goes on at once, so Ana
    # leaving it is an abandon like any other, and Ben is not the one who abandons.
    ana, ben = player(server, "Ana", "203.0.113.1", 11), player(server, "Ben", "198.51.100.2", 12)
    quick(ana, ben)
    ben.send(type="autopilot", on=True, ref="on")
    assert ben.until(lambda m: m.get("ref") == "on")["autopilot"] is True
    ana.play_one()
    ana.drain(0.2)
    assert ana.room.get("absent") is None
    seat = ana.seat
    ana.close()
    status = ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    assert not any(s.get("abandoned") for s in status["seats"])  # nobody abandoned at once
    assert status.get("takeover") is not None  # Ana's time away runs, as for any leaver


def test_leaving_while_the_other_side_is_away_on_its_turn_is_no_abandon(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 8), player(server, "Ben", "198.51.100.2", 9)
    quick(ana, ben)
    honest_plays_until_stallers_turn(ana, ben)
    ben.close()  # away on his turn: the game waits on him
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [ben.seat])
    clock.advance(AWAY_ABSENT - 1)
    ana.drain(0.2)
    assert ana.room.get("absent") is None
    clock.advance(1)  # he has been away as long as two turns of the clock: the room says he is absent
    ana.until(lambda m: m["type"] == "room" and m.get("absent") == [ben.seat])
    seat = ana.seat
    ana.close()
    watcher = Peer(server.port, 10, address="203.0.113.1")
    watcher.hello(key=ana.player_key)
    clock.advance(3 * ABANDON_AFTER)
    assert watcher.join(ana.room_id, seat=seat, key=ana.key)["type"] == "joined"
    status = watcher.until(lambda m: m["type"] == "room")
    assert status["seats"][ben.seat].get("abandoned") and not status["seats"][seat].get("abandoned")


def test_an_innocent_leaver_whose_opponent_plays_still_abandons(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 11), player(server, "Ben", "198.51.100.2", 12)
    quick(ana, ben)
    seat = ana.seat
    honest_plays_until_stallers_turn(ben, ana)  # Ana's turn: the game waits on her
    ana.close()
    ben.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(ABANDON_AFTER)
    status = ben.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    assert not status["seats"][ben.seat].get("abandoned")


def test_two_people_leaving_one_after_the_other_is_no_abandon_of_the_first(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 19), player(server, "Ben", "198.51.100.2", 20)
    quick(ana, ben)
    ben.close()  # Ben leaves (a blip, the server stopping...), then Ana a moment later
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [ben.seat])
    clock.advance(AWAY_ABSENT - 1)
    ana.close()
    watcher = Peer(server.port, 21, address="203.0.113.1")
    watcher.hello(key=ana.player_key)
    assert watcher.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
    status = watcher.until(lambda m: m["type"] == "room")
    assert not any(seat.get("abandoned") for seat in status["seats"])  # nobody stalled anybody


def test_a_staller_who_plays_again_is_no_longer_absent(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 22), player(server, "Ben", "198.51.100.2", 23)
    quick(ana, ben)
    stall_to_the_autopilot(clock, ana, ben)
    ben.send(type="autopilot", on=False, ref="off")  # turning the autopilot off is not playing
    ben.until(lambda m: m.get("ref") == "off")
    ana.drain(0.2)
    assert ana.room.get("absent") == [ben.seat]
    if ana.view["status"] != "playing":
        return
    honest_plays_until_stallers_turn(ana, ben)
    ben.drain(0.05)
    ben.play_one()  # a move of his own: he plays again
    back = ana.until(lambda m: m["type"] == "room" and m.get("absent") is None)
    assert back["state"] in ("playing", "match_over")
    seat = ana.seat
    if back["state"] == "playing":
        ana.close()  # leaving now, while he plays, is leaving like any other
        status = ben.until(lambda m: m["type"] == "room" and not m["seats"][seat]["connected"])
        assert status["takeover"] == [{"seat": seat, "left": ABANDON_AFTER}]


def test_leaving_while_one_other_stalls_but_another_plays_is_an_abandon_like_any(server, clock):
    ana, ben, cid = (player(server, n, f"203.0.113.{i}", i) for i, n in enumerate(("Ana", "Ben", "Cid"), 40))
    peers = [ana, ben, cid]
    quick(*peers, preset="points")
    cid_loses_turns(clock, peers, cid, 2)  # Cid stalls: two of his turns run out, the others play theirs
    cid.until(lambda m: m["type"] == "update" and m["autopilot"] is True)
    ben.close()  # Ana still plays: Ben's leaving is an abandon like any
    ana.until(lambda m: m["type"] == "room" and ben.seat in m["waiting_for"])
    assert not ana.room["seats"][cid.seat].get("abandoned")
    ana.close()  # Cid is absent, but Ben only just left: not everyone else is absent
    watcher = Peer(server.port, 43, address="203.0.113.40")
    watcher.hello(key=ana.player_key)
    assert watcher.join(ana.room_id, seat=ana.seat, key=ana.key)["type"] == "joined"
    status = watcher.until(lambda m: m["type"] == "room")
    # Ben left less than two turns' time before: not absent, so Ana's leaving is an abandon like his
    assert not any(seat.get("abandoned") for seat in status["seats"])


# ---- the time away adds up ----------------------------------------------------------------------------
def away_then_back(server, clock, seeds: tuple[int, int, int]) -> tuple[Peer, Peer, Peer]:
    """Ben leaves on his turn and comes back 10 s before his five minutes away are up: Ana, the Ben
    who left, and the Ben who came back."""
    ana, ben = player(server, "Ana", "203.0.113.1", seeds[0]), player(server, "Ben", "198.51.100.2", seeds[1])
    quick(ana, ben)
    honest_plays_until_stallers_turn(ana, ben)
    ben.close()
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [ben.seat])
    clock.advance(ABANDON_AFTER - 10)
    again = Peer(server.port, seeds[2], address="198.51.100.2")
    again.hello(key=ben.player_key)
    assert again.join(ben.room_id, seat=ben.seat, key=ben.key)["type"] == "joined"
    return ana, ben, again


def test_coming_back_for_a_moment_does_not_start_the_time_away_again(server, clock):
    ana, ben, again = away_then_back(server, clock, (13, 14, 15))
    seat = ben.seat
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [])
    ana.drain(0.2)  # (what the room said of his first absence is read: the next status is fresh)
    again.close()  # back for a moment, on his turn, then away again
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    clock.advance(10)
    status = ana.until(lambda m: m["type"] == "room" and m["seats"][seat].get("abandoned"))
    assert status["seats"][seat]["kind"] == "computer"


def test_a_player_who_plays_between_two_absences_has_the_whole_time_again(server, clock):
    ana, ben, again = away_then_back(server, clock, (16, 17, 18))
    seat = ben.seat
    again.until(lambda m: m["type"] == "update")
    assert again.my_turn and again.play_one()["type"] == "update"  # he plays on: he is no staller
    if again.view["status"] != "playing":
        return  # that move ended the game: nothing left to abandon
    ana.drain(0.2)  # (what the room said of his first absence is read: the next status is fresh)
    again.close()
    status = ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
    assert status["takeover"] == [{"seat": seat, "left": ABANDON_AFTER}]


# ---- who votes --------------------------------------------------------------------------------------------
def cid_loses_turns(clock, peers: list[Peer], cid: Peer, turns: int) -> None:
    """Everyone but Cid plays their turns; the clock plays ``turns`` of Cid's, in a row."""
    by_seat = {p.seat: p for p in peers}
    lost = 0
    for _ in range(300):
        if lost == turns:
            return
        seat = to_act(peers)
        if peers[0].view["status"] != "playing":  # a deal over: the next one
            deal = peers[0].view["round_number"]
            for peer in peers:
                peer.send(type="accept_round")
            peers[0].until(lambda m, deal=deal: m["type"] == "update" and m["view"]["round_number"] > deal)
        elif seat not in by_seat:
            peers[0].drain(0.1)  # a computer's turn
        elif seat == cid.seat:
            clock.advance(RANKED_TURN_SECONDS)
            peers[0].until(lambda m: m["type"] == "update" and any(
                e["type"] == "TimedOut" and e["seat"] == cid.seat for e in m["events"]))
            lost += 1
        else:
            by_seat[seat].play_one()
    raise AssertionError("the clock never played Cid's turns")


def ana_abandons(clock, peers: list[Peer], ana: Peer, ben: Peer) -> dict:
    """Ana leaves on her turn and stays away until a computer takes her seat: the room's status."""
    by_seat = {p.seat: p for p in peers}
    while to_act(peers) != ana.seat:
        by_seat[to_act(peers)].play_one()
    ana.close()
    ben.until(lambda m: m["type"] == "room" and ana.seat in m["waiting_for"])
    clock.advance(ABANDON_AFTER)
    return ben.until(lambda m: m["type"] == "room" and m["seats"][ana.seat].get("abandoned"))


def test_a_player_who_stalled_the_game_votes_on_no_abandon(server, clock):
    ana, ben, cid = (player(server, n, f"203.0.113.{i}", i) for i, n in enumerate(("Ana", "Ben", "Cid"), 20))
    peers = [ana, ben, cid]
    quick(*peers, preset="points")
    cid_loses_turns(clock, peers, cid, 2)  # two in a row: the clock's autopilot, a stall
    status = ana_abandons(clock, peers, ana, ben)
    assert status["votes"][0]["voters"] == 1  # Ben only: Cid stalled this game
    assert status["electors"] == [ben.seat]
    cid.send(type="vote", seat=ana.seat, penalise=True)
    assert cid.until(lambda m: m["type"] == "error")["code"] == "no_vote"
    ben.send(type="vote", seat=ana.seat, penalise=False)
    decided = ben.until(lambda m: m["type"] == "room" and m["votes"][0]["no"] == 1)
    assert decided["votes"][0]["penalised"] is False
    assert points(server, ana) == {}  # the innocent judged by the innocent: not penalised


def test_a_turn_lost_once_costs_no_vote(server, clock):
    # The trial's case: a leave dialog read on one's own turn lets that turn run out.
    ana, ben, cid = (player(server, n, f"203.0.113.{i}", i) for i, n in enumerate(("Ana", "Ben", "Cid"), 40))
    peers = [ana, ben, cid]
    quick(*peers, preset="points")
    cid_loses_turns(clock, peers, cid, 1)  # one turn lost, then he plays: no stall
    status = ana_abandons(clock, peers, ana, ben)
    assert sorted(status["electors"]) == sorted([ben.seat, cid.seat])
    cid.send(type="vote", seat=ana.seat, penalise=True)
    counted = cid.until(lambda m: m["type"] == "room" and m["votes"] and m["votes"][0]["yes"] == 1)
    assert counted["votes"][0]["voters"] == 2 and not counted["votes"][0]["penalised"]


def test_turns_lost_while_the_vote_is_open_cost_no_vote():
    # The trial's case: the vote covered the voter's table while their clock ran out, twice.
    room = claimed("points", 3)
    room.start()
    rng = random.Random(4)
    gone = room.match.to_act
    room.abandon(gone)
    voter = next(i for i in range(3) if i != gone)
    assert voter in room.electors
    while room.clock_row.get(voter, 0) < 2 and room.state == "playing":
        who = room.match.to_act
        legal = room.match.legal_actions(who)
        played = [a for a in legal if not isinstance(a, TimeOut)]
        room.apply(who, TimeOut(legal[0]) if who == voter else rng.choice(played))
    assert room.stalled.get(voter) == 1  # the clock's autopilot took the voter...
    assert voter in room.electors  # ...after the abandon: their vote stands


# ---- between two deals ------------------------------------------------------------------------------------
def test_a_ranked_match_cannot_be_held_by_never_asking_for_the_next_deal(server, clock):
    ana, ben = player(server, "Ana", "203.0.113.1", 30), player(server, "Ben", "198.51.100.2", 31)
    quick(ana, ben, preset="points")
    assert ana.view["target"]  # a match of several deals
    play_until([ana, ben], lambda: ana.view["status"] == "round_over" and ben.view["status"] == "round_over",
               accept_deals=False)
    ana.send(type="accept_round")  # Ana asks for the next deal; Ben never does
    ana.until(lambda m: m["type"] == "room" and m["seats"][ana.seat]["accepted"])
    clock.advance(RANKED_TURN_SECONDS - 1)
    ana.drain(0.2)
    assert ana.room["deal"] == 1
    clock.advance(1)
    dealt = ana.until(lambda m: m["type"] == "room" and m["deal"] == 2)
    assert dealt["state"] == "playing"
    assert ben.until(lambda m: m["type"] == "update" and m["view"]["round_number"] == 2)


# ---- a rebuilt room knows who lost a turn -------------------------------------------------------------
def claimed(preset: str, players: int) -> Room:
    """A quick-match room of ``players`` people from different addresses, every seat claimed."""
    room = Room("r", PRESETS[preset], [Seat("human") for _ in range(players)], 7, kind="quick")
    for seat in range(players):
        room.claim(seat, f"P{seat}")
        room.claimed_by(seat, f"player{seat}", f"203.0.113.{seat}", None)
    return room


def test_a_room_rebuilt_from_its_log_knows_who_timed_out_and_keeps_its_clock():
    room = claimed("points", 3)
    room.start()
    log = [LogEntry("start")]
    assert room.match.rules.turn_seconds == RANKED_TURN_SECONDS and room.electors == [0, 1, 2]
    seat = room.match.to_act
    rng = random.Random(2)
    while room.clock_row.get(seat, 0) < 2:  # the clock plays two of this seat's turns in a row
        who = room.match.to_act
        legal = room.match.legal_actions(who)
        played = [a for a in legal if not isinstance(a, TimeOut)]
        action = TimeOut(legal[0]) if who == seat else rng.choice(played)
        room.apply(who, action)
        log.append(LogEntry("action", who, str(action)))
    assert seat in room.electors and room.lost_turns == {seat: 2}  # no abandon yet: nobody barred
    other = next(i for i in range(3) if i != seat)
    room.abandon(other)
    log.append(LogEntry("abandon", other))
    assert seat not in room.electors  # the staller judges no abandon of this game
    rebuilt = claimed("points", 3)
    rebuilt.replay(log)
    assert rebuilt.clocked and seat not in rebuilt.electors and rebuilt.barred == room.barred
    assert rebuilt.lost_turns == {}  # who is absent is not rebuilt: a restarted server counts afresh


def test_the_clocks_accept_between_two_deals_is_replayed_as_a_lost_turn():
    room = claimed("points", 2)
    room.start()
    log = [LogEntry("start")]
    rng = random.Random(3)
    while room.state == "playing":
        seat = room.match.to_act
        action = rng.choice([a for a in room.match.legal_actions(seat) if not isinstance(a, TimeOut)])
        room.apply(seat, action)
        log.append(LogEntry("action", seat, str(action)))
    assert room.state == "round_over"
    log += [LogEntry("accept", 0), LogEntry("accept", 1, "clock")]  # the server asked for seat 1
    rebuilt = claimed("points", 2)
    rebuilt.replay(log)
    assert all(s.accepted for s in rebuilt.seats)
    assert rebuilt.timed_out == {1: 1} and rebuilt.clock_row == {1: 1} and rebuilt.lost_turns == {}


def test_a_ranked_room_restored_from_its_snapshot_keeps_its_clock_and_who_timed_out():
    import json

    from game.net.room_snapshot import restore, snapshot

    room = claimed("points", 2)
    room.start()
    seat = room.match.to_act
    rng = random.Random(5)
    while room.clock_row.get(seat, 0) < 2:  # a stall in deal 1: two of its turns in a row to the clock
        who = room.match.to_act
        legal = room.match.legal_actions(who)
        room.apply(who, TimeOut(legal[0]) if who == seat else rng.choice(
            [a for a in legal if not isinstance(a, TimeOut)]))
    room.abandon(1 - seat)  # the other leaves: the staller judges no abandon of this game
    while room.state == "playing":
        who = room.match.to_act
        room.apply(who, rng.choice([a for a in room.match.legal_actions(who) if not isinstance(a, TimeOut)]))
    assert room.state == "round_over" and room.match.target  # the game goes on into deal 2
    data = json.loads(json.dumps(snapshot(room)))
    fresh = claimed("points", 2)
    restore(fresh, data)
    assert fresh.clocked and fresh.match.rules.turn_seconds == RANKED_TURN_SECONDS
    assert fresh.barred == room.barred == {seat: 1} and fresh.stalled == room.stalled
    assert seat not in fresh.electors and fresh.timed_out == room.timed_out
    assert fresh.turns == room.turns
    partial = {k: v for k, v in data.items() if k != "timed_out"}  # snapshots always say who timed out
    with pytest.raises(ValueError):
        restore(claimed("points", 2), partial)


def test_away_counts_as_absent_after_the_server_s_own_clock_s_two_turns(tmp_path):
    from game.net.ranking import AWAY_ABSENT

    assert AWAY_ABSENT == 2 * RANKED_TURN_SECONDS
    thread = start_server(tmp_path / "rooms.sqlite3", ranked_clock=2.0)
    try:
        assert thread.server.competition.away_absent == 4.0  # --ranked-clock 2: two turns of 2 s
    finally:
        thread.stop()
