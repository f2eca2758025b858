"""Types from the lists names are in, after the learned decision (kg.extract.entities.context_types),
on hand-made candidates and probabilities of invented text."""

import pytest
import spacy

from kg.extract.entities.candidate import PRIORITY_NAME, Candidate
from kg.extract.entities.context_types import ContextTyping

CLASSES = ["Dataset", "Method", "Metric", "Model", "Task", "none"]


def decided(doc, text, words, label, probabilities):
    """A kept candidate with the decision's probabilities (by class, ``none`` masked as the decision does)."""
    start = text.index(words)
    span = doc.char_span(start, start + len(words))
    c = Candidate(span.start, span.end, label, PRIORITY_NAME, source="name")
    p = [probabilities.get(k, 0.0) for k in CLASSES]
    p[CLASSES.index("none")] = -1.0
    return c, p


@pytest.mark.parametrize("text, settled, doubted, label", [
    # a doubtful Dataset listed with a settled Method, after etc.: a Method
    ("We compare Plonk with Zorbo, Quxify, etc. on speed.", "Zorbo", "Quxify", "Method"),
    # a doubtful Method joined by and to a settled Task: a Task
    ("It serves blarg estimation and quxic federated learning.", "blarg estimation", "quxic federated learning", "Task"),
])
def test_a_doubtful_name_takes_the_settled_type_of_its_list(text, settled, doubted, label):
    doc = spacy.blank("en")(text)
    other = "Dataset" if label == "Method" else "Method"
    anchor, p_anchor = decided(doc, text, settled, label, {label: 0.8, other: 0.1})
    doubt, p_doubt = decided(doc, text, doubted, other, {other: 0.45, label: 0.35})
    ContextTyping._agree_in_lists(doc, [anchor, doubt], {id(anchor): p_anchor, id(doubt): p_doubt}, CLASSES)
    assert (anchor.label, doubt.label) == (label, label)


@pytest.mark.parametrize("text, first, second, p_second", [
    # only a comma between: as often an apposition (``3D shape representation, Neural SDFs``)
    ("It learns blarg fields, Quxnet for short.", "blarg fields", "Quxnet", {"Method": 0.45, "Task": 0.35}),
    # the decision is sure enough of the second name's own type
    ("It serves blarg estimation and Quxnet.", "blarg estimation", "Quxnet", {"Method": 0.7, "Task": 0.2}),
    # the list's type is implausible for the second name
    ("It serves blarg estimation and Quxnet.", "blarg estimation", "Quxnet", {"Method": 0.5, "Task": 0.05}),
])
def test_a_name_keeps_its_type_where_the_list_does_not_settle_it(text, first, second, p_second):
    doc = spacy.blank("en")(text)
    anchor, p_anchor = decided(doc, text, first, "Task", {"Task": 0.9})
    name, p_name = decided(doc, text, second, "Method", p_second)
    ContextTyping._agree_in_lists(doc, [anchor, name], {id(anchor): p_anchor, id(name): p_name}, CLASSES)
    assert name.label == "Method"


def test_no_type_is_settled_where_the_list_mixes_two_settled_types():
    text = "We evaluate Plonk, Zorbo and Quxify."
    doc = spacy.blank("en")(text)
    a, pa = decided(doc, text, "Plonk", "Dataset", {"Dataset": 0.9})
    b, pb = decided(doc, text, "Zorbo", "Method", {"Method": 0.9})
    c, pc = decided(doc, text, "Quxify", "Task", {"Task": 0.4, "Dataset": 0.3, "Method": 0.3})
    ContextTyping._agree_in_lists(doc, [a, b, c], {id(a): pa, id(b): pb, id(c): pc}, CLASSES)
    assert c.label == "Task"
