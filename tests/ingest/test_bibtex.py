from __future__ import annotations

import pytest

from kg.ids import paper_id
from kg.ingest.bibtex import read_bibtex, split_bibtex_authors, strip_braces
from kg.ingest.fields import NO_ABSTRACT
from kg.types import Paper, ReadIssue

from .conftest import Write

BIB = r"""% exported by a reference manager
@string{iclr = "International Conference on Learning Representations"}

@inproceedings{devlin2019,
  title = {{BERT}: Pre-training of Deep
           Bidirectional {T}ransformers},
  author = {Devlin, Jacob and Chang, Ming-Wei and Kenton Lee and others},
  booktitle = {NAACL},
  year = 2019,
  doi = {10.18653/v1/N19-1423},
  url = {https://aclanthology.org/N19-1423},
  abstract = {We get a 4.5$\times$ speedup. Code: \url{https://github.com/google/bert}
  and **M**otif-b**A**sed residue.},
}

@article{arxivonly,
  title = "Attention",
  author = "Ada Lovelace",
  journal = {JMLR},
  year = {2020},
  eprint = {2401.01234v2},
  archivePrefix = {arXiv},
  abstract = "Quoted abstract."
}

@inproceedings{macro, title = {M}, booktitle = iclr, year = {2024}, abstract = {Macro venue.}}
"""


def entries(text: str, write: Write) -> list[Paper | ReadIssue]:
    return list(read_bibtex(write("refs.bib", text)))


def test_fields_map_onto_the_paper(write: Write) -> None:
    first, second, third = entries(BIB, write)
    assert isinstance(first, Paper) and isinstance(second, Paper) and isinstance(third, Paper)
    assert first.title == "BERT: Pre-training of Deep Bidirectional Transformers"
    assert first.authors == ("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee")
    assert (first.year, first.venue) == (2019, "NAACL")
    assert (first.doi, first.id) == ("10.18653/v1/n19-1423", "doi:10.18653/v1/n19-1423")
    assert first.url == "https://aclanthology.org/N19-1423"
    assert (second.venue, second.year, second.authors) == ("JMLR", 2020, ("Ada Lovelace",))
    assert (second.arxiv_id, second.id) == ("2401.01234", "arxiv:2401.01234")
    assert second.abstract == "Quoted abstract."
    assert third.venue == "International Conference on Learning Representations"
    assert third.id == paper_id(abstract="Macro venue.")


def test_abstract_keeps_latex_and_newlines(write: Write) -> None:
    first = entries(BIB, write)[0]
    assert isinstance(first, Paper)
    assert first.abstract == (
        "We get a 4.5$\\times$ speedup. Code: \\url{https://github.com/google/bert}\n"
        "  and **M**otif-b**A**sed residue."
    )


def test_source_lines_and_indices(write: Write) -> None:
    items = entries(BIB, write)
    lines = BIB.split("\n")
    assert [i.source.index for i in items] == [0, 1, 2]
    assert [lines[i.source.line - 1].split("{")[0] for i in items] == [
        "@inproceedings",
        "@article",
        "@inproceedings",
    ]


def test_missing_abstract_and_broken_entries_give_issues_in_place(write: Write) -> None:
    text = (
        "@article{a, title={A}, abstract={First.}}\n"  # line 1
        "\n"
        "@article{noabs,\n"  # line 3
        "  title = {No abstract},\n"
        "}\n"
        "@article{blank, abstract = {   }}\n"  # line 6
        "@article{broken,\n"  # line 7
        "  title = {Unclosed\n"
        "  year = {2020\n"
        "}\n"
        "\n"
        "@article{z, abstract={Last.}}\n"  # line 12
    )
    items = entries(text, write)
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("Paper", 0, 1),
        ("ReadIssue", 1, 3),
        ("ReadIssue", 2, 6),
        ("ReadIssue", 3, 7),
        ("Paper", 4, 12),
    ]
    issues = [i for i in items if isinstance(i, ReadIssue)]
    assert issues[0].reason == f"entry 'noabs': {NO_ABSTRACT}"
    assert issues[1].reason == "entry 'blank': abstract is only whitespace"
    assert issues[2].reason.startswith("unparsable BibTeX")


def test_duplicate_keys_keep_both_papers(write: Write) -> None:
    text = "@misc{k, abstract={One.}}\n@misc{k, abstract={Two.}}\n"
    assert [p.abstract for p in entries(text, write)] == ["One.", "Two."]


def test_non_arxiv_eprint_is_not_an_arxiv_id(write: Write) -> None:
    text = "@article{p, abstract={A.}, eprint={2401.01234}, eprinttype={pubmed}}\n"
    (paper,) = entries(text, write)
    assert isinstance(paper, Paper) and paper.arxiv_id is None


def test_empty_bib_file(write: Write) -> None:
    assert [i.reason for i in entries("", write)] == ["empty file"]
    assert entries("% only a comment\n", write) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{BERT}: {D}eep", "BERT: Deep"),
        ("A\n   B", "A B"),
    ],
)
def test_strip_braces(text: str, expected: str) -> None:
    assert strip_braces(text) == expected


def test_split_bibtex_authors() -> None:
    assert split_bibtex_authors("von Neumann, John AND {Barnes and Noble}") == (
        "John von Neumann",
        "Barnes and Noble",
    )
    assert split_bibtex_authors("Lovelace, Ada and\n  Alan Turing") == (
        "Ada Lovelace",
        "Alan Turing",
    )
