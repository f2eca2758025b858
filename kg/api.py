"""The Python API: build, read and query graphs from a notebook or a script, no files needed.

Each function is a thin layer over what ``kg build`` and ``kg query`` run
(:func:`kg.build.build`, :mod:`kg.query.sparql`, :mod:`kg.query.cypher`), so a graph
built here is the graph the command builds from the same papers.

What ``source`` can be, for :func:`build_graph`, :func:`extract_papers`, :func:`build_in_memory`
and :func:`write_build`:

* a list of dicts, one per paper (``{"title": ..., "abstract": ...}``; every field name
  the file readers accept, ``docs/inputs.md``);
* a list of strings, each an abstract;
* a table with ``to_dict("records")``, such as a pandas DataFrame (empty cells left out);
* a path (``str`` or :class:`pathlib.Path`) or a list of :class:`pathlib.Path`: files,
  directories or globs, read as ``kg build`` reads them. A list of ``str`` is a list of
  abstracts, never of paths.

Examples
--------
>>> import kg
>>> graph = kg.build_graph([{"title": "Zorbnet", "abstract": "We propose Zorbnet, a novel "
...                          "method for node classification, evaluated on MNIST."}])
>>> sorted(d["name"] for _, d in graph.nodes(data=True) if d["label"] in ("Method", "Dataset"))
['MNIST', 'Zorbnet']
>>> kg.sparql(graph, "SELECT (COUNT(*) AS ?papers) WHERE { ?p a kgo:Paper }").records()
[{'papers': 1}]
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from kg.builddir import BuildDir
from kg.types import ReadIssue

__all__ = ["BuildResult", "build_graph", "build_in_memory", "cypher", "extract_papers", "read_graph",
           "sparql", "write_build"]

GraphSource = nx.MultiDiGraph | str | os.PathLike


@dataclass
class BuildResult:
    """What :func:`build_in_memory` gives: the graph, the per-paper records (the lines of
    ``papers.jsonl``, docs/papers-jsonl.md) and the records that were skipped, with why."""

    graph: nx.MultiDiGraph
    papers: list[dict]
    skipped: list[ReadIssue] = field(default_factory=list)


def build_in_memory(source: Any, *, config: str | Path | None = None, workers: int = 1,
                    on_error: str = "skip", fmt: str | None = None) -> BuildResult:
    """Build the graph of ``source`` (see the module) without writing a build directory.

    ``config``: another spaCy pipeline config; ``workers``: extraction processes;
    ``on_error``: ``"skip"`` a record that cannot be read (listed in ``skipped``) or
    ``"fail"`` (:class:`kg.build.BuildError`); ``fmt``: the format of files given as paths.
    A source that gives no paper at all raises :class:`kg.build.BuildError`.
    """
    with tempfile.TemporaryDirectory(prefix="kg-api-") as tmp:
        target = BuildDir(tmp).papers
        return _build(source, None, dict(config=config, workers=workers, on_error=on_error, fmt=fmt,
                                         cache=False, outputs={"papers"}, papers_path=target), target)


def write_build(source: Any, outdir: str | os.PathLike, *, config: str | Path | None = None,
                workers: int = 1, on_error: str = "skip", fmt: str | None = None) -> BuildResult:
    """Build ``source`` into the directory ``outdir``, as ``kg build SOURCE -o BUILD_DIR`` does (every
    file, the extraction cache, atomic replacement); returns what :func:`build_in_memory` does."""
    outdir = Path(outdir)
    return _build(source, outdir, dict(config=config, workers=workers, on_error=on_error, fmt=fmt),
                  BuildDir(outdir).papers)


def _build(source: Any, outdir: Path | None, options: dict, papers_file: Path) -> BuildResult:
    import json

    from kg.build import build

    inputs, papers = _inputs(source)
    report = build(inputs, outdir, papers=papers, **options)
    with papers_file.open(encoding="utf-8") as lines:  # the records as papers.jsonl holds them
        records = [json.loads(line) for line in lines]
    return BuildResult(report.graph, records, list(report.skipped))


def build_graph(source: Any, **options: Any) -> nx.MultiDiGraph:
    """The knowledge graph of ``source`` (see the module), as ``kg build`` assembles it
    (docs/graph-schema.md). ``options`` as :func:`build_in_memory`."""
    return build_in_memory(source, **options).graph


def extract_papers(source: Any, **options: Any) -> list[dict]:
    """The per-paper records of ``source``: entities with mentions, relations with evidence,
    results, code URLs (the lines of ``papers.jsonl``). ``options`` as :func:`build_in_memory`."""
    return build_in_memory(source, **options).papers


def read_graph(build_dir: str | os.PathLike) -> nx.MultiDiGraph:
    """The graph of a ``kg build`` directory (or of a node-link ``graph.json``).

    Raises FileNotFoundError when there is no graph, ValueError when the directory holds a
    build that did not finish (no ``summary.json``)."""
    build = BuildDir(build_dir)
    build.check_complete()
    return build.read_graph()


def sparql(graph: GraphSource, query: str):
    """Run a read-only SPARQL query on a graph (in memory) or a build directory (its
    ``graph.ttl``); returns a :class:`kg.query.sparql.QueryResult` (``.records()``: rows as
    dicts; ``.boolean`` for ASK). kg's prefixes (``kgo:``, ``rdfs:``, ...) are declared.
    Needs the ``sparql`` extra."""
    from kg.query.sparql import load_store, query as run_query, store_from_graph

    store = store_from_graph(graph) if isinstance(graph, nx.Graph) else load_store(graph)
    return run_query(store, query)


def cypher(graph: GraphSource, query: str, params: Mapping[str, Any] | None = None) -> list[dict]:
    """Run a read-only Cypher query on a graph or a build directory in an embedded FalkorDB
    (started and stopped here); returns the rows as dicts. Labels, types and properties are
    those of the Neo4j export. Needs the ``cypher`` extra."""
    from kg.query.cypher import run_cypher

    columns, rows = run_cypher(read_graph(graph) if not isinstance(graph, nx.Graph) else graph,
                               query, params)
    return [dict(zip(columns, row)) for row in rows]


def _inputs(source: Any) -> tuple[list, Iterable | None]:
    """``(paths, None)`` for files; ``([], papers)`` for records, strings and tables."""
    from kg.ingest.records import read_records, table_records

    if isinstance(source, (str, os.PathLike)):
        return [source], None
    if hasattr(source, "to_dict") and not isinstance(source, Mapping):
        return [], read_records(table_records(source))
    if isinstance(source, Mapping):
        raise TypeError("build from a list of records: [record], not a single dict")
    items = list(source)
    if items and all(isinstance(item, os.PathLike) for item in items):
        return items, None
    return [], read_records(items)
