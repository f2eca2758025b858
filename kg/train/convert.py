"""Convert the annotated corpora to spaCy's binary format (``.spacy`` DocBin files).

SciERC: one Doc per abstract, built on the corpus's own tokens and sentences
(:func:`kg.evaluate.scierc.make_doc`); every entity in ``doc.spans["sc"]``
(they may overlap), the non-overlapping ones in ``doc.ents`` (of two
overlapping entities the longer is kept, then the earlier), and the relations
in ``doc._.kg_span_relations`` as ``(h_start, h_end, t_start, t_end, label)``.
The corpus's inclusive ends are exclusive here (:func:`~kg.evaluate.scierc.read_scierc`).

Abstracts annotated with names (``tests/data/openreview_gold``, the guidelines
of ``tests/data/seeds_gold.md``): one Doc per abstract, cleaned and tokenised
as ``kg build`` does, every occurrence of an entity's name or alias (any case,
a plural ``s``, a space or hyphen between words) an entity of its type; of
overlapping occurrences the longer is kept (:func:`names_doc`).

TDMSci: one Doc per sentence with its BIO spans in ``doc.ents``. TDMSci has no
dev split; :func:`split_tdmsci` holds out the last ``dev_fraction`` of the
training sentences (a contiguous tail, so dev sentences come from other
papers' text than most training sentences) for model selection; it is also
written as ``dev.conll`` so ``kg evaluate tdmsci`` can score it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans
from spacy.vocab import Vocab

import kg.train.relations  # noqa: F401  (registers doc._.kg_span_relations)
from kg.evaluate import scierc, tdmsci

__all__ = [
    "SPANS_KEY",
    "convert_corpus",
    "names_doc",
    "read_annotated",
    "scierc_doc",
    "split_tdmsci",
    "tdmsci_doc",
    "to_docbin",
    "write_conll",
]

SPANS_KEY = "sc"


def scierc_doc(vocab: Vocab, record: scierc.SciercDoc) -> Doc:
    """The record as an annotated Doc (entities, all spans, relations)."""
    doc = scierc.make_doc(vocab, record)
    spans = [Span(doc, s, e, label=label) for s, e, label in record.entities]
    doc.spans[SPANS_KEY] = spans
    doc.ents = filter_spans(spans)
    doc._.kg_span_relations = [tuple(r) for r in record.relations]
    doc.user_data["doc_key"] = record.doc_key
    return doc


def tdmsci_doc(vocab: Vocab, sentence: tdmsci.TdmsciSentence) -> Doc:
    doc = tdmsci.make_doc(vocab, sentence)
    spans = [Span(doc, s, e, label=label) for s, e, label in sentence.entities]
    doc.ents = spans
    doc.spans[SPANS_KEY] = spans
    return doc


def read_annotated(gold: str | Path, abstracts: str | Path) -> Iterator[dict]:
    """Gold records with their ``abstract`` joined from JSON Lines files (a file or a folder of
    ``*.jsonl``, matched by ``id``); records whose abstract is missing are skipped."""
    folder = Path(abstracts)
    files = sorted(folder.glob("*.jsonl")) if folder.is_dir() else [folder]
    text = {}
    for path in files:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                text[record["id"]] = record["abstract"]
    with Path(gold).open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["id"] in text:
                yield {**record, "abstract": text[record["id"]]}


def _name_pattern(name: str) -> re.Pattern | None:
    words = [re.escape(w) for w in name.split()]
    if not words:
        return None
    return re.compile(r"(?<!\w)" + r"[\s\-]+".join(words) + r"(?:e?s)?(?!\w)", re.IGNORECASE)


_FUNCTION_WORDS = frozenset("the of for to with and from in on by a an its their our that which this these as".split())


def is_paraphrase(alias: str, name: str) -> bool:
    """An alias that says what the entity is in other words (``generating realistic images``
    for ``image generation``) rather than naming it: a clause, not a surface name.

    >>> is_paraphrase("generating realistic images", "image generation")
    True
    >>> is_paraphrase("large language models", "LLM"), is_paraphrase("CIFAR10", "CIFAR-10")
    (False, False)
    """
    from kg.extract.abbreviations import is_short_form
    from kg.ids import name_key

    if name_key(alias) == name_key(name) or is_short_form(alias) or is_short_form(name):
        return False
    words, named = alias.split(), {w.lower() for w in name.split()}
    clause = any(w.lower() in _FUNCTION_WORDS and w.lower() not in named for w in words)
    gerund = words[0].islower() and words[0].endswith("ing") and words[0] not in named
    return clause or (gerund and len(words) > 1)


def names_doc(nlp, record: dict) -> Doc:
    """An annotated abstract as a Doc of ``nlp``'s tokens with its named entities in ``doc.ents``
    (paraphrasing aliases are not names: :func:`is_paraphrase`)."""
    from kg.extract.clean import clean_text

    doc = nlp.make_doc(clean_text(record["abstract"]).text)
    doc.ents = gold_spans(doc, record)
    doc.user_data["id"] = record["id"]
    return doc


def gold_spans(doc: Doc, record: dict) -> list[Span]:
    """Where the record's gold names (name and aliases that name it) occur in ``doc``, typed; of
    overlapping occurrences the longest (``filter SBI`` where ``SBI`` is a gold name too)."""
    spans = []
    for entity in record["entities"]:
        forms = {entity["name"], *(a for a in entity.get("aliases", ()) if not is_paraphrase(a, entity["name"]))}
        for form in sorted(forms):
            pattern = _name_pattern(form)
            for match in pattern.finditer(doc.text) if pattern else ():
                span = doc.char_span(match.start(), match.end(), label=entity["type"], alignment_mode="contract")
                if span is not None and len(span):
                    spans.append(span)
    return filter_spans(spans)


def split_held_out(records: list, fraction: float = 0.1, seed: int = 0) -> tuple[list, list]:
    """Shuffled (seeded) records cut into train and a held-out ``fraction`` for model selection."""
    shuffled = list(records)
    random.Random(seed).shuffle(shuffled)
    cut = round(len(shuffled) * fraction)
    return shuffled[cut:], shuffled[:cut]


def to_docbin(docs: Iterable[Doc]) -> DocBin:
    docbin = DocBin(store_user_data=True)
    for doc in docs:
        docbin.add(doc)
    return docbin


def split_tdmsci(sentences: list, dev_fraction: float = 0.1) -> tuple[list, list]:
    """Train and dev: the last ``dev_fraction`` of the sentences is dev."""
    cut = len(sentences) - round(len(sentences) * dev_fraction)
    return sentences[:cut], sentences[cut:]


def write_conll(sentences: Iterable[tdmsci.TdmsciSentence], path: str | Path) -> None:
    """Sentences back to TDMSci's CoNLL (token, offset, tag), e.g. the held-out dev split."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for sentence in sentences:
            handle.writelines(
                "\t".join(map(str, row)) + "\n"
                for row in zip(sentence.words, sentence.offsets, sentence.tags)
            )
            handle.write("\n")


