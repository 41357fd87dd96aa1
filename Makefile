# Scorekeeper: `make run` serves the app on the home network, `make test` checks everything.

PYTHON ?= python3
VENV = .venv
PORT ?= 5000

.PHONY: run test format clean messages bench screenshots

# Python writes its bytecode caches (and pytest its assertion-rewritten test modules): with
# PYTHONDONTWRITEBYTECODE set, every process of a test run, each server a test starts among
# them, would compile again what it imports.
unexport PYTHONDONTWRITEBYTECODE

# The packages are installed by uv (itself installed by pip into the venv): a fraction of the
# time pip takes to resolve and install them.
$(VENV)/.installed: pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	test -x $(VENV)/bin/uv || $(VENV)/bin/python -m pip install -q uv
	$(VENV)/bin/uv pip install --python $(VENV)/bin/python -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	test -x $(VENV)/bin/uv || $(VENV)/bin/python -m pip install -q uv
	$(VENV)/bin/uv pip install --python $(VENV)/bin/python -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/flask --app scorekeeper db upgrade
	PORT=$(PORT) $(VENV)/bin/python -m scorekeeper.serve

# The suite runs on every core, a test file per worker at a time (a file's real servers and
# browsers are started once); each worker has its own PostgreSQL database (tests/conftest.py).
test: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -n auto --dist loadfile

# Benchmarks (bench/, docs/PERFORMANCE.md): wrk and Chromium from Debian, then every section;
# `make bench BENCH_ARGS='--quick --only taps'` to try one quickly.
BENCH_ARGS ?=

bench: $(VENV)/.installed-test
	sh bench/install.sh
	$(VENV)/bin/python bench/run.py $(BENCH_ARGS)

# Phone-size screenshots of the main screens, in Chromium, into docs/screenshots/ (the README
# shows them); `make screenshots SHOTS_ARGS='--all --out /tmp/shots'` takes every screen at 360
# and 390 px, light and dark, to look at before committing a change of the look.
SHOTS_ARGS ?=

screenshots: $(VENV)/.installed-test
	$(VENV)/bin/python docs/make_screenshots.py $(SHOTS_ARGS)

format: $(VENV)/.installed-test
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Translations (scorekeeper/translations/README.md): after changing any string a person reads,
# extract the template, merge it into each language's catalogue and compile the .mo files
# (committed, so `make run` needs no step of its own).
LANGUAGES = da et fi fr pl
TRANSLATIONS = scorekeeper/translations

messages: $(VENV)/.installed
	$(VENV)/bin/pybabel -q extract -F babel.cfg --no-location --sort-output --project Scorekeeper \
		--version 0.1.0 -c Translators: -o $(TRANSLATIONS)/messages.pot .
	for lang in $(LANGUAGES); do \
		if [ -f $(TRANSLATIONS)/$$lang/LC_MESSAGES/messages.po ]; then \
			$(VENV)/bin/pybabel -q update --no-wrap -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $$lang; \
		else \
			$(VENV)/bin/pybabel -q init --no-wrap -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $$lang; \
		fi; \
	done
	$(VENV)/bin/pybabel compile --statistics -d $(TRANSLATIONS)

clean:
	rm -rf $(VENV)
