"""Numeric results as leaderboard entries: a value with its metric, subject, dataset, task and baseline.

Three steps, each general (no names or abstracts are listed here):

1. **Candidates.** Every number a result can be stated with (:data:`VALUE`):
   percentages, multiples (``4.5×``, ``3 times``, ``2-fold``), points, ranges
   (``4-16%``, ``1.1x~3.4x``), changes (``from 31.2% to 44.6%``, ``5% → 45.3%``,
   ``+3.4``, ``44.9 (+2.8)%``), orders of magnitude, and bare scores next to a
   Metric entity (``BLEU 31.5``, ``FID of 5.17``, ``50.9 AP``). Numbers inside
   a name (``GPT-4``, ``ResNet-50``) and model sizes (``7B``) are not candidates.
2. **Is it a result?** A logistic regression (:class:`~kg.extract.linear.LinearModel`,
   ``kg train-linear results``) over the candidate's shape and the words around it
   tells a result (``improves accuracy by 5%``) from a proportion or a setting
   (``5% of the data``, ``a 10% noise rate``). Without a model every candidate is kept.
3. **Attribution by syntax and proximity** within the sentence, each field left
   empty when the sentence does not state it:

   - metric: a Metric entity bound to the value (``50.9 AP``, ``AP of 50.9``,
     ``improves AP by 3.4``, ``3.4 gain in AP``), else the noun phrase the value
     measures (``77.3% training time``, ``reduces question count by 20%``);
   - subject: the actor (Method or Model) that states the value as the subject of
     its clause (``GPT-4 achieves 80%``), else the paper's proposed method or model;
     none when the paper names none (the result is the paper's);
   - dataset and task: the Dataset / Task entity of the value's clause (``on X``),
     else the sentence's only one;
   - baseline: an actor after ``over``, ``than``, ``compared with``, ``outperforms`` ...;
   - direction: which way is better, from the metric (error, time: lower) or the
     change stated (improves: higher; reduces: lower);
   - setting: shots, model sizes, bit widths and epochs the sentence states.

The value's parts: ``number`` is the score it states (the second of ``from X to
Y``; none for a change or a range), ``delta`` the change it states
(``+3.4``, ``4.5x`` speed-up, the ``+2.8%`` of ``44.9% (+2.8%)``), ``unit`` its
unit (``%``, ``x``, ``pp``). Stored as dicts with character offsets (clean text)
in ``doc._.kg_results``; entity fields are ``(start_char, end_char)`` of a span.

Examples
--------
>>> VALUE.search("improves BLEU by up to 2.5 points").group(0)
'up to 2.5 points'
>>> [m.group(0) for m in VALUE.finditer("from 31.2% to 44.6% (43% relative)")]
['from 31.2% to 44.6%', '43%']
>>> parse_value("44.9 (+2.8)%")
('44.9% (+2.8%)', 44.9, '%', '+2.8%')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from kg.extract.linear import LinearModel
from kg.extract.sentences import spans_by_sentence

__all__ = ["ResultFinder", "VALUE", "Candidate", "parse_value", "result_candidates", "candidate_features"]

if not Doc.has_extension("kg_results"):
    Doc.set_extension("kg_results", default=[])

MODELS_DIR = Path(__file__).with_name("models")

_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])|\d+(?:\.\d+)?)"
_UNIT = (r"(?:\s?%\s?points?\b|\s?%|\s?×|x(?![\w])|\s?-?fold\b|\s?times\b|\s?percentage[- ]points?\b|\s?points?\b|\s?pp\b"
         r"|\s?p\.p\.|\s?percent\b)")
_APPROX = (r"(?:(?:up to|over|more than|nearly|almost|around|about|approximately|roughly|at least|at most|"
           r"as much as|as high as|as low as|an average of|on average|average of|maximum|max\.?|"
           r"~|∼|≈|>|<|≥|≤)\s*)*")
_WORD_NUMBER = r"(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|several|multiple)"
_ARROW = r"(?:→|->|⇒|⟶|-->)"
_RANGE = r"(?:\s?(?:-|–|−|~|∼)\s?|\s(?:to)\s)"
VALUE = re.compile(
    rf"{_APPROX}(?:"
    rf"(?P<from>from\s{_NUM}{_UNIT}?[KMB]?\sto\s{_NUM}{_UNIT}?[KMB]?(?!\w|\.\d))"
    rf"|(?P<arrow>{_NUM}{_UNIT}?[KMB]?\s?{_ARROW}\s?{_NUM}{_UNIT}?[KMB]?(?!\w|\.\d))"
    rf"|(?P<paren>{_NUM}{_UNIT}?\s?\(\s?\+\s?{_NUM}{_UNIT}?\s?\){_UNIT}?)"
    rf"|(?P<range>{_NUM}{_UNIT}?{_RANGE}{_NUM}{_UNIT})"
    rf"|(?P<factor>(?:a\s)?factor of (?:{_NUM}(?:\s?(?:-|–|to)\s?{_NUM})?x?|{_WORD_NUMBER})(?!\w|\.\d))"
    rf"|(?P<magnitude>(?:{_WORD_NUMBER}\s|\d+\s)?orders?[- ]of[- ]magnitude)"
    rf"|(?P<signed>(?<![\w.])\+\s?{_NUM}{_UNIT}?)"
    rf"|(?P<unit>{_NUM}{_UNIT})"
    rf"|(?P<bare>(?<![\w.\-/]){_NUM}(?![\w\-/]|\.\d))"
    rf")(?:\son average)?",
    re.IGNORECASE,
)

_NUMBER_RE = re.compile(_NUM)
_UNIT_NAMES = (("% point", "pp"), ("percentage point", "pp"), ("p.p.", "pp"), ("%", "%"), ("percent", "%"),
               ("×", "x"), ("fold", "x"), ("times", "x"), ("x", "x"), ("pp", "pp"), ("point", "points"))


@dataclass(frozen=True)
class Candidate:
    """A number that may state a result: its char span in the doc and its shape."""

    start: int
    end: int
    text: str
    kind: str  # from, arrow, paren, range, factor, magnitude, signed, unit, bare


def _unit_of(text: str) -> str | None:
    lower = text.lower()
    tail = lower.rstrip(" )")
    for surface, unit in _UNIT_NAMES:
        if surface == "x":
            if re.search(r"\d\s?x$", tail):
                return "x"
        elif surface in lower:
            return unit
    return None


def parse_value(text: str, kind: str | None = None) -> tuple[str, float | None, str | None, str | None]:
    """``(value, number, unit, delta)`` of a value as stated: the value cleaned (``->`` for arrows,
    ``x`` for ×), the score it states (none for a change or a range), its unit, and the change
    it states (``+2.8%``; a multiple or a signed number is itself a change).

    >>> parse_value("from 73% to 93.4%")
    ('73% -> 93.4%', 93.4, '%', None)
    >>> parse_value("up to 4.5×"), parse_value("+3.4")
    (('up to 4.5x', None, 'x', 'up to 4.5x'), ('+3.4', None, None, '+3.4'))
    """
    value = " ".join(text.replace("×", "x").replace("−", "-").replace("∼", "~").split())
    value = re.sub(r"(\d)\s+x\b", r"\1x", value)
    value = re.sub(r"\s?(?:→|⇒|⟶|-->)\s?", " -> ", value)
    value = re.sub(r"\s?->\s?", " -> ", value)
    numbers = [float(n.replace(",", "")) for n in _NUMBER_RE.findall(value)]
    paren = re.fullmatch(rf"(.*?{_NUM})\s?({_UNIT})?\s?\(\s?(\+\s?{_NUM})\s?({_UNIT})?\s?\)\s?({_UNIT})?", value,
                         re.IGNORECASE)
    if paren:
        unit_text = (paren.group(2) or paren.group(5) or "").strip()
        delta_unit = (paren.group(4) or paren.group(5) or "").strip()
        delta = paren.group(3).replace(" ", "") + delta_unit
        value = f"{paren.group(1)}{unit_text} ({delta})"
        return value, numbers[0], _unit_of(unit_text) if unit_text else None, delta
    if value.lower().startswith("from ") and " to " in value:
        value = re.sub(r"(?i)^from\s+(.*?)\s+to\s+", r"\1 -> ", value)
    unit = _unit_of(value)
    if " -> " in value:
        return value, numbers[-1] if numbers else None, unit, None
    if value.lstrip("~<>≈≥≤ ").startswith("+") or unit in ("x", "pp") or (kind in ("factor", "magnitude")):
        return value, None, unit, value
    if kind == "range" or (len(numbers) > 1 and kind != "paren"):
        return value, None, unit, None
    return value, numbers[0] if numbers else None, unit, None


# ------------------------------------------------------------------------ words

_CHANGE_NOUNS = re.compile(
    r"^(?:improvements?|increases?|gains?|boosts?|reductions?|decreases?|drops?|savings?|"
    r"advantages?|margins?|enhancements?|lifts?|jumps?)$", re.IGNORECASE)
_UP = frozenset("improve improves improved improving improvement improvements increase increases increased "
                "increasing boost boosts boosted boosting gain gains higher better faster more raise raises "
                "outperform outperforms outperforming outperformed surpass surpasses surpassing speedup "
                "speed-up speedups accelerate accelerates accelerating acceleration up enhance enhances "
                "enhancing exceeds exceeding".split())
_DOWN = frozenset("reduce reduces reduced reducing reduction reductions decrease decreases decreased decreasing "
                  "lower lowers lowering fewer less save saves saving savings cut cuts cutting drop drops "
                  "shrink shrinks smaller down".split())
_LOWER_BETTER = frozenset("error errors loss losses time latency latencies memory cost costs perplexity fid "
                          "wer cer rmse mae mse regret violation violations overhead energy flops size steps "
                          "queries toxicity fpr fpr95 runtime distance consumption footprint usage "
                          "epe ece kid lpips bpd nll mape smape divergence gap count".split())
_HIGHER_BETTER = frozenset("accuracy accuracies precision recall f1 f-score auc auroc auprc ap map miou iou "
                           "bleu rouge rouge-1 rouge-2 rouge-l meteor cider success throughput "
                           "speedup speed-up speed win reward rewards return returns ndcg psnr ssim gain "
                           "improvement efficiency robustness fidelity coverage pass@1 pass@k hit@1 "
                           "mrr em pq hiou nds correlation".split())
#: Head nouns of a measured quantity the text may not name as a metric (``context length``).
_MEASURES = _LOWER_BETTER | _HIGHER_BETTER | frozenset(
    "length lengths horizon window capacity depth width resolution size".split())
#: Words that say nothing of the direction: the word before them does (``FID score``, ``error rate``).
_UNINFORMATIVE = frozenset("score scores rate rates value values metric metrics".split())
_BASELINE_BEFORE = frozenset("over than vs vs. versus against outperforms outperform outperforming outperformed "
                             "surpasses surpass surpassing beats beat beating exceeds exceeding relative "
                             "baseline baselines compared comparing previous prior".split())
_WE = frozenset("we our ours us this proposed".split())
_PREPOSITIONS = frozenset("with using on of for by from via in into to under against over than across "
                          "like as between among".split())
_METRIC_GLUE = frozenset("of = : is was are were score scores reaches reaching reached achieves achieving "
                         "achieved attains attaining obtains obtaining a an the to at with by".split())
_SETTING = re.compile(
    r"\b(?:zero|one|few|\d+)-shot\b|\b\d+(?:\.\d+)?\s?[BM]\b(?!-)|\b\d+-bit\b|\b\d+\s?epochs?\b"
    r"|\blinear[- ]prob(?:e|ing)\b|\bfine-?tun(?:ed|ing)\b|\bfrom scratch\b|\bsingle[- ]model\b",
    re.IGNORECASE)
_VALUE_METRIC_GLUE = frozenset("in of % points point higher lower better absolute relative improvement gain "
                               "increase average mean".split())
_SCORE_VERBS = frozenset("achieves achieve achieving achieved reaches reaching reached obtains obtaining "
                         "obtained attains attaining attained scores scoring yields yielding".split())
_NOT_RESULT_WORDS = frozenset("parameters parameter params data samples examples labels layers tokens".split())


def result_candidates(doc: Doc, sent: Span, entities: list[Span]) -> list[Candidate]:
    """The numbers of one sentence that may state a result (shape only; step 1 of the module)."""
    text, offset = sent.text, sent.start_char
    metrics = [e for e in entities if e.label_ == "Metric"]
    found: list[Candidate] = []
    for match in VALUE.finditer(text):
        kind = next(k for k, v in match.groupdict().items() if v is not None)
        start, end = offset + match.start(), offset + match.end()
        if any(e.start_char <= start < e.end_char or e.start_char < end <= e.end_char for e in entities):
            continue  # a number inside a name (GPT-4, ResNet-50, 8x7B)
        if kind == "bare" and not (_next_to_metric(doc, start, end, metrics) or _after_score_verb(doc, start, end)
                                   or _listed_after(doc, start, found)):
            continue
        found.append(Candidate(start, end, match.group(0), kind))
    return found


def _listed_after(doc: Doc, start: int, found: list[Candidate]) -> bool:
    """``FID of 2.97 on CIFAR-10 and 5.80 on CelebA``: a bare number listed after a score."""
    value = _tokens(doc, start, start + 1)
    if not found or value is None or value.start == 0 or doc[value.start - 1].lower_ not in ("and", ",", "/"):
        return False
    last = _tokens(doc, found[-1].start, found[-1].end)
    return last is not None and found[-1].kind == "bare" and value.start - last.end <= 12


def _tokens(doc: Doc, start: int, end: int) -> Span | None:
    return doc.char_span(start, end, alignment_mode="expand")


def _next_to_metric(doc: Doc, start: int, end: int, metrics: list[Span]) -> bool:
    """A bare number is a score only next to a metric: ``BLEU 31.5``, ``FID of 5.17``, ``50.9 AP``,
    ``by 8.0 in average F-score``."""
    value = _tokens(doc, start, end)
    if value is None:
        return False
    for metric in metrics:
        if 0 <= value.start - metric.end <= 3 and all(
            t.lower_ in _METRIC_GLUE or t.is_punct for t in doc[metric.end:value.start]
        ):
            return True
        if 0 <= metric.start - value.end <= 3 and all(t.lower_ in _VALUE_METRIC_GLUE for t in
                                                       doc[value.end:metric.start]):
            return True
    return False


def _after_score_verb(doc: Doc, start: int, end: int) -> bool:
    """``achieves 50.9 (ResNet-50) / 58.1 AP``: a bare number right after a verb of scoring."""
    value = _tokens(doc, start, end)
    if value is None or value.start == 0:
        return False
    before = doc[max(0, value.start - 2):value.start]
    return any(t.lower_ in _SCORE_VERBS for t in before)


def candidate_features(doc: Doc, sent: Span, entities: list[Span], cand: Candidate,
                       position: str) -> list[str]:
    """What the is-it-a-result decision sees: the value's shape and the words around it."""
    value = _tokens(doc, cand.start, cand.end)
    feats = _shape_features(cand, position)
    if value is None:
        return feats
    before = [t.lower_ for t in doc[max(sent.start, value.start - 4):value.start]]
    after = [t.lower_ for t in doc[value.end:min(sent.end, value.end + 4)]]
    return feats + _word_features(before, after, cand.kind) + _context_features(doc, sent, entities, value)


