# Inferno Companion — the two commands a table needs: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: setup browser run test test-fast test-pg lint translations pot bench bench-listeners clean

$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml
	"$$(./scripts/python.sh)" -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip==25.3
	$(PY) -m pip install -q -r requirements-dev.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

$(VENV)/.runtime: requirements.txt pyproject.toml
	"$$(./scripts/python.sh)" -m venv $(VENV)
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $@

translations: $(VENV)/.runtime
	$(VENV)/bin/pybabel compile --statistics -d companion/translations >/dev/null

# The translators' template: every message of the code and templates (refusals' N_ too), without locations.
pot: $(VENV)/.installed
	$(PY) -m babel.messages.frontend extract -F babel.cfg -k lazy_gettext -k _l -k ngettext:1,2 -k N_ \
		--no-location --omit-header -o companion/translations/messages.pot .

browser:
	./scripts/install-browser.sh

setup: $(VENV)/.installed translations browser

# gunicorn with one gevent worker (waitress where gunicorn cannot run); it raises its own open-files limit.
run: $(VENV)/.runtime translations
	$(PY) -m companion serve --host $(HOST) --port $(PORT)

# Every test: tests/, the browser journeys (e2e/) and the benchmark's own tests (bench/tests/).
test: setup
	$(PY) -m pytest -q

# tests/ alone: no browser, no benchmark run.
test-fast: $(VENV)/.installed translations
	$(PY) -m pytest -q tests

# The tests that run on both engines, against a throw-away PostgreSQL cluster (installed if missing,
# started as a normal user in a temp folder, stopped on exit). Pass PG_TESTS=... to widen or narrow.
# They include the fuzz of every command (tests/web/api/test_api_command_fuzz.py) and schemathesis on the
# OpenAPI document (tests/web/api/test_api.py), whose PostgreSQL runs carry "postgresql" in their ids.
PG_TESTS ?= -k "postgresql or test_pg_" tests
test-pg: $(VENV)/.installed translations
	./scripts/pg-throwaway.sh run $(PY) -m pytest -q $(PG_TESTS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The benchmark (bench/README.md); its report opens with the server's CPU per tap, by kind.
bench: $(VENV)/.installed
	$(PY) bench/run.py

bench-listeners: $(VENV)/.installed translations
	$(PY) bench/listeners.py

clean:
	rm -rf $(VENV) instance/*.sqlite3*
