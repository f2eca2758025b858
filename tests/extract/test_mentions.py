"""How ``kg.extract.mentions`` groups the spans of one entity: an acronym joins its long form."""

import pytest
from spacy.tokens import Span

from kg.extract.mentions import group_spans


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
    groups = [{s.text for s in group} for group, _ in group_spans(doc, spans)]
    assert ({name, acronym} in groups) is joined


@pytest.mark.parametrize(
    "text, names, joined",
    [
        # an acronym the abstract never defines joins the one name its letters spell
        ("Zorbic flux learning is hard. We study ZFL agents.", ["Zorbic flux learning", "ZFL"], True),
        ("We plonk Quibble-to-Zorb mapping. QZM scales.", ["Quibble-to-Zorb mapping", "QZM"], True),
        # two names it could spell: neither
        ("Zorbic flux learning and zonal field lifting differ. ZFL wins.",
         ["Zorbic flux learning", "zonal field lifting", "ZFL"], False),
        # letters in another order: no
        ("Zorbic flux learning is hard. We study FZL agents.", ["Zorbic flux learning", "FZL"], False),
        # the name written only after the acronym: no (LPs, then a linear prediction model)
        ("We study ZFL agents. Zorbic flux learning is hard.", ["Zorbic flux learning", "ZFL"], False),
    ],
)
def test_an_undefined_acronym_joins_the_one_name_it_spells(nlp, text, names, joined):
    doc = nlp(text)
    assert not doc._.kg_abbreviations, "the text defines no acronym"
    spans = [span(doc, name, "Method") for name in names]
    groups = [{s.text for s in group} for group, _ in group_spans(doc, spans)]
    acronym = names[-1]
    assert any(acronym in group and len(group) == 2 for group in groups) is joined
    if joined:
        (group, long_forms), = [(g, lf) for g, lf in group_spans(doc, spans) if len(g) == 2]
        assert {doc.text[a:b] for a, b in long_forms} == {names[0]}  # the long form names it


def test_a_name_that_writes_an_acronym_joins_the_name_that_writes_it_out(nlp):
    """``safe ZFL`` and ``safe Zorbic flux learning`` name one thing where ZFL is Zorbic flux learning."""
    text = "Zorbic flux learning (ZFL) is hard. Safe ZFL helps, as safe Zorbic flux learning does. Deep ZFL too."
    doc = nlp(text)
    names = ["Zorbic flux learning", "ZFL", "Safe ZFL", "safe Zorbic flux learning", "Deep ZFL"]
    spans = [span(doc, name, "Method") for name in names]
    groups = [{s.text for s in group} for group, _ in group_spans(doc, spans)]
    assert {"Safe ZFL", "safe Zorbic flux learning"} in groups
    assert {"Deep ZFL"} in groups  # nothing writes it out
    assert {"Zorbic flux learning", "ZFL"} in groups


def test_a_catalogued_name_joins_no_other_name_by_its_letters(nlp):
    """``SAM`` the catalogue's model is not ``sharpness-aware minimization`` because its letters
    spell it; nor is the catalogue's ``offline ZL`` the written-out ``offline Zorbic learning``."""
    doc = nlp("Sharpness-aware minimization helps. We tune SAM prompts.")
    spans = [span(doc, "Sharpness-aware minimization", "Method"), span(doc, "SAM", "Model", "model:sam")]
    assert len(group_spans(doc, spans)) == 2
    spans = [span(doc, "Sharpness-aware minimization", "Method"), span(doc, "SAM", "Method")]
    assert len(group_spans(doc, spans)) == 2  # the catalogue knows SAM by its name alone
    doc = nlp("Zorbic-aware minimization helps. We tune ZAM steps.")
    spans = [span(doc, "Zorbic-aware minimization", "Method"), span(doc, "ZAM", "Method")]
    assert len(group_spans(doc, spans)) == 1
    doc = nlp("Zorbic learning (ZL) works. Offline ZL and offline Zorbic learning differ.")
    names = [("Zorbic learning", ""), ("ZL", ""), ("Offline ZL", "pwc:task:offline-zl"), ("offline Zorbic learning", "")]
    spans = [span(doc, name, "Task", kb_id) for name, kb_id in names]
    groups = [{s.text for s in group} for group, _ in group_spans(doc, spans)]
    assert {"Offline ZL"} in groups and {"offline Zorbic learning"} in groups