#: Words of a value that say it is a bound or an estimate (``up to 5%``, ``~3x``).
_APPROX_FEATURES = ("up to", "over", "more than", "around", "about", "at least", "on average", "nearly",
                    "average", "~", ">", "<", "less than")


def _shape_features(cand: Candidate, position: str) -> list[str]:
    """The value's own features: its kind, unit, bounds, size and the sentence's place in the text."""
    _, number, unit, delta = parse_value(cand.text, cand.kind)
    feats = [f"kind={cand.kind}", f"unit={unit}", f"delta={delta is not None}", f"pos={position}"]
    lower = cand.text.lower()
    feats += [f"approx={approx}" for approx in _APPROX_FEATURES if approx in lower]
    if number is not None:
        feats.append("big" if number > 100 else "decimal" if number != int(number) else "integer")
    return feats


def _word_features(before: list[str], after: list[str], kind: str) -> list[str]:
    """The words just before and after the value, alone, in pairs and with the value's kind."""
    feats = [f"b{i + 1}={word}" for i, word in enumerate(reversed(before))]
    feats += [f"a{i + 1}={word}" for i, word in enumerate(after)]
    if before:
        feats.append(f"b1|kind={before[-1]}|{kind}")
    if after:
        feats.append(f"a1|kind={after[0]}|{kind}")
    if len(after) > 1:
        feats.append(f"a12={after[0]} {after[1]}")
    if len(before) > 1:
        feats.append(f"b21={before[-2]} {before[-1]}")
    return feats


