"""``kg build``: read -> extract -> resolve -> assemble -> write, streaming.

Papers are read lazily and extracted in batches; extractions are spooled to
a temporary file while the resolver counts them, then read back once to be
resolved, written to ``papers.jsonl`` and added to the graph. Memory grows
with the graph, not with the input.

Every input record ends in ``manifest.jsonl`` as ``built``, ``duplicate`` (same
paper id as an earlier record) or ``skipped`` (with the reader's reason).
"""

from __future__ import annotations

import json
import pickle
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from kg.assemble import ENTITY_LABELS, GraphAssembler
from kg.export.files import atomic_open, write_graphml, write_jsonl, write_node_link
from kg.extract.runner import ExtractionCache, extract_all, pipeline_fingerprint
from kg.ingest import read_papers
from kg.resolve import Resolver
from kg.types import Extraction, Paper, PaperRecord, ReadIssue

__all__ = ["build", "BuildReport", "BuildError", "OUTPUT_FILES"]

OnError = Literal["skip", "fail"]
OUTPUT_FILES = {
    "papers": "papers.jsonl",
    "manifest": "manifest.jsonl",
    "node_link": "graph.json",
    "graphml": "graph.graphml",
    "turtle": "graph.ttl",
}


class BuildError(RuntimeError):
    """A build that cannot go on (with ``--on-error fail``: the first bad record)."""


@dataclass
class BuildReport:
    """What a build read, skipped and produced."""

    papers_read: int = 0
    papers_built: int = 0
    duplicates: int = 0
    skipped: list[ReadIssue] = field(default_factory=list)
    entities_by_type: dict[str, int] = field(default_factory=dict)
    proposed: int = 0
    relations: int = 0
    results: int = 0
    code_urls: int = 0
    top_entities: list[tuple[str, str, int]] = field(default_factory=list)
    outputs: dict[str, Path] = field(default_factory=dict)
    cache_hits: int = 0
    graph: nx.MultiDiGraph | None = None

    @property
    def skip_reasons(self) -> Counter:
        return Counter(issue.reason for issue in self.skipped)


class _Manifest:
    """Collects one row per input record, in input order."""

    def __init__(self, on_error: OnError) -> None:
        self.rows: list[dict] = []
        self.on_error = on_error
        self.seen: dict[str, int] = {}
        self.report = BuildReport()

    def accept(self, items: Iterable[Paper | ReadIssue]) -> Iterator[Paper]:
        for item in items:
            if isinstance(item, ReadIssue):
                if self.on_error == "fail":
                    raise BuildError(str(item))
                self.report.skipped.append(item)
                self._row(item.source, None, "skipped", item.reason)
                continue
            self.report.papers_read += 1
            if item.id in self.seen:
                self.report.duplicates += 1
                first = self.rows[self.seen[item.id]]["source"]
                self._row(item.source, item.id, "duplicate", f"same id as {first['path']}#{first['index']}")
                continue
            self.seen[item.id] = len(self.rows)
            self._row(item.source, item.id, "built", None)
            yield item

    def _row(self, source, paper_id, outcome, reason) -> None:
        self.rows.append(
            {
                "source": {"path": source.path, "index": source.index, "line": source.line},
                "id": paper_id,
                "outcome": outcome,
                "reason": reason,
            }
        )


