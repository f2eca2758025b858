"""Step 3: each kept value of a sentence as a result record, its fields attributed by syntax and
proximity (lists of values paired with the lists beside them in order, a field the sentence does
not state left empty)."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.results.actors import _baseline, _baseline_marked, _owner, _subject
from kg.extract.results.candidates import Candidate
from kg.extract.results.direction import _direction
from kg.extract.results.metric import IMPROVEMENT, _metric
from kg.extract.results.phrases import _name
from kg.extract.results.places import _claimed, _in_stretch
from kg.extract.results.setting import _setting
from kg.extract.results.stretches import _Stretch, _stretches
from kg.extract.results.values import parse_value
from kg.extract.results.words import _ACTORS, _FINITE, _LISTING
from kg.extract.sentences import sentence_words
from kg.extract.title_names import TITLE


def _lists(doc: Doc, sent: Span, ents: list[Span], values: list[Span]) -> dict[str, dict[int, Span]]:
    """Entities listed once per value, in order (kind -> value index -> entity): over all the
    sentence's values when it says ``respectively`` (``X, Y and Z reach 67%, 87% and 94%,
    respectively``), and over each run of values listed together (``72.3%, 76.4% and 74.2% mIoU on
    S3DIS, ScanNet V2 and SemanticKITTI``; ``on A and B ... by 3.73% and 4.11%``), for its
    metrics, datasets and tasks."""
    groups = []
    if "respectively" in sentence_words(sent):
        groups.append((list(range(len(values))), ("metric", "dataset", "task", "subject")))
    groups += [(run, ("metric", "dataset", "task")) for run in _value_runs(doc, values)]
    found: dict[str, dict[int, Span]] = {}
    for indices, kinds in groups:
        if len(indices) < 2:
            continue
        for kind, listed in _listed_once_each(doc, sent, ents, [values[i] for i in indices], kinds).items():
            for i, entity in zip(indices, listed):
                found.setdefault(kind, {}).setdefault(i, entity)
    return found


def _value_runs(doc: Doc, values: list[Span]) -> list[list[int]]:
    """Indices of values listed together: only commas, ``and``, ``or`` between them."""
    runs: list[list[int]] = []
    for i, value in enumerate(values):
        if runs and all(t.lower_ in _LISTING for t in doc[values[runs[-1][-1]].end:value.start]):
            runs[-1].append(i)
        else:
            runs.append([i])
    return [run for run in runs if len(run) > 1]



def _listed_once_each(doc: Doc, sent: Span, ents: list[Span], values: list[Span],
                      kinds: tuple[str, ...]) -> dict[str, list[Span]]:
    """For each kind of entity listed once per value, just before the values or just after them,
    the list in order."""
    found = {}
    for kind, labels in (("metric", ("Metric",)), ("dataset", ("Dataset",)), ("task", ("Task",)),
                         ("subject", _ACTORS)):  # subjects come before their values
        if kind not in kinds:
            continue
        listed = [e for e in ents if e.label_ in labels and not (kind == "subject" and _baseline_marked(doc, sent, e))]
        after = [e for e in listed if e.start >= values[-1].end][:len(values)]
        before = [e for e in listed if e.end <= values[0].start][-len(values):]
        for group in ((before,) if kind == "subject" else (after, before)):
            if len(group) == len(values) and len({e.text.lower() for e in group}) == len(group) and all(
                    _list_gap(doc[a.end:b.start]) for a, b in zip(group, group[1:])):
                found[kind] = group
                break
    return found


def _list_gap(gap: Span) -> bool:
    """What may stand between two items of a list: commas, ``and``, ``or``, a few plain words."""
    return len(gap) <= 4 and not any(t.tag_ in _FINITE or t.lower_ in ("while", "which", "that", "but", ";")
                                     for t in gap)


def _attribute(doc: Doc, sent: Span, ents: list[Span], kept: list[Candidate], main: Span | None) -> list[dict]:
    results: list[dict] = []
    previous: dict | None = None
    stretches = _stretches(doc, sent, kept)
    listed = _lists(doc, sent, ents, [s.value for s in stretches if s is not None]) \
        if all(s is not None for s in stretches) else {}
    metrics = _back_along_lists(stretches, [_metric(doc, sent, ents, s) if s is not None else (None, None, None)
                                            for s in stretches])
    claimed = {label: _claimed(ents, label, stretches) for label in ("Dataset", "Task")}
    for n, (cand, stretch) in enumerate(zip(kept, stretches)):
        value_text, number, unit, delta = parse_value(cand.text, cand.kind)
        if stretch is None:
            continue
        metric_span, metric_name, change = _metric_of(n, metrics, listed, previous)
        baseline = _baseline(doc, sent, ents, stretch)
        carried = listed["subject"][n] if n in listed.get("subject", {}) else \
            _subject(doc, sent, ents, stretch, previous, main)
        subject = _owner(doc, ents, stretch) or carried
        if baseline is not None and subject is not None and baseline.text.lower() == subject.text.lower():
            baseline = None
        if change is not None and delta is None and cand.kind != "paren":
            delta, number = value_text, None  # ``improves accuracy by 5%``: the 5% is a change
        result = {
            "value": value_text,
            "number": number,
            "unit": unit,
            "delta": delta,
            "start": cand.start,
            "end": cand.end,
            "sentence": (sent.start_char, sent.end_char),
            "metric": metric_name,
            "metric_entity": _offsets(metric_span),
            "subject": _actor_offsets(doc, subject),
            "dataset": _offsets(_place(ents, "Dataset", n, stretch, listed, claimed)),
            "task": _offsets(_place(ents, "Task", n, stretch, listed, claimed)),
            "baseline": _offsets(baseline),
            "direction": _direction(metric_name, change),
            "setting": _setting(sent, ents),
        }
        results.append(result)
        previous = {**result, "_metric": metric_span, "_subject": carried, "_change": change}
    return results


def _back_along_lists(stretches: list[_Stretch | None], metrics: list[tuple]) -> list[tuple]:
    """A value without a metric takes that of the value coordinated after it, back along the list
    (``9.0%, 26.3%, 20.1% and 12.2% performance gain``, ``98% and 93% sequential encoding
    performance``), keeping its own change."""
    metrics = list(metrics)
    for n in range(len(metrics) - 2, -1, -1):
        here, following = stretches[n], stretches[n + 1]
        if metrics[n][1] is None and here is not None and following is not None and \
                following.reach == here.reach and metrics[n + 1][1] is not None:
            metrics[n] = (*metrics[n + 1][:2], metrics[n][2])
    return metrics


def _metric_of(n: int, metrics: list[tuple], listed: dict[str, dict[int, Span]], previous: dict | None) -> tuple:
    """The n-th value's ``(entity, name, change)``: a list's (:func:`_lists`), else its own (or that
    of the values coordinated after it, :func:`_back_along_lists`), else the previous value's (``by
    1.8% in X and up to 8% in Y``: both changes), which also names what an unnamed improvement is
    of when the values before it measure one thing (``75.7% robust accuracy, surpassing X by
    +4.8%``)."""
    metric_span, metric_name, change = metrics[n]
    if n in listed.get("metric", {}):
        metric_span = listed["metric"][n]
        metric_name = _name(metric_span)
    earlier = {name.lower() for _, name, _ in metrics[:n] if name}
    if previous is not None and (metric_name is None or (
            metric_span is None and metric_name == IMPROVEMENT and previous["_metric"] is not None
            and len(earlier) == 1)):
        metric_span, metric_name = previous["_metric"], previous["metric"]
        change = change or previous["_change"]
    return metric_span, metric_name, change


def _place(ents: list[Span], label: str, n: int, stretch: _Stretch, listed: dict[str, dict[int, Span]],
           claimed: dict[str, set]) -> Span | None:
    """The n-th value's Dataset or Task: the one the value stands in parentheses after
    (``on ImageNet (+10.07%) and CIFAR-10 (+3.88%)``), else a list's (:func:`_lists`), else the one
    of its stretch."""
    bracketed = _bracketed_after(ents, label, stretch)
    if bracketed is not None:
        return bracketed
    if n in listed.get(label.lower(), {}):
        return listed[label.lower()][n]
    return _in_stretch(ents, label, stretch, claimed[label])


def _bracketed_after(ents: list[Span], label: str, stretch: _Stretch) -> Span | None:
    """The entity of ``label`` right before the parenthesis the value opens."""
    value = stretch.value
    opening = value.start - 1
    if opening < 1 or value.doc[opening].text != "(":
        return None
    return next((e for e in ents if e.label_ == label and e.end == opening), None)


def _actor_offsets(doc: Doc, span: Span | None) -> tuple | None:
    """A subject's offsets; marked ``(TITLE, start, end)`` for the title's name (a span of the title)."""
    if span is None or span.doc is doc:
        return _offsets(span)
    return (TITLE, span.start_char, span.end_char)


def _offsets(span: Span | None) -> tuple[int, int] | None:
    return (span.start_char, span.end_char) if span is not None else None
