"""The records that flow between the stages of a build.

ingest -> :class:`Paper` (or :class:`ReadIssue`)
extract -> :class:`Extraction` (entities local to one paper, offsets into its abstract)
resolve -> :class:`PaperRecord` (entities carry graph-wide ids; the ``papers.jsonl`` contract)

Records hold plain values only (strings, ints, tuples), never spaCy objects,
so they pickle across processes and serialise to JSON as they are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

EntityType = Literal["Method", "Dataset", "Model", "Metric", "Task"]
ENTITY_TYPES: tuple[EntityType, ...] = ("Method", "Dataset", "Model", "Metric", "Task")

Predicate = Literal["evaluated_on", "compared_with", "uses", "extends", "applied_to", "measured_by"]
PREDICATES: tuple[Predicate, ...] = (
    "evaluated_on",
    "compared_with",
    "uses",
    "extends",
    "applied_to",
    "measured_by",
)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: the file, its 0-based position there, and its 1-based line."""

    path: str
    index: int
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Paper:
    """One input paper. ``abstract`` is kept exactly as stored in the input."""

    id: str
    abstract: str
    source: Source
    title: str | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    url: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    code_urls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReadIssue:
    """A record a reader could not turn into a :class:`Paper`, with the reason."""

    source: Source
    reason: str

    def __str__(self) -> str:
        where = f"{self.source.path}:{self.source.line}" if self.source.line else self.source.path
        return f"{where}: record {self.source.index}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the stored abstract: ``abstract[start:end] == text``."""

    text: str
    start: int
    end: int


@dataclass(slots=True)
class Entity:
    """An entity of one paper before resolution (``key`` is its normalised name)."""

    name: str
    type: EntityType
    key: str
    mentions: list[Mention] = field(default_factory=list)
    proposed: bool = False
    aliases: list[str] = field(default_factory=list)
    catalogue_id: str | None = None


@dataclass(frozen=True, slots=True)
class Relation:
    """``subject`` and ``object`` index the paper's entity list before resolution, ids after."""

    subject: Any
    predicate: Predicate
    object: Any
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Result:
    """A numeric result as stated; entity fields are indices before resolution, ids after."""

    metric: str
    value: str
    start: int
    end: int
    subject: Any = None
    dataset: Any = None
    baseline: Any = None


@dataclass(slots=True)
class Extraction:
    """What the extractor found in one paper; entity references are list indices."""

    paper: Paper
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    code_urls: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ResolvedEntity:
    id: str
    name: str
    type: EntityType
    proposed: bool
    mentions: list[Mention]
    catalogue_id: str | None = None


@dataclass(slots=True)
class PaperRecord:
    """One line of ``papers.jsonl``: a paper with its entities under graph-wide ids."""

    paper: Paper
    entities: list[ResolvedEntity]
    relations: list[Relation]
    results: list[Result]
    code_urls: list[str]

    def to_json(self) -> dict[str, Any]:
        p = self.paper
        return {
            "id": p.id,
            "source": {"path": p.source.path, "index": p.source.index},
            "venue": p.venue,
            "year": p.year,
            "title": p.title,
            "abstract": p.abstract,
            "entities": [
                {
                    "id": e.id,
                    "name": e.name,
                    "type": e.type,
                    "proposed": e.proposed,
                    "catalogue_id": e.catalogue_id,
                    "mentions": [asdict(m) for m in e.mentions],
                }
                for e in self.entities
            ],
            "relations": [
                {
                    "subject": r.subject,
                    "predicate": r.predicate,
                    "object": r.object,
                    "evidence": {"start": r.start, "end": r.end},
                }
                for r in self.relations
            ],
            "code_urls": list(self.code_urls),
            "results": [
                {
                    "subject": r.subject,
                    "metric": r.metric,
                    "value": r.value,
                    "dataset": r.dataset,
                    "baseline": r.baseline,
                    "evidence": {"start": r.start, "end": r.end},
                }
                for r in self.results
            ],
        }
