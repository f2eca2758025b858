"""SPARQL over a built graph with an embedded Oxigraph store (``pyoxigraph``).

A graph built by ``kg build`` is queried from its ``graph.ttl`` (the RDF export
of ``kg.export.rdf``, vocabulary in ``ontology/``)::

    store = load_store("out")                  # out/graph.ttl, cached in out/.oxigraph/
    result = query(store, "SELECT ...")        # a typed QueryResult
    write_results(store, "SELECT ...", sys.stdout.buffer, "csv")   # streamed

Loading, measured on a synthetic graph of 1,002,505 triples (2 cores,
``benchmarks/rdf_bench.py``, figures in ``docs/sparql.md``): parsing
``graph.ttl`` into an in-memory store takes 4.1 s; :func:`store_from_graph`
(the N-Triples stream of ``kg.export.rdf``, no file) takes 8.9 s, most of it
spent generating N-Triples text in Python, so the file is the fast path.
Opening an on-disk store takes 0.03 s. So a ``graph.ttl`` of
:data:`CACHE_MIN_BYTES` or more is cached on disk once (12 s, in
``BUILD_DIR/.oxigraph/``, keyed by the file's name, size and mtime and the
Oxigraph version) and later queries open the cache instead of parsing again.
Smaller files load faster than a cache opens (8 ms against 22 ms for the
5k-triple example graph) and are not cached. ``kg serve`` reads the same cache
when its Oxigraph version matches.

Safety: :func:`check_query` refuses updates and ``SERVICE`` (Oxigraph would
fetch any HTTP URL named there) before a query reaches the engine; the
embedded store is in memory or opened read-only, so nothing can change the
built files. ``FROM <file:...>`` names a graph in the store and never reads
a file.

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("venue:iclr", label="Venue", name="ICLR")
>>> store = store_from_graph(g)
>>> result = query(store, "SELECT ?name WHERE { ?v a <https://w3id.org/kg/ontology#Venue> ; "
...                       "<http://www.w3.org/2000/01/rdf-schema#label> ?name }")
>>> result.records()
[{'name': 'ICLR'}]
>>> query_form("PREFIX x: <http://x/> ASK { ?s ?p ?o }")
'ASK'
>>> check_query("INSERT DATA { <http://a> <http://b> <http://c> }")
Traceback (most recent call last):
...
kg.query.sparql.QueryRefused: updates are refused: this store is read-only (INSERT)
"""

from __future__ import annotations

import io
import os
import re
import shutil
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

import pyoxigraph as ox

from kg.builddir import OUTPUT_FILES, STORE_CACHE_DIR, BuildDir
from kg.export.files import process_dir

__all__ = [
    "GRAPH_FILE",
    "CACHE_DIR",
    "CACHE_MIN_BYTES",
    "RESULT_FORMATS",
    "GRAPH_FORMATS",
    "SparqlError",
    "QueryRefused",
    "QueryResult",
    "Example",
    "check_query",
    "query_form",
    "graph_file",
    "store_dir",
    "load_store",
    "store_from_graph",
    "query",
    "write_results",
    "to_python",
    "compact_iri",
    "format_table",
    "examples",
    "get_example",
]

GRAPH_FILE = OUTPUT_FILES["turtle"]
"""The file of a build directory that is queried (:class:`kg.builddir.BuildDir`)."""

CACHE_DIR = STORE_CACHE_DIR
"""Where on-disk stores are cached, inside the build directory."""

CACHE_MIN_BYTES = 8 * 1024 * 1024
"""Graph files at least this large are cached on disk (about 150k triples of Turtle)."""

RESULT_FORMATS: dict[str, ox.QueryResultsFormat] = {
    "json": ox.QueryResultsFormat.JSON,
    "csv": ox.QueryResultsFormat.CSV,
    "tsv": ox.QueryResultsFormat.TSV,
    "xml": ox.QueryResultsFormat.XML,
}
"""Formats of SELECT and ASK results (SPARQL 1.1 Query Results JSON, CSV, TSV, XML)."""

GRAPH_FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
}
"""Formats of CONSTRUCT and DESCRIBE results."""

_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGERS = {
    _XSD + name
    for name in (
        "integer",
        "int",
        "long",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "nonPositiveInteger",
        "negativeInteger",
        "unsignedInt",
        "unsignedLong",
        "unsignedShort",
        "unsignedByte",
        "gYear",
    )
}
_FLOATS = {_XSD + "double", _XSD + "float"}


