# Lictor — every target creates .venv when it is missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 50051
HTTP_PORT ?= 8080
DB ?= ./lictor.db

# Every game's rules and the search's simulation compiled with mypyc into build/compiled/
# (docs/compiled.md), one package after the other (each package that names COMPILED in its __init__:
# games.<game>, search): a no-op when fresh; it prints the mode each package runs in. LICTOR_PURE=1
# forces pure Python.
COMPILE := $(BIN)/python tools/build_compiled.py

.PHONY: serve test lint typecheck buf-lint pytest bench proto clean venv dev fast chromium postgresql

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

$(VENV)/.installed-fast: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[fast]'
	touch $(VENV)/.installed $@

venv: $(VENV)/.installed
dev: $(VENV)/.installed-dev

# Fails (exit 2) where it cannot compile (no C compiler or Python headers).
fast: $(VENV)/.installed-fast
	$(COMPILE)

# Compiled when it can be (a C compiler, mypy), pure Python otherwise: one line says which.
serve: $(VENV)/.installed
	-@[ -f $(VENV)/.installed-fast ] || [ -f $(VENV)/.installed-dev ] || $(MAKE) -s $(VENV)/.installed-fast
	@$(COMPILE) --quiet --or-pure
	$(BIN)/lictor serve --host $(HOST) --port $(PORT) --http-port $(HTTP_PORT) --db $(DB)

# The compiled build first (where a C compiler is), so tests/core/test_compiled.py compares it with
# pure Python; CyberVerse's own tests, every game's seeded traces and the search's tests then run once
# more in pure Python (LICTOR_PURE=1), the mode of a machine without a compiler.
test: $(VENV)/.installed-dev buf-lint chromium postgresql
	@$(COMPILE) --quiet --if-possible
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest
	LICTOR_PURE=1 $(BIN)/pytest -q tests/cyberverse $(foreach g,cytress ti4 tiberius tiberpunk,tests/$(g)/test_traces.py) tests/search

# The browser tests (tests/web) drive Debian's Chromium through Playwright; installed where missing
# (they skip, saying why, only where it cannot be installed).
chromium:
	@command -v chromium >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || { \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo -n"; \
	  $$SUDO apt-get install -y -q chromium >/dev/null 2>&1 || \
	  { $$SUDO apt-get update -q >/dev/null 2>&1 && $$SUDO apt-get install -y -q chromium >/dev/null 2>&1; } || \
	  echo "chromium could not be installed: the browser tests will be skipped"; }

# Replicas on PostgreSQL (tests/service/test_store.py, test_replicas.py, bench/replicas.py) run
# against a server the tests start from Debian's postgresql (initdb into a temporary directory);
# installed where missing (they skip, saying why, only where it cannot be installed).
postgresql:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  ! command -v apt-get >/dev/null 2>&1 || { \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo -n"; \
	  $$SUDO apt-get install -y -q postgresql >/dev/null 2>&1 || \
	  { $$SUDO apt-get update -q >/dev/null 2>&1 && $$SUDO apt-get install -y -q postgresql >/dev/null 2>&1; } || \
	  echo "postgresql could not be installed: the PostgreSQL store and replica tests will be skipped"; }

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

pytest: $(VENV)/.installed-dev
	$(BIN)/pytest

# buf ships as an npm package; it is installed into .tools/ on first use.
.tools/node_modules/.bin/buf:
	mkdir -p .tools && cd .tools && npm install --silent --no-audit --no-fund --prefix . @bufbuild/buf@1.75.0

buf-lint: .tools/node_modules/.bin/buf
	cd proto && ../.tools/node_modules/.bin/buf lint

proto: $(VENV)/.installed-dev
	$(BIN)/python -m service.protogen

bench: $(VENV)/.installed-dev postgresql
	$(BIN)/pip install -q -e '.[dev,bench]'
	@$(COMPILE) --quiet --if-possible
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .tools .mypy_cache .ruff_cache build/compiled
