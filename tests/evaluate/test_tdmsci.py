import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span

from kg.evaluate.spans import EntitySource
from kg.evaluate.tdmsci import bio_spans, evaluate_tdmsci, make_doc, read_conll, to_bio, write_conll

# Three sentences: token, character offset, BIO tag (TDMSci's CoNLL columns).
CONLL = """\
We\t0\tO
report\t3\tO
F\t10\tB-METRIC
-\t11\tI-METRIC
measure\t12\tI-METRIC
on\t20\tO
SQuAD\t23\tB-DATASET
.\t28\tO

Machine\t30\tB-TASK
translation\t38\tI-TASK
(\t50\tO
MT\t51\tB-TASK
)\t53\tO

Parsing\t55\tB-TASK
accuracy\t63\tB-METRIC
improves\t72\tO
"""
# Fake predictions per sentence (exclusive ends).
PREDICTED = {
    0: [(2, 5, "METRIC"), (6, 7, "DATASET")],  # both exact
    1: [(0, 1, "TASK"), (3, 4, "TASK")],  # "Machine" alone: end one short; MT exact
    2: [(0, 2, "TASK"), (1, 2, "METRIC")],  # "Parsing accuracy" too long; accuracy exact
}


@Language.component("kg_test_tdmsci_oracle")
def _oracle(doc):
    sentence = {"We": 0, "Machine": 1, "Parsing": 2}[doc[0].text]
    doc.spans["pred"] = [Span(doc, s, e, label) for s, e, label in PREDICTED[sentence]]
    doc.spans["pred"].append(Span(doc, 0, 1, "Method"))  # not a TDMSci type: ignored
    return doc


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "toy.conll"
    path.write_text(CONLL, encoding="utf-8")
    return path


def test_read_conll(corpus):
    sentences = read_conll(corpus)
    assert [len(s.words) for s in sentences] == [8, 5, 3]
    assert sentences[0].entities == [(2, 5, "METRIC"), (6, 7, "DATASET")]
    assert sentences[1].entities == [(0, 2, "TASK"), (3, 4, "TASK")]
    assert sentences[2].entities == [(0, 1, "TASK"), (1, 2, "METRIC")]


def test_doc_text_follows_offsets(corpus):
    sentences = read_conll(corpus)
    vocab = spacy.blank("en").vocab
    assert make_doc(vocab, sentences[0]).text == "We report F-measure on SQuAD."
    assert make_doc(vocab, sentences[1]).text == "Machine translation (MT)"


@pytest.mark.parametrize(
    ("tags", "spans"),
    [
        (["B-TASK", "I-TASK", "O"], [(0, 2, "TASK")]),
        (["B-TASK", "B-TASK"], [(0, 1, "TASK"), (1, 2, "TASK")]),
        (["O", "I-TASK", "I-TASK"], [(1, 3, "TASK")]),  # orphan I- starts a chunk
        (["B-TASK", "I-METRIC"], [(0, 1, "TASK"), (1, 2, "METRIC")]),  # type change ends one
        (["I-DATASET"], [(0, 1, "DATASET")]),
        (["O", "O"], []),
    ],
)
def test_bio_spans_like_conlleval(tags, spans):
    assert bio_spans(tags) == spans


def test_to_bio_round_trip():
    spans = [(0, 2, "TASK"), (2, 3, "TASK"), (4, 5, "METRIC")]
    assert bio_spans(to_bio(6, spans)) == spans


def test_tdmsci_scores(corpus):
    nlp = spacy.blank("en")
    nlp.add_pipe("kg_test_tdmsci_oracle")
    source = EntitySource("pred", keep=frozenset({"TASK", "DATASET", "METRIC"}))
    report, predictions = evaluate_tdmsci(read_conll(corpus), nlp, source=source)
    scores = report["entities"]
    assert (scores["micro"]["tp"], scores["micro"]["predicted"], scores["micro"]["gold"]) == (
        4,
        6,
        6,
    )
    assert scores["micro"]["f1"] == 0.6667
    assert scores["TASK"] == {
        "precision": 0.3333,
        "recall": 0.3333,
        "f1": 0.3333,
        "tp": 1,
        "predicted": 3,
        "gold": 3,
    }
    assert scores["METRIC"]["f1"] == 1.0 and scores["DATASET"]["f1"] == 1.0
    assert len(predictions) == 3


def test_write_conll_has_gold_and_predicted_tags(corpus, tmp_path):
    sentences = read_conll(corpus)
    out = tmp_path / "pred.conll"
    write_conll([(sentences[1], [(0, 1, "TASK")])], out)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Machine\t30\tB-TASK\tB-TASK"
    assert lines[1] == "translation\t38\tI-TASK\tO"
    assert lines[-1] == ""