def _context_features(doc: Doc, sent: Span, entities: list[Span], value: Span) -> list[str]:
    """The sentence around the value: content words near it, entities near it and in the sentence,
    ``we``, a parenthesis before it and a counted quantity after it (``5% of the data``)."""
    window = doc[max(sent.start, value.start - 10):min(sent.end, value.end + 6)]
    feats = sorted({f"w={t.lower_}" for t in window if t.pos_ in ("VERB", "NOUN", "ADJ", "ADV")})
    near = [e for e in entities if -4 <= e.start - value.end <= 4 or -4 <= value.start - e.end <= 4]
    feats += sorted({f"near={e.label_}" for e in near})
    feats += sorted({f"in_sent={e.label_}" for e in entities})
    if any(t.lower_ in _WE for t in sent):
        feats.append("we")
    if value.start > sent.start and doc[value.start - 1].text in "([":
        feats.append("in_parens")
    if any(t.lower_ in _NOT_RESULT_WORDS for t in doc[value.end:min(sent.end, value.end + 3)]):
        feats.append("then_quantity")
    return feats


# ------------------------------------------------------------------------ component


@Language.factory(
    "kg_results",
    assigns=["doc._.kg_results"],
    requires=["doc.spans"],
    default_config={"spans_key": "kg_entities", "proposed_key": "kg_proposed", "model": "results.npz",
                    "threshold": 0.5},
)
def make_result_finder(nlp: Language, name: str, spans_key: str, proposed_key: str, model: str,
                       threshold: float):
    return ResultFinder(spans_key=spans_key, proposed_key=proposed_key, model=model, threshold=threshold)


