"""One entry point over all formats: files, directories and globs in, papers and issues out.

Inputs are expanded up front (so a mistyped path fails at once with a clear
error, before any work) and read lazily, one file after another, in a stable
order: the order given, directories walked in sorted order. Each file's format
comes from its extension, else from a look at its first few kilobytes; content
beats extension when they disagree: JSON Lines, a JSON array, BibTeX or a CSV
table with an abstract column in a ``.txt`` file are read as what they are, with
a note (a text list would take any file as paragraphs of text).
Neither directory walks nor ``**`` in a glob descend into symlinked
directories, so a symlink loop cannot make them run forever.

A directory walk accounts for every file it finds: files with a known extension
are read; documentation and notes (``*.md``, ``README*``, ``LICENSE*`` ...) and
files with other extensions are ignored, each with its reason (a
:class:`~kg.types.FileNote`), and so are hidden files and directories (one note
for a hidden directory, which is not searched). A file named as an input is
always read, whatever its name.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.ingest.bibtex import read_bibtex
from kg.ingest.csv import read_csv, sniff_delimiter
from kg.ingest.fields import ALIASES, normalize_key
from kg.ingest.jsonrecords import read_json, read_json_lines
from kg.ingest.textio import head_text
from kg.ingest.textlist import read_text_list
from kg.types import FileNote, Paper, ReadIssue

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "InputError",
    "InputFile",
    "PathLike",
    "content_format",
    "detect_format",
    "expand_inputs",
    "read_file",
    "read_papers",
    "scan_inputs",
]

PathLike = str | os.PathLike[str]

#: Format name -> reader. Every reader takes a path and yields papers and issues in file order.
FORMATS: dict[str, Callable[[str | Path], Iterator[Paper | ReadIssue]]] = {
    "text": read_text_list,
    "jsonl": read_json_lines,
    "json": read_json,
    "csv": read_csv,
    "bibtex": read_bibtex,
}

#: File extension -> format; directory walks read files with these only.
EXTENSIONS: dict[str, str] = {
    ".txt": "text",
    ".text": "text",
    ".md": "text",
    ".markdown": "text",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "csv",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
}

#: Documentation and notes, never abstracts: a directory walk ignores them (by lower-case name).
DOC_SUFFIXES = (".md", ".markdown", ".rst")
DOC_STEMS = ("readme", "license", "licence", "notice", "copying", "changelog", "authors", "citation")
FORMAT_NAMES = {"text": "an abstract list", "jsonl": "JSON Lines", "json": "JSON", "csv": "a CSV table",
                "bibtex": "BibTeX"}

_FORMAT_ALIASES = {"txt": "text", "md": "text", "ndjson": "jsonl", "tsv": "csv", "bib": "bibtex"}
_GLOB_MAGIC = re.compile(r"[*?[]")
_BIBTEX_START = re.compile(r"@[A-Za-z]+\s*[{(]")


class InputError(FileNotFoundError):
    """An input path, directory or glob pattern that names no readable file."""


@dataclass(frozen=True)
class InputFile:
    """A file an input names or a directory holds: read, or ``ignored`` with the reason."""

    path: Path
    ignored: str | None = None


def _ignored_because(path: Path) -> str | None:
    """Why a directory walk does not read ``path``, or None when it does."""
    name = path.name.lower()
    if path.suffix.lower() in DOC_SUFFIXES or name.split(".")[0] in DOC_STEMS:
        return ("documentation or notes (*.md, README*, LICENSE* ...), not abstracts: ignored by rule; "
                "name the file itself as an input to read it")
    if path.suffix.lower() not in EXTENSIONS:
        suffix = f"extension {path.suffix}" if path.suffix else "no extension"
        return (f"{suffix}: not an input format kg reads from a directory ({', '.join(EXTENSIONS)}); "
                "name the file itself as an input (with --format if needed) to read it")
    return None


def _walk(directory: Path) -> list[InputFile]:
    """Every entry under ``directory``, sorted; hidden directories as one entry, not searched."""
    found: list[InputFile] = []
    for root, dirs, files in os.walk(directory):  # never follows symlinked directories
        base = Path(root)
        for name in dirs:
            if name.startswith("."):
                found.append(InputFile(base / name, "hidden directory: not searched"))
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        for name in files:
            path = base / name
            if name.startswith("."):
                found.append(InputFile(path, "hidden file: ignored"))
            elif path.is_file():
                found.append(InputFile(path, _ignored_because(path)))
    return sorted(found, key=lambda entry: entry.path.relative_to(directory).parts)


def _expand_one(item: PathLike) -> list[InputFile]:
    path = Path(item)
    if path.is_file():
        return [InputFile(path)]
    if path.is_dir():
        found = _walk(path)
        if any(entry.ignored is None for entry in found):
            return found
        raise InputError(
            f"directory has no files kg reads ({len(found)} ignored; readable extensions: "
            f"{', '.join(EXTENSIONS)}): {path}; name files of other extensions as inputs to read them"
        )
    text = os.fspath(item)
    if _GLOB_MAGIC.search(text):
        try:
            matches = _glob(text)
        except ValueError as error:  # "a/**b": ** must be a whole path component
            raise InputError(f"not a pattern kg can expand: {text} ({error})") from None
        files: list[InputFile] = []
        for match in matches:
            files.extend([InputFile(match)] if match.is_file() else _walk(match) if match.is_dir() else [])
        if not any(entry.ignored is None for entry in files):
            raise InputError(f"no files kg reads match the pattern: {text}")
        return files
    raise InputError(f"no such file or directory: {text}")


def _glob(pattern: str) -> list[Path]:
    """What ``glob.glob(pattern, recursive=True)`` matches, sorted, but with ``**`` never
    following a symlinked directory (``glob.glob`` follows them, into loops, forever).

    Names starting with a dot match only where the pattern spells the dot, as in glob.
    """
    parts = Path(pattern).parts
    first = next(i for i, part in enumerate(parts) if _GLOB_MAGIC.search(part))
    root = Path(*parts[:first]) if first else Path()
    dotted = {part for part in parts[first:] if part.startswith(".")}
    matches = [
        path for path in root.glob(str(Path(*parts[first:])))
        if not any(p.startswith(".") and p not in dotted for p in path.relative_to(root).parts)
    ]
    return sorted(matches, key=str)


def scan_inputs(inputs: PathLike | Iterable[PathLike]) -> list[InputFile]:
    """Every file named by paths, directories (recursive, sorted) and glob patterns, in the
    order given, each once: the ones to read, and the ones a walk ignores with the reason.

    Raises :class:`InputError` (a :class:`FileNotFoundError`) for an input that names no file
    to read.
    """
    items = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    seen: set[Path] = set()
    files: list[InputFile] = []
    for item in items:
        for entry in _expand_one(item):
            key = entry.path.resolve()
            if key not in seen:
                seen.add(key)
                files.append(entry)
    return files


def expand_inputs(inputs: PathLike | Iterable[PathLike]) -> list[Path]:
    """The files :func:`scan_inputs` reads (directories: known extensions, no documentation,
    no hidden files)."""
    return [entry.path for entry in scan_inputs(inputs) if entry.ignored is None]


def _looks_like_csv(first_line: str) -> bool:
    delimiter = sniff_delimiter(first_line)
    if delimiter not in first_line:
        return False
    columns = {normalize_key(cell.strip().strip("\"'")) for cell in first_line.split(delimiter)}
    return bool(columns & set(ALIASES["abstract"]))


def content_format(path: PathLike) -> str | None:
    """The record format a file's first kilobytes show, or None (plain text, or unreadable).

    A JSON object on the first line -> ``jsonl``; ``[`` then ``{``, or a lone ``{`` or
    ``[`` -> ``json``; ``@article{`` -> ``bibtex``; a header row with an abstract column
    -> ``csv``.
    """
    try:
        head = head_text(Path(path), 4096)
    except OSError:
        return None  # the reader reports the unreadable file
    lines = [line for line in head.splitlines() if line.strip()]
    if not lines:
        return None
    first = lines[0].strip("\ufeff \t\r")
    if first.startswith("{"):
        try:
            return "jsonl" if isinstance(json.loads(first), dict) else None
        except ValueError:
            return "json" if first == "{" else None
    if first.startswith("["):
        after = "".join(lines)[("".join(lines)).index("[") + 1 :].lstrip()
        return "json" if not after or after.startswith(("{", "]")) else None
    significant = next((line for line in lines if not line.lstrip().startswith("%")), "")
    if _BIBTEX_START.match(significant.lstrip()):
        return "bibtex"
    if _looks_like_csv(first):
        return "csv"
    return None


def detect_format(path: PathLike) -> str:
    """The format of a file: what its content shows when that is a record format and the
    extension names none or a text list, else the extension's, else ``text``.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
    ...     _ = handle.write('{"abstract": "We propose X."}\\n')
    >>> detect_format(handle.name)
    'jsonl'
    >>> os.remove(handle.name)
    """
    by_extension = EXTENSIONS.get(Path(path).suffix.lower())
    if by_extension not in (None, "text"):
        return by_extension
    return content_format(path) or "text"


def _check_format(fmt: str | None) -> str | None:
    if fmt is None:
        return None
    name = _FORMAT_ALIASES.get(fmt.lower(), fmt.lower())
    if name not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return name


def read_file(path: PathLike, fmt: str | None = None) -> Iterator[Paper | ReadIssue]:
    """Papers and issues of one file, in file order, in ``fmt`` or the detected format."""
    name = _check_format(fmt) or detect_format(path)
    return FORMATS[name](Path(path))


def read_papers(
    inputs: PathLike | Iterable[PathLike] | list[InputFile], fmt: str | None = None
) -> Iterator[Paper | ReadIssue | FileNote]:
    """Stream the papers of every input, with a :class:`ReadIssue` in place of each bad record
    and a :class:`FileNote` for each file a directory walk ignores or a file read in the format
    its content shows rather than its extension's.

    ``inputs`` are files, directories or glob patterns (see :func:`scan_inputs`), or what
    :func:`scan_inputs` returned; ``fmt`` (``text``, ``jsonl``, ``json``, ``csv``,
    ``bibtex``) overrides detection for every file. Inputs and ``fmt`` are checked before
    this returns.
    """
    name = _check_format(fmt)
    items = list(inputs) if isinstance(inputs, list) else None
    if items and all(isinstance(item, InputFile) for item in items):
        files = items
    else:
        files = scan_inputs(inputs)  # type: ignore[arg-type]
    return _read_all(files, name)


def _read_all(files: list[InputFile], fmt: str | None) -> Iterator[Paper | ReadIssue | FileNote]:
    for entry in files:
        if entry.ignored is not None:
            yield FileNote(str(entry.path), "ignored", entry.ignored)
            continue
        chosen = fmt or detect_format(entry.path)
        by_extension = EXTENSIONS.get(entry.path.suffix.lower())
        if fmt is None and by_extension and chosen != by_extension:
            yield FileNote(str(entry.path), "read", (
                f"{FORMAT_NAMES[chosen]} in a {entry.path.suffix} file: read as {chosen} "
                f"(--format {by_extension} reads it as {FORMAT_NAMES[by_extension]})"))
        yield from FORMATS[chosen](entry.path)
