from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kg.ids import paper_id
from kg.ingest.fields import NO_ABSTRACT, find_arxiv_id, find_doi, parse_year, split_authors, split_urls
from kg.ingest.jsonrecords import read_json, read_json_lines
from kg.types import Paper, ReadIssue, Source

from .conftest import Write

ABSTRACT = r"We get a 4.5$\times$ speedup with **M**otif-b**A**sed graphs. \url{https://x.y/z}"


def jsonl(*records: Any) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def one(path: Path, reader=read_json_lines) -> Paper:
    items = list(reader(path))
    assert len(items) == 1 and isinstance(items[0], Paper), items
    return items[0]


# --- field aliases -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key", ["abstract", "Abstract", "summary", "abstract_text", "Abstract Text", "TEXT"]
)
def test_abstract_aliases(write: Write, key: str) -> None:
    paper = one(write("a.jsonl", jsonl({key: ABSTRACT})))
    assert paper.abstract == ABSTRACT
    assert paper.id == paper_id(abstract=ABSTRACT)


@pytest.mark.parametrize(
    ("record", "field", "expected"),
    [
        ({"title": "  A  Title\n"}, "title", "A Title"),
        ({"Title": "T"}, "title", "T"),
        ({"venue": "ICLR"}, "venue", "ICLR"),
        ({"booktitle": "NeurIPS"}, "venue", "NeurIPS"),
        ({"journal": "JMLR"}, "venue", "JMLR"),
        ({"conference": "ACL"}, "venue", "ACL"),
        ({"source": "arXiv"}, "venue", "arXiv"),
        ({"url": "https://a.b/c"}, "url", "https://a.b/c"),
        ({"link": "https://a.b/c"}, "url", "https://a.b/c"),
        ({"pdf_url": "https://a.b/c.pdf"}, "url", "https://a.b/c.pdf"),
        ({"year": 2024}, "year", 2024),
        ({"year": "2024"}, "year", 2024),
        ({"year": "n.d.", "date": "2021-02-03"}, "year", 2021),
        ({"date": "2024-05-01"}, "year", 2024),
        ({"published": "2023-12-31T23:59:59Z"}, "year", 2023),
        ({"publication_date": "May 2022"}, "year", 2022),
        ({"doi": "10.18653/v1/N19-1423"}, "doi", "10.18653/v1/n19-1423"),
        ({"DOI": "https://doi.org/10.1145/3292500.3330701"}, "doi", "10.1145/3292500.3330701"),
        ({"arxiv_id": "2401.01234v2"}, "arxiv_id", "2401.01234"),
        ({"arxiv": "arXiv:2401.01234"}, "arxiv_id", "2401.01234"),
        ({"eprint": "2310.00001"}, "arxiv_id", "2310.00001"),
        ({"arxivId": "hep-th/9901001"}, "arxiv_id", "hep-th/9901001"),
        ({"id": "https://arxiv.org/abs/2401.01234v2"}, "arxiv_id", "2401.01234"),
        ({"paper_id": "2401.01234"}, "arxiv_id", "2401.01234"),
        ({"url": "https://arxiv.org/pdf/2402.05678v1.pdf"}, "arxiv_id", "2402.05678"),
        ({"id": "https://doi.org/10.1000/xyz123"}, "doi", "10.1000/xyz123"),
        (
            {"url": "https://dl.acm.org/doi/10.1145/3292500.3330701?x=1"},
            "doi",
            "10.1145/3292500.3330701",
        ),
        ({"url": "https://openreview.net/forum?id=abc"}, "arxiv_id", None),
        ({"code_url": "https://github.com/a/b"}, "code_urls", ("https://github.com/a/b",)),
        (
            {"code": ["https://github.com/a/b", "https://gitlab.com/c/d"]},
            "code_urls",
            ("https://github.com/a/b", "https://gitlab.com/c/d"),
        ),
        (
            {"code_urls": "https://github.com/a/b, https://github.com/a/b"},
            "code_urls",
            ("https://github.com/a/b",),
        ),
        ({"repo": "github.com/a/b"}, "code_urls", ("github.com/a/b",)),
        (
            {"repository": [{"url": "https://github.com/x/y"}]},
            "code_urls",
            ("https://github.com/x/y",),
        ),
        ({"github": "https://github.com/u/v"}, "code_urls", ("https://github.com/u/v",)),
        ({"code": "n/a"}, "code_urls", ()),
        ({"authors": ["Ada Lovelace", "Alan Turing"]}, "authors", ("Ada Lovelace", "Alan Turing")),
        (
            {"authors": [{"name": "Ada Lovelace"}, {"name": "Alan Turing"}]},
            "authors",
            ("Ada Lovelace", "Alan Turing"),
        ),
        ({"author": "Ada Lovelace and Alan Turing"}, "authors", ("Ada Lovelace", "Alan Turing")),
        ({"authors": "Ada Lovelace; Alan Turing"}, "authors", ("Ada Lovelace", "Alan Turing")),
        ({"authors": "Ada Lovelace, Alan Turing"}, "authors", ("Ada Lovelace", "Alan Turing")),
        ({"authors": "A. One, B. Two, and C. Three"}, "authors", ("A. One", "B. Two", "C. Three")),
    ],
)
def test_field_aliases(write: Write, record: dict, field: str, expected: Any) -> None:
    paper = one(write("a.jsonl", jsonl({"abstract": ABSTRACT, **record})))
    assert getattr(paper, field) == expected


