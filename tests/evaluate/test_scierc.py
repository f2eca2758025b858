import json

import pytest
import spacy
from spacy.language import Language

import kg.train.relations  # noqa: F401  (doc._.kg_span_relations)
from kg.evaluate.scierc import evaluate_scierc, make_doc, read_scierc
from kg.evaluate.spans import EntitySource, score_items

# Two sentences; document-level token indices, inclusive ends (as SciERC stores them).
#            0      1           2       3     4    5       6      7        8
SENT_1 = ["We", "propose", "neural", "parsing", "for", "-LRB-", "MT", "-RRB-", "."]
#            9        10         11   12    13       14
SENT_2 = ["Parsing", "accuracy", "is", "measured", "on", "WSJ"]
RECORD = {
    "doc_key": "toy",
    "sentences": [SENT_1, SENT_2],
    "ner": [
        [[2, 3, "Method"], [6, 6, "Task"]],
        [[9, 10, "Metric"], [14, 14, "Material"]],
    ],
    "relations": [
        [[2, 3, 6, 6, "USED-FOR"]],
        [[9, 10, 14, 14, "EVALUATE-FOR"], [14, 14, 9, 10, "FEATURE-OF"]],
    ],
}
# What the fake pipeline predicts, exclusive ends (as spaCy spans).
PREDICTED_ENTS = [
    (2, 4, "Method"),  # exact
    (6, 7, "Task"),  # exact; one token: inclusive end 6 is exclusive 7
    (9, 10, "Metric"),  # end off by one (a reader that forgot the +1 would take this)
    (14, 15, "Method"),  # right span, wrong type
]
PREDICTED_RELS = [
    (2, 4, 6, 7, "USED-FOR"),  # exact
    (9, 10, 14, 15, "EVALUATE-FOR"),  # head end off by one
    (14, 15, 9, 11, "COMPARE"),  # spans right (head type wrong), label wrong
    (6, 7, 2, 4, "USED-FOR"),  # reversed direction
]


@Language.component("kg_test_scierc_oracle")
def _oracle(doc):
    doc.ents = [spacy.tokens.Span(doc, s, e, label=label) for s, e, label in PREDICTED_ENTS]
    doc._.kg_span_relations = [(*r, 0.9) for r in PREDICTED_RELS]
    return doc


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps(RECORD), encoding="utf-8")  # no trailing newline, like SciERC
    return path


@pytest.fixture
def oracle():
    nlp = spacy.blank("en")
    nlp.add_pipe("kg_test_scierc_oracle")
    return nlp


def test_read_scierc_makes_ends_exclusive(corpus):
    (record,) = read_scierc(corpus)
    assert record.entities == (
        (2, 4, "Method"),
        (6, 7, "Task"),
        (9, 11, "Metric"),
        (14, 15, "Material"),
    )
    assert record.relations[0] == (2, 4, 6, 7, "USED-FOR")
    words = record.words
    assert [" ".join(words[s:e]) for s, e, _ in record.entities] == [
        "neural parsing",
        "MT",
        "Parsing accuracy",
        "WSJ",
    ]


def test_make_doc_keeps_tokens_and_sentences(corpus):
    (record,) = read_scierc(corpus)
    doc = make_doc(spacy.blank("en").vocab, record)
    assert len(doc) == 15
    assert [s.start for s in doc.sents] == [0, 9]
    assert doc[5].text == "(" and doc[7].text == ")"  # PTB escapes, still one token each


def test_scierc_entity_scores(corpus, oracle):
    report, _ = evaluate_scierc(read_scierc(corpus), oracle, source=EntitySource(None))
    entities = report["entities"]
    assert (entities["micro"]["tp"], entities["micro"]["predicted"], entities["micro"]["gold"]) == (
        2,
        4,
        4,
    )
    assert entities["micro"]["f1"] == 0.5
    assert entities["Method"] == {
        "precision": 0.5,
        "recall": 1.0,
        "f1": 0.6667,
        "tp": 1,
        "predicted": 2,
        "gold": 1,
    }
    assert entities["Metric"]["tp"] == 0 and entities["Material"]["recall"] == 0.0
    assert entities["Generic"]["gold"] == 0


