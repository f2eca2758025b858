"""Field aliases shared by the record formats (JSON, JSON Lines, CSV, BibTeX).

Paper dumps name the same field many ways (``abstract``/``summary``, ``venue``/
``booktitle``, ``code``/``github`` ...). One table here keeps the formats in step:
a record is a mapping of field names to values, and :func:`paper_from_record`
turns it into a :class:`~kg.types.Paper` or says why it cannot.

Examples
--------
>>> split_authors("Ada Lovelace and Alan Turing")
('Ada Lovelace', 'Alan Turing')
>>> split_authors("Lovelace, Ada and Turing, Alan")
('Ada Lovelace', 'Alan Turing')
>>> parse_year("2024-05-01")
2024
>>> find_arxiv_id("https://arxiv.org/abs/2401.01234v2")
'2401.01234'
>>> find_doi("https://doi.org/10.18653/v1/N19-1423")
'10.18653/v1/n19-1423'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from kg.ids import normalize_arxiv_id, normalize_doi, paper_id
from kg.types import Paper, ReadIssue, Source

__all__ = [
    "ALIASES",
    "NO_ABSTRACT",
    "find_arxiv_id",
    "find_doi",
    "normalize_key",
    "paper_from_record",
    "parse_year",
    "split_authors",
    "split_urls",
    "text_problem",
]

#: Canonical field -> accepted names (after :func:`normalize_key`), most specific first.
ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "paperid"),
    "title": ("title", "paper_title"),
    "abstract": ("abstract", "summary", "abstract_text", "abstracttext", "text"),
    "authors": ("authors", "author", "author_names", "creators"),
    "year": ("year", "publication_year", "pub_year"),
    "date": ("date", "published", "publication_date", "publicationdate", "pub_date", "issued"),
    "venue": ("venue", "booktitle", "journal", "conference", "source", "container_title"),
    "url": ("url", "link", "pdf_url", "paper_url", "html_url"),
    "doi": ("doi",),
    "arxiv_id": ("arxiv_id", "arxiv", "eprint", "arxivid"),
    "code": ("code_url", "code", "code_urls", "repo", "repository", "github", "code_link"),
}

#: The reason a record without any abstract field is skipped: it names the fields kg reads.
NO_ABSTRACT = f"no abstract (no field {', '.join(ALIASES['abstract'])}; see docs/inputs.md)"

_KEY_SEPARATORS = re.compile(r"[\s\-.]+")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_BARE_ARXIV = re.compile(
    r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[a-z]{2})?/\d{7})(v\d+)?$", re.IGNORECASE
)
_URL_SPLIT = re.compile(r"[\s,;|]+")
_URLISH = re.compile(
    r"^(?:[a-z][a-z0-9+.\-]*://|www\.)\S+$|^[\w\-]+(?:\.[\w\-]+)+/\S+$", re.IGNORECASE
)
_AND = re.compile(r"\s+(?:and|&)\s+|\s*&\s*", re.IGNORECASE)
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")
_SPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=4096)
def normalize_key(key: str) -> str:
    """``"Abstract Text"`` -> ``"abstract_text"``, ``"arxivId"`` -> ``"arxivid"``."""
    return _KEY_SEPARATORS.sub("_", key.strip().lower())


def _unwrap(value: Any) -> Any:
    """OpenReview-style ``{"value": x}`` -> ``x``."""
    if isinstance(value, Mapping) and "value" in value and len(value) <= 2:
        return value["value"]
    return value


def _blank(value: Any) -> bool:
    return value is None or value == [] or (isinstance(value, str) and not value.strip())


def _lookup(fields: Mapping[str, Any], name: str) -> Any:
    """The first non-blank value among the aliases of ``name``."""
    for alias in ALIASES[name]:
        value = fields.get(alias)
        if not _blank(value):
            return value
    return None


def _text(value: Any) -> str | None:
    """A short string field, whitespace-collapsed; the first item of a list."""
    if isinstance(value, (list, tuple)):
        value = next((v for v in value if isinstance(v, (str, int)) and str(v).strip()), None)
    if isinstance(value, Mapping):
        value = value.get("name") or value.get("url") or value.get("title")
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        return None
    text = _SPACE.sub(" ", value).strip()
    return text or None


def _flip(name: str) -> str:
    """``"Turing, Alan"`` -> ``"Alan Turing"`` (BibTeX's last-first form)."""
    last, _, first = name.partition(",")
    return f"{first.strip()} {last.strip()}".strip()


def _author_name(value: Any) -> str | None:
    if isinstance(value, Mapping):
        name = value.get("name") or value.get("full_name") or value.get("fullname")
        if not name:
            given = value.get("given") or value.get("first") or value.get("first_name") or ""
            family = value.get("family") or value.get("last") or value.get("last_name") or ""
            name = f"{given} {family}"
        value = name
    return _text(value)


def split_authors(value: Any) -> tuple[str, ...]:
    """Authors from a list (of names or ``{"name": ...}``) or one string.

    A string splits on ``;``, else on `` and ``/``&`` and commas; when every
    ``and``-separated part is ``Last, First``, the parts are BibTeX names and are flipped.
    """
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        names = (_author_name(item) for item in value)
        return tuple(name for name in names if name)
    if isinstance(value, Mapping):
        name = _author_name(value)
        return (name,) if name else ()
    text = _text(value)
    if not text:
        return ()
    names = (part.strip().strip(",").strip() for part in _author_parts(text))
    return tuple(name for name in names if name and name.lower() not in {"and", "others"})


def _author_parts(text: str) -> list[str]:
    """Split an author string on ``;`` if it has one, else on ``and``/``&`` and commas (see :func:`split_authors`)."""
    if ";" in text:
        return text.split(";")
    if not _AND.search(text):
        return text.split(",")
    parts = _AND.split(text)
    if len(parts) > 1 and all(part.count(",") == 1 for part in parts):
        return [_flip(part) for part in parts]
    return [piece for part in parts for piece in part.split(",")]


def parse_year(value: Any) -> int | None:
    """An int year from ``2024``, ``"2024"``, ``"2024-05-01"`` or ``{"date-parts": [[2024]]}``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Mapping):
        parts = value.get("date-parts") or value.get("date_parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return parse_year(parts[0][0])
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value if 1000 <= value <= 2999 else None
    if isinstance(value, str):
        match = _YEAR.search(value)
        return int(match.group(1)) if match else None
    return None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def _strip_query(url: str) -> str:
    return re.split(r"[?#]", url, maxsplit=1)[0]


def find_doi(value: Any) -> str | None:
    """A normalised DOI in a ``doi`` field, a doi.org/publisher URL or an id (query strings cut)."""
    for text in _strings(value):
        if doi := normalize_doi(_strip_query(text.strip())):
            return doi.removesuffix(".pdf")
    return None


def find_arxiv_id(value: Any, *, bare: bool = True) -> str | None:
    """An arXiv id (version dropped) in a string that names arXiv, or, with ``bare``, is one.

    Covers ``arXiv:2401.01234v2``, arxiv.org abs/pdf URLs and arXiv DOIs (``10.48550/arXiv.…``).
    """
    for text in _strings(value):
        text = _strip_query(text.strip())
        lower = text.lower()
        if "arxiv" in lower:
            if arxiv := normalize_arxiv_id(text[lower.rindex("arxiv") + len("arxiv") :]):
                return arxiv
        elif bare and _BARE_ARXIV.match(text):
            return normalize_arxiv_id(text)
    return None


def split_urls(value: Any) -> tuple[str, ...]:
    """URL-like tokens of a string or list (of strings or ``{"url": ...}``), in order, once each."""
    items: Iterable[Any] = value if isinstance(value, (list, tuple)) else [value]
    found: list[str] = []
    for item in items:
        if isinstance(item, Mapping):
            item = item.get("url") or item.get("href") or item.get("link")
        if not isinstance(item, str):
            continue
        for token in _URL_SPLIT.split(item):
            token = token.strip("<>()[]{}\"'")
            if _URLISH.match(token) and token not in found:
                found.append(token)
    return tuple(found)


def _flatten(record: Mapping[str, Any]) -> dict[str, Any]:
    """Normalised keys; OpenReview ``content`` and Semantic Scholar ``externalIds`` merged in."""
    fields: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(key, str):
            fields.setdefault(normalize_key(key), _unwrap(value))
    content = fields.get("content")
    if isinstance(content, Mapping):
        for key, value in content.items():
            if isinstance(key, str):
                fields.setdefault(normalize_key(key), _unwrap(value))
    external = fields.get("externalids") or fields.get("external_ids")
    if isinstance(external, Mapping):
        for key, value in external.items():
            if isinstance(key, str):
                fields.setdefault(normalize_key(key), value)
    return fields


def text_problem(**fields: str | tuple[str, ...] | None) -> str | None:
    r"""Why a record's text cannot be kept, or None: a NUL (binary data) or a lone UTF-16
    surrogate (``"\ud800"`` in JSON: no UTF-8 file can hold it).

    >>> text_problem(abstract="fine", title="T\x00")
    'NUL character in the title: binary data, not text'
    >>> text_problem(abstract="We propose \ud800Net.")
    'lone surrogate \\ud800 in the abstract: not valid Unicode'
    """
    for name, value in fields.items():
        for text in (value,) if isinstance(value, str) else value or ():
            if match := _NOT_TEXT.search(text):
                if match.group() == "\x00":
                    return f"NUL character in the {name}: binary data, not text"
                return f"lone surrogate \\u{ord(match.group()):04x} in the {name}: not valid Unicode"
    return None


def paper_from_record(record: Mapping[str, Any], source: Source) -> Paper | ReadIssue:
    """A :class:`Paper` from one record, or a :class:`ReadIssue` when it has no usable abstract
    or holds text no output can (see :func:`text_problem`).

    The abstract is stored exactly as given; every other field is tidied.
    """
    fields = _flatten(record)
    abstract = _lookup(fields, "abstract")
    if abstract is None:
        present = [fields[alias] for alias in ALIASES["abstract"] if alias in fields]
        if not present or present[0] is None:
            return ReadIssue(source, NO_ABSTRACT)
        if present[0] == "":
            return ReadIssue(source, "empty abstract")
        return ReadIssue(source, "abstract is only whitespace")
    if not isinstance(abstract, str):
        return ReadIssue(source, f"abstract is a {type(abstract).__name__}, not a string")

    record_id = _lookup(fields, "id")
    url = _text(_lookup(fields, "url"))
    doi = find_doi(_lookup(fields, "doi")) or find_doi(record_id) or find_doi(url)
    arxiv_id = (
        find_arxiv_id(_lookup(fields, "arxiv_id"))
        or find_arxiv_id(record_id)
        or find_arxiv_id(url, bare=False)
        or find_arxiv_id(doi, bare=False)
    )
    year = parse_year(_lookup(fields, "year"))
    if year is None:
        year = parse_year(_lookup(fields, "date"))
    text = {
        "abstract": abstract,
        "title": _text(_lookup(fields, "title")),
        "authors": split_authors(_lookup(fields, "authors")),
        "venue": _text(_lookup(fields, "venue")),
        "url": url,
        "doi": doi,
        "code_urls": split_urls(_lookup(fields, "code")),
    }
    if problem := text_problem(**text):
        return ReadIssue(source, problem)
    # An arXiv DOI names the preprint: key it like the arXiv id so both spellings meet.
    return Paper(
        id=paper_id(abstract=abstract, doi=doi, arxiv_id=arxiv_id), source=source, year=year,
        arxiv_id=arxiv_id, record_id=_text(record_id), **text,
    )
