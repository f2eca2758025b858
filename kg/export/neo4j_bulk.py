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

The graph is read twice, never held (:mod:`kg.export.neo4j.stream`): a first pass
learns each file's columns and the delimiter, the second writes every row as it comes.
A type's file lists its rows by source and target label (``MENTIONS`` of methods before
those of datasets) while rows come by id, so each of its groups but the first goes to a
scratch file, appended when the pass ends. Memory holds the label of every node id, not
the graph (docs/performance.md).

The database must be stopped (or not exist) while the importer runs; see
``docker/load.sh`` for the whole sequence with Docker.
"""

from __future__ import annotations

import csv
import shlex
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import networkx as nx

from kg.builddir import atomic_open
from kg.export.neo4j import Rows, schema_statements
from kg.export.neo4j.rows import Group, group_order, label_order
from kg.export.neo4j.stream import RowSource, row_source
from kg.graphstore import SortedGraph

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


def _kind(item: Any) -> str:
    """The importer's type of one (non-None) value."""
    if isinstance(item, bool):
        return "boolean"
    if isinstance(item, int):
        return "int" if -(2**31) <= item < 2**31 else "long"
    if isinstance(item, float):
        return "double"
    return "string"


def _column_type(kinds: set[str], array: bool) -> str:
    """The importer's type for a column whose values had ``kinds`` (``array``: some were lists)."""
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


class _Columns:
    """The columns of one file, learnt row by row: each property in first-seen order with the
    kinds of its values, so the header is known before the first row is written."""

    def __init__(self) -> None:
        self.kinds: dict[str, set[str]] = {}
        self.arrays: set[str] = set()
        self.rows = 0

    def add(self, props: dict[str, Any]) -> None:
        self.rows += 1
        for key, value in props.items():
            kinds = self.kinds.setdefault(key, set())
            if isinstance(value, list):
                self.arrays.add(key)
                kinds.update(_kind(item) for item in value)
            else:
                kinds.add(_kind(value))

    def extend(self, other: _Columns) -> None:
        """Add the rows of ``other``, as if they came after these."""
        self.rows += other.rows
        for key, kinds in other.kinds.items():
            self.kinds.setdefault(key, set()).update(kinds)
        self.arrays |= other.arrays

    def types(self) -> list[tuple[str, str]]:
        """``(property, type)`` of every column."""
        return [(key, _column_type(kinds, key in self.arrays)) for key, kinds in self.kinds.items()]


class _Delimiters:
    """The array delimiters no list element has held so far (numbers and booleans never hold one)."""

    def __init__(self) -> None:
        self.free = list(ARRAY_DELIMITERS)

    def add(self, props: dict[str, Any]) -> None:
        for value in props.values():
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, str) and any(c in item for c in self.free):
                        self.free = [c for c in self.free if c not in item]

    def pick(self) -> str:
        if not self.free:
            raise ValueError("every array delimiter candidate occurs in some list value")
        return self.free[0]


@dataclass
class _Survey:
    """The first pass: every file's columns and the array delimiter."""

    nodes: dict[str, _Columns]  # by label, in load order
    types: dict[str, list[tuple[Group, _Columns]]]  # by type; its groups in load order
    delimiter: str


def _survey(source: RowSource) -> _Survey:
    nodes: dict[str, _Columns] = {}
    groups: dict[Group, _Columns] = {}
    delimiters = _Delimiters()
    for label, row in source.iter_nodes():
        nodes.setdefault(label, _Columns()).add(row["props"])
        delimiters.add(row["props"])
    for group, row in source.iter_relationships():
        groups.setdefault(group, _Columns()).add(row["props"])
        delimiters.add(row["props"])
    types: dict[str, list[tuple[Group, _Columns]]] = {}
    for group in sorted(groups, key=group_order):
        types.setdefault(group[0], []).append((group, groups[group]))
    return _Survey({label: nodes[label] for label in sorted(nodes, key=label_order)}, types, delimiters.pick())


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


def _csv_writer(handle: IO[str]) -> Any:
    return csv.writer(handle, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)


def _write_nodes(source: RowSource, survey: _Survey, files: BulkFiles) -> None:
    """The second pass over the nodes: each row straight into its label's file."""
    with ExitStack() as stack:
        writers = {}
        for label, columns in survey.nodes.items():
            path = files.directory / f"nodes_{label}.csv"
            writer = _csv_writer(stack.enter_context(atomic_open(path)))
            types = columns.types()
            writer.writerow(["id:ID", ":LABEL", *[_header(key, kind) for key, kind in types]])
            writers[label] = writer, types
            files.node_files[label] = path
            files.node_counts[label] = columns.rows
        for label, row in source.iter_nodes(warn=False):
            writer, types = writers[label]
            props = row["props"]
            writer.writerow([row["id"], label, *[_cell(props.get(k), t, survey.delimiter) for k, t in types]])


def _write_relationships(source: RowSource, survey: _Survey, files: BulkFiles) -> None:
    """The second pass over the edges: a type's first group straight into its file, its later
    groups (by source and target label) into scratch files appended once all rows are out."""
    with ExitStack() as stack:
        writers, later = {}, []
        for rel_type, groups in survey.types.items():
            columns = _Columns()
            for _, group_columns in groups:
                columns.extend(group_columns)
            types = columns.types()
            path = files.directory / f"relationships_{rel_type}.csv"
            handle = stack.enter_context(atomic_open(path))
            writer = _csv_writer(handle)
            writer.writerow([":START_ID", ":END_ID", ":TYPE", *[_header(key, kind) for key, kind in types]])
            writers[groups[0][0]] = writer, types
            for group, _ in groups[1:]:
                scratch = stack.enter_context(
                    tempfile.TemporaryFile("w+", encoding="utf-8", newline="", dir=files.directory))
                writers[group] = _csv_writer(scratch), types
                later.append((handle, scratch))
            files.relationship_files[rel_type] = path
            files.relationship_counts[rel_type] = columns.rows
        for group, row in source.iter_relationships(warn=False):
            writer, types = writers[group]
            props = row["props"]
            writer.writerow([row["src"], row["dst"], group[0],
                             *[_cell(props.get(k), t, survey.delimiter) for k, t in types]])
        for handle, scratch in later:
            scratch.seek(0)
            shutil.copyfileobj(scratch, handle)


def write_bulk_csv(graph: nx.MultiDiGraph | SortedGraph | Rows, outdir: str | Path) -> BulkFiles:
    """Write the CSV files and ``import.sh`` for ``neo4j-admin database import full``.

    Two passes over the graph (:mod:`kg.export.neo4j.stream`), neither holding it: the
    first learns every file's columns and the array delimiter, the second writes the rows.
    A store or a build's ``graph.json`` (:class:`kg.node_link.NodeLinkFile`) is written in
    memory that does not grow with the graph, but for the map of node ids to labels.
    """
    source = row_source(graph)
    survey = _survey(source)  # a graph that cannot be written fails here, before any file
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    files = BulkFiles(directory=out, array_delimiter=survey.delimiter)
    _write_nodes(source, survey, files)
    _write_relationships(source, survey, files)
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
