"""JSON Lines and JSON files of paper records (arXiv, Semantic Scholar, OpenReview dumps ...).

JSON Lines stream one line at a time, so a malformed line costs only that
record. A JSON array streams one element at a time too (each element is decoded
as soon as its text is complete), which also gives every element the line it
starts on. After a malformed element, reading goes on at the next element: the
next line that starts an object at the same indent in a pretty-printed array,
else (a minified one-line array) after the broken element's closing bracket,
found by counting brackets outside strings. A ``.json`` file that is not an
array is read as JSON Lines, or, when it is one pretty-printed document, as a
single record or a ``{"papers": [...]}`` style wrapper. Values nested deeper
than Python's decoder can go (``RecursionError``) are malformed records.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kg.ingest.fields import paper_from_record
from kg.ingest.textio import guarded, iter_lines, read_text
from kg.types import Paper, ReadIssue, Source

__all__ = ["read_json", "read_json_lines"]

_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\r\n\ufeff"
#: Keys under which API dumps wrap their list of records.
_WRAPPER_KEYS = ("papers", "data", "results", "items", "records", "entries", "hits", "notes")
_TOO_DEEP = "invalid JSON: nested too deeply to read"


def _record(value: Any, source: Source) -> Paper | ReadIssue:
    if not isinstance(value, dict):
        return ReadIssue(source, f"expected a JSON object, got {type(value).__name__}")
    return paper_from_record(value, source)


@guarded
def read_json_lines(path: Path) -> Iterator[Paper | ReadIssue]:
    """One paper per non-blank line (``Source.index``: record number, ``Source.line``: line)."""
    yield from _json_lines(path, iter_lines(path))


def _json_lines(path: Path, lines: Iterator[str], first: int = 1) -> Iterator[Paper | ReadIssue]:
    index = 0
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        source = Source(str(path), index, number)
        index += 1
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            yield ReadIssue(source, f"invalid JSON: {error.msg} (column {error.colno})")
            continue
        except RecursionError:
            yield ReadIssue(source, _TOO_DEEP)
            continue
        yield _record(value, source)


@guarded
def read_json(path: Path) -> Iterator[Paper | ReadIssue]:
    """A JSON array of records, streamed; anything else as JSON Lines or one JSON document."""
    lines = iter_lines(path)
    peeked: list[str] = []
    for line in lines:
        peeked.append(line)
        if line.strip(_WHITESPACE):
            break
    first = peeked[-1].lstrip(_WHITESPACE) if peeked else ""
    if first.startswith("["):
        yield from _json_array(path, _chain(peeked, lines))
        return
    if first and not _is_single_record(first):
        try:
            document = json.loads(read_text(path).lstrip("\ufeff"))
        except (json.JSONDecodeError, RecursionError):
            document = None
        if document is not None:
            yield from _json_document(path, document)
            return
        lines = iter_lines(path)
        peeked = []
    yield from _json_lines(path, _chain(peeked, lines))


def _chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _wrapped(document: Any) -> list[Any] | None:
    """The record list of a ``{"papers": [...]}`` style wrapper, else None."""
    if isinstance(document, dict):
        for key, value in document.items():
            if isinstance(key, str) and key.lower() in _WRAPPER_KEYS and isinstance(value, list):
                return value
    return None


def _is_single_record(line: str) -> bool:
    """Whether a first line is a whole JSON value that is not a wrapper of records."""
    try:
        value = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return False
    return _wrapped(value) is None


def _json_document(path: Path, document: Any) -> Iterator[Paper | ReadIssue]:
    records = _wrapped(document)
    if records is None:
        records = document if isinstance(document, list) else [document]
    for index, value in enumerate(records):
        yield _record(value, Source(str(path), index, None))


class _Buffer:
    """Text of a JSON array read a few lines at a time, with line numbers for positions."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.text = ""
        self.pos = 0
        self.line = 1  # line number of text[pos]
        self.eof = False

    def more(self) -> bool:
        """Read at least as much again as is buffered (so retries stay linear); False at EOF."""
        if self.eof:
            return False
        parts = [self.text[self.pos :]]
        self.pos = 0
        wanted = max(4096, len(parts[0]))
        got = 0
        for line in self.lines:
            parts.append(line)
            got += len(line)
            if got >= wanted:
                break
        else:
            self.eof = True
        self.text = "".join(parts)
        return got > 0

    def consume(self, end: int) -> None:
        self.line += self.text.count("\n", self.pos, end)
        self.pos = end

    def skip(self, chars: str) -> str:
        """Skip ``chars``; the next character, or "" at EOF."""
        while True:
            end = self.pos
            while end < len(self.text) and self.text[end] in chars:
                end += 1
            self.consume(end)
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""


