# One-command set-up: `make run` serves on SQLite, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint chromium bench bench-search clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pressroom serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# One pytest worker per core (pytest-xdist); each worker takes whole test files, so that a module's fixtures
# (a live server, a search world) are built once.
test: lint chromium
	$(BIN)/pytest -n auto --dist loadfile

# The docs page test drives Debian's chromium (tests/functional/test_docs_browser.py): installed when missing,
# so that `make test` runs the whole suite on a fresh machine, as CI does.
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

bench: $(STAMP)
	$(BIN)/python -m benchmarks.content_load
	$(BIN)/python -m benchmarks.tree_load

# Not part of `bench`: generating its 100,000 items takes minutes (benchmarks/search_load.py).
bench-search: $(STAMP)
	$(BIN)/python -m benchmarks.search_load

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