DEFAULT_GOLD = Path("tests") / "data" / "openreview_gold" / "train.jsonl"


def convert_corpus(corpus: str, data_dir: str | Path, output_dir: str | Path,
                   gold: str | Path = DEFAULT_GOLD) -> dict[str, Path]:
    """Write ``train.spacy`` and ``dev.spacy`` for ``corpus`` (``scierc``, ``tdmsci`` or
    ``openreview``: kg's own annotation, abstracts from ``data_dir``)."""
    data_dir, output_dir = Path(data_dir), Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    vocab = Vocab()
    if corpus == "scierc":
        splits = {
            name: [scierc_doc(vocab, r) for r in scierc.read_scierc(data_dir / f"{name}.jsonl")]
            for name in ("train", "dev")
        }
    elif corpus == "openreview":
        from kg.extract.pipeline import load_pipeline

        nlp = load_pipeline()
        train, dev = split_held_out(list(read_annotated(gold, data_dir)))
        splits = {"train": [names_doc(nlp, r) for r in train], "dev": [names_doc(nlp, r) for r in dev]}
    elif corpus == "tdmsci":
        train, dev = split_tdmsci(tdmsci.read_conll(data_dir / "train.conll"))
        splits = {
            "train": [tdmsci_doc(vocab, s) for s in train],
            "dev": [tdmsci_doc(vocab, s) for s in dev],
        }
        write_conll(dev, output_dir / "dev.conll")
    else:
        raise ValueError(f"unknown corpus {corpus!r} (scierc, tdmsci, openreview)")
    paths = {}
    for name, docs in splits.items():
        paths[name] = output_dir / f"{name}.spacy"
        to_docbin(docs).to_disk(paths[name])
    return paths