def test_full_record(write: Write) -> None:
    record = {
        "id": "x1",
        "title": "AFlow",
        "abstract": ABSTRACT,
        "authors": ["A", "B"],
        "year": "2025",
        "venue": "ICLR",
        "url": "https://openreview.net/forum?id=z5uVAKwmjf",
        "code_url": "https://github.com/FoundationAgents/AFlow",
    }
    path = write("a.jsonl", jsonl(record))
    assert one(path) == Paper(
        id=paper_id(abstract=ABSTRACT),
        abstract=ABSTRACT,
        source=Source(str(path), 0, 1),
        title="AFlow",
        authors=("A", "B"),
        year=2025,
        venue="ICLR",
        url="https://openreview.net/forum?id=z5uVAKwmjf",
        code_urls=("https://github.com/FoundationAgents/AFlow",),
        record_id="x1",  # the record's own id, kept beside kg's
    )


@pytest.mark.parametrize(
    ("record", "expected_id"),
    [
        ({"doi": "10.1000/ABC"}, "doi:10.1000/abc"),
        # A preprint keeps its arXiv id whichever other identifiers an input adds.
        ({"doi": "10.1000/ABC", "arxiv_id": "2401.01234"}, "arxiv:2401.01234"),
        ({"arxiv_id": "2401.01234v3"}, "arxiv:2401.01234"),
        ({"url": "https://arxiv.org/abs/2401.01234v2"}, "arxiv:2401.01234"),
        # An arXiv DOI is keyed like the arXiv id, so both spellings give one paper.
        ({"doi": "10.48550/arXiv.2401.01234"}, "arxiv:2401.01234"),
        ({}, paper_id(abstract=ABSTRACT)),
    ],
)
def test_paper_id_prefers_arxiv_then_doi(write: Write, record: dict, expected_id: str) -> None:
    assert one(write("a.jsonl", jsonl({"abstract": ABSTRACT, **record}))).id == expected_id


def test_openreview_and_semantic_scholar_shapes(write: Write) -> None:
    openreview = {
        "id": "z5u",
        "content": {
            "title": {"value": "T"},
            "abstract": {"value": ABSTRACT},
            "venue": {"value": "ICLR 2025 Oral"},
        },
    }
    s2 = {
        "paperId": "abc",
        "abstract": "S2 abstract.",
        "externalIds": {"DOI": "10.1234/s2x", "ArXiv": "2301.00001"},
    }
    first, second = list(read_json_lines(write("a.jsonl", jsonl(openreview, s2))))
    assert isinstance(first, Paper) and isinstance(second, Paper)
    assert (first.title, first.abstract, first.venue) == ("T", ABSTRACT, "ICLR 2025 Oral")
    assert (second.doi, second.arxiv_id, second.id) == (
        "10.1234/s2x",
        "2301.00001",
        "arxiv:2301.00001",
    )


