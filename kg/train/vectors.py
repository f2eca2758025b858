"""Word vectors learnt here, offline, from unlabeled scientific text (PPMI + truncated SVD).

No pretrained vectors can be downloaded on this machine, so the trained
pipelines get their static vectors from the *text* (never the labels) of the
training material we have: the 306 SciREX training papers (1.7M words of
machine-learning papers) plus the train splits of SciERC and TDMSci. Test
splits are never read. Method (Levy, Goldberg & Dagan, TACL 2015): lower-cased
word-context counts in a window of ``window`` words weighted 1/distance,
positive PMI with context-distribution smoothing (alpha 0.75), a randomized
truncated SVD, vectors ``U * sqrt(S)``. One row per lower-cased word; every
spelling of it seen in the text, and its lower, Title and UPPER forms, are keys
of that row ("BLEU", "Bleu" and "bleu" share it). The table is keyed by the
token text (``ORTH``): spaCy does not save another key attribute with plain
vectors, so a ``LOWER``-keyed table would not load back the same. It takes
about a minute on one core.

The training configs build them at initialisation through the
``[initialize.before_init]`` callback ``kg.ppmi_svd_vectors.v1`` (``kg train``
points ``paths.unlabeled`` at the data folder), so the vectors are part of the
trained pipeline's vocab. Standalone: ``python -m kg.train.vectors OUT --data ../shared/data``.

Examples
--------
>>> words, table = ppmi_svd_vectors([["a", "b", "a", "c"]] * 50, min_count=1, dim=2)
>>> words, table.shape
(['a', 'b', 'c'], (3, 2))
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy
from spacy.util import registry

__all__ = ["build_vectors", "make_vectors_callback", "ppmi_svd_vectors", "unlabeled_sentences"]


def unlabeled_sentences(
    data_root: str | Path, exclude: Iterable[str | Path] = (), openreview: bool = False
) -> Iterator[list[str]]:
    """Token lists from SciREX (train), SciERC (train) and TDMSci (train), and with
    ``openreview`` the titles and abstracts of ``openreview/`` (cleaned and tokenised as
    ``kg build`` does) but for the ids in the gold files ``exclude`` (held out): text only."""
    from kg.evaluate.scierc import PTB_ESCAPES, read_scierc
    from kg.evaluate.tdmsci import read_conll

    root = Path(data_root)
    if openreview:
        from kg.extract.clean import clean_text
        from kg.extract.pipeline import load_pipeline

        held_out = set()
        for path in exclude:
            with Path(path).open(encoding="utf-8") as handle:
                held_out.update(json.loads(line)["id"] for line in handle if line.strip())
        tokenizer = load_pipeline().tokenizer
        for path in sorted((root / "openreview").glob("*.jsonl")):
            with path.open(encoding="utf-8") as handle:
                for line in handle:
                    paper = json.loads(line)
                    if paper["id"] not in held_out:
                        for text in (paper.get("title") or "", clean_text(paper["abstract"]).text):
                            yield [t.text for t in tokenizer(text)]
    scirex = root / "scirex" / "train.jsonl.gz"
    if scirex.is_file():
        with gzip.open(scirex, "rt", encoding="utf-8") as handle:
            for line in handle:
                paper = json.loads(line)
                words = paper["words"]
                for start, end in paper["sentences"]:
                    yield words[start:end]
    if (root / "scierc" / "train.jsonl").is_file():
        for record in read_scierc(root / "scierc" / "train.jsonl"):
            for sentence in record.sentences:
                yield [PTB_ESCAPES.get(w, w) for w in sentence]
    if (root / "tdmsci" / "train.conll").is_file():
        for sentence in read_conll(root / "tdmsci" / "train.conll"):
            yield list(sentence.words)


def ppmi_svd_vectors(
    sentences: Iterable[list[str]],
    *,
    min_count: int = 3,
    max_words: int = 20000,
    window: int = 5,
    dim: int = 96,
    alpha: float = 0.75,
    seed: int = 0,
) -> tuple[list[str], numpy.ndarray]:
    """Lower-cased words (most frequent first, ties by spelling) and their vectors."""
    sentences = [[w.lower() for w in s] for s in sentences]
    counts = Counter(w for s in sentences for w in s)
    vocab = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    vocab = vocab[:max_words]
    index = {w: i for i, w in enumerate(vocab)}
    n = len(vocab)
    ids = numpy.concatenate(
        [
            numpy.array([index.get(w, -1) for w in s] + [-1] * window, dtype=numpy.int64)
            for s in sentences
        ]
    )
    cooc = numpy.zeros((n, n), dtype=numpy.float32)
    for distance in range(1, window + 1):
        left, right = ids[:-distance], ids[distance:]
        keep = (left >= 0) & (right >= 0)
        pairs, freq = numpy.unique(left[keep] * n + right[keep], return_counts=True)
        weights = freq.astype(numpy.float32) / distance
        cooc.ravel()[pairs] += weights
    cooc = cooc + cooc.T
    total = cooc.sum()
    row = cooc.sum(axis=1, keepdims=True)
    context = cooc.sum(axis=0, keepdims=True) ** alpha
    context = context / context.sum()
    with numpy.errstate(divide="ignore", invalid="ignore"):
        pmi = numpy.log(cooc / (row / total) / context / total)
    ppmi = numpy.where(numpy.isfinite(pmi) & (pmi > 0), pmi, 0).astype(numpy.float32)
    del cooc, pmi
    rng = numpy.random.default_rng(seed)
    sketch = ppmi @ rng.standard_normal((n, dim + 20), dtype=numpy.float32)
    for _ in range(2):  # power iterations
        sketch, _ = numpy.linalg.qr(sketch)
        sketch = ppmi @ (ppmi.T @ sketch)
    basis, _ = numpy.linalg.qr(sketch)
    u, s, _ = numpy.linalg.svd(basis.T @ ppmi, full_matrices=False)
    table = (basis @ u[:, :dim]) * numpy.sqrt(s[:dim])
    table /= numpy.linalg.norm(table, axis=1, keepdims=True) + 1e-8
    return vocab, table.astype(numpy.float32)


def set_vectors(
    vocab, words: list[str], table: numpy.ndarray, spellings: Iterable[str] = ()
) -> None:
    """Install the vectors in ``vocab``: row ``i`` under ``words[i]``, its Title and UPPER
    forms, and each of ``spellings`` whose lower-case form is a word."""
    from spacy.vectors import Vectors

    vectors = Vectors(strings=vocab.strings, data=table, keys=words, name="kg_ppmi_svd")
    row = {w: i for i, w in enumerate(words)}
    forms = {form for w in words for form in (w.title(), w.upper())} | set(spellings)
    for form in sorted(forms):
        i = row.get(form.lower())
        if i is not None and form not in row:
            vectors.add(form, row=i)
    vocab.vectors = vectors


@registry.callbacks("kg.ppmi_svd_vectors.v1")
def make_vectors_callback(
    data: str | None, min_count: int = 3, max_words: int = 20000, window: int = 5, dim: int = 96,
    exclude: list[str] = [],  # noqa: B006 (a config value, never mutated)
    openreview: bool = False,
) -> Callable:
    """``[initialize.before_init]``: learn the vectors from ``data`` (the shared data folder),
    leaving out the abstracts of the gold files ``exclude``."""

    def before_init(nlp):
        if data is None:
            raise ValueError("kg.ppmi_svd_vectors.v1: set paths.unlabeled to the data folder")
        sentences = list(unlabeled_sentences(data, exclude, openreview))
        words, table = ppmi_svd_vectors(
            sentences, min_count=min_count, max_words=max_words, window=window, dim=dim
        )
        set_vectors(nlp.vocab, words, table, {w for s in sentences for w in s})
        return nlp

    return before_init


def build_vectors(data_root: str | Path, output: str | Path, **settings) -> Path:
    """Write a blank English pipeline whose vocab holds the vectors (``paths.vectors``)."""
    import spacy

    sentences = list(unlabeled_sentences(data_root))
    words, table = ppmi_svd_vectors(sentences, **settings)
    nlp = spacy.blank("en")
    set_vectors(nlp.vocab, words, table, {w for s in sentences for w in s})
    output = Path(output)
    nlp.to_disk(output)
    return output


if __name__ == "__main__":
    import argparse
    import time

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--data", type=Path, default=Path("..") / "shared" / "data")
    args = parser.parse_args()
    started = time.perf_counter()
    build_vectors(args.data, args.output)
    print(f"vectors written to {args.output} in {time.perf_counter() - started:.0f} s")
