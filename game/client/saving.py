"""The table's side of saving: when a game is dealt, saved, resumed, counted in the statistics.

One save per mode (`game.saves.MODES`): ``solo`` for one person against computers
(or computers alone), ``hotseat`` for two or more people on this device. The game is
saved after every applied action, new round, level change and undo (the
controller's ``on_change``), when leaving the table, on quit and on window close.
A finished match is counted in the statistics once, and its save removed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.engine import Match, Status
from game.engine.scoring import experience_points, standings, team_of
from game.saves import SavedTable, SaveError, WriteProblem

from .controller import MatchController
from .i18n import tr
from .standings_line import RANKED_FROM, ranking

if TYPE_CHECKING:
    from game.engine import Rules

    from .controller import SeatConfig
    from .scene import SceneApp


def mode_of(controller: MatchController) -> str:
    """The save slot of a table: hot-seat with two or more people, else solo."""
    return "hotseat" if controller.hot_seat else "solo"


def save_game(app: SceneApp, controller: MatchController) -> None:
    """Save the table's game in its mode; a finished match is counted and its save removed."""
    mode = mode_of(controller)
    if controller.match.status == Status.MATCH_OVER:
        if not controller.settled:
            controller.settled = True
            record_statistics(app, controller)
        app.store.games.delete(mode)
        return
    app.store.games.write(mode, controller.to_save())


def watch(app: SceneApp, controller: MatchController) -> None:
    """Save ``controller``'s game whenever it changes."""
    controller.on_change = lambda: save_game(app, controller)


def _solo_seat(controller: MatchController) -> int | None:
    humans = controller.humans
    return humans[0] if len(humans) == 1 else None


def opponents_level(controller: MatchController) -> str:
    """The computers' level at a solo table (``mixed`` when they differ)."""
    levels = {s.level for s in controller.seats if not s.is_human}
    return levels.pop() if len(levels) == 1 else "mixed"


def record_statistics(app: SceneApp, controller: MatchController) -> None:
    """Count a finished solo match: outcome, best score, streak, and the colours ranking's points."""
    seat = _solo_seat(controller)
    match = controller.match
    result = match.round.result
    if seat is None or result is None:
        return  # hot-seat games have no single "you" to keep statistics for
    rules = match.rules
    team = team_of(seat, match.players, rules.pairs)
    winners = set(match.winners) or set(result.winners)
    if any(s in winners for s in team):
        outcome = "win"
    elif not winners or result.tie:
        outcome = "tie"
    else:
        outcome = "loss"
    score: int | None = None  # a Quick game (no target) has no score to keep
    if match.target:
        score = max(standings(match.scores, rules.pairs, rules.pair_scores)[s] for s in team)
    xp = None
    if rules.ranking_xp:
        xp = experience_points(match.players, sorted(winners), rules.pairs)[seat]
    stats = app.store.read_statistics()
    # A win the autopilot was playing when it came is the autopilot's: kept apart from the player's.
    stats.record(rules.name, opponents_level(controller), outcome, score, xp,
                 autopilot=controller.autopilot(seat))
    app.store.write_statistics(stats)


def abandon_cost(mode: str, table: SavedTable) -> int:
    """The ranking points lost by replacing ``mode``'s saved ``table`` with a new game: an
    unfinished solo game of a ranked rule set (``ranking_xp``: ``colors``) costs 20; else 0."""
    match = table.match
    if mode != "solo" or not match.rules.ranking_xp or match.status != Status.PLAYING:
        return 0
    return -experience_points(match.players, (), abandoned=(0,))[0]


def abandon(app: SceneApp, mode: str) -> None:
    """A new game replaces ``mode``'s unfinished one: in a ranked rule set (``ranking_xp``:
    ``colors``) that costs 20 ranking points."""
    try:
        table = app.store.games.read(mode)
    except SaveError:
        return
    cost = 0 if table is None else abandon_cost(mode, table)
    if cost:
        stats = app.store.read_statistics()
        stats.add_xp(-cost)
        app.store.write_statistics(stats)


@dataclass
class SavedGame:
    """What the menu knows of one mode's save: a game to continue, or why it cannot be read."""

    mode: str
    payload: SavedTable | None = None
    problem: SaveError | None = None
    backup: SavedTable | None = None  # a readable backup, offered when the save is not
    line: str = ""  # what Continue (or "use the backup") resumes, in words


def saved_games(app: SceneApp) -> list[SavedGame]:
    """Every mode with a save file, read (never modified) for the menu."""
    out = []
    for mode in ("solo", "hotseat"):
        try:
            payload = app.store.games.read(mode)
        except SaveError as exc:
            try:
                backup = app.store.games.read(mode, backup=True)
                line = summary(mode, backup) if backup is not None else ""
            except Exception:  # SaveError, or a backup too damaged to describe: not offered
                backup, line = None, ""
            out.append(SavedGame(mode, problem=exc, backup=backup, line=line))
            continue
        if payload is not None:
            try:
                line = summary(mode, payload)
            except Exception as exc:  # checked when read; still, a menu line must never crash the menu
                out.append(SavedGame(mode, problem=SaveError("invalid", detail=type(exc).__name__)))
                continue
            out.append(SavedGame(mode, payload, line=line))
    return out


