import json
from pathlib import Path

import spacy
from click.testing import CliRunner

from kg.cli.train import train

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    {
        "doc_key": f"d{i}",
        "sentences": [
            ["We", "train", f"model{i}", "for", "parsing", "."],
            ["Accuracy", "improves", "."],
        ],
        "ner": [[[2, 2, "Method"], [4, 4, "Task"]], [[6, 6, "Metric"]]],
        "relations": [[[2, 2, 4, 4, "USED-FOR"]], []],
    }
    for i in range(4)
]


def test_kg_train_on_a_tiny_corpus_gives_a_loadable_pipeline(tmp_path):
    data = tmp_path / "scierc"
    data.mkdir()
    for split in ("train", "dev"):
        lines = [json.dumps(d) for d in (DOCS if split == "train" else DOCS[:1])]
        (data / f"{split}.jsonl").write_text("\n".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        train,
        [
            str(ROOT / "configs" / "scierc.cfg"),
            "--output",
            str(out),
            "--data",
            str(data),
            "--training.max_epochs",
            "2",
            "--training.eval_frequency",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "kg_train.json").read_text())
    assert summary["corpus"] == "scierc" and summary["overrides"]["training.max_epochs"] == "2"
    nlp = spacy.load(out / "model-last")
    assert nlp.pipe_names == ["tok2vec", "ner", "kg_relation_classifier"]
    assert set(nlp.get_pipe("ner").labels) == {"Method", "Task", "Metric"}
    assert nlp.get_pipe("kg_relation_classifier").labels == ("USED-FOR",)
    doc = nlp("We train model9 for parsing.")
    assert isinstance(doc._.kg_span_relations, list)


def test_kg_train_needs_a_corpus_it_can_tell(tmp_path):
    config = tmp_path / "mine.cfg"
    config.write_text((ROOT / "configs" / "scierc.cfg").read_text())
    result = CliRunner().invoke(train, [str(config), "--output", str(tmp_path / "o")])
    assert result.exit_code == 2 and "--corpus" in result.output
