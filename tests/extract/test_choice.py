"""Which candidates stand (kg.extract.entities.choice), on hand-made candidates of invented text."""

import pytest
import spacy

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, PRIORITY_NAME, Candidate
from kg.extract.entities.choice import strengthen_around_catalogue


def candidate(doc, text, words, label, priority, source):
    start = text.index(words)
    span = doc.char_span(start, start + len(words))
    return Candidate(span.start, span.end, label, priority, source=source)


@pytest.mark.parametrize("text, phrase, inner, name, strong", [
    # a phrase around a catalogue name of its type is as strong as the catalogue name
    ("It lowers the inference latency of Plonk.", "inference latency", "latency", None, True),
    # a second name the rules read inside the phrase: two names, not one phrase
    ("We compare Plonk-q3 with Zorbo-v2 here.", "Plonk-q3 with Zorbo-v2", "Plonk-q3", "Zorbo-v2", False),
])
def test_a_phrase_around_a_catalogue_name_is_strong_unless_it_holds_another_name(text, phrase, inner, name, strong):
    doc = spacy.blank("en")(text)
    label = "Metric" if strong else "Model"
    outer = candidate(doc, text, phrase, label, 1.5, "learned")
    candidates = [outer, candidate(doc, text, inner, label, PRIORITY_CATALOGUE, "catalogue")]
    if name:
        candidates.append(candidate(doc, text, name, None, PRIORITY_NAME, "name"))
    strengthen_around_catalogue(doc, candidates)
    assert (outer.priority == PRIORITY_CATALOGUE) is strong
