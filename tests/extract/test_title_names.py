"""The name only a title states (``kg_title_names``), on invented names: found by its shape and
place, typed by the subtitle, kept out when the abstract writes it or the field knows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.extract.pipeline import DEFAULT_CONFIG, extract_papers, load_pipeline
from kg.extract.relations import relation_subjects
from kg.extract.title_names import title_name
from kg.types import Paper, Source

ABSTRACT = ("We present a sampler for diffusion models that needs four times fewer steps. "
            "Our sampler is evaluated on CIFAR-10 and ImageNet.")


@pytest.fixture(scope="module")
def titled(tmp_path_factory):
    """The shipped pipeline with ``kg_title_names`` turned on (the shipped config leaves it off)."""
    config = tmp_path_factory.mktemp("config") / "titled.cfg"
    text = Path(DEFAULT_CONFIG).read_text(encoding="utf-8")
    assert 'disabled = ["kg_title_names"]' in text
    config.write_text(text.replace('disabled = ["kg_title_names"]', "disabled = []"), encoding="utf-8")
    return load_pipeline(config)


def test_the_shipped_pipeline_takes_names_from_the_abstract_only(nlp):
    record = next(extract_papers([_paper("Zorblatrix: A Faster Sampler for Diffusion Models")], nlp))
    assert "Zorblatrix" not in [e.name for e in record.entities]


@pytest.mark.parametrize(
    "title, found",
    [
        ("Zorblatrix: A Faster Sampler for Diffusion Models", ("Zorblatrix", "Method")),
        ("QuibNet-2 - Pruning Vision Transformers Twice", ("QuibNet-2", "Method")),
        ("QuibbleSet: A Benchmark of Zoological Questions", ("QuibbleSet", "Dataset")),
        ("GlorpBench: Evaluating Agents on Long Tasks", ("GlorpBench", "Dataset")),
        # not coined names: a word, a phrase, a catalogue entry, two names at once
        ("Position: Benchmarks Are Not Enough", None),
        ("Brain Dissection: Probing Vision Models", None),
        ("BERT: Pre-training of Deep Bidirectional Transformers", None),
        ("ZorbA/ZorbB: Two Samplers", None),
        ("A Faster Sampler for Diffusion Models", None),
    ],
)
def test_title_name_by_shape_and_place(title, found):
    result = title_name(title)
    assert (None if result is None else (result[0], result[3])) == found


def test_title_name_offsets_point_into_the_title_as_given():
    title = r"E$^2$Zorb: Efficient Samplers"
    name, start, end, _ = title_name(title)
    assert name == "E²Zorb"  # the power as names write it
    assert title[start:end] == r"E$^2$Zorb"


def _paper(title: str, abstract: str = ABSTRACT) -> Paper:
    return Paper(id="p", abstract=abstract, source=Source("x", 0), title=title)


def test_a_title_name_is_named_clean_and_its_mention_is_the_title_as_given(titled):
    title = r"E$^2$Zorb: Efficient Samplers"
    [entity] = [e for e in next(extract_papers([_paper(title)], titled)).entities if e.proposed]
    assert (entity.name, entity.mentions[0].text) == ("E²Zorb", r"E$^2$Zorb")


def test_a_title_name_the_abstract_never_writes_is_the_proposal(titled):
    title = "Zorblatrix: A Faster Sampler for Diffusion Models"
    record = next(extract_papers([_paper(title)], titled))
    found = [e for e in record.entities if e.name == "Zorblatrix"]
    assert len(found) == 1
    entity = found[0]
    assert (entity.type, entity.proposed) == ("Method", True)
    [mention] = entity.mentions
    assert (mention.field, title[mention.start:mention.end]) == ("title", "Zorblatrix")


@pytest.mark.parametrize(
    "abstract",
    [
        ABSTRACT.replace("We present a sampler", "We present Zorblatrix, a sampler"),
        ABSTRACT.replace("We present a sampler", "We present ZorblaTrix, a sampler"),  # case aside
        ABSTRACT.replace("We present a sampler", "We present Zorblatrex, a sampler"),  # the title's typo
    ],
)
def test_a_title_name_the_abstract_writes_is_left_to_the_abstract(titled, abstract):
    record = next(extract_papers([_paper("Zorblatrix: A Faster Sampler", abstract)], titled))
    assert all(m.field == "abstract" for e in record.entities for m in e.mentions)


def test_the_title_name_is_the_subject_of_relations_when_the_abstract_names_no_proposal(titled):
    doc = titled.make_doc(ABSTRACT)
    doc._.kg_title = "Zorblatrix: A Faster Sampler for Diffusion Models"
    doc = titled(doc)
    finder = titled.get_pipe("kg_relations")
    subjects = relation_subjects(doc, list(doc.spans["kg_proposed"]), 1, finder.tokenizer)
    assert [(s.text, s.label_) for s in subjects] == [("Zorblatrix", "Method")]
    assert not relation_subjects(doc, list(doc.spans["kg_proposed"]), 1)  # no tokenizer: no title


def test_a_named_proposal_in_the_abstract_stays_the_subject(titled):
    doc = titled.make_doc("We propose Quibblex, a sampler for diffusion models. Quibblex is evaluated on CIFAR-10.")
    doc._.kg_title = "Zorblatrix: A Faster Sampler"
    doc = titled(doc)
    finder = titled.get_pipe("kg_relations")
    subjects = relation_subjects(doc, list(doc.spans["kg_proposed"]), 1, finder.tokenizer)
    assert [s.text for s in subjects] == ["Quibblex"]


def test_the_title_name_gets_the_relations_of_the_proposal(titled):
    """The unnamed sampler is evaluated on CIFAR-10: the title's name is what is evaluated, and
    the evidence is the abstract's sentence."""
    record = next(extract_papers([_paper("Zorblatrix: A Faster Sampler for Diffusion Models")], titled))
    names = [e.name for e in record.entities]
    stated = {(names[r.subject], r.predicate, names[r.object]) for r in record.relations}
    assert ("Zorblatrix", "evaluated_on", "CIFAR-10") in stated
    evidence = next(r for r in record.relations if names[r.object] == "CIFAR-10")
    assert "CIFAR-10" in record.paper.abstract[evidence.start:evidence.end]


def test_the_title_name_is_the_subject_of_the_unnamed_proposal_s_results(titled):
    abstract = "We present a sampler for diffusion models. Our sampler reaches an FID of 2.1 on CIFAR-10."
    record = next(extract_papers([_paper("Zorblatrix: A Faster Sampler", abstract)], titled))
    names = [e.name for e in record.entities]
    [result] = [r for r in record.results if r.value == "2.1"]
    assert (names[result.subject], names[result.dataset]) == ("Zorblatrix", "CIFAR-10")
