# One-command set-up: `make run` serves on SQLite, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-search clean

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

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks.content_load
	$(BIN)/python -m benchmarks.tree_load

# Not part of `bench`: generating its 100,000 items takes minutes (benchmarks/search_load.py).
bench-search: $(STAMP)
	$(BIN)/python -m benchmarks.search_load

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