class ResultFinder:
    def __init__(self, *, spans_key: str, proposed_key: str, model: str = "", threshold: float = 0.5) -> None:
        self.spans_key = spans_key
        self.proposed_key = proposed_key
        self.threshold = threshold
        path = Path(model) if model and Path(model).is_file() else MODELS_DIR / model if model else None
        self.classifier = LinearModel.load(path) if path is not None and path.is_file() else None

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed = list(doc.spans.get(self.proposed_key, []))
        main = next((p for p in proposed if p.label_ in _ACTORS), None)
        sentences = spans_by_sentence(doc, entities)
        results = []
        for n, (sent, in_sent) in enumerate(sentences):
            position = "first" if n == 0 else "last" if n == len(sentences) - 1 else "middle"
            kept = [c for c in result_candidates(doc, sent, in_sent)
                    if self.is_result(doc, sent, in_sent, c, position)]
            results += _attribute(doc, sent, in_sent, kept, main)
        doc._.kg_results = results
        return doc

    def is_result(self, doc: Doc, sent: Span, entities: list[Span], cand: Candidate, position: str) -> bool:
        if self.classifier is None:
            return True
        features = candidate_features(doc, sent, entities, cand, position)
        return self.classifier.probability(features, "result") >= self.threshold


_ACTORS = ("Method", "Model")


@dataclass
class _Stretch:
    """A value's part of its sentence: tokens ``left``..value..``right`` (bounded by the values
    around it, ``right`` reaching past values coordinated with it: ``44.9 AP and 46.5 AP in X``)."""

    value: Span
    left: int
    right: int
    reach: int


def _stretches(doc: Doc, sent: Span, kept: list[Candidate]) -> list[_Stretch | None]:
    spans = [_tokens(doc, c.start, c.end) for c in kept]
    out: list[_Stretch | None] = []
    for i, value in enumerate(spans):
        if value is None:
            out.append(None)
            continue
        left = next((s.end for s in reversed(spans[:i]) if s is not None), sent.start)
        right = next((s.start for s in spans[i + 1:] if s is not None), sent.end)
        out.append(_Stretch(value, left, right, right))
    for i in range(len(out) - 2, -1, -1):  # coordinated values share what follows the last of them
        this, after = out[i], out[i + 1]
        if this is not None and after is not None and _coordinated(doc[this.value.end:after.value.start]):
            this.reach = after.reach
    return out


def _coordinated(gap: Span) -> bool:
    """Only conjunctions, punctuation, units and metric words between two values."""
    return all(t.lower_ in ("and", ",", "/", "or", "%", "(", ")", "respectively", "as", "well") or
               t.pos_ in ("NOUN", "PROPN", "NUM", "SYM") for t in gap) and len(gap) <= 6


def _respectively(doc: Doc, sent: Span, ents: list[Span], values: list[Span]) -> dict[str, list[Span]]:
    """``X, Y and Z reach 67%, 87% and 94%, respectively``: for each kind of entity listed once per
    value, just before the values or just after them, the list in order."""
    if len(values) < 2 or not any(t.lower_ == "respectively" for t in sent):
        return {}
    found = {}
    for kind, labels in (("metric", ("Metric",)), ("dataset", ("Dataset",)), ("task", ("Task",)),
                         ("subject", _ACTORS)):  # subjects come before their values
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
    listed = _respectively(doc, sent, ents, [s.value for s in stretches if s is not None]) \
        if all(s is not None for s in stretches) else {}
    metrics = [_metric(doc, sent, ents, s) if s is not None else (None, None, None) for s in stretches]
    claimed = {label: _claimed(ents, label, stretches) for label in ("Dataset", "Task")}
    for n, (cand, stretch) in enumerate(zip(kept, stretches)):
        value_text, number, unit, delta = parse_value(cand.text, cand.kind)
        if stretch is None:
            continue
        metric_span, metric_name, change = _metric_of(n, stretches, metrics, listed, previous)
        baseline = _baseline(doc, sent, ents, stretch)
        subject = listed["subject"][n] if "subject" in listed else \
            _subject(doc, sent, ents, stretch, previous, main)
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
            "subject": _offsets(subject),
            "dataset": _offsets(_place(ents, "Dataset", n, stretch, listed, claimed)),
            "task": _offsets(_place(ents, "Task", n, stretch, listed, claimed)),
            "baseline": _offsets(baseline),
            "direction": _direction(metric_name, change),
            "setting": _setting(sent, ents),
        }
        results.append(result)
        previous = {**result, "_metric": metric_span, "_subject": subject, "_change": change}
    return results


def _metric_of(n: int, stretches: list[_Stretch | None], metrics: list[tuple], listed: dict[str, list[Span]],
               previous: dict | None) -> tuple:
    """The n-th value's ``(entity, name, change)``: a ``respectively`` list's, else its own, else that
    of the value coordinated after it (``98% and 93% sequential encoding performance``), else the
    previous value's (``by 1.8% in X and up to 8% in Y``: both changes)."""
    metric_span, metric_name, change = metrics[n]
    if "metric" in listed:
        metric_span = listed["metric"][n]
        metric_name = _name(metric_span)
    following = stretches[n + 1] if n + 1 < len(stretches) else None
    if metric_name is None and following is not None and following.reach == stretches[n].reach and \
            metrics[n + 1][1] is not None:
        metric_span, metric_name = metrics[n + 1][:2]
    if metric_name is None and previous is not None:
        metric_span, metric_name = previous["_metric"], previous["metric"]
        change = change or previous["_change"]
    return metric_span, metric_name, change


def _place(ents: list[Span], label: str, n: int, stretch: _Stretch, listed: dict[str, list[Span]],
           claimed: dict[str, set]) -> Span | None:
    """The n-th value's Dataset or Task: a ``respectively`` list's, else the one of its stretch."""
    if label.lower() in listed:
        return listed[label.lower()][n]
    return _in_stretch(ents, label, stretch, claimed[label])


def _gap_ok(gap: Span) -> bool:
    """Words that may stand between a value and its metric: ``3.4% gain in AP``, ``91% pass@1``."""
    return all(t.text in "%-/" or t.lower_ in ("in", "of") or t.pos_ in ("ADJ", "NOUN", "PROPN", "NUM")
               for t in gap)


@dataclass(frozen=True)
class _Context:
    """A value in its sentence, as the metric rules see it, with the change it states."""

    doc: Doc
    sent: Span
    ents: list[Span]
    metrics: list[Span]
    stretch: _Stretch
    change: str | None

    def bound(self, metric: Span) -> tuple:
        """A Metric entity the value states."""
        return metric, _name(metric), self.change

    def named(self, phrase: Span | None) -> tuple | None:
        """A phrase the value measures, named by the Metric entity inside it if any."""
        if phrase is None:
            return None
        inside = next((m for m in self.metrics if m.start < phrase.end and phrase.start < m.end), None)
        return inside, _name(inside) if inside is not None else _name(phrase), self.change


