"""What each assembled range of a cluster build gives the client, on the workers: its survey
(counts, GraphML kinds, first and last node, top entities) and, in stage 7, its part of each
graph file."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from kg.cluster.partition import _range
from kg.cluster.ranges import _Range
from kg.schema import ENTITY_LABELS


def _survey(rng: _Range, bounds: list[str]) -> tuple:
    """Counts, GraphML attribute types, first and last node, and the in-degree of every edge
    target by the target's range."""
    from kg.export.files import graphml_kinds

    incoming: list[Counter] = [Counter() for _ in range(len(bounds) + 1)]
    for _, v, _, _ in rng.edge_rows:
        incoming[_range(v, bounds)][v] += 1
    first = rng.node_rows[0][0] if rng.node_rows else None
    last = rng.node_rows[-1][0] if rng.node_rows else None
    return (len(rng.node_rows), len(rng.edge_rows), graphml_kinds(rng), first, last, *incoming)


def _entity_summary(rng: _Range, *incoming: Counter) -> tuple[Counter, list[tuple]]:
    """Entities by type and the ten with most edges in the range: ``(id, name, type, degree)``."""
    degree: Counter = Counter()
    for counts in incoming:
        degree.update(counts)
    for u, _, _, _ in rng.edge_rows:
        degree[u] += 1
    labels: Counter = Counter()
    found = []
    for node, label, _ in rng.node_rows:
        if label in ENTITY_LABELS:
            labels[label] += 1
            found.append((node, label))
    top = sorted(found, key=lambda n: (-degree[n[0]], n[0]))[:10]
    wanted = {node for node, _ in top}
    names = {node: json.loads(attrs)["name"] for node, _, attrs in rng.node_rows if node in wanted}
    return labels, [(node, names[node], label, degree[node]) for node, label in top]


def _check_turtle_cuts(surveys: list[tuple]) -> None:
    """Turtle parts are joined as they are: the last node of a range and the first of the next
    must have different IRIs (node IRIs are distinct for distinct ids)."""
    from kg.export.rdf import node_iri

    ends = [(s[3], s[4]) for s in surveys if s[3] is not None]
    for (_, last), (first, _) in zip(ends, ends[1:]):
        if node_iri(last) == node_iri(first):
            raise RuntimeError(f"nodes {last!r} and {first!r} have one IRI: graph.ttl cannot be written in parts")


def _node_link_part(rng: _Range, section: str) -> str:
    from kg.export.files import NODE_LINK_SEPARATOR, node_link_edges, node_link_nodes

    return NODE_LINK_SEPARATOR.join(node_link_nodes(rng) if section == "nodes" else node_link_edges(rng))


def _graphml_part(rng: _Range, section: str, first: int = 0) -> str:
    from kg.export.files import graphml_edges, graphml_nodes

    return "".join(graphml_nodes(rng) if section == "nodes" else graphml_edges(rng, first))


def _turtle_part(rng: _Range, base: str) -> str:
    from kg.export.rdf import turtle_body

    return "".join(turtle_body(rng, base))


def _results_part(rng: _Range) -> str:
    return _csv_text(rng.results)


def _csv_text(rows: Iterable[Iterable]) -> str:
    """Rows as :func:`kg.export.tables.write_csv` writes them."""
    import csv
    import io

    from kg.export.tables import spreadsheet_cell

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([spreadsheet_cell(c) for c in row] for row in rows)
    return buffer.getvalue()
