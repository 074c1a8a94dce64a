"""Statistics of solo games: per preset and computer level, and the ``colors`` ranking's points.

For each (preset, level) the game keeps games, wins, ties, the best score, the
current and best winning streaks, and apart the wins the autopilot played (the
player's seat on the autopilot when the match was won: counted as games, never as
the player's wins nor in their streak; a file from before them reads as none). The
"level" is that of the computers at the table (``mixed`` when they differ). The best
score is the player's match total (its pair's, when partners' points add up) in a game
played to a target; a one-round (Quick) game keeps no score. The ``colors`` experience
points (docs/rules.md, "Scoring and the end of a match": the winner 10 × players, pairs
20, a loser 10, abandoning −20) add up in ``xp``, with their history for the chart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Final

KIND: Final = "statistics"
FORMAT: Final = 1
UPGRADES: Final[dict[int, Any]] = {}
OUTCOMES: Final = ("win", "loss", "tie")
HISTORY: Final = 40  # XP totals kept for the chart
MAX_NAME: Final = 40  # characters of a preset or level name (the longest today is 6)


@dataclass
class Record:
    """One preset against one level."""

    games: int = 0
    wins: int = 0
    ties: int = 0
    best: int | None = None
    streak: int = 0
    best_streak: int = 0
    autopilot_wins: int = 0  # won with the autopilot playing: apart from ``wins`` and the streak

    @property
    def losses(self) -> int:
        """Games neither won (by the player or the autopilot) nor tied."""
        return self.games - self.wins - self.ties - self.autopilot_wins


@dataclass
class Statistics:
    """Every record, and the experience points."""

    records: dict[str, dict[str, Record]] = field(default_factory=dict)
    xp: int = 0
    xp_history: list[int] = field(default_factory=list)

    def record(self, preset: str, level: str, outcome: str, score: int | None = None,
               xp: int | None = None, *, autopilot: bool = False) -> Record:
        """Count one finished match of the player; return the updated record. A win the autopilot
        played (``autopilot``) is counted apart: not a win of the player's, and their streak
        neither grows nor breaks.

        Raises:
            ValueError: ``outcome`` is not win, loss or tie.
        """
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {outcome!r}")
        rec = self.records.setdefault(preset, {}).setdefault(level, Record())
        rec.games += 1
        if outcome == "win" and autopilot:
            rec.autopilot_wins += 1
        elif outcome == "win":
            rec.wins += 1
            rec.streak += 1
            rec.best_streak = max(rec.best_streak, rec.streak)
        else:
            rec.ties += outcome == "tie"
            rec.streak = 0
        if score is not None and (rec.best is None or score > rec.best):
            rec.best = score
        if xp is not None:
            self.add_xp(xp)
        return rec

    def add_xp(self, points: int) -> None:
        """Add (or, for an abandoned game, take) experience points."""
        self.xp += points
        self.xp_history = (self.xp_history + [self.xp])[-HISTORY:]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        records = {p: {lv: asdict(r) for lv, r in levels.items()} for p, levels in self.records.items()}
        return {"records": records, "xp": self.xp, "xp_history": list(self.xp_history)}

    @classmethod
    def from_json(cls, value: Any) -> Statistics:
        """Read statistics back; entries that make no sense are dropped, not fatal."""
        return cls.parse(value)[0]

    @classmethod
    def parse(cls, value: Any) -> tuple[Statistics, list[str]]:
        """Read statistics back, and name what was dropped (``classic/hard``, ``xp``...).

        Every value is checked by type before it is looked at: a record is kept only
        if it is an object of whole numbers that add up; the rest is dropped, never fatal.
        """
        out, dropped = cls(), []
        if not isinstance(value, dict):
            return out, ([] if value is None else ["statistics"])
        records = value.get("records", {})
        if not isinstance(records, dict):
            records, dropped = {}, ["records"]
        for preset, levels in records.items():
            if not isinstance(levels, dict) or not _is_name(preset):
                dropped.append(_shown(preset))
                continue
            for level, raw in levels.items():
                rec = _record(raw)
                if rec is None or not _is_name(level):
                    dropped.append(f"{_shown(preset)}/{_shown(level)}")
                else:
                    out.records.setdefault(preset, {})[level] = rec
        xp = value.get("xp", 0)
        if type(xp) is int:
            out.xp = xp
        else:
            dropped.append("xp")
        history = value.get("xp_history", [])
        kept = [v for v in history if type(v) is int] if isinstance(history, list) else []
        out.xp_history = kept[-HISTORY:]
        if not isinstance(history, list) or len(kept) < len(history):
            dropped.append("xp_history")
        return out, dropped


def _is_name(name: object) -> bool:
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME


def _shown(name: object) -> str:
    """A name as the player may see it in a message (an absurd one is cut short)."""
    text = str(name)
    return text if len(text) <= MAX_NAME else text[:MAX_NAME] + "…"


def _record(raw: Any) -> Record | None:
    if not isinstance(raw, dict):
        return None
    values: dict[str, Any] = {}
    for f in fields(Record):
        v = raw.get(f.name)
        if f.name == "autopilot_wins" and f.name not in raw:
            values[f.name] = 0  # a file from before the autopilot's wins were kept apart
        elif f.name == "best" and v is None:
            values[f.name] = None
        elif type(v) is int and v >= 0:
            values[f.name] = v
        else:
            return None
    rec = Record(**values)
    return rec if rec.wins + rec.ties + rec.autopilot_wins <= rec.games else None
