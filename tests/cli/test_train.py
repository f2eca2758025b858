"""``kg train-linear``: the five decisions trained in order on a tiny hand-made annotation."""

import json

from click.testing import CliRunner

from kg.cli import main
from kg.extract.linear import LinearModel

ABSTRACT = (
    "Image segmentation of thin structures is hard. We propose Zorblat, a novel framework for "
    "image segmentation. On the Plinkset benchmark, Zorblat outperforms U-Net and improves "
    "mean IoU by 4.2%. It uses 12% of the memory and runs in the QuuxLib toolkit of PlonkSoft."
)
GOLD = {
    "id": "toy:1", "title": "Zorblat: thin structures",
    "entities": [
        {"name": "Zorblat", "type": "Method", "proposed": True, "aliases": []},
        {"name": "image segmentation", "type": "Task", "proposed": False, "aliases": []},
        {"name": "Plinkset", "type": "Dataset", "proposed": False, "aliases": []},
        {"name": "U-Net", "type": "Method", "proposed": False, "aliases": []},
        {"name": "mean IoU", "type": "Metric", "proposed": False, "aliases": []},
    ],
    "relations": [
        {"subject": "Zorblat", "predicate": "evaluated_on", "object": "Plinkset"},
        {"subject": "Zorblat", "predicate": "compared_with", "object": "U-Net"},
    ],
    "results": [{"value": "4.2%", "metric": "mean IoU", "subject": "Zorblat", "dataset": "Plinkset",
                 "task": None, "baseline": "U-Net", "setting": None, "direction": "higher"}],
}


def test_train_linear_all_trains_the_choice_first_and_every_decision_after_it(tmp_path):
    gold, data = tmp_path / "gold.jsonl", tmp_path / "abstracts"
    data.mkdir()
    gold.write_text(json.dumps(GOLD) + "\n")
    (data / "a.jsonl").write_text(json.dumps({"id": "toy:1", "abstract": ABSTRACT}) + "\n")
    out = tmp_path / "models"
    result = CliRunner().invoke(main, ["train-linear", "all", "--gold", str(gold), "--data", str(data),
                                       "-o", str(out), "--learned-spans", str(_no_spans(tmp_path))])
    assert result.exit_code == 0, result.output
    names = [line.split(":", 1)[0] for line in result.output.splitlines() if line.endswith(".npz")]
    assert names == ["choice", "entities", "proposals", "relations", "results"]
    choice = LinearModel.load(out / "choice.npz")
    assert set(choice.classes) == {"none", "Metric"}  # mean IoU against the IoU inside it


def _no_spans(tmp_path):
    path = tmp_path / "spans.json"
    path.write_text(json.dumps({"toy:1": []}))
    return path
