import json

import pytest
from click.testing import CliRunner

from kg.cli import main

COMMANDS = [[], ["build"], ["extract"], ["evaluate"], ["evaluate", "names"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_build_writes_outputs_and_summary(tmp_path):
    source = tmp_path / "list.txt"
    source.write_text("NeurIPS 2024 Papers\n\nWe propose Zorbnet, a novel framework. "
                      "Experiments on MNIST show gains. Code: https://github.com/x/zorbnet.\n",
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "1 papers read" in result.output and "Zorbnet" in result.output
    record = json.loads((tmp_path / "out" / "papers.jsonl").read_text())
    assert (record["venue"], record["year"]) == ("NeurIPS", 2024)
    assert record["code_urls"] == ["https://github.com/x/zorbnet"]
    for name in ("graph.json", "graph.graphml", "graph.ttl", "manifest.jsonl", "summary.json"):
        assert (tmp_path / "out" / name).stat().st_size > 0


def test_extract_writes_only_records(tmp_path):
    source = tmp_path / "a.jsonl"
    source.write_text('{"abstract": "We introduce Quorbit, a benchmark for agents."}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["extract", str(source), "-o", str(tmp_path / "p.jsonl"), "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "p.jsonl").read_text())
    assert [(e["name"], e["type"], e["proposed"]) for e in record["entities"]] == [("Quorbit", "Dataset", True)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "p.jsonl"]


def test_exit_codes_for_missing_and_skipped_input(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["build", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "o")])
    assert missing.exit_code == 1 and "nope.txt" in missing.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "We propose Zorb."}\n{oops\n', encoding="utf-8")
    skipped = runner.invoke(main, ["build", str(bad), "-o", str(tmp_path / "o2")])
    assert skipped.exit_code == 3 and "bad.jsonl:2" in skipped.output
    failed = runner.invoke(main, ["build", str(bad), "-o", str(tmp_path / "o3"), "--on-error", "fail"])
    assert failed.exit_code == 1 and "bad.jsonl:2" in failed.output
