"""The records that flow between the stages of a build.

ingest -> :class:`Paper` (or :class:`ReadIssue`)
extract -> :class:`Extraction` (entities local to one paper, offsets into its abstract)
resolve -> :class:`PaperRecord` (entities carry graph-wide ids; the ``papers.jsonl`` contract)

Records hold plain values only (strings, ints, tuples), never spaCy objects,
so they pickle across processes and serialise to JSON as they are. Stored
records (the extraction cache, the build's spool) are JSON, read back by
:func:`extraction_from_json`, which checks every field: data, never code.
Entity types and relation predicates are the graph's (:mod:`kg.schema`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from kg.schema import ENTITY_LABELS as ENTITY_TYPES
from kg.schema import PREDICATES, Predicate
from kg.schema import EntityLabel as EntityType


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
    record_id: str | None = None  # the id the input record gives itself (``openreview:CCVsGbhFdj``)


@dataclass(frozen=True, slots=True)
class ReadIssue:
    """A record a reader could not turn into a :class:`Paper`, with the reason."""

    source: Source
    reason: str

    def __str__(self) -> str:
        where = f"{self.source.path}:{self.source.line}" if self.source.line else self.source.path
        return f"{where}: record {self.source.index}: {self.reason}"


@dataclass(frozen=True, slots=True)
class FileNote:
    """What became of a whole input file, where its records do not say it: ``ignored`` (a file
    found in an input directory that kg does not read, and why) or ``read`` with a note (read
    in the format its content shows, not the one its extension names)."""

    path: str
    outcome: Literal["ignored", "read"]
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.outcome}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the stored abstract, ``abstract[start:end] == text``; or, when ``field`` is
    ``"title"``, of the stored title (a name only the title states)."""

    text: str
    start: int
    end: int
    field: Literal["abstract", "title"] = "abstract"