def _json_array(path: Path, lines: Iterator[str]) -> Iterator[Paper | ReadIssue]:
    name = str(path)
    buffer = _Buffer(lines)
    buffer.skip(_WHITESPACE)
    buffer.consume(buffer.pos + 1)  # the "["
    index = 0
    while True:
        char = buffer.skip(_WHITESPACE + ",")
        if char in ("]", ""):
            if char == "":
                yield ReadIssue(Source(name, index, buffer.line), "JSON array is not closed")
            return
        source = Source(name, index, buffer.line)
        indent = _indent(buffer)
        index += 1
        while True:
            try:
                value, end = _DECODER.raw_decode(buffer.text, buffer.pos)
            except (json.JSONDecodeError, RecursionError) as error:
                if isinstance(error, json.JSONDecodeError) and buffer.more():
                    continue
                yield ReadIssue(source, _TOO_DEEP if isinstance(error, RecursionError) else f"invalid JSON: {error.msg}")
                if not _resync(buffer, indent):
                    yield ReadIssue(Source(name, index, buffer.line),
                                    "no further element found after a malformed one: the rest of the array is not read")
                    return
                break
            else:
                buffer.consume(end)
                yield _record(value, source)
                break


def _indent(buffer: _Buffer) -> str | None:
    """The whitespace before the element at ``pos`` on its line, if it starts the line."""
    newline = buffer.text.rfind("\n", 0, buffer.pos)
    if newline == -1:
        return None
    before = buffer.text[newline + 1 : buffer.pos]
    return before if not before.strip() else None


def _resync(buffer: _Buffer, indent: str | None) -> bool:
    """After a broken element, move to the next element; False if there is none to find.

    An element that starts its line (a pretty-printed array): the next line starting
    an object at the same indent. Otherwise (a minified array): the end of the broken
    element by bracket depth, or failing that the next line starting an object.
    """
    if indent is None and _skip_element(buffer):
        return True
    margin = re.escape(indent) if indent is not None else r"[ \t]*"
    while True:  # the whole rest of the file may be needed, a few lines at a time
        match = re.compile(rf"\n{margin}(?=\{{)").search(buffer.text, buffer.pos + 1)
        if match is not None:
            buffer.consume(match.end())
            return True
        if not buffer.more():
            return False


_STRUCTURE = re.compile(r'["{}\[\],]')
_STRING_END = re.compile(r'["\\]')


def _skip_element(buffer: _Buffer) -> bool:
    """Move past the element at ``pos``: to its closing bracket at depth 0 (counting
    brackets outside strings), or to a comma at depth 0 for a broken bare value.
    False, with nothing consumed, if the file ends first."""
    depth, i = 0, buffer.pos
    in_string = False
    while True:
        text = buffer.text
        while True:
            match = (_STRING_END if in_string else _STRUCTURE).search(text, i)
            if match is None:
                break
            char, i = match.group(), match.end()
            if in_string:
                if char == "\\":
                    i += 1  # the escaped character
                else:
                    in_string = False
            elif char == '"':
                in_string = True
            elif char in "{[":
                depth += 1
            elif char in "}]":
                if depth == 0 and char == "]":  # the array's own end: stop before it
                    buffer.consume(i - 1)
                    return True
                depth = max(depth - 1, 0)
                if depth == 0:
                    buffer.consume(i)
                    return True
            elif depth == 0 and i - 1 > buffer.pos:  # a comma after a broken bare value
                buffer.consume(i - 1)
                return True
        offset = max(i, len(text)) - buffer.pos
        if not buffer.more():  # pos is still the element's start
            return False
        i = offset
