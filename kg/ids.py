"""Stable identifiers: the same input gives the same ids in every run and input order.

Examples
--------
>>> name_key("CIFAR10") == name_key("CIFAR-10") == "cifar-10"
True
>>> name_key("Graph Neural Networks")
'graph-neural-network'
>>> paper_id(abstract="Some  text.", doi="10.1000/XYZ")
'doi:10.1000/xyz'
>>> paper_id(abstract="x", doi="10.48550/arXiv.2401.01234") == paper_id(abstract="y", arxiv_id="2401.01234v2")
True
>>> paper_id(abstract="Some  text.") == paper_id(abstract="Some text.")
True
>>> len(paper_id(abstract="x", doi="10.1000/" + "x" * 5000))
233
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

__all__ = [
    "MAX_ID_CHARS",
    "bounded_id",
    "name_key",
    "singular_name",
    "entity_id",
    "paper_id",
    "venue_id",
    "code_id",
    "normalize_doi",
    "normalize_arxiv_id",
]

_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)")
_NON_ALNUM = re.compile(r"[\W_]+")
_TRAILING_PLUS = re.compile(r"(?<=\w)\++(?=[\s\-]|$)")
_PLURAL_KEEP = ("ss", "us", "is", "as", "ys", "os")
_IRREGULAR = {"series": "series", "species": "species", "data": "data", "indices": "index", "news": "news"}
#: Fields named by a word in -ics are not plurals (``inverse graphics``); ``metrics`` is.
_NOT_PLURAL = frozenset(
    "graphics physics dynamics statistics robotics mathematics linguistics analytics semantics "
    "economics genomics proteomics informatics mechanics optics kinematics ethics electronics "
    "acoustics logistics phonetics pragmatics forensics photonics thermodynamics "
    "biomechanics hydrodynamics aerodynamics econometrics bioinformatics".split()
)
_DOI = re.compile(r"10\.\d{4,9}/[^\s?#]+", re.IGNORECASE)
_ARXIV = re.compile(
    r"(?:^[\s:/.]*|arxiv[:/.]\s*|abs/|pdf/)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?(?:\.pdf)?$",
    re.IGNORECASE,
)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)

#: Longest id kept as it is. Longer ones (a 5,000-character DOI, a venue that is a
#: paragraph) are cut and end in a digest of the whole: graph stores index their keys
#: up to a few KB (FalkorDB lost the edges of 4,096-character ids, MERGE duplicated them).
MAX_ID_CHARS = 256
_KEPT_CHARS = 200


def bounded_id(text: str) -> str:
    """``text`` if it has at most :data:`MAX_ID_CHARS` characters, else its first 200, ``~``
    and 32 hex digits of its SHA-256: still stable, still distinct, at most 233 characters."""
    if len(text) <= MAX_ID_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{text[:_KEPT_CHARS]}~{digest}"


@lru_cache(maxsize=1)
def _field_plurals() -> dict[str, str]:
    """Plural -> singular as the field writes them (``kg/extract/lexicons/plurals.tsv``, built by
    ``kg.train.terms`` from abstracts): ``processes`` -> ``process``, ``nuscenes`` stays."""
    path = Path(__file__).parent / "extract" / "lexicons" / "plurals.tsv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as handle:
        return dict(line.rstrip("\n").split("\t") for line in handle if "\t" in line)


def _singular(word: str) -> str:
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower in _NOT_PLURAL:
        return word
    known = _field_plurals().get(lower)
    if known is not None and len(known) >= 4 and known != lower and lower.startswith(known):
        return word[: len(known)]  # the field writes ``ratio``, ``ResNet``, ``U-Net`` for these
    if len(word) >= 4 and word[-1] == "s" and word[-2].isupper():
        return word[:-1]  # an acronym's plural: TPUs, ViTs, LoRAs
    if len(word) < 4 or not word.endswith("s") or lower.endswith(_PLURAL_KEEP):
        return word
    stem, dash, last = word.rpartition("-")
    if last[:-1].isupper() and len(last) > 2:
        return word[:-1]  # LLMs, GANs, meta-SAEs
    if stem and last.islower():
        return stem + dash + _singular(last) if len(last) >= 4 else word  # mini-batches
    if any(c.isupper() for c in word[1:]):
        return word  # a name written in mixed case: nuScenes
    return _spelled_singular(word, lower)


def _spelled_singular(word: str, lower: str) -> str:
    """A plural word in lower or title case: the field's own singular, else the English spelling rules."""
    known = _field_plurals().get(lower)
    if known is not None:
        return word[: len(known)] if lower.startswith(known) else (known.capitalize() if word[0].isupper() else known)
    if lower.endswith("ies") and word[:-3].islower():
        return word[:-3] + "y"
    if lower.endswith("sses"):
        return word[:-2]
    return word[:-1]


