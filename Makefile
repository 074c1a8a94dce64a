# Quick start: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HEADLESS := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# Test workers (pytest-xdist): one per core by default; `make test TEST_WORKERS=0` runs in one process.
TEST_WORKERS ?= auto

.PHONY: play text test lint bench dist wheel kiosk-check ci clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Huit needs Python 3.11 or newer")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(PY) main.py

text: $(STAMP)
	$(PY) main.py --text

test: $(STAMP)
	$(HEADLESS) $(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal

lint: $(STAMP)
	$(PY) -m ruff check game tests tools main.py
	$(PY) -m mypy game

bench: $(STAMP)
	$(PY) -m tools.bench

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

# The wheel and the sdist, into dist/ (what pip install huit installs).
wheel: $(DIST_STAMP)
	$(PY) -m build --outdir dist .

# The kiosk recipe: the unit checked by systemd-analyze, the game under cage's headless backend.
kiosk-check: $(STAMP)
	deploy/kiosk/check.sh

# What CI runs (.ci/run): the suite, then the bundle and its --check, then the kiosk recipe
# (kiosk-check skips what the machine lacks: systemd-analyze, cage). Their times: docs/install.md.
ci:
	$(MAKE) test
	$(MAKE) dist
	$(MAKE) kiosk-check

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
