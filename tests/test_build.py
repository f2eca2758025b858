import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import networkx as nx
import pytest
import rdflib

from kg.build import BuildError, build
from kg.types import ENTITY_TYPES


@pytest.fixture(scope="module")
def seeds_build(tmp_path_factory, examples_dir):
    out = tmp_path_factory.mktemp("out")
    report = build([examples_dir], out)
    papers = [json.loads(line) for line in (out / "papers.jsonl").read_text("utf-8").splitlines()]
    return out, report, papers


def test_build_reads_every_example_paper(seeds_build):
    out, report, papers = seeds_build
    assert report.papers_read == report.papers_built == len(papers) == 38
    assert {(p["venue"], p["year"]) for p in papers} == {("ICLR", 2025)}
    manifest = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [m["outcome"] for m in manifest] == ["built"] * 38


def test_build_finds_all_kinds_of_information(seeds_build):
    _, report, papers = seeds_build
    types = {e["type"] for p in papers for e in p["entities"]}
    assert types == set(ENTITY_TYPES)
    assert sum(e["proposed"] for p in papers for e in p["entities"]) >= 25
    assert sum(len(p["relations"]) for p in papers) >= 30
    assert sum(len(p["results"]) for p in papers) >= 15
    assert sum(len(p["code_urls"]) for p in papers) >= 15
    predicates = {r["predicate"] for p in papers for r in p["relations"]}
    assert {"evaluated_on", "compared_with", "uses"} <= predicates


def test_papers_jsonl_follows_the_contract(seeds_build):
    _, _, papers = seeds_build
    for paper in papers:
        assert set(paper) >= {"id", "source", "venue", "year", "title", "abstract", "entities",
                              "relations", "code_urls", "results"}
        ids = {e["id"] for e in paper["entities"]}
        for entity in paper["entities"]:
            assert entity["type"] in ENTITY_TYPES
            for m in entity["mentions"]:
                assert paper["abstract"][m["start"]:m["end"]] == m["text"]
        for rel in paper["relations"]:
            assert rel["subject"] in ids and rel["object"] in ids
            assert 0 <= rel["evidence"]["start"] < rel["evidence"]["end"] <= len(paper["abstract"])
        types = {e["id"]: e["type"] for e in paper["entities"]}
        for result in paper["results"]:
            assert result["subject"] in ids | {None} and result["dataset"] in ids | {None}
            assert types.get(result["dataset"], "Dataset") == "Dataset"  # a result is never on a Method
            assert types.get(result["task"], "Task") == "Task"
            assert types.get(result["metric_entity"], "Metric") == "Metric"
            assert types.get(result["subject"], "Method") in ("Method", "Model")
            assert result["metric"] != "value" and result["value"]
            evidence = result["evidence"]
            assert evidence["sentence_start"] <= evidence["start"] < evidence["end"] <= evidence["sentence_end"]
        for url in paper["code_urls"]:
            assert url.startswith("http") and not url.endswith((".", "}", ")"))
    assert [p["source"]["index"] for p in papers[:19]] == list(range(19))


def test_graph_files_parse_and_agree(seeds_build):
    out, report, _ = seeds_build
    graph = report.graph
    linked = nx.node_link_graph(json.loads((out / "graph.json").read_text()), edges="edges")
    assert linked.number_of_nodes() == graph.number_of_nodes()
    assert linked.number_of_edges() == graph.number_of_edges()
    graphml = nx.read_graphml(out / "graph.graphml")
    assert graphml.number_of_nodes() == graph.number_of_nodes()
    rdf = rdflib.Graph().parse(out / "graph.ttl")
    assert len(rdf) > graph.number_of_edges()


