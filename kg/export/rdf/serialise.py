"""The RDF export written as text: N-Triples, Turtle and JSON-LD streamed from the sorted
triples, and the writers that put them in a file.

Writing from the stream, not through rdflib's serialisers, keeps memory flat and the output
byte-identical across runs.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, Union

import networkx as nx

from kg.export.rdf.iris import _INTEGER, _TYPE, _check_base, _namespaces
from kg.export.rdf.triples import _Lit, _triples, _unique
from kg.graphstore import SortedGraph
from kg.namespace import KG_BASE


# -------------------------------------------------------------------- N-Triples

# N-Triples STRING_LITERAL_QUOTE: '"', '\' and line breaks must be escaped. We
# also escape every other control character (ECHAR where one exists, else
# UCHAR) and U+0085, U+2028, U+2029, which str.splitlines() treats as breaks.
_ESCAPES = {i: f"\\u{i:04X}" for i in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}
_ESCAPES.update(
    {
        ord("\b"): "\\b",
        ord("\t"): "\\t",
        ord("\n"): "\\n",
        ord("\f"): "\\f",
        ord("\r"): "\\r",
        ord('"'): '\\"',
        ord("\\"): "\\\\",
    }
)


def _nt(term: str | _Lit) -> str:
    if isinstance(term, _Lit):
        text = term.text.translate(_ESCAPES)
        return f'"{text}"^^<{term.datatype}>' if term.datatype else f'"{text}"'
    return f"<{term}>"


def iter_ntriples(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as N-Triples lines (each ending in ``\\n``) without building a graph.

    The triples are those of :func:`to_rdf`, in the fixed order of the package docstring.
    """
    for s, p, o in _unique(_triples(graph, base)):
        yield f"<{s}> <{p}> {_nt(o)} .\n"


# ----------------------------------------------------------------------- Turtle

# A conservative subset of Turtle's PN_LOCAL: ASCII, no escapes, no final dot.
_PN_LOCAL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?")
_TURTLE_INTEGER = re.compile(r"[+-]?[0-9]+")


class _Compactor:
    """Writes IRIs as ``prefix:local`` where a bound namespace and a safe local name allow."""

    def __init__(self, namespaces: dict[str, str]) -> None:
        # longest namespace first, so the most specific prefix wins
        self._namespaces = sorted(namespaces.items(), key=lambda item: -len(item[1]))
        self._cache: dict[str, str | None] = {}

    def __call__(self, iri: str) -> str | None:
        if iri in self._cache:
            return self._cache[iri]
        name = None
        for prefix, namespace in self._namespaces:
            if iri.startswith(namespace):
                if _PN_LOCAL.fullmatch(local := iri[len(namespace) :]):
                    name = f"{prefix}:{local}"
                break
        if len(self._cache) < 65536:
            self._cache[iri] = name
        return name


