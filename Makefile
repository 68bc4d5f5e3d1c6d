# ztgate: `make up` runs the suite, `make test` runs the tests (every tier: what CI runs), `make check`
# the fast tier (lint, types, the unit tests that start nothing). They work on a fresh machine with
# only Python 3.11: they create .venv, install the hash-locked dependencies, and prepare models offline.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
EXTRAS ?= dev,inference

.PHONY: install models system-deps check lint types unit unit-redaction unit-rest unit-engine test eval up protos clean lock

# Every dependency at the version and hash of the locks (scripts/lock.py writes them from
# pyproject.toml's pins); then ztgate itself, editable. TORCH_INDEX: PyTorch's CPU index, for a
# machine whose pip has no mirror of torch's CPU build (the Dockerfile names it).
TORCH_INDEX ?=
LOCKS := requirements/lock.txt requirements/lock-overlay.txt requirements/models.txt \
         requirements/suffix-build.txt requirements/suffix.txt \
         $(if $(findstring dev,$(EXTRAS)),requirements/lock-dev.txt)

$(STAMP): pyproject.toml bench/pyproject.toml $(LOCKS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --no-deps --require-hashes $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX)) \
	  -r requirements/lock.txt $(if $(findstring dev,$(EXTRAS)),-r requirements/lock-dev.txt)
	$(BIN)/pip install -q --no-deps --require-hashes -r requirements/models.txt
	# xds-protos ships stale copies of opentelemetry/proto modules over opentelemetry-proto's own.
	$(BIN)/pip install -q --no-deps --require-hashes --force-reinstall -r requirements/lock-overlay.txt
	# Suffix decoding's tree (the primary's speculation): a C++ sdist built against this venv's torch
	# (requirements/suffix.txt says why without build isolation). Needs a C++20 compiler (g++ 10+).
	$(BIN)/pip install -q --no-deps --require-hashes -r requirements/suffix-build.txt
	CMAKE_ARGS="-DPython_EXECUTABLE=$(abspath $(BIN))/python3" \
	  $(BIN)/pip install -q --no-deps --no-build-isolation --require-hashes -r requirements/suffix.txt
	$(BIN)/pip install -q --no-deps -e .
	# The benchmarks and the golden gate: a distribution of their own (bench/), with the dev extras.
	$(if $(findstring dev,$(EXTRAS)),$(BIN)/pip install -q --no-deps -e bench)
	touch $(STAMP)

install: $(STAMP)

# The default model, converted once, offline, from the packaged GGUF.
models: install
	$(BIN)/ztgate models prepare

# Debian packages the tests use (Prometheus server and promtool; tmux, the real terminal `ztgate top`
# is driven in); installed when run as root.
system-deps:
	@command -v promtool >/dev/null && command -v prometheus >/dev/null && command -v tmux >/dev/null || \
	{ [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq --no-install-recommends prometheus tmux >/dev/null; } || \
	{ echo "the tests need Prometheus and tmux: apt-get install prometheus tmux" >&2; exit 1; }

# The fast tier (target: under two minutes once installed; the README has the time measured here;
# CONTRIBUTING.md "Tiers"): no engine, no server,
# no Envoy. tests/integration and tests/e2e are `slow` by their folder (tests/conftest.py).
# The unit tests run as two shards side by side (one per core of a small machine).
check: lint types
	$(MAKE) --no-print-directory -j2 unit-redaction unit-rest

lint: install
	$(BIN)/ruff check .

types: install
	$(BIN)/mypy

# The first shard: the tests on the real redaction service (its own and the gateway processor's,
# which compile the pattern tier once per shard); the benches' run in the other, which balances them.
UNIT_SHARD := tests/unit/redaction tests/unit/gateway/processor
unit: unit-redaction unit-rest

unit-redaction: install
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow and not engine" $(UNIT_SHARD)

unit-rest: install
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow and not engine" tests/unit $(addprefix --ignore=,$(UNIT_SHARD))

# The unit modules that load torch, vLLM or transformers (tests/conftest.py, ENGINE_UNIT_MODULES).
unit-engine: install
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "engine" tests/unit

test: install system-deps models
	$(BIN)/python -m pytest

# The golden gate (docs/golden.md): the quick set on a suite of its own; EVAL_ARGS=--full for the nightly set.
EVAL_OUT ?= eval-report
eval: install models
	$(BIN)/ztgate eval --out $(EVAL_OUT) $(EVAL_ARGS)

up: install models
	$(BIN)/ztgate up

# The hash locks again, after a pin in pyproject.toml changed (and `make install` took it).
lock: install
	$(BIN)/python scripts/lock.py

protos: install
	$(BIN)/python -m ztgate.common.protogen

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