def cannot_write(problem: WriteProblem) -> str:
    """Why the data folder cannot be written, in the current language ("the disk is full")."""
    return tr(f"save.cannot_write.{problem.key}", detail=problem.detail)


def write_problem_line(app: SceneApp, where: str) -> str:
    """The line a screen shows when nothing can be saved in the data folder (``where``: ``menu``
    or ``settings``), or ``""`` when it can. It writes a small file there and removes it."""
    problem = app.store.write_problem()
    if problem is None:
        return ""
    return tr(f"save.unwritable_{where}", folder=str(app.store.root), why=cannot_write(problem))


def why(error: SaveError) -> str:
    """A save problem in the current language."""
    key = f"save.why.{error.key}"
    text = tr(key, **error.values)
    return str(error) if text == key else text


def summary(mode: str, payload: SavedTable, *, with_mode: bool = True) -> str:
    """What Continue resumes: "Points game, round 3, you 42 – 17"; where no points carry over (a
    Quick game) the cards in each hand, "Colours, round 1, cards in hand: you 5 – 7"; one score
    per pair where partners' points add up. For ``hotseat``, after "Same device: " unless
    ``with_mode`` is False."""
    match = payload.match
    rules = match.rules
    humans = [i for i, s in enumerate(payload.seats) if s.kind == "human"]
    order = humans[:1] + [i for i in range(match.players) if i not in humans[:1]]
    pooled = bool(match.target) and rules.pairs and rules.pair_scores
    if pooled:  # one figure per pair, the first human's pair first
        order = [s for s in order if s == order[0] or s not in team_of(order[0], match.players, True)][:2]
    if match.target:
        counted = standings(match.scores, rules.pairs, rules.pair_scores)
        figures = [str(counted[i]) for i in order]
    else:
        figures = [str(len(match.round.hands[i])) for i in order]
    if len(order) >= RANKED_FROM:  # many seats read as a ranking, not "0 – 0 – 0 – 0 – 0 – 0 – 0"
        values = [int(f) for f in figures]
        you = 0 if mode == "solo" and humans else None
        scores = ranking(seat_names(payload, order), values, you=you, fewest_first=not match.target)
    else:
        if mode == "solo" and humans:
            figures[0] = tr("save.your_pair" if pooled else "save.you", value=figures[0])
        scores = " – ".join(figures)
    if not match.target:
        scores = tr("save.hands", counts=scores)
    text = tr("save.summary", preset=tr("preset." + rules.name), deal=match.round.number, scores=scores)
    return tr("save.hotseat", text=text) if mode == "hotseat" and with_mode else text


def seat_names(payload: SavedTable, order: list[int]) -> list[str]:
    """The saved seats' names in ``order``, as the table names them: a given name, else "Player 3"
    or "Computer 3" (the solo person is "you", said by `ranking`)."""
    out = []
    for seat in order:
        saved = payload.seats[seat]
        if saved.name:
            out.append(saved.name)
        elif saved.kind == "human":
            out.append(tr("table.player", n=seat + 1))
        else:
            out.append(tr("table.computer", n=seat + 1))
    return out


def resume(app: SceneApp, payload: SavedTable, *, from_backup: bool = False) -> None:
    """Put a saved game back on the table, exactly where it stopped.

    Playing on from a backup saves it at once, which keeps the unreadable file aside.

    Raises:
        ValueError: the payload cannot make a table (the menu reports it).
    """
    controller = MatchController.from_save(payload, speed=app.settings.speed_factor,
                                           undo_allowed=app.settings.undo_allowed)
    watch(app, controller)
    if from_backup:
        save_game(app, controller)
    app.replace("Table", controller=controller)


def start_match(app: SceneApp, rules: Rules, seats: list[SeatConfig], seed: int | None = None) -> None:
    """Deal a new match, show its table, and save it in its mode from now on (the new-game form's
    Start, and the result screen's New game).

    The mode's previous save is replaced (an unreadable one is kept aside as
    ``*.corrupt`` by the first save).

    Raises:
        RulesError: the rules cannot seat these players.
    """
    rng = random.Random(seed)
    first = None
    if rules.first_player == "seat0":  # "the human always starts": the first human seat
        first = next((i for i, s in enumerate(seats) if s.is_human), 0)
    match = Match(rules, len(seats), rng.randrange(1 << 62), first=first)
    controller = MatchController(match, list(seats), rng=random.Random(rng.randrange(1 << 62)),
                                 speed=app.settings.speed_factor, undo_allowed=app.settings.undo_allowed)
    abandon(app, mode_of(controller))
    controller.covered = controller.hot_seat  # the device is passed before the very first turn too
    watch(app, controller)
    save_game(app, controller)
    app.replace("Table", controller=controller)
