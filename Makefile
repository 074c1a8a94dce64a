# Quick start: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HEADLESS := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# Test workers (pytest-xdist): two per core by default, eight at most (each may start its own
# PostgreSQL), so that a test waiting (on a server, PostgreSQL, a subprocess, a clock) leaves its core
# to another worker; `make test TEST_WORKERS=0` runs in one process, TEST_WORKERS=auto one per core.
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1); print(min(8, 2 * n))' 2> /dev/null || echo auto)

.PHONY: play text test lint bench po web web-fresh dist wheel kiosk-check ci clean

$(STAMP): pyproject.toml setup.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Huit needs Python 3.11 or newer")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(PY) main.py

text: $(STAMP)
	$(PY) main.py --text

test: $(STAMP) web-fresh
	$(HEADLESS) $(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal

lint: $(STAMP)
	$(PY) -m ruff check game tests tools main.py
	$(PY) -m mypy game

bench: $(STAMP)
	$(PY) -m tools.bench

# The translations: what each language lacks against English (python -m tools.i18n check).
po: $(STAMP)
	$(PY) -m tools.i18n check

# The browser client (docs/web.md): the game's avatars and icon exported (tools.web_assets), then
# web/ built by npm into game/net/browser/ (what the server serves at /play/ROOM and the wheel and
# the bundle carry). npm ci runs again only when web/package-lock.json changed.
WEB_BUILT := game/net/browser/manifest.json
WEB_NODE := web/node_modules/.installed
NO_NPM := npm is missing: install Node.js 20 or newer with npm (docs/web.md)

web: $(STAMP)
	@command -v npm > /dev/null || { echo "make web: $(NO_NPM), then run make web again"; exit 1; }
	$(HEADLESS) $(PY) -m tools.web_assets
	@test -f $(WEB_NODE) -a $(WEB_NODE) -nt web/package-lock.json || \
	    { echo "npm --prefix web ci"; npm --prefix web ci --no-audit --no-fund && touch $(WEB_NODE); }
	npm --prefix web run build

# Before the suite: the browser client built again when it is missing or older than what it is
# built from (its sources, the catalogues, the protocol's schema, the avatars' art); without npm,
# one line, and its tests skip.
web-fresh:
	@if [ ! -f web/package.json ]; then \
	    true; \
	elif ! command -v npm > /dev/null; then \
	    echo "make test: $(NO_NPM); the browser client's tests skip"; \
	elif [ ! -f $(WEB_BUILT) ] || [ -n "$$(find web/src web/build.mjs web/package-lock.json web/tools \
	        game/locale docs/protocol.schema.json game/client/avatar_art.py -newer $(WEB_BUILT) \
	        -print -quit 2> /dev/null)" ]; then \
	    $(MAKE) --no-print-directory web; \
	fi

# Standalone build: a one-folder PyInstaller bundle for this platform (dist/huit/ with the
# executables huit and huit-server), then its smoke test. PyInstaller comes from the dist extra.
DIST_STAMP := $(VENV)/.dist-installed
$(DIST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,dist]'
	@touch $(DIST_STAMP)

dist: $(DIST_STAMP)
	@start=$$(date +%s); \
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller huit.spec \
	&& echo "bundle: dist/huit ($$(du -sh dist/huit | cut -f1)), built in $$(( $$(date +%s) - start )) s"
	$(HEADLESS) dist/huit/huit --check
	dist/huit/huit-server --help > /dev/null && echo "dist/huit/huit-server answers --help"
	@test ! -f $(WEB_BUILT) || test -f dist/huit/_internal/$(WEB_BUILT) || \
	    { echo "the bundle lacks the browser client ($(WEB_BUILT))"; exit 1; }

# The wheel and the sdist, into dist/ (what pip install huit installs).
wheel: $(DIST_STAMP)
	$(PY) -m build --outdir dist .

# The kiosk recipe: the unit checked by systemd-analyze, the game under cage's headless backend.
kiosk-check: $(STAMP)
	deploy/kiosk/check.sh

# What CI runs (.ci/run): the suite (the browser client built first: web-fresh), then the bundle and its --check, then the kiosk recipe
# (kiosk-check skips what the machine lacks: systemd-analyze, cage). Their times: docs/install.md.
ci:
	$(MAKE) test
	$(MAKE) dist
	$(MAKE) kiosk-check

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
	rm -rf game/net/browser web/node_modules web/.test-build
