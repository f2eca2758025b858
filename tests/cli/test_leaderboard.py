"""``kg leaderboard`` and ``kg evaluate results`` on real builds: formats, filters, one-line errors."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from kg.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("command", [["leaderboard"], ["evaluate", "results"]])
def test_help(command):
    result = run(*command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


def test_markdown_on_the_example_build(build_dir):
    result = run("leaderboard", build_dir)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("### ") and "| # |" in result.output
    assert '"' in result.output  # each entry's evidence sentence


def test_formats_agree(build_dir):
    as_json = json.loads(run("leaderboard", build_dir, "--format", "json").output)
    as_csv = list(csv.DictReader(io.StringIO(run("leaderboard", build_dir, "--format", "csv").output)))
    assert len(as_json) == len(as_csv) > 0
    assert [r["value"] for r in as_json] == [r["value"].lstrip("'") for r in as_csv]
    for row in as_json:
        assert row["metric"] and (row["dataset"] or row["task"]) and row["sentence"]


def test_dataset_filter_on_the_example_build(build_dir):
    rows = json.loads(run("leaderboard", build_dir, "--dataset", "gsm8k", "--format", "json").output)
    assert rows and {r["dataset"] for r in rows} == {"GSM8K"}


def test_an_unknown_dataset_is_a_one_line_error(build_dir):
    result = run("leaderboard", build_dir, "--dataset", "No Such Set")
    assert result.exit_code == 1
    assert "no leaderboard for dataset 'No Such Set'" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_output_file(build_dir, tmp_path):
    result = run("leaderboard", build_dir, "--format", "csv", "-o", tmp_path / "boards.csv")
    assert result.exit_code == 0 and (tmp_path / "boards.csv").read_text().startswith("task,dataset,metric")


def test_evaluate_results_scores_a_build_against_its_gold(build_dir, tmp_path):
    papers = [json.loads(line) for line in (build_dir / "papers.jsonl").read_text("utf-8").splitlines()]
    gold = [{"id": p["id"], "entities": [], "results": [{"value": r["value"], "metric": r["metric"]}
                                                          for r in p["results"]]} for p in papers]
    (tmp_path / "gold.jsonl").write_text("\n".join(json.dumps(g) for g in gold), encoding="utf-8")
    result = run("evaluate", "results", tmp_path / "gold.jsonl", build_dir / "papers.jsonl", "--json")
    report = json.loads(result.output)
    assert report["values"]["recall"] == 1.0 and report["values"]["precision"] == 1.0
    assert report["fields"]["metric"]["accuracy"] == 1.0
    assert report["non_dataset"] == 0


@pytest.mark.parametrize("content", ["hello\n", "{\n", "[1, 2]\n"])
def test_not_a_build_is_a_one_line_error(tmp_path, content):
    path = tmp_path / "graph.json"
    path.write_text(content, encoding="utf-8")
    result = run("leaderboard", path)
    assert result.exit_code == 1 and result.output.startswith("error:") and "graph.json" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("content", ["not json\n", '{"id": "p", "results": [{"value": 5}]}\n', "[1]\n"])
def test_evaluate_results_on_bad_input_is_a_one_line_error(build_dir, tmp_path, content):
    (tmp_path / "gold.jsonl").write_text(content, encoding="utf-8")
    result = run("evaluate", "results", tmp_path / "gold.jsonl", build_dir / "papers.jsonl")
    assert result.exit_code == 1 and "expected GOLD as result annotations" in result.output
    assert "Traceback" not in result.output
