"""Property tests: extraction never crashes and every offset points into the stored abstract."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.extract.clean import clean_text
from kg.extract.pipeline import extract_papers
from kg.ids import paper_id
from kg.types import Paper, Source

FRAGMENTS = st.sampled_from([
    "We propose ", "Zorblat", "GNN-Diff", ", a novel framework", " (ZB)", " dubbed ", "**M**otif",
    r"4.5$\times$ ", r"\textbf{D}ynamic", r"\url{https://github.com/a/b}", r"\href{http://x.io}{x}",
    " on CIFAR-10 and MNIST", " outperforms GPT-4o by 12.97%", " 5% → 45.3%", "*TRON*", "``q''",
    "$", "{", "}", "\\", "*", "**", "~", "(", ")", "-", ".", "\n", "\t", "\x00", "\u200b",
    "模型", "نموذج", "Ελληνικά", "é", "\ufeff", "OPT (30B)", " ", "  ",
])
TEXT = st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), min_size=1, max_size=40).map("".join)


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_clean_text_maps_every_character(raw):
    c = clean_text(raw)
    assert len(c.starts) == len(c.ends) == len(c.text)
    for i in range(len(c.text)):
        start, end = c.raw_span(i, i + 1)
        assert 0 <= start < end <= len(raw)
    for s, e, _ in c.emphasis:
        assert 0 <= s < e <= len(c.text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(TEXT, min_size=1, max_size=4))
def test_extraction_never_crashes_and_offsets_are_valid(nlp, abstracts):
    papers = [Paper(paper_id(abstract=a), a, Source("t", i)) for i, a in enumerate(abstracts)]
    records = list(extract_papers(papers, nlp))
    assert [r.paper.id for r in records] == [p.id for p in papers]
    for record in records:
        text = record.paper.abstract
        for entity in record.entities:
            assert entity.name and entity.key
            for m in entity.mentions:
                assert text[m.start:m.end] == m.text
        n = len(record.entities)
        for rel in record.relations:
            assert 0 <= rel.subject < n and 0 <= rel.object < n
            assert 0 <= rel.start <= rel.end <= len(text)
        for result in record.results:
            assert 0 <= result.start < result.end <= len(text)


@settings(max_examples=100, deadline=None)
@given(TEXT)
def test_paper_ids_are_stable(abstract):
    assert paper_id(abstract=abstract) == paper_id(abstract=abstract + " ")
