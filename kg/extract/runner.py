"""Run extraction over many papers: in process, in worker processes, or on a Dask cluster.

Work is cut into batches of papers; each batch is turned into
:class:`~kg.types.Extraction` records where it runs (workers send back small
records, never spaCy Docs), and batches come back in input order, so every
engine yields exactly what a plain local run yields. At most a few batches
per worker are in flight, so memory stays bounded however long the input.

An :class:`ExtractionCache` keeps records by paper id, abstract and pipeline
fingerprint: a re-run with more papers extracts only the new ones, and a re-run
that finds every paper there loads no pipeline and starts no worker (they are
started at the first paper the cache lacks). It stores
JSON data (:func:`kg.types.extraction_to_json`), never pickles: a crafted cache
file can at worst give wrong records, never run code.

One record never stops the others: each paper gets a time budget
(``record_timeout`` seconds, enforced with ``SIGALRM`` where extraction runs in
a process's main thread: locally and in ``--workers`` processes, not in Dask's
worker threads), and a batch that fails or runs out of time is extracted again
one paper at a time, so the paper to blame is found and comes back as a
:class:`~kg.types.ReadIssue` in its place. Worker processes die with the
process that started them (``PR_SET_PDEATHSIG`` on Linux).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from itertools import islice
from multiprocessing import get_context
from pathlib import Path

from kg import __version__
from kg.extract.pipeline import DEFAULT_CONFIG, extract_papers, load_pipeline
from kg.types import EXTRACTION_FORMAT, Extraction, Paper, ReadIssue, extraction_from_json, extraction_to_json

__all__ = [
    "ENGINES", "RECORD_TIMEOUT", "ExtractionCache", "extract_all", "extract_batch", "extract_guarded",
    "fingerprint_files", "pipeline_fingerprint",
]

ENGINES = ("local", "dask")
#: Seconds one paper may take to extract (a 100k-character abstract takes a few seconds).
RECORD_TIMEOUT = 60.0
_PACKAGE_DIR = Path(__file__).parent
_log = logging.getLogger(__name__)


@lru_cache(maxsize=8)
def fingerprint_files(config: str | None = None) -> list[Path]:
    """The files extraction depends on: the config, kg.extract's code, lexicons and learned
    models (``models/*.npz``, the recogniser in ``models/entities``), and the kg modules it
    imports (names and ids are made in ``kg/ids.py``)."""
    files = [Path(config or DEFAULT_CONFIG)]
    files += sorted(p for p in _PACKAGE_DIR.rglob("*") if p.suffix in (".py", ".cfg", ".jsonl", ".npz", ".gz", ".tsv"))
    files += sorted(p for p in (_PACKAGE_DIR / "models" / "entities").rglob("*") if p.is_file())
    files += [_PACKAGE_DIR.parent / name for name in ("ids.py", "types.py")]
    return files


def pipeline_fingerprint(config: str | None = None) -> str:
    """A digest of everything extraction depends on: kg's version and :func:`fingerprint_files`."""
    digest = hashlib.sha256(__version__.encode())
    for path in fingerprint_files(config):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def extract_batch(
    papers: list[Paper], config: str | None = None, batch_size: int = 64,
    record_timeout: float | None = RECORD_TIMEOUT,
) -> list[Extraction | ReadIssue]:
    """Extract one batch in this process (the unit of work shipped to workers)."""
    return extract_guarded(papers, load_pipeline(config), batch_size, record_timeout)


class RecordTimeout(Exception):
    """A paper took longer than its time budget."""


def extract_guarded(
    papers: list[Paper], nlp, batch_size: int = 64, record_timeout: float | None = RECORD_TIMEOUT,
) -> list[Extraction | ReadIssue]:
    """One record per paper, in order: its extraction, or a ReadIssue saying why there is none.

    The batch runs as one ``nlp.pipe``; if that fails or a paper runs out of time,
    the papers from there on run one at a time, each with its own budget.
    """
    done: list[Extraction | ReadIssue] = []
    try:
        for record in _each_within(extract_papers(papers, nlp, batch_size=batch_size), record_timeout):
            done.append(record)
        return done
    except Exception:  # noqa: BLE001 - the culprit is found below, one paper at a time
        pass
    for paper in papers[len(done) :]:
        try:
            done += _each_within(extract_papers([paper], nlp, batch_size=1), record_timeout)
        except RecordTimeout:
            done.append(ReadIssue(paper.source, f"extraction took longer than {record_timeout:g} s: skipped"))
        except Exception as error:  # noqa: BLE001 - reported in the manifest
            message = " ".join(str(error).split())[:200]
            done.append(ReadIssue(paper.source, f"extraction failed: {type(error).__name__}: {message}"))
    return done


def _each_within(records: Iterator[Extraction], seconds: float | None) -> list[Extraction]:
    """The records, each produced within ``seconds`` (timing only the work, not the consumer)."""
    out = []
    iterator = iter(records)
    while True:
        with _deadline(seconds):
            record = next(iterator, None)
        if record is None:
            return out
        out.append(record)


@contextmanager
def _deadline(seconds: float | None):
    """Raise :class:`RecordTimeout` in this block after ``seconds`` (main thread only: signals)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise RecordTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _worker_init(config: str | None, parent: int) -> None:
    """A ``--workers`` process: die with the build (even if it is SIGKILLed), then load the pipeline."""
    if sys.platform == "linux":
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no libc prctl: workers end when the pool is shut down
            pass
        if os.getppid() != parent:  # the build died before prctl took effect
            os._exit(1)
    load_pipeline(config)


class ExtractionCache:
    """Extraction records on disk (SQLite), keyed by paper id + abstract digest + pipeline.

    Records are JSON of version :data:`kg.types.EXTRACTION_FORMAT`. A file that is
    not a readable cache is set aside with a warning and a new one started; a record
    that does not read back is extracted again. Neither stops a build.
    """

    def __init__(self, path: str | Path, fingerprint: str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fingerprint = fingerprint
        self.hits = self.misses = self.discarded = 0
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as error:
            _log.warning("%s: not a readable extraction cache (%s); starting a new one", self.path, error)
            self.path.unlink(missing_ok=True)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path))
        try:
            db.execute("DROP TABLE IF EXISTS extraction")  # kg <= 0.1 stored pickles there: never read
            db.execute("CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, format INTEGER, record TEXT)")
            db.execute("SELECT count(*) FROM records").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def key(self, paper: Paper) -> str:
        text = hashlib.sha256(paper.abstract.encode("utf-8")).hexdigest()[:16]
        return f"{self.fingerprint}:{paper.id}:{text}"

    def get(self, paper: Paper) -> Extraction | None:
        try:
            row = self._db.execute(
                "SELECT record FROM records WHERE key = ? AND format = ?", (self.key(paper), EXTRACTION_FORMAT)
            ).fetchone()
            record = None if row is None else extraction_from_json(json.loads(row[0]), paper)
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError) as error:
            self.discarded += 1
            _log.warning("%s: cached record of %s discarded (%s); extracting it again", self.path, paper.id, error)
            record = None
        if record is None:
            self.misses += 1
        else:
            self.hits += 1  # the paper (file, position) is the current input's
        return record

    def put_many(self, records: Iterable[Extraction]) -> None:
        rows = [
            (self.key(r.paper), EXTRACTION_FORMAT, json.dumps(extraction_to_json(r), ensure_ascii=False))
            for r in records
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?)", rows)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ExtractionCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _batches(papers: Iterable[Paper], size: int) -> Iterator[list[Paper]]:
    iterator = iter(papers)
    while batch := list(islice(iterator, size)):
        yield batch


class _Done:
    """Work done in this process, read like a :class:`~concurrent.futures.Future`."""

    def __init__(self, value) -> None:
        self._value = value

    def result(self):
        return self._value


def _pipelined(
    papers: Iterable[Paper], cache: ExtractionCache | None, submit: Callable[[list[Paper]], Future | _Done],
    size: int, window: Callable[[], int],
) -> Iterator[Extraction | ReadIssue]:
    """Records in input order: batches of ``size`` papers, each looked up in ``cache`` and its
    missing papers submitted, at most ``window()`` batches in flight. Workers stay busy across
    the whole input: no batch waits for the slowest of a group."""
    pending: deque[tuple[list[Extraction | None], Future | _Done | None]] = deque()
    for batch in _batches(papers, size):
        cached = [cache.get(p) for p in batch] if cache is not None else [None] * len(batch)
        missing = [p for p, record in zip(batch, cached) if record is None]
        pending.append((cached, submit(missing) if missing else None))
        while len(pending) >= window():
            yield from _merged(*pending.popleft(), cache)
    while pending:
        yield from _merged(*pending.popleft(), cache)


def _merged(cached: list[Extraction | None], future: Future | _Done | None,
            cache: ExtractionCache | None) -> Iterator[Extraction | ReadIssue]:
    """A batch's cached records with the fresh ones in their places; the fresh ones cached."""
    fresh = iter(future.result() if future is not None else ())
    done = []
    for record in cached:
        if record is None:
            record = next(fresh)
            if isinstance(record, Extraction):
                done.append(record)
        yield record
    if cache is not None and done:
        cache.put_many(done)


def extract_all(
    papers: Iterable[Paper],
    *,
    config: str | Path | None = None,
    workers: int = 1,
    batch_size: int = 64,
    engine: str = "local",
    scheduler: str | None = None,
    cache: ExtractionCache | None = None,
    record_timeout: float | None = RECORD_TIMEOUT,
) -> Iterator[Extraction | ReadIssue]:
    """Extraction records for ``papers``, in input order, with the chosen engine.

    ``engine="local"`` with ``workers=1`` runs in this process; with more
    workers it uses a process pool. ``engine="dask"`` sends batches to a
    Dask cluster: ``scheduler`` is its address (``tcp://host:8786``), or,
    when None, a local cluster of ``workers`` processes is started.
    A paper that fails or takes longer than ``record_timeout`` seconds comes
    back as a :class:`~kg.types.ReadIssue` (see :func:`extract_guarded`).
    """
    config_str = str(config) if config else None
    if engine == "dask":
        yield from _dask(papers, config_str, workers, batch_size, scheduler, cache, record_timeout)
    elif engine != "local":
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    elif workers <= 1:

        def run(batch: list[Paper]) -> _Done:
            nlp = load_pipeline(config_str)  # on the first paper the cache lacks (then lru-cached)
            return _Done(extract_guarded(batch, nlp, batch_size, record_timeout))

        yield from _pipelined(papers, cache, run, batch_size, lambda: 1)
    else:
        with ExitStack() as stack:
            pools: list[ProcessPoolExecutor] = []

            def submit(batch: list[Paper]) -> Future:
                if not pools:  # started on the first paper the cache lacks: each worker loads the pipeline
                    pools.append(stack.enter_context(ProcessPoolExecutor(
                        workers, mp_context=get_context("spawn"), initializer=_worker_init,
                        initargs=(config_str, os.getpid()))))
                return pools[0].submit(extract_batch, batch, config_str, batch_size, record_timeout)

            yield from _pipelined(papers, cache, submit, batch_size, lambda: workers * 2)


def _dask(papers, config, workers, batch_size, scheduler, cache, record_timeout):
    # Without the dask extra this raises ModuleNotFoundError; the CLI names the extra (kg.extras).
    from dask.distributed import Client, LocalCluster

    with ExitStack() as stack:
        clients: list[Client] = []
        in_flight = [1]  # two batches per worker once connected

        def submit(batch: list[Paper]) -> Future:
            if not clients:  # connected on the first paper the cache lacks
                cluster = scheduler or stack.enter_context(LocalCluster(
                    n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None))
                clients.append(stack.enter_context(Client(cluster)))
                in_flight[0] = 2 * max(len(clients[0].scheduler_info().get("workers", {})), 1)
            return clients[0].submit(extract_batch, batch, config, batch_size, record_timeout, pure=False)

        yield from _pipelined(papers, cache, submit, batch_size, lambda: in_flight[0])
