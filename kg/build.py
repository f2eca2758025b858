"""``kg build``: read -> extract -> resolve -> assemble -> write, streaming.

Papers are read lazily and extracted in batches; extractions are spooled to
a temporary file while the resolver counts them, then read back once to be
resolved, written to ``papers.jsonl`` and added to the graph. Memory grows
with the graph, not with the input. With ``engine="dask"`` and an output
directory, resolution, assembly and writing run on the Dask cluster too
(:mod:`kg.cluster`), and write the same files byte for byte.

Every input record ends in ``manifest.jsonl`` as ``built``, ``duplicate`` (same
paper id as an earlier record) or ``skipped`` (with the reader's reason, or the
extractor's: a paper that fails or runs out of its time budget is skipped, and
the build goes on). Every file found in an input directory and not read is
there too, as ``ignored`` with the reason, and a file read in the format its
content shows rather than its extension's has a ``read`` row saying so. A build
that builds no paper at all is an error (every record and why is in the message),
not an empty graph.

A build that fails leaves nothing behind: the files and directories it created
(BUILD_DIR itself, its lock file, its extraction cache) are removed; a previous
build in BUILD_DIR stays as it was.

A build directory holds one build at a time: ``BUILD_DIR/.kg-build.lock`` is
held (``flock``) while a build runs, and a second build into it stops at once
with a clear error. Files are written into ``BUILD_DIR/.kg-staging-*/`` and moved
into place only when everything is written: ``summary.json`` is removed just
before the move and written last, so ``BUILD_DIR`` always holds either the
previous complete build or the new one (or, for the milliseconds of the move,
no ``summary.json``, which marks a build as incomplete). A killed build's
staging directory and ``.part`` files are removed by the next build.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import networkx as nx

from kg.builddir import LOCK_FILE, OUTPUT_FILES, STAGING_PREFIX, SUMMARY_FILE, BuildDir
from kg.export.files import write_jsonl
from kg.export.writers import BUILD_FORMATS, WRITERS, write_graph
from kg.extract.pipeline import MAX_ABSTRACT_CHARS
from kg.extract.runner import RECORD_TIMEOUT, ExtractionCache, extract_all, pipeline_fingerprint
from kg.graphstore import GraphStore
from kg.ingest import InputError, read_papers, scan_inputs
from kg.resolve import Resolver
from kg.schema import ENTITY_LABELS
from kg.types import (
    Extraction, FileNote, Paper, PaperRecord, ReadIssue, extraction_from_json, extraction_to_json,
    paper_from_dict,
)

__all__ = ["build", "BuildReport", "BuildError", "OUTPUT_FILES", "LOCK_FILE"]

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


class _Manifest:
    """Streams one row per input record, in input order, to a temporary file."""

    def __init__(self, on_error: OnError, report: BuildReport, directory: Path | None = None) -> None:
        self.on_error = on_error
        self.report = report
        self.first_seen: dict[str, str] = {}
        self.failed: dict[tuple[str, int], str] = {}  # (path, index) -> why extraction gave nothing
        self.file = _scratch(directory, "manifest-rows.jsonl", "w+")

    def accept(self, items: Iterable[Paper | ReadIssue | FileNote]) -> Iterator[Paper]:
        for item in items:
            if isinstance(item, FileNote):
                self.report.files.append(item)
                self._file_row(item)
                continue
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

    def _file_row(self, note: FileNote) -> None:
        row = {"source": {"path": note.path, "index": None, "line": None}, "id": None,
               "outcome": note.outcome, "reason": note.reason}
        with _naming(self.file):
            self.file.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.file.flush()

    def _row(self, source, paper_id, outcome, reason) -> None:
        row = {
            "source": {"path": source.path, "index": source.index, "line": source.line},
            "id": paper_id,
            "outcome": outcome,
            "reason": reason,
        }
        with _naming(self.file):
            self.file.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.file.flush()


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
    outputs: Iterable[str] = ("papers", "manifest", "node_link", "graphml", "turtle", "results"),
    papers_path: str | Path | None = None,
    base_iri: str | None = None,
    progress: bool = False,
    record_timeout: float | None = RECORD_TIMEOUT,
    papers: Iterable[Paper | ReadIssue] | None = None,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into ``outdir``; returns what was done.

    ``papers``: papers already read (the Python API, :mod:`kg.ingest.records`), built
    instead of reading ``inputs``.

    ``cache``: True keeps extraction records in ``outdir/.kg-cache`` so that a
    re-run extracts only new or changed papers; a path puts the cache there;
    False turns it off. ``record_timeout``: seconds one paper may take to extract;
    a paper past it (or whose extraction fails) is skipped and listed.
    """
    outputs = set(outputs)
    out = Path(outdir) if outdir is not None else None
    # a mistyped input fails before BUILD_DIR is touched
    files = scan_inputs(list(inputs)) if papers is None else []
    created = _not_yet_there(out) if out is not None else []
    locked = False  # only the build holding BUILD_DIR's lock may remove what it created there
    try:
        with ExitStack() as stack:
            stage = None
            if out is not None:
                stack.enter_context(_build_lock(out))
                locked = True
                _remove_leftovers(out)
                stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
                stack.callback(shutil.rmtree, stage, ignore_errors=True)  # after the move: empty
            try:
                report = _build(files, out, stage, fmt=fmt, config=config, workers=workers,
                                batch_size=batch_size, engine=engine, scheduler=scheduler, cache=cache,
                                on_error=on_error, outputs=outputs, papers_path=papers_path,
                                base_iri=base_iri, progress=progress, record_timeout=record_timeout,
                                papers=papers)
            except (InputError, BuildError):
                raise
            except OSError as error:
                raise BuildError(_write_failure(error)) from None
            except sqlite3.Error as error:  # the extraction cache (a full disk: "database or disk is full")
                where = BuildDir(out).cache if cache is True and out is not None else cache
                raise BuildError(f"cannot use the extraction cache in {where}: {error}") from None
            if out is not None and stage is not None:
                _publish(stage, out, report)
    except BaseException:
        if locked:
            _remove_created(created)
        raise
    return report


