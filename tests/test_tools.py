"""The measuring commands run from a checkout, with tiny arguments, and print or write what they say:
``python -m tools.bench``, ``tools.client_bench`` (frames, and ``--idle``), ``tools.shots``,
``tools.art_sheets``, ``tools.web_assets``, ``tools.arena --a hard --b pimc`` (the PIMC yardstick)
and ``tools.loadtest --attack`` (its flood and replayed request ids) and ``--instances 1,2``
(on PostgreSQL); ``tools.squat``, the lobby-squatting attack against a real server;
``tools.chaos``, instances killed with SIGKILL under bots (its checks, too); and
``tools.review_bench``, the review's analysis timed per deal; ``tools.fit_model``, the opponent
model's fit."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import PRESETS
from tests.browser_support import needs_browser

ROOT = Path(__file__).resolve().parent.parent


def run_tool(name: str, *args: str, tmp_path: Path) -> list[str]:
    """Run ``python -m tools.NAME ARGS`` from the checkout, headless, its temporary folders under
    ``tmp_path``; the lines it printed (after checking it succeeded)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir(exist_ok=True)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "TMPDIR": str(scratch),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-m", f"tools.{name}", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_engine_benchmark_prints_a_line_per_preset_seating_and_mode(tmp_path):
    lines = run_tool("bench", "--seconds", "0.02", "--repeat", "1", "--presets", "duel", "points",
                     tmp_path=tmp_path)
    assert lines[0].split() == ["preset", "players", "mode", "rounds/s", "actions/s"]
    rows = [line.split() for line in lines[1:]]
    assert [row[:3] for row in rows] == [
        ["duel", "2", "events"], ["duel", "2", "playout"],
        ["points", "2", "events"], ["points", "2", "playout"],
        ["points", "4", "events"], ["points", "4", "playout"]]
    for row in rows:
        rounds, actions = int(row[3]), int(row[4])
        assert 0 < rounds < actions, row  # every round takes more than one action


def test_the_frame_benchmark_prints_the_frame_times_of_both_games(tmp_path):
    lines = run_tool("client_bench", "--frames", "20", "--size", "1024x600", tmp_path=tmp_path)
    assert lines[0] == "video driver: dummy, window 1024x600, 20 frames per game"
    assert lines[1].split() == ["game", "median", "ms", "p95", "ms", "p99", "ms", "max", "ms"]
    games = {" ".join(line.split()[:2]): [float(v) for v in line.split()[2:]] for line in lines[2:]}
    assert list(games) == ["classic 4", "points 7"]
    for name, (median, p95, p99, worst) in games.items():
        assert 0 < median <= p95 <= p99 <= worst, (name, median, p95, p99, worst)


def test_the_screenshots_command_writes_a_picture_of_every_scene(tmp_path):
    out = tmp_path / "shots"
    lines = run_tool("shots", str(out), "--size", "1024x600", "--lang", "fr", tmp_path=tmp_path)
    printed = [Path(line) for line in lines]
    assert sorted(printed) == sorted(out.iterdir())
    names = {path.name.removesuffix("_1024x600.png") for path in printed}
    assert all(path.name.endswith("_1024x600.png") for path in printed)
    tables = {f"table_{name}_{n}" for name, rules in PRESETS.items() for n in (2, 4, 7)
              if rules.min_players <= n <= rules.max_players}
    expected = {"menu", "newgame", "settings", "rules", "suit_picker", "suit_picker_colors", "handoff",
                "result_points", "result_classic", "result_points_7", "menu_saved_games",
                "statistics_classic", "statistics_colors", "clear_data", "online_lobby",
                "online_waiting_room", "online_waiting_room_owner", "online_table_waiting",
                "table_points_reverse_5", "moves", "pause",
                "menu_two_continue_lines", "table_autopilot", "pause_autopilot", "menu_unwritable",
                "settings_unwritable", "newgame_points_pairs", "table_colors_pairs",
                "result_colors_pairs", "rules_classic_tips", "rules_classic_faq", "newgame_hotseat",
                "avatar_picker", "newgame_solo", "replace_save", "server_lobby", "server_lobby_quick_match",
                "leaderboard", "leaderboard_history", "leaderboard_not_shown_yet",
                "leaderboard_history_fair_play", "vote_on_an_abandon", "ranked_waiting_room",
                "ranked_table", "friendly_table", "lobby_code_lookalike", "online_reactions_palette",
                "online_reactions_bubbles", "attract", "who_are_you", "who_are_you_name_refused",
                "online_table_takeover", "online_pause",
                "online_table_takeover_my_turn",
                "leave_ranked", "online_table_stalled_clock", "leave_ranked_stalled", "result_points_earned",
                "result_pair_cap",
                "result_colors_quick", "table_colors_dealt", "hand_sorted_suit",
                "hand_sorted_rank", "hand_drag", "rules_in_play", "newgame_explained", "celebration",
                "menu_continue_7_seats", "tokens_lobby_stakes", "tokens_lobby_refused", "tokens_waiting_room",
                "tokens_result", "tokens_statistics", "review_analysing", "review", "review_pick",
                "review_cover"} | tables
    assert names == expected
    assert {png_size(path) for path in printed} == {(1024, 600)}
    assert len({path.read_bytes() for path in printed}) == len(printed)  # no two scenes look alike


