"""One entry point over all formats: files, directories and globs in, papers and issues out.

Inputs are expanded up front (so a mistyped path fails at once with a clear
error, before any work) and read lazily, one file after another, in a stable
order: the order given, directories walked in sorted order. Each file's format
comes from its extension, else from a look at its first few kilobytes.
Neither directory walks nor ``**`` in a glob descend into symlinked
directories, so a symlink loop cannot make them run forever.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from kg.ingest.bibtex import read_bibtex
from kg.ingest.csv import read_csv, sniff_delimiter
from kg.ingest.fields import ALIASES, normalize_key
from kg.ingest.jsonrecords import read_json, read_json_lines
from kg.ingest.textio import head_text
from kg.ingest.textlist import read_text_list
from kg.types import Paper, ReadIssue

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "InputError",
    "PathLike",
    "detect_format",
    "expand_inputs",
    "read_file",
    "read_papers",
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

#: File extension -> format; directories are searched for these only.
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

_FORMAT_ALIASES = {"txt": "text", "md": "text", "ndjson": "jsonl", "tsv": "csv", "bib": "bibtex"}
_GLOB_MAGIC = re.compile(r"[*?[]")
_BIBTEX_START = re.compile(r"@[A-Za-z]+\s*[{(]")


class InputError(FileNotFoundError):
    """An input path, directory or glob pattern that names no readable file."""


def _is_hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _walk(directory: Path) -> list[Path]:
    files = [
        path
        for path in directory.rglob("*")
        if path.suffix.lower() in EXTENSIONS and not _is_hidden(path, directory) and path.is_file()
    ]
    return sorted(files, key=lambda path: path.relative_to(directory).parts)


def _expand_one(item: PathLike) -> list[Path]:
    path = Path(item)
    if path.is_file():
        return [path]
    if path.is_dir():
        if found := _walk(path):
            return found
        known = ", ".join(EXTENSIONS)
        raise InputError(f"directory has no files with a known extension ({known}): {path}")
    text = os.fspath(item)
    if _GLOB_MAGIC.search(text):
        try:
            matches = _glob(text)
        except ValueError as error:  # "a/**b": ** must be a whole path component
            raise InputError(f"not a pattern kg can expand: {text} ({error})") from None
        files: list[Path] = []
        for match in matches:
            files.extend([match] if match.is_file() else _walk(match) if match.is_dir() else [])
        if not files:
            raise InputError(f"no files match the pattern: {text}")
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


def expand_inputs(inputs: PathLike | Iterable[PathLike]) -> list[Path]:
    """The files named by paths, directories (recursive, sorted, known extensions, no hidden
    files) and glob patterns, in the order given, each file once.

    Raises :class:`InputError` (a :class:`FileNotFoundError`) for an input that names no file.
    """
    items = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    seen: set[Path] = set()
    files: list[Path] = []
    for item in items:
        for path in _expand_one(item):
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                files.append(path)
    return files


def _looks_like_csv(first_line: str) -> bool:
    delimiter = sniff_delimiter(first_line)
    if delimiter not in first_line:
        return False
    columns = {normalize_key(cell.strip().strip("\"'")) for cell in first_line.split(delimiter)}
    return bool(columns & set(ALIASES["abstract"]))


def detect_format(path: PathLike) -> str:
    """The format of a file: from its extension, else sniffed from its first kilobytes.

    ``[``/``{`` -> json, ``@article{`` -> bibtex, a header row with an abstract
    column -> csv, anything else -> text.
    """
    path = Path(path)
    if fmt := EXTENSIONS.get(path.suffix.lower()):
        return fmt
    try:
        head = head_text(path, 4096)
    except OSError:
        return "text"  # the reader reports the unreadable file
    lines = [line for line in head.splitlines() if line.strip()]
    if not lines:
        return "text"
    first = lines[0].lstrip("\ufeff \t")
    if first.startswith(("[", "{")):
        return "json"
    significant = next((line for line in lines if not line.lstrip().startswith("%")), "")
    if _BIBTEX_START.match(significant.lstrip()):
        return "bibtex"
    if _looks_like_csv(first):
        return "csv"
    return "text"


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
    inputs: PathLike | Iterable[PathLike], fmt: str | None = None
) -> Iterator[Paper | ReadIssue]:
    """Stream the papers of every input, with a :class:`ReadIssue` in place of each bad record.

    ``inputs`` are files, directories or glob patterns (see :func:`expand_inputs`);
    ``fmt`` (``text``, ``jsonl``, ``json``, ``csv``, ``bibtex``) overrides detection
    for every file. Inputs and ``fmt`` are checked before this returns.
    """
    name = _check_format(fmt)
    files = expand_inputs(inputs)
    return _read_all(files, name)


def _read_all(files: list[Path], fmt: str | None) -> Iterator[Paper | ReadIssue]:
    for path in files:
        yield from read_file(path, fmt)
