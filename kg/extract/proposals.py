"""What the paper itself introduces and names.

Patterns, all general syntax (no names are listed anywhere):
- a proposing verb with *we* / *this paper* / *this work* and a named entity in
  its object: ``we introduce AFLOW, an automated framework``;
- a naming word: ``dubbed DIOTM``, ``a framework named AtSpeed``;
- ``X, a novel ... model`` and, at the start of an abstract, ``X is a ... model``;
- ``our (proposed|resulting|new) X``, ``our method, X,``, ``the proposed algorithm, X (Y),``;
- an acronym defined by bold letters;
- an acronym the abstract defines whose long form the paper proposes, or whose long form
  stands set apart after a description a proposing verb calls new (``we propose a novel
  algorithm---Dynamics Learning with Parameterized Actions (DLPA)---``).
A descriptive phrase (no capitals, digits or coined word) gets only the naming word and
``X, a new <kind>`` patterns: ``a technique named data-dependent contraction``.
The proposed entity takes the type of the descriptive noun it is given
(``AFLOW, an automated framework`` -> Method; ``a benchmark named X`` -> Dataset).
Proposed spans are copied to ``doc.spans[proposed_key]``.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.abbreviations import is_short_form
from kg.extract.entities import OUR_NEW, emphasized_spans, is_name_like, is_variant, type_of_phrase
from kg.extract.entities.component import DOUBT, doubt_tenths
from kg.extract.entities.context_types import BENCH_NAME
from kg.extract.entities.shapes import is_year
from kg.extract.lexicons import term_frequency
from kg.extract.linear import LinearModel
from kg.extract.models import model_path
from kg.extract.sentences import sentence_words
from kg.extract.vocabulary import Vocabulary
from kg.ids import name_key

__all__ = ["ProposalFinder", "proposal_features"]

if not Doc.has_extension("kg_title"):
    Doc.set_extension("kg_title", default="")

_SUBJECTS = {"we", "paper", "work", "study", "article", "i"}
_APPOSITION_ARTICLES = {"a", "an", "the", "our"}
_WE = {"we", "our", "this"}
#: Words after a description's head: ``X, a memory-guided transformer using ...``.
_DESCRIPTION_ENDS = frozenset("that which for to of with on in by using via from through as".split())
_PRETRAINED = {"language", "foundation", "pretrained", "pre-trained", "vision-language", "multimodal"}


@Language.factory(
    "kg_proposals",
    assigns=["doc.spans"],
    requires=["doc.spans"],
    default_config={
        "spans_key": "kg_entities",
        "proposed_key": "kg_proposed",
        "window": 14,
        "vocabulary": {"@misc": "kg.vocabulary.v1"},
        "model": "proposals.npz",
        "threshold": 0.45,
        "phrase_threshold": 0.6,
    },
)
def make_proposal_finder(
    nlp: Language, name: str, spans_key: str, proposed_key: str, window: int, vocabulary: Vocabulary,
    model: str, threshold: float, phrase_threshold: float,
):
    return ProposalFinder(
        spans_key=spans_key, proposed_key=proposed_key, window=window, vocabulary=vocabulary,
        model=model, threshold=threshold, phrase_threshold=phrase_threshold,
    )


def _described_as_new(doc: Doc, ent: Span) -> bool:
    """``X, a novel metric``, ``X, a new benchmark``: an apposition that calls the name new
    introduces it, wherever it stands."""
    i = ent.end
    return i + 2 < len(doc) and doc[i].text in (",", "—", "–", ":") and doc[i + 1].lower_ in ("a", "an") \
        and doc[i + 2].lower_ in ("novel", "new")


#: The repository of a code link: ``github.com/msr-fiddle/phaze`` -> ``phaze``.
_REPOSITORY = re.compile(r"(?:github|gitlab)\.com/[\w.-]+/([\w-]+(?:\.[\w-]+)*)")


def _squeezed(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def _names_the_code(ent: Span, repositories: set[str]) -> bool:
    """The abstract links the code of the method, model or dataset of the name (``The source code
    of PHAZE is available at github.com/msr-fiddle/phaze``, ``Neural SPH`` at ``.../neuralsph``):
    the paper's own; not a catalogued name (a link to a library such as ``transformers``), nor a
    task a repository is named after (``.../offline-moo`` of a study of offline MOO)."""
    return (ent.label_ in ("Method", "Model", "Dataset") and not ent.kb_id_ and len(_squeezed(ent.text)) >= 3
            and _squeezed(ent.text) in repositories)


def _opens_the_title(ent: Span, title: str) -> bool:
    """``AlpacaFarm: A Simulation Framework for ...``: a catalogued name the title opens with is
    the paper's own (the catalogue lists it because the field took it up); a name the abstract
    alone proposes goes through the patterns and the decision."""
    head = title.split(":", 1)[0] if ":" in title else ""
    return bool(ent.kb_id_) and bool(head.strip()) and name_key(head) == name_key(ent.text)


def _cited(doc: Doc, ent: Span) -> bool:
    """``PATE (Papernot et al., 2016)``, ``MPCFormer (ICLR 2023)``: a name the text cites is
    earlier work, never the paper's proposal."""
    if ent.end >= len(doc) or doc[ent.end].text not in ("(", "["):
        return False
    inside = doc[ent.end + 1:min(len(doc), ent.end + 12)]
    close = next((t.i for t in inside if t.text in (")", "]")), None)
    if close is None:
        return False
    cited = doc[ent.end + 1:close]
    return (any(t.text[:1].isupper() and t.is_alpha for t in cited)
            and any(is_year(t.text) for t in cited))