def test_abstract_is_stored_exactly(write: Write) -> None:
    abstract = "  Leading space,\ttabs, a newline\nand “unicode” ∑ — trailing  \n"
    assert one(write("a.jsonl", jsonl({"abstract": abstract}))).abstract == abstract


# --- JSON Lines --------------------------------------------------------------------------------


def test_bad_lines_give_issues_in_place_with_line_numbers(write: Write) -> None:
    text = (
        jsonl({"abstract": "First."})
        + "\n"  # blank line 2 is skipped
        + '{"abstract": "broken\n'  # line 3
        + jsonl({"title": "no abstract"})  # line 4
        + jsonl({"abstract": "   \n\t"})  # line 5
        + jsonl({"abstract": ""})  # line 6
        + "[1, 2]\n"  # line 7
        + jsonl({"abstract": 42})  # line 8
        + jsonl({"abstract": "Last."})  # line 9
    )
    path = write("a.jsonl", text)
    items = list(read_json_lines(path))
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("Paper", 0, 1),
        ("ReadIssue", 1, 3),
        ("ReadIssue", 2, 4),
        ("ReadIssue", 3, 5),
        ("ReadIssue", 4, 6),
        ("ReadIssue", 5, 7),
        ("ReadIssue", 6, 8),
        ("Paper", 7, 9),
    ]
    reasons = [i.reason for i in items if isinstance(i, ReadIssue)]
    assert reasons[0].startswith("invalid JSON")
    assert reasons[1] == NO_ABSTRACT
    assert reasons[2] == "abstract is only whitespace"
    assert reasons[3] == "empty abstract"
    assert "list" in reasons[4]
    assert "int" in reasons[5]
    assert all(str(path) in str(i) for i in items if isinstance(i, ReadIssue))


def test_jsonl_with_bom_and_crlf(write: Write) -> None:
    path = write(
        "a.jsonl",
        "\ufeff" + jsonl({"abstract": "One."}).replace("\n", "\r\n") + '{"abstract": "Two."}',
    )
    assert [p.abstract for p in read_json_lines(path)] == ["One.", "Two."]


# --- JSON files --------------------------------------------------------------------------------


def test_json_array_elements_know_their_lines(write: Write) -> None:
    records = [{"abstract": f"Abstract {n}.", "title": f"T{n}"} for n in range(3)]
    path = write("a.json", json.dumps(records, indent=2))
    items = list(read_json(path))
    assert [p.abstract for p in items] == ["Abstract 0.", "Abstract 1.", "Abstract 2."]
    lines = path.read_text().split("\n")
    for item in items:
        assert item.source.line is not None
        assert lines[item.source.line - 1].strip() == "{"
    assert [i.source.index for i in items] == [0, 1, 2]


def test_json_array_streams_across_chunks(write: Write) -> None:
    records = [{"abstract": f"A{n} " + "x" * (n % 97), "year": 2000 + n % 25} for n in range(1500)]
    path = write("big.json", json.dumps(records, indent=1))
    items = list(read_json(path))
    assert [p.abstract for p in items] == [r["abstract"] for r in records]
    lines = path.read_text().split("\n")
    assert all(lines[p.source.line - 1].strip() == "{" for p in items)


def test_json_array_on_one_line(write: Write) -> None:
    path = write("a.json", json.dumps([{"abstract": "A."}, {"abstract": "B."}]))
    assert [(p.abstract, p.source.line) for p in read_json(path)] == [("A.", 1), ("B.", 1)]


