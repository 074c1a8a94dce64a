# Quick start: `make play` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HEADLESS := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# Test workers (pytest-xdist): one per core by default; `make test TEST_WORKERS=0` runs in one process.
TEST_WORKERS ?= auto

.PHONY: play text test lint bench po clean

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

test: $(STAMP)
	$(HEADLESS) $(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal

lint: $(STAMP)
	$(PY) -m ruff check game tests tools main.py
	$(PY) -m mypy game

bench: $(STAMP)
	$(PY) -m tools.bench

# The translations: what each language lacks against English (python -m tools.i18n check).
po: $(STAMP)
	$(PY) -m tools.i18n check

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