def in_abstract(mentions: list[Mention]) -> list[Mention]:
    """The mentions that are spans of the abstract (the graph's evidence offsets point there)."""
    return [m for m in mentions if m.field == "abstract"]


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
    """A numeric result as stated, a leaderboard entry: entity fields are indices into the paper's
    entities before resolution, ids after; a field the text does not state is ``None``.

    ``value`` is the value as stated (cleaned), ``number`` the score it states (none for a change
    or a range), ``delta`` the change it states, ``unit`` its unit; ``metric`` names what it
    measures (the Metric entity ``metric_entity`` when one is named); ``direction`` is ``higher``
    or ``lower`` (which is better); ``setting`` what the sentence says of the conditions
    (``zero-shot``, ``7B``). ``start``/``end`` locate the value, ``sentence_start``/``sentence_end``
    the sentence stating it (offsets into the abstract).
    """

    metric: str | None
    value: str
    start: int
    end: int
    subject: Any = None
    dataset: Any = None
    baseline: Any = None
    task: Any = None
    metric_entity: Any = None
    number: float | None = None
    unit: str | None = None
    delta: str | None = None
    direction: str | None = None
    setting: str | None = None
    sentence_start: int | None = None
    sentence_end: int | None = None


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
    generic: bool = False


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
            "source": {"path": p.source.path, "index": p.source.index, "id": p.record_id},
            "venue": p.venue,
            "year": p.year,
            "title": p.title,
            "authors": list(p.authors),
            "url": p.url,
            "doi": p.doi,
            "arxiv_id": p.arxiv_id,
            "abstract": p.abstract,
            "entities": [
                {
                    "id": e.id,
                    "name": e.name,
                    "type": e.type,
                    "proposed": e.proposed,
                    "catalogue_id": e.catalogue_id,
                    "generic": e.generic,
                    "mentions": [mention_json(m) for m in e.mentions],
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
            "results": [result_to_json(r) for r in self.results],
        }


def mention_json(m: Mention) -> dict[str, Any]:
    """One mention as ``papers.jsonl`` states it: ``field`` only for a mention in the title."""
    out: dict[str, Any] = {"text": m.text, "start": m.start, "end": m.end}
    if m.field != "abstract":
        out["field"] = m.field
    return out


def result_to_json(r: Result) -> dict[str, Any]:
    """One result as ``papers.jsonl`` states it (docs/papers-jsonl.md)."""
    evidence = {"start": r.start, "end": r.end}
    if r.sentence_start is not None:
        evidence.update(sentence_start=r.sentence_start, sentence_end=r.sentence_end)
    return {
        "subject": r.subject,
        "metric": r.metric,
        "metric_entity": r.metric_entity,
        "value": r.value,
        "number": r.number,
        "unit": r.unit,
        "delta": r.delta,
        "direction": r.direction,
        "dataset": r.dataset,
        "task": r.task,
        "baseline": r.baseline,
        "setting": r.setting,
        "evidence": evidence,
    }


EXTRACTION_FORMAT = 3
"""Version of the JSON shape of :func:`extraction_to_json`; stored records of another version are not read."""


def extraction_to_json(extraction: Extraction) -> dict[str, Any]:
    """An :class:`Extraction` as plain JSON data, without its paper (the input holds that).

    >>> record = Extraction(Paper("p", "A.", Source("f", 0)), [Entity("X", "Method", "x", [Mention("X", 0, 1)])])
    >>> extraction_from_json(extraction_to_json(record), record.paper) == record
    True
    """
    return {
        "entities": [asdict(e) for e in extraction.entities],
        "relations": [asdict(r) for r in extraction.relations],
        "results": [asdict(r) for r in extraction.results],
        "code_urls": list(extraction.code_urls),
    }


def paper_from_dict(data: dict[str, Any]) -> Paper:
    """The inverse of ``dataclasses.asdict`` on a :class:`Paper` (tuples and the source restored)."""
    return Paper(**{**data, "source": Source(**data["source"]), "authors": tuple(data["authors"]),
                    "code_urls": tuple(data["code_urls"])})


def extraction_from_json(data: Any, paper: Paper) -> Extraction:
    """Read back :func:`extraction_to_json`; ``ValueError`` names the first field that is wrong."""
    if not isinstance(data, dict):
        raise ValueError("an extraction record is a JSON object")
    entities = [_entity(e) for e in _list(data, "entities")]
    relations = [_record(Relation, r, _RELATION_TYPES) for r in _list(data, "relations")]
    for relation in relations:
        if relation.predicate not in PREDICATES:
            raise ValueError(f"unknown predicate {relation.predicate!r}")
    results = [_record(Result, r, _RESULT_TYPES) for r in _list(data, "results")]
    urls = _list(data, "code_urls")
    if not all(isinstance(u, str) for u in urls):
        raise ValueError("code_urls holds strings")
    return Extraction(paper, entities, relations, results, urls)


_STR, _INT, _OPT_STR, _REF = (str,), (int,), (str, type(None)), (int, str, type(None))
_ENTITY_TYPES = {"name": _STR, "type": _STR, "key": _STR, "mentions": (list,), "proposed": (bool,),
                 "aliases": (list,), "catalogue_id": _OPT_STR}
_MENTION_TYPES = {"text": _STR, "start": _INT, "end": _INT, "field": _STR}
#: Where a mention's offsets point: the abstract, or the title.
MENTION_FIELDS = ("abstract", "title")
_RELATION_TYPES = {"subject": (int, str), "predicate": _STR, "object": (int, str), "start": _INT, "end": _INT}
_OPT_INT, _OPT_NUMBER = (int, type(None)), (int, float, type(None))
_RESULT_TYPES = {"metric": _OPT_STR, "value": _STR, "start": _INT, "end": _INT,
                 "subject": _REF, "dataset": _REF, "baseline": _REF, "task": _REF, "metric_entity": _REF,
                 "number": _OPT_NUMBER, "unit": _OPT_STR, "delta": _OPT_STR, "direction": _OPT_STR,
                 "setting": _OPT_STR, "sentence_start": _OPT_INT, "sentence_end": _OPT_INT}


def _list(data: dict, key: str) -> list:
    value = data.get(key)
    if not isinstance(value, list):
        raise ValueError(f"{key!r} is a list")
    return value


def _record(cls, data: Any, types: dict[str, tuple[type, ...]]):
    names = [f.name for f in fields(cls)]
    if not isinstance(data, dict) or set(data) != set(names):
        raise ValueError(f"a {cls.__name__} has the fields {', '.join(names)}")
    for name in names:
        if not isinstance(data[name], types.get(name, (object,))) or (
            isinstance(data[name], bool) and bool not in types.get(name, ())
        ):
            raise ValueError(f"{cls.__name__}.{name} has the wrong type")
    return cls(**data)


def _entity(data: Any) -> Entity:
    entity = _record(Entity, data, _ENTITY_TYPES)
    if entity.type not in ENTITY_TYPES:
        raise ValueError(f"unknown entity type {entity.type!r}")
    if not all(isinstance(a, str) for a in entity.aliases):
        raise ValueError("Entity.aliases holds strings")
    entity.mentions = [_record(Mention, m, _MENTION_TYPES) for m in entity.mentions]
    if any(m.field not in MENTION_FIELDS for m in entity.mentions):
        raise ValueError(f"Mention.field is one of {', '.join(MENTION_FIELDS)}")
    return entity