def _not_yet_there(out: Path) -> list[Path]:
    """What a build into ``out`` creates and is to remove if it fails, deepest first: the
    directories up to ``out`` that do not exist yet, else the lock file and the cache."""
    missing = [path for path in (out, *out.parents) if not path.exists() and not path.is_symlink()]
    if missing:
        return missing  # removing the topmost new directory removes everything under it
    return [path for path in (BuildDir(out).lock, BuildDir(out).cache) if not path.exists()]


def _remove_created(paths: list[Path]) -> None:
    for path in reversed(paths):  # the topmost first: everything under it goes with it
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _build(files, out: Path | None, stage: Path | None, *, fmt, config, workers, batch_size, engine,
           scheduler, cache, on_error, outputs, papers_path, base_iri, progress, record_timeout,
           papers=None) -> BuildReport:
    """The build itself; outputs go to ``stage`` (moved into ``out`` by the caller)."""
    report = BuildReport()
    manifest = _Manifest(on_error, report, stage)
    on_cluster = engine == "dask" and stage is not None  # the whole build; else extraction only
    resolver = Resolver()
    extraction_cache = _open_cache(cache, out, config)

    with manifest.file, extraction_cache or nullcontext(), _cluster(on_cluster, workers, scheduler) as client:
        with _scratch(stage, "spool.jsonl", "w+b") as spool:
            with _timed(report, "read+extract"):
                accepted = manifest.accept(read_papers(files, fmt=fmt) if papers is None else papers)
                extractions = extract_all(
                    accepted, config=config, workers=workers, batch_size=batch_size, engine=engine,
                    scheduler=client.scheduler.address if client else scheduler, cache=extraction_cache,
                    record_timeout=record_timeout,
                )
                total = estimate_records(files, fmt) if progress else None
                for extraction in _progress(extractions, progress, "Extracting", total):
                    if isinstance(extraction, ReadIssue):
                        manifest.fail(extraction)
                        continue
                    if client is None:  # on a cluster, the workers count
                        resolver.add(extraction)
                    _spool_write(spool, extraction)
                    report.papers_built += 1
            report.cache_hits = extraction_cache.hits if extraction_cache else 0
            if report.papers_built == 0:
                raise BuildError(_nothing_built(report))
            spool.seek(0)
            if client is not None and stage is not None:
                _build_on_cluster(client, spool, manifest, report, outputs, papers_path, stage, base_iri)
                return report
            with _graph_store(stage) as store:
                with _timed(report, "resolve+assemble"):
                    _resolve(spool, resolver, store, report, outputs, papers_path, stage)
                    store.finish(resolver.entities)
                _summarise(store, report)
                if stage is not None:
                    _write_outputs(_graph_writers(store, base_iri), manifest, report, outputs, stage)
                else:
                    report._graph = store.to_networkx()
    return report


@contextmanager
def _cluster(wanted: bool, workers: int, scheduler: str | None):
    """A Dask client for a build on a cluster (:mod:`kg.cluster`), else None."""
    if not wanted:
        yield None
        return
    from kg.cluster import connect

    with connect(workers, scheduler) as client:
        yield client