def test_broken_array_element_gives_issue_and_reading_goes_on(write: Write) -> None:
    text = (
        "[\n"
        '  {"abstract": "Good one."},\n'  # line 2
        '  {"abstract": "Bad one", "x": },\n'  # line 3
        '  {"abstract": "Good two."},\n'  # line 4
        "  7\n"  # line 5
        "]\n"
    )
    items = list(read_json(write("a.json", text)))
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("Paper", 0, 2),
        ("ReadIssue", 1, 3),
        ("Paper", 2, 4),
        ("ReadIssue", 3, 5),
    ]


def test_unclosed_array_gives_issue(write: Write) -> None:
    items = list(read_json(write("a.json", '[\n{"abstract": "A."},\n')))
    assert isinstance(items[0], Paper)
    assert isinstance(items[1], ReadIssue) and "not closed" in items[1].reason


def test_empty_array_yields_nothing(write: Write) -> None:
    assert list(read_json(write("a.json", "[ ]\n"))) == []


def test_json_file_with_json_lines(write: Write) -> None:
    path = write("a.json", jsonl({"abstract": "A."}, {"abstract": "B."}))
    assert [(p.abstract, p.source.line) for p in read_json(path)] == [("A.", 1), ("B.", 2)]


def test_json_single_pretty_object(write: Write) -> None:
    path = write("a.json", json.dumps({"abstract": "Only.", "doi": "10.1234/only"}, indent=2))
    assert one(path, read_json).id == "doi:10.1234/only"


@pytest.mark.parametrize("indent", [None, 2])
def test_json_wrapper_object(write: Write, indent: int | None) -> None:
    document = {"total": 2, "papers": [{"abstract": "A."}, {"summary": "B."}]}
    items = list(read_json(write("a.json", json.dumps(document, indent=indent))))
    assert [(p.abstract, p.source.index) for p in items] == [("A.", 0), ("B.", 1)]


def test_json_empty_and_binary(write: Write) -> None:
    assert [i.reason for i in read_json(write("e.json", "  \n"))] == ["empty file"]
    assert [i.reason for i in read_json_lines(write("b.jsonl", b"\x00\x01{}"))] == ["binary file"]


# --- helpers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Lovelace, Ada and Turing, Alan", ("Ada Lovelace", "Alan Turing")),
        ("Ada Lovelace & Alan Turing", ("Ada Lovelace", "Alan Turing")),
        ("Ada Lovelace and others", ("Ada Lovelace",)),
        ([{"given": "Ada", "family": "Lovelace"}], ("Ada Lovelace",)),
        ("", ()),
        (None, ()),
    ],
)
def test_split_authors(value: Any, expected: tuple) -> None:
    assert split_authors(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2024, 2024),
        ("2024", 2024),
        ("2024-05-01", 2024),
        (True, None),
        ("12345", None),
        (2024.0, 2024),
        ({"date-parts": [[2019, 5]]}, 2019),
        ("soon", None),
    ],
)
def test_parse_year(value: Any, expected: int | None) -> None:
    assert parse_year(value) == expected


def test_identifier_finders_ignore_lookalikes() -> None:
    assert find_arxiv_id("https://example.com/papers/1234567") is None
    assert find_arxiv_id("https://example.com/2401.01234", bare=False) is None
    assert find_doi("not a doi") is None
    assert split_urls("see https://github.com/a/b; and www.x.org/y") == (
        "https://github.com/a/b",
        "www.x.org/y",
    )


def test_resync_after_a_broken_element_skips_its_nested_objects(write: Write) -> None:
    text = (
        "[\n"
        '  {"content": {\n'  # line 2
        '    "abstract": {"value": "One."}}},\n'
        '  {"content": {\n'  # line 4: broken, its nested object must not pass for a record
        '    "abstract": {"value": "Broken"\n'
        "    {\n"
        '      "abstract": "nested, not a record"}}},\n'
        '  {"abstract": "Three."}\n'  # line 8
        "]\n"
    )
    items = list(read_json(write("n.json", text)))
    assert [(type(i).__name__, i.source.index, i.source.line) for i in items] == [
        ("Paper", 0, 2),
        ("ReadIssue", 1, 4),
        ("Paper", 2, 8),
    ]


# --- hostile records: skipped and listed, the rest read ----------------------------------------


