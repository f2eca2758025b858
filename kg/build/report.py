"""What a build did (:class:`BuildReport`), why it stopped (:class:`BuildError`), and the
figures its summary shows: timings by stage, entities by type, the top entities."""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from kg.builddir import BuildDir
from kg.graphstore import GraphStore
from kg.schema import ENTITY_LABELS
from kg.types import FileNote, ReadIssue

OnError = Literal["skip", "fail"]


class BuildError(RuntimeError):
    """A build that cannot go on (with ``--on-error fail``: the first bad record)."""


@dataclass
class BuildReport:
    """What a build read, skipped and produced."""

    papers_read: int = 0
    papers_built: int = 0
    duplicates: int = 0
    skipped: list[ReadIssue] = field(default_factory=list)
    files: list[FileNote] = field(default_factory=list)  # files ignored, or read in another format
    entities_by_type: dict[str, int] = field(default_factory=dict)
    proposed: int = 0
    relations: int = 0
    results: int = 0
    code_urls: int = 0
    top_entities: list[tuple[str, str, int]] = field(default_factory=list)
    outputs: dict[str, Path] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    cache_hits: int = 0
    nodes: int = 0
    edges: int = 0
    _graph: nx.MultiDiGraph | None = field(default=None, repr=False)

    @property
    def skip_reasons(self) -> Counter:
        return Counter(issue.reason for issue in self.skipped)

    @property
    def graph(self) -> nx.MultiDiGraph | None:
        """The graph in memory, read from ``graph.json`` on first use: the build itself
        assembles on disk (:class:`~kg.graphstore.GraphStore`) and never needs it whole."""
        path = self.outputs.get("node_link")
        if self._graph is None and path is not None and path.exists():
            self._graph = BuildDir(path).read_graph()
        return self._graph


@contextmanager
def _timed(report: BuildReport, stage: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        report.timings[stage] = round(report.timings.get(stage, 0.0) + time.perf_counter() - start, 3)


def _nothing_built(report: BuildReport) -> str:
    """The one-line error of a build that built no paper: what became of every record."""
    reasons = "; ".join(f"{count} x {reason}" for reason, count in report.skip_reasons.most_common(3))
    more = len(report.skip_reasons) - 3
    ignored = sum(note.outcome == "ignored" for note in report.files)
    return (
        f"no paper built: {len(report.skipped)} record{'s' * (len(report.skipped) != 1)} skipped"
        + (f" ({reasons}{f'; and {more} other reasons' if more > 0 else ''})" if reasons else "")
        + (f", {ignored} file{'s' * (ignored != 1)} ignored" if ignored else "")
        + "; nothing written. The field names kg reads are in docs/inputs.md; "
        "--format chooses the input format"
    )


def _summarise(store: GraphStore, report: BuildReport) -> None:
    entities = {node: (data["name"], data["label"]) for node, data in store.labelled(ENTITY_LABELS)}
    labels = Counter(label for _, label in entities.values())
    report.entities_by_type = {label: labels.get(label, 0) for label in ENTITY_LABELS}
    degree = store.degrees(set(entities))
    ranked = sorted(entities, key=lambda n: (-degree[n], n))[:10]
    report.top_entities = [(*entities[n], degree[n]) for n in ranked]
    report.nodes, report.edges = store.number_of_nodes(), store.number_of_edges()
