"""The last deals' reviews: what the review of each needs, kept with the statistics.

A record is one seat's deal (`game.review.story.Story` as plain JSON: the seat's views and
the events redacted for it, nothing else of the deal), with where it was played (``mode``: ``solo``,
``hotseat``, ``online``), the seat, the players' names, the rule set and the deal's number.
The records of the last `KEEP` deals are kept, newest last, in one JSON document (atomic
writes with a backup, as every file here: `store.DataStore.reviews`). Each record is
checked by type here; its story is read back by the client (`game.client.review_data`), and
a record that does not read is dropped alone, never the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

KIND: Final = "reviews"
FORMAT: Final = 1
UPGRADES: Final[dict[int, Any]] = {}
KEEP: Final = 10
"""Deals kept (a hot-seat deal has a record per person)."""
MAX_RECORDS: Final = KEEP * 8
MODES: Final = ("solo", "hotseat", "online")
MAX_TEXT: Final = 200
CAP: Final = 16 << 20
"""The file's largest size (ten long deals of seven players, each of its people's seat)."""


@dataclass(frozen=True)
class ReviewRecord:
    """One seat's deal, ready to review: where it was played (``mode``: solo, hotseat or online);
    ``key`` names the deal (the same deal recorded twice, after a resume, replaces the first);
    ``story``: plain JSON, read by the client."""

    key: str
    mode: str
    seat: int
    names: tuple[str, ...]
    preset: str
    deal: int
    story: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"key": self.key, "mode": self.mode, "seat": self.seat, "names": list(self.names),
                "preset": self.preset, "deal": self.deal, "story": self.story}


@dataclass
class Reviews:
    """The kept records, oldest first."""

    records: list[ReviewRecord] = field(default_factory=list)

    def add(self, record: ReviewRecord) -> None:
        """Keep ``record`` (replacing one of the same deal and seat), then only the last `KEEP` deals."""
        self.records = [r for r in self.records if (r.key, r.seat) != (record.key, record.seat)]
        self.records.append(record)
        deals: list[str] = []
        for r in reversed(self.records):
            if r.key not in deals:
                deals.append(r.key)
        kept = set(deals[:KEEP])
        self.records = [r for r in self.records if r.key in kept][-MAX_RECORDS:]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"records": [r.to_json() for r in self.records]}

    @classmethod
    def parse(cls, value: Any) -> tuple[Reviews, list[str]]:
        """Read the records back, and say which could not be (``record 3``); never fatal."""
        out, dropped = cls(), []
        if not isinstance(value, dict):
            return out, ([] if value is None else ["reviews"])
        records = value.get("records", [])
        if not isinstance(records, list):
            return out, ["records"]
        for i, raw in enumerate(records[-MAX_RECORDS:]):
            record = _record(raw)
            if record is None:
                dropped.append(f"record {i + 1}")
            else:
                out.records.append(record)
        return out, dropped


def _text(value: object) -> bool:
    return type(value) is str and 0 < len(value) <= MAX_TEXT


def _record(raw: object) -> ReviewRecord | None:
    """A record whose every field has its type and range, or None."""
    if not isinstance(raw, dict) or set(raw) != {"key", "mode", "seat", "names", "preset", "deal", "story"}:
        return None
    names, seat, deal = raw["names"], raw["seat"], raw["deal"]
    if not (_text(raw["key"]) and raw["mode"] in MODES and _text(raw["preset"])
            and isinstance(names, list) and 2 <= len(names) <= 8
            and all(type(n) is str and len(n) <= MAX_TEXT for n in names)
            and type(seat) is int and 0 <= seat < len(names)
            and type(deal) is int and 1 <= deal <= 10**6 and isinstance(raw["story"], dict)):
        return None
    return ReviewRecord(raw["key"], raw["mode"], seat, tuple(names), raw["preset"], deal, raw["story"])