def test_scierc_relation_scores_plain_and_strict(corpus, oracle):
    report, _ = evaluate_scierc(read_scierc(corpus), oracle, source=EntitySource(None))
    plain, strict = report["relations"]["micro"], report["relations_strict"]["micro"]
    # Only the first prediction matches: off-by-one end, wrong label and wrong direction do not.
    assert (plain["tp"], plain["predicted"], plain["gold"]) == (1, 4, 3)
    assert plain["precision"] == 0.25 and plain["recall"] == 0.3333
    assert strict["tp"] == 1
    assert report["relations"]["USED-FOR"]["predicted"] == 2


def test_strict_relation_needs_argument_types(tmp_path):
    record = {
        "doc_key": "d",
        "sentences": [["A", "B"]],
        "ner": [[[0, 0, "Method"], [1, 1, "Task"]]],
        "relations": [[[0, 0, 1, 1, "USED-FOR"]]],
    }
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")

    @Language.component("kg_test_scierc_wrong_type")
    def wrong_type(doc):
        doc.ents = [spacy.tokens.Span(doc, 0, 1, "Method"), spacy.tokens.Span(doc, 1, 2, "Generic")]
        doc._.kg_span_relations = [(0, 1, 1, 2, "USED-FOR", 1.0)]
        return doc

    nlp = spacy.blank("en")
    nlp.add_pipe("kg_test_scierc_wrong_type")
    report, _ = evaluate_scierc(read_scierc(path), nlp)
    assert report["relations"]["micro"]["f1"] == 1.0
    assert report["relations_strict"]["micro"]["f1"] == 0.0


def test_predictions_are_scierc_json_with_inclusive_ends(corpus, oracle, tmp_path):
    _, predictions = evaluate_scierc(read_scierc(corpus), oracle, source=EntitySource(None))
    (pred,) = predictions
    assert pred["ner"] == RECORD["ner"]
    assert pred["relations"] == [RECORD["relations"][0], sorted(RECORD["relations"][1])]
    assert pred["predicted_ner"] == [
        [[2, 3, "Method"], [6, 6, "Task"]],
        [[9, 9, "Metric"], [14, 14, "Method"]],
    ]
    assert pred["predicted_relations"][0] == [[2, 3, 6, 6, "USED-FOR"], [6, 6, 2, 3, "USED-FOR"]]
    # Read back as gold: the predicted spans survive the inclusive/exclusive round trip.
    again = tmp_path / "again.jsonl"
    again.write_text(json.dumps({**pred, "ner": pred["predicted_ner"]}), encoding="utf-8")
    assert {e for e in read_scierc(again)[0].entities} == set(PREDICTED_ENTS)


def test_kg_rule_pipeline_labels_are_mapped(corpus):
    nlp = spacy.blank("en")

    @Language.factory("kg_test_fake_kg_entities", default_config={"spans_key": "kg_entities"})
    def make(nlp, name, spans_key):
        def component(doc):
            doc.spans[spans_key] = [
                spacy.tokens.Span(doc, 14, 15, "Dataset"),
                spacy.tokens.Span(doc, 2, 4, "Model"),
            ]
            return doc

        return component

    nlp.add_pipe("kg_test_fake_kg_entities")
    source = EntitySource("kg_entities", {"Dataset": "Material", "Model": "Method"})
    report, _ = evaluate_scierc(read_scierc(corpus), nlp, source=source)
    assert report["entities"]["Material"]["tp"] == 1 and report["entities"]["Method"]["tp"] == 1


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ({("d", 0, 1, "A")}, {("d", 0, 1, "A")}, (1.0, 1.0, 1.0)),
        ({("d", 0, 1, "A")}, set(), (0.0, 0.0, 0.0)),
        (set(), {("d", 0, 1, "A")}, (0.0, 0.0, 0.0)),
        (
            {("d", 0, 2, "A"), ("d", 3, 4, "B")},
            {("d", 0, 2, "A"), ("e", 3, 4, "B"), ("d", 3, 4, "A")},
            (0.3333, 0.5, 0.4),
        ),
    ],
)
def test_score_items_micro(gold, pred, expected):
    micro = score_items(gold, pred)["micro"]
    assert (micro["precision"], micro["recall"], micro["f1"]) == expected


def test_score_items_counts_duplicates_once():
    report = score_items(
        [("d", 0, 1, "A"), ("d", 0, 1, "A")], [("d", 0, 1, "A")] * 3, labels=["A", "B"]
    )
    assert report["A"]["predicted"] == 1 and report["A"]["gold"] == 1
    assert report["B"] == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "tp": 0,
        "predicted": 0,
        "gold": 0,
    }
