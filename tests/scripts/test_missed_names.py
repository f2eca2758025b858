"""scripts/missed_names.py says at which stage each missed name is lost, on a hand-made abstract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "missed_names.py"


def test_each_missed_name_gets_the_stage_it_is_lost_at(tmp_path):
    abstract = "We study blorpic forgetting in agents that learn tasks one after another."
    gold = {"id": "toy:1", "title": "Forgetting", "entities": [
        {"name": "blorpic forgetting", "type": "Task", "proposed": False, "aliases": []},
        {"name": "We study", "type": "Task", "proposed": False, "aliases": []},
        {"name": "zibbly recall", "type": "Task", "proposed": False, "aliases": []},
        {"name": "serial task learning", "type": "Task", "proposed": False, "aliases": ["learn tasks"]},
    ], "relations": [{"subject": "blorpic forgetting", "predicate": "measured_by", "object": "zibbly recall"}]}
    paths = {name: tmp_path / f"{name}.jsonl" for name in ("gold", "abstracts", "papers")}
    paths["gold"].write_text(json.dumps(gold) + "\n")
    paths["abstracts"].write_text(json.dumps({"id": "toy:1", "abstract": abstract}) + "\n")
    paths["papers"].write_text(json.dumps({"id": "toy:1", "entities": []}) + "\n")  # a build that found nothing
    done = subprocess.run([sys.executable, str(SCRIPT), *map(str, paths.values()), "--type", "Task"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    stages = {line.split(":", 1)[0]: line.split("e.g. ", 1)[1] for line in done.stdout.splitlines()}
    assert stages["not written as it is"] == "zibbly recall"  # an alias the abstract writes is looked up
    assert stages["no candidate"].split(", ") == ["We study", "serial task learning"]
    assert "blorpic forgetting" in stages.get("kept by the decision, lost after it", "") + stages.get(
        "dropped by the decision", "")
    relations = subprocess.run([sys.executable, str(SCRIPT), *map(str, paths.values()), "--relations"],
                               capture_output=True, text=True, cwd=ROOT)
    assert relations.stdout.splitlines() == ["both missing: 1"], relations.stderr