def _build_on_cluster(client, spool, manifest: _Manifest, report: BuildReport, outputs, papers_path,
                      out: Path, base_iri) -> None:
    """Resolve, assemble and write on the cluster: the files of :func:`_resolve` and
    :func:`_write_outputs` from a local store, byte for byte."""
    from kg.cluster import ClusterGraph

    with ClusterGraph(client, spool, report.papers_built) as graph:
        target = (papers_path or out / OUTPUT_FILES["papers"]) if "papers" in outputs else None
        with _timed(report, "resolve+assemble"):
            graph.assemble(target)
        report.timings.update({f"resolve+assemble: {stage}": seconds for stage, seconds in graph.timings.items()})
        if target is not None:
            report.outputs["papers"] = Path(target)
        graph.summarise(report)
        _write_outputs(graph.writers(base_iri), manifest, report, outputs, out)


@contextmanager
def _graph_store(stage: Path | None):
    """The build's :class:`GraphStore`: a scratch file in the staging directory (removed with
    it), or in a temporary directory for a build that writes no files."""
    with tempfile.TemporaryDirectory(prefix="kg-graph-") if stage is None else nullcontext(stage) as where:
        store = GraphStore(Path(where) / "graph-store.sqlite")
        try:
            yield store
        finally:
            store.close()
            (Path(where) / "graph-store.sqlite").unlink(missing_ok=True)


