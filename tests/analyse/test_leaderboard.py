"""Leaderboards from assembled graphs: rows carry what the records say, boards rank by the way
their metric is better, changes stay apart, filters match names loosely, evidence is the sentence."""

from __future__ import annotations

import csv

import pytest

from kg.analyse.leaderboard import board_rows, leaderboards, result_rows, to_markdown, write_results_csv
from kg.assemble import assemble_graph
from kg.types import Mention, Paper, PaperRecord, ResolvedEntity, Result, Source

ENTITIES = {
    "zorb": ("Zorb", "Method"), "quux": ("Quux", "Method"), "flim": ("Flim", "Model"),
    "c10": ("CIFAR-10", "Dataset"), "err": ("error rate", "Metric"), "cls": ("image classification", "Task"),
}


def _record(pid: str, title: str, sentences: list[str], results: list[dict]) -> PaperRecord:
    abstract = " ".join(sentences)
    paper = Paper(pid, abstract, Source("in.jsonl", 0), title=title, year=2024, venue="ICML")
    used = {k for r in results for k in (r.get("subject"), r.get("dataset"), r.get("task"),
                                          r.get("metric_entity"), r.get("baseline")) if k}
    entities = []
    for key in sorted(used):
        name, kind = ENTITIES[key]
        at = abstract.index(name)
        entities.append(ResolvedEntity(f"entity:{key}", name, kind, False, [Mention(name, at, at + len(name))]))
    out = []
    for r in results:
        start = abstract.index(r["value"])
        sentence = next(s for s in sentences if r["value"] in s)
        s_start = abstract.index(sentence)
        out.append(Result(
            metric=r.get("metric"), value=r["value"], start=start, end=start + len(r["value"]),
            subject=f"entity:{r['subject']}" if r.get("subject") else None,
            dataset=f"entity:{r['dataset']}" if r.get("dataset") else None,
            task=f"entity:{r['task']}" if r.get("task") else None,
            metric_entity=f"entity:{r['metric_entity']}" if r.get("metric_entity") else None,
            baseline=f"entity:{r['baseline']}" if r.get("baseline") else None,
            number=r.get("number"), unit=r.get("unit"), delta=r.get("delta"), direction=r.get("direction"),
            sentence_start=s_start, sentence_end=s_start + len(sentence)))
    return PaperRecord(paper, entities, [], out, [])


@pytest.fixture
def graph():
    records = [
        _record("paper:a", "Zorb", ["We propose Zorb.", "Zorb has a 3.1% error rate on CIFAR-10 in image classification."],
                [{"value": "3.1%", "number": 3.1, "unit": "%", "metric": "error rate", "metric_entity": "err",
                  "subject": "zorb", "dataset": "c10", "task": "cls", "direction": "lower"}]),
        _record("paper:b", "Quux", ["Quux reaches a 2.4% error rate on CIFAR-10 in image classification, 0.9 points below Flim."],
                [{"value": "2.4%", "number": 2.4, "unit": "%", "metric": "error rate", "metric_entity": "err",
                  "subject": "quux", "dataset": "c10", "task": "cls", "direction": "lower"},
                 {"value": "0.9 points", "delta": "0.9 points", "unit": "points", "metric": "error rate",
                  "metric_entity": "err", "subject": "quux", "dataset": "c10", "task": "cls",
                  "baseline": "flim", "direction": "lower"}]),
        _record("paper:c", "Untitled gains", ["Our method is 2x faster."],
                [{"value": "2x", "delta": "2x", "unit": "x", "metric": "speedup", "direction": "higher"}]),
    ]
    return assemble_graph(records, {})


def test_rows_carry_the_fields_and_the_evidence(graph):
    rows = {r["value"]: r for r in result_rows(graph)}
    quux = rows["2.4%"]
    assert (quux["subject"], quux["dataset"], quux["task"], quux["metric"], quux["metric_id"]) == \
        ("Quux", "CIFAR-10", "image classification", "error rate", "entity:err")
    assert quux["sentence"] == "Quux reaches a 2.4% error rate on CIFAR-10 in image classification, 0.9 points below Flim."
    assert rows["0.9 points"]["baseline"] == "Flim" and rows["0.9 points"]["number"] is None
    assert rows["2x"]["subject"] is None and rows["2x"]["dataset"] is None  # nothing stated, nothing filled


def test_lower_is_better_ranks_low_to_high_and_changes_come_apart(graph):
    [board] = leaderboards(result_rows(graph))  # the speed-up names no dataset or task: no board
    assert (board.task, board.dataset, board.metric, board.direction) == \
        ("image classification", "CIFAR-10", "error rate", "lower")
    assert [r["subject"] for r in board.scores] == ["Quux", "Zorb"]
    assert [r["value"] for r in board.changes] == ["0.9 points"]


def test_times_in_different_units_rank_as_one_quantity():
    rows = [{"paper": p, "metric": "training time", "dataset": "Plonk", "number": n, "unit": u, "direction": "lower"}
            for p, n, u in (("paper:a", 5, "h"), ("paper:b", 40, "min"), ("paper:c", 1, "d"))]
    [board] = leaderboards(rows)
    assert [(r["number"], r["unit"]) for r in board.scores] == [(40, "min"), (5, "h"), (1, "d")]


@pytest.mark.parametrize("wanted, boards", [("cifar10", 1), ("CIFAR-10", 1), ("ImageNet", 0)])
def test_the_dataset_filter_matches_names_loosely(graph, wanted, boards):
    assert len(leaderboards(result_rows(graph), dataset=wanted)) == boards


def test_min_entries_leaves_small_boards_out(graph):
    assert leaderboards(result_rows(graph), min_entries=4) == []


def test_markdown_shows_each_entry_with_its_sentence(graph):
    text = to_markdown(leaderboards(result_rows(graph)))
    assert "### image classification · CIFAR-10 · error rate" in text and "lower is better" in text
    assert '"Zorb has a 3.1% error rate on CIFAR-10 in image classification."' in text
    assert text.index("| 1 | 2.4% | Quux") < text.index("| 2 | 3.1% | Zorb")


def test_flat_rows_rank_within_kind(graph):
    rows = board_rows(leaderboards(result_rows(graph)))
    assert [(r["kind"], r["rank"], r["value"]) for r in rows] == \
        [("score", 1, "2.4%"), ("score", 2, "3.1%"), ("change", 1, "0.9 points")]


def test_results_csv_is_safe_for_spreadsheets(graph, tmp_path):
    graph.nodes["result:paper:c:0"]["value"] = "+2x"
    write_results_csv(graph, tmp_path / "results.csv")
    with (tmp_path / "results.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4 and {r["value"] for r in rows} >= {"'+2x", "3.1%"}
    assert [r for r in rows if r["value"] == "2.4%"][0]["dataset"] == "CIFAR-10"


def test_the_research_map_has_a_leaderboard_section(graph, tmp_path):
    from kg.analyse.report import research_map

    result = research_map(graph, tmp_path, overview=False)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    section = report[report.index("## Leaderboards"):report.index("## Files")]
    assert "4 numeric results stated in 3 abstracts; 3 of them name a metric and a dataset or task" in section
    assert "### image classification · CIFAR-10 · error rate (lower is better)" in section
    assert section.index("| 1 | 2.4% | Quux") < section.index("| 2 | 3.1% | Zorb")
    with result.outputs["table:leaderboards"].open(encoding="utf-8", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 3