def test_a_bad_element_in_a_minified_one_line_array_keeps_every_element_after_it(write: Write) -> None:
    elements = [json.dumps({"abstract": f"We propose Net{i}, a model."}) for i in range(41)]
    elements[1] = '{"abstract": "no comma" "title": 1}'
    items = list(read_json(write("a.json", "[" + ",".join(elements) + "]")))
    assert len(items) == 41
    assert isinstance(items[1], ReadIssue) and items[1].source == Source(items[1].source.path, 1, 1)
    assert [p.abstract for p in items if isinstance(p, Paper)] == [
        f"We propose Net{i}, a model." for i in range(41) if i != 1
    ]


@pytest.mark.parametrize(
    "broken, kept",
    [
        ("tru", 2),  # a broken bare value, up to the next comma
        ('{"a": "x \\" } ] y" "z"}', 2),  # brackets and an escaped quote inside a string
        ("}", 2),  # a stray closing brace
        ('{"a": [1, {"b": [2]}] oops}', 2),  # nested brackets
    ],
)
def test_minified_array_resumes_after_the_broken_element(write: Write, broken: str, kept: int) -> None:
    text = '[{"abstract": "First one."}, ' + broken + ', {"abstract": "Last one."}]'
    items = list(read_json(write("a.json", text)))
    assert [type(i).__name__ for i in items] == ["Paper", "ReadIssue", "Paper"]
    assert sum(isinstance(i, Paper) for i in items) == kept


def test_a_broken_last_element_is_listed_and_the_end_of_the_file_too(write: Write) -> None:
    items = list(read_json(write("a.json", '[{"abstract": "First one."}, {"abstract": "cut')))
    assert [type(i).__name__ for i in items] == ["Paper", "ReadIssue", "ReadIssue"]
    assert "rest of the array" in items[2].reason


def test_deep_nesting_is_a_bad_record_not_a_crash(write: Write) -> None:
    deep = '{"abstract": "Deep one.", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    lines = write("a.jsonl", jsonl({"abstract": "First one."}) + deep + "\n" + jsonl({"abstract": "Last one."}))
    array = write("a.json", '[{"abstract": "First one."},' + deep + ',{"abstract": "Last one."}]')
    pretty = write("b.json", '[\n  {"abstract": "First one."},\n  ' + deep + ',\n  {"abstract": "Last one."}\n]\n')
    for path, reader in ((lines, read_json_lines), (array, read_json), (pretty, read_json)):
        items = list(reader(path))
        assert [type(i).__name__ for i in items] == ["Paper", "ReadIssue", "Paper"], path
        assert items[1].reason == "invalid JSON: nested too deeply to read"
    single = write("c.json", deep)  # one document: not an array, not JSON Lines
    assert [i.reason for i in read_json(single)] == ["invalid JSON: nested too deeply to read"]


@pytest.mark.parametrize(
    "field, text, reason",
    [
        ("abstract", '"We propose \\ud800Net."', "lone surrogate \\ud800 in the abstract: not valid Unicode"),
        ("title", '"A \\udfff title"', "lone surrogate \\udfff in the title: not valid Unicode"),
        ("abstract", '"We pro\\u0000pose Net."', "NUL character in the abstract: binary data, not text"),
    ],
)
def test_text_no_output_can_hold_is_a_bad_record(write: Write, field: str, text: str, reason: str) -> None:
    record = '{"abstract": "Fine abstract.", ' + f'"{field}": {text}' + "}" if field != "abstract" else (
        '{"abstract": ' + text + "}")
    items = list(read_json_lines(write("a.jsonl", record + "\n" + jsonl({"abstract": "Next one."}))))
    assert [type(i).__name__ for i in items] == ["ReadIssue", "Paper"]
    assert items[0].reason == reason


def test_a_paired_surrogate_escape_is_a_character_not_a_problem(write: Write) -> None:
    paper = one(write("a.jsonl", '{"abstract": "We propose \\ud83d\\ude00Net."}\n'))
    assert paper.abstract == "We propose \U0001F600Net."