def test_the_review_benchmark_prints_the_seconds_per_deal_and_the_frames_beside_the_analysis(tmp_path):
    lines = run_tool("review_bench", "--deals", "2", "--presets", "duel", "classic", "--guesses", "2",
                     tmp_path=tmp_path)
    assert lines[0].startswith("cores ") and "2 guesses a decision, 2 workers" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[1:3]}
    assert list(rows) == ["duel", "classic"]
    for row in rows.values():
        median, p90, worst, first = float(row[6]), float(row[8]), float(row[10]), float(row[-1])
        assert 0 < median <= worst and p90 <= worst and first > 0, row
    frames = [line for line in lines[3:] if line.startswith("frames while")]
    assert len(frames) == 2 and "worker processes" in frames[0] and "a thread" in frames[1]


def test_the_art_sheets_command_writes_the_three_contact_sheets(tmp_path):
    out = tmp_path / "sheets"
    lines = run_tool("art_sheets", str(out), "--width", "40", "--four-color", tmp_path=tmp_path)
    assert lines == [str(out / f"{name}.png") for name in ("standard", "action_markers", "colors")]
    for line in lines:
        width, height = png_size(Path(line))
        assert width > 4 * 40 and height > 56, (line, width, height)
    standard = png_size(out / "standard.png")
    assert standard[0] > 13 * 40 and standard[1] > 4 * 56  # 13 ranks a row, four suits and more


def test_the_idle_benchmark_prints_a_line_per_screen(tmp_path):
    lines = run_tool("client_bench", "--idle", "--seconds", "0.3", "--size", "1024x600", tmp_path=tmp_path)
    assert lines[0] == "video driver: dummy, window 1024x600, 0.3 s per screen"
    assert lines[1].split()[:4] == ["screen", "cpu", "s/s", "frames/s"]
    rows = {line[:16].strip(): line[16:].split() for line in lines[2:]}
    assert list(rows) == ["menu", "table waiting", "table timer", "table animating"]
    for name, figures in rows.items():
        cpu, frames, drawn = (float(v) for v in figures[:3])
        assert cpu >= 0 and frames >= drawn >= 0, (name, figures)


def test_the_stall_script_replays_the_attack_and_prints_what_the_rules_allow(tmp_path):
    lines = run_tool("stall", "--games", "1", "--clock", "1", "--seconds", "60", tmp_path=tmp_path)
    assert lines[0].startswith("stall: 1 quick-match duel(s), the staller never moves")
    game = " ".join(lines[1:4])
    assert "ranked True" in game and "the autopilot after 2 (the rules: 2)" in game
    assert "abandoned: the one who left False (the rules: False), the staller True (the rules: True)" in game
    assert "the staller's vote on the one who left: no_vote" in game
    assert "points: honest 0, staller -20" in game
    assert "honest players abandoned 0 (allowed 0), penalised 0 (allowed 0)" in lines[-1]
    assert "stallers abandoned 1 of 1, penalised 1" in lines[-1]


def test_the_room_log_benchmark_prints_both_stores_and_rebuilds_the_same_room(tmp_path):
    lines = run_tool("room_log_bench", "--deals", "4", "--repeat", "1", tmp_path=tmp_path)
    assert lines[0].startswith("a duel room of 4 deals:")
    whole = next(line for line in lines if line.strip().startswith("whole log:"))
    bounded = next(line for line in lines if line.strip().startswith("bounded:"))
    rows = [int(line.split(":")[1].split("rows")[0].replace(",", "")) for line in (whole, bounded)]
    assert rows[1] < rows[0]  # the bounded log keeps the current deal only
    assert "restart" in bounded and "peak RSS" in bounded
    assert lines[-1] == "same room rebuilt from both: yes"