def _metric(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch):
    """(Metric entity or None, metric name or None, ``up``/``down`` if the value is a stated change):
    the first of :data:`_METRIC_RULES` that finds one."""
    metrics = [e for e in ents if e.label_ == "Metric"]
    context = _Context(doc, sent, ents, metrics, stretch, _change(doc, sent, stretch.value, stretch.left))
    for rule in _METRIC_RULES:
        found = rule(context)
        if found is not None:
            return found
    return None, None, context.change


#: Verbs that state a change by the value that follows them (``saving 40%``, ``sacrificing 1%``).
_DOWN_VERBS = ("reduc", "decreas", "lower", "cut", "sav", "sacrific", "drop", "los", "shrink")
_CHANGE_VERBS = ("improv", "increas", "boost", "rais", "enhanc", "accelerat", "speed", "gain", *_DOWN_VERBS)
_COUNT_NOUNS = frozenset("number amount fraction percentage share proportion count".split())
_COMPARATIVES = frozenset("faster quicker fewer less lower higher more smaller larger better".split())
_APPROX_WORDS = frozenset("up to over about around nearly almost approximately roughly merely only just at "
                          "least most ~ ∼ > <".split())
_GENERIC_HEADS = frozenset("result results method methods baseline baselines approach approaches model models "
                           "art work works competitor competitors technique techniques counterpart "
                           "counterparts state sota algorithm algorithms".split())
#: Head nouns of a measure a value can be a share of (``4.55% of its inference cost``).
_SHARED_MEASURES = _LOWER_BETTER | _HIGHER_BETTER | {"performance"}
#: Words that introduce examples of a noun phrase (``gains, namely 5% -> 45.3%``).
_NAMELY = ("namely", "i.e.", "e.g.", "e.g", "i.e", "such", "including")
#: Words between a margin and its ``by`` (``by a margin of about 5%``).
_BY_MARGIN = _APPROX_WORDS | {"by", "a", "an", "average", "margin", "of"}


def _metric_right_after(c: _Context) -> tuple | None:
    """``50.9 AP``, ``3.4% gain in AP``, ``91% pass@1 accuracy``: a Metric entity just after the value."""
    value = c.stretch.value
    for metric in c.metrics:
        if 0 <= metric.start - value.end <= 4 and _gap_ok(c.doc[value.end:metric.start]):
            return c.bound(metric)
    return None


def _comparative(c: _Context) -> tuple | None:
    """``2.45x faster inference time``, ``5.9x fewer parameters``: the nouns after a comparative;
    ``3x faster`` alone is a speed-up."""
    doc, after = c.doc, c.stretch.value.end
    if after >= c.sent.end or doc[after].lower_ not in _COMPARATIVES:
        return None
    faster = doc[after].lower_ in ("faster", "quicker")
    phrase = _noun_phrase_from(doc, c.sent, after + 1)
    if phrase is not None and (not faster or c.named(phrase)[0] is not None):
        return c.named(phrase)
    return (None, "speedup", "up") if faster else None


def _nouns_right_after(c: _Context) -> tuple | None:
    """``by 10.86% accuracy points``: a noun right after the value says what it measures."""
    phrase = _noun_after(c.doc, c.sent, c.stretch.value)
    return (None, phrase, c.change) if phrase else None


def _share_of(c: _Context) -> tuple | None:
    """``at 4.55% of its inference cost``: a share of a measure."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    if value.end + 1 >= sent.end or doc[value.end].lower_ != "of":
        return None
    i = value.end + 1
    while i < sent.end and doc[i].pos_ in ("DET", "PRON"):
        i += 1
    measure = _noun_phrase_from(doc, sent, i)
    if measure is not None and (c.named(measure)[0] is not None or measure[-1].lower_ in _SHARED_MEASURES):
        return c.named(measure)
    return None


def _speed_up(c: _Context) -> tuple | None:
    """``speeds up decoding by 1.8x``: a speed-up."""
    return (None, "speedup", "up") if _sped_up(c.doc, c.sent, c.stretch.value) else None


def _changed_before(c: _Context) -> tuple | None:
    """``reduces question count by 20%``, ``improves accuracy by 5%``: what the value changes."""
    return c.named(_measured_before(c.doc, c.sent, c.ents, c.stretch.value))


def _metric_right_before(c: _Context) -> tuple | None:
    """``AP of 50.9``, ``BLEU 31.5``, ``accuracy: 91%``: a Metric entity just before the value."""
    value = c.stretch.value
    for metric in sorted(c.metrics, key=lambda m: -m.end):
        gap = c.doc[metric.end:value.start]
        if 0 <= value.start - metric.end <= 4 and all(t.lower_ in _METRIC_GLUE or t.text in ":=(" for t in gap):
            return c.bound(metric)
    return None


def _object_of_change(c: _Context) -> tuple | None:
    """``improves AP on LVIS rare classes ... from 31.2% to 44.6%``, ``extends the context length
    from 4K to 32K``: the object of the nearest change verb before the value."""
    doc, value = c.doc, c.stretch.value
    verb = next((i for i in range(value.start - 1, c.stretch.left - 1, -1) if doc[i].pos_ == "VERB" and (
        doc[i].lower_ in _UP or doc[i].lower_ in _DOWN or doc[i].lower_.startswith("extend"))), None)
    if verb is None:
        return None
    hit = next((m for m in c.metrics if 0 < m.start - verb <= 3), None)
    if hit is not None:
        return c.bound(hit)
    j = verb + 1
    while j < value.start and doc[j].pos_ == "DET":
        j += 1
    measure = _noun_phrase_from(doc, c.sent, j)
    return c.named(measure) if measure is not None and measure[-1].lower_ in _MEASURES else None


def _of_before(c: _Context) -> tuple | None:
    """``an average improvement of about 1.4%``, ``a mean human performance of 126.7%``."""
    doc, sent = c.doc, c.sent
    i = c.stretch.value.start - 1
    while i > sent.start and doc[i].lower_ in _APPROX_WORDS:
        i -= 1
    if i <= sent.start or doc[i].lower_ != "of":
        return None
    found = c.named(_noun_phrase_ending(doc, sent, i))
    return found if found is not None and not _generic_head(found[1]) else None


def _in_terms_of(c: _Context) -> tuple | None:
    """``by 2.4% in terms of F1-score``."""
    doc = c.doc
    for i in range(c.stretch.value.end, c.stretch.reach - 2):
        if doc[i].lower_ == "terms" and doc[i - 1].lower_ == "in" and doc[i + 1].lower_ == "of":
            hit = next((m for m in c.metrics if m.start == i + 2), None)
            if hit is not None:
                return c.bound(hit)
    return None


def _illustrated(c: _Context) -> tuple | None:
    """``large performance gains, namely 5% -> 45.3%``: the noun phrase the values illustrate
    (``gains with Best-of-N, namely``: the phrase before ``with``)."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    i = value.start - 1
    while i > c.stretch.left and (doc[i].lower_ in _NAMELY or doc[i].lower_ == "as" or doc[i].text in ",:("):
        i -= 1
    if i >= value.start - 1 or not any(t.lower_ in _NAMELY for t in doc[i + 1:value.start]):
        return None
    inside = next((e for e in c.ents if e.start <= i < e.end), None)
    if inside is not None and inside.start > sent.start and doc[inside.start - 1].lower_ in _PREPOSITIONS:
        i = inside.start - 2
    phrase = _noun_phrase_ending(doc, sent, i + 1)
    if phrase is None:
        return None
    core = [t for t in phrase if not _CHANGE_NOUNS.match(t.text)]
    if core and core[-1].pos_ in ("NOUN", "PROPN") and not _generic_head(core[-1].text):
        return c.named(doc[core[0].i:core[-1].i + 1])
    return None


