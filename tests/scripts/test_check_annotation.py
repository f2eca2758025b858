"""scripts/check_annotation.py passes the gold as it is and names each kind of problem with its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_annotation.py"
GOLD = ROOT / "tests" / "data" / "openreview_gold"


def _run(inputs: Path, annotated: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(inputs), str(annotated)], capture_output=True, text=True)


def test_the_gold_files_pass():
    for name in ("dev.jsonl", "test.jsonl"):
        done = _run(GOLD / name, GOLD / name)
        assert done.returncode == 0, done.stdout[:2000]
        assert done.stdout.startswith("ok: ")
    # train.jsonl's earlier rounds wrote some baselines as free text ("previous SoTA"): nothing else
    problems = _run(GOLD / "train.jsonl", GOLD / "train.jsonl").stdout.splitlines()
    assert problems and all(": baseline '" in p for p in problems), problems[:5]


def test_each_problem_is_named_with_its_line(tmp_path):
    good = {"id": "p1", "venue": "ICML", "year": 2024, "title": "T", "code_urls": [],
            "entities": [{"name": "Zorb", "type": "Method", "proposed": True, "aliases": []},
                         {"name": "Plinkset", "type": "Dataset", "proposed": False, "aliases": []}],
            "relations": [{"subject": "Zorb", "predicate": "evaluated_on", "object": "Plinkset"}],
            "results": [{"value": "5%", "metric": "accuracy", "subject": "Zorb", "dataset": "Plinkset",
                         "task": None, "baseline": None, "setting": None, "direction": "higher"}]}
    bad = json.loads(json.dumps(good))
    bad["id"] = "p2"
    bad["entities"][1]["type"] = "Benchmark"
    bad["relations"].append({"subject": "Zorb", "predicate": "applied_to", "object": "Quux"})
    bad["results"][0]["dataset"] = "Zorb"
    inputs = tmp_path / "in.jsonl"
    inputs.write_text("\n".join(json.dumps({"id": i}) for i in ("p1", "p2")) + "\n")
    annotated = tmp_path / "out.jsonl"
    annotated.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n" + "{not json\n")
    done = _run(inputs, annotated)
    assert done.returncode == 1
    problems = done.stdout.splitlines()
    assert "3 records for 2 abstracts" in problems
    assert not any(":1:" in p for p in problems), problems  # the good record has none
    for expected in ("type 'Benchmark'", "'Zorb' applied_to 'Quux': both must be entity names",
                     "dataset 'Zorb' must name a Dataset entity"):
        assert any("out.jsonl:2: " in p and expected in p for p in problems), (expected, problems)
