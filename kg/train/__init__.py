"""Trained spaCy components for kg: corpus conversion, training, and the shipped pipelines.

* :func:`train` converts a corpus to ``.spacy`` files and runs spaCy's training
  loop on a config (what ``kg train`` does);
* :func:`load_trained` loads a trained pipeline by name (offline; ``"scierc"``,
  ``"tdmsci"`` from :data:`PIPELINES_DIR`, ``"entities"`` from the package).

Examples
--------
>>> {"entities", "scierc", "tdmsci"} <= set(available_models())  # in a source checkout
True
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from spacy.language import Language

# Registrations (kg.Corpus.v1, kg_relation_classifier, kg.ppmi_svd_vectors.v1 ...): spaCy finds them by
# their entry points (pyproject.toml); importing them here registers them for code that imports kg.train.
import kg.train.corpus
import kg.train.relations
import kg.train.vectors  # noqa: F401

__all__ = ["MODELS_DIR", "PIPELINES_DIR", "available_models", "cross_predict", "load_trained",
           "ship_model", "train"]

from kg.extract.models import MODELS_DIR  # noqa: E402

#: Where the pipelines ``kg build`` does not load (SciERC, TDMSci) are kept: ``$KG_PIPELINES``,
#: else ``pipelines/`` of the source checkout. They stay out of the wheel (56 MB; SciERC's data
#: states no licence): pipelines/README.md.
PIPELINES_DIR = Path(os.environ.get("KG_PIPELINES") or Path(__file__).resolve().parents[2] / "pipelines")


def available_models() -> list[str]:
    """Names of the trained pipelines there are: the package's and :data:`PIPELINES_DIR`'s."""
    folders = [MODELS_DIR, PIPELINES_DIR]
    return sorted({p.name for d in folders if d.is_dir() for p in d.iterdir() if (p / "config.cfg").is_file()})


def load_trained(name: str, **kwargs) -> Language:
    """Load the trained pipeline ``name`` (a folder of :data:`PIPELINES_DIR` or of the
    package's models); ``kwargs`` go to :func:`spacy.load` (``exclude=``, ``disable=`` ...)."""
    import spacy

    for folder in (PIPELINES_DIR, MODELS_DIR):
        if (folder / name / "config.cfg").is_file():
            return spacy.load(folder / name, **kwargs)
    raise ValueError(
        f"no trained pipeline {name!r} in {PIPELINES_DIR} (have: {', '.join(available_models()) or 'none'}); "
        f"train it (pipelines/README.md), set KG_PIPELINES to its folder, or pass --pipeline DIR")


def train(
    config: str | Path,
    output: str | Path,
    *,
    corpus: str,
    data_dir: str | Path,
    overrides: dict | None = None,
    gold: str | Path | None = None,
) -> dict:
    """Convert ``corpus`` (train + dev) from ``data_dir`` into ``output/corpus`` and train the
    pipeline of ``config`` into ``output`` (``model-best``, ``model-last``), as ``spacy train``.

    Returns a summary (paths, wall times) that is also written to ``output/kg_train.json``.
    """
    from spacy.cli.train import train as spacy_train

    from kg.train.convert import convert_corpus

    output = Path(output)
    started = time.perf_counter()
    paths = convert_corpus(corpus, data_dir, output / "corpus", **({"gold": gold} if gold else {}))
    converted = time.perf_counter()
    settings = {"paths.train": str(paths["train"]), "paths.dev": str(paths["dev"])}
    if "unlabeled" in _config_paths(config):
        settings["paths.unlabeled"] = str(Path(data_dir).parent)
    settings.update(overrides or {})
    spacy_train(Path(config), output, use_gpu=-1, overrides=settings)
    finished = time.perf_counter()
    summary = {
        "config": str(config),
        "corpus": corpus,
        "data_dir": str(data_dir),
        "overrides": {k: str(v) for k, v in settings.items()},
        "convert_seconds": round(converted - started, 1),
        "train_seconds": round(finished - converted, 1),
        "model_best": str(output / "model-best"),
    }
    (output / "kg_train.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def cross_predict(
    config: str | Path,
    output: str | Path,
    *,
    data_dir: str | Path,
    gold: str | Path,
    folds: int = 4,
    overrides: dict | None = None,
) -> Path:
    """Out-of-fold predictions of the recogniser of ``config`` on kg's own annotation.

    The annotated abstracts are cut into ``folds`` parts (seeded); a model trained on
    the others (``output/fold-k``, as :func:`train` does) predicts each part. The
    learned decisions (:mod:`kg.train.linear`) are trained on these predictions, which
    are as good as the recogniser is on abstracts it has not seen, as at run time.
    Writes ``output/out_of_fold.json`` (id -> ``[[start_char, end_char, label]]`` in the
    clean text) and returns its path.
    """
    import random

    import spacy
    from spacy.cli.train import train as spacy_train

    from kg.extract.pipeline import load_pipeline
    from kg.train.convert import names_doc, read_annotated, split_held_out, to_docbin

    output = Path(output)
    nlp = load_pipeline()
    records = list(read_annotated(gold, data_dir))
    random.Random(1).shuffle(records)
    predicted: dict[str, list] = {}
    for k in range(folds):
        folder = output / f"fold-{k}"
        (folder / "corpus").mkdir(parents=True, exist_ok=True)
        train_part, dev_part = split_held_out([r for i, r in enumerate(records) if i % folds != k])
        paths = {"train": folder / "corpus" / "train.spacy", "dev": folder / "corpus" / "dev.spacy"}
        to_docbin(names_doc(nlp, r) for r in train_part).to_disk(paths["train"])
        to_docbin(names_doc(nlp, r) for r in dev_part).to_disk(paths["dev"])
        settings = {"paths.train": str(paths["train"]), "paths.dev": str(paths["dev"])}
        if "unlabeled" in _config_paths(config):
            settings["paths.unlabeled"] = str(Path(data_dir).parent)
        settings.update(overrides or {})
        spacy_train(Path(config), folder, use_gpu=-1, overrides=settings)
        model = spacy.load(folder / "model-best")
        for i, record in enumerate(records):
            if i % folds == k:
                source = names_doc(nlp, record)
                doc = model(spacy.tokens.Doc(model.vocab, words=[t.text for t in source],
                                             spaces=[bool(t.whitespace_) for t in source]))
                predicted[record["id"]] = [[e.start_char, e.end_char, e.label_] for e in doc.ents]
    path = output / "out_of_fold.json"
    path.write_text(json.dumps(predicted, sort_keys=True) + "\n", encoding="utf-8")
    return path


def ship_model(pipeline: str | Path, name: str, models_dir: str | Path | None = None) -> Path:
    """Copy a trained pipeline folder to ``models_dir/name`` (replacing it), with the
    machine-specific ``[paths]`` of its config reset to ``null``. By default ``entities``
    (which ``kg build`` runs) goes into the package, any other into :data:`PIPELINES_DIR`."""
    import shutil

    from spacy.util import load_config

    if models_dir is None:
        models_dir = MODELS_DIR if name == "entities" else PIPELINES_DIR
    target = Path(models_dir) / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(pipeline, target)
    config = load_config(target / "config.cfg", interpolate=False)
    for key in config.get("paths", {}):
        config["paths"][key] = None
    config.to_disk(target / "config.cfg")
    return target


def _config_paths(config: str | Path) -> dict:
    from spacy.util import load_config

    return dict(load_config(config, interpolate=False).get("paths", {}))