def test_the_squatting_script_gets_one_seat_and_the_lobby_comes_back(tmp_path):
    """``tools.squat`` against a real server: one profile, three rooms, a one-second seat release."""
    lines = run_tool("squat", "--rooms", "3", "--release", "1", "--seconds", "2.5", tmp_path=tmp_path)
    text = "\n".join(lines)
    assert "lobby before: 3 rooms listed, 9 free seats" in text
    assert "9 tries: 1 seats taken (the rules allow 1" in text and "(one_seat: 8)" in text
    assert "lobby after the attack: 3 rooms listed, 8 free seats" in text
    assert "lobby after the release time: 3 rooms listed, 9 free seats" in text


def test_the_squatting_script_with_many_profiles_is_held_to_the_address_rules(tmp_path):
    lines = run_tool("squat", "--rooms", "6", "--seats", "3", "--profiles", "6", "--release", "1",
                     "--seconds", "0", tmp_path=tmp_path)
    [attack] = [line for line in lines if line.startswith("attack:")]
    assert "4 seats taken (the rules allow 4" in attack and "too_many_seats" in attack


def test_the_farming_script_from_two_loopback_addresses_earns_nothing(tmp_path):
    lines = run_tool("farm", "--games", "2", "--seconds", "60", tmp_path=tmp_path)
    assert lines[0].startswith("farm: 2 games of duel (0 ranked)")
    sides = [line for line in lines if line.startswith("  side ")]
    assert len(sides) == 2
    assert all("earned 0 (0 an hour)" in s and "allow 0 a day" in s and s.endswith("within") for s in sides)


def test_the_farming_script_from_two_addresses_earns_the_pair_s_daily_games_only(tmp_path):
    from game.net.fair_play import PAIR_GAMES

    lines = run_tool("farm", "--games", str(PAIR_GAMES + 2), "--seconds", "120", "--forwarded",
                     "--addresses", "203.0.113.1,198.51.100.2", tmp_path=tmp_path)
    assert lines[0].startswith(f"farm: {PAIR_GAMES + 2} games of duel ({PAIR_GAMES + 2} ranked)")
    rows = [line.split() for line in lines if line.startswith(("Farmer1", "Helper1"))]
    assert len(rows) == 2
    # name, #tag, address, games, won, earned, xp/hour, no rules, allowed, short, capped
    assert sum(int(row[5]) for row in rows) == 30 * PAIR_GAMES  # a win's 20 and a loss's 10, three times
    assert all(int(row[5]) <= int(row[8]) and row[10] == "2" for row in rows)
    assert all("within" in line for line in lines if line.startswith("  side "))
def test_the_load_test_attack_prints_what_the_flood_and_the_replays_got_next_to_the_rules(tmp_path):
    lines = run_tool("loadtest", "--rooms", "2", "--duration", "3", "--think", "0.05", "--attack", "2",
                     tmp_path=tmp_path)
    flood = [line for line in lines if line.startswith("attack, flood:")]
    assert len(flood) == 2, lines
    assert "1008 flooding" in flood[0] and "rate_limited" in flood[0]  # closed, as the rules say
    assert flood[1].endswith("the most one connection got past either allowance: 0")
    replays = next(line for line in lines if line.startswith("attack, replayed request ids:"))
    assert "4 creates and claims replayed" in replays and ", 0 got the bots' room" in replays
    assert replays.endswith("the rules allow 0")
    assert any(line.startswith("attack, computers:") and "the rules allow 2" in line for line in lines)
    assert lines[-1] == "errors: 0"


def _postgres_missing() -> str | None:
    """Why a test of several instances cannot run here (None: it can)."""
    import importlib.util

    if os.environ.get("HUIT_TEST_PG"):
        return None
    missing = [name for name in ("pgserver", "psycopg") if importlib.util.find_spec(name) is None]
    return f"no PostgreSQL: {', '.join(missing)} not installed (the test extra)" if missing else None


