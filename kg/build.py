"""``kg build``: read -> extract -> resolve -> assemble -> write, streaming.

Papers are read lazily and extracted in batches; extractions are spooled to
a temporary file while the resolver counts them, then read back once to be
resolved, written to ``papers.jsonl`` and added to the graph. Memory grows
with the graph, not with the input.

Every input record ends in ``manifest.jsonl`` as ``built``, ``duplicate`` (same
paper id as an earlier record) or ``skipped`` (with the reader's reason, or the
extractor's: a paper that fails or runs out of its time budget is skipped, and
the build goes on).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from kg.assemble import ENTITY_LABELS, GraphAssembler
from kg.export.files import atomic_open, write_graphml, write_jsonl, write_node_link
from kg.extract.pipeline import MAX_ABSTRACT_CHARS
from kg.extract.runner import RECORD_TIMEOUT, ExtractionCache, extract_all, pipeline_fingerprint
from kg.ingest import read_papers
from kg.resolve import Resolver
from kg.types import (
    Extraction, Paper, PaperRecord, ReadIssue, extraction_from_json, extraction_to_json, paper_from_dict,
)

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
    timings: dict[str, float] = field(default_factory=dict)
    cache_hits: int = 0
    graph: nx.MultiDiGraph | None = None

    @property
    def skip_reasons(self) -> Counter:
        return Counter(issue.reason for issue in self.skipped)


class _Manifest:
    """Streams one row per input record, in input order, to a temporary file."""

    def __init__(self, on_error: OnError, report: BuildReport) -> None:
        self.on_error = on_error
        self.report = report
        self.first_seen: dict[str, str] = {}
        self.failed: dict[tuple[str, int], str] = {}  # (path, index) -> why extraction gave nothing
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8", prefix="kg-manifest-")

    def accept(self, items: Iterable[Paper | ReadIssue]) -> Iterator[Paper]:
        for item in items:
            if isinstance(item, ReadIssue):
                if self.on_error == "fail":
                    raise BuildError(str(item))
                self.report.skipped.append(item)
                self._row(item.source, None, "skipped", item.reason)
                continue
            self.report.papers_read += 1
            if item.id in self.first_seen:
                self.report.duplicates += 1
                self._row(item.source, item.id, "duplicate", f"same id as {self.first_seen[item.id]}")
                continue
            self.first_seen[item.id] = f"{item.source.path}#{item.source.index}"
            note = None
            if len(item.abstract) > MAX_ABSTRACT_CHARS:
                note = f"abstract of {len(item.abstract)} characters: extracted from the first {MAX_ABSTRACT_CHARS}"
            self._row(item.source, item.id, "built", note)
            yield item

    def fail(self, issue: ReadIssue) -> None:
        """A paper read and accepted whose extraction failed: its row becomes ``skipped``."""
        if self.on_error == "fail":
            raise BuildError(str(issue))
        self.report.skipped.append(issue)
        self.failed[(issue.source.path, issue.source.index)] = issue.reason

    def rows(self) -> Iterator[dict]:
        self.file.seek(0)
        for line in self.file:
            row = json.loads(line)
            reason = self.failed.get((row["source"]["path"], row["source"]["index"]))
            if reason is not None and row["outcome"] == "built":
                row["outcome"], row["reason"] = "skipped", reason
            yield row

    def _row(self, source, paper_id, outcome, reason) -> None:
        row = {
            "source": {"path": source.path, "index": source.index, "line": source.line},
            "id": paper_id,
            "outcome": outcome,
            "reason": reason,
        }
        self.file.write(json.dumps(row, ensure_ascii=False) + "\n")


@contextmanager
def _timed(report: BuildReport, stage: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        report.timings[stage] = round(report.timings.get(stage, 0.0) + time.perf_counter() - start, 3)


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
    record_timeout: float | None = RECORD_TIMEOUT,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into ``outdir``; returns what was done.

    ``cache``: True keeps extraction records in ``outdir/.kg-cache`` so that a
    re-run extracts only new or changed papers; a path puts the cache there;
    False turns it off. ``record_timeout``: seconds one paper may take to extract;
    a paper past it (or whose extraction fails) is skipped and listed.
    """
    outputs = set(outputs)
    out = Path(outdir) if outdir is not None else None
    report = BuildReport()
    manifest = _Manifest(on_error, report)
    resolver = Resolver()
    if out is not None:
        (out / "summary.json").unlink(missing_ok=True)  # written last: marks a complete build
    extraction_cache = _open_cache(cache, out, config)

    with manifest.file, extraction_cache or nullcontext():
        with tempfile.TemporaryFile(prefix="kg-spool-") as spool:
            with _timed(report, "read+extract"):
                papers = manifest.accept(read_papers(list(inputs), fmt=fmt))
                extractions = extract_all(
                    papers, config=config, workers=workers, batch_size=batch_size, engine=engine,
                    scheduler=scheduler, cache=extraction_cache, record_timeout=record_timeout,
                )
                for extraction in _progress(extractions, progress, "Extracting"):
                    if isinstance(extraction, ReadIssue):
                        manifest.fail(extraction)
                        continue
                    resolver.add(extraction)
                    _spool_write(spool, extraction)
                    report.papers_built += 1
            report.cache_hits = extraction_cache.hits if extraction_cache else 0
            spool.seek(0)
            with _timed(report, "resolve+assemble"):
                assembler = _resolve(spool, resolver, report, outputs, papers_path, out)
                graph = assembler.finish(resolver.entities)
        report.graph = graph
        _summarise(graph, report)
        if out is not None:
            _write_outputs(graph, manifest, report, outputs, out, base_iri)
    return report


