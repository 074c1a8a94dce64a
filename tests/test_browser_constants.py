"""The constants the browser client copies from the Python game (code review 35, finding 11): each is
read out of the client's TypeScript source and compared with the Python value it stands for, so that
one side cannot change alone (as ``web/test/safety.test.ts`` does for the avatars and
``web/test/protocol.test.ts`` for the reactions). Plain text reading: no node needed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from game.engine import PRESETS
from game.net import ranking, room_codes

WEB = Path(__file__).resolve().parent.parent / "web" / "src"
SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"


def constant(file: str, name: str) -> str:
    """The source text of ``export const NAME = ...;`` in ``web/src/FILE``."""
    found = re.search(rf"^export const {name} = (.+?);$", (WEB / file).read_text(encoding="utf-8"), re.M)
    assert found is not None, f"{name} is not in web/src/{file}"
    return found.group(1)


def test_the_abandon_penalty_is_the_rankings():
    assert int(constant("ui_common.ts", "PENALTY")) == ranking.PENALTY


def test_the_minutes_before_a_computer_takes_an_away_seat_are_the_rankings():
    assert int(constant("ui_common.ts", "ABANDON_MINUTES")) * 60 == ranking.ABANDON_AFTER


def test_the_room_codes_letters_are_the_servers():
    assert json.loads(constant("storage.ts", "CODE_ALPHABET")) == room_codes.ALPHABET


def test_the_quick_match_presets_are_the_engines():
    presets = json.loads(constant("ui.ts", "PRESETS"))
    assert sorted(presets) == sorted(PRESETS) and len(presets) == len(set(presets))


def test_the_seat_bounds_are_the_protocols():
    queue = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]["client_queue"]["properties"]["players"]
    assert int(constant("state.ts", "MIN_PLAYERS")) == queue["minimum"]
    assert int(constant("state.ts", "MAX_PLAYERS")) == queue["maximum"]


def test_the_card_values_are_the_engines():
    values = json.loads(constant("cards.ts", "CARD_VALUES"))
    assert values == {name: dict(rules.card_values) for name, rules in PRESETS.items()}
