from pathlib import Path

import pytest

from kg.train import available_models, load_trained

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.fixture(scope="module")
def scierc():
    return load_trained("scierc")


@pytest.fixture(scope="module")
def tdmsci():
    return load_trained("tdmsci")


def test_the_pipelines_are_found_in_the_checkout_not_the_package():
    """scierc and tdmsci stay out of the wheel (pipelines/README.md): the tests use the
    checkout's pipelines/ folder, where an editable install finds them."""
    from kg.extract.models import MODELS_DIR
    from kg.train import PIPELINES_DIR

    assert PIPELINES_DIR == Path(__file__).resolve().parents[2] / "pipelines"
    assert {"entities", "scierc", "tdmsci"} <= set(available_models())
    assert not (MODELS_DIR / "scierc").exists() and not (MODELS_DIR / "tdmsci").exists()
    with pytest.raises(ValueError, match="no trained pipeline 'nope' in .*KG_PIPELINES"):
        load_trained("nope")


def test_scierc_model_finds_entities_and_relations(scierc):
    doc = scierc(
        "We present a statistical parser for Chinese that is trained on the Penn Chinese Treebank ."
    )
    ents = {(e.text, e.label_) for e in doc.ents}
    assert {("statistical parser", "Method"), ("Penn Chinese Treebank", "Material")} <= ents
    doc = scierc(
        "The system is evaluated on the TREC question answering task in terms of precision ."
    )
    assert ("precision", "Metric") in {(e.text, e.label_) for e in doc.ents}
    relations = {
        (doc[h:he].text, label, doc[t:te].text)
        for h, he, t, te, label, _ in doc._.kg_span_relations
    }
    assert ("precision", "EVALUATE-FOR", "system") in relations


def test_tdmsci_model_finds_tasks_datasets_metrics(tdmsci):
    doc = tdmsci(
        "We report BLEU scores for machine translation on the WMT 2014 English-German dataset ."
    )
    labels = {e.label_ for e in doc.ents}
    assert {"METRIC", "TASK"} <= labels
    assert ("BLEU", "METRIC") in {(e.text, e.label_) for e in doc.ents}


@pytest.mark.skipif(not (DATA / "scierc" / "dev.jsonl").is_file(), reason="shared data not present")
def test_scierc_model_on_dev_abstracts(scierc):
    from kg.evaluate.scierc import evaluate_scierc, read_scierc

    report, _ = evaluate_scierc(read_scierc(DATA / "scierc" / "dev.jsonl")[:5], scierc)
    assert report["entities"]["micro"]["f1"] > 0.45
    assert report["relations"]["micro"]["tp"] > 0
