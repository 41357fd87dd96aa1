# Scorekeeper: `make run` serves the app on the home network, `make test` checks everything.

PYTHON ?= python3
VENV = .venv
PORT ?= 5000

.PHONY: run test format clean

$(VENV)/.installed: pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/flask --app scorekeeper db upgrade
	PORT=$(PORT) $(VENV)/bin/python -m scorekeeper.serve

test: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest

format: $(VENV)/.installed-test
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV)
