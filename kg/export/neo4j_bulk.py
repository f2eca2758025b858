"""CSV files for ``neo4j-admin database import full``: the fastest way to load a large graph.

:func:`write_bulk_csv` writes, into one directory:

* ``nodes_<Label>.csv`` per label, header ``id:ID,:LABEL,name,year:int,aliases:string[],...``.
  All labels share one id space (plain ``:ID``), which is safe because kg ids
  carry their kind (``doi:``, ``entity:``, ``venue:``, ...) and lets a
  relationship file join any two labels;
* ``relationships_<TYPE>.csv`` per type, header ``:START_ID,:END_ID,:TYPE,support:int,...``;
* ``import.sh``: the exact ``neo4j-admin`` command for these files;
* ``schema.cypher``: the uniqueness constraints, to run (``cypher-shell -f``) once
  the database is up, so later ``kg export neo4j`` runs merge through an index.

Properties are those of :func:`kg.export.neo4j.to_rows` (flat; ``None`` left
out), so both loaders give the same database. Column types: ``int`` (``long``
past 32 bits), ``double``, ``boolean``, ``string`` and their arrays. Array
elements are joined with a delimiter that occurs in no value (``;`` when
possible, else ``|``, then control characters), passed as ``--array-delimiter``.
Fields are quoted by doubling ``"`` (the importer's default), and values may hold
line breaks (``--multiline-fields=true``). An empty field is a missing value, so
empty lists are not stored.

The database must be stopped (or not exist) while the importer runs; see
``docker/load.sh`` for the whole sequence with Docker.
"""

from __future__ import annotations

import csv
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from kg.builddir import atomic_open
from kg.export.neo4j import Rows, schema_statements, to_rows

__all__ = ["ARRAY_DELIMITERS", "BulkFiles", "import_command", "read_bulk_counts", "write_bulk_csv"]

#: Tried in order; the first that appears in no array element is used.
ARRAY_DELIMITERS: tuple[str, ...] = (";", "|", "\x1f", "\x1e", "\x1d", "\x1c")


@dataclass
class BulkFiles:
    """What :func:`write_bulk_csv` wrote."""

    directory: Path
    node_files: dict[str, Path] = field(default_factory=dict)
    relationship_files: dict[str, Path] = field(default_factory=dict)
    node_counts: dict[str, int] = field(default_factory=dict)
    relationship_counts: dict[str, int] = field(default_factory=dict)
    array_delimiter: str = ";"
    script: Path | None = None
    schema: Path | None = None

    def command(self, import_dir: str | None = None, database: str = "neo4j") -> list[str]:
        """The ``neo4j-admin`` argument list (files under ``import_dir``, default: where they are)."""
        return import_command(
            [p.name for p in self.node_files.values()],
            [p.name for p in self.relationship_files.values()],
            array_delimiter=self.array_delimiter,
            import_dir=import_dir if import_dir is not None else str(self.directory),
            database=database,
        )


def _delimiter_arg(delimiter: str) -> str:
    """``;`` as is; control characters as ``U+001F`` (which neo4j-admin accepts)."""
    return delimiter if delimiter.isprintable() else f"U+{ord(delimiter):04X}"


def import_command(
    node_files: Iterable[str],
    relationship_files: Iterable[str],
    *,
    array_delimiter: str = ";",
    import_dir: str = "/import",
    database: str = "neo4j",
) -> list[str]:
    """``neo4j-admin database import full`` with one ``--nodes`` / ``--relationships`` per file.

    >>> " ".join(import_command(["nodes_Paper.csv"], ["relationships_PROPOSES.csv"]))
    'neo4j-admin database import full --nodes=/import/nodes_Paper.csv --relationships=/import/relationships_PROPOSES.csv --array-delimiter=; --multiline-fields=true --overwrite-destination=true neo4j'
    """
    base = import_dir.rstrip("/")
    return [
        "neo4j-admin",
        "database",
        "import",
        "full",
        *[f"--nodes={base}/{name}" for name in node_files],
        *[f"--relationships={base}/{name}" for name in relationship_files],
        f"--array-delimiter={_delimiter_arg(array_delimiter)}",
        "--multiline-fields=true",
        "--overwrite-destination=true",
        database,
    ]


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


def write_bulk_csv(graph: nx.MultiDiGraph | Rows, outdir: str | Path) -> BulkFiles:
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


def _write_script(files: BulkFiles) -> None:
    command = files.command(import_dir="${IMPORT_DIR}", database="${DATABASE}")
    quoted = [shlex.quote(part) if "${" not in part else f'"{part}"' for part in command]
    lines = [
        "#!/bin/sh",
        "# Load these CSV files into a stopped Neo4j 5 with neo4j-admin (written by kg).",
        "# IMPORT_DIR: where Neo4j sees this directory (default: this directory);",
        "# DATABASE: the database to (re)create (default: neo4j). It must not be running.",
        "set -eu",
        'IMPORT_DIR="${IMPORT_DIR:-$(cd "$(dirname "$0")" && pwd)}"',
        'DATABASE="${DATABASE:-neo4j}"',
        " \\\n  ".join(quoted),
        "",
    ]
    with atomic_open(files.script) as handle:
        handle.write("\n".join(lines))
    files.script.chmod(0o755)


def read_bulk_counts(directory: str | Path) -> Mapping[str, int]:
    """Rows per file in a bulk directory (a check that needs only Python's csv)."""
    counts = {}
    for path in sorted(Path(directory).glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as handle:
            counts[path.name] = sum(1 for _ in csv.reader(handle)) - 1
    return counts