def test_results_csv_has_a_row_per_result(seeds_build):
    import csv

    out, report, papers = seeds_build
    with (out / "results.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == report.results == sum(len(p["results"]) for p in papers)
    abstracts = {p["id"]: p["abstract"] for p in papers}
    for row in rows:
        stated = abstracts[row["paper"]][int(row["value_start"]):int(row["value_end"])]
        assert stated.strip() and " ".join(stated.split()) in row["sentence"]  # the evidence holds the value
        assert row["metric"] != "value"


def test_results_csv_streamed_from_the_store_is_the_one_written_from_the_graph_in_memory(seeds_build, tmp_path):
    from kg.analyse.leaderboard import write_results_csv
    from kg.node_link import NodeLinkFile

    out, report, _ = seeds_build
    built = (out / "results.csv").read_bytes()  # streamed from the build's store
    write_results_csv(report.graph, tmp_path / "memory.csv")  # graph.json read whole
    with NodeLinkFile(out / "graph.json") as streamed:
        write_results_csv(streamed, tmp_path / "from-graph-json.csv")
    assert built.count(b"\n") == report.results + 1 and report.results > 0
    assert (tmp_path / "memory.csv").read_bytes() == built
    assert (tmp_path / "from-graph-json.csv").read_bytes() == built


def test_build_is_stable_across_input_order(tmp_path, examples_dir, seeds_build):
    out, _, papers = seeds_build
    files = sorted(examples_dir.glob("*.txt"), reverse=True)
    report = build(files, tmp_path, outputs=("papers", "node_link"))
    again = {json.loads(line)["id"]: json.loads(line) for line in (tmp_path / "papers.jsonl").read_text("utf-8").splitlines()}
    assert set(again) == {p["id"] for p in papers}
    for paper in papers:
        assert paper["entities"] == again[paper["id"]]["entities"]
    assert (tmp_path / "graph.json").read_bytes() == (out / "graph.json").read_bytes()
    assert report.papers_built == 38


def _built_papers(tmp_path, *records: str) -> list[dict]:
    """``papers.jsonl`` of a build of the given JSON Lines records, into ``tmp_path / "out"``."""
    source = tmp_path / "in.jsonl"
    source.write_text("".join(record + "\n" for record in records), encoding="utf-8")
    build([source], tmp_path / "out")
    return [json.loads(line) for line in (tmp_path / "out" / "papers.jsonl").read_text("utf-8").splitlines()]


def test_each_paper_keeps_the_id_its_input_record_gave_it(tmp_path):
    papers = _built_papers(
        tmp_path,
        '{"id": "openreview:Zorb1", "abstract": "We propose Zorb, a novel framework."}',
        '{"paper_id": 17, "abstract": "We propose Plink, a novel sampler."}',
        '{"abstract": "We propose Quib, a novel parser."}',
    )
    assert [p["source"]["id"] for p in papers] == ["openreview:Zorb1", "17", None]
    assert all(p["id"].startswith("paper:") for p in papers)  # kg's own id is still the abstract's
    graph = nx.node_link_graph(json.loads((tmp_path / "out" / "graph.json").read_text()), edges="edges")
    assert [graph.nodes[p["id"]]["source_id"] for p in papers] == ["openreview:Zorb1", "17", None]


def test_each_paper_keeps_its_authors_and_links(tmp_path):
    papers = _built_papers(
        tmp_path,
        '{"title": "Zorb", "authors": ["Ada Lovelace", "Alan Turing"], "url": "https://openreview.net/forum?id=Zorb1", '
        '"abstract": "We propose Zorb, a novel framework."}',
        '{"doi": "10.1000/plink.17", "author": "Lovelace, Ada and Turing, Alan", "abstract": "We propose Plink."}',
    )
    assert [p["authors"] for p in papers] == [["Ada Lovelace", "Alan Turing"], ["Ada Lovelace", "Alan Turing"]]
    assert [(p["url"], p["doi"], p["arxiv_id"]) for p in papers] == [
        ("https://openreview.net/forum?id=Zorb1", None, None), (None, "10.1000/plink.17", None)]


def test_bad_records_are_reported_not_lost(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text(
        '{"title": "A", "abstract": "We propose Zorb, a novel framework."}\n'
        "{broken json\n"
        '{"title": "B", "abstract": "   "}\n'
        '{"title": "C", "abstract": "We propose Zorb, a novel framework."}\n',
        encoding="utf-8",
    )
    report = build([source], tmp_path / "out")
    manifest = [json.loads(line) for line in (tmp_path / "out" / "manifest.jsonl").read_text("utf-8").splitlines()]
    assert [m["outcome"] for m in manifest] == ["built", "skipped", "skipped", "duplicate"]
    assert [m["source"]["line"] for m in manifest] == [1, 2, 3, 4]
    assert report.papers_built == 1 and len(report.skipped) == 2 and report.duplicates == 1


def test_a_paper_that_stalls_or_fails_extraction_is_skipped_and_listed_and_the_build_goes_on(
    tmp_path, stalling_config
):
    from click.testing import CliRunner

    from kg.cli import main

    source = tmp_path / "in.jsonl"
    lines = [
        {"abstract": "We propose Zorbnet, a novel framework for node classification."},
        {"abstract": "We propose Stallnet, a model. STALL"},
        {"abstract": "We propose Deepnet, a model. DEEP"},
        {"abstract": "We introduce Quorbit, a dataset of graphs."},
    ]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(out), "-q", "--config", str(stalling_config),
                                       "--record-timeout", "1"])
    assert result.exit_code == 3, result.output  # done, with records skipped
    manifest = [json.loads(line) for line in (out / "manifest.jsonl").read_text("utf-8").splitlines()]
    assert [(m["source"]["index"], m["outcome"]) for m in manifest] == [
        (0, "built"), (1, "skipped"), (2, "skipped"), (3, "built")]
    assert manifest[1]["reason"] == "extraction took longer than 1 s: skipped"
    assert manifest[2]["reason"].startswith("extraction failed: RecursionError")
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["papers_built"] == 2 and len(summary["skipped"]) == 2
    papers = [json.loads(line) for line in (out / "papers.jsonl").read_text("utf-8").splitlines()]
    assert [p["source"]["index"] for p in papers] == [0, 3]

    with pytest.raises(BuildError, match="record 1: extraction took longer than 1 s"):
        build([source], tmp_path / "strict", config=stalling_config, on_error="fail", record_timeout=1)