def _outperforms_by(c: _Context) -> tuple | None:
    """``outperforms X by 5%``: an improvement over X."""
    doc, value, left = c.doc, c.stretch.value, c.stretch.left
    i = value.start - 1
    while i > left and doc[i].lower_ in _BY_MARGIN:
        i -= 1
    by = doc[value.start - 1].lower_ in ("by", "of") or any(t.lower_ == "by" for t in doc[i:value.start])
    if by and any(t.lower_ in _OUTPERFORM for t in doc[left:i + 1]):
        return None, "improvement", "up"
    return None


def _before_parenthesis(c: _Context) -> tuple | None:
    """``performance (1% - 2% improvements)``: the noun before the parenthesis."""
    doc, sent, value = c.doc, c.sent, c.stretch.value
    if value.start - 1 <= sent.start or doc[value.start - 1].text != "(":
        return None
    words = _noun_phrase_ending(doc, sent, value.start - 1)
    if words is None or (words.start > sent.start and (
            doc[words.start - 1].lower_ in _PREPOSITIONS or doc[words.start - 1].pos_ == "NUM")):
        return None
    return c.named(words)


#: How a value's metric is found, in order of trust; each rule returns ``(entity, name, change)`` or None.
_METRIC_RULES = (_metric_right_after, _comparative, _nouns_right_after, _share_of, _speed_up, _changed_before,
                 _metric_right_before, _object_of_change, _of_before, _in_terms_of, _illustrated, _outperforms_by,
                 _before_parenthesis)


def _generic_head(phrase: str) -> bool:
    """``the state-of-the-art methods``, ``the best published result``: what is compared, not a metric."""
    words = phrase.lower().split()
    return not words or words[-1] in _GENERIC_HEADS


def _noun_phrase_from(doc: Doc, sent: Span, i: int) -> Span | None:
    """The nouns starting at token ``i`` (``total model parameters``)."""
    end = i
    while end < sent.end and end - i < 5 and (doc[end].pos_ in ("NOUN", "PROPN", "ADJ") or doc[end].text == "-"):
        end += 1
    while end > i and doc[end - 1].pos_ == "ADJ":
        end -= 1
    return doc[i:end] if end > i and doc[end - 1].pos_ in ("NOUN", "PROPN") else None


def _sped_up(doc: Doc, sent: Span, value: Span) -> bool:
    """``speed up X by``, ``accelerates X by``: the value is a speed-up."""
    i = value.start - 1
    while i > sent.start and doc[i].lower_ in _APPROX_WORDS | {"by", "a", "an", "factor", "of"}:
        if doc[i].lower_ == "by":
            window = doc[max(sent.start, i - 6):i]
            return any(t.lower_.startswith("accelerat") and t.pos_ == "VERB" for t in window) or any(
                t.lower_ in ("speeds", "speed", "speeding") and t.i + 1 < i and doc[t.i + 1].lower_ == "up"
                for t in window)
        i -= 1
    return False


def _name(span: Span) -> str:
    return " ".join(span.text.split())


def _noun_phrase_ending(doc: Doc, sent: Span, end: int) -> Span | None:
    first = end
    while first > sent.start and end - first < 5 and doc[first - 1].pos_ in ("NOUN", "PROPN", "ADJ"):
        first -= 1
    while first < end and doc[first].pos_ == "ADJ":
        first += 1
    return doc[first:end] if first < end else None


def _noun_after(doc: Doc, sent: Span, value: Span) -> str | None:
    """``77.3% training time``, ``1.7x inference throughput speedup``, ``43% relative improvement``,
    ``3.4% gain in AP``: the nouns right after the value; a lone change noun (``increase``) names
    no metric."""
    words = _measure_words(doc[value.end:min(sent.end, value.end + 6)])
    if not words:
        return None
    text = " ".join(t.text for t in words).replace(" - ", "-")
    measured = _in_or_of(doc, sent, words[-1].i + 1)
    if measured:
        return measured
    core = [t for t in words if not _CHANGE_NOUNS.match(t.text)]
    if not core:
        return _singular(text)  # ``a 10% improvement``: an improvement, of what the text does not say
    if len(core) < len(words) and core[-1].pos_ in ("NOUN", "PROPN"):
        return " ".join(t.text for t in core if t.lower_ not in _QUALIFIERS) or text
    return text  # ``43% relative improvement``


#: Words after a value that end the phrase it measures (``5% on X``, ``5% than X``, ``5% and 7%``).
_PHRASE_ENDS = _PREPOSITIONS | {"than", "and", "or", "vs", "vs.", "versus"}
#: Words that qualify a change, not the measure (``43% relative improvement``).
_QUALIFIERS = ("relative", "absolute", "average", "overall")


