"""``python -m tools.save_bench`` runs from a checkout and prints a line per game."""

from __future__ import annotations

from tests.test_tools import run_tool


def test_the_save_benchmark_prints_the_size_and_times_of_both_games(tmp_path):
    lines = run_tool("save_bench", "--repeat", "1", tmp_path=tmp_path)
    assert lines[0].split() == ["game", "actions", "undo", "size", "kB", "save", "ms", "read", "ms", "load",
                                "ms"]
    rows = {" ".join(line.split()[:2]): line.split()[2:] for line in lines[1:]}
    assert list(rows) == ["classic 4", "points 7"]
    for actions, undo, size, save, read, load in rows.values():
        assert int(actions) > 0 and 0 <= int(undo) <= 50
        assert all(float(figure) > 0 for figure in (size, save, read, load))