#: Words that mark a phrase as earlier work: ``a state-of-the-art method (TRADES)``.
_EARLIER = frozenset("sota existing previous baseline baselines leading conventional traditional popular "
                     "classical competing competitive".split())


def _earlier_example(doc: Doc, ent: Span) -> bool:
    """``outperforms a state-of-the-art method (TRADES)``, ``existing baselines (X)``: a name in
    parentheses after a phrase of earlier work is an example of it, not the paper's proposal."""
    if ent.start < 2 or doc[ent.start - 1].text != "(":
        return False
    i = ent.start - 2
    while i >= ent.sent.start and (doc[i].pos_ in ("ADJ", "NOUN", "PROPN", "NUM") or _glued_hyphen(doc, i)
                                   or (i + 1 < len(doc) and _glued_hyphen(doc, i + 1))):
        if doc[i].lower_ in _EARLIER or (doc[i].lower_ == "art" and _glued_hyphen(doc, i - 1)):  # state-of-the-art
            return True
        i -= 1
    return False


def _glued_hyphen(doc: Doc, i: int) -> bool:
    """Token ``i`` is a hyphen joining the words beside it (``score-based``)."""
    return doc[i].text == "-" and 0 < i < len(doc) - 1 and not doc[i - 1].whitespace_ and not doc[i].whitespace_


def _reduced_relative(words: Span, i: int) -> bool:
    """``a benchmark designed to evaluate ... LLMs``: a participle after a noun describes
    that noun; it does not make the words after it the paper's proposal."""
    return words[i].tag_ == "VBN" and i > 0 and words[i - 1].pos_ in ("NOUN", "PROPN")


