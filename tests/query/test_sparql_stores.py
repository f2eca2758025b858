"""The example graph's Turtle in independent tools: rapper parses it, Virtuoso loads and queries it.

Virtuoso (Debian's ``virtuoso-opensource``, ``scripts/install-system-deps.sh``)
is started on free loopback ports with a temporary ``virtuoso.ini``, loads
``graph.ttl`` with ``DB.DBA.TTLP_MT`` and is queried over its own SPARQL
endpoint with SPARQLWrapper; its answers must equal pyoxigraph's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter

import pytest
import sparql_helpers as fixtures  # tests/sparql_helpers.py (pytest pythonpath)
from SPARQLWrapper import JSON, POST, SPARQLWrapper

from kg.query import sparql

GRAPH = "urn:kg:example"
RAPPER = shutil.which("rapper")


@pytest.fixture(scope="module")
def virtuoso(build_dir, tmp_path_factory):
    if fixtures.VIRTUOSO is None or fixtures.ISQL is None:
        pytest.skip("Debian's virtuoso-opensource is not installed (scripts/install-system-deps.sh)")
    directory = tmp_path_factory.mktemp("virtuoso")
    shutil.copy(build_dir / "graph.ttl", directory / "graph.ttl")
    server = fixtures.start_virtuoso(directory)
    try:
        server.isql(
            f"DB.DBA.TTLP_MT(file_to_string_output('{directory}/graph.ttl'), '', '{GRAPH}', 0, 0);"
        )
        yield server
    finally:
        server.stop()


def ask_virtuoso(server, query: str) -> dict:
    client = SPARQLWrapper(server.sparql_url)
    client.setQuery(query)
    client.setReturnFormat(JSON)
    client.setMethod(POST)
    client.addParameter("default-graph-uri", GRAPH)
    client.setTimeout(60)
    return client.query().convert()


def rows(data: dict, variables) -> Counter:
    return Counter(
        tuple(b[v]["value"] if v in b else None for v in variables)
        for b in data["results"]["bindings"]
    )


def oxigraph_rows(store, query: str):
    result = sparql.query(store, query)
    return result.variables, Counter(
        tuple(None if t is None else t.value for t in row) for row in result.rows
    )


@pytest.mark.skipif(RAPPER is None, reason="rapper (Debian raptor2-utils) is not installed")
def test_rapper_parses_the_example_turtle(build_dir, store):
    done = subprocess.run([RAPPER, "-i", "turtle", "-c", str(build_dir / "graph.ttl")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert int(re.search(r"returned (\d+) triples", done.stderr).group(1)) == len(store)


def test_virtuoso_loads_the_same_triples(virtuoso, store):
    total = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    data = ask_virtuoso(virtuoso, total)
    assert int(data["results"]["bindings"][0]["n"]["value"]) == len(store) > 3000
    per_predicate = "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p"
    assert rows(ask_virtuoso(virtuoso, per_predicate), ["p", "n"]) == oxigraph_rows(store, per_predicate)[1]
    literals = "SELECT ?s ?o WHERE { ?s <http://purl.org/dc/terms/abstract> ?o }"
    assert rows(ask_virtuoso(virtuoso, literals), ["s", "o"]) == oxigraph_rows(store, literals)[1]


@pytest.mark.parametrize(
    "example",
    [
        "top_benchmarks", "top_tasks", "papers_by_venue_year",
        "code_for_dataset", "evaluated_on_one_not_other", "proposals_compared_with",
        "relation_evidence", "results_on_dataset", "catalogue_links",
    ],
)
def test_virtuoso_answers_examples_like_oxigraph(virtuoso, store, example):
    text = sparql.get_example(example).text
    variables, expected = oxigraph_rows(store, text)
    got = rows(ask_virtuoso(virtuoso, text), variables)
    assert got == expected
    assert sum(got.values()) > 0
