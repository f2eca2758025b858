"""Decoding shared by the readers, so every format treats encodings, empty and binary files alike.

Inputs come from many tools: UTF-8 with or without a BOM, UTF-16/32 exported by
spreadsheets, cp1252 from old Windows scripts. Lines are decoded one at a time
(UTF-8 first, then cp1252, then latin-1), so a large file streams and one stray
byte does not garble the rest of the file. Line endings are kept as stored and
only ``\\n`` ends a line, so readers can hand out text exactly as in the file.
"""

from __future__ import annotations

import codecs
import functools
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from kg.types import Paper, ReadIssue, Source

__all__ = [
    "NUL_SHARE",
    "DecodeFailure",
    "Reader",
    "file_problem",
    "guarded",
    "head_text",
    "iter_lines",
    "looks_binary",
    "read_text",
]

#: What every format reader is: a path in, papers and issues out, in file order.
Reader = Callable[[Path], Iterator[Paper | ReadIssue]]

_PROBE_BYTES = 8192
_CHUNK_BYTES = 1 << 16
_SURROGATE = re.compile("[\ud800-\udfff]")
# Longest BOMs first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class DecodeFailure(ValueError):
    """Bytes that no fallback could decode (only possible in UTF-16/32 files)."""

    def __init__(self, line: int | None, detail: str) -> None:
        super().__init__(f"undecodable bytes near line {line}: {detail}")
        self.line = line
        self.detail = detail


def _bom_encoding(head: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return None


#: Starts of common binary formats: zip (docx, xlsx), gzip, bzip2, xz, 7z, PDF, PNG,
#: JPEG, GIF, SQLite, ELF.
_MAGIC = (b"PK\x03\x04", b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf", b"%PDF-", b"\x89PNG",
          b"\xff\xd8\xff", b"GIF8", b"SQLite format 3\x00", b"\x7fELF")
#: Share of NUL bytes in the first 8 KiB above which a file is binary (UTF-16 without a
#: BOM is half NULs; a stray NUL in a text is one byte in thousands).
NUL_SHARE = 0.01


def looks_binary(head: bytes) -> bool:
    r"""Whether the first bytes of a file without a UTF-16/32 BOM are binary, not text.

    Binary: a binary format's signature; or NUL bytes that are more than 1% of
    the bytes or sit in bytes that are not UTF-8. A few NULs in UTF-8 text (a
    stray byte in one record) do not make a file binary: the reader reports the
    record that holds them, and the rest of the file is read.

    >>> looks_binary(b"ICLR 2024\n\n" + b"We propose X, a model.\n\n" * 50 + b"A stray \x00 byte.")
    False
    >>> looks_binary(b"\x00\x01\x02PK\x03\x04" * 50), looks_binary(b"%PDF-1.7 ...")
    (True, True)
    """
    if head.startswith(_MAGIC):
        return True
    nuls = head.count(0)
    if not nuls:
        return False
    if nuls > len(head) * NUL_SHARE:
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return True
    return False


def file_problem(path: Path) -> str | None:
    """``"empty file"``, ``"binary file"`` or ``None`` when the file can be read as text.

    Binary: see :func:`looks_binary` (first 8 KiB, files without a UTF-16/32 BOM).
    Empty means nothing but whitespace (and a BOM).
    """
    with path.open("rb") as handle:
        chunk = handle.read(_PROBE_BYTES)
        encoding = _bom_encoding(chunk)
        if encoding is None and looks_binary(chunk):
            return "binary file"
        decoder = codecs.getincrementaldecoder(encoding or "utf-8")(errors="replace")
        while chunk:
            if decoder.decode(chunk).lstrip("\ufeff").strip():
                return None
            chunk = handle.read(_PROBE_BYTES)
    return "empty file"


def _decode_line(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def iter_lines(path: Path) -> Iterator[str]:
    """The file's lines, decoded, each with its line ending as stored (BOM removed).

    Raises :class:`DecodeFailure` at the first undecodable line of a UTF-16/32 file.
    """
    with path.open("rb") as handle:
        encoding = _bom_encoding(handle.read(4))
        handle.seek(0)
        if encoding in (None, "utf-8"):
            first = True
            for raw in handle:
                if first:
                    first = False
                    raw = raw.removeprefix(codecs.BOM_UTF8)
                yield _decode_line(raw)
            return
        yield from _wide_lines(handle, encoding)


def _wide_lines(handle: io.BufferedReader, encoding: str) -> Iterator[str]:
    """Lines of a UTF-16/32 stream; a lone surrogate or cut-off character is a DecodeFailure."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="surrogatepass")
    number = 0
    pending: list[str] = []

    def line(text: str) -> str:
        if _SURROGATE.search(text):
            raise DecodeFailure(number, "unpaired UTF-16 surrogate")
        return text

    for chunk in iter(lambda: handle.read(_CHUNK_BYTES), b""):
        text = decoder.decode(chunk)
        start = 0
        while (end := text.find("\n", start)) != -1:
            pending.append(text[start : end + 1])
            number += 1
            yield line("".join(pending))
            pending.clear()
            start = end + 1
        if start < len(text):
            pending.append(text[start:])
    number += 1
    try:
        rest = decoder.decode(b"", final=True)
    except UnicodeDecodeError as error:
        raise DecodeFailure(number, error.reason) from None
    if tail := "".join(pending) + rest:
        yield line(tail)


def read_text(path: Path) -> str:
    """The whole file decoded like :func:`iter_lines` (for formats that cannot stream)."""
    return "".join(iter_lines(path))


def head_text(path: Path, limit: int = _PROBE_BYTES) -> str:
    """Roughly the first ``limit`` characters, decoded, for sniffing the format."""
    parts: list[str] = []
    size = 0
    try:
        for line in iter_lines(path):
            parts.append(line)
            size += len(line)
            if size >= limit:
                break
    except DecodeFailure:
        pass
    return "".join(parts)[:limit]


def guarded(reader: Reader) -> Callable[[str | Path], Iterator[Paper | ReadIssue]]:
    """Wrap a format reader so empty, binary, unreadable and undecodable files become issues.

    The issue for a failure part-way through takes the next record index, so
    whatever was read before it is kept. Any other error of a reader (a record no
    reader foresaw) also ends the file with an issue, never a traceback.
    """

    @functools.wraps(reader)
    def read(path: str | Path) -> Iterator[Paper | ReadIssue]:
        path = Path(path)
        name = str(path)
        count = 0
        try:
            if problem := file_problem(path):
                yield ReadIssue(Source(name, 0, None), problem)
                return
            for item in reader(path):
                yield item
                count += 1
        except DecodeFailure as failure:
            yield ReadIssue(Source(name, count, failure.line), str(failure))
        except OSError as error:
            yield ReadIssue(
                Source(name, count, None), f"cannot read file: {error.strerror or error}"
            )
        except Exception as error:  # noqa: BLE001 - the last wall: listed in the manifest
            detail = " ".join(str(error).split())[:200]
            yield ReadIssue(
                Source(name, count, None),
                f"reading stopped here, the rest of the file is not read: {type(error).__name__}: {detail}",
            )

    return read