class SparqlError(ValueError):
    """A query that cannot be run: a syntax error, or an error while evaluating it."""


class QueryRefused(SparqlError):
    """A query kg will not run: an update, or ``SERVICE`` (a request to another server)."""


# ------------------------------------------------------------------ checking

# SPARQL tokens that can hide keywords: IRIs, strings, comments. Everything else
# is split into words; a keyword is a word equal to it (case-insensitive), so
# ``?service``, ``ex:service`` and ``"service"`` are not the SERVICE keyword.
_TOKEN = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<comment>\#[^\n\r]*)
    | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
               | '''(?:[^'\\]|\\.|'(?!''))*'''
               | "(?:[^"\\\n\r]|\\.)*"
               | '(?:[^'\\\n\r]|\\.)*')
    | (?P<var>[?$][^\s{}()\[\];,.<>"'\#=!&|+*/^?$@\\]*)
    | (?P<word>(?:[^\s{}()\[\];,<>"'\#=!&|+*/^?$@\\]|\\.)+)
    | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_UCHAR = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_FORMS = ("SELECT", "CONSTRUCT", "DESCRIBE", "ASK")
_UPDATES = ("INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH")


def _words(text: str) -> Iterator[str]:
    """The upper-cased words of a query, outside IRIs, strings and comments."""
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "word":
            yield match.group().upper()


def _unescape(text: str) -> str:
    """SPARQL applies ``\\uXXXX`` escapes to the whole query text before parsing it."""

    def char(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"

    return _UCHAR.sub(char, text)


def query_form(text: str) -> str | None:
    """The first keyword after the prologue: ``SELECT``, ``ASK``, ``INSERT``... (``None`` if none)."""
    words = _words(text)
    for word in words:
        if word == "PREFIX":
            next(words, None)  # the prefix name; the IRI after it is not a word
        elif word != "BASE":
            return word
    return None


def check_query(text: str, *, allow_service: bool = False) -> str:
    """Refuse updates and ``SERVICE``; return the query form (``SELECT``, ``ASK``...).

    ``SERVICE`` makes the engine fetch from another server, so it is refused
    wherever it appears. A query that contains the letters ``service`` at all
    (in any case, after ``\\u`` escapes) is decided on its parse tree:
    rdflib's SPARQL parser must read it, and the tree must hold no ``SERVICE``
    pattern; a query it cannot read is refused rather than trusted. The
    lexical check on keywords runs as well, so both must miss a ``SERVICE``
    for one to pass. Syntax errors in other queries are left to the engine.

    >>> check_query("SELECT * WHERE { ?service ?p 'SERVICE' } # SERVICE")
    'SELECT'
    >>> check_query("SELECT * WHERE { SERVIC\\u0045 <http://h/> { ?s ?p ?o } }")
    Traceback (most recent call last):
    ...
    kg.query.sparql.QueryRefused: SERVICE (federated query) is disabled: kg does not query other servers
    >>> check_query(r"PREFIX e: <http://e/> SELECT * { BIND(e:a\\# AS ?q) SERVICE <http://h/> { } }")
    Traceback (most recent call last):
    ...
    kg.query.sparql.QueryRefused: SERVICE (federated query) is disabled: kg does not query other servers
    """
    form = None
    variants = _variants(text)
    for variant in variants:
        first = query_form(variant)
        if first in _UPDATES:
            raise QueryRefused(f"updates are refused: this store is read-only ({first})")
        if not allow_service and "SERVICE" in _words(variant):
            raise QueryRefused(_NO_SERVICE)
        form = form or first
    if not allow_service and any(_mentions_service(v) for v in variants):
        _refuse_service_in_parse_tree(text)
    return form if form in _FORMS else (form or "")


_NO_SERVICE = "SERVICE (federated query) is disabled: kg does not query other servers"


def _variants(text: str) -> list[str]:
    """The text and its ``\\u``-unescaped forms (applied until nothing changes), so an escape
    cannot hide a keyword whether the engine unescapes once or not at all."""
    variants = [text]
    for _ in range(4):
        unescaped = _unescape(variants[-1])
        if unescaped == variants[-1]:
            break
        variants.append(unescaped)
    return variants


def _mentions_service(text: str) -> bool:
    """The letters of ``service`` anywhere, under ASCII and Unicode case folding."""
    return "service" in text.lower() or "service" in unicodedata.normalize("NFKC", text).casefold()


def _refuse_service_in_parse_tree(text: str) -> None:
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    try:
        tree = parseQuery(text)
    except Exception as error:  # pyparsing's errors, and rdflib's own on odd input
        raise QueryRefused(
            "this query mentions 'service' and kg could not parse it to check that it makes "
            f"no SERVICE call, so it is refused ({str(error).splitlines()[0][:200]})"
        ) from None
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CompValue):
            if node.name == "ServiceGraphPattern":
                raise QueryRefused(_NO_SERVICE)
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)) or hasattr(node, "as_list"):
            stack.extend(node)


# ------------------------------------------------------------------- loading


#: The RDF files kg reads, by extension (Oxigraph alone would take a .txt as N-Triples).
RDF_FILES = {".ttl": ox.RdfFormat.TURTLE, ".nt": ox.RdfFormat.N_TRIPLES}


def graph_file(path: str | os.PathLike[str]) -> Path:
    """The RDF file to load: ``path`` itself (``.ttl`` or ``.nt``), or ``path/graph.ttl`` for a
    build directory. Raises FileNotFoundError naming what to do when there is none."""
    path = Path(path)
    target = BuildDir(path).rdf_file()
    if not target.is_file():
        hint = f" (run `kg build ... -o {path}` first)" if path.is_dir() else ""
        raise FileNotFoundError(f"no RDF graph at {target}{hint}")
    if target.suffix.lower() not in RDF_FILES:
        raise FileNotFoundError(
            f"{target} is not an RDF file kg reads ({', '.join(RDF_FILES)}); give a build directory "
            "or its graph.ttl"
        )
    return target


def _rdf_format(path: Path) -> ox.RdfFormat:
    return RDF_FILES[path.suffix.lower()]


def store_dir(path: str | os.PathLike[str], version: str = ox.__version__) -> Path:
    """The cache directory of an on-disk store of ``path``'s graph for an Oxigraph ``version``.

    ``<dir of graph.ttl>/.oxigraph/<file name>-<version>-<size>-<mtime ns>``: a
    rebuilt ``graph.ttl`` (new size or mtime) or another Oxigraph gets its own.
    """
    source = graph_file(path)
    stat = source.stat()
    key = f"{source.name}-{version}-{stat.st_size}-{stat.st_mtime_ns}"
    return source.parent / CACHE_DIR / key


def _remove_stale(cache: Path) -> None:
    """Remove older caches of the same file and version (best effort)."""
    prefix = cache.name.rsplit("-", 2)[0] + "-"
    for old in cache.parent.glob(prefix + "*"):
        if old != cache and old.is_dir() and not old.name.startswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)


def publish_store_dir(tmp: Path, cache: Path) -> Path:
    """Move a complete store from ``tmp`` to ``cache`` (atomic rename; first one wins)."""
    try:
        os.rename(tmp, cache)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not cache.is_dir():
            raise
    _remove_stale(cache)
    return cache


def load_store(path: str | os.PathLike[str], *, cache: bool | None = None) -> ox.Store:
    """A store holding the graph of a build directory (its ``graph.ttl``) or of an RDF file.

    Parameters
    ----------
    path
        A build directory, or a ``.ttl`` / ``.nt`` file.
    cache
        ``None`` (default): use an on-disk cache for files of at least
        :data:`CACHE_MIN_BYTES`; ``True``: always; ``False``: never (and
        leave no files). The cache is read-only once written; if it cannot
        be written (a read-only directory), the graph is loaded in memory.
    """
    source = graph_file(path)
    if cache is None:
        cache = source.stat().st_size >= CACHE_MIN_BYTES
    fmt = _rdf_format(source)
    if not cache:
        store = ox.Store()
        _load(store, source, fmt)
        return store
    target = store_dir(source)
    if target.is_dir():
        try:
            return ox.Store.read_only(str(target))
        except OSError:
            pass  # unreadable cache: load the file instead
    store = ox.Store()
    _load(store, source, fmt)
    try:
        target.parent.mkdir(exist_ok=True)
        tmp = process_dir(target.parent, ".tmp-")  # a killed writer's is removed next time
        try:
            disk = ox.Store(str(tmp))
            disk.bulk_extend(store.quads_for_pattern(None, None, None))
            disk.flush()
            del disk
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        publish_store_dir(tmp, target)
    except OSError:
        pass  # no cache; the in-memory store answers
    return store


def _load(store: ox.Store, source: Path, fmt: ox.RdfFormat) -> None:
    try:
        store.load(path=str(source), format=fmt)
    except SyntaxError as error:
        raise SparqlError(f"{source}: not valid RDF: {error}") from error


class _LineReader(io.RawIOBase):
    """A binary file over an iterator of text chunks (for streaming into pyoxigraph)."""

    def __init__(self, chunks: Iterator[str]) -> None:
        self._chunks = chunks
        self._buffer = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        while len(self._buffer) < len(buffer):
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            self._buffer += chunk.encode("utf-8")
        size = min(len(buffer), len(self._buffer))
        buffer[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


def store_from_graph(graph, base: str | None = None) -> ox.Store:
    """An in-memory store of a ``networkx`` graph (``docs/graph-schema.md``), without files.

    The triples are those of ``kg.export.rdf.iter_ntriples``, streamed.
    """
    from kg.export.rdf import iter_ntriples

    lines = iter_ntriples(graph, base) if base else iter_ntriples(graph)

    def batches() -> Iterator[str]:
        batch: list[str] = []
        for line in lines:
            batch.append(line)
            if len(batch) == 4096:
                yield "".join(batch)
                batch.clear()
        yield "".join(batch)

    store = ox.Store()
    store.load(io.BufferedReader(_LineReader(batches()), 1 << 16), format=ox.RdfFormat.N_TRIPLES)
    return store


# ------------------------------------------------------------------ querying

Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple


@dataclass(frozen=True)
class QueryResult:
    """The answer to a query, read into memory.

    ``form`` is ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``. A SELECT
    has ``variables`` and ``rows`` (tuples of pyoxigraph terms, ``None`` where
    unbound); an ASK has ``boolean``; a CONSTRUCT or DESCRIBE has ``rows`` of
    ``(subject, predicate, object)`` under the variables of those names.
    """

    form: str
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Term | None, ...], ...] = ()
    boolean: bool | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts of Python values (:func:`to_python`); unbound variables left out."""
        return [
            {name: to_python(term) for name, term in zip(self.variables, row) if term is not None}
            for row in self.rows
        ]

    def column(self, name: str) -> list[Any]:
        """One variable's Python values, in row order (``None`` where unbound)."""
        index = self.variables.index(name)
        return [to_python(row[index]) for row in self.rows]


def _execute(store: ox.Store, text: str, allow_service: bool):
    """Check and run a query; kg's prefixes (``kgo:``, ``rdfs:``, ``dcterms:``, ``entity:`` ...,
    see :data:`PREDECLARED`) are declared for it, and the query's own PREFIX lines win."""
    form = check_query(text, allow_service=allow_service)
    try:
        return form, store.query(text, prefixes=_prefixes())
    except SyntaxError as error:
        raise SparqlError(syntax_message(text, str(error))) from None
    except (OSError, RuntimeError) as error:
        raise SparqlError(str(error)) from error


_ERROR_AT = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)
_PREFIXED = re.compile(r"([A-Za-z][\w.\-]*)?:[\w.\-]*$")