def _measure_words(following: Span) -> list[Token]:
    """The nouns at the start of ``following`` (adjectives and participles inside), without the
    adjectives at the end and the units, participles and comparatives at the start
    (``25x reduced overhead``, ``5% higher accuracy``: the overhead, the accuracy)."""
    words = []
    for token in following:
        if token.lower_ in _PHRASE_ENDS or not _in_measure(token, words):
            break
        words.append(token)
    while words and (words[-1].pos_ == "ADJ" or words[-1].text == "-"):
        words.pop()
    while words and (words[0].tag_ in ("VBN", "JJR") and len(words) > 1 or words[0].lower_ in ("%", "points", "point")
                     or not any(c.isalpha() for c in words[0].text)):
        words.pop(0)
    return words


def _in_measure(token: Token, words: list[Token]) -> bool:
    """Whether the token continues the nouns after a value: a noun, adjective or hyphen, a gerund
    after them (``inference time``, ``training``), a change participle first (``reduced``)."""
    return token.pos_ in ("NOUN", "PROPN", "ADJ") or token.text == "-" or (bool(words) and token.tag_ == "VBG") or (
        not words and token.tag_ == "VBN" and token.lower_ in _UP | _DOWN)


def _singular(text: str) -> str:
    from kg.ids import singular_name

    return singular_name(text)


def _in_or_of(doc: Doc, sent: Span, i: int) -> str | None:
    """``gain in AP``: the noun phrase after ``in`` / ``of`` following a change noun."""
    if i >= sent.end or doc[i].lower_ not in ("in", "of") or not _CHANGE_NOUNS.match(doc[i - 1].text):
        return None
    words = []
    for token in doc[i + 1:min(sent.end, i + 6)]:
        if token.pos_ in ("NOUN", "PROPN", "ADJ") or token.text == "-":
            words.append(token)
            continue
        if token.pos_ == "DET" and not words:
            continue
        break
    while words and words[-1].pos_ == "ADJ":
        words.pop()
    return " ".join(t.text for t in words).replace(" - ", "-") or None


def _measured_before(doc: Doc, sent: Span, ents: list[Span], value: Span) -> Span | None:
    """``reduces KV cache memory usage by up to 75%``, ``reduces the WER of X by 6.3 points``: the
    noun phrase before *by* (the first of ``A of B``); none when it is what is compared
    (``outperforms the state-of-the-art methods by 5%``)."""
    i = value.start - 1
    while i > sent.start and doc[i].lower_ in _BY_WORDS:
        if doc[i].lower_ == "by" and doc[i - 1].lower_ not in ("factor", "a"):
            return _measured_by(doc, sent, ents, i)
        i -= 1
    return None


#: Words between a value and the *by* before it (``by a factor of up to``).
_BY_WORDS = _APPROX_WORDS | {"by", "of", "a", "an", "the", "factor", "on", "average", "than", "more", "to", "up"}


def _measured_by(doc: Doc, sent: Span, ents: list[Span], by: int) -> Span | None:
    """The noun phrase before the *by* at token ``by``, none when it is what is compared
    (``outperforms X by``, ``improves Deformable DETR by``)."""
    phrase = _noun_phrase_ending(doc, sent, by)
    if phrase is None:
        return None
    phrase, first = _first_of(doc, sent, phrase)
    before = doc[first - 1].lower_ if first > sent.start else ""
    if before in _OUTPERFORM or before in _BASELINE_BEFORE or _generic_head(phrase.text) or any(
            e.label_ in _ACTORS and e.start < phrase.end <= e.end for e in ents):
        return None
    return phrase


def _first_of(doc: Doc, sent: Span, phrase: Span) -> tuple[Span, int]:
    """The phrase, or in ``A of phrase`` the A (``the WER of the model``; ``the number of steps``
    whole), with the token its determiners start at."""
    first = _determiners_before(doc, sent, phrase.start)
    if first > sent.start + 1 and doc[first - 1].lower_ == "of":
        head = _noun_phrase_ending(doc, sent, first - 1)
        if head is not None and head.text.lower() in _COUNT_NOUNS:
            return doc[head.start:phrase.end], head.start
        if head is not None:
            return head, _determiners_before(doc, sent, head.start)
    return phrase, first


def _determiners_before(doc: Doc, sent: Span, start: int) -> int:
    """Where the phrase at token ``start`` begins with its determiners (``the``, ``a``)."""
    while start > sent.start and doc[start - 1].pos_ == "DET":
        start -= 1
    return start


def _change(doc: Doc, sent: Span, value: Span, left: int) -> str | None:
    """``up`` / ``down`` when the value is stated as a change (``a 5% gain``, ``3x faster``, ``+3.4``,
    ``saving 40%``, ``improves X by 5%``), else None."""
    if value.text.lstrip("~<>≈ ").startswith("+"):
        return "up"
    for token in doc[value.end:min(sent.end, value.end + 2)]:  # ``5% gain``, ``3x faster``, ``12% lower``
        word = token.lower_
        if word in _DOWN or word.startswith(("reduc", "decreas", "drop", "saving")):
            return "down"
        if word in _UP or _CHANGE_NOUNS.match(word):
            return "up"
        if word not in ("%", "points", "point", "relative", "absolute", "average", "overall"):
            break
    i = value.start - 1
    while i >= left and doc[i].lower_ in _APPROX_WORDS | {"a", "an", "the", "average", "of", "less", "more", "than"}:
        i -= 1
    if i >= left and doc[i].pos_ == "VERB" and doc[i].lower_.startswith(_CHANGE_VERBS):  # ``saving 40%``
        return "down" if doc[i].lower_.startswith(_DOWN_VERBS) else "up"
    if i >= left and doc[i].lower_ == "by":  # ``improves the top-1 accuracy of X by 1.4%``
        for token in reversed(doc[max(left, i - 15):i]):
            if token.lower_ in _DOWN or token.lower_.startswith(("reduc", "decreas", "sav")):
                return "down"
            if token.lower_ in _UP:
                return "up"
    return None


def _direction(metric: str | None, change: str | None) -> str | None:
    """Which way is better: from the metric's words where they say (error: lower), else from the
    change the text states (improves: higher, reduces: lower)."""
    if metric:
        words = [w for w in re.split(r"[\s/]+", metric.lower()) if w and w not in _UNINFORMATIVE]
        for word in reversed(words):  # the head decides: error rate, FID score: lower; success rate: higher
            if word in _LOWER_BETTER:
                return "lower"
            if word in _HIGHER_BETTER:
                return "higher"
    if change == "up":
        return "higher"
    if change == "down":
        return "lower"
    return None


