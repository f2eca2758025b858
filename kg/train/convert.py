"""Convert the annotated corpora to spaCy's binary format (``.spacy`` DocBin files).

SciERC: one Doc per abstract, built on the corpus's own tokens and sentences
(:func:`kg.evaluate.scierc.make_doc`); every entity in ``doc.spans["sc"]``
(they may overlap), the non-overlapping ones in ``doc.ents`` (of two
overlapping entities the longer is kept, then the earlier), and the relations
in ``doc._.kg_span_relations`` as ``(h_start, h_end, t_start, t_end, label)``.
The corpus's inclusive ends are exclusive here (:func:`~kg.evaluate.scierc.read_scierc`).

TDMSci: one Doc per sentence with its BIO spans in ``doc.ents``. TDMSci has no
dev split; :func:`split_tdmsci` holds out the last ``dev_fraction`` of the
training sentences (a contiguous tail, so dev sentences come from other
papers' text than most training sentences) for model selection; it is also
written as ``dev.conll`` so ``kg evaluate tdmsci`` can score it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans
from spacy.vocab import Vocab

import kg.train.relations  # noqa: F401  (registers doc._.kg_span_relations)
from kg.evaluate import scierc, tdmsci

__all__ = [
    "SPANS_KEY",
    "convert_corpus",
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


def convert_corpus(corpus: str, data_dir: str | Path, output_dir: str | Path) -> dict[str, Path]:
    """Write ``train.spacy`` and ``dev.spacy`` for ``corpus`` (``scierc`` or ``tdmsci``)."""
    data_dir, output_dir = Path(data_dir), Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    vocab = Vocab()
    if corpus == "scierc":
        splits = {
            name: [scierc_doc(vocab, r) for r in scierc.read_scierc(data_dir / f"{name}.jsonl")]
            for name in ("train", "dev")
        }
    elif corpus == "tdmsci":
        train, dev = split_tdmsci(tdmsci.read_conll(data_dir / "train.conll"))
        splits = {
            "train": [tdmsci_doc(vocab, s) for s in train],
            "dev": [tdmsci_doc(vocab, s) for s in dev],
        }
        write_conll(dev, output_dir / "dev.conll")
    else:
        raise ValueError(f"unknown corpus {corpus!r} (scierc, tdmsci)")
    paths = {}
    for name, docs in splits.items():
        paths[name] = output_dir / f"{name}.spacy"
        to_docbin(docs).to_disk(paths[name])
    return paths
