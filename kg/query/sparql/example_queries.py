"""The example queries kg ships (``kg/query/examples/*.rq``), each with the question it answers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kg.query.sparql.checks import query_form

EXAMPLES_DIR = Path(__file__).parent.parent / "examples"


@dataclass(frozen=True)
class Example:
    """A shipped example query: ``kg/query/examples/<name>.rq``.

    The file starts with comment lines: the question it answers, a blank
    comment line, then what it returns and how to change it.
    """

    name: str
    question: str
    description: str
    text: str

    @property
    def form(self) -> str:
        return query_form(self.text) or ""


def _read_example(path: Path) -> Example:
    text = path.read_text(encoding="utf-8")
    comments: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comments.append(line[1:].strip())
    question = comments[0] if comments else path.stem
    description = "\n".join(comments[1:]).strip()
    return Example(path.stem, question, description, text)


def examples() -> list[Example]:
    """The shipped example queries, by name."""
    return [_read_example(path) for path in sorted(EXAMPLES_DIR.glob("*.rq"))]


def get_example(name: str) -> Example:
    """One shipped example by name (``top_benchmarks``); ``KeyError`` lists the names."""
    path = EXAMPLES_DIR / f"{name.removesuffix('.rq')}.rq"
    if not re.fullmatch(r"[a-z0-9_]+", name.removesuffix(".rq")) or not path.is_file():
        names = ", ".join(example.name for example in examples())
        raise KeyError(f"no example query {name!r}; the examples are: {names}")
    return _read_example(path)
