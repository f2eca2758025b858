from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.ids import paper_id
from kg.ingest.textlist import MAX_HEADER_CHARS, parse_list_header, read_text_list
from kg.types import Paper, ReadIssue, Source

from .conftest import Write


def papers(path: Path) -> list[Paper]:
    items = list(read_text_list(path))
    assert all(isinstance(item, Paper) for item in items), items
    return items  # type: ignore[return-value]


def seed_paragraphs(path: Path) -> list[tuple[int, str]]:
    """(start line, paragraph) after the header, computed independently of the reader."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            if not current:
                start = number
            current.append(line)
        elif current:
            found.append((start, "\n".join(current)))
            current = []
    if current:
        found.append((start, "\n".join(current)))
    return found


# --- header parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ICLR 2025 Papers", ("ICLR", 2025)),
        ("ICLR 2025 论文列表", ("ICLR", 2025)),
        ("NeurIPS 2024 accepted papers", ("NeurIPS", 2024)),
        ("Proceedings of ACL 2023", ("ACL", 2023)),
        ("ACM SIGIR 2024 accepted papers", ("ACM SIGIR", 2024)),
        ("EMNLP 2023", ("EMNLP", 2023)),
        ("# CVPR 2024 Open Access Repository", ("CVPR", 2024)),
        ("Papers accepted at ICML 2024 (oral)", ("ICML", 2024)),
        ("AAAI 2022 採択論文一覧", ("AAAI", 2022)),
        ("ICML 2024 の論文一覧", ("ICML", 2024)),
        ("ICLR 2025 논문 목록", ("ICLR", 2025)),
        ("Статьи ICLR 2025", ("ICLR", 2025)),
        ("2024年 AAAI 会议论文", ("AAAI", 2024)),
        ("Liste des articles ICLR 2025", ("ICLR", 2025)),
        ("Artículos aceptados en NeurIPS 2024", ("NeurIPS", 2024)),
        ("Angenommene Beiträge Interspeech 2019", ("Interspeech", 2019)),
        ("ICLR2025论文", ("ICLR", 2025)),
        ("ACL-IJCNLP 2021 papers", ("ACL-IJCNLP", 2021)),
        ("KDD Accepted Papers", ("KDD", None)),
        ("2023 年论文列表", (None, 2023)),
        ("Accepted papers", (None, None)),
        ("论文列表", (None, None)),
        ("", (None, None)),
    ],
)
def test_parse_list_header_finds_venue_and_year(header: str, expected: tuple) -> None:
    assert parse_list_header(header) == expected


@pytest.mark.parametrize("text", ["1899 papers", "ICLR 20250", "ICLR 12025", "ICLR 2125"])
def test_parse_list_header_year_is_a_standalone_19xx_or_20xx(text: str) -> None:
    assert parse_list_header(text)[1] is None


# --- the seed files ----------------------------------------------------------------------------


def test_seeds_give_38_iclr_2025_papers_with_unique_ids(seeds_dir: Path) -> None:
    files = sorted(seeds_dir.glob("*.txt"))
    assert len(files) == 2
    found = [paper for path in files for paper in papers(path)]
    assert len(found) == 38
    assert {(p.venue, p.year) for p in found} == {("ICLR", 2025)}
    assert len({p.id for p in found}) == 38
    assert all(p.title is None and p.authors == () for p in found)


@pytest.mark.parametrize("name", ["000_86b06102d999f119.txt", "001_5480816361844c7d.txt"])
def test_seed_abstracts_equal_the_paragraphs_with_their_lines(seeds_dir: Path, name: str) -> None:
    path = seeds_dir / name
    found = papers(path)
    expected = seed_paragraphs(path)
    assert [(p.source.line, p.abstract) for p in found] == expected
    assert [p.source.index for p in found] == list(range(len(expected)))
    assert {p.source.path for p in found} == {str(path)}
    assert all(p.id == paper_id(abstract=p.abstract) for p in found)


@pytest.mark.parametrize(
    "residue", [r"4.5$\times$", "**M**otif-b**A**sed", r"\url{https://github.com/"]
)
def test_seed_latex_and_markdown_residue_is_preserved(seeds_dir: Path, residue: str) -> None:
    found = [p for path in sorted(seeds_dir.glob("*.txt")) for p in papers(path)]
    assert any(residue in p.abstract for p in found)


# --- paragraph handling ----------------------------------------------------------------------


def test_residue_is_byte_exact(write: Write) -> None:
    abstracts = [
        r"We get a 4.5$\times$ speedup over \textsc{Baseline}~\cite{x}.",
        "We propose **M**otif-b**A**sed **G**raph (MAG), see `code` and _emphasis_.",
        r"Code: \url{https://github.com/a/b}  ",
        "  Indented first line\n\tand a tab-indented second line.",
    ]
    path = write("list.md", "ICLR 2025 Papers\n\n" + "\n\n".join(abstracts) + "\n")
    assert [p.abstract for p in papers(path)] == abstracts


def test_multiline_paragraphs_keep_their_newlines_and_start_lines(write: Write) -> None:
    text = "NeurIPS 2024 accepted papers\n\n\n\nFirst line\nsecond line\n\n \t \nOnly one.\n\n\n"
    found = papers(write("x.txt", text))
    assert [(p.abstract, p.source.index, p.source.line) for p in found] == [
        ("First line\nsecond line", 0, 5),
        ("Only one.", 1, 9),
    ]
    assert {(p.venue, p.year) for p in found} == {("NeurIPS", 2024)}


def test_crlf_line_endings_stay_inside_but_not_at_the_end(write: Write) -> None:
    found = papers(write("x.txt", "ICLR 2025 Papers\r\n\r\nOne\r\ntwo\r\n\r\nThree\r\n"))
    assert [p.abstract for p in found] == ["One\r\ntwo", "Three"]
    assert [p.source.line for p in found] == [3, 6]


def test_no_trailing_newline_at_end_of_file(write: Write) -> None:
    found = papers(write("x.txt", "ICLR 2025 Papers\n\nLast abstract."))
    assert [p.abstract for p in found] == ["Last abstract."]


def test_header_directly_followed_by_text_starts_a_paragraph(write: Write) -> None:
    found = papers(write("x.txt", "ICML 2023 papers\nAbstract right away.\n\nSecond.\n"))
    assert [(p.abstract, p.source.line) for p in found] == [
        ("Abstract right away.", 2),
        ("Second.", 4),
    ]
    assert found[0].venue == "ICML"


def test_a_long_first_line_is_an_abstract_not_a_header(write: Write) -> None:
    first = "word " * (MAX_HEADER_CHARS // 4)
    found = papers(write("x.txt", f"{first}\n\nSecond abstract.\n"))
    assert [p.abstract for p in found] == [first, "Second abstract."]
    assert found[0].venue is None and found[0].year is None
    assert found[0].source.line == 1


def test_a_hard_wrapped_abstract_without_header_loses_no_line(write: Write) -> None:
    text = "We propose a method that wraps\nat a short width, like e-mail.\n\nSecond one.\n"
    found = papers(write("x.txt", text))
    assert [(p.abstract, p.source.line) for p in found] == [
        ("We propose a method that wraps\nat a short width, like e-mail.", 1),
        ("Second one.", 4),
    ]
    assert found[0].venue is None and found[0].year is None


def test_same_abstract_gets_same_id_in_other_files_and_orders(write: Write) -> None:
    a, b = "Alpha abstract about GNNs.", "Beta abstract about\nCIFAR-10."
    one = papers(write("one.txt", f"ICLR 2025 Papers\n\n{a}\n\n{b}\n"))
    two = papers(write("two.txt", f"NeurIPS 2023 list\n\n{b}\n\n\n{a}\n"))
    assert {p.abstract: p.id for p in one} == {p.abstract: p.id for p in two}
    assert one[0].id != one[1].id


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", codecs.BOM_UTF8 + b"\r\n"])
def test_empty_file_gives_one_issue(write: Write, content: bytes) -> None:
    path = write("empty.txt", content)
    assert list(read_text_list(path)) == [ReadIssue(Source(str(path), 0, None), "empty file")]


def test_header_only_file_gives_an_issue(write: Write) -> None:
    items = list(read_text_list(write("h.txt", "ICLR 2025 Papers\n\n")))
    assert len(items) == 1 and isinstance(items[0], ReadIssue)
    assert "no abstracts" in items[0].reason


def test_binary_file_gives_one_issue(write: Write) -> None:
    path = write("x.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert list(read_text_list(path)) == [ReadIssue(Source(str(path), 0, None), "binary file")]


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [
        ("utf-8", b""),
        ("utf-8", codecs.BOM_UTF8),
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
    ],
)
def test_unicode_encodings_with_and_without_bom(write: Write, encoding: str, bom: bytes) -> None:
    text = "ICLR 2025 论文列表\n\nRésumé of a naïve “model”.\n\nΣ second\none.\n"
    found = papers(write("u.txt", bom + text.encode(encoding)))
    assert [(p.abstract, p.source.line) for p in found] == [
        ("Résumé of a naïve “model”.", 3),
        ("Σ second\none.", 5),
    ]
    assert (found[0].venue, found[0].year) == ("ICLR", 2025)


def test_non_utf8_bytes_fall_back_to_cp1252(write: Write) -> None:
    raw = "ICLR 2025 Papers\n\nCaf\xe9 \u201cquoted\u201d and \u20ac5.\n".encode("cp1252")
    found = papers(write("w.txt", raw))
    assert [p.abstract for p in found] == ["Café “quoted” and €5."]


def test_undecodable_utf16_gives_an_issue_after_the_good_part(write: Write) -> None:
    good = "ICLR 2025 Papers\n\nFine abstract.\n\n".encode("utf-16-le")
    bad = b"\x00\xd8A\x00"  # an unpaired high surrogate
    path = write("bad16.txt", codecs.BOM_UTF16_LE + good + bad + "\nmore\n".encode("utf-16-le"))
    items = list(read_text_list(path))
    assert isinstance(items[0], Paper) and items[0].abstract == "Fine abstract."
    assert isinstance(items[-1], ReadIssue)
    assert "undecodable" in items[-1].reason and items[-1].source.line == 5


# --- property -------------------------------------------------------------------------------

_line = st.text(
    # NUL makes a paragraph a bad record, and \n / \r end lines: every other character may appear.
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\n\r"),
    min_size=1,
).filter(lambda line: bool(line.strip()))
_paragraph = st.lists(_line, min_size=1, max_size=4).map("\n".join)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    paragraphs=st.lists(_paragraph, max_size=6),
    gaps=st.lists(st.sampled_from(["\n\n", "\n\n\n", "\n \n", "\n\t\n\n"]), min_size=7, max_size=7),
    crlf=st.booleans(),
)
def test_written_paragraphs_come_back_unchanged(
    write: Write, paragraphs: list[str], gaps: list[str], crlf: bool
) -> None:
    body = "".join(p + gap for p, gap in zip(paragraphs, gaps, strict=False))
    text = "ICLR 2025 Papers\n\n" + body
    if crlf:
        text = text.replace("\n", "\r\n")
        paragraphs = [p.replace("\n", "\r\n") for p in paragraphs]
    items = list(read_text_list(write("prop.txt", text)))
    if not paragraphs:
        assert len(items) == 1 and isinstance(items[0], ReadIssue)
        return
    assert [item.abstract for item in items if isinstance(item, Paper)] == paragraphs
    assert [item.source.index for item in items] == list(range(len(paragraphs)))
    lines = re.split(r"\r?\n", text)
    for item in items:
        assert isinstance(item, Paper) and item.source.line is not None
        assert item.abstract.startswith(lines[item.source.line - 1])


def test_a_nul_in_one_paragraph_skips_that_paper_not_the_file(write: Write) -> None:
    paragraphs = [f"We propose Model{i}Net, a method evaluated on CIFAR-10." for i in range(100)]
    paragraphs[3] = paragraphs[3].replace("method", "met\x00hod")  # within the first 8 KiB
    path = write("list.txt", "ICLR 2024 Papers\n\n" + "\n\n".join(paragraphs) + "\n")
    items = list(read_text_list(path))
    assert len(items) == 100
    assert items[3] == ReadIssue(Source(str(path), 3, 9), "NUL character in the abstract: binary data, not text")
    assert [p.abstract for p in items if isinstance(p, Paper)] == paragraphs[:3] + paragraphs[4:]


@pytest.mark.parametrize(
    "content",
    [
        b"\x1f\x8b\x08\x00" + b"compressed" * 100,  # gzip, no NUL needed
        b"%PDF-1.7\n" + b"text-like header" * 50,
        b"PK\x03\x04" + b"x" * 100,
        "ICLR 2024\n\nWe propose X.".encode("utf-16-le"),  # UTF-16 without a BOM: half NULs
        b"ICLR 2024\n\nCaf\xe9\x00 with a NUL in bytes that are not UTF-8.",
    ],
)
def test_binary_files_are_still_told_apart(write: Write, content: bytes) -> None:
    path = write("x.txt", content)
    assert [i.reason for i in read_text_list(path)] == ["binary file"]
