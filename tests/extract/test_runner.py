"""Every engine and the cache yield exactly what a plain local run yields."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.extract.runner import ExtractionCache, extract_all, pipeline_fingerprint
from kg.ingest import read_papers
from kg.types import EXTRACTION_FORMAT, Paper, Source


@pytest.fixture(scope="module")
def papers(examples_dir):
    return [p for p in read_papers([examples_dir])][:24]


@pytest.fixture(scope="module")
def local(papers):
    return list(extract_all(papers, batch_size=8))


def test_worker_processes_equal_a_local_run(papers, local):
    assert list(extract_all(papers, workers=2, batch_size=8)) == local


def test_dask_local_cluster_equals_a_local_run(papers, local):
    pytest.importorskip("dask.distributed")
    assert list(extract_all(papers, engine="dask", workers=2, batch_size=8)) == local


def test_cache_extracts_only_new_papers_and_equals_a_full_run(tmp_path, papers, local):
    cache = ExtractionCache(tmp_path / "c.sqlite", pipeline_fingerprint())
    first = list(extract_all(papers[:10], cache=cache, batch_size=8))
    assert (cache.hits, cache.misses) == (0, 10)
    cache.hits = cache.misses = 0
    again = list(extract_all(papers, cache=cache, batch_size=8))
    assert (cache.hits, cache.misses) == (10, 14)
    assert first == local[:10] and again == local



@pytest.mark.parametrize("engine", ["local", "dask"])
def test_cache_with_every_paper_starts_no_worker(tmp_path, papers, local, engine):
    """Workers (and a Dask cluster) are started at the first paper the cache lacks, not before."""
    import multiprocessing

    if engine == "dask":
        pytest.importorskip("dask.distributed")
    cache = ExtractionCache(tmp_path / "c.sqlite", pipeline_fingerprint())
    cold = extract_all(papers[:4], cache=cache, workers=2, engine=engine, batch_size=2)
    assert next(cold) == local[0]
    assert multiprocessing.active_children()  # the check can fail: a missing paper starts them
    assert list(cold) == local[1:4]
    warm = extract_all(papers[:4], cache=cache, workers=2, engine=engine, batch_size=2)
    assert next(warm) == local[0]
    assert multiprocessing.active_children() == []
    assert list(warm) == local[1:4]


def test_cache_is_keyed_by_pipeline_and_abstract(tmp_path, papers):
    cache = ExtractionCache(tmp_path / "c.sqlite", "fingerprint-a")
    list(extract_all(papers[:2], cache=cache))
    other = ExtractionCache(tmp_path / "c.sqlite", "fingerprint-b")
    assert other.get(papers[0]) is None
    assert cache.get(papers[0]) is not None


def test_unknown_engine_is_an_error(papers):
    with pytest.raises(ValueError, match="unknown engine"):
        list(extract_all(papers, engine="spark"))


def test_fingerprint_covers_every_kg_module_extraction_imports():
    import ast
    from pathlib import Path

    import kg
    from kg.extract.runner import fingerprint_files

    root = Path(kg.__file__).parent
    covered = {p.resolve() for p in fingerprint_files()}
    for source in (root / "extract").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kg."):
                module = root.parent / Path(*node.module.split("."))
                path = module / "__init__.py" if module.is_dir() else module.with_suffix(".py")
                assert path.resolve() in covered, f"{source.name} imports {node.module}, not in the fingerprint"


class _Payload:
    """Unpickling this runs code: it creates the file it names."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_cache_never_runs_code_from_a_crafted_file(tmp_path, papers, local, caplog):
    import pickle
    import sqlite3

    marker = tmp_path / "pwned"
    path = tmp_path / "c.sqlite"
    cache = ExtractionCache(path, pipeline_fingerprint())
    key = cache.key(papers[0])
    cache.close()
    db = sqlite3.connect(path)  # a pickle where kg <= 0.1 kept them, and one in place of a JSON record
    db.execute("CREATE TABLE extraction (key TEXT PRIMARY KEY, record BLOB)")
    db.execute("INSERT INTO extraction VALUES (?, ?)", (key, pickle.dumps(_Payload(marker))))
    db.execute("INSERT INTO records VALUES (?, ?, ?)", (key, EXTRACTION_FORMAT, pickle.dumps(_Payload(marker))))
    db.commit()
    db.close()

    cache = ExtractionCache(path, pipeline_fingerprint())
    again = list(extract_all(papers[:3], cache=cache, batch_size=8))
    assert not marker.exists()
    assert again == local[:3]
    assert (cache.hits, cache.misses, cache.discarded) == (0, 3, 1)
    assert "discarded" in caplog.text


@pytest.mark.parametrize("content", [b"\x00garbage" * 100, b"SQLite format 3\x00" + b"\xff" * 500, b""])
def test_a_corrupt_cache_file_is_replaced_with_a_warning(tmp_path, papers, local, content, caplog):
    path = tmp_path / "c.sqlite"
    path.write_bytes(content)
    cache = ExtractionCache(path, pipeline_fingerprint())
    assert list(extract_all(papers[:2], cache=cache)) == local[:2]
    assert cache.misses == 2
    cache.close()
    if content:
        assert "not a readable extraction cache" in caplog.text
    reopened = ExtractionCache(path, pipeline_fingerprint())
    assert reopened.get(papers[0]) == local[0]