def test_the_load_test_runs_one_and_two_instances_on_postgresql_side_by_side(tmp_path):
    import pytest

    if why := _postgres_missing():
        pytest.skip(why)
    lines = run_tool("loadtest", "--rooms", "4", "--duration", "2", "--think", "0.05", "--instances", "1,2",
                     "--baseline", tmp_path=tmp_path)
    assert lines[0].startswith("PostgreSQL: a scratch server") or "HUIT_TEST_PG" in lines[0]
    runs = [line for line in lines if line.startswith("== ")]
    assert runs == ["== the single server on SQLite ==", "== 1 instance on PostgreSQL ==",
                    "== 2 instances on PostgreSQL =="]
    assert [line for line in lines if line.startswith("errors:")] == ["errors: 0"] * 3
    table = lines[lines.index("side by side:") + 1:]
    assert table[0].split() == ["SQLite,", "1", "PostgreSQL,", "1", "PostgreSQL,", "2"]
    rows = {line[:26].strip(): line[26:].split() for line in table[1:]}
    assert all(int(n) > 0 for n in rows["actions/s"]), rows
    assert rows["errors"] == ["0", "0", "0"]
    assert len(rows["instances' CPU, cores"]) == 1 + 1 + 3  # "a + b" for the two instances
    assert rows["PostgreSQL CPU, cores"][0] == "-"


def test_the_chaos_run_kills_its_one_sqlite_instance_and_every_log_replays_to_what_the_bots_saw(tmp_path):
    lines = run_tool("chaos", "--instances", "1", "--db", str(tmp_path / "rooms.sqlite3"), "--duration", "7",
                     "--kill-every", "2.5", "--down", "0.3", "--duels", "2", "--computer-rooms", "1",
                     "--quick", "2", "--think", "0.05", tmp_path=tmp_path)
    text = "\n".join(lines)
    assert lines[0].startswith("chaos: 1 instances on SQLite")
    assert "kills: 2 (SIGKILL), restarts: 2" in text
    reconnects = int(text.split("reconnects: ")[1].split()[0])
    assert reconnects >= 2, text  # at least one bot was connected each time
    assert int(text.split("actions: ")[1].split()[0]) > 0
    assert lines[-1] == "mismatches: 0", text


def test_the_chaos_run_across_three_postgresql_instances_finds_no_mismatch(tmp_path):
    import pytest

    if why := _postgres_missing():
        pytest.skip(why)
    lines = run_tool("chaos", "--instances", "3", "--duration", "8", "--kill-every", "2.5", "--down", "0.5",
                     "--duels", "3", "--computer-rooms", "2", "--quick", "4", "--think", "0.05",
                     tmp_path=tmp_path)
    text = "\n".join(lines)
    assert lines[0].startswith("chaos: 3 instances on PostgreSQL")
    assert int(text.split("kills: ")[1].split()[0]) >= 2  # at 2.5 and 5 s, and 7.5 s unless late
    moved = int(text.split("reconnects: ")[1].split("(")[1].split()[0])
    assert moved >= 1  # a bot that lost its instance went on on another one
    assert lines[-1] == "mismatches: 0", text