#: Tags of finite verbs: the verb of a clause, whose subject states the value (not ``achieving``).
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_OUTPERFORM = frozenset("outperforms outperform outperforming outperformed surpasses surpass surpassing "
                        "surpassed beats beat beating exceeds exceed exceeding exceeded".split())
_COMPARE_VERBS = frozenset("improves improve improving improved outperforms outperform outperforming "
                           "outperformed surpasses surpass surpassing beats beat beating exceeds exceeding".split())


def _baseline_marked(doc: Doc, sent: Span, ent: Span) -> bool:
    """``over X``, ``than X``, ``compared to the previous state-of-the-art X``, ``outperforms X``."""
    i = ent.start - 1
    while i >= sent.start and ent.start - i <= 8:
        word = doc[i].lower_
        if word in _BASELINE_BEFORE or word in _COMPARE_VERBS:
            return True
        if doc[i - 1].text == "-" or (i + 1 < ent.start and doc[i + 1].text == "-"):
            i -= 1  # inside ``state-of-the-art``
            continue
        if word in ("of", "for", "with", "on", "in", "using", "to") and not (
                i > sent.start and doc[i - 1].lower_ in ("compared", "comparing", "relative", "respect")):
            return False  # ``improves the accuracy of X``: X is not compared
        if doc[i].pos_ in ("VERB", "AUX") or doc[i].text == ";" or word in ("while", "which", "that", "but"):
            return False
        i -= 1
    return False


def _baseline(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch) -> Span | None:
    """The actor the value is compared against, in the value's stretch of the sentence."""
    value = stretch.value
    marked = [e for e in ents if e.label_ in _ACTORS and stretch.left <= e.start and e.end <= stretch.reach
              and _baseline_marked(doc, sent, e)
              and not (e.start >= value.end and any(t.tag_ in _FINITE for t in doc[value.end:e.start]))]
    if not marked:
        return None
    return min(marked, key=lambda e: min(abs(e.start - value.end), abs(value.start - e.end)))


def _subject(doc: Doc, sent: Span, ents: list[Span], stretch: _Stretch, previous: dict | None,
             main: Span | None) -> Span | None:
    """The actor stating the value as the subject of its clause (``X achieves``, ``X that reaches``),
    else the subject of the value before it in the sentence, else the paper's proposal."""
    value = stretch.value
    actors = [e for e in ents if e.label_ in _ACTORS and stretch.left <= e.start and e.end <= value.start]
    for actor in sorted(actors, key=lambda e: -e.start):
        between = doc[actor.end:value.start]
        if _in_phrase(doc, sent, actor) and not _relative_clause(between):
            continue
        if _baseline_marked(doc, sent, actor) and not _relative_clause(between):
            continue
        if any(t.lower_ in _WE for t in between):
            continue
        if any(t.tag_ in _FINITE for t in between):
            return actor
    if previous is not None:
        return previous["_subject"]
    return main


def _in_phrase(doc: Doc, sent: Span, actor: Span) -> bool:
    """The actor is inside a prepositional phrase (``with X``, ``on the X``), not a clause's subject."""
    i = actor.start - 1
    while i >= sent.start and doc[i].pos_ in ("DET", "ADJ", "PRON") and actor.start - i <= 3:
        i -= 1
    return i >= sent.start and doc[i].lower_ in _PREPOSITIONS


def _relative_clause(between: Span) -> bool:
    """``GPT-4 that achieves 80%``: the value belongs to the actor right before it."""
    words = [t for t in between if t.text != ","]
    return len(words) > 1 and words[0].lower_ in ("that", "which", "who") and len(words) <= 4 and \
        any(t.lower_ in _SCORE_VERBS for t in words)


def _after(ents: list[Span], label: str, stretch: _Stretch) -> Span | None:
    """The first entity of ``label`` after the value, as far as its reach."""
    return next((e for e in ents if e.label_ == label and stretch.value.end <= e.start and e.end <= stretch.reach),
                None)


def _claimed(ents: list[Span], label: str, stretches: list) -> set[tuple[int, int]]:
    """Entities that follow a value not coordinated with the next one: that value's own."""
    found = set()
    for stretch in stretches:
        if stretch is not None and stretch.reach == stretch.right:
            after = _after(ents, label, stretch)
            if after is not None:
                found.add((after.start, after.end))
    return found


def _in_stretch(ents: list[Span], label: str, stretch: _Stretch, claimed: set) -> Span | None:
    """The entity of ``label`` in the value's stretch: after it (as far as its reach), else before it,
    else the sentence's only one; an entity that follows another value is that value's when this
    one names its own place (``1.8% in X and 8% in Y``; but ``45% on X, surpassing Z by 3%``: X)."""
    after = _after(ents, label, stretch)
    if after is not None:
        return after
    of_label = [e for e in ents if e.label_ == label]
    doc = stretch.value.doc
    own_place = False  # ``8% in power system expansion``: a place no entity of another type accounts for
    for t in doc[stretch.value.end:min(len(doc), stretch.value.end + 3)]:
        if t.lower_ in ("on", "in", "for", "across"):
            j = t.i + 1
            while j < len(doc) and doc[j].pos_ == "DET":
                j += 1
            own_place = not any(e.start == j and e.label_ != label for e in ents)
            break
    free = [e for e in of_label if not own_place or (e.start, e.end) not in claimed]
    before = [e for e in free if stretch.left <= e.start and e.end <= stretch.value.start]
    if before:
        return before[-1]
    if len({e.text.lower() for e in of_label}) == 1 and free:
        return free[0]
    return None


def _setting(sent: Span, ents: list[Span]) -> str | None:
    """Shots, sizes, bit widths, epochs the sentence states (outside entity names)."""
    found = []
    for match in _SETTING.finditer(sent.text):
        start = sent.start_char + match.start()
        if any(e.start_char <= start < e.end_char for e in ents):
            continue
        text = match.group(0)
        if text.lower() not in (f.lower() for f in found):
            found.append(text)
    return ", ".join(found) or None


def _offsets(span: Span | None) -> tuple[int, int] | None:
    return (span.start_char, span.end_char) if span is not None else None
