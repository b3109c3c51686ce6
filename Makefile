# Talon's chores. `make run` and `make test` do all the set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install system-deps run test checks lint typecheck layers migrations-check pytest e2e messages bench clean

$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c requirements.lock -e ".[dev]"
	touch $@

system-deps:
	bash .ci/system-deps

# Pyodide for the offline pricing worker, from the npm registry, hash-checked (.ci/pyodide).
PYODIDE := static/vendor/pyodide
$(PYODIDE)/VERSION: .ci/pyodide
	bash .ci/pyodide $(PYODIDE)

install: system-deps $(VENV)/.installed $(PYODIDE)/VERSION

run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

# Everything CI checks, on the database DATABASE_URL names (SQLite without it). .ci/run runs the same pieces, but the
# checks and the browser tests once rather than once per database (docs/development.md, "Continuous integration").
test: install checks pytest

# What does not depend on the database: style, types, the layers and the migrations' completeness.
checks: lint typecheck layers migrations-check

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck:
	$(VENV)/bin/mypy --strict rules ledger

# Imports only run downward (pyproject.toml, [tool.importlinter]; docs/development.md, "Layers and features").
layers:
	$(VENV)/bin/lint-imports --no-cache

migrations-check:
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run

# loadfile: each test file on one worker, its tests one after another, so a module-scoped fixture (the query-count
# tables, the demo, the browser) is set up once.
pytest:
	$(VENV)/bin/pytest -n 2 --dist loadfile $(PYTEST_ARGS)

e2e: install
	$(VENV)/bin/pytest tests/e2e $(PYTEST_ARGS)

bench: install
	$(PY) bench/rules_bench.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test-artifacts $(PYODIDE)

# The rules engine's catalogues (rules/locale, gettext domain "rules"). rules-messages extracts the English msgids
# from every .py under rules/ (its packages too) into rules.pot and merges them into each language's .po; translate,
# then rules-compile writes the .mo files, which are committed so that a checkout works without gettext installed.
RULES_LANGUAGES := cs sk de en
RULES_POT := rules/locale/rules.pot
.PHONY: rules-messages rules-compile
rules-messages:
	xgettext --language=Python --from-code=UTF-8 --keyword= --keyword=_ --keyword=gettext --keyword=ngettext:1,2 --keyword=pgettext:1c,2 --keyword=N_ --keyword=NP_:1c,2 --add-comments=Translators: --add-location=file --sort-output --package-name=talon-rules --output=$(RULES_POT) $(shell find rules -name '*.py' | sort)
	for lang in $(RULES_LANGUAGES); do msgmerge --quiet --update --backup=none --add-location=file --sort-output rules/locale/$$lang/LC_MESSAGES/rules.po $(RULES_POT) || exit 1; done
rules-compile:
	for lang in $(RULES_LANGUAGES); do msgfmt --check --output-file=rules/locale/$$lang/LC_MESSAGES/rules.mo rules/locale/$$lang/LC_MESSAGES/rules.po || exit 1; done

# The Django catalogues (locale/, domain "django": templates/ and ledger/). `messages` extracts the msgids and merges
# them into each language's .po; translate, then `messages-compile` writes the .mo files, which are committed (a
# fresh checkout needs no gettext). tests/ledger/test_catalogues.py fails when a message lacks a translation, a .mo
# is stale, or the source has a message the catalogues lack. Keep the ignore list in step with that test.
MESSAGES_IGNORE := -i "rules/*" -i "tests/*" -i "bench/*" -i "docs/*" -i "fixtures/*" -i "static/*" -i "staticfiles/*" -i "test-artifacts/*"
.PHONY: messages-compile
messages:
	DEBUG=1 $(PY) manage.py makemessages -l cs -l sk -l de -l en --add-location=file --no-obsolete $(MESSAGES_IGNORE)
messages-compile:
	for lang in cs sk de en; do msgfmt --check --output-file=locale/$$lang/LC_MESSAGES/django.mo locale/$$lang/LC_MESSAGES/django.po || exit 1; done
