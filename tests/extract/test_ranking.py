"""The learned choice among overlapping candidates (kg.extract.entities.ranking), on made-up text."""

import numpy
import pytest
import spacy

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, PRIORITY_PHRASE, Candidate
from kg.extract.entities.choice import CandidateChoice
from kg.extract.entities.ranking import _coined, _overlapping, conflicting_features, rank_candidates
from kg.extract.linear import LinearModel
from kg.extract.vocabulary import default_vocabulary

TEXT = "We apply goal-conditioned reinforcement learning to the Plinkor benchmark."


@pytest.fixture()
def doc():
    return spacy.blank("en")(TEXT)


def extent(doc, words):
    """The token extent of the first ``words`` in ``doc``."""
    span = doc.char_span(TEXT.index(words), TEXT.index(words) + len(words))
    return span.start, span.end


@pytest.fixture()
def conflict(doc):
    """The catalogue's ``reinforcement learning`` inside a phrase that adds a glued modifier."""
    outer = Candidate(*extent(doc, "goal-conditioned reinforcement learning"), "Method", PRIORITY_PHRASE,
                      source="phrase")
    inner = Candidate(*extent(doc, "reinforcement learning"), "Method", PRIORITY_CATALOGUE, source="catalogue")
    alone = Candidate(*extent(doc, "Plinkor"), "Dataset", PRIORITY_CATALOGUE, source="catalogue")
    return outer, inner, alone


def test_overlaps_are_other_extents_sharing_a_token(conflict):
    outer, inner, alone = conflict
    twin = Candidate(inner.start, inner.end, "Method", 1.5, source="learned")
    found = _overlapping([outer, inner, alone, twin])
    assert found[0] == [1, 3]
    assert found[1] == [0] and found[3] == [0]  # the same extent is no conflict
    assert found[2] == []


def test_conflicting_candidates_say_what_they_add_or_lack(doc, conflict):
    outer, inner, alone = conflict
    features = dict((id(c), f) for c, f in conflicting_features(doc, [outer, inner, alone], [], default_vocabulary()))
    assert id(alone) not in features  # nothing overlaps it: chosen whatever its score
    assert {"contains=catalogue", "contains=catalogue|phrase", "adds_before=goal", "adds_before_glued"} <= set(
        features[id(outer)])
    assert {"inside=phrase", "lacks_before=goal", "lacks_before_glued", "priority=4"} <= set(features[id(inner)])


def chooser(weight_of_adding: float) -> LinearModel:
    """A hand-made choice model: adding words to a catalogue name counts for or against."""
    return LinearModel(["none", "Method"], ["contains=catalogue", "inside=phrase"],
                       numpy.array([[0.0, weight_of_adding], [0.0, -weight_of_adding]]), numpy.zeros(2))


@pytest.mark.parametrize("weight, winner", [
    (2.0, "goal-conditioned reinforcement learning"),
    (-2.0, "reinforcement learning"),
])
def test_the_likelier_whole_name_is_chosen(doc, conflict, weight, winner):
    candidates = list(conflict)
    rank_candidates(doc, candidates, [], chooser(weight), default_vocabulary())
    assert conflict[2].score is None
    chosen = CandidateChoice._non_overlapping(doc, candidates)
    assert [doc[c.start:c.end].text for c in chosen] == [winner, "Plinkor"]


def test_without_a_model_the_stronger_rule_wins(doc, conflict):
    chosen = CandidateChoice._non_overlapping(doc, list(conflict))
    assert [doc[c.start:c.end].text for c in chosen] == ["reinforcement learning", "Plinkor"]


@pytest.mark.parametrize("text, name, coined", [
    ("We introduce Zorbic RAG for retrieval.", "Zorbic RAG", True),  # written as one name, new to the field
    ("We design a neural Qwixnet for graphs.", "Qwixnet", True),  # one name-shaped word, new
    ("The Fast and Plonky Memory stores states.", "Fast and Plonky Memory", True),
    ("We apply goal-conditioned reinforcement learning.", "goal-conditioned reinforcement learning", False),
    ("Results on ImageNet improve.", "ImageNet", False),  # the field knows it
])
def test_a_name_the_paper_coins_is_told_by_its_writing_and_the_field(text, name, coined):
    doc = spacy.blank("en")(text)
    start = text.index(name)
    span = doc.char_span(start, start + len(name))
    assert _coined(doc, Candidate(span.start, span.end, "Method", 2, source="name"), default_vocabulary()) is coined


def test_conflicts_around_a_coined_name_are_left_to_the_rules():
    text = "We introduce Zorbic RAG for retrieval."
    doc = spacy.blank("en")(text)
    whole = Candidate(2, 4, None, 2, source="name")
    inner = Candidate(3, 4, "Method", PRIORITY_CATALOGUE, source="catalogue")
    assert conflicting_features(doc, [whole, inner], [], default_vocabulary()) == []
    rank_candidates(doc, [whole, inner], [], chooser(-2.0), default_vocabulary())
    assert whole.score is None and inner.score is None