def syntax_message(text: str, message: str) -> str:
    """Oxigraph's syntax error as one readable line: where, what was there, what was expected
    (without its lists of Unicode ranges), and for an unknown prefix, how to declare it.

    >>> syntax_message("SELECT * { ?s a foo:Bar }", "error at 1:24: expected one of Prefix not found, ['%']")
    "unknown prefix 'foo:' at line 1, column 24: declare it (PREFIX foo: <http://...>); kg declares kgo:, rdf:, rdfs:, ..."
    >>> syntax_message("SELEC ?x", "error at 1:10: expected CONSTRUCT")
    "syntax error at line 1, column 10 near 'SELEC ?x': expected CONSTRUCT"
    """
    match = _ERROR_AT.match(message.strip())
    if not match:
        return "syntax error: " + " ".join(message.split())[:300]
    line, column, detail = int(match.group(1)), int(match.group(2)), match.group(3)
    lines = text.splitlines() or [""]
    before = lines[min(line, len(lines)) - 1][: max(column - 1, 0)]
    if "Prefix not found" in detail:
        prefix = _PREFIXED.search(before.rstrip())
        name = f"{prefix.group(1) or ''}:" if prefix else "a prefix"
        known = ", ".join(f"{p}:" for p in list(_prefixes())[:3])
        return (f"unknown prefix {name!r} at line {line}, column {column}: declare it "
                f"(PREFIX {name} <http://...>); kg declares {known}, ...")
    expected = re.findall(r'"[^"]*"|\[[^\]]*\]|\w[\w ]*', detail.removeprefix("expected one of").removeprefix("expected"))
    readable = [item for item in expected if "\\u{" not in item and "..=" not in item]
    near = before[-30:].strip() or lines[min(line, len(lines)) - 1][:30]
    return (f"syntax error at line {line}, column {column} near {near!r}: expected "
            + (", ".join(readable)[:200] or "something else"))