def build(
    inputs: Sequence[str | Path],
    outdir: str | Path | None,
    *,
    fmt: str | None = None,
    config: str | Path | None = None,
    workers: int = 1,
    batch_size: int = 64,
    engine: str = "local",
    scheduler: str | None = None,
    cache: bool | str | Path = True,
    on_error: OnError = "skip",
    outputs: Iterable[str] = ("papers", "manifest", "node_link", "graphml", "turtle"),
    papers_path: str | Path | None = None,
    base_iri: str | None = None,
    progress: bool = False,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into ``outdir``; returns what was done.

    ``cache``: True keeps extraction records in ``outdir/.kg-cache`` so that a
    re-run extracts only new or changed papers; a path puts the cache there;
    False turns it off.
    """
    outputs = set(outputs)
    out = Path(outdir) if outdir is not None else None
    manifest = _Manifest(on_error)
    report = manifest.report
    resolver = Resolver()
    extraction_cache = _open_cache(cache, out, config)

    with tempfile.TemporaryFile(prefix="kg-spool-") as spool:
        papers = manifest.accept(read_papers(list(inputs), fmt=fmt))
        extractions = extract_all(
            papers, config=config, workers=workers, batch_size=batch_size, engine=engine,
            scheduler=scheduler, cache=extraction_cache,
        )
        for extraction in _progress(extractions, progress, "Extracting"):
            resolver.add(extraction)
            pickle.dump(extraction, spool, protocol=pickle.HIGHEST_PROTOCOL)
            report.papers_built += 1
        spool.seek(0)

        assembler = GraphAssembler()

        def records() -> Iterator[PaperRecord]:
            for extraction in _read_spool(spool, report.papers_built):
                record = resolver.resolve(extraction)
                assembler.add(record)
                report.proposed += sum(e.proposed for e in record.entities)
                report.relations += len(record.relations)
                report.results += len(record.results)
                report.code_urls += len(record.code_urls)
                yield record

        target = papers_path or (out / OUTPUT_FILES["papers"] if out else None)
        if "papers" in outputs and target is not None:
            report.outputs["papers"] = Path(target)
            write_jsonl(records(), target)
        else:
            for _ in records():
                pass

    if extraction_cache is not None:
        report.cache_hits = extraction_cache.hits
        extraction_cache.close()
    graph = assembler.finish(resolver.entities)
    report.graph = graph
    _summarise(graph, report)
    if out is not None:
        if "manifest" in outputs:
            report.outputs["manifest"] = out / OUTPUT_FILES["manifest"]
            write_jsonl(manifest.rows, report.outputs["manifest"])
        if "node_link" in outputs:
            report.outputs["node_link"] = out / OUTPUT_FILES["node_link"]
            write_node_link(graph, report.outputs["node_link"])
        if "graphml" in outputs:
            report.outputs["graphml"] = out / OUTPUT_FILES["graphml"]
            write_graphml(graph, report.outputs["graphml"])
        if "turtle" in outputs:
            from kg.export.rdf import write_turtle

            report.outputs["turtle"] = out / OUTPUT_FILES["turtle"]
            kwargs = {"base": base_iri} if base_iri else {}
            write_turtle(graph, report.outputs["turtle"], **kwargs)
        with atomic_open(out / "summary.json") as handle:
            json.dump(_summary_json(report), handle, indent=1, ensure_ascii=False)
        report.outputs["summary"] = out / "summary.json"
    return report


def _open_cache(cache: bool | str | Path, out: Path | None, config) -> ExtractionCache | None:
    if cache is False or (cache is True and out is None):
        return None
    path = out / ".kg-cache" / "extractions.sqlite" if cache is True else Path(cache)
    return ExtractionCache(path, pipeline_fingerprint(str(config) if config else None))


def _read_spool(spool, count: int) -> Iterator[Extraction]:
    for _ in range(count):
        yield pickle.load(spool)


def _progress(items: Iterable, enabled: bool, label: str) -> Iterator:
    if not enabled:
        yield from items
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TimeElapsedColumn

    columns = (SpinnerColumn(), "[progress.description]{task.description}", BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(label, total=None)
        for item in items:
            yield item
            bar.advance(task)


def _summarise(graph: nx.MultiDiGraph, report: BuildReport) -> None:
    labels = Counter(data.get("label") for _, data in graph.nodes(data=True))
    report.entities_by_type = {label: labels.get(label, 0) for label in ENTITY_LABELS}
    entities = [n for n, d in graph.nodes(data=True) if d.get("label") in ENTITY_LABELS]
    ranked = sorted(entities, key=lambda n: (-graph.degree(n), n))[:10]
    report.top_entities = [
        (graph.nodes[n]["name"], graph.nodes[n]["label"], graph.degree(n)) for n in ranked
    ]


def _summary_json(report: BuildReport) -> dict:
    return {
        "papers_read": report.papers_read,
        "papers_built": report.papers_built,
        "extractions_from_cache": report.cache_hits,
        "duplicates": report.duplicates,
        "skipped": [str(issue) for issue in report.skipped],
        "entities_by_type": report.entities_by_type,
        "proposed": report.proposed,
        "relations": report.relations,
        "results": report.results,
        "code_urls": report.code_urls,
        "top_entities": [
            {"name": name, "type": kind, "degree": degree} for name, kind, degree in report.top_entities
        ],
    }
