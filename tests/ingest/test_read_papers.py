from __future__ import annotations

import doctest
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kg.ingest
from kg.ids import paper_id
from kg.ingest import (
    EXTENSIONS,
    InputError,
    detect_format,
    expand_inputs,
    read_file,
    read_papers,
    scan_inputs,
)
from kg.types import FileNote, Paper, ReadIssue

from .conftest import Write

TEXT_LIST = "ICLR 2025 Papers\n\nAlpha abstract.\n\nBeta abstract.\n"


def abstracts(items: object) -> list[str]:
    return [item.abstract for item in items if isinstance(item, Paper)]  # type: ignore[attr-defined]


# --- public surface --------------------------------------------------------------------------


def test_public_names_exist() -> None:
    assert set(kg.ingest.__all__) >= {
        "read_papers",
        "expand_inputs",
        "InputError",
        "parse_list_header",
    }
    for name in kg.ingest.__all__:
        assert hasattr(kg.ingest, name), name


@pytest.mark.parametrize("module", ["fields", "textlist", "csv", "bibtex"])
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"kg.ingest.{module}"))
    assert result.attempted > 0 and result.failed == 0


# --- the seeds -----------------------------------------------------------------------------


def test_seeds_directory_glob_and_files_agree(seeds_dir: Path) -> None:
    files = sorted(seeds_dir.glob("*.txt"))
    by_dir = list(read_papers(seeds_dir))
    by_glob = list(read_papers(str(seeds_dir / "*.txt")))
    by_files = list(read_papers(files))
    assert len(by_dir) == 38 and all(isinstance(p, Paper) for p in by_dir)
    assert by_dir == by_glob == by_files
    assert {(p.venue, p.year) for p in by_dir} == {("ICLR", 2025)}  # type: ignore[union-attr]
    assert len({p.id for p in by_dir}) == 38  # type: ignore[union-attr]


# --- expanding inputs -------------------------------------------------------------------------


def test_directories_are_recursive_sorted_and_skip_hidden_and_unknown(
    write: Write, tmp_path: Path
) -> None:
    for name in [
        "b.txt",
        "a.jsonl",
        "sub/c.csv",
        "sub/deeper/d.bib",
        "notes.pdf",
        "README",
        ".hidden.txt",
        ".git/e.txt",
        "sub/.cache/f.json",
        "Z.MD",
    ]:
        write(name, "x")
    found = [p.relative_to(tmp_path).as_posix() for p in expand_inputs(tmp_path)]
    assert found == ["a.jsonl", "b.txt", "sub/c.csv", "sub/deeper/d.bib"]


def test_a_directory_walk_accounts_for_every_file_it_does_not_read(write: Write, tmp_path: Path) -> None:
    for name in ["a.txt", "notes.pdf", "data.bin", "README", "LICENSE.txt", "SOURCE.md", "Z.MD", ".hidden.txt",
                 ".git/e.txt"]:
        write(name, "ICLR 2025 Papers\n\nWe propose Zorbnet.\n")
    scanned = {entry.path.relative_to(tmp_path).as_posix(): entry.ignored for entry in scan_inputs(tmp_path)}
    assert scanned.pop("a.txt") is None
    assert set(scanned) == {"notes.pdf", "data.bin", "README", "LICENSE.txt", "SOURCE.md", "Z.MD", ".hidden.txt",
                            ".git"}
    for name in ("README", "LICENSE.txt", "SOURCE.md", "Z.MD"):
        assert scanned[name].startswith("documentation or notes")
    assert scanned["data.bin"].startswith("extension .bin: not an input format")
    assert scanned[".git"] == "hidden directory: not searched"
    notes = [item for item in read_papers(tmp_path) if isinstance(item, FileNote)]
    assert {Path(n.path).name for n in notes} == {"notes.pdf", "data.bin", "README", "LICENSE.txt", "SOURCE.md",
                                                   "Z.MD", ".hidden.txt", ".git"}
    assert {n.outcome for n in notes} == {"ignored"}
    assert abstracts(read_papers(tmp_path / "SOURCE.md")) == ["We propose Zorbnet."]  # named: read


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        ('{"abstract": "One."}\n{"abstract": "Two."}\n', "jsonl"),
        ('[\n  {"abstract": "One."},\n  {"abstract": "Two."}\n]\n', "json"),
        ("@article{k, abstract={One.}}\n@article{l, abstract={Two.}}\n", "bibtex"),
        ("title,abstract\nA,One.\nB,Two.\n", "csv"),
    ],
)
def test_content_beats_a_text_extension(write: Write, content: str, fmt: str) -> None:
    path = write("records.txt", content)
    items = list(read_papers(path))
    assert abstracts(items) == ["One.", "Two."]
    assert isinstance(items[0], FileNote) and items[0].outcome == "read" and f"read as {fmt}" in items[0].reason
    assert abstracts(read_papers(path, fmt="text")) == [content.strip()]  # --format still decides


