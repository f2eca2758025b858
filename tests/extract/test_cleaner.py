"""kg_clean: ``nlp(raw abstract)`` gives what ``kg build`` extracts from it."""

from __future__ import annotations

import pytest

from kg.extract.clean import clean_text
from kg.extract.pipeline import extract_papers, to_extraction
from kg.ingest import read_papers
from kg.types import Paper


@pytest.fixture(scope="module")
def marked_up(examples_dir) -> list[Paper]:
    """The example papers whose abstracts hold LaTeX or Markdown that cleaning removes."""
    papers = [p for p in read_papers([examples_dir]) if isinstance(p, Paper)]
    found = [p for p in papers if clean_text(p.abstract).text != p.abstract]
    assert len(found) >= 3
    return found


def _cleaned_outside(nlp, paper: Paper):
    """The way kg build ran before kg_clean: clean, tokenise the clean text, set the emphasis,
    then the pipeline without a cleaner."""
    clean = clean_text(paper.abstract)
    doc = nlp.make_doc(clean.text)
    doc._.kg_emphasis = clean.emphasis
    doc._.kg_title = paper.title or ""
    with nlp.select_pipes(disable=["kg_clean"]):
        doc = nlp(doc)
    return to_extraction(doc, paper, clean)


def test_nlp_of_the_raw_text_is_what_kg_build_extracts(nlp, marked_up):
    built = list(extract_papers(marked_up, nlp))
    assert [e.paper for e in built] == marked_up
    for paper, extraction in zip(marked_up, built):
        doc = nlp.make_doc(paper.abstract)
        doc._.kg_title = paper.title or ""
        doc = nlp(doc)
        assert doc.text == clean_text(paper.abstract).text
        assert to_extraction(doc, paper, doc._.kg_clean) == extraction == _cleaned_outside(nlp, paper)


def test_the_title_and_the_pipe_context_survive_cleaning(nlp):
    raw = r"We propose **Z**orb**N**et (ZN), 4.5$\times$ faster on MNIST."
    doc = nlp.make_doc(raw)
    doc._.kg_title = "ZornNet"
    doc = nlp(doc)
    assert doc.text == "We propose ZorbNet (ZN), 4.5× faster on MNIST."
    assert doc._.kg_title == "ZornNet"
    assert [doc.text[s:e] for s, e, kind in doc._.kg_emphasis if kind == "bold"] == ["Z", "N"]
    assert doc._.kg_clean.raw_span(doc.text.index("MNIST"), len(doc.text) - 1) == (raw.index("MNIST"), len(raw) - 1)
    [(piped, context)] = list(nlp.pipe([(raw, {"id": 1})], as_tuples=True))
    assert context == {"id": 1} and piped.text == doc.text
