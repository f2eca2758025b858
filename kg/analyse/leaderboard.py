"""Leaderboards from the results papers state: per (task, dataset, metric), methods ranked by value.

A result node of the graph (``docs/graph-schema.md``) becomes one row
(:func:`result_rows`, written by ``kg build`` as ``results.csv`` from its store, streamed:
:mod:`kg.analyse.result_stream`): the paper, the
subject (the method or model, else the paper itself), task, dataset, metric, value
with its number, unit and change, direction, baseline, setting, and the evidence
(the sentence and the offsets of the value in the abstract). Fields the text
does not state are empty.

:func:`leaderboards` groups rows by (task, dataset, metric) - a board needs a
metric and a dataset or a task - and ranks each board's scores: high to low when
its metric is better higher, low to high when lower, high to low (and said to
be unknown) otherwise. Results that state only a change (``+3.4 AP over X``,
``4.5x faster``) are not scores on the same scale; they are listed under the
board's scores as changes, largest first. An abstract states fewer results
than its paper: a board holds what abstracts say, not what the papers' tables
hold.

Examples
--------
>>> rows = [{"paper": "p1", "title": "A", "subject": "Zorb", "task": None, "dataset": "CIFAR-10",
...          "metric": "accuracy", "value": "91.2%", "number": 91.2, "delta": None, "direction": "higher"},
...         {"paper": "p2", "title": "B", "subject": "Quux", "task": None, "dataset": "CIFAR-10",
...          "metric": "Accuracy", "value": "93.0%", "number": 93.0, "delta": None, "direction": None}]
>>> [board] = leaderboards(rows)
>>> board.metric, board.direction, [e["subject"] for e in board.scores]
('accuracy', 'higher', ['Quux', 'Zorb'])
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from kg.graphstore import SortedGraph
from kg.ids import name_key
from kg.schema import RESULT_FIELDS

__all__ = ["Board", "RESULT_COLUMNS", "board_rows", "leaderboards", "result_row", "result_rows", "row_order",
           "to_markdown", "write_results_csv"]

RESULT_COLUMNS = (
    "paper", "title", "year", "venue", "subject", "subject_id", "subject_type", "task", "task_id",
    "dataset", "dataset_id", "metric", "metric_id", "value", "number", "unit", "delta", "direction",
    "baseline", "baseline_id", "setting", "value_start", "value_end", "sentence_start", "sentence_end",
    "sentence",
)
#: The column of each result edge's target: the result's field (kg.schema), but ``metric``
#: for the Metric entity.
_EDGE_FIELDS = {kind: "metric" if name == "metric_entity" else name for kind, name in RESULT_FIELDS.items()}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def result_rows(graph: nx.MultiDiGraph) -> list[dict]:
    """One row per Result node, in paper and result order (columns: :data:`RESULT_COLUMNS`)."""
    rows = []
    nodes = graph.nodes
    for rid, data in graph.nodes(data=True):
        if data.get("label") != "Result":
            continue
        paper = nodes[data["paper"]] if data.get("paper") in nodes else {}
        targets = [(key, target, nodes[target]) for _, target, key in graph.out_edges(rid, keys=True)]
        rows.append(result_row(data, paper, targets))
    return sorted(rows, key=row_order)


def result_row(data: dict, paper: dict, targets: Iterable[tuple[str, Any, dict]]) -> dict:
    """The row of one Result node, from its attributes, its paper's, and its out-edges as
    ``(key, target, target's attributes)``; one code for the graph in memory and the stream."""
    row: dict[str, Any] = {column: None for column in RESULT_COLUMNS}
    row.update(
        paper=data.get("paper"), title=paper.get("title") or paper.get("name"), year=paper.get("year"),
        venue=paper.get("venue"), metric=data.get("metric"), value=data.get("value"),
        number=data.get("number"), unit=data.get("unit"), delta=data.get("delta"),
        direction=data.get("direction"), setting=data.get("setting"), value_start=data.get("start"),
        value_end=data.get("end"), sentence_start=data.get("sentence_start"),
        sentence_end=data.get("sentence_end"),
    )
    for key, target, attrs in targets:
        name = _EDGE_FIELDS.get(key)
        if name is not None:
            row[name] = attrs.get("name")
            row[f"{name}_id"] = target
            if name == "subject":
                row["subject_type"] = attrs.get("label")
    abstract = paper.get("abstract") or ""
    if row["sentence_start"] is not None and row["sentence_end"] is not None:
        row["sentence"] = " ".join(abstract[row["sentence_start"]:row["sentence_end"]].split())
    return row


def row_order(row: dict) -> tuple:
    """The order of ``results.csv``: by paper, then where the value starts (ties as found)."""
    return str(row["paper"]), row["value_start"] or 0


def write_results_csv(graph: nx.MultiDiGraph | SortedGraph, path: str | Path) -> Path:
    """``results.csv``: :func:`result_rows` as a spreadsheet-safe table. A streamed graph (a
    build's store, its ``graph.json``) is read by :func:`kg.analyse.result_stream.streamed_result_rows`,
    in memory that does not grow with the results, its scratch file beside ``path``."""
    from kg.analyse.result_stream import streamed_result_rows
    from kg.export.tables import write_csv

    target = Path(path)
    if isinstance(graph, nx.MultiDiGraph):
        rows: Iterable[dict] = result_rows(graph)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        rows = streamed_result_rows(graph, target.parent)
    return write_csv(target, RESULT_COLUMNS, ([_cell(r[c]) for c in RESULT_COLUMNS] for r in rows))


def _cell(value):
    return "" if value is None else value


@dataclass
class Board:
    """One leaderboard: its key, the way its metric is better, and its entries."""

    task: str | None
    dataset: str | None
    metric: str
    direction: str | None
    scores: list[dict] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.scores) + len(self.changes)


