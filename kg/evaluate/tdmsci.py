"""Score a pipeline on TDMSci (Hou et al., EACL 2021): TASK / DATASET / METRIC mentions.

The corpus is CoNLL text: one token per line (``token<TAB>char offset<TAB>BIO
tag``), a blank line after each sentence. Each sentence becomes one
:class:`~spacy.tokens.Doc` built from its own tokens; the character offsets
tell where a space followed a token, so the Doc's text is the original text.

Spans are read from the tags the way ``conlleval`` (the CoNLL-2000 script the
TDMSci paper evaluates with) reads them: a chunk starts at ``B-X``, or at an
``I-X`` that does not continue a chunk of type X; it ends before the next
``B-``, ``O`` or a tag of another type. A predicted span is correct when its
start, end and type equal a gold span's (exact match); scores per type and
micro over the three types. Predictions with other labels (Method, Model ...)
are ignored, not counted as false positives: TDMSci does not annotate them.

Examples
--------
>>> bio_spans(["B-TASK", "I-TASK", "O", "I-METRIC", "B-DATASET"])
[(0, 2, 'TASK'), (3, 4, 'METRIC'), (4, 5, 'DATASET')]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from kg.evaluate.spans import EntitySource, entity_source, pretokenised, score_items

__all__ = [
    "KG_TO_TDMSCI",
    "LABELS",
    "TdmsciSentence",
    "bio_spans",
    "evaluate_tdmsci",
    "make_doc",
    "read_conll",
    "to_bio",
]

LABELS = ("TASK", "DATASET", "METRIC")
# kg's entity types -> TDMSci types; Method and Model have no TDMSci type.
KG_TO_TDMSCI = {"Task": "TASK", "Dataset": "DATASET", "Metric": "METRIC"}


@dataclass(frozen=True, slots=True)
class TdmsciSentence:
    """One sentence: tokens, their character offsets, BIO tags; spans have exclusive ends."""

    id: str
    words: tuple[str, ...]
    offsets: tuple[int, ...]
    tags: tuple[str, ...]

    @property
    def entities(self) -> list[tuple[int, int, str]]:
        return bio_spans(self.tags)

    @property
    def spaces(self) -> list[bool]:
        """A space follows a token when the next token starts after its end."""
        out = []
        for i, (word, offset) in enumerate(zip(self.words, self.offsets)):
            following = self.offsets[i + 1] if i + 1 < len(self.words) else None
            out.append(following is None or following > offset + len(word))
        out[-1] = False
        return out


def read_conll(path: str | Path) -> list[TdmsciSentence]:
    """Read TDMSci CoNLL (token, offset, tag; blank line between sentences)."""
    sentences: list[TdmsciSentence] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            sentences.append(
                TdmsciSentence(
                    id=str(len(sentences)),
                    words=tuple(r[0] for r in rows),
                    offsets=tuple(int(r[1]) for r in rows),
                    tags=tuple(r[-1] for r in rows),
                )
            )
            rows.clear()

    with Path(path).open(encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip():
                flush()
                continue
            rows.append(line.split("\t"))
    flush()
    return sentences


def bio_spans(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """``(start, end, type)`` chunks of a BIO sequence, read as conlleval reads them."""
    spans = []
    start, kind = None, None
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        continues = prefix == "I" and kind == label
        if start is not None and not continues:
            spans.append((start, i, kind))
            start, kind = None, None
        if prefix in ("B", "I") and start is None:
            start, kind = i, label
    return spans


def to_bio(length: int, spans: Iterable[tuple[int, int, str]]) -> list[str]:
    """BIO tags of non-overlapping spans (on overlap, the earlier, then longer span wins)."""
    tags = ["O"] * length
    for start, end, label in sorted(spans, key=lambda s: (s[0], s[0] - s[1])):
        if any(t != "O" for t in tags[start:end]):
            continue
        tags[start:end] = [f"B-{label}"] + [f"I-{label}"] * (end - start - 1)
    return tags


def make_doc(vocab: Vocab, sentence: TdmsciSentence) -> Doc:
    """A one-sentence Doc of the sentence's own tokens (no annotations)."""
    words = list(sentence.words)
    return Doc(
        vocab, words=words, spaces=sentence.spaces, sent_starts=[i == 0 for i in range(len(words))]
    )


def evaluate_tdmsci(
    sentences: Iterable[TdmsciSentence],
    nlp: Language,
    *,
    source: EntitySource | None = None,
    batch_size: int = 64,
) -> tuple[dict, list[tuple[TdmsciSentence, list[tuple[int, int, str]]]]]:
    """Run ``nlp`` over the sentences and score it; returns the report and the predictions."""
    sentences = list(sentences)
    source = source or entity_source(nlp, KG_TO_TDMSCI, keep=LABELS)
    gold, predicted, predictions = set(), set(), []
    started = time.perf_counter()
    docs = (make_doc(nlp.vocab, s) for s in sentences)
    with pretokenised(nlp):
        parsed = list(nlp.pipe(docs, batch_size=batch_size))
    for sentence, doc in zip(sentences, parsed):
        spans = source.spans(doc)
        gold |= {(sentence.id, *span) for span in sentence.entities}
        predicted |= {(sentence.id, *span) for span in spans}
        predictions.append((sentence, spans))
    seconds = time.perf_counter() - started
    report = {
        "corpus": "tdmsci",
        "sentences": len(sentences),
        "tokens": sum(len(s.words) for s in sentences),
        "entity_source": source.describe(),
        "seconds": round(seconds, 2),
        "sentences_per_second": round(len(sentences) / seconds, 1) if seconds else None,
        "entities": score_items(gold, predicted, labels=LABELS),
    }
    return report, predictions


def write_conll(predictions, path: str | Path) -> None:
    """CoNLL with gold and predicted tags (``token offset gold predicted``), conlleval's input."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for sentence, spans in predictions:
            tags = to_bio(len(sentence.words), spans)
            handle.writelines(
                f"{word}\t{offset}\t{gold}\t{pred}\n"
                for word, offset, gold, pred in zip(
                    sentence.words, sentence.offsets, sentence.tags, tags
                )
            )
            handle.write("\n")
