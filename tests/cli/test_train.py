"""``kg train-linear``: the five decisions trained in order on a tiny hand-made annotation."""

import json

from click.testing import CliRunner
from toy_annotation import ABSTRACT, GOLD

from kg.cli import main
from kg.extract.linear import LinearModel


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
