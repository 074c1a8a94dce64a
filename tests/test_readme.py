"""The README a player reads to the end: short, the quick start first, and every link in the
project's Markdown pages (README, CONTRIBUTING, docs/) leading to a file, and to a heading
there when it names one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_LIMIT = 20_000
"""Bytes: the figures, the research and the formats live in docs/, the README links to them."""

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)


def pages() -> list[Path]:
    """The Markdown pages a reader follows links through."""
    return [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, no punctuation, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def leads_somewhere(page: Path, target: str) -> bool:
    """Whether the link ``target`` of ``page`` names a file that exists, and a heading it has."""
    path, _, fragment = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    if not file.exists():
        return False
    if not fragment or file.suffix != ".md":
        return True
    return fragment in {anchor(h) for h in HEADING.findall(file.read_text(encoding="utf-8"))}


def broken_links(page: Path) -> list[str]:
    """The links of ``page`` to a missing file or to a heading its target lacks."""
    return [target for target in LINK.findall(page.read_text(encoding="utf-8"))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # https:, mailto:: not ours to check
            and not leads_somewhere(page, target)]


def test_the_readme_stays_under_twenty_kilobytes():
    size = README.stat().st_size
    assert size < README_LIMIT, f"README.md is {size:,} bytes: move details to docs/ and link them"


def test_the_readme_opens_with_the_quick_start():
    text = README.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert sections[0] == "Quick start"
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "make play" in quick and "make test" in quick


def test_the_readme_links_the_figures_and_the_replay_format_in_docs():
    links = set(LINK.findall(README.read_text(encoding="utf-8")))
    assert {"docs/ai.md", "docs/performance.md", "docs/replay.md"} <= links


def test_every_link_between_the_pages_leads_somewhere():
    assert {page.name: broken_links(page) for page in pages()} == {page.name: [] for page in pages()}


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path):
    (tmp_path / "other.md").write_text("# Title\n\n## Saves and online keys\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#saves-and-online-keys) [b](other.md#nowhere) [c](gone.md) "
                    "[d](https://example.org/x)", encoding="utf-8")
    assert broken_links(page) == ["other.md#nowhere", "gone.md"]