class ProposalFinder:
    def __init__(self, *, spans_key: str, proposed_key: str, window: int, vocabulary: Vocabulary,
                 model: str = "", threshold: float = 0.45, phrase_threshold: float = 0.6):
        self.spans_key = spans_key
        self.proposed_key = proposed_key
        self.window = window
        self.vocab = vocabulary
        self.threshold = threshold  # for names (ZORVAK, GenRM); descriptive phrases need more evidence
        self.phrase_threshold = phrase_threshold
        path = model_path(model) if model else None
        self.classifier = LinearModel.load(path) if path is not None and path.is_file() else None

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get(self.spans_key, []))
        proposed, reasons = self._by_patterns(doc, entities)
        if self.classifier is not None:
            proposed = self._decide(doc, entities, proposed, reasons)
            entities, proposed = self._with_unlisted_variants(doc, entities, proposed)
        relabeled = []
        for index, ent in enumerate(entities):
            label = "Dataset" if BENCH_NAME.search(ent.text) else proposed.get(index) or ent.label_
            relabeled.append(Span(doc, ent.start, ent.end, label=label, kb_id=ent.kb_id))
        doc.spans[self.spans_key] = relabeled
        doc.spans[self.proposed_key] = [relabeled[i] for i in sorted(proposed)]
        return doc

    def _by_patterns(self, doc: Doc, entities: list[Span]) -> tuple[dict[int, str | None], dict[int, str]]:
        """Entity index -> the type its description gives (or None), and the pattern that fired."""
        proposed: dict[int, str | None] = {}
        reasons: dict[int, str] = {}
        for index, ent in enumerate(entities):
            if ent.kb_id_:
                continue
            found = self._proposal_type(doc, ent, entities) if self._nameable(ent) else self._phrase_named(doc, ent)
            if found is not False:
                proposed[index], reasons[index] = found
        self._through_acronyms(doc, entities, proposed, reasons)
        return proposed, reasons

    def _decide(self, doc: Doc, entities: list[Span], proposed: dict, reasons: dict) -> dict[int, str | None]:
        """The learned decision: per name, the patterns' evidence and its context -> proposed or not."""
        decided: dict[int, str | None] = {}
        starts = [sent.start for sent in doc.sents]
        by_pattern = {name_key(entities[i].text) for i in reasons}
        repositories = {_squeezed(name.removesuffix(".git")) for name in _REPOSITORY.findall(doc.text)}
        for indices in _by_name(entities).values():
            if any(_cited(doc, entities[i]) or _earlier_example(doc, entities[i]) for i in indices):
                continue
            nameable = self._nameable(entities[indices[0]])
            features = proposal_features(doc, entities, indices, reasons, self.vocab, starts, by_pattern,
                                         nameable=nameable)
            threshold = self.threshold if nameable else self.phrase_threshold
            # ``X, a novel metric``: the paper says the name is new, whatever else the context says;
            # so does the name of the code's repository
            if (self.classifier.probability(features, "proposed") >= threshold
                    or any(reasons.get(i) == "apposition" and _described_as_new(doc, entities[i]) for i in indices)
                    or any(reasons.get(i) == "new-long-form" for i in indices)
                    or _names_the_code(entities[indices[0]], repositories)
                    or _opens_the_title(entities[indices[0]], doc._.kg_title)):
                kind = next((proposed[i] for i in indices if proposed.get(i)), None)
                decided.update({i: kind for i in indices})
        chosen = {name_key(entities[i].text) for i in decided}
        written = {entities[i].text for i in decided}
        for index, ent in enumerate(entities):  # ``RGIB-SSL`` and ``RGIB-REP`` of a proposed ``RGIB``
            if index not in decided and not ent.kb_id_ and (
                    is_variant(name_key(ent.text), chosen) or _prefixed_variant(ent.text, written)):
                decided[index] = proposed.get(index)
        return decided

    @staticmethod
    def _with_unlisted_variants(doc: Doc, entities: list[Span], proposed: dict) -> tuple[list[Span], dict]:
        """``AtSpeed-S`` written beside a proposed ``AtSpeed`` names a part of the proposal even
        when the entity decision left it out: add it, proposed, with the type of its base."""
        bases = {entities[i].text: entities[i] for i in proposed if len(entities[i]) == 1}
        taken = {t for e in entities for t in range(e.start, e.end)}
        added = []
        for token in doc:
            base = bases.get(token.text)
            i = token.i
            if base is None or i + 2 >= len(doc) or token.whitespace_ or doc[i + 1].text != "-":
                continue
            end = i + 1
            while end + 1 < len(doc) and doc[end].text == "-" and not doc[end].whitespace_ and doc[end + 1].is_alpha:
                end += 2
            if end > i + 1 and not taken.intersection(range(i, end)):
                added.append(Span(doc, i, end, label=base.label_))
                taken.update(range(i, end))
        if not added:
            return entities, proposed
        merged = sorted([*entities, *added], key=lambda s: s.start)
        position = {(s.start, s.end): n for n, s in enumerate(merged)}
        kept = {position[(entities[i].start, entities[i].end)]: kind for i, kind in proposed.items()}
        kept.update({position[(s.start, s.end)]: None for s in added})
        return merged, kept

    def _nameable(self, ent: Span) -> bool:
        text = ent.text
        return is_name_like(text, self.vocab) or text[:1].isupper()

    def _proposal_type(self, doc: Doc, ent: Span, entities: list[Span]):
        """False when no pattern proposes ``ent``, else (the type its description gives or None,
        the pattern)."""
        sent = ent.sent
        before = doc[max(sent.start, ent.start - self.window) : ent.start]
        lowers = [t.lower_ for t in before]
        description = self._description(doc, ent)
        has_subject = not _SUBJECTS.isdisjoint(sentence_words(sent))
        if self.vocab.names_next(lowers[-2:]):
            return self._described_by_preceding(doc, ent) or description, "naming"
        if has_subject and self._object_of_proposing_verb(doc, before, ent, entities):
            return description or self._described_by_preceding(doc, ent), "verb"
        if lowers[-2:] in OUR_NEW:
            return description, "our"
        head = _our_head(doc, before, ent)
        if head is not None and (kind := self._generic_type(head)):
            return kind, "our"
        if description and doc[ent.end + 1].lower_ == "our":  # X, our new method for ...
            return description, "our"
        if description and (ent.start == sent.start or lowers[-1:] == ["("]) and has_subject:
            return description, "apposition"
        if _described_as_new(doc, ent):
            return description, "apposition"
        if ent.start == 0 and ent.end < len(doc) and doc[ent.end].lower_ == "is":
            described = self._description_after(doc, ent.end + 1, released=True)
            return (described, "opening") if described else False
        return False

    def _phrase_named(self, doc: Doc, ent: Span):
        """A descriptive phrase the paper names as its own (``a technique named data-dependent
        contraction``, ``the contextual lasso, a new estimator``): only a naming word or an
        apposition calling it a new thing of a kind; the other patterns need a name."""
        if self.vocab.names_next([t.lower_ for t in doc[max(0, ent.start - 2):ent.start]]):
            return self._described_by_preceding(doc, ent) or self._description(doc, ent), "naming"
        kind = self._description(doc, ent) if _described_as_new(doc, ent) else None
        return (kind, "apposition") if kind else False

    def _object_of_proposing_verb(self, doc: Doc, before: Span, ent: Span, entities: list[Span]) -> bool:
        """``we introduce X``: the last proposing verb before ``ent`` has it as its object, in the
        same clause and with no other entity between."""
        verbs = [
            i for i, t in enumerate(before)
            if t.lower_ in self.vocab.propose_verbs and not _reduced_relative(before, i)
        ]
        if not verbs:
            return False
        after_verb = before[verbs[-1] + 1 :]
        if any(t.text in (".", ";", ":") or t.lower_ in ("that", "which", "whether", "how") for t in after_verb):
            return False
        return not self._other_entity_between(doc, after_verb, ent, entities)

    @staticmethod
    def _other_entity_between(doc: Doc, span: Span, ent: Span, entities: list[Span]) -> bool:
        """Another entity between the verb and ``ent``: ``ent`` is not the verb's object
        (unless ``ent`` is that entity's acronym in parentheses)."""
        if ent.start > 0 and doc[ent.start - 1].text == "(":
            return False
        return any(span.start <= other.start and other.end <= span.end for other in entities)

    def _description(self, doc: Doc, ent: Span) -> str | None:
        """The type named by an apposition: ``X, a novel graph generative model``."""
        i = ent.end
        if i + 1 < len(doc) and doc[i].text in (",", "(", ":", "—", "–") and (
            doc[i + 1].lower_ in _APPOSITION_ARTICLES
        ):
            return self._description_after(doc, i + 1)
        return None

    def _description_after(self, doc: Doc, i: int, released: bool = False) -> str | None:
        end, words = i, 0
        while end < len(doc) and words < 10:
            if _glued_hyphen(doc, end):
                end += 2  # ``a retrieval-augmented translation method``, ``a score-based method``: one modifier
                continue
            if doc[end].is_punct or doc[end].lower_ in _DESCRIPTION_ENDS:
                break
            end, words = end + 1, words + 1
        end = min(end, len(doc))
        for j in range(end, i, -1):
            if j < end and doc[j].pos_ in ("NOUN", "PROPN"):
                continue  # ``a fighting game platform``: ``game`` modifies the head after it
            kind = type_of_phrase(doc[i:j], self.vocab)
            if kind:
                return self._generic_type(doc[i:j], released) or kind
        # ``X, a novel metric for ...``: a metric's kind word, which type_of_phrase does not read,
        # unless a hyphen cut the word short (``a score-based method``)
        whole = end > i and (end == len(doc) or doc[end].text != "-")
        return "Metric" if whole and self._generic_type(doc[i:end]) == "Metric" else None

    def _described_by_preceding(self, doc: Doc, ent: Span) -> str | None:
        """``a framework named X``, ``framework (X)``: the head of the phrase before the name, if it
        is a kind word (not a word further back: *score* in ``score matching regularity (SMaRt)``)."""
        for j in range(ent.start - 1, max(ent.sent.start, ent.start - 8) - 1, -1):
            kind = self._generic_type(doc[max(ent.sent.start, j - 3) : j + 1])
            if kind:
                return kind
            if doc[j].pos_ in ("NOUN", "PROPN"):
                return None
        return None

    def _generic_type(self, description: Span, released: bool = False) -> str | None:
        """The type a description's head word gives. A *model* is a Model when it is a
        released, pretrained or language model, else a Method (a kind of approach)."""
        word = description[-1].lower_
        if word in self.vocab.dataset_heads:
            return "Dataset"
        if word in ("model", "models", "llm", "llms"):
            words = {t.lower_ for t in description}
            return "Model" if released or words & _PRETRAINED or word.startswith("llm") else "Method"
        if word in ("metric", "measure", "score"):
            return "Metric"
        if word in self.vocab.method_heads:
            return "Method"
        return None

    def _through_acronyms(self, doc: Doc, entities: list[Span], proposed: dict, reasons: dict) -> None:
        """Propagate between an acronym and its long form; and treat bold-letter acronyms."""
        bold = {(s, e) for s, e, kind in doc._.kg_emphasis if kind == "bold"}
        by_char = {(e.start_char, e.end_char): i for i, e in enumerate(entities)}
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            short = self._overlapping(by_char, s_start, s_end)
            long = self._overlapping(by_char, l_start, l_end)
            if short is None or entities[short].kb_id_:
                continue
            long_has_bold = any(l_start <= s < l_end for s, _ in bold)
            if long is not None and long in proposed:
                proposed.setdefault(short, proposed[long])
                reasons.setdefault(short, "acronym")
            elif long_has_bold and l_end - l_start > s_end - s_start:
                proposed.setdefault(short, None)
                reasons.setdefault(short, "bold")
            if short in proposed:
                if long is not None:
                    proposed[long] = proposed[short]
                    reasons.setdefault(long, "acronym")
            elif long is not None and self._long_form_proposed(doc, entities[long]):
                proposed[short] = proposed[long] = None
                reasons[short] = reasons[long] = "long-form"
            elif long is None and (words := doc.char_span(l_start, l_end, alignment_mode="expand")) is not None \
                    and self._new_in_clause(doc, words):
                proposed[short] = None
                reasons[short] = "new-long-form"

    def _long_form_proposed(self, doc: Doc, long: Span) -> bool:
        before = doc[max(long.sent.start, long.start - 6) : long.start]
        lowers = [t.lower_ for t in before]
        if any(pair in (("our", "proposed"), ("our", "new")) for pair in zip(lowers, lowers[1:])):
            return True
        if any(w in self.vocab.propose_verbs for w in lowers) and any(
            t.lower_ in _SUBJECTS for t in long.sent
        ):
            return not any(t.text in ",;:" for t in before[-3:])
        return False

    def _new_in_clause(self, doc: Doc, span: Span) -> bool:
        """``we propose a novel model-based RL algorithm---Dynamics Learning ... (DLPA)``: the
        name set apart right after a description the paper's proposing verb calls new."""
        sent = span.sent
        if span.start == sent.start or doc[span.start - 1].text not in ("—", "–", "---", "--", ",", ":") \
                or _SUBJECTS.isdisjoint(sentence_words(sent)):
            return False
        for k in range(span.start - 2, sent.start - 1, -1):
            token = doc[k]
            if token.text in (".", ";", ":", "(", ")") or token.lower_ in ("that", "which", "whether", "how", "and"):
                return False
            if token.lower_ in self.vocab.propose_verbs:
                return any(t.lower_ in ("novel", "new") for t in doc[k + 1:span.start])
        return False

    @staticmethod
    def _overlapping(by_char: dict, start: int, end: int) -> int | None:
        exact = by_char.get((start, end))
        if exact is not None:
            return exact
        for (s, e), i in by_char.items():
            if s <= start < e or start <= s < end:
                return i
        return None


