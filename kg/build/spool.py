"""The build's working files: the spool that holds extractions until they are resolved, and
scratch files whose failed writes name the file (a full disk is reported with the name)."""

from __future__ import annotations

import errno
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from kg.types import Extraction, extraction_from_json, extraction_to_json, paper_from_dict


def _scratch(directory: Path | None, name: str, mode: str):
    """A working file: ``name`` in the staging directory (on the disk the build fills, and
    named in errors), else an anonymous temporary file."""
    if directory is None:
        return tempfile.TemporaryFile(mode, prefix=f"kg-{name}-")
    return open(directory / name, mode, encoding=None if "b" in mode else "utf-8")  # noqa: SIM115


@contextmanager
def _naming(handle):
    """Give a failed write the name of the file it was writing (write() names none)."""
    try:
        yield
    except OSError as error:
        if error.filename is None and isinstance(handle.name, str):
            raise OSError(error.errno, error.strerror, handle.name) from error
        raise


def _write_failure(error: OSError) -> str:
    """One line naming the file a build could not write, and why (disk full ...)."""
    cause: BaseException | None = error
    while cause is not None and not getattr(cause, "filename", None):  # closing a file that
        cause = cause.__context__  # failed to write fails again, without the name
    if isinstance(cause, OSError):
        error = cause
    why = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        why = "no space left on the device"
    where = error.filename or f"a temporary file in {tempfile.gettempdir()}"
    return f"cannot write {where}: {why}"


def _spool_write(spool, extraction: Extraction) -> None:
    """One JSON line per paper: the paper's fields, then its extraction (data, never pickles)."""
    line = {"paper": asdict(extraction.paper), "extraction": extraction_to_json(extraction)}
    with _naming(spool):
        spool.write(json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n")
        spool.flush()  # a full disk shows here, named, not at a later read


def _read_spool(spool, count: int) -> Iterator[Extraction]:
    for _ in range(count):
        yield spool_record(spool.readline())


def spool_record(line: bytes) -> Extraction:
    """One line of the spool read back (:mod:`kg.cluster` reads the lines it is sent)."""
    data = json.loads(line.decode("utf-8", "surrogatepass"))
    return extraction_from_json(data["extraction"], paper_from_dict(data["paper"]))