@contextmanager
def _build_lock(out: Path):
    """Hold ``BUILD_DIR/.kg-build.lock`` for the build; another build holding it is an error.

    ``flock`` locks end with the process, so a killed build leaves no stale lock.
    """
    import fcntl

    out.mkdir(parents=True, exist_ok=True)
    path = BuildDir(out).lock
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until the build ends
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise BuildError(
                f"{out} is being built by another kg build ({holder}); wait for it to finish "
                f"or build into another directory"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


def _remove_leftovers(out: Path) -> None:
    """Staging directories and ``.part`` files of builds that were killed (the lock is ours)."""
    for path in out.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(path, ignore_errors=True)
    for name in [*OUTPUT_FILES.values(), SUMMARY_FILE]:
        for part in out.glob(f".{name}.*.part"):
            part.unlink(missing_ok=True)


def _publish(stage: Path, out: Path, report: BuildReport) -> None:
    """Move the staged files into ``out``: summary.json out first, back in last."""
    staged, target = BuildDir(stage), BuildDir(out)
    target.summary.unlink(missing_ok=True)
    for kind in OUTPUT_FILES:
        if staged.output(kind).exists():
            os.replace(staged.output(kind), target.output(kind))
        else:
            target.output(kind).unlink(missing_ok=True)  # an earlier build's file this build did not write
    os.replace(staged.summary, target.summary)
    report.outputs = {
        kind: out / path.name if path.parent == stage else path for kind, path in report.outputs.items()
    }


def _scratch(directory: Path | None, name: str, mode: str):
    """A working file: ``name`` in the staging directory (on the disk the build fills, and
    named in errors), else an anonymous temporary file."""
    if directory is None:
        return tempfile.TemporaryFile(mode, prefix=f"kg-{name}-")
    return open(directory / name, mode, encoding=None if "b" in mode else "utf-8")  # noqa: SIM115


@contextmanager
def _naming(handle):
    """Give a failed write the name of the file it was writing (write() names none)."""
    try:
        yield
    except OSError as error:
        if error.filename is None and isinstance(handle.name, str):
            raise OSError(error.errno, error.strerror, handle.name) from error
        raise


def _write_failure(error: OSError) -> str:
    """One line naming the file a build could not write, and why (disk full ...)."""
    cause: BaseException | None = error
    while cause is not None and not getattr(cause, "filename", None):  # closing a file that
        cause = cause.__context__  # failed to write fails again, without the name
    if isinstance(cause, OSError):
        error = cause
    why = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        why = "no space left on the device"
    where = error.filename or f"a temporary file in {tempfile.gettempdir()}"
    return f"cannot write {where}: {why}"


def _resolve(spool, resolver: Resolver, store: GraphStore, report: BuildReport, outputs, papers_path, out) -> None:
    """Read the spool back once: resolve each paper, write papers.jsonl, add it to the graph."""

    def records() -> Iterator[PaperRecord]:
        for extraction in _read_spool(spool, report.papers_built):
            record = resolver.resolve(extraction)
            store.add(record)
            report.proposed += sum(e.proposed for e in record.entities)
            report.relations += len(record.relations)
            report.results += len(record.results)
            report.code_urls += len(record.code_urls)
            yield record

    target = papers_path or (BuildDir(out).papers if out else None)
    if "papers" in outputs and target is not None:
        report.outputs["papers"] = Path(target)
        write_jsonl(records(), target)
    else:
        for _ in records():
            pass


def _graph_writers(graph, base_iri) -> dict:
    """A writer per graph file of the build (:data:`kg.export.writers.BUILD_FORMATS`)."""

    def writer(kind: str):
        options = WRITERS[kind].pick(base=base_iri)
        return lambda path: write_graph(graph, path, kind, **options)

    return {kind: writer(kind) for kind in BUILD_FORMATS}


def _write_outputs(graph_writers: dict, manifest: _Manifest, report: BuildReport, outputs, out: Path) -> None:
    writers = {"manifest": lambda path: write_jsonl(manifest.rows(), path), **graph_writers}
    build = BuildDir(out)
    for kind, write in writers.items():
        if kind in outputs:
            report.outputs[kind] = build.output(kind)
            with _timed(report, f"write {OUTPUT_FILES[kind]}"):
                write(report.outputs[kind])
    with build.open(SUMMARY_FILE) as handle:
        json.dump(_summary_json(report), handle, indent=1, ensure_ascii=False)
    report.outputs["summary"] = build.summary


def _open_cache(cache: bool | str | Path, out: Path | None, config) -> ExtractionCache | None:
    if cache is False or (cache is True and out is None):
        return None
    path = BuildDir(out).extractions if cache is True else Path(cache)
    return ExtractionCache(path, pipeline_fingerprint(str(config) if config else None))


def _spool_write(spool, extraction: Extraction) -> None:
    """One JSON line per paper: the paper's fields, then its extraction (data, never pickles)."""
    line = {"paper": asdict(extraction.paper), "extraction": extraction_to_json(extraction)}
    with _naming(spool):
        spool.write(json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n")
        spool.flush()  # a full disk shows here, named, not at a later read


def _read_spool(spool, count: int) -> Iterator[Extraction]:
    for _ in range(count):
        yield spool_record(spool.readline())


def spool_record(line: bytes) -> Extraction:
    """One line of the spool read back (:mod:`kg.cluster` reads the lines it is sent)."""
    data = json.loads(line.decode("utf-8", "surrogatepass"))
    return extraction_from_json(data["extraction"], paper_from_dict(data["paper"]))


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


def estimate_records(files, fmt: str | None = None) -> int | None:
    """About how many records ``files`` hold, counted cheaply: non-blank lines of JSON Lines,
    rows of CSV (lines but the header), paragraphs of text lists, ``@`` entries of BibTeX;
    None when a file's count is not cheap to get (a JSON array)."""
    from kg.ingest import detect_format

    total = 0
    for entry in files:
        if getattr(entry, "ignored", None) is not None:
            continue
        path = getattr(entry, "path", entry)
        kind = fmt or detect_format(path)
        if kind == "json":
            return None
        try:
            with open(path, "rb") as handle:
                lines = [line.strip() for line in handle]
        except OSError:
            continue
        if kind == "jsonl":
            total += sum(1 for line in lines if line)
        elif kind == "csv":
            total += max(sum(1 for line in lines if line) - 1, 0)
        elif kind == "bibtex":
            total += sum(1 for line in lines if line.startswith(b"@"))
        else:  # a header line, then paragraphs
            starts = sum(1 for before, line in zip([b"", *lines], lines) if line and not before)
            total += max(starts - 1, 1)
    return total


def _progress(items: Iterable, enabled: bool, label: str, total: int | None = None) -> Iterator:
    """A progress bar on stderr; with ``total``, a bar, a count of it and the time left."""
    if not enabled:
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TimeElapsedColumn, TimeRemainingColumn,
    )

    columns = [SpinnerColumn(), "[progress.description]{task.description}", BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn()]
    if total:
        columns.append(TimeRemainingColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total or None)
        for item in items:
            yield item
            bar.advance(task)


def _summarise(store: GraphStore, report: BuildReport) -> None:
    entities = {node: (data["name"], data["label"]) for node, data in store.labelled(ENTITY_LABELS)}
    labels = Counter(label for _, label in entities.values())
    report.entities_by_type = {label: labels.get(label, 0) for label in ENTITY_LABELS}
    degree = store.degrees(set(entities))
    ranked = sorted(entities, key=lambda n: (-degree[n], n))[:10]
    report.top_entities = [(*entities[n], degree[n]) for n in ranked]
    report.nodes, report.edges = store.number_of_nodes(), store.number_of_edges()


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
        "nodes": report.nodes,
        "edges": report.edges,
        "timings_s": report.timings,
        "top_entities": [
            {"name": name, "type": kind, "degree": degree} for name, kind, degree in report.top_entities
        ],
    }
