# Two commands for a fresh machine:  make run  (serve the app)  ·  make test  (every test)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python

.PHONY: run test lint translations constraints clean

# Installs repeat: every dependency at the version the suite last passed with
# (constraints.txt, renewed by `make constraints`).
$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m scorekeeper.cli serve

# One test process per core (pytest-xdist): the suite takes half the time on two cores.
test: $(VENV)/.installed
	$(PY) -m pytest -n auto

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check scorekeeper tests bench

# After changing UI text: extract, merge into the Polish catalog, translate, compile.
translations: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F scorekeeper/translations/babel.cfg -k N_ -k _l -o messages.pot .
	$(VENV)/bin/pybabel update -i messages.pot -d scorekeeper/translations
	$(VENV)/bin/pybabel compile -d scorekeeper/translations
	rm messages.pot

# Renew constraints.txt: the newest versions pyproject.toml allows, installed into a
# throwaway venv and written down; then `make test` checks the suite passes with them.
constraints:
	rm -rf .venv-constraints
	$(PYTHON) -m venv .venv-constraints
	.venv-constraints/bin/python -m pip install -q --upgrade pip
	.venv-constraints/bin/python -m pip install -q '.[test]'
	.venv-constraints/bin/python -m pip freeze --exclude-editable \
		| grep -v '^kierki-scorekeeper' > constraints.txt
	rm -rf .venv-constraints

clean:
	rm -rf $(VENV) build dist *.egg-info
