from __future__ import annotations

import pytest

from kg.ids import paper_id
from kg.ingest.csv import read_csv, sniff_delimiter
from kg.ingest.fields import NO_ABSTRACT
from kg.types import Paper, ReadIssue

from .conftest import Write


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("a.csv", 'title,abstract,year\nT,"Uses 4.5$\\times$, commas.",2024\n'),
        ("a.tsv", "title\tabstract\tyear\nT\tUses 4.5$\\times$, commas.\t2024\n"),
        ("tabs.csv", "title\tabstract\tyear\nT\tUses 4.5$\\times$, commas.\t2024\n"),
        ("semi.csv", 'title;abstract;year\nT;"Uses 4.5$\\times$, commas.";2024\n'),
    ],
)
def test_delimiters_are_sniffed(write: Write, name: str, text: str) -> None:
    (paper,) = read_csv(write(name, text))
    assert isinstance(paper, Paper)
    assert (paper.title, paper.abstract, paper.year) == ("T", r"Uses 4.5$\times$, commas.", 2024)
    assert (paper.source.index, paper.source.line) == (0, 2)


@pytest.mark.parametrize(
    ("header", "expected"),
    [("title\tabstract, with comma", "\t"), ("a,b;c", ","), ("a;b;c,d", ";"), ("abstract", ",")],
)
def test_sniff_delimiter(header: str, expected: str) -> None:
    assert sniff_delimiter(header) == expected


def test_header_aliases_are_case_and_space_insensitive(write: Write) -> None:
    text = (
        "Paper ID,TITLE,Abstract Text,Authors,Publication Date,Booktitle,PDF URL,DOI,Code\n"
        "https://arxiv.org/abs/2401.01234v2,My Title,The abstract.,A One; B Two,2024-02-01,"
        "ICML,https://x.org/p.pdf,,https://github.com/a/b https://github.com/c/d\n"
    )
    (paper,) = read_csv(write("a.csv", text))
    assert isinstance(paper, Paper)
    assert paper.title == "My Title"
    assert paper.abstract == "The abstract."
    assert paper.authors == ("A One", "B Two")
    assert (paper.year, paper.venue, paper.url) == (2024, "ICML", "https://x.org/p.pdf")
    assert (paper.doi, paper.arxiv_id, paper.id) == (None, "2401.01234", "arxiv:2401.01234")
    assert paper.code_urls == ("https://github.com/a/b", "https://github.com/c/d")


def test_quoted_multiline_abstract_is_exact_and_later_lines_are_right(write: Write) -> None:
    abstract = 'Line one, with "quotes".\nLine two \\url{https://a.b}'
    quoted = abstract.replace('"', '""')
    text = f'title,abstract\nA,"{quoted}"\n\nB,Plain.\n'
    items = list(read_csv(write("a.csv", text)))
    assert [(p.abstract, p.source.index, p.source.line) for p in items] == [
        (abstract, 0, 2),
        ("Plain.", 1, 5),
    ]
    assert items[0].id == paper_id(abstract=abstract)


def test_bad_rows_give_issues_naming_their_line(write: Write) -> None:
    text = (
        "title,abstract,year\n"  # 1
        "A,Good.,2020\n"  # 2
        "B,Missing year\n"  # 3 (too few fields)
        "C,,2021\n"  # 4 (empty abstract)
        "D,   ,2021\n"  # 5 (whitespace abstract)
        "E,Shifted, extra,2022\n"  # 6 (too many fields)
        "F,Fine too.,2023,\n"  # 7 (a trailing empty field is fine)
    )
    path = write("a.csv", text)
    items = list(read_csv(path))
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("Paper", 0, 2),
        ("ReadIssue", 1, 3),
        ("ReadIssue", 2, 4),
        ("ReadIssue", 3, 5),
        ("ReadIssue", 4, 6),
        ("Paper", 5, 7),
    ]
    issues = [i for i in items if isinstance(i, ReadIssue)]
    assert "2 fields" in issues[0].reason and "3" in issues[0].reason
    assert issues[1].reason == "empty abstract"
    assert issues[2].reason == "abstract is only whitespace"
    assert "4 fields" in issues[3].reason
    assert f"{path}:3" in str(issues[0])


def test_missing_abstract_column_gives_an_issue_per_row(write: Write) -> None:
    items = list(read_csv(write("a.csv", "title,year\nA,2020\nB,2021\n")))
    assert [(i.reason, i.source.line) for i in items if isinstance(i, ReadIssue)] == [
        (NO_ABSTRACT, 2),
        (NO_ABSTRACT, 3),
    ]


def test_cp1252_and_bom_csv(write: Write) -> None:
    raw = "title,abstract\nCaf\xe9,R\xe9sum\xe9 \u2013 ok.\n".encode("cp1252")
    (paper,) = read_csv(write("w.csv", raw))
    assert isinstance(paper, Paper) and (paper.title, paper.abstract) == (
        "Café",
        "Résumé \u2013 ok.",
    )
    (paper,) = read_csv(write("b.csv", "\ufefftitle,abstract\nT,Text.\n"))
    assert isinstance(paper, Paper) and paper.title == "T"


def test_header_only_and_empty_csv(write: Write) -> None:
    assert list(read_csv(write("h.csv", "title,abstract\n"))) == []
    assert [i.reason for i in read_csv(write("e.csv", ""))] == ["empty file"]


def test_malformed_quoting_gives_issues_and_reading_goes_on(write: Write) -> None:
    text = 'title,abstract\nA,"x" y\nB,Fine.\nC,"never closed\nD,swallowed\n'
    items = list(read_csv(write("q.csv", text)))
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("ReadIssue", 0, 2),
        ("Paper", 1, 3),
        ("ReadIssue", 2, 4),
    ]
    assert all(i.reason.startswith("malformed CSV") for i in items if isinstance(i, ReadIssue))
