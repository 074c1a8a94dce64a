"""The browser client's own unit tests (``web/test``, node's test runner) run from the suite:
``npm --prefix web test``, so that ``make test`` runs them wherever node is (and CI always). They
skip with one line on a machine without npm, or before ``make web`` installed the client's tools."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"


def why_not() -> str | None:
    """Why the client's unit tests cannot run here (None: they can)."""
    if not (WEB / "package.json").is_file():
        return "this checkout has no browser client (web/package.json)"
    if shutil.which("npm") is None:
        return "npm is missing (Node.js 20 or newer and npm: docs/web.md)"
    if not (WEB / "node_modules").is_dir():
        return "the browser client's tools are not installed: run make web"
    return None


@pytest.mark.skipif(why_not() is not None, reason=why_not() or "")
def test_the_browser_clients_unit_tests_pass():
    env = {k: v for k, v in os.environ.items() if not k.startswith("npm_")}
    done = subprocess.run(["npm", "--prefix", str(WEB), "test"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "# fail 0" in done.stdout, done.stdout[-2000:]  # node's test runner's own count
