"""A build on a Dask cluster writes, byte for byte, the files of a local build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from kg.build import OUTPUT_FILES, build  # noqa: E402
from kg.cluster import Plan  # noqa: E402
from kg.types import Entity, Extraction, Mention, Relation, Result  # noqa: E402

OPENREVIEW = Path(__file__).resolve().parents[2] / "shared" / "data" / "openreview" / "icml2024.jsonl"
#: Many small pieces: partitions of 7 papers, 3 key shards, up to 5 ranges of node ids.
SMALL = Plan(partition_papers=7, shards=3, ranges=5)


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as running:
        yield running.scheduler_address


def _same_files(local: Path, remote: Path) -> None:
    for name in OUTPUT_FILES.values():
        assert (remote / name).read_bytes() == (local / name).read_bytes(), name
    summaries = [json.loads((path / "summary.json").read_text("utf-8")) for path in (local, remote)]
    for summary in summaries:
        del summary["timings_s"], summary["extractions_from_cache"]
    assert summaries[0] == summaries[1]


def _small_plan(monkeypatch) -> None:
    monkeypatch.setattr(Plan, "for_cluster", classmethod(lambda cls, papers, workers: SMALL))


def test_cluster_build_of_the_examples_extracts_on_the_cluster_and_equals_a_local_build(
        tmp_path, examples_dir, cluster):
    local = build([examples_dir], tmp_path / "local", cache=tmp_path / "cache.sqlite")
    remote = build([examples_dir], tmp_path / "cluster", cache=False, engine="dask", scheduler=cluster)
    assert remote.cache_hits == 0 and remote.papers_built == local.papers_built > 20
    _same_files(tmp_path / "local", tmp_path / "cluster")


@pytest.mark.parametrize("plan", ["default", "small"])
def test_cluster_build_of_300_openreview_abstracts_equals_a_local_build(
        tmp_path_factory, cluster, plan, monkeypatch):
    if not OPENREVIEW.is_file():
        pytest.skip(f"{OPENREVIEW} is not here")
    shared = tmp_path_factory.getbasetemp() / "openreview-300"
    corpus, cache, local = shared / "icml2024-300.jsonl", shared / "cache.sqlite", shared / "local"
    if not local.is_dir():  # extracted once, by the first of the two plans
        shared.mkdir(exist_ok=True)
        with OPENREVIEW.open(encoding="utf-8") as source:
            corpus.write_text("".join(line for _, line in zip(range(300), source)), encoding="utf-8")
        build([corpus], local, cache=cache)
    if plan == "small":
        _small_plan(monkeypatch)
    out = tmp_path_factory.mktemp("cluster") / "out"
    report = build([corpus], out, cache=cache, engine="dask", scheduler=cluster)
    assert report.papers_built == report.cache_hits == 300
    _same_files(local, out)


# Hand-made extraction records, each case one the resolver or the store must get right.

def _entity(name, key, kind="Method", aliases=(), catalogue=None, proposed=False, start=0):
    return Entity(name, kind, key, [Mention(name, start, start + len(name))], proposed, list(aliases), catalogue)


PAPERS = [
    # an acronym defined by its long form, a catalogue id two spellings share, a relation
    dict(venue="ICLR", entities=[
        _entity("GNN", "graph-neural-network", aliases=["Graph Neural Network"]),
        _entity("ImageNet", "imagenet", "Dataset", catalogue="pwc:dataset:imagenet", start=20)],
        relations=[(0, "evaluated_on", 1, 30, 40)], code=["https://github.com/a/b"]),
    # the bare acronym; the same relation again (evidence from two papers, one start twice)
    dict(venue="NeurIPS", entities=[
        _entity("GNNs", "gnn", start=5),
        _entity("ImageNet-1K", "imagenet-1-k", "Dataset", catalogue="pwc:dataset:imagenet", start=10),
        _entity("StableDiffusion", "stablediffusion", "Model", start=30)],
        relations=[(0, "evaluated_on", 1, 12, 20), (0, "evaluated_on", 1, 12, 18), (2, "uses", 0, 0, 9)],
        code=["https://github.com/a/b", "https://github.com/a/b.git"]),
    # separators only; two groups claim one id (Zeta): the later one goes by another name
    dict(venue="iclr", entities=[
        _entity("Stable Diffusion", "stable-diffusion", "Model"),
        _entity("Zeta", "alpha-net", start=40),
        _entity("Zeta", "beta-net", aliases=["BetaNet"], start=50)],
        relations=[(1, "compared_with", 2, 0, 60)], code=["https://GitHub.com/a/b/"]),
    # a group whose every name is taken falls back on its root key's id, which another holds
    dict(venue=None, entities=[_entity("Qux", "bar"), _entity("Qux", "qux", "Dataset", start=10)],
         relations=[(0, "evaluated_on", 1, 0, 20)]),
    # results: a dozen with one start (ids result:...:10 sort before :2), half on a "dataset" that is a Method
    dict(venue="ICML", entities=[
        _entity("GNN", "gnn", proposed=True), _entity("ImageNet", "imagenet", "Dataset", start=10)],
        results=[Result("accuracy", f"{90 + n}%", 30, 33, subject=0, dataset=n % 2, number=90.0 + n,
                        sentence_start=0, sentence_end=40) for n in range(12)]),
    dict(venue="ICLR", entities=[]),
    dict(venue="ICLR", entities=[_entity("Zeta", "beta-net")]),
    *[dict(venue="ICML", entities=[_entity("SD", "speculative-decoding", aliases=["speculative decoding"]),
                                   _entity("GNN", "gnn", start=10)],
           relations=[(1, "uses", 0, 5, 15)]) for _ in range(3)],
]


def _hand_made(directory: Path) -> tuple[Path, Path, list[Extraction]]:
    """A corpus of :data:`PAPERS` (one of them twice) and their records in an extraction cache."""
    from kg.extract.runner import ExtractionCache, pipeline_fingerprint
    from kg.ingest import read_papers

    corpus = directory / "papers.jsonl"
    lines = [json.dumps({"doi": f"10.5555/hand.{i}", "title": f"Paper {i}" if i % 3 else None,
                         "abstract": f"Abstract {i}: " + "GNN on ImageNet with SD and Zeta. " * 3,
                         "venue": paper["venue"], "year": 2020 + i})
             for i, paper in enumerate(PAPERS)]
    corpus.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    records = []
    for paper, plan in zip(read_papers([corpus]), PAPERS):
        relations = [Relation(*r) for r in plan.get("relations", [])]
        records.append(Extraction(paper, plan["entities"], relations, plan.get("results", []), plan.get("code", [])))
    cache = directory / "cache.sqlite"
    with ExtractionCache(cache, pipeline_fingerprint()) as store:
        store.put_many(records)
    return corpus, cache, records


def test_the_hand_made_cases_are_there(tmp_path):
    from kg.resolve import Resolver

    _, _, records = _hand_made(tmp_path)
    resolver = Resolver()
    for record in records:
        resolver.add(record)
    ids = {key: resolver.entity_id(key) for key in ("gnn", "graph-neural-network", "imagenet", "imagenet-1-k",
                                                      "stablediffusion", "stable-diffusion", "alpha-net",
                                                      "beta-net", "bar", "qux")}
    assert ids["gnn"] == ids["graph-neural-network"] and ids["imagenet"] == ids["imagenet-1-k"]
    assert ids["stablediffusion"] == ids["stable-diffusion"]
    assert ids["alpha-net"] == "entity:zeta" and ids["beta-net"] == "entity:betanet"
    assert ids["bar"] == ids["qux"] == "entity:qux" and resolver.entities["entity:qux"].type == "Dataset"


@pytest.mark.parametrize("plan", ["default", "small"])
def test_cluster_build_of_hand_made_cases_equals_a_local_build(tmp_path, cluster, plan, monkeypatch):
    corpus, cache, _ = _hand_made(tmp_path)
    local = build([corpus], tmp_path / "local", cache=cache)
    if plan == "small":
        monkeypatch.setattr(Plan, "for_cluster", classmethod(lambda cls, papers, workers: Plan(2, 3, 4)))
    remote = build([corpus], tmp_path / "cluster", cache=cache, engine="dask", scheduler=cluster)
    assert local.duplicates == remote.duplicates == 1
    _same_files(tmp_path / "local", tmp_path / "cluster")
