"""Results for a reader: IRIs compacted with kg's prefixes, a rich table, plain cells for a pipe."""

from __future__ import annotations

import re
from decimal import Decimal

import pyoxigraph as ox

from kg.query.sparql.results import QueryResult, Term, _prefixes, to_python

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
