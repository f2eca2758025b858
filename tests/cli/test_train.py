"""``kg train-linear``: the five decisions trained in order on a tiny hand-made annotation."""

import json

from click.testing import CliRunner
from toy_annotation import ABSTRACT, GOLD

from kg.cli import main
from kg.extract.linear import LinearModel


def _train(tmp_path, what, out, *extra):
    """``kg train-linear WHAT`` on the toy annotation, into ``out``."""
    gold, data = tmp_path / "gold.jsonl", tmp_path / "abstracts"
    data.mkdir(exist_ok=True)
    gold.write_text(json.dumps(GOLD) + "\n")
    (data / "a.jsonl").write_text(json.dumps({"id": "toy:1", "abstract": ABSTRACT}) + "\n")
    return CliRunner().invoke(main, ["train-linear", what, "--gold", str(gold), "--data", str(data),
                                     "-o", str(out), "--learned-spans", str(_no_spans(tmp_path)), *extra])


def test_train_linear_all_trains_the_choice_first_and_every_decision_after_it(tmp_path):
    out = tmp_path / "models"
    result = _train(tmp_path, "all", out)
    assert result.exit_code == 0, result.output
    names = [line.split(":", 1)[0] for line in result.output.splitlines() if line.endswith(".npz")]
    assert names == ["choice", "entities", "proposals", "relations", "results"]
    choice = LinearModel.load(out / "choice.npz")
    assert set(choice.classes) == {"none", "Metric"}  # mean IoU against the IoU inside it


def _no_spans(tmp_path):
    path = tmp_path / "spans.json"
    path.write_text(json.dumps({"toy:1": []}))
    return path


def test_train_linear_learns_on_the_pipeline_of_its_config(tmp_path):
    """``--config`` without noun-phrase candidates: the entity decision never sees their source."""
    from kg.extract.pipeline import DEFAULT_CONFIG

    config = tmp_path / "no-np.cfg"
    shipped = DEFAULT_CONFIG.read_text()
    assert "noun_phrases = true\n" in shipped
    config.write_text(shipped.replace("noun_phrases = true\n", "noun_phrases = false\n"))
    sources = {}
    for name, extra in (("shipped", []), ("no-np", ["--config", str(config)])):
        out = tmp_path / name
        result = _train(tmp_path, "entities", out, *extra)
        assert result.exit_code == 0, result.output
        sources[name] = {f for f in LinearModel.load(out / "entities.npz").features if f.startswith("source=np")}
    assert sources["shipped"] and sources["no-np"] == set(), sources


def test_train_linear_names_counts_the_phrases_two_abstracts_annotate(tmp_path):
    """``names``: per phrase, the abstracts writing it and, by type, those annotating it; a name of
    one abstract only (``Zorblat``) is left out."""
    from kg.extract.models import read_annotated_names

    gold, data = tmp_path / "gold.jsonl", tmp_path / "abstracts"
    data.mkdir()
    other = {"id": "toy:2", "title": "", "entities": [{"name": "image segmentation", "type": "Task"}]}
    gold.write_text(json.dumps(GOLD) + "\n" + json.dumps(other) + "\n")
    (data / "a.jsonl").write_text(json.dumps({"id": "toy:1", "abstract": ABSTRACT}) + "\n" + json.dumps(
        {"id": "toy:2", "abstract": "Image segmentation again, and U-Net."}) + "\n")
    out = tmp_path / "models"
    result = CliRunner().invoke(main, ["train-linear", "names", "--gold", str(gold), "--data", str(data), "-o", str(out)])
    assert result.exit_code == 0, result.output
    table = read_annotated_names(str(out / "annotated_names.tsv.gz"))
    # U-Net: written twice, annotated once; image segmentation related (applied_to) in the first only
    assert table == {"image-segmentation": (2, 2, "Task", 1, "applied_to", 0)}
