"""A small multinomial logistic model over named features, for the learned decisions of extraction.

Components describe a candidate (a pair of entities, a proposal) by a list of
string features (``"between=outperforms"``, ``"types=Method>Dataset"``); the
model maps them to class probabilities. Training happens offline
(:mod:`kg.train.linear`, scikit-learn); at run time only this file is needed:
a dictionary lookup and a few dot products per candidate, no dependency
beyond numpy. A model is one ``.npz`` file: classes, feature names, weights.

Examples
--------
>>> import numpy
>>> model = LinearModel(["none", "uses"], ["w=using"], numpy.array([[-1.0, 2.0]]), numpy.zeros(2))
>>> model.predict(["w=using", "w=unseen"])
('uses', 0.95...)
>>> model.predict([])[0]
'none'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy

__all__ = ["LinearModel"]


@dataclass
class LinearModel:
    classes: list[str]
    features: list[str]
    weights: numpy.ndarray  # (features, classes)
    bias: numpy.ndarray  # (classes,)
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {name: i for i, name in enumerate(self.features)}

    def probabilities(self, features: Sequence[str]) -> numpy.ndarray:
        rows = [self._index[f] for f in features if f in self._index]
        logits = self.bias + (self.weights[rows].sum(axis=0) if rows else 0.0)
        logits = logits - logits.max()
        exp = numpy.exp(logits)
        return exp / exp.sum()

    def probability(self, features: Sequence[str], label: str) -> float:
        """The probability of one class."""
        return float(self.probabilities(features)[self.classes.index(label)])

    def predict(self, features: Sequence[str]) -> tuple[str, float]:
        """The most probable class and its probability."""
        p = self.probabilities(features)
        best = int(p.argmax())
        return self.classes[best], float(p[best])

    def save(self, path: str | Path) -> None:
        """Weights in half precision and feature names as UTF-8 lines: the package's models take
        half the space (the wheel stays under 10 MB) and the dev build's records come out byte
        for byte the same."""
        names = numpy.frombuffer("\n".join(self.features).encode("utf-8"), dtype=numpy.uint8)
        numpy.savez_compressed(
            path, classes=numpy.array(self.classes), features=names,
            weights=self.weights.astype(numpy.float16), bias=self.bias.astype(numpy.float32),
        )

    @classmethod
    def load(cls, path: str | Path) -> LinearModel:
        with numpy.load(path, allow_pickle=False) as data:
            names = data["features"]
            if names.dtype == numpy.uint8:  # UTF-8 lines; older models hold an array of strings
                features = names.tobytes().decode("utf-8").split("\n") if names.size else []
            else:
                features = [str(f) for f in names]
            return cls([str(c) for c in data["classes"]], features,
                       data["weights"].astype(numpy.float64), data["bias"].astype(numpy.float64))
