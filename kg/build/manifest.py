"""``manifest.jsonl``: what became of every input record (built, duplicate, skipped) and of
every file not read or read in another format, kept in input order in a scratch file."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.build.report import BuildError, BuildReport, OnError
from kg.build.spool import _naming, _scratch
from kg.extract.pipeline import MAX_ABSTRACT_CHARS
from kg.types import FileNote, Paper, ReadIssue


class _Manifest:
    """Streams one row per input record, in input order, to a temporary file."""

    def __init__(self, on_error: OnError, report: BuildReport, directory: Path | None = None) -> None:
        self.on_error = on_error
        self.report = report
        self.first_seen: dict[str, str] = {}
        self.failed: dict[tuple[str, int], str] = {}  # (path, index) -> why extraction gave nothing
        self.file = _scratch(directory, "manifest-rows.jsonl", "w+")

    def accept(self, items: Iterable[Paper | ReadIssue | FileNote]) -> Iterator[Paper]:
        for item in items:
            if isinstance(item, FileNote):
                self.report.files.append(item)
                self._file_row(item)
                continue
            if isinstance(item, ReadIssue):
                if self.on_error == "fail":
                    raise BuildError(str(item))
                self.report.skipped.append(item)
                self._row(item.source, None, "skipped", item.reason)
                continue
            self.report.papers_read += 1
            if item.id in self.first_seen:
                self.report.duplicates += 1
                self._row(item.source, item.id, "duplicate", f"same id as {self.first_seen[item.id]}")
                continue
            self.first_seen[item.id] = f"{item.source.path}#{item.source.index}"
            note = None
            if len(item.abstract) > MAX_ABSTRACT_CHARS:
                note = f"abstract of {len(item.abstract)} characters: extracted from the first {MAX_ABSTRACT_CHARS}"
            self._row(item.source, item.id, "built", note)
            yield item

    def fail(self, issue: ReadIssue) -> None:
        """A paper read and accepted whose extraction failed: its row becomes ``skipped``."""
        if self.on_error == "fail":
            raise BuildError(str(issue))
        self.report.skipped.append(issue)
        self.failed[(issue.source.path, issue.source.index)] = issue.reason

    def rows(self) -> Iterator[dict]:
        self.file.seek(0)
        for line in self.file:
            row = json.loads(line)
            reason = self.failed.get((row["source"]["path"], row["source"]["index"]))
            if reason is not None and row["outcome"] == "built":
                row["outcome"], row["reason"] = "skipped", reason
            yield row

    def _file_row(self, note: FileNote) -> None:
        row = {"source": {"path": note.path, "index": None, "line": None}, "id": None,
               "outcome": note.outcome, "reason": note.reason}
        with _naming(self.file):
            self.file.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.file.flush()

    def _row(self, source, paper_id, outcome, reason) -> None:
        row = {
            "source": {"path": source.path, "index": source.index, "line": source.line},
            "id": paper_id,
            "outcome": outcome,
            "reason": reason,
        }
        with _naming(self.file):
            self.file.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.file.flush()