def _resolve(spool, resolver: Resolver, report: BuildReport, outputs, papers_path, out) -> GraphAssembler:
    """Read the spool back once: resolve each paper, write papers.jsonl, add it to the graph."""
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
    return assembler


def _write_outputs(graph, manifest: _Manifest, report: BuildReport, outputs, out: Path, base_iri) -> None:
    writers = {
        "manifest": lambda path: write_jsonl(manifest.rows(), path),
        "node_link": lambda path: write_node_link(graph, path),
        "graphml": lambda path: write_graphml(graph, path),
        "turtle": lambda path: _write_turtle(graph, path, base_iri),
    }
    for kind, write in writers.items():
        if kind in outputs:
            report.outputs[kind] = out / OUTPUT_FILES[kind]
            with _timed(report, f"write {OUTPUT_FILES[kind]}"):
                write(report.outputs[kind])
    with atomic_open(out / "summary.json") as handle:
        json.dump(_summary_json(report), handle, indent=1, ensure_ascii=False)
    report.outputs["summary"] = out / "summary.json"


def _write_turtle(graph, path: Path, base_iri: str | None) -> None:
    from kg.export.rdf import write_turtle

    write_turtle(graph, path, **({"base": base_iri} if base_iri else {}))


def _open_cache(cache: bool | str | Path, out: Path | None, config) -> ExtractionCache | None:
    if cache is False or (cache is True and out is None):
        return None
    path = out / ".kg-cache" / "extractions.sqlite" if cache is True else Path(cache)
    return ExtractionCache(path, pipeline_fingerprint(str(config) if config else None))


def _spool_write(spool, extraction: Extraction) -> None:
    """One JSON line per paper: the paper's fields, then its extraction (data, never pickles)."""
    line = {"paper": asdict(extraction.paper), "extraction": extraction_to_json(extraction)}
    spool.write(json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n")


def _read_spool(spool, count: int) -> Iterator[Extraction]:
    for _ in range(count):
        line = json.loads(spool.readline().decode("utf-8", "surrogatepass"))
        yield extraction_from_json(line["extraction"], paper_from_dict(line["paper"]))


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
        "timings_s": report.timings,
        "top_entities": [
            {"name": name, "type": kind, "degree": degree} for name, kind, degree in report.top_entities
        ],
    }