def _key(text: str | None) -> str:
    return name_key(text) if text else ""


def _matches(value: str | None, wanted: str | None) -> bool:
    return wanted is None or (value is not None and _key(value) == _key(wanted))


#: Time and memory stated in different units rank as one quantity (``30 min`` before ``5 h``).
_UNIT_SCALE = {"ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0,
               "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}


def _comparable(row: dict) -> float:
    return row["number"] * _UNIT_SCALE.get(row.get("unit") or "", 1.0)


def _change_size(row: dict) -> float:
    found = _NUMBER.search(row.get("delta") or row.get("value") or "")
    return float(found.group(0)) if found else 0.0


def leaderboards(rows: Iterable[dict], *, dataset: str | None = None, task: str | None = None,
                 metric: str | None = None, min_entries: int = 1) -> list[Board]:
    """Boards of the rows that have a metric and a dataset or a task, largest first."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    names: dict[tuple, Counter] = defaultdict(Counter)
    for row in rows:
        if not row.get("metric") or not (row.get("dataset") or row.get("task")):
            continue
        if not (_matches(row.get("dataset"), dataset) and _matches(row.get("task"), task)
                and _matches(row.get("metric"), metric)):
            continue
        key = (_key(row.get("task")), _key(row.get("dataset")), _key(row["metric"]))
        groups[key].append(row)
        names[key][(row.get("task"), row.get("dataset"), row["metric"])] += 1
    boards = []
    for key, members in groups.items():
        order = list(names[key])  # first seen first: ties go to the form the rows name first
        task_name, dataset_name, metric_name = min(order, key=lambda n: (-names[key][n], order.index(n)))
        top = Counter(r["direction"] for r in members if r.get("direction")).most_common(2)
        direction = top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else None
        scores = [r for r in members if r.get("number") is not None]
        changes = [r for r in members if r.get("number") is None]
        scores.sort(key=lambda r: (_comparable(r) if direction == "lower" else -_comparable(r), str(r["paper"])))
        changes.sort(key=lambda r: (-_change_size(r), str(r["paper"])))
        board = Board(task_name, dataset_name, metric_name, direction, scores, changes)
        if board.size >= min_entries:
            boards.append(board)
    boards.sort(key=lambda b: (-b.size, _key(b.dataset), _key(b.task), _key(b.metric)))
    return boards


def _subject(row: dict) -> str:
    return row.get("subject") or f"(paper) {row.get('title') or row.get('paper')}"


def board_rows(boards: Iterable[Board]) -> list[dict]:
    """Every entry of every board as one flat row (for CSV and JSON): board key, rank, kind."""
    out = []
    for board in boards:
        for kind, entries in (("score", board.scores), ("change", board.changes)):
            for rank, row in enumerate(entries, 1):
                out.append({"task": board.task, "dataset": board.dataset, "metric": board.metric,
                            "direction": board.direction, "kind": kind, "rank": rank,
                            "subject": _subject(row), **{k: row.get(k) for k in (
                                "value", "number", "delta", "baseline", "setting", "paper", "title", "year",
                                "venue", "sentence", "value_start", "value_end")}})
    return out


def _md(text) -> str:
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(boards: Iterable[Board], *, evidence: bool = True) -> str:
    """Boards as Markdown: one table per board, each entry with its paper and, below, its evidence."""
    parts = []
    for board in boards:
        title = " · ".join(x for x in (board.task, board.dataset, board.metric) if x)
        way = {"higher": "higher is better", "lower": "lower is better"}.get(board.direction,
                                                                            "direction not stated")
        parts.append(f"### {_md(title)}\n\n{len(board.scores)} scores, {len(board.changes)} changes; {way}.\n")
        for kind, entries in (("score", board.scores), ("change over a baseline", board.changes)):
            if not entries:
                continue
            parts.append(f"| # | {kind} | method | paper | against | setting |\n|---|---|---|---|---|---|")
            for rank, row in enumerate(entries, 1):
                paper = f"{_md(row.get('title'))} ({_md(row.get('venue'))} {_md(row.get('year'))}, `{row['paper']}`)"
                parts.append(f"| {rank} | {_md(row['value'])} | {_md(_subject(row))} | {paper} | "
                             f"{_md(row.get('baseline'))} | {_md(row.get('setting'))} |")
            parts.append("")
            if evidence:
                for rank, row in enumerate(entries, 1):
                    where = f"chars {row.get('value_start')}-{row.get('value_end')}"
                    parts.append(f"{rank}. {_md(row['value'])}: \"{_md(row.get('sentence'))}\" ({where})")
                parts.append("")
    return "\n".join(parts)