def singular_name(name: str) -> str:
    """``Graph Neural Networks`` -> ``Graph Neural Network``; ``LLMs`` -> ``LLM``."""
    head, _, last = name.rpartition(" ")
    if not last.endswith("s") or last[:-1].isdigit():
        return name
    return f"{head} {_singular(last)}" if head else _singular(last)


@lru_cache(maxsize=1 << 16)  # the same names are keyed many times per text
def name_key(name: str) -> str:
    """Normalise a surface name: case, accents on Latin letters (``Schrödinger``, ``Schrodinger``),
    hyphens and spaces, a plural last word, letter-digit joins (a name's trailing ``+`` counts:
    ``LoRA+`` and ``PointNet++`` are other methods than ``LoRA``, ``PointNet``)."""
    text = singular_name(" ".join(_without_accents(unicodedata.normalize("NFKC", name)).split())).lower()
    text = _LETTER_DIGIT.sub(" ", text)
    text = _TRAILING_PLUS.sub(lambda plus: " plus" * len(plus.group()), text)  # LoRA+ is not LoRA
    return _NON_ALNUM.sub("-", text).strip("-")


def _without_accents(text: str) -> str:
    """Latin letters without their accents; other scripts' marks are kept (they spell the word)."""
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if not (unicodedata.combining(char) and kept and "a" <= kept[-1].lower() <= "z"):
            kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def entity_id(key: str) -> str:
    return bounded_id(f"entity:{key}")


def normalize_doi(value: str | None) -> str | None:
    match = _DOI.search(value or "")
    return match.group(0).rstrip(".,;").lower() if match else None


def normalize_arxiv_id(value: str | None) -> str | None:
    """``arXiv:2401.01234v2`` -> ``2401.01234`` (the version is dropped: it names the same paper)."""
    match = _ARXIV.search((value or "").strip())
    return match.group(1).lower() if match else None


def _digest(text: str) -> str:
    normal = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(normal.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def paper_id(*, abstract: str, doi: str | None = None, arxiv_id: str | None = None) -> str:
    """arXiv id (also from an arXiv DOI), else DOI, else a digest of the abstract.

    The arXiv id wins over a DOI so that a preprint gets one id whichever
    of the two an input gives."""
    doi_ = normalize_doi(doi)
    if doi_ and (from_doi := _ARXIV_DOI.match(doi_)):
        arxiv_id = arxiv_id or from_doi.group(1)
    if arxiv := normalize_arxiv_id(arxiv_id):
        return bounded_id(f"arxiv:{arxiv}")
    if doi_:
        return bounded_id(f"doi:{doi_}")
    return f"paper:{_digest(abstract)}"


def venue_id(venue: str) -> str:
    return bounded_id(f"venue:{name_key(venue)}")


def code_id(url: str) -> str:
    """``https://GitHub.com/a/b.git/`` -> ``code:github.com/a/b``."""
    bare = re.sub(r"^[a-z]+://", "", url.strip(), flags=re.IGNORECASE)
    bare = re.sub(r"^www\.", "", bare, flags=re.IGNORECASE).rstrip("/")
    bare = re.sub(r"\.git$", "", bare)
    host, _, path = bare.partition("/")
    return bounded_id(f"code:{host.lower()}/{path}" if path else f"code:{host.lower()}")
