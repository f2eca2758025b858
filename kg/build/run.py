"""The build from inputs to files: read and extract, resolve and assemble (here or on a Dask
cluster), write; each step's details live in the other modules of :mod:`kg.build`."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path

from kg.build.manifest import _Manifest
from kg.build.outputs import _graph_writers, _write_outputs
from kg.build.progress import _progress, estimate_records
from kg.build.report import BuildError, BuildReport, OnError, _nothing_built, _summarise, _timed
from kg.build.spool import _read_spool, _scratch, _spool_write, _write_failure
from kg.build.staging import _build_lock, _not_yet_there, _publish, _remove_created, _remove_leftovers
from kg.builddir import OUTPUT_FILES, STAGING_PREFIX, BuildDir
from kg.export.files import write_jsonl
from kg.extract.runner import RECORD_TIMEOUT, ExtractionCache, extract_all, pipeline_fingerprint
from kg.graphstore import GraphStore
from kg.ingest import InputError, read_papers, scan_inputs
from kg.resolve import Resolver
from kg.types import Paper, PaperRecord, ReadIssue


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


def _open_cache(cache: bool | str | Path, out: Path | None, config) -> ExtractionCache | None:
    if cache is False or (cache is True and out is None):
        return None
    path = BuildDir(out).extractions if cache is True else Path(cache)
    return ExtractionCache(path, pipeline_fingerprint(str(config) if config else None))
