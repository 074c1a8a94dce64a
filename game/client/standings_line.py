"""A table of many seats said in one line, as a ranking: "Léa 42 · you 30 · Tom 12 · …".

The menu's Continue line names where a saved game stands. Two or three figures read
well side by side ("you 42 – 17"); seven do not ("0 – 0 – 0 – 0 – 0 – 0 – 0"), so from
`RANKED_FROM` figures on the line ranks the seats instead: the best first (the most
points, or the fewest cards in hand), the first `SHOWN` of them by name, the player's own
seat too when it is further down, and "…" for the rest; seats all level are "all 7 at 0".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .i18n import tr

RANKED_FROM: Final = 5
"""How many figures make the line a ranking rather than figures side by side."""
SHOWN: Final = 3
"""How many seats of a ranking are named (the player's own seat is named too, wherever it is)."""


def ranking(names: Sequence[str], values: Sequence[int], *, you: int | None = None,
            fewest_first: bool = False) -> str:
    """The seats ranked by ``values`` (``fewest_first``: the smallest is the best), each as its name
    and value; ``you``: the player's seat, said as "you 30" and always shown."""
    if len(set(values)) == 1:
        return tr("save.all_at", n=len(values), value=values[0])
    order = sorted(range(len(values)), key=lambda s: (values[s] if fewest_first else -values[s], s))
    shown = order[:SHOWN]
    if you is not None and you not in shown:
        shown.append(you)

    def said(seat: int) -> str:
        if seat == you:
            return tr("save.you", value=values[seat])
        return f"{names[seat]} {values[seat]}"

    parts = [said(seat) for seat in shown]
    if len(shown) < len(values):
        parts.append("…")
    return " · ".join(parts)
