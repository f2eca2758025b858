"""The types of the chosen names from their context: a description, the words around them, the
lists they are in (before the learned decision, and after it: :meth:`ContextTyping._agree_in_lists`);
and a trailing kind word (``tasks``, ``dataset``) taken off the name."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, Candidate
from kg.extract.entities.phrase_types import type_of_phrase
from kg.extract.sentences import sentence_words

_LIST_GLUE = {",", "and", "or", "&", "/", ";"}
_KIND_AFTER = {"metric": "Metric", "metrics": "Metric", "score": "Metric", "scores": "Metric",
               "task": "Task", "tasks": "Task"}
KIND_ENDINGS = {
    "Task": {"task", "tasks", "problem", "problems"},
    "Dataset": {"dataset", "datasets", "benchmark", "benchmarks", "corpus"},
    "Metric": {"metric", "metrics"},
}
#: ``HarmBench``, ``MoE-RBench``, ``SWE-bench``: the naming convention of benchmarks (not ``workbench``).
BENCH_NAME = re.compile(r"(?<![Ww]ork)(?<![Tt]est)(?<=[A-Za-z0-9-])(?:Bench|bench|BENCH)$")
#: After the learned decision, a listed name's type is settled at this probability (or catalogued),
#: doubtful below ``_UNSURE_IN_LIST``, and another type plausible from ``_PLAUSIBLE_IN_LIST``
#: (measured on dev and the 480s, docs/quality.md, thirteenth session).
_SETTLED_IN_LIST = 0.7
_UNSURE_IN_LIST = 0.6
_PLAUSIBLE_IN_LIST = 0.1
_EVALUATION_WORDS = {
    "experiment", "experiments", "evaluate", "evaluated", "evaluation", "evaluations",
    "benchmark", "benchmarks", "dataset", "datasets", "results", "tested", "test", "validate",
}


class ContextTyping:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``vocab``."""

    def _without_kind_word(self, doc: Doc, c: Candidate) -> None:
        """``language modeling tasks`` is the task ``language modeling``; ``the Plink dataset``
        the dataset ``Plink``: a trailing word saying what kind of thing it is, is not its name,
        unless it is capitalised with the rest (``Waymo Open Dataset``, ``Knapsack Problem``)."""
        kinds = KIND_ENDINGS.get(c.label or "", ())
        if c.end - c.start > 1 and doc[c.end - 1].lower_ in kinds and doc[c.end - 2].text != "-" and not (
            self._capitalised_kind(doc, c.start, c.end)
            and not any((m.start, m.end) == (c.start, c.end - 1) for m in doc.spans.get(self.catalogue_key, ()))
        ):
            if c.label != "Dataset" or any(ch.isupper() or ch.isdigit() for ch in doc[c.start:c.end - 1].text):
                c.end -= 1
                c.kb_id = c.kb_id if c.source == "catalogue" else ""

    @staticmethod
    def _capitalised_kind(doc: Doc, start: int, end: int) -> str | None:
        """The type a capitalised kind word ending a capitalised name gives (``Knapsack Problem``
        is a Task, ``Semantic Shift Benchmark`` a Dataset; a name ending in *Bench*, ``HarmBench``,
        ``MoE-RBench``, ``SWE-bench``, names a benchmark), else None."""
        if BENCH_NAME.search(doc[start:end].text):
            return "Dataset"
        last = doc[end - 1]
        if end - start < 2 or not last.text[0].isupper() or not all(
                t.text[0].isupper() for t in doc[start:end] if t.is_alpha):
            return None
        return next((label for label, words in KIND_ENDINGS.items() if last.lower_ in words), None)

    def _described_as(self, doc: Doc, c: Candidate) -> str | None:
        """Strong cues that override a guessed type: ``X dataset``, ``X, a question-answering
        dataset``, ``X, a novel framework``."""
        if c.end < len(doc) and doc[c.end].lower_ in self.vocab.dataset_heads:
            return "Dataset"
        if c.end + 2 < len(doc) and doc[c.end].text == "," and doc[c.end + 1].lower_ in ("a", "an"):
            end = c.end + 2
            while end < len(doc) and end - c.end < 9 and (
                not doc[end].is_punct or (doc[end].text == "-" and not doc[end - 1].whitespace_)
            ):
                if doc[end].lower_ in ("that", "which", "for", "to", "of", "with", "on", "in", "by"):
                    break
                end += 1
            kind = type_of_phrase(doc[c.end + 2:end], self.vocab) if end > c.end + 2 else None
            if kind in ("Dataset", "Method"):
                return kind
        return None

    def _type_from_context(self, doc: Doc, chosen: list[Candidate]) -> None:
        """Type the chosen names by a description, the words around them and the lists they
        are in; Method when nothing says otherwise."""
        for c in chosen:
            if c.source in ("name", "learned", "title") and not c.kb_id:
                c.label = self._described_as(doc, c) or c.label
        known_before = {id(c) for c in chosen if c.label}
        for c in chosen:
            if not c.label:
                c.label = self._type_from_neighbours(doc, c) or c.label
        for group in self._lists(doc, chosen):
            self._type_list(doc, group, known_before)
        for c in chosen:
            c.label = c.label or "Method"

    def _type_from_neighbours(self, doc: Doc, c: Candidate) -> str | None:
        """The type the word after or before a name gives: ``X dataset``, ``X metric``,
        ``benchmarks X``, ``evaluated on X``."""
        after = doc[c.end].lower_ if c.end < len(doc) else ""
        before = doc[c.start - 1].lower_ if c.start > 0 else ""
        if after in self.vocab.dataset_heads:
            return "Dataset"
        if after in self.vocab.model_heads and c.end - c.start == 1:
            return "Model"
        if after in _KIND_AFTER:
            return _KIND_AFTER[after]
        if before in ("dataset", "datasets", "benchmark", "benchmarks"):
            return "Dataset"
        if before in ("on", "across") and _EVALUATION_WORDS & sentence_words(doc[c.start].sent):
            return "Dataset"
        return None

    def _type_list(self, doc: Doc, group: list[Candidate], known_before: set[int]) -> None:
        """The names of a list share a type: the commonest one known (from the catalogue, or
        found from context; of two as common, the first named), and Dataset for names listed with a dataset
        the catalogue, a description or the context makes one (``the WinoBias and Winogender
        benchmarks``, ``evaluation on HM3D and HSSD``)."""
        known = [
            c.label
            for c in group
            if c.label and (c.priority >= PRIORITY_CATALOGUE or id(c) not in known_before)
        ]
        if known:
            label = max(dict.fromkeys(known), key=known.count)  # a set's order changes per process
            for c in group:
                if c.label is None:
                    c.label = label
        if any(c.label == "Dataset" and (c.kb_id or id(c) not in known_before or self._described_as(doc, c))
               for c in group):
            for c in group:
                if c.source in ("name", "learned") and not c.kb_id:
                    c.label = "Dataset"

    @classmethod
    def _agree_in_lists(cls, doc: Doc, kept: list[Candidate], p_of: dict[int, list[float]],
                        classes: list[str]) -> None:
        """After the learned decision: a name it types with doubt, listed (with *and*, *or* or
        *etc.*) beside names whose one type is settled (catalogued or decided with probability
        ``_SETTLED_IN_LIST``), takes that type when the decision found it plausible
        (``private mean estimation and private federated learning``; ``SNL, MetaPruning,
        etc.``). ``p_of``: the decision's probabilities per candidate ``id``."""
        def sure(c: Candidate, at: float) -> bool:
            return bool(c.kb_id) or p_of[id(c)][classes.index(c.label)] >= at

        for group in cls._lists(doc, kept):
            glue = {t.lower_ for a, b in zip(group, group[1:]) for t in doc[a.end:b.start]}
            if not glue & {"and", "or"} and "etc" not in doc[group[-1].end:group[-1].end + 2].text.lower():
                continue  # ``X, Y``: as often an apposition as a list
            settled = {c.label for c in group if sure(c, _SETTLED_IN_LIST)}
            if len(settled) != 1:
                continue
            label = settled.pop()
            for c in group:
                p = p_of[id(c)]
                if c.label != label and not sure(c, _UNSURE_IN_LIST) and p[classes.index(label)] >= _PLAUSIBLE_IN_LIST:
                    for mention in kept:  # every mention of the name (they share the decision's p)
                        if p_of[id(mention)] is p:
                            mention.label = label

    @staticmethod
    def _lists(doc: Doc, chosen: list[Candidate]):
        """Runs of candidates separated only by commas and conjunctions."""
        group: list[Candidate] = []
        for c in chosen:
            if group:
                between = doc[group[-1].end : c.start]
                if len(between) <= 2 and all(t.lower_ in _LIST_GLUE for t in between):
                    group.append(c)
                    continue
                if len(group) > 1:
                    yield group
            group = [c]
        if len(group) > 1:
            yield group
