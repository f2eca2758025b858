"""Run extraction over many papers: in process, in worker processes, or on a Dask cluster.

Work is cut into batches of papers; each batch is turned into
:class:`~kg.types.Extraction` records where it runs (workers send back small
records, never spaCy Docs), and batches come back in input order, so every
engine yields exactly what a plain local run yields. At most a few batches
per worker are in flight, so memory stays bounded however long the input.

An :class:`ExtractionCache` keeps records by paper id, abstract and pipeline
fingerprint: a re-run with more papers extracts only the new ones.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache
from itertools import islice
from multiprocessing import get_context
from pathlib import Path

from kg import __version__
from kg.extract.pipeline import DEFAULT_CONFIG, extract_papers, load_pipeline
from kg.types import Extraction, Paper

__all__ = ["ENGINES", "ExtractionCache", "extract_all", "extract_batch", "fingerprint_files", "pipeline_fingerprint"]

ENGINES = ("local", "dask")
_PACKAGE_DIR = Path(__file__).parent


@lru_cache(maxsize=8)
def fingerprint_files(config: str | None = None) -> list[Path]:
    """The files extraction depends on: the config, kg.extract's code and lexicons, and the
    kg modules it imports (names and ids are made in ``kg/ids.py``)."""
    files = [Path(config or DEFAULT_CONFIG)]
    files += sorted(p for p in _PACKAGE_DIR.rglob("*") if p.suffix in (".py", ".cfg", ".jsonl"))
    files += [_PACKAGE_DIR.parent / name for name in ("ids.py", "types.py")]
    return files


def pipeline_fingerprint(config: str | None = None) -> str:
    """A digest of everything extraction depends on: kg's version and :func:`fingerprint_files`."""
    digest = hashlib.sha256(__version__.encode())
    for path in fingerprint_files(config):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def extract_batch(papers: list[Paper], config: str | None = None, batch_size: int = 64) -> list[Extraction]:
    """Extract one batch in this process (the unit of work shipped to workers)."""
    return list(extract_papers(papers, load_pipeline(config), batch_size=batch_size))


class ExtractionCache:
    """Extraction records on disk (SQLite), keyed by paper id + abstract digest + pipeline."""

    def __init__(self, path: str | Path, fingerprint: str) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path))
        self._db.execute("CREATE TABLE IF NOT EXISTS extraction (key TEXT PRIMARY KEY, record BLOB)")
        self.fingerprint = fingerprint
        self.hits = self.misses = 0

    def key(self, paper: Paper) -> str:
        text = hashlib.sha256(paper.abstract.encode("utf-8")).hexdigest()[:16]
        return f"{self.fingerprint}:{paper.id}:{text}"

    def get(self, paper: Paper) -> Extraction | None:
        row = self._db.execute("SELECT record FROM extraction WHERE key = ?", (self.key(paper),)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        record: Extraction = pickle.loads(row[0])
        record.paper = paper  # provenance (file, position) is the current input's
        return record

    def put_many(self, records: Iterable[Extraction]) -> None:
        rows = [(self.key(r.paper), pickle.dumps(r, protocol=pickle.HIGHEST_PROTOCOL)) for r in records]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO extraction VALUES (?, ?)", rows)

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


def _ordered(submit: Callable[[list[Paper]], Future], batches: Iterable[list[Paper]], window: int):
    """Submit batches with at most ``window`` in flight; yield results in submission order."""
    pending: deque[Future] = deque()
    for batch in batches:
        pending.append(submit(batch))
        if len(pending) >= window:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


def _with_cache(
    papers: Iterable[Paper], cache: ExtractionCache | None, run: Callable[[list[Paper]], list[Extraction]],
    size: int,
) -> Iterator[Extraction]:
    if cache is None:
        for batch in _batches(papers, size):
            yield from run(batch)
        return
    for batch in _batches(papers, size):
        cached = [cache.get(p) for p in batch]
        missing = [p for p, c in zip(batch, cached) if c is None]
        fresh = iter(run(missing) if missing else [])
        done = []
        for paper, record in zip(batch, cached):
            if record is None:
                record = next(fresh)
                done.append(record)
            yield record
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
) -> Iterator[Extraction]:
    """Extraction records for ``papers``, in input order, with the chosen engine.

    ``engine="local"`` with ``workers=1`` runs in this process; with more
    workers it uses a process pool. ``engine="dask"`` sends batches to a
    Dask cluster: ``scheduler`` is its address (``tcp://host:8786``), or,
    when None, a local cluster of ``workers`` processes is started.
    """
    config_str = str(config) if config else None
    shard = batch_size * 8
    if engine == "dask":
        yield from _dask(papers, config_str, workers, batch_size, scheduler, cache, shard)
    elif engine != "local":
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    elif workers <= 1:
        nlp = load_pipeline(config_str)

        def run(batch: list[Paper]) -> list[Extraction]:
            return list(extract_papers(batch, nlp, batch_size=batch_size))

        yield from _with_cache(papers, cache, run, batch_size)
    else:
        context = get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=load_pipeline,
                                 initargs=(config_str,)) as pool:

            def run(batch: list[Paper]) -> list[Extraction]:
                shards = _batches(batch, batch_size)
                return list(_ordered(lambda b: pool.submit(extract_batch, b, config_str, batch_size),
                                     shards, workers * 2))

            yield from _with_cache(papers, cache, run, shard)


def _dask(papers, config, workers, batch_size, scheduler, cache, shard) -> Iterator[Extraction]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as error:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("the dask engine needs the optional extra: pip install 'kg[dask]'") from error
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=True,
                               dashboard_address=None)
    client = Client(scheduler or cluster)
    try:
        size = max(len(client.scheduler_info().get("workers", {})), 1)

        def run(batch: list[Paper]) -> list[Extraction]:
            shards = _batches(batch, batch_size)
            submit = lambda b: client.submit(extract_batch, b, config, batch_size, pure=False)  # noqa: E731
            return list(_ordered(submit, shards, size * 2))

        yield from _with_cache(papers, cache, run, shard)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
