"""Every engine and the cache yield exactly what a plain local run yields."""

import pytest

from kg.extract.runner import ExtractionCache, extract_all, pipeline_fingerprint
from kg.ingest import read_papers


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
    db.execute("INSERT INTO records VALUES (?, 1, ?)", (key, pickle.dumps(_Payload(marker))))
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
    db.execute("INSERT INTO records VALUES (?, 1, ?)", (cache.key(papers[0]), record))
    db.commit()
    db.close()
    assert list(extract_all(papers[:1], cache=cache)) == local[:1]
    assert cache.discarded == 1
