"""Running a query: checked first, kg's prefixes declared, the answer read into a
:class:`QueryResult` or streamed in a SPARQL results or RDF format."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import IO, Any

import pyoxigraph as ox

from kg.query.sparql.checks import check_query
from kg.query.sparql.errors import SparqlError

Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple

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


def _prefixes() -> dict[str, str]:
    from kg.export.rdf import PREFIXES
    from kg.namespace import KG_BASE

    instance = {
        kind: f"{KG_BASE}{kind}/" for kind in ("paper", "entity", "venue", "code", "result")
    }
    return {**PREFIXES, **instance, "statement": f"{KG_BASE}statement/"}