def query(store: ox.Store, text: str, *, allow_service: bool = False) -> QueryResult:
    """Run a SPARQL query and read the whole answer into a :class:`QueryResult`.

    Raises :class:`QueryRefused` for updates and ``SERVICE`` (unless
    ``allow_service``), :class:`SparqlError` for syntax and evaluation errors.
    """
    form, result = _execute(store, text, allow_service)
    try:
        if isinstance(result, ox.QueryBoolean):
            return QueryResult("ASK", boolean=bool(result))
        if isinstance(result, ox.QuerySolutions):
            names = tuple(v.value for v in result.variables)
            rows = tuple(tuple(solution[name] for name in names) for solution in result)
            return QueryResult("SELECT", names, rows)
        triples = tuple((t.subject, t.predicate, t.object) for t in result)
    except (OSError, RuntimeError) as error:
        raise SparqlError(str(error)) from error
    return QueryResult(
        form if form == "DESCRIBE" else "CONSTRUCT", ("subject", "predicate", "object"), triples
    )


def write_results(
    store: ox.Store,
    text: str,
    out: IO[bytes],
    fmt: str,
    *,
    allow_service: bool = False,
    prefixes: dict[str, str] | None = None,
) -> str:
    """Run a query and stream its answer to ``out`` with Oxigraph's serialisers; return the form.

    ``fmt``: ``json``, ``csv``, ``tsv`` or ``xml`` (SPARQL 1.1 results) for
    SELECT and ASK, ``turtle`` or ``ntriples`` for CONSTRUCT and DESCRIBE.
    """
    form, result = _execute(store, text, allow_service)
    graph = not isinstance(result, (ox.QuerySolutions, ox.QueryBoolean))
    if graph and fmt not in GRAPH_FORMATS:
        raise SparqlError(
            f"{form or 'CONSTRUCT'} answers with triples: use "
            + " or ".join(sorted(GRAPH_FORMATS))
            + f", not {fmt}"
        )
    if not graph and fmt not in RESULT_FORMATS:
        raise SparqlError(
            f"{form} answers with a result table: use " + ", ".join(RESULT_FORMATS) + f", not {fmt}"
        )
    try:
        if graph:
            ox.serialize(
                result,
                out,
                GRAPH_FORMATS[fmt],
                prefixes=(prefixes or _prefixes()) if fmt == "turtle" else None,
            )
        else:
            result.serialize(out, RESULT_FORMATS[fmt])
    except (OSError, RuntimeError) as error:
        raise SparqlError(str(error)) from error
    return form