def test_the_chaos_checks_find_views_the_log_does_not_give_or_gives_in_another_order():
    """The chaos run's checks can fail: a view no state of the stored log gives, views out of the
    log's order on one connection, a room the store lost; a bot that saw less than the log is
    behind, not wrong."""
    import random

    from game.engine import PRESETS, Status
    from game.net.rooms import LogEntry, Room, Seat
    from game.net.roomstore import Since
    from tools import chaos, chaos_checks

    def dealt(seed):
        room = Room("r1", PRESETS["duel"], [Seat("human"), Seat("human")], seed)
        room.claim(0, "A")
        room.claim(1, "B")
        room.start()
        assert room.match is not None
        return room

    room = dealt(7)
    entries = [LogEntry("start")]
    early = chaos_checks.view_of(room, 0)
    rng = random.Random(3)
    for _ in range(4):
        assert room.state == Status.PLAYING
        seat = room.match.to_act
        action = rng.choice(room.match.legal_actions(seat))
        room.apply(seat, action)
        entries.append(LogEntry("action", seat, str(action)))
    late = chaos_checks.view_of(room, 0)
    stranger = chaos_checks.view_of(dealt(8), 0)  # another deal's: no state of this log

    class Store:
        def __init__(self, rooms, whole=True, log=None):
            self.rooms, self.whole, self.log = rooms, whole, log or entries

        def room(self, room_id):
            return self.rooms.get(room_id)

        def since(self, room_id, log_length):
            assert log_length == 0
            return Since(0, room.seats, True, self.log if self.whole else None)

    def bot(*views, room_id="r1", connection=1):
        seen = chaos.Seen(room_id, 0, "k", views[-1], views=[(connection, view) for view in views])
        return chaos.Bot("b", "host", 0, random.Random(0), rooms=[seen])

    found = chaos_checks.Findings()
    chaos_checks.check_views(Store({"r1": room}), [bot(early, late), bot(early), bot(late, room_id="gone")],
                             found)
    assert (found.compared, found.exact, found.same, found.behind, found.updates) == (3, 2, 1, 1, 3)
    assert found.mismatches == ["b: room gone: not stored"]
    found = chaos_checks.Findings()
    chaos_checks.check_views(Store({"r1": room}), [bot(late, early), bot(early, stranger)], found)
    assert [m.split(": ", 2)[2].split(" ")[0] for m in found.mismatches] == ["sent", "sent"]
    assert "after a later state of the log, on one connection" in found.mismatches[0]
    assert "which no state of the room's log gives" in found.mismatches[1]
    found = chaos_checks.Findings()  # a new connection may start earlier (a rejoin's view): counted
    chaos_checks.check_views(Store({"r1": room}), [chaos.Bot("b", "host", 0, random.Random(0), rooms=[
        chaos.Seen("r1", 0, "k", late, views=[(1, late), (2, early), (2, late)])])], found)
    assert not found.mismatches and found.stale == 1
    found = chaos_checks.Findings()  # a move stored twice (two owners of one turn): the replay refuses it
    chaos_checks.check_views(Store({"r1": room}, log=entries[:3] + entries[2:]), [bot(early)], found)
    assert len(found.mismatches) == 1 and "the replay of its whole log refused it" in found.mismatches[0]
    found = chaos_checks.Findings()  # only the entries since a snapshot: the last view against the end
    chaos_checks.check_views(Store({"r1": dealt(7)}, whole=False), [bot(late)], found)
    assert len(found.mismatches) == 1 and "saw round 1" in found.mismatches[0]


def test_the_arena_pits_hard_against_the_pimc_yardstick(tmp_path):
    lines = run_tool("arena", "--a", "hard", "--b", "pimc", "--games", "2", "--playouts", "4", "--jobs", "1",
                     tmp_path=tmp_path)
    assert lines[0].startswith("duel, 2 players: hard (A, one seat) vs pimc (B, the others)")
    assert any(line.startswith("PIMC (tools.pimc): uniform deals, UCB1") for line in lines)
    assert any(line.startswith("games 2; A won") and "Wilson 95%" in line for line in lines)
    assert any(line.startswith("pimc playouts per searched decision (B): median 4,") for line in lines)


def test_the_arena_gives_b_its_own_playouts_so_hard_can_meet_itself_at_another_count(tmp_path):
    lines = run_tool("arena", "--a", "hard", "--b", "hard-before", "--games", "2", "--playouts", "12",
                     "--playouts-b", "6", "--jobs", "1", "--seed", "3", tmp_path=tmp_path)
    assert "Hard 12 playouts a decision" in lines[0]
    assert "B's own search: 6 playouts (iterations) a decision" in lines
    assert any(line.startswith("hard playouts per searched decision (A): median 12,") for line in lines)
    assert any(line.startswith("hard-before playouts per searched decision (B): median 6,") for line in lines)


def test_the_arena_seats_b_on_its_own_budget_when_its_playouts_are_zero(monkeypatch):
    from tools import arena

    seen: list[arena.Deal] = []

    def play(task: arena.Deal) -> tuple[arena.Tally, arena.Tally]:
        seen.append(task)
        return arena.Tally(), arena.Tally()

    monkeypatch.setattr(arena, "play_deal", play)
    arena.run("duel", 2, "hard", "hard-before", 4, 0.5, 7, 1, 100, 30, playouts_b=0, budget_b=0.25)
    assert [task[4] for task in seen] == [7, 8]  # the same seeds as a run without the override
    assert seen[0][5:] == (0.5, 100, 30, 0, 0.25, None, 30)  # A: 100 playouts; B: 0.25 s, no fixed count
    seen.clear()
    arena.run("duel", 2, "hard", "hard-before", 2, 0.5, 7, 1, 100, 30)
    assert seen[0][5:] == (0.5, 100, 30, 0, 0.5, 100, 30)  # by default B searches as A does
    seen.clear()
    arena.run("duel", 2, "hard", "hard-before", 2, 0.5, 7, 1, 100, 12, horizon_b=0)
    assert seen[0][7] == 12 and seen[0][11] is None  # A looks 12 actions ahead, B to the round's end


