# Talon's chores. `make run` and `make test` do all the set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install system-deps run test lint typecheck migrations-check pytest e2e messages bench clean

$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c requirements.lock -e ".[dev]"
	touch $@

system-deps:
	bash .ci/system-deps

install: system-deps $(VENV)/.installed

run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

test: install lint typecheck migrations-check pytest

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck:
	$(VENV)/bin/mypy --strict rules

migrations-check:
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run

pytest:
	$(VENV)/bin/pytest -n 2 $(PYTEST_ARGS)

e2e: install
	$(VENV)/bin/pytest tests/e2e $(PYTEST_ARGS)

bench: install
	$(PY) bench/rules_bench.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test-artifacts
