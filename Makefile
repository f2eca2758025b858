# Two entry points for a fresh machine: `make example` and `make test`.
# Each installs what it needs first (a virtualenv in .venv; Debian packages for the tests).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: example test check-install check-lowest system-deps neo4j clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

## Build the knowledge graph of the example abstracts into out/ (no server needed).
example: $(VENV)/.installed
	$(BIN)/kg build examples/iclr2025 -o out

## Debian packages the tests use (independent RDF parser, headless browser, Java and Maven for Neo4j, ...).
system-deps:
	bash scripts/install-system-deps.sh

## The Neo4j 5 Community jars the tests run (tests/neo4j_server/pom.xml), resolved by Maven
## into ~/.m2: downloaded when missing, reused when there.
neo4j: $(VENV)/.installed system-deps
	$(BIN)/python tests/neo4j_server install

## Run the linter and the whole test suite (installs everything first).
test: $(VENV)/.installed system-deps neo4j
	$(BIN)/ruff check kg tests scripts benchmarks
	$(BIN)/pytest

## The wheel under 10 MB; a fresh venv with no extras builds the examples (CI).
check-install:
	PYTHON=$(PYTHON) bash scripts/check-install.sh

## The lowest declared dependency versions pass a smoke subset of the tests (CI; ~6 min).
check-lowest:
	PYTHON=$(PYTHON) bash scripts/check-lowest.sh

clean:
	rm -rf $(VENV) out .pytest_cache
