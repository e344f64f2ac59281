# One-command set-up: `make run` serves on SQLite, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
DEV := $(VENV)/.dev
# The virtualenv holds only what runs: pip works on it from outside (pip >= 22.3's --python), and
# Python compiles only the modules the server imports, when it first imports them (--no-compile).
PIP := $(PYTHON) -m pip --python $(BIN)/python --disable-pip-version-check

.PHONY: run test lint chromium nginx varnish wrk bench bench-search clean

$(BIN)/python:
	$(PYTHON) -m venv --without-pip $(VENV)

# `make run`: the server's own dependencies only (no test toolchain, no S3 client).
$(RUNTIME): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet --no-compile -e .
	touch $@

# `make test` and the benchmarks: the development extras on top.
$(DEV): pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e ".[dev]"
	touch $@ $(RUNTIME)

run: $(RUNTIME)
	$(BIN)/pressroom serve

lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# One pytest worker per core (pytest-xdist); each worker takes whole test files, so that a module's fixtures
# (a live server, a search world) are built once.
test: lint chromium nginx varnish
	$(BIN)/pytest -n auto --dist loadfile --no-loadscope-reorder

# The docs page test drives Debian's chromium (tests/functional/test_docs_browser.py): installed when missing,
# so that `make test` runs the whole suite on a fresh machine, as CI does.
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The client certificate test runs deploy/nginx/client-cert.conf in Debian's nginx
# (tests/functional/test_nginx_client_cert.py): installed the same way. It is only run by the test, never
# as a service.
nginx:
	@test -x /usr/sbin/nginx || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null)

# The HTTP cache test runs deploy/varnish/pressroom.vcl in Debian's varnishd with varnish-modules (vmod xkey)
# in front of the server (tests/functional/test_varnish.py): installed the same way, never run as a service.
varnish:
	@(test -x /usr/sbin/varnishd && dpkg -s varnish-modules >/dev/null 2>&1) || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq varnish varnish-modules >/dev/null)

# The benchmarks load the server with wrk (Debian's package), installed the same way.
wrk:
	@command -v wrk >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)

bench: $(DEV) varnish wrk
	$(BIN)/python -m benchmarks.content_load --baseline benchmarks/content_baseline.json
	$(BIN)/python -m benchmarks.tree_load
	$(BIN)/python -m benchmarks.subtree_load --baseline benchmarks/subtree_baseline.json
	$(BIN)/python -m benchmarks.varnish_load

# Not part of `bench`: generating its 100,000 items takes minutes (benchmarks/search_load.py).
bench-search: $(DEV)
	$(BIN)/python -m benchmarks.search_load

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
