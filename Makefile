# Two commands for a fresh machine:  make run  (serve the app)  ·  make test  (every test)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python

.PHONY: run test lint translations clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m scorekeeper.cli serve

test: $(VENV)/.installed
	$(PY) -m pytest

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check scorekeeper tests bench

# After changing UI text: extract, merge into the Polish catalog, translate, compile.
translations: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F scorekeeper/translations/babel.cfg -k N_ -k _l -o messages.pot .
	$(VENV)/bin/pybabel update -i messages.pot -d scorekeeper/translations
	$(VENV)/bin/pybabel compile -d scorekeeper/translations
	rm messages.pot

clean:
	rm -rf $(VENV) build dist *.egg-info