def to_python(term: Term | None) -> Any:
    """A term as a Python value: IRI -> ``str``; ``xsd:integer`` (and ``gYear``) -> ``int``;
    ``xsd:decimal`` -> ``Decimal``; ``double`` -> ``float``; ``boolean`` -> ``bool``;
    other literals -> their lexical form; blank node -> ``"_:id"``.

    >>> to_python(ox.Literal("42", datatype=ox.NamedNode(_XSD + "integer")))
    42
    >>> to_python(ox.NamedNode("https://w3id.org/kg/id/entity/mnist"))
    'https://w3id.org/kg/id/entity/mnist'
    """
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return term.value
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        try:
            if datatype in _INTEGERS:
                return int(term.value)
            if datatype == _XSD + "decimal":
                return Decimal(term.value)
            if datatype in _FLOATS:
                return float(term.value)
        except ValueError:
            return term.value
        if datatype == _XSD + "boolean":
            return term.value in ("true", "1")
        return term.value
    return str(term)


# ---------------------------------------------------------------- formatting


def _prefixes() -> dict[str, str]:
    from kg.export.rdf import PREFIXES
    from kg.namespace import KG_BASE

    instance = {
        kind: f"{KG_BASE}{kind}/" for kind in ("paper", "entity", "venue", "code", "result")
    }
    return {**PREFIXES, **instance, "statement": f"{KG_BASE}statement/"}