def iter_turtle(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as Turtle, streamed: one block per subject, readable prefixes.

    The triples are those of :func:`to_rdf`; writing them from the sorted stream
    (rather than through rdflib's serialiser, some 40 times slower on large
    graphs) keeps memory flat and the output byte-identical across runs.
    """
    base = _check_base(base)
    yield from turtle_prefixes(base)
    yield from turtle_body(graph, base)


def turtle_prefixes(base: str = KG_BASE) -> Iterator[str]:
    """The ``@prefix`` lines that start the Turtle export."""
    for prefix, namespace in sorted(_namespaces(_check_base(base)).items()):
        yield f"@prefix {prefix}: <{namespace}> .\n"


def turtle_body(graph: nx.MultiDiGraph | SortedGraph, base: str = KG_BASE) -> Iterator[str]:
    """The Turtle export after its prefixes: one block per subject. The body of a graph is the
    bodies of consecutive ranges of its nodes, one after the other (:mod:`kg.cluster` writes
    them apart), as no subject's triples span two nodes (:func:`_triples`)."""
    base = _check_base(base)
    compact = _Compactor(_namespaces(base))

    def iri(value: str) -> str:
        return compact(value) or f"<{value}>"

    def obj(term: str | _Lit) -> str:
        if not isinstance(term, _Lit):
            return iri(term)
        text = f'"{term.text.translate(_ESCAPES)}"'
        if term.datatype is None:
            return text
        if term.datatype == _INTEGER and _TURTLE_INTEGER.fullmatch(term.text):
            return term.text
        return f"{text}^^{iri(term.datatype)}"

    subject = predicate = None
    for s, p, o in _unique(_triples(graph, base)):
        if s != subject:
            if subject is not None:
                yield " .\n"
            subject, predicate = s, p
            yield f"\n{iri(s)}\n    {'a' if p == _TYPE else iri(p)} {obj(o)}"
        elif p != predicate:
            predicate = p
            yield f" ;\n    {'a' if p == _TYPE else iri(p)} {obj(o)}"
        else:
            yield f",\n        {obj(o)}"
    if subject is not None:
        yield " .\n"


# ---------------------------------------------------------------------- JSON-LD


def iter_jsonld(graph: nx.MultiDiGraph, base: str = KG_BASE) -> Iterator[str]:
    """Yield the export as a JSON-LD document, streamed: one node object per subject.

    The context maps the prefixes of :func:`iter_turtle`; IRIs are compacted
    with them, strings are JSON strings, integers JSON numbers.
    """
    base = _check_base(base)
    namespaces = _namespaces(base)
    compact = _Compactor(namespaces)

    def iri(value: str) -> str:
        return compact(value) or value

    def value(term: str | _Lit) -> Any:
        if not isinstance(term, _Lit):
            return {"@id": iri(term)}
        if term.datatype is None:
            return term.text
        if term.datatype == _INTEGER and _TURTLE_INTEGER.fullmatch(term.text):
            number = int(term.text)
            if abs(number) < 10**21:  # JSON-LD reads larger numbers as xsd:double
                return number
        return {"@value": term.text, "@type": iri(term.datatype)}

    def dump(node: dict[str, Any]) -> str:
        for key, values in node.items():
            if isinstance(values, list) and len(values) == 1:
                node[key] = values[0]
        text = json.dumps(node, ensure_ascii=False, indent=2)
        return "    " + text.replace("\n", "\n    ")

    context = json.dumps(dict(sorted(namespaces.items())), ensure_ascii=False, indent=2)
    yield '{\n  "@context": ' + context.replace("\n", "\n  ") + ',\n  "@graph": ['
    node: dict[str, Any] | None = None
    subject, separator = None, "\n"
    for s, p, o in _unique(_triples(graph, base)):
        if s != subject:
            if node is not None:
                yield separator + dump(node)
                separator = ",\n"
            subject, node = s, {"@id": iri(s)}
        if p == _TYPE and isinstance(o, str):
            node.setdefault("@type", []).append(iri(o))
        else:
            node.setdefault(iri(p), []).append(value(o))
    if node is not None:
        yield separator + dump(node)
    yield "\n  ]\n}\n"


# ---------------------------------------------------------------------- writers

PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def _write(chunks: Iterable[str], destination: PathOrFile) -> None:
    """Write text chunks as UTF-8 to a path (atomically), a text file or a binary file."""
    if isinstance(destination, (str, os.PathLike)):
        from kg.builddir import atomic_open

        with atomic_open(destination, "wb") as out:  # a hidden .part, renamed when complete
            for chunk in chunks:
                out.write(chunk.encode("utf-8"))
    elif isinstance(destination, io.TextIOBase):
        destination.writelines(chunks)
    else:
        for chunk in chunks:
            destination.write(chunk.encode("utf-8"))  # type: ignore[arg-type]


def _batched(lines: Iterator[str], size: int = 4096) -> Iterator[str]:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield "".join(batch)
            batch.clear()
    if batch:
        yield "".join(batch)


def write_ntriples(graph: nx.MultiDiGraph, path_or_file: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as N-Triples (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_ntriples(graph, base)), path_or_file)


def write_turtle(graph: nx.MultiDiGraph, path: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as Turtle (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_turtle(graph, base)), path)


def write_turtle_parts(bodies: Iterable[str], path: PathOrFile, base: str = KG_BASE) -> None:
    """The Turtle export from the :func:`turtle_body` texts of consecutive ranges of a graph's
    nodes (written apart, :mod:`kg.cluster`): byte for byte what :func:`write_turtle` writes."""
    _write(itertools.chain(turtle_prefixes(base), bodies), path)


def write_jsonld(graph: nx.MultiDiGraph, path: PathOrFile, base: str = KG_BASE) -> None:
    """Stream the export as JSON-LD (UTF-8) to a path or an open text or binary file."""
    _write(_batched(iter_jsonld(graph, base)), path)