_PREFIX = re.compile(r"[a-z]{1,2}-?")


def _prefixed_variant(text: str, names: set[str]) -> bool:
    """``pFedLMT`` of a proposed ``FedLMT``, ``cf-ASE`` of ``ASE``: one or two lower-case letters
    before a proposed name that starts with a capital make a variant of it."""
    return any(len(name) >= 3 and name[0].isupper() and text.endswith(name) and _PREFIX.fullmatch(text[:-len(name)])
               for name in names)


def _by_name(entities: list[Span]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for i, ent in enumerate(entities):
        groups.setdefault(name_key(ent.text), []).append(i)
    return groups


def _mostly_capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return sum(c.isupper() for c in letters) * 2 >= len(letters)


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for edge in edges:
        if n <= edge:
            return str(edge)
    return f">{edges[-1]}"


def _our_head(doc: Doc, before: Span, ent: Span) -> Span | None:
    """``our method, Bloop, converges``, ``Our second technique (DP-Mix)``: the words between
    *our* and the comma or bracket that open an apposition naming what the paper calls its own.
    A comma opens one only when another closes it (``Unlike our method, X needs`` names no
    proposal)."""
    if len(before) < 3 or before[-1].text not in (",", "(", "—", "–"):
        return None
    closed = ent.end < len(doc) and doc[ent.end].text in (",", ")", "—", "–", "(")
    if before[-1].text != "(" and not closed:
        return None
    for k in range(len(before) - 2, max(-1, len(before) - 6), -1):
        if before[k].lower_ == "our" or (before[k].lower_ == "proposed" and k > 0 and before[k - 1].lower_ == "the"):
            head = before[k + 1 : len(before) - 1]
            return head if len(head) and not any(t.is_punct or t.pos_ in ("VERB", "AUX") for t in head) else None
    return None


def proposal_features(doc: Doc, entities: list[Span], indices: list[int], reasons: dict[int, str],
                      vocabulary: Vocabulary, starts: list[int] | None = None,
                      by_pattern: set[str] = frozenset(), nameable: bool = True) -> list[str]:
    """What speaks for and against the paper proposing the entity named by ``entities[indices]``
    (``starts``: the first token of each sentence, if the caller has them; ``by_pattern``:
    name keys a proposing pattern found; ``nameable``: written as a name, not a phrase)."""
    spans = [entities[i] for i in indices]
    first = spans[0]
    feats = [f"type={first.label_}", f"mentions={_bucket(len(spans), (1, 2, 4))}",
             f"tokens={_bucket(len(first), (1, 2, 3))}"]
    feats += sorted({f"rule={reasons[i]}" for i in indices if i in reasons}) or ["rule=none"]
    feats += [f"rule={reasons[i]}|{first.label_}" for i in indices[:1] if i in reasons]
    feats += [f"rule={reasons[i]}|{'name' if nameable else 'phrase'}" for i in indices[:1] if i in reasons]
    if any(s.kb_id_ for s in spans):
        feats.append("catalogue")
    feats += _shape_features(first.text)
    feats += _standing_features(doc, spans, vocabulary, by_pattern)
    feats += _doubt_features(doc, spans)
    feats += _first_sentence_features(doc, spans, vocabulary, starts)
    for span in spans[:3]:
        feats += _context_features(doc, span, vocabulary)
    return sorted(set(feats))


def _shape_features(text: str) -> list[str]:
    """How the name is written: acronym, capital or lower, digits, mixed case."""
    if is_short_form(text.replace(" ", "")) and _mostly_capitals(text):
        feats = ["shape=acronym"]
    else:
        feats = ["shape=capital" if text[:1].isupper() else "shape=lower"]
    if any(c.isdigit() for c in text):
        feats.append("shape=digit")
    if any(c.isupper() for c in text[1:]) and any(c.islower() for c in text):
        feats.append("shape=mixed")
    return feats


def _standing_features(doc: Doc, spans: list[Span], vocabulary: Vocabulary, by_pattern: set[str]) -> list[str]:
    """Where the name stands in the field and the paper: generic, a variant of a proposal,
    emphasised, how common in the field, in the title."""
    text = spans[0].text
    feats = []
    if vocabulary.is_generic_phrase(text) or vocabulary.is_family(text):
        feats.append("generic")
    if is_variant(name_key(text), by_pattern):
        feats.append("variant_of_proposed")  # AtSpeed-S beside AtSpeed
    emphasized = {(s.start, s.end) for s in emphasized_spans(doc)}
    if any((s.start, s.end) in emphasized for s in spans):
        feats.append("emphasized")  # we introduce *topological parallax*
    feats.append(f"field_df={_bucket(term_frequency(text), (0, 9, 49))}")
    title = doc._.kg_title.lower()
    if title and text.lower() in title:
        feats += ["in_title", f"in_title|{'start' if title.startswith(text.lower()) else 'inside'}"]
    return feats


def _doubt_features(doc: Doc, spans: list[Span]) -> list[str]:
    """How doubtful the entity decision was that the name is an entity at all."""
    doubts = doc.user_data.get(DOUBT, {})
    found = [doubts[(s.start, s.end)] for s in spans if (s.start, s.end) in doubts]
    return [f"doubt={doubt_tenths(min(found))}"] if found else []


def _first_sentence_features(doc: Doc, spans: list[Span], vocabulary: Vocabulary,
                             starts: list[int] | None) -> list[str]:
    """Which sentence first names the entity, and whether it is a *we propose* sentence."""
    first = spans[0]
    sentences = sorted({s.sent.start for s in spans})
    starts = starts if starts is not None else [sent.start for sent in doc.sents]
    index = bisect_left(starts, sentences[0])
    position = "short-text" if len(starts) <= 2 else _bucket(index, (0, 1, 2))
    feats = [f"first_sent={position}"]
    if first.sent.start == sentences[0] and _says_we_propose(sentence_words(first.sent), vocabulary):
        feats.append(f"first_sent={position}|we_propose")
    return feats


def _context_features(doc: Doc, span: Span, vocabulary: Vocabulary) -> list[str]:
    """The words around one mention, and whether its sentence speaks of *we*."""
    before = [t.lower_ for t in doc[max(span.sent.start, span.start - 3):span.start]]
    after = [t.lower_ for t in doc[span.end:min(span.sent.end, span.end + 2)]]
    feats = [f"prev={w}" for w in before[-1:]] + [f"prev2={' '.join(before[-2:])}"]
    feats += [f"next={w}" for w in after[:1]] + [f"next2={' '.join(after)}"]
    words = sentence_words(span.sent)
    if _says_we_propose(words, vocabulary):
        feats.append("sent=we_propose")
    elif words & {"we", "our"}:
        feats.append("sent=we")
    return feats


def _says_we_propose(words: frozenset[str], vocabulary: Vocabulary) -> bool:
    """A sentence's words name the authors (*we*, *our*, *this*) and a proposing verb."""
    return bool(words & _WE and words & vocabulary.propose_verbs)