@pytest.mark.parametrize("header", ["[ICLR 2025] accepted papers", "{ICLR 2025} papers", "ICLR, 2025, papers"])
def test_text_lists_that_start_like_records_stay_text_lists(write: Write, header: str) -> None:
    path = write("list.txt", f"{header}\n\nWe propose Zorbnet.\n")
    assert detect_format(path) == "text"
    assert abstracts(read_papers(path)) == ["We propose Zorbnet."]


def test_globs_expand_in_order_and_recursively(write: Write, tmp_path: Path) -> None:
    for name in ["x/2.txt", "x/1.txt", "x/y/3.txt", "x/skip.json"]:
        write(name, "x")
    flat = expand_inputs(str(tmp_path / "x" / "*.txt"))
    deep = expand_inputs(str(tmp_path / "x" / "**" / "*.txt"))
    assert [p.name for p in flat] == ["1.txt", "2.txt"]
    assert sorted(p.name for p in deep) == ["1.txt", "2.txt", "3.txt"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_globs_and_walks_do_not_follow_symlink_loops(write: Write, tmp_path: Path) -> None:
    write("dir/sub/a.txt", "x")
    write("dir/.hidden/b.txt", "x")
    os.symlink("..", tmp_path / "dir" / "sub" / "up")  # dir/sub/up/sub/up/... forever
    os.symlink("../..", tmp_path / "dir" / "sub" / "up2")
    script = (
        "import sys; from kg.ingest import expand_inputs; "
        "print([str(p) for p in expand_inputs(sys.argv[1])]); print([str(p) for p in expand_inputs(sys.argv[2])])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "dir" / "**" / "*.txt"), str(tmp_path / "dir")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str([str(tmp_path / "dir" / "sub" / "a.txt")])] * 2
    assert expand_inputs(str(tmp_path / "dir" / ".hidden" / "*.txt")) == [tmp_path / "dir" / ".hidden" / "b.txt"]


def test_a_pattern_glob_cannot_read_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a pattern"):
        expand_inputs(str(tmp_path / "a" / "**b" / "*.txt"))


def test_inputs_keep_given_order_and_each_file_once(write: Write, tmp_path: Path) -> None:
    b, a = write("b.txt", "x"), write("a.txt", "x")
    assert expand_inputs([b, str(a), tmp_path, b]) == [b, a]
    assert expand_inputs(b) == [b]


def test_explicit_files_of_any_extension_are_kept(write: Write) -> None:
    path = write("abstracts.dat", TEXT_LIST)
    assert expand_inputs([path]) == [path]
    assert abstracts(read_papers(path)) == ["Alpha abstract.", "Beta abstract."]


@pytest.mark.parametrize("bad", ["missing.txt", "nothing-*.json", "empty_dir"])
def test_inputs_that_match_nothing_raise(tmp_path: Path, bad: str) -> None:
    (tmp_path / "empty_dir").mkdir()
    (tmp_path / "empty_dir" / "ignored.pdf").write_bytes(b"%PDF")
    target = str(tmp_path / bad)
    with pytest.raises(InputError, match=r"empty_dir|missing|nothing"):
        expand_inputs([target])
    with pytest.raises(FileNotFoundError):
        read_papers([target])  # raised on the call, before iterating


def test_unknown_format_raises(write: Write) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        read_papers(write("a.txt", TEXT_LIST), fmt="xml")


# --- formats -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("suffix", "fmt"), sorted(EXTENSIONS.items()))
def test_format_from_extension(write: Write, suffix: str, fmt: str) -> None:
    assert detect_format(write(f"f{suffix}", "whatever")) == fmt


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        (TEXT_LIST, "text"),
        ('{"abstract": "A."}\n{"abstract": "B."}\n', "jsonl"),
        ('\ufeff  [{"abstract": "A."}]', "json"),
        ("% comment\n\n@article{k, abstract={A.}}\n", "bibtex"),
        ("title,abstract\nT,A.\n", "csv"),
        ("Title\tAbstract Text\nT\tA.\n", "csv"),
        ("Hello, world, this is prose.\n\nMore.\n", "text"),
        ("", "text"),
    ],
)
def test_format_sniffed_without_extension(write: Write, content: str, fmt: str) -> None:
    assert detect_format(write("noext", content)) == fmt


