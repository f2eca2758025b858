"""Every file format the graph is written in, in one registry: a format name or a file suffix
gives its :class:`GraphWriter`, and every writer is called the same way,
``writer.write(graph, path, **options)``.

``kg build`` writes the formats of :data:`BUILD_FORMATS` (named as in
:data:`kg.builddir.OUTPUT_FILES`), ``kg export file`` any of them, ``kg export rdf``
those of :data:`RDF_FORMATS`. ``graph`` is a ``networkx.MultiDiGraph`` or a
:class:`~kg.graphstore.SortedGraph` (a build's store); the modules that do the writing
are imported only when a file of theirs is written, so a build without Turtle never
imports the RDF code.

A path's format is that of the first writer, in registry order, whose suffix ends its
name: ``.json`` is node-link JSON, unless only RDF formats are allowed (``among``), where
it is JSON-LD.

Examples
--------
>>> writer_for(path="out/graph.ttl").name
'turtle'
>>> writer_for(path="graph.json").name, writer_for(path="graph.json", among=RDF_FORMATS).name
('node_link', 'jsonld')
>>> writer_for("gexf").suffixes
('.gexf',)
>>> writer_for(path="graph.xlsx")
Traceback (most recent call last):
...
ValueError: no format for graph.xlsx: known formats are node_link (.json), graphml (.graphml), \
turtle (.ttl), ntriples (.nt), jsonld (.jsonld), gexf (.gexf), results (results.csv, .csv)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg.builddir import OUTPUT_FILES

__all__ = [
    "BUILD_FORMATS", "RDF_FORMATS", "WRITERS", "GraphWriter", "describe_formats", "write_graph", "writer_for",
]


@dataclass(frozen=True)
class GraphWriter:
    """One file format: its name, the endings of the file names it is chosen for, and
    ``write(graph, path, **options)``, which takes the keyword ``options`` named here."""

    name: str
    suffixes: tuple[str, ...]
    write: Callable[..., None]
    options: tuple[str, ...] = ()
    summary: str = ""

    def matches(self, path: str | os.PathLike[str]) -> bool:
        """``path``'s name ends with one of :attr:`suffixes` (case aside)."""
        name = Path(path).name.lower()
        return any(name.endswith(suffix) for suffix in self.suffixes)

    def pick(self, **options: Any) -> dict[str, Any]:
        """Those of ``options`` this writer takes (the build offers ``base`` to every writer)."""
        return {key: value for key, value in options.items() if key in self.options}


def _node_link(graph, path) -> None:
    from kg.export.files import write_node_link

    write_node_link(graph, path)


def _graphml(graph, path) -> None:
    from kg.export.files import write_graphml

    write_graphml(graph, path)


def _rdf(function: str) -> Callable[..., None]:
    """The writer of ``kg.export.rdf.<function>``; ``base=None`` is its default base IRI."""

    def write(graph, path, *, base: str | None = None) -> None:
        from kg.export import rdf

        getattr(rdf, function)(graph, path, **({"base": base} if base else {}))

    return write


def _gexf(graph, path, *, positions: dict | None = None, colours: dict | None = None) -> None:
    from kg.export.gexf import write_gexf

    write_gexf(_networkx(graph), path, positions=positions, colours=colours)


def _results(graph, path) -> None:
    from kg.analyse.leaderboard import write_results_csv

    write_results_csv(graph, path)


def _networkx(graph):
    """A networkx graph as it is; a store's graph read into one."""
    import networkx as nx

    if isinstance(graph, nx.Graph):
        return graph
    whole = nx.MultiDiGraph()
    whole.add_nodes_from(graph.nodes())
    whole.add_edges_from(graph.edges())
    return whole


#: Every format, in the order a file name is matched against their suffixes.
WRITERS: dict[str, GraphWriter] = {writer.name: writer for writer in (
    GraphWriter("node_link", (".json",), _node_link, summary="node-link JSON, as networkx reads it"),
    GraphWriter("graphml", (".graphml",), _graphml, summary="GraphML for Gephi, yEd, Cytoscape"),
    GraphWriter("turtle", (".ttl",), _rdf("write_turtle"), ("base",), "RDF Turtle on the kg ontology"),
    GraphWriter("ntriples", (".nt",), _rdf("write_ntriples"), ("base",), "RDF N-Triples"),
    GraphWriter("jsonld", (".jsonld", ".json"), _rdf("write_jsonld"), ("base",), "RDF JSON-LD"),
    GraphWriter("gexf", (".gexf",), _gexf, ("positions", "colours"), "GEXF 1.2 for Gephi"),
    GraphWriter("results", ("results.csv", ".csv"), _results, summary="one row per numeric result"),
)}
#: The RDF formats (``kg export rdf``).
RDF_FORMATS = ("turtle", "ntriples", "jsonld")
#: The graph files ``kg build`` writes, in the order it writes them.
BUILD_FORMATS = tuple(kind for kind in OUTPUT_FILES if kind in WRITERS)


def writer_for(fmt: str | None = None, path: str | os.PathLike[str] | None = None,
               among: Iterable[str] | None = None) -> GraphWriter:
    """The writer of format ``fmt``, else the one ``path``'s suffix gives, of the formats
    ``among`` (default: all). A ValueError, listing the formats, when there is none."""
    names = tuple(WRITERS if among is None else among)
    allowed = [WRITERS[name] for name in names]
    if fmt is not None:
        found = next((writer for writer in allowed if writer.name == fmt), None)
        why = f"unknown format {fmt!r}"
    elif path is not None:
        found = next((writer for writer in allowed if writer.matches(path)), None)
        why = f"no format for {Path(path).name}"
    else:
        raise ValueError("give a format or a path")
    if found is None:
        raise ValueError(f"{why}: known formats are {describe_formats(names)}")
    return found


def describe_formats(among: Iterable[str] | None = None) -> str:
    """The formats ``among`` (default: all), each with the suffixes that choose it there:
    ``node_link (.json), graphml (.graphml), ...``."""
    described, taken = [], set()
    for name in WRITERS if among is None else among:
        suffixes = [suffix for suffix in WRITERS[name].suffixes if suffix not in taken]
        taken.update(suffixes)
        described.append(f"{name} ({', '.join(suffixes)})" if suffixes else name)
    return ", ".join(described)


def write_graph(graph: Any, path: str | os.PathLike[str], fmt: str | None = None, **options: Any) -> GraphWriter:
    """Write ``graph`` to ``path`` in format ``fmt`` (default: from the suffix); returns the writer used.

    ``options`` are the writer's (:attr:`GraphWriter.options`); one it does not take is a TypeError.
    """
    writer = writer_for(fmt, path)
    unknown = sorted(set(options) - set(writer.options))
    if unknown:
        takes = ", ".join(writer.options) or "none"
        raise TypeError(f"the {writer.name} writer takes no option {', '.join(unknown)} (its options: {takes})")
    writer.write(graph, path, **options)
    return writer