@pytest.mark.parametrize(
    "record",
    ['{"entities": "x"}', "[]", "not json", '{"entities": [], "relations": [], "results": [], "code_urls": [1]}',
     '{"entities": [{"name": "X", "type": "Virus", "key": "x", "mentions": [], "proposed": false, '
     '"aliases": [], "catalogue_id": null}], "relations": [], "results": [], "code_urls": []}'],
)
def test_a_record_that_does_not_read_back_is_extracted_again(tmp_path, papers, local, record):
    import sqlite3

    path = tmp_path / "c.sqlite"
    cache = ExtractionCache(path, pipeline_fingerprint())
    db = sqlite3.connect(path)
    db.execute("INSERT INTO records VALUES (?, ?, ?)", (cache.key(papers[0]), EXTRACTION_FORMAT, record))
    db.commit()
    db.close()
    assert list(extract_all(papers[:1], cache=cache)) == local[:1]
    assert cache.discarded == 1


# ---- one record never stops the others: a time budget per paper, failures isolated


def _with_bad(papers, positions):
    out = list(papers)
    for position, word in positions.items():
        out[position] = Paper(id=f"bad-{word}", abstract=f"We propose {word}Net, a model. {word}",
                              source=Source("bad.jsonl", position))
    return out


def test_a_paper_past_its_time_budget_is_skipped_and_every_other_paper_extracted(papers, local, stalling_config):
    mixed = _with_bad(papers[:6], {2: "STALL"})
    start = time.monotonic()
    records = list(extract_all(mixed, config=stalling_config, batch_size=4, record_timeout=1.0))
    assert time.monotonic() - start < 25  # not the 30 s the record would take
    assert [type(r).__name__ for r in records] == ["Extraction"] * 2 + ["ReadIssue"] + ["Extraction"] * 3
    assert records[2].source == Source("bad.jsonl", 2)
    assert records[2].reason == "extraction took longer than 1 s: skipped"
    assert [r for i, r in enumerate(records) if i != 2] == [r for i, r in enumerate(local[:6]) if i != 2]


def test_a_paper_whose_extraction_raises_is_skipped_with_the_error(papers, local, stalling_config):
    mixed = _with_bad(papers[:5], {0: "DEEP", 4: "DEEP"})
    records = list(extract_all(mixed, config=stalling_config, batch_size=8))
    assert [type(r).__name__ for r in records] == ["ReadIssue", "Extraction", "Extraction", "Extraction", "ReadIssue"]
    assert records[0].reason == "extraction failed: RecursionError: maximum recursion depth exceeded"
    assert records[1:4] == local[1:4]


def test_a_skipped_paper_is_not_cached(tmp_path, papers, stalling_config):
    cache = ExtractionCache(tmp_path / "c.sqlite", pipeline_fingerprint(str(stalling_config)))
    mixed = _with_bad(papers[:2], {1: "DEEP"})
    list(extract_all(mixed, config=stalling_config, cache=cache))
    assert cache.get(mixed[0]) is not None and cache.get(mixed[1]) is None


# ---- worker processes die with the build


_WORKERS_SCRIPT = """
import sys
from kg.extract.runner import extract_all
from kg.ingest import read_papers

papers = list(read_papers([sys.argv[1]])) * 40
for i, record in enumerate(extract_all(papers, workers=2, batch_size=2)):
    if i == 0:
        print("extracting", flush=True)
"""


def _children(pid):
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_worker_processes_die_with_the_build(examples_dir, signum):
    build = subprocess.Popen([sys.executable, "-c", _WORKERS_SCRIPT, str(examples_dir)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert build.stdout.readline().strip() == "extracting"
        workers = _children(build.pid)
        assert len(workers) >= 2  # the spawned workers (and multiprocessing's resource tracker)
        os.kill(build.pid, signum)
        build.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)]
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
        build.stdout.close()


def test_batches_stay_in_flight_across_the_whole_input(papers):
    """Workers are never left waiting for a group of batches to finish: whenever a result is
    awaited, ``window`` batches are in flight, until the input runs out."""
    from kg.extract.runner import _pipelined

    submitted, in_flight_when_awaited = [], []

    class Pending:
        def __init__(self, batch):
            self.batch = batch

        def result(self):
            in_flight_when_awaited.append(len(submitted) - len(in_flight_when_awaited))
            return [f"record of {p.id}" for p in self.batch]

    def submit(batch):
        submitted.append(batch)
        return Pending(batch)

    records = list(_pipelined(papers, None, submit, 2, lambda: 4))
    assert records == [f"record of {p.id}" for p in papers]
    assert len(submitted) == 12
    assert in_flight_when_awaited == [4] * 9 + [3, 2, 1]