def test_incremental_build_equals_a_full_rebuild(tmp_path, examples_dir, seeds_build):
    out, _, _ = seeds_build
    files = sorted(examples_dir.glob("*.txt"))
    first = build(files[:1], tmp_path)
    assert first.cache_hits == 0
    second = build(files, tmp_path)
    assert second.cache_hits == first.papers_built == 19 and second.papers_built == 38
    for name in ("graph.json", "papers.jsonl", "graph.ttl"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name



def test_a_fully_cached_rebuild_loads_no_pipeline(tmp_path, examples_dir):
    """The second build finds every paper in the cache: it never builds the spaCy pipeline."""
    source = sorted(examples_dir.glob("*.txt"))[:1]
    first = build(source, tmp_path / "out")
    script = (
        "import json, sys; from kg.build import build; from kg.extract import pipeline; "
        "report = build(sys.argv[1:-1], sys.argv[-1]); "
        "print(json.dumps([report.cache_hits, report.papers_built, pipeline._load.cache_info().misses]))"
    )
    again = subprocess.run([sys.executable, "-c", script, *map(str, source), str(tmp_path / "out")],
                           capture_output=True, text=True, check=True)
    hits, built, loads = json.loads(again.stdout.strip().splitlines()[-1])
    assert hits == built == first.papers_built == 19
    assert loads == 0
    fresh = subprocess.run([sys.executable, "-c", script, *map(str, source), str(tmp_path / "other")],
                           capture_output=True, text=True, check=True)
    assert json.loads(fresh.stdout.strip().splitlines()[-1]) == [0, 19, 1]  # the check can fail


# ---- one build at a time per OUTDIR; the previous complete build stays complete


def _outputs(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file() and not p.name.startswith(".")}


def _kg(*args):
    return [sys.executable, "-c", "import sys; from kg.cli import main; sys.exit(main())", *map(str, args)]


def _wait_for(condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_second_build_into_the_same_outdir_stops_with_a_clear_message(tmp_path, examples_dir):
    out = tmp_path / "out"
    first = subprocess.Popen(_kg("build", examples_dir, "-o", out, "-q", "--no-cache"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        lock = out / ".kg-build.lock"
        _wait_for(lambda: lock.exists() and lock.read_text() == f"process {first.pid}\n")
        from click.testing import CliRunner

        from kg.cli import main

        second = CliRunner().invoke(main, ["build", str(examples_dir), "-o", str(out), "-q"])
        assert second.exit_code == 1
        assert f"is being built by another kg build (process {first.pid})" in " ".join(second.output.split())
        assert first.wait(timeout=300) == 0, first.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        first.stderr.close()
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    papers = (out / "papers.jsonl").read_text("utf-8").splitlines()
    manifest = (out / "manifest.jsonl").read_text("utf-8").splitlines()
    assert summary["papers_built"] == len(papers) == len(manifest) == 38


def test_a_failed_rebuild_leaves_the_previous_build_complete(tmp_path, examples_dir):
    out = tmp_path / "out"
    build([examples_dir], out, cache=False)
    before = _outputs(out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "We propose Zorb, a model."}\n{oops\n', encoding="utf-8")
    with pytest.raises(BuildError, match="bad.jsonl:2"):
        build([bad], out, on_error="fail", cache=False)
    assert _outputs(out) == before
    assert [p.name for p in out.iterdir() if p.name.startswith(".kg-staging")] == []


def test_a_killed_rebuild_leaves_the_previous_build_complete_and_its_leftovers_go_next_time(tmp_path, examples_dir):
    out = tmp_path / "out"
    build([examples_dir], out, cache=False)
    before = _outputs(out)
    (out / ".graph.json.abc123.part").write_text("left by a kg before staging")
    big = tmp_path / "big.jsonl"
    lines = (out / "papers.jsonl").read_text("utf-8").splitlines() * 20
    big.write_text("".join(json.dumps({"abstract": json.loads(line)["abstract"] + f" Copy {i}."}) + "\n"
                           for i, line in enumerate(lines)), encoding="utf-8")
    rebuild = subprocess.Popen(_kg("build", big, "-o", out, "-q", "--no-cache"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: any(p.name.startswith(".kg-staging-") for p in out.iterdir()))
        time.sleep(1.0)  # in the middle of the work
        rebuild.kill()
        rebuild.wait(timeout=30)
    finally:
        if rebuild.poll() is None:
            rebuild.kill()
            rebuild.wait()
    assert _outputs(out) == before  # summary.json and every file of the good build, untouched
    assert any(p.name.startswith(".kg-staging-") for p in out.iterdir())
    build([examples_dir], out, cache=False)
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [".kg-build.lock"]


def test_a_full_disk_gives_one_line_naming_the_file_and_keeps_the_previous_build(tmp_path, examples_dir):
    out = tmp_path / "out"
    build([examples_dir], out, cache=False)
    before = _outputs(out)

    def small_files():  # files over 64 KiB cannot be written: EFBIG, as a full disk gives ENOSPC
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    done = subprocess.run(_kg("build", examples_dir, "-o", out, "-q", "--no-cache"), capture_output=True,
                          text=True, preexec_fn=small_files, timeout=300)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    message = " ".join(done.stderr.split())
    assert re.fullmatch(rf"error: cannot write {out}/\.kg-staging-\w+/[\w.]+: File too large", message), message
    assert _outputs(out) == before


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1)")
def test_no_space_left_on_a_real_device(tmp_path, examples_dir):
    """ENOSPC itself, on a 1 MiB tmpfs in a private mount namespace (needs root or user namespaces)."""
    script = (
        f"mount -t tmpfs -o size=1m tmpfs {shlex.quote(str(tmp_path))} && "
        + shlex.join(_kg("build", examples_dir, "-o", tmp_path / "out", "-q", "--no-cache"))
    )
    done = subprocess.run(["unshare", "--mount", "--map-root-user", "sh", "-c", script], capture_output=True,
                          text=True, timeout=300)
    if "mount" in done.stderr and done.returncode != 1 or "unshare:" in done.stderr:
        pytest.skip(f"no private tmpfs here: {done.stderr.strip()}")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    message = " ".join(done.stderr.split())
    assert re.fullmatch(rf"error: cannot write {tmp_path}/out/\.kg-staging-\w+/[\w.]+: no space left on the device",
                        message), message