def test_sniffed_formats_are_read(write: Write) -> None:
    files = [
        write("one", TEXT_LIST),
        write("two", '{"abstract": "Gamma."}\n'),
        write("three", "@misc{k, abstract={Delta.}}\n"),
        write("four", "abstract;year\nEpsilon.;2020\n"),
    ]
    assert abstracts(read_papers(files)) == [
        "Alpha abstract.",
        "Beta abstract.",
        "Gamma.",
        "Delta.",
        "Epsilon.",
    ]


@pytest.mark.parametrize("fmt", ["jsonl", "ndjson"])
def test_format_override(write: Write, fmt: str) -> None:
    path = write("records.dat", 'ICLR 2025\n\n{"abstract": "One."}\n{"abstract": "Two."}\n')
    assert abstracts(read_papers(path)) == ['{"abstract": "One."}\n{"abstract": "Two."}']
    assert abstracts(read_papers(path, fmt=fmt))[-2:] == ["One.", "Two."]
    assert abstracts(read_file(path, fmt=fmt)) == ["One.", "Two."]


def test_same_paper_gets_same_id_across_formats(write: Write) -> None:
    abstract = "Shared abstract about ImageNet."
    items = list(
        read_papers(
            [
                write("a.txt", f"ICLR 2025 Papers\n\n{abstract}\n"),
                write("b.jsonl", json.dumps({"abstract": abstract}) + "\n"),
                write("c.csv", f"abstract\n{abstract}\n"),
                write("d.bib", f"@misc{{k, abstract={{{abstract}}}}}\n"),
                write("e.json", json.dumps([{"summary": abstract, "doi": "10.5555/Shared"}])),
            ]
        )
    )
    ids = [item.id for item in items if isinstance(item, Paper)]
    assert ids == [paper_id(abstract=abstract)] * 4 + ["doi:10.5555/shared"]


# --- bad input does not stop a run -------------------------------------------------------------


def test_bad_files_give_issues_and_reading_goes_on(write: Write) -> None:
    files = [
        write("a.bin.txt", b"\x00\x01\x02binary"),
        write("b.txt", ""),
        write("c.jsonl", '{"abstract": "Kept."}\nnot json\n'),
        write("d.txt", TEXT_LIST),
    ]
    items = list(read_papers(files))
    summary = [
        (
            Path(i.source.path).name,
            i.reason if isinstance(i, ReadIssue) else i.abstract,
            i.source.line,
        )
        for i in items
    ]
    assert summary == [
        ("a.bin.txt", "binary file", None),
        ("b.txt", "empty file", None),
        ("c.jsonl", "Kept.", 1),
        ("c.jsonl", summary[3][1], 2),
        ("d.txt", "Alpha abstract.", 3),
        ("d.txt", "Beta abstract.", 5),
    ]
    assert isinstance(items[3], ReadIssue) and items[3].reason.startswith("invalid JSON")


def test_reading_is_lazy_and_a_vanished_file_is_an_issue(write: Write) -> None:
    first, second = write("1.txt", TEXT_LIST), write("2.txt", TEXT_LIST)
    stream = read_papers([first, second])
    assert isinstance(next(stream), Paper)
    os.remove(second)  # not opened yet: reading is lazy
    rest = list(stream)
    assert isinstance(rest[0], Paper)
    assert isinstance(rest[1], ReadIssue) and rest[1].reason.startswith("cannot read file")


def test_docs_inputs_lists_every_field_name_kg_reads() -> None:
    """docs/inputs.md is where users find the field names: it names every alias of
    kg.ingest.fields.ALIASES and every documentation rule of the directory walk."""
    from kg.ingest.fields import ALIASES
    from kg.ingest.read import DOC_STEMS, DOC_SUFFIXES

    text = (Path(__file__).resolve().parents[2] / "docs" / "inputs.md").read_text("utf-8")
    for names in ALIASES.values():
        for name in names:
            assert f"`{name}`" in text, name
    for suffix in DOC_SUFFIXES:
        assert f"`*{suffix}`" in text, suffix
    for stem in DOC_STEMS:
        assert f"`{stem.upper()}*`" in text, stem
    for suffix in EXTENSIONS:
        assert f"`{suffix}`" in text, suffix