def test_the_arena_gives_b_its_own_horizon_so_two_look_aheads_meet_on_the_same_deals(tmp_path):
    lines = run_tool("arena", "--a", "hard", "--b", "hard", "--games", "2", "--playouts", "6",
                     "--horizon", "8", "--horizon-b", "30", "--jobs", "1", "--seed", "3", tmp_path=tmp_path)
    assert "horizon 8 actions" in lines[0]
    assert "B's own horizon: 30 actions" in lines
    assert any(line.startswith("games 2; A won") for line in lines)


def test_hard_told_guesses_the_real_hands_of_the_arena_s_match_and_not_the_pile_s_order():
    import random

    from game.engine import Match
    from tools.arena import ToldHard

    match = Match(PRESETS["duel"], 2, 5)
    told = ToldHard(None, max_playouts=4)
    with pytest.raises(RuntimeError, match="only in the arena"):
        told.guesser(match.view(0), None)
    told.match = match
    guess = told.guesser(match.view(0), None).sample(random.Random(1))
    real = match.round
    assert guess.hands == real.hands and guess.discard == real.discard
    assert sorted(guess.pile) == sorted(real.pile) and guess.pile != real.pile


def test_the_arena_seats_hard_told_the_hands_against_any_level(tmp_path):
    lines = run_tool("arena", "--a", "hard-told", "--b", "pimc", "--games", "2", "--playouts", "4",
                     "--jobs", "1", tmp_path=tmp_path)
    assert lines[0].startswith("duel, 2 players: hard-told (A, one seat) vs pimc (B, the others)")
    assert any(line.startswith("hard-told playouts per searched decision (A): median 4,") for line in lines)


def test_the_web_assets_command_exports_every_avatar_and_the_icon(tmp_path):
    from game.play.avatars import CATALOGUE

    out = tmp_path / "browser"
    out.mkdir()
    (out / "app.js").write_text("// the npm build's", encoding="utf-8")
    (out / "avatars").mkdir()
    (out / "avatars" / "index.json").write_text('["fox"]', encoding="utf-8")  # an older export's
    lines = run_tool("web_assets", "--output", str(out), "--size", "32", tmp_path=tmp_path)
    assert lines == [f"24 avatars of 32 px, {sum(p.stat().st_size for p in (out / 'avatars').glob('*.png'))} "
                     f"bytes -> {out / 'avatars'}", f"the icon, 64 px -> {out / 'icon.png'}"]
    names = [avatar.name for avatar in CATALOGUE]
    assert not (out / "avatars" / "index.json").exists()  # nothing reads it: not written, an old one gone
    pictures = {path.stem: path for path in (out / "avatars").glob("*.png")}
    assert sorted(pictures) == sorted(names)
    assert {png_size(path) for path in pictures.values()} == {(32, 32)}
    assert len({path.read_bytes() for path in pictures.values()}) == len(names)  # no two alike
    assert png_size(out / "icon.png") == (64, 64)
    assert (out / "app.js").read_text(encoding="utf-8") == "// the npm build's"  # the rest left alone


@needs_browser
def test_the_web_screenshots_command_writes_the_seat_and_the_table_at_each_size(tmp_path):
    from tests.browser_support import BUILD

    out = tmp_path / "shots"
    lines = run_tool("web_shots", str(out), "--size", "400x700", "--size", "800×600", "--build", str(BUILD),
                     tmp_path=tmp_path)
    names = [f"web-{scene}-{size}.png" for size in ("400x700", "800x600") for scene in ("seat", "table")]
    assert lines == [str(out / name) for name in names]
    assert [png_size(out / name) for name in names] == [(400, 700)] * 2 + [(800, 600)] * 2


def test_the_opponent_model_fit_prints_the_best_temperature_and_share(tmp_path):
    lines = run_tool("fit_model", "--preset", "duel", "--players", "2", "--deals", "2", tmp_path=tmp_path)
    assert lines[0].startswith("duel, 2 players, 2 rounds of medium:")
    assert any(line.startswith("cards: best temperature") for line in lines)
    assert any(line.startswith("suits: best temperature") for line in lines)
