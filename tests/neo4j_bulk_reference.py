"""The bulk CSV writer as it was before it streamed (commit 4d6f189, kg/export/neo4j_bulk.py):
the whole graph in networkx, every row held (``to_rows``), each file written from the rows.

Kept as the oracle the streamed writer's files must equal byte for byte
(tests/export/test_neo4j_bulk.py), and as the old path of benchmarks/neo4j_export_bench.py.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import networkx as nx

from kg.builddir import atomic_open
from kg.export.neo4j import Rows, schema_statements, to_rows
from kg.export.neo4j_bulk import ARRAY_DELIMITERS, BulkFiles, _write_script

__all__ = ["write_bulk_csv_held"]


def _column_type(values: list[Any]) -> str:
    """The importer's type for a column of (non-None) values."""
    kinds: set[str] = set()
    array = False
    for value in values:
        items = value if isinstance(value, list) else [value]
        array = array or isinstance(value, list)
        for item in items:
            if isinstance(item, bool):
                kinds.add("boolean")
            elif isinstance(item, int):
                kinds.add("int" if -(2**31) <= item < 2**31 else "long")
            elif isinstance(item, float):
                kinds.add("double")
            else:
                kinds.add("string")
    if not kinds:
        base = "string"
    elif kinds <= {"int"}:
        base = "int"
    elif kinds <= {"int", "long"}:
        base = "long"
    elif kinds <= {"int", "long", "double"}:
        base = "double"
    elif kinds == {"boolean"}:
        base = "boolean"
    else:
        base = "string"
    return base + "[]" if array else base


def _columns(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(property, type)`` for every property of ``rows``, in first-seen order."""
    seen: dict[str, list[Any]] = {}
    for row in rows:
        for key, value in row["props"].items():
            seen.setdefault(key, []).append(value)
    return [(key, _column_type(values)) for key, values in seen.items()]


def _cell(value: Any, column_type: str, delimiter: str) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return delimiter.join(_cell(item, column_type[:-2], delimiter) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _pick_delimiter(rows: Rows) -> str:
    elements: set[str] = set()
    for group in [*rows.nodes.values(), *rows.relationships.values()]:
        for row in group:
            for value in row["props"].values():
                if isinstance(value, list):
                    elements.update(str(item) for item in value)
    for candidate in ARRAY_DELIMITERS:
        if not any(candidate in element for element in elements):
            return candidate
    raise ValueError("every array delimiter candidate occurs in some list value")


def _write_csv(path: Path, header: list[str], records: Iterable[list[str]]) -> None:
    with atomic_open(path) as handle:
        writer = csv.writer(handle, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(header)
        writer.writerows(records)


def write_bulk_csv_held(graph: nx.MultiDiGraph | Rows, outdir: str | Path) -> BulkFiles:
    """Write the CSV files and ``import.sh`` for ``neo4j-admin database import full``."""
    rows = graph if isinstance(graph, Rows) else to_rows(graph)
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    delimiter = _pick_delimiter(rows)
    files = BulkFiles(directory=out, array_delimiter=delimiter)

    for label, node_rows in rows.nodes.items():
        columns = _columns(node_rows)
        header = ["id:ID", ":LABEL", *[_header(key, kind) for key, kind in columns]]
        path = out / f"nodes_{label}.csv"
        _write_csv(
            path,
            header,
            (
                [row["id"], label, *[_cell(row["props"].get(k), t, delimiter) for k, t in columns]]
                for row in node_rows
            ),
        )
        files.node_files[label] = path
        files.node_counts[label] = len(node_rows)

    by_type: dict[str, list[dict[str, Any]]] = {}
    for (rel_type, _, _), rel_rows in rows.relationships.items():
        by_type.setdefault(rel_type, []).extend(rel_rows)
    for rel_type, rel_rows in by_type.items():
        columns = _columns(rel_rows)
        header = [":START_ID", ":END_ID", ":TYPE", *[_header(key, kind) for key, kind in columns]]
        path = out / f"relationships_{rel_type}.csv"
        _write_csv(
            path,
            header,
            (
                [
                    row["src"],
                    row["dst"],
                    rel_type,
                    *[_cell(row["props"].get(k), t, delimiter) for k, t in columns],
                ]
                for row in rel_rows
            ),
        )
        files.relationship_files[rel_type] = path
        files.relationship_counts[rel_type] = len(rel_rows)

    files.script = out / "import.sh"
    _write_script(files)
    files.schema = out / "schema.cypher"
    with atomic_open(files.schema) as handle:
        handle.write("".join(f"{statement};\n" for statement in schema_statements("neo4j")))
    return files


def _header(key: str, kind: str) -> str:
    return key if kind == "string" else f"{key}:{kind}"

