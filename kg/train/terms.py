"""How common a name is in the field: document frequencies of word n-grams in unlabelled abstracts.

A name that hundreds of abstracts use (``reinforcement learning``) is not what
one paper proposes; a name no other abstract uses may be. The table counts, for
every n-gram of 1 to 4 words not starting or ending with a function word, the
number of abstracts (title and abstract) that contain it, under
:func:`kg.ids.name_key`. Only n-grams in at least ``min_df`` abstracts are kept,
so the table holds the field's shared vocabulary, not any one paper's names.

Built from ``../shared/data/openreview`` (NeurIPS 2023, ICML 2024) without the
abstracts of the held-out gold files; the text itself is not kept::

    python -m kg.train.terms kg/extract/lexicons/terms.tsv.gz --data ../shared/data \\
        --exclude tests/data/openreview_gold/dev.jsonl tests/data/openreview_gold/test.jsonl
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from kg.extract.lexicons import term_key

__all__ = ["document_frequencies", "plural_forms", "write_plurals", "write_terms"]

_WORD = re.compile(r"[A-Za-z0-9][\w\-.]*[A-Za-z0-9]|[A-Za-z0-9]")
_EDGE_WORDS = frozenset(
    "the of and a an to in for on with by is are we our this that from as at be it its can which or "
    "these their than such".split()
)


def document_frequencies(texts: Iterable[str], max_words: int = 4) -> Counter:
    """Name key -> number of texts containing it, for n-grams of 1 to ``max_words`` words.

    >>> document_frequencies(["Graph neural networks work.", "A graph neural network."])["graph-neural-network"]
    2
    """
    df: Counter = Counter()
    for text in texts:
        words = _WORD.findall(text)
        grams = set()
        for i in range(len(words)):
            for n in range(1, max_words + 1):
                gram = words[i : i + n]
                if len(gram) == n and gram[0].lower() not in _EDGE_WORDS and gram[-1].lower() not in _EDGE_WORDS:
                    grams.add(term_key(" ".join(gram)))
        df.update(grams)
    return df


def write_terms(data_root: str | Path, output: str | Path, exclude: Iterable[str | Path] = (), min_df: int = 3) -> int:
    """Write ``key<TAB>df`` lines (gzip) for the openreview abstracts; returns the number of keys."""
    held_out: set[str] = set()
    for path in exclude:
        with Path(path).open(encoding="utf-8") as handle:
            held_out.update(json.loads(line)["id"] for line in handle if line.strip())

    def texts():
        for path in sorted((Path(data_root) / "openreview").glob("*.jsonl")):
            with path.open(encoding="utf-8") as handle:
                for line in handle:
                    paper = json.loads(line)
                    if paper["id"] not in held_out:
                        yield f"{paper.get('title') or ''} . {paper['abstract']}"

    df = document_frequencies(texts())
    kept = sorted((key, n) for key, n in df.items() if n >= min_df and key.strip("^"))
    with gzip.open(output, "wt", encoding="utf-8", compresslevel=9) as handle:
        handle.write("".join(f"{key}\t{n}\n" for key, n in kept))
    return len(kept)


def plural_forms(texts: Iterable[str], min_count: int = 2) -> dict[str, str]:
    """Lower-case words in -s -> their singular as the field writes it (itself when the field
    hardly uses a singular: ``nuscenes``, ``cityscapes``): the spelling with most uses among
    the English rules' candidates (``processes`` -> ``process``, ``hypotheses`` ->
    ``hypothesis``, ``matrices`` -> ``matrix``), if used twice and in 5% as many places.

    >>> forms = plural_forms(["processes, a process, process", "nuScenes nuScenes", "approaches, an approach, one approach"], 1)
    >>> forms["processes"], forms["nuscenes"], forms["approaches"]
    ('process', 'nuscenes', 'approach')
    """
    counts: Counter = Counter()
    for text in texts:
        counts.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*[A-Za-z]", text))
    forms = {}
    for word, n in counts.items():
        if n < min_count or not word.endswith("s") or word.endswith(("ss", "us", "is")):
            continue
        stem, _, last = word.rpartition("-")
        candidates = [last[:-1]]
        if last.endswith("es"):
            candidates += [last[:-2], last[:-2] + "is"]
        if last.endswith("ies"):
            candidates.append(last[:-3] + "y")
        if last.endswith("ices"):
            candidates += [last[:-4] + "ix", last[:-4] + "ex"]
        prefix = stem + "-" if stem else ""
        best = max(candidates, key=lambda c: (counts[prefix + c], -len(c)))
        forms[word] = prefix + best if counts[prefix + best] >= max(2, 0.05 * n) else word
    return forms


def write_plurals(data_root: str | Path, output: str | Path) -> int:
    """Write ``plural<TAB>singular`` lines for the words in -s of the openreview abstracts."""
    def texts():
        for path in sorted((Path(data_root) / "openreview").glob("*.jsonl")):
            with path.open(encoding="utf-8") as handle:
                for line in handle:
                    paper = json.loads(line)
                    yield f"{paper.get('title') or ''} . {paper['abstract']}"

    forms = plural_forms(texts())
    with Path(output).open("w", encoding="utf-8") as handle:
        handle.write("".join(f"{p}\t{s}\n" for p, s in sorted(forms.items())))
    return len(forms)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--data", type=Path, default=Path("..") / "shared" / "data")
    parser.add_argument("--exclude", type=Path, nargs="*", default=[])
    parser.add_argument("--min-df", type=int, default=3)
    args = parser.parse_args()
    print(f"{write_terms(args.data, args.output, args.exclude, args.min_df)} terms -> {args.output}")
