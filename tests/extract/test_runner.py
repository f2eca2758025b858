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