_LOCAL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.\-%/]*[A-Za-z0-9_\-])?")


def compact_iri(iri: str, prefixes: dict[str, str] | None = None) -> str:
    """``https://w3id.org/kg/id/entity/mnist`` -> ``entity:mnist`` (for reading, not for parsing).

    >>> compact_iri("https://w3id.org/kg/ontology#evaluatedOn")
    'kgo:evaluatedOn'
    >>> compact_iri("https://example.org/x y")
    '<https://example.org/x y>'
    """
    for prefix, namespace in sorted((prefixes or _prefixes()).items(), key=lambda p: -len(p[1])):
        if iri.startswith(namespace) and _LOCAL.fullmatch(iri[len(namespace) :]):
            return f"{prefix}:{iri[len(namespace) :]}"
    return f"<{iri}>"


def _cell(term: Term | None, prefixes: dict[str, str]) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        return compact_iri(term.value, prefixes)
    if isinstance(term, ox.Literal):
        return term.value
    return str(term)


def table_cells(result: QueryResult) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of :func:`format_table`, as plain strings (for a pipe)."""
    if result.form == "ASK":
        return ["answer"], [["yes" if result.boolean else "no"]]
    prefixes = _prefixes()
    return list(result.variables), [[_cell(term, prefixes) for term in row] for row in result.rows]


def format_table(result: QueryResult, *, max_width: int | None = 80, title: str | None = None):
    """A :class:`rich.table.Table` of a result: IRIs compacted, literals as text, numbers right."""
    from rich.table import Table

    prefixes = _prefixes()
    table = Table(title=title, show_edge=False, header_style="bold")
    if result.form == "ASK":
        table.add_column("answer")
        table.add_row("yes" if result.boolean else "no")
        return table
    numeric = [
        bool(result.rows)
        and all(
            isinstance(row[i], ox.Literal) and isinstance(to_python(row[i]), (int, float, Decimal))
            for row in result.rows
            if row[i] is not None
        )
        for i in range(len(result.variables))
    ]
    for name, right in zip(result.variables, numeric):
        table.add_column(
            name, justify="right" if right else "left", max_width=max_width, overflow="fold"
        )
    for row in result.rows:
        table.add_row(*(_cell(term, prefixes) for term in row))
    return table


# ------------------------------------------------------------------ examples

EXAMPLES_DIR = Path(__file__).with_name("examples")


@dataclass(frozen=True)
class Example:
    """A shipped example query: ``kg/query/examples/<name>.rq``.

    The file starts with comment lines: the question it answers, a blank
    comment line, then what it returns and how to change it.
    """

    name: str
    question: str
    description: str
    text: str

    @property
    def form(self) -> str:
        return query_form(self.text) or ""


def _read_example(path: Path) -> Example:
    text = path.read_text(encoding="utf-8")
    comments: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comments.append(line[1:].strip())
    question = comments[0] if comments else path.stem
    description = "\n".join(comments[1:]).strip()
    return Example(path.stem, question, description, text)


def examples() -> list[Example]:
    """The shipped example queries, by name."""
    return [_read_example(path) for path in sorted(EXAMPLES_DIR.glob("*.rq"))]


def get_example(name: str) -> Example:
    """One shipped example by name (``top_benchmarks``); ``KeyError`` lists the names."""
    path = EXAMPLES_DIR / f"{name.removesuffix('.rq')}.rq"
    if not re.fullmatch(r"[a-z0-9_]+", name.removesuffix(".rq")) or not path.is_file():
        names = ", ".join(example.name for example in examples())
        raise KeyError(f"no example query {name!r}; the examples are: {names}")
    return _read_example(path)
