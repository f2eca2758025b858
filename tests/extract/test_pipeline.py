"""How ``kg.extract.pipeline`` groups the spans of one entity: an acronym joins its long form."""

import pytest
from spacy.tokens import Span

from kg.extract.pipeline import _group_spans


def span(doc, text, label, kb_id=""):
    start = doc.text.index(text)
    return Span(doc, *_tokens(doc, start, start + len(text)), label=label, kb_id=kb_id)


def _tokens(doc, start, end):
    found = doc.char_span(start, end)
    return found.start, found.end


@pytest.mark.parametrize(
    "text, name, kb_id, joined",
    [
        # a catalogue entry inside the long form is a shorter name than the one the acronym stands for
        ("We study the Zorvian Salient Object Detection (ZSOD) task.", "Salient Object Detection",
         "pwc:task:salient-object-detection", False),
        # without the catalogue id, an entity covering most of the long form is still taken for it
        ("We study the Zorvian Salient Object Detection (ZSOD) task.", "Salient Object Detection", "", True),
        # a catalogue entry that is the whole long form, its article aside
        ("We train with the Proximal Policy Optimization (PPO) algorithm.", "Proximal Policy Optimization",
         "pwc:method:ppo", True),
    ],
)
def test_an_acronym_joins_the_entity_that_is_its_long_form(nlp, text, name, kb_id, joined):
    doc = nlp(text)
    assert doc._.kg_abbreviations, "the text defines an acronym"
    acronym = text[text.index("(") + 1:text.index(")")]
    spans = [span(doc, name, "Task", kb_id), span(doc, acronym, "Task")]
    groups = [{s.text for s in group} for group, _ in _group_spans(doc, spans)]
    assert ({name, acronym} in groups) is joined
